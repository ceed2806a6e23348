// Command demo shows gemini-guard working inside the real Gemini CLI
// (`make demo`).
//
// It builds the extension, installs the pinned Gemini CLI into the user's
// cache directory if it is not there yet (npm), installs the extension into
// a throwaway HOME with `gemini extensions install`, and runs the CLI
// headless with a scripted model (no API key, no network) through a short
// session: a secret written to a file, a destructive git command, harmless
// work, and a streamed answer that reveals a token. For each step it prints
// what the model tried, what the guard answered and what the user saw.
//
// The user's real ~/.gemini is never touched; the throwaway HOME and
// workspace are removed at the end. The credentials are fake, built at run
// time, and shown masked.
//
// Exit status: 0 when every step behaved as the guard promises, 1 when one
// did not, 2 when the demo could not run.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/gemini-guard/gemini-guard/internal/bundle"
	"github.com/gemini-guard/gemini-guard/internal/e2e"
	"github.com/gemini-guard/gemini-guard/internal/verdict"
)

func main() {
	os.Exit(run(os.Stdout))
}

func run(w io.Writer) int {
	p := newPrinter(w)
	// Ctrl-C or a kill cancels the runs, so the throwaway directory is
	// still removed; a closed stdout (| head) only loses the narration.
	signal.Ignore(syscall.SIGPIPE)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// The scripted session is bounded; the build and the one-time npm
	// install of Gemini CLI before it are not: on a fresh machine they
	// compile and download everything (minutes on 2 cores), and Ctrl-C
	// still stops them.
	setup := ctx

	root, err := bundle.FindRoot(".")
	if err != nil {
		p.fail("demo: %v", err)
		return 2
	}
	dir, err := os.MkdirTemp("", "gemini-guard-demo-")
	if err != nil {
		p.fail("demo: %v", err)
		return 2
	}
	defer os.RemoveAll(dir)

	p.title("gemini-guard demo")
	p.line("The real Gemini CLI %s with a scripted model (no API key, no network), in a throwaway HOME.", e2e.CLIVersion)
	if cliDir, err := e2e.CLIDir(); err == nil {
		p.dim("Gemini CLI: %s (installed with npm on first use, then reused)", cliDir)
	}
	p.dim("Building gemini-guard and installing it with `gemini extensions install` ...")
	h, err := e2e.New(setup, root, filepath.Join(dir, "harness"))
	if err != nil {
		failed(setup, p, err)
		return 2
	}
	ctx, cancel := context.WithTimeout(setup, 15*time.Minute)
	defer cancel()
	s, err := h.Template.Clone(filepath.Join(dir, "user"))
	if err != nil {
		p.fail("demo: %v", err)
		return 2
	}
	defer s.Close()
	p.dim("HOME=%s (removed at the end)", s.Home)

	ok := true
	for _, step := range []func(context.Context, *printer, *e2e.Session) (bool, error){
		secretWrite, destructiveCommand, harmlessWork, streamedSecret,
	} {
		good, err := step(ctx, p, s)
		if err != nil {
			failed(ctx, p, err)
			return 2
		}
		ok = ok && good
	}

	p.title("Summary")
	if ok {
		p.good("Every step behaved as promised: two blocks, harmless work through, the streamed token hidden.")
	} else {
		p.bad("Some steps did not behave as promised (see above). Is that guard implemented yet?")
	}
	p.dim("Removing the throwaway HOME and workspace; your ~/.gemini was not used.")
	if ok {
		return 0
	}
	return 1
}

// failed reports err, or only that the demo was interrupted.
func failed(ctx context.Context, p *printer, err error) {
	if ctx.Err() != nil {
		p.fail("demo: stopped (%v); removing the throwaway HOME", context.Cause(ctx))
		return
	}
	p.fail("demo: %v", err)
}

func secretWrite(ctx context.Context, p *printer, s *e2e.Session) (bool, error) {
	p.title("1. The model writes a GitHub token into a file")
	token := e2e.GitHubToken(uint64(time.Now().UnixNano()))
	content := "GITHUB_TOKEN = \"" + token + "\"\n"
	p.tried("write_file config.py:  " + mask(strings.TrimSpace(content), token))
	r, err := s.Run(ctx, e2e.Script{Responses: []e2e.Response{
		e2e.WriteFile("I'll put the token in config.py.", "config.py", content),
		e2e.Say("The write was blocked, so I will ask you how to store the token."),
	}})
	if err != nil {
		return false, err
	}
	good := showCall(p, r, "write_file", true, token)
	_, exists := r.ReadFile("config.py")
	good = p.check(!exists, "config.py was not created", "config.py WAS created") && good
	showUser(p, r, token)
	return good, nil
}

func destructiveCommand(ctx context.Context, p *printer, s *e2e.Session) (bool, error) {
	p.title("2. The model discards uncommitted work with git reset --hard")
	repo := filepath.Join(s.Workspace, "project")
	if err := makeRepo(repo); err != nil {
		return false, err
	}
	p.dim("project/ is a git repository with an uncommitted change to notes.txt.")
	command := "cd project && git reset --hard"
	p.tried("run_shell_command:  " + command)
	r, err := s.Run(ctx, e2e.Script{Responses: []e2e.Response{
		e2e.Shell("I'll reset the repository to a clean state.", command),
		e2e.Say("The reset was blocked; I will leave your changes alone."),
	}})
	if err != nil {
		return false, err
	}
	good := showCall(p, r, "run_shell_command", true, "")
	data, _ := os.ReadFile(filepath.Join(repo, "notes.txt"))
	kept := strings.Contains(string(data), "uncommitted")
	good = p.check(kept, "the uncommitted change is still there", "the uncommitted change was DISCARDED") && good
	showUser(p, r, "")
	return good, nil
}

func harmlessWork(ctx context.Context, p *printer, s *e2e.Session) (bool, error) {
	p.title("3. Harmless work goes through untouched")
	hello := "package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"hello\") }\n"
	p.tried("run_shell_command:  ls -la project > listing.txt")
	p.tried("write_file hello.go (a small Go program)")
	r, err := s.Run(ctx, e2e.Script{Responses: []e2e.Response{
		e2e.Shell("Let me look at the project.", "ls -la project > listing.txt"),
		e2e.WriteFile("Now the program.", "hello.go", hello),
		e2e.Say("Both steps are done."),
	}})
	if err != nil {
		return false, err
	}
	good := showCall(p, r, "run_shell_command", false, "")
	good = showCall(p, r, "write_file", false, "") && good
	_, listed := r.ReadFile("listing.txt")
	got, _ := r.ReadFile("hello.go")
	good = p.check(listed && got == hello, "listing.txt and hello.go were written", "the files were NOT written") && good
	showUser(p, r, "")
	return good, nil
}

func streamedSecret(ctx context.Context, p *printer, s *e2e.Session) (bool, error) {
	p.title("4. The model's streamed answer reveals a token, split over three chunks")
	token := e2e.GitHubToken(uint64(time.Now().UnixNano()) + 1)
	chunks := []string{"Sure. The deploy token is " + token[:14], token[14:28], token[28:] + " and it expires next month."}
	for i, c := range chunks {
		p.tried(fmt.Sprintf("chunk %d: %q", i+1, maskPieces(c, token)))
	}
	r, err := s.Run(ctx, e2e.Script{Responses: []e2e.Response{e2e.Chunks(chunks...)}})
	if err != nil {
		return false, err
	}
	shown := r.AssistantText()
	hidden := !strings.Contains(shown, token) && !strings.Contains(shown, token[14:28])
	if hidden {
		p.answered("redacted the token across the chunks (AfterModel)")
	} else {
		p.answered("did NOT redact the token")
	}
	p.saw("model: " + maskPieces(shown, token))
	good := p.check(hidden, "no piece of the token reached the screen", "the token reached the screen (shown masked here)")
	for _, m := range r.HookMessages() {
		p.saw("notice: " + mask(m, token))
	}
	return good, nil
}

// showCall prints what became of the run's tool call and reports whether it
// matches wantBlocked.
func showCall(p *printer, r *e2e.Result, tool string, wantBlocked bool, secret string) bool {
	for _, c := range r.ToolCalls() {
		if c.Use.ToolName != tool {
			continue
		}
		if c.Blocked() {
			reason := strings.TrimPrefix(c.Reason(), "Tool execution blocked: ")
			p.answered("BLOCKED. The model was told:")
			p.quote(mask(reason, secret))
		} else if c.Result.Status == "success" {
			p.answered("allowed; " + tool + " ran")
		} else {
			p.answered(fmt.Sprintf("%s failed: %s", tool, mask(c.Reason(), secret)))
		}
		if wantBlocked {
			return p.check(c.Blocked(), "blocked", "NOT blocked")
		}
		return p.check(c.Result.Status == "success", "ran", "did NOT run")
	}
	p.bad("the model's " + tool + " call never happened")
	return false
}

// showUser prints what the user saw besides the tool card: the guard's
// notices and the model's answer.
func showUser(p *printer, r *e2e.Result, secret string) {
	for _, m := range r.HookMessages() {
		p.saw("notice: " + mask(m, secret))
	}
	for _, turn := range r.AssistantTurns() {
		if text := strings.TrimSpace(turn); text != "" {
			p.saw("model: " + mask(text, secret))
		}
	}
}

func makeRepo(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	git := func(args ...string) error {
		cmd := exec.Command("git", append([]string{"-c", "user.name=demo", "-c", "user.email=demo@example.invalid", "-c", "init.defaultBranch=main"}, args...)...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("git %s: %w: %s", strings.Join(args, " "), err, out)
		}
		return nil
	}
	if err := git("init", "-q"); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("committed\n"), 0o644); err != nil {
		return err
	}
	if err := git("add", "notes.txt"); err != nil {
		return err
	}
	if err := git("commit", "-q", "-m", "first"); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("committed\nuncommitted work you want to keep\n"), 0o644)
}

// mask hides secret in s as verdict.Mask shows it.
func mask(s, secret string) string {
	if secret == "" {
		return s
	}
	return strings.ReplaceAll(s, secret, verdict.Mask(secret))
}

// maskPieces hides secret and any piece of it of 6 or more characters (a
// chunk holds only part of a split token).
func maskPieces(s, secret string) string {
	s = mask(s, secret)
	for n := len(secret) - 1; n >= 6; n-- {
		for i := 0; i+n <= len(secret); i++ {
			piece := secret[i : i+n]
			if strings.Contains(s, piece) {
				s = strings.ReplaceAll(s, piece, "…("+fmt.Sprint(n)+" chars of the token)")
			}
		}
	}
	return s
}

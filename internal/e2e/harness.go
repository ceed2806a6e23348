package e2e

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/bundle"
)

// Harness is the pinned Gemini CLI plus gemini-guard built from one
// repository, installed once into a template HOME that every Session copies.
type Harness struct {
	// Root is the repository the extension was built from.
	Root string
	// Gemini is the gemini program of Version.
	Gemini string
	// Version is the Gemini CLI version (CLIVersion unless NewVersion was
	// asked for another) and Flags the flags it has.
	Version string
	Flags   Flags
	// Extension is the staged extension directory that was installed.
	Extension string
	// Template is the session whose HOME has the extension installed; New
	// sessions copy it, which is much faster than installing again.
	Template *Session
	dir      string
}

// New makes a Harness in dir (which it fills; the caller removes it): it
// ensures the pinned CLI (EnsureCLI), stages the extension for the host from
// the repository at root (bundle.Stage) and installs it into a fresh HOME
// with `gemini extensions install`.
func New(ctx context.Context, root, dir string) (*Harness, error) {
	return NewVersion(ctx, root, dir, CLIVersion)
}

// NewVersion is New with Gemini CLI version instead of the pinned one; the
// flags the harness passes follow what that version has (DetectFlags).
func NewVersion(ctx context.Context, root, dir, version string) (*Harness, error) {
	gemini, err := EnsureCLIVersion(ctx, version)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Join(dir, "help"), 0o755); err != nil {
		return nil, fmt.Errorf("e2e: %w", err)
	}
	flags, err := DetectFlags(ctx, gemini, filepath.Join(dir, "help"))
	if err != nil {
		return nil, err
	}
	ext := filepath.Join(dir, "extension")
	if err := bundle.Stage(ctx, root, ext, bundle.Host()); err != nil {
		return nil, err
	}
	h := &Harness{Root: root, Gemini: gemini, Version: version, Flags: flags, Extension: ext, dir: dir}
	h.Template, err = h.Install(ctx, ext, filepath.Join(dir, "template"))
	if err != nil {
		return nil, err
	}
	return h, nil
}

// Install installs the extension directory ext with the real CLI into a new
// HOME under dir, exactly as a user would from a local directory, and
// returns a Session with an empty workspace:
//
//	GEMINI_CLI_TRUST_WORKSPACE=true gemini extensions install <ext> --consent --skip-settings </dev/null
func (h *Harness) Install(ctx context.Context, ext, dir string) (*Session, error) {
	s, err := newSession(h.Gemini, dir)
	if err != nil {
		return nil, err
	}
	s.flags = h.Flags
	if !h.Flags.SkipSettings {
		return s, copyInstall(ext, s)
	}
	cmd := exec.CommandContext(ctx, h.Gemini, "extensions", "install", ext, "--consent", "--skip-settings")
	cmd.Dir = s.Workspace
	cmd.Env = append(s.env(), "GEMINI_CLI_TRUST_WORKSPACE=true")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("e2e: gemini extensions install %s: %w\n%s", ext, err, out.String())
	}
	// 0.36-0.4x print a notice of the settings --skip-settings left unset
	// instead of the success line; the install itself is checked below.
	if !strings.Contains(out.String(), "installed successfully") && !strings.Contains(out.String(), "has missing settings") {
		return nil, fmt.Errorf("e2e: gemini extensions install %s did not report success:\n%s", ext, out.String())
	}
	if _, err := os.Stat(filepath.Join(s.ExtensionDir(), "gemini-extension.json")); err != nil {
		return nil, fmt.Errorf("e2e: the extension is not in %s after install:\n%s", s.ExtensionDir(), out.String())
	}
	return s, nil
}

// Session is one throwaway user: a HOME (with ~/.gemini) and a workspace
// directory the CLI runs in.
type Session struct {
	Gemini    string
	Dir       string
	Home      string
	Workspace string
	// Runtime is the session's XDG_RUNTIME_DIR, where the scanner daemon
	// its hooks start keeps its socket: a short directory of its own
	// (Close removes it), as a user's /run/user/<uid> is. Under Dir the
	// socket's path could pass the 103 bytes a unix socket may have (a
	// long test name), and every scan of the session would then run as a
	// one-shot process. "" (a template): HOME.
	Runtime string
	runs    int
	flags   Flags
}

func newSession(gemini, dir string) (*Session, error) {
	s := &Session{Gemini: gemini, Dir: dir, Home: filepath.Join(dir, "home"), Workspace: filepath.Join(dir, "workspace")}
	for _, d := range []string{s.Home, s.Workspace} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, fmt.Errorf("e2e: %w", err)
		}
	}
	return s, nil
}

// Clone copies s's HOME into a new session under dir with an empty
// workspace: the installed extension, its settings and ~/.gemini state come
// along; transcripts of earlier runs do too.
func (s *Session) Clone(dir string) (*Session, error) {
	c, err := newSession(s.Gemini, dir)
	if err != nil {
		return nil, err
	}
	c.flags = s.flags
	if err := copyDir(s.Home, c.Home); err != nil {
		return nil, fmt.Errorf("e2e: copy HOME: %w", err)
	}
	if c.Runtime, err = os.MkdirTemp("", "ggrt"); err != nil {
		return nil, fmt.Errorf("e2e: %w", err)
	}
	return c, nil
}

// Close removes the session's runtime directory; the scanner daemon its
// hooks started exits when it finds its socket gone.
func (s *Session) Close() {
	if s.Runtime != "" {
		os.RemoveAll(s.Runtime)
	}
}

// ExtensionDir is where Gemini CLI installed gemini-guard in this HOME.
func (s *Session) ExtensionDir() string {
	return filepath.Join(s.Home, ".gemini", "extensions", bundle.Name)
}

// Configure sets extension settings (GEMINI_GUARD_* names) the way
// `gemini extensions config` stores them at user scope: in the extension's
// .env. It replaces earlier settings; nil removes them.
func (s *Session) Configure(settings map[string]string) error {
	keys := make([]string, 0, len(settings))
	for k := range settings {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		v := settings[k]
		if strings.ContainsAny(v, "\n\"") {
			return fmt.Errorf("e2e: setting %s: value holds a newline or quote", k)
		}
		fmt.Fprintf(&b, "%s=\"%s\"\n", k, v)
	}
	return os.WriteFile(filepath.Join(s.ExtensionDir(), ".env"), []byte(b.String()), 0o600)
}

// RemoveProgram deletes bin/<name> from the installed extension, to test what
// the user sees when a program is missing.
func (s *Session) RemoveProgram(name string) error {
	return os.Remove(filepath.Join(s.ExtensionDir(), "bin", name))
}

// Script is one headless run of the CLI with a scripted model.
type Script struct {
	// Prompt is the user's prompt (-p); "" means "do the task".
	Prompt string
	// Responses are the model's answers, one per model call, in order.
	Responses []Response
	// Output is the -o format: "stream-json" (the default), "json" or "text".
	Output string
	// Args are extra CLI arguments.
	Args []string
	// Env are extra NAME=value variables of the CLI's environment (and so
	// of its hooks'), after the harness's own.
	Env []string
	// API, when set, is a FakeAPI the CLI talks to over HTTP
	// (GOOGLE_GEMINI_BASE_URL) instead of reading Responses from
	// --fake-responses: the requests then pass through every hook.
	API *FakeAPI
}

// Run runs the CLI once in the session's workspace:
//
//	GEMINI_API_KEY=dummy gemini -m gemini-2.5-flash --fake-responses <file> \
//	    --skip-trust --approval-mode yolo -o <format> -p <prompt> </dev/null
//
// A non-zero exit is not an error (Result.ExitCode); failing to start or
// to read the output is. The CLI's environment is the caller's minus
// GEMINI_*, GOOGLE_* and CLAUDE_* variables, with HOME set to the session's.
func (s *Session) Run(ctx context.Context, sc Script) (*Result, error) {
	s.runs++
	fake, err := Encode(sc.Responses)
	if err != nil {
		return nil, err
	}
	fakePath := filepath.Join(s.Dir, fmt.Sprintf("fake-%d.jsonl", s.runs))
	if err := os.WriteFile(fakePath, fake, 0o644); err != nil {
		return nil, fmt.Errorf("e2e: %w", err)
	}
	format := sc.Output
	if format == "" {
		format = "stream-json"
	}
	prompt := sc.Prompt
	if prompt == "" {
		prompt = "do the task"
	}
	before := s.transcriptFiles()

	args := []string{"-m", "gemini-2.5-flash"}
	env := append(s.env(), "GEMINI_API_KEY=dummy")
	env = append(env, sc.Env...)
	if sc.API != nil {
		env = append(env, "GOOGLE_GEMINI_BASE_URL="+sc.API.URL)
	} else {
		args = append(args, "--fake-responses", fakePath)
	}
	if s.flags.SkipTrust {
		args = append(args, "--skip-trust")
	}
	args = append(args, "--approval-mode", "yolo", "-o", format)
	args = append(args, sc.Args...)
	args = append(args, "-p", prompt)
	cmd := exec.CommandContext(ctx, s.Gemini, args...)
	cmd.Dir = s.Workspace
	cmd.Env = env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	r := &Result{Workspace: s.Workspace, Format: format}
	if err := cmd.Run(); err != nil {
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			return nil, fmt.Errorf("e2e: run gemini: %w\n%s", err, stderr.String())
		}
		r.ExitCode = exit.ExitCode()
	}
	r.Stdout, r.Stderr = stdout.String(), stderr.String()
	switch format {
	case "stream-json":
		if r.Events, err = parseEvents(stdout.Bytes()); err != nil {
			return r, err
		}
	case "json":
		if r.JSON, err = parseJSONOutput(stdout.Bytes()); err != nil {
			return r, err
		}
	}
	after := s.transcriptFiles()
	files := make([]string, 0, len(after))
	for f := range after {
		files = append(files, f)
	}
	sort.Strings(files)
	for _, f := range files {
		if before[f] {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			return r, fmt.Errorf("e2e: transcript: %w", err)
		}
		r.TranscriptPaths = append(r.TranscriptPaths, f)
		r.Transcript = append(r.Transcript, data...)
	}
	return r, nil
}

// transcriptFiles lists the session transcripts Gemini CLI has written:
// ~/.gemini/tmp/<project>/chats/**/*.jsonl.
func (s *Session) transcriptFiles() map[string]bool {
	files := map[string]bool{}
	root := filepath.Join(s.Home, ".gemini", "tmp")
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".jsonl") &&
			strings.Contains(filepath.ToSlash(p), "/chats/") {
			files[p] = true
		}
		return nil
	})
	return files
}

// env is the environment of every CLI run: the caller's, without anything
// that would change the CLI's or the guard's behaviour (a developer's own
// GEMINI_GUARD_MODE, API keys, Vertex settings), with HOME isolated.
func (s *Session) env() []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch {
		case name == "HOME", name == "USERPROFILE", name == "XDG_RUNTIME_DIR",
			strings.HasPrefix(name, "GEMINI_"), strings.HasPrefix(name, "GOOGLE_"),
			strings.HasPrefix(name, "CLAUDE_"):
			continue
		}
		env = append(env, kv)
	}
	// The scanner process the hooks start keeps its socket in the
	// session's runtime directory (and exits when that directory is gone),
	// not in the developer's.
	runtime := s.Runtime
	if runtime == "" {
		runtime = s.Home
	}
	return append(env, "HOME="+s.Home, "USERPROFILE="+s.Home, "XDG_RUNTIME_DIR="+runtime, "NO_COLOR=1")
}

func copyDir(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case d.IsDir():
			return os.MkdirAll(target, info.Mode().Perm()|0o700)
		case d.Type()&fs.ModeSymlink != 0:
			link, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(link, target)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, info.Mode().Perm())
	})
}

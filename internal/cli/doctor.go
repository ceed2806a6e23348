package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/gemini-guard/gemini-guard/internal/audit"
	"github.com/gemini-guard/gemini-guard/internal/bundle"
	"github.com/gemini-guard/gemini-guard/internal/jsonenc"
	"github.com/gemini-guard/gemini-guard/internal/lazyregexp"
	"github.com/gemini-guard/gemini-guard/internal/protect"
	"github.com/gemini-guard/gemini-guard/internal/secrets/known"
	"github.com/gemini-guard/gemini-guard/internal/settings"
	"github.com/gemini-guard/gemini-guard/internal/state"
	"github.com/gemini-guard/gemini-guard/internal/version"
)

// Check statuses, worst last.
const (
	statusOK   = "ok"
	statusSkip = "skip"
	statusWarn = "warn"
	statusFail = "fail"
)

// checkResult is one line of doctor's report.
type checkResult struct {
	Name   string `json:"name"`
	Status string `json:"status"`
	Detail string `json:"detail"`
	// Millis is the wall time of the hook processes the check ran.
	Millis float64 `json:"ms,omitempty"`
}

// doctorReport is doctor's whole answer (--json prints it).
type doctorReport struct {
	Extension string        `json:"extension"`
	Found     string        `json:"found"`
	Version   string        `json:"version"`
	Mode      string        `json:"mode"`
	Healthy   bool          `json:"healthy"`
	Checks    []checkResult `json:"checks"`
	// Latency is the median wall time per hook, in milliseconds, measured
	// over latencyRuns runs of an allowed call.
	Latency map[string]float64 `json:"latency_ms,omitempty"`
}

// hookSpec is a hook gemini-guard's hooks.json must have: the event, the
// program it runs, and the tools its matcher must select.
type hookSpec struct {
	Event   string
	Binary  string
	Arg     string
	Tools   []string
	Purpose string
}

// expectedHooks is what doctor requires of hooks.json.
var expectedHooks = []hookSpec{
	{"SessionStart", "gemini-guard", "session-start", nil, "warns about a broken installation"},
	{"BeforeTool", "guard-shell", "", []string{"run_shell_command"}, "shell guard"},
	{"BeforeTool", "guard-secrets", "", []string{"write_file", "replace", "run_shell_command"}, "secrets guard"},
	{"AfterTool", "guard-redact", "after-tool", []string{"read_file", "run_shell_command"}, "tool output redaction"},
	{"AfterModel", "guard-redact", "after-model", nil, "streamed answer redaction"},
	{"BeforeModel", "guard-redact", "before-model", nil, "model request redaction"},
}

// latencyRuns is how many times doctor runs each hook to measure latency.
const latencyRuns = 5

// hookEntry is one hook of hooks.json with its event and matcher.
type hookEntry struct {
	Event   string
	Matcher string
	bundle.HookDef
	Binary string
	Arg    string
}

// doctor verifies an installed extension end to end. See doc.go.
func doctor(args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	fs := flag.NewFlagSet("doctor", flag.ContinueOnError)
	fs.SetOutput(stderr)
	extFlag := fs.String("ext", "", "extension directory (default: ~/.gemini/extensions/gemini-guard)")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: gemini-guard doctor [--ext DIR] [--json]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return usageExit(err)
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return 2
	}
	ext, err := findExtension(*extFlag, getenv)
	if err != nil {
		fmt.Fprintln(stderr, "gemini-guard doctor:", err)
		return 2
	}
	d := &doctorRun{ext: ext, getenv: getenv}
	report := d.run()
	if *asJSON {
		enc := jsonenc.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.Encode(report)
	} else {
		printReport(stdout, report)
	}
	if !report.Healthy {
		return 1
	}
	return 0
}

func printReport(w io.Writer, r doctorReport) {
	fmt.Fprintf(w, "gemini-guard doctor: %s (%s)\n", r.Extension, r.Found)
	fmt.Fprintf(w, "version %s, mode %s\n\n", r.Version, r.Mode)
	for _, c := range r.Checks {
		ms := ""
		if c.Millis > 0 {
			ms = fmt.Sprintf(" [%.1f ms]", c.Millis)
		}
		fmt.Fprintf(w, "%-4s  %-22s %s%s\n", strings.ToUpper(c.Status), c.Name, c.Detail, ms)
	}
	if r.Healthy {
		fmt.Fprintln(w, "\nhealthy")
	} else {
		fmt.Fprintln(w, "\nUNHEALTHY: fix the checks marked FAIL, then run `gemini-guard doctor` again")
	}
}

// doctorRun carries one doctor run's state from check to check.
type doctorRun struct {
	ext       extension
	getenv    func(string) string
	env       func(string) string
	envFile   map[string]string
	settings  settings.Settings
	hooks     []hookEntry
	workspace string
	session   string
	checks    []checkResult
	latency   map[string]float64
}

func (d *doctorRun) add(name, status, detail string, ms float64) {
	d.checks = append(d.checks, checkResult{Name: name, Status: status, Detail: detail, Millis: ms})
}

func (d *doctorRun) run() doctorReport {
	d.session = fmt.Sprintf("gemini-guard-doctor-%d-%d", os.Getpid(), time.Now().UnixNano())
	report := doctorReport{Extension: d.ext.Dir, Found: d.ext.How, Version: "?"}

	d.checkManifest(&report)
	binsOK := d.checkBinaries()
	hooksOK := d.checkHooks()
	d.checkSettings()
	d.checkEnvironment()
	d.checkState()
	report.Mode = d.settings.Mode.String()
	d.checkPolicies()
	d.checkContext()
	d.checkHost()
	d.checkAgy()
	d.checkClaude()
	d.checkCodex()

	switch {
	case runtime.GOOS == "windows":
		d.add("live hooks", statusSkip, "running the hook commands needs bash; on Windows run doctor from WSL or Git Bash", 0)
	case !binsOK || !hooksOK:
		d.add("live hooks", statusFail, "not run: fix the binaries and hooks.json first", 0)
	default:
		d.checkLive()
	}

	report.Checks = d.checks
	report.Latency = d.latency
	report.Healthy = true
	for _, c := range d.checks {
		if c.Status == statusFail {
			report.Healthy = false
		}
	}
	return report
}

func (d *doctorRun) checkManifest(r *doctorReport) {
	data, err := os.ReadFile(filepath.Join(d.ext.Dir, "gemini-extension.json"))
	if err != nil {
		d.add("manifest", statusFail, fmt.Sprintf("gemini-extension.json: %v", err), 0)
		return
	}
	var m struct {
		Name            string `json:"name"`
		Version         string `json:"version"`
		ContextFileName string `json:"contextFileName"`
		Settings        []struct {
			EnvVar string `json:"envVar"`
		} `json:"settings"`
	}
	if err := json.Unmarshal(data, &m); err != nil {
		d.add("manifest", statusFail, fmt.Sprintf("gemini-extension.json is not valid JSON: %v", err), 0)
		return
	}
	r.Version = m.Version
	switch {
	case m.Name != ExtensionName:
		d.add("manifest", statusFail, fmt.Sprintf("name is %q, want %q", m.Name, ExtensionName), 0)
	case len(m.Settings) != len(settings.Table):
		d.add("manifest", statusWarn, fmt.Sprintf("declares %d settings, this program knows %d: reinstall the extension", len(m.Settings), len(settings.Table)), 0)
	case m.Version != version.Version:
		d.add("manifest", statusWarn, fmt.Sprintf("version %s, but this program is %s: run the extension's own bin/gemini-guard", m.Version, version.Version), 0)
	default:
		d.add("manifest", statusOK, fmt.Sprintf("%s %s, %d settings", m.Name, m.Version, len(m.Settings)), 0)
	}
}

func (d *doctorRun) checkBinaries() bool {
	var missing, ok []string
	for _, name := range HookBinaries {
		path := filepath.Join(d.ext.Dir, "bin", name+exeSuffix())
		info, err := os.Stat(path)
		switch {
		case err != nil:
			missing = append(missing, "bin/"+name+" missing")
		case !info.Mode().IsRegular():
			missing = append(missing, "bin/"+name+" is not a file")
		case runtime.GOOS != "windows" && info.Mode().Perm()&0o111 == 0:
			missing = append(missing, "bin/"+name+" is not executable")
		default:
			ok = append(ok, name)
		}
	}
	if len(missing) > 0 {
		d.add("binaries", statusFail, strings.Join(missing, "; ")+": run `make build` in the source and reinstall, or install a release archive", 0)
		return false
	}
	d.add("binaries", statusOK, "bin/"+strings.Join(ok, ", bin/")+" executable", 0)
	return true
}

var binaryInCommand = &lazyregexp.Regexp{Expr: `bin\$\{/\}([A-Za-z0-9_-]+)`}

func (d *doctorRun) checkHooks() bool {
	data, err := os.ReadFile(filepath.Join(d.ext.Dir, "hooks", "hooks.json"))
	if err != nil {
		d.add("hooks.json", statusFail, err.Error(), 0)
		return false
	}
	var f bundle.HooksFile
	if err := json.Unmarshal(data, &f); err != nil {
		d.add("hooks.json", statusFail, "not valid JSON: "+err.Error(), 0)
		return false
	}
	var problems []string
	for _, event := range slices.Sorted(maps.Keys(f.Hooks)) {
		for _, g := range f.Hooks[event] {
			for _, h := range g.Hooks {
				e := hookEntry{Event: event, Matcher: g.Matcher, HookDef: h}
				if c, err := bundle.ParseCommand(h.Command); err == nil {
					e.Binary = c.Binary
					if len(c.Args) > 0 {
						e.Arg = c.Args[0]
					}
				} else if m := binaryInCommand.FindStringSubmatch(h.Command); m != nil {
					e.Binary = m[1]
				}
				if h.Type != "command" {
					problems = append(problems, fmt.Sprintf("%s hook %q has type %q, want command", event, h.Name, h.Type))
				}
				if e.Binary == "" {
					problems = append(problems, fmt.Sprintf("%s hook %q runs no program from bin/", event, h.Name))
				} else if !isFile(filepath.Join(d.ext.Dir, "bin", e.Binary+exeSuffix())) {
					problems = append(problems, fmt.Sprintf("%s hook %q runs bin/%s, which does not exist", event, h.Name, e.Binary))
				}
				d.hooks = append(d.hooks, e)
			}
		}
	}
	for _, want := range expectedHooks {
		i := slices.IndexFunc(d.hooks, func(e hookEntry) bool {
			return e.Event == want.Event && e.Binary == want.Binary && (want.Arg == "" || e.Arg == want.Arg)
		})
		if i < 0 {
			problems = append(problems, fmt.Sprintf("no %s hook runs bin/%s %s (%s)", want.Event, want.Binary, want.Arg, want.Purpose))
			continue
		}
		if p := matcherProblem(d.hooks[i].Matcher, want.Tools); p != "" {
			problems = append(problems, fmt.Sprintf("%s hook %q: %s", want.Event, d.hooks[i].Name, p))
		}
	}
	if len(problems) > 0 {
		d.add("hooks.json", statusFail, strings.Join(problems, "; "), 0)
		return false
	}
	d.add("hooks.json", statusOK, fmt.Sprintf("%d hooks; matchers anchored and select the guarded tools; every command runs an existing program", len(d.hooks)), 0)
	return true
}

// matcherProblem says what is wrong with a matcher that must select tools,
// or "". Gemini CLI tests matchers as unanchored JavaScript regexes against
// the tool name, so an unanchored one also selects tools it was not meant for
// (and `^run_shell_command` would select run_shell_command_v2). An empty
// matcher is right only for events without tools.
func matcherProblem(matcher string, tools []string) string {
	if len(tools) == 0 {
		return ""
	}
	if matcher == "" {
		return "has no matcher: it runs for every tool"
	}
	if !strings.HasPrefix(matcher, "^") || !strings.HasSuffix(matcher, "$") {
		return fmt.Sprintf("matcher %q is not anchored with ^...$", matcher)
	}
	re, err := regexp.Compile(matcher)
	if err != nil {
		return fmt.Sprintf("matcher %q is not a valid regex: %v", matcher, err)
	}
	for _, tool := range tools {
		if !re.MatchString(tool) {
			return fmt.Sprintf("matcher %q does not select %s", matcher, tool)
		}
	}
	return ""
}

func (d *doctorRun) checkSettings() {
	cwd, _ := os.Getwd()
	env, file, err := settingsEnv(d.ext, d.getenv)
	d.env, d.envFile = env, file
	s, warnings := loadSettings(d.ext, cwd, d.getenv)
	d.settings = s
	if err != nil {
		d.add("settings", statusFail, fmt.Sprintf("%s: %v", filepath.Join(d.ext.SettingsDir, ".env"), err), 0)
		return
	}
	summary := fmt.Sprintf("mode %s, secrets action %s, stream redaction %t, tool output redaction %t, audit log %s",
		s.Mode, s.SecretsAction, s.RedactStream, s.RedactToolOutput, onOff(s.AuditLog))
	if len(file) > 0 {
		summary += fmt.Sprintf(" (%d set in %s)", len(file), filepath.Join(d.ext.SettingsDir, ".env"))
	}
	if len(warnings) > 0 {
		d.add("settings", statusWarn, strings.Join(warnings, " ")+" Now: "+summary, 0)
		return
	}
	if s.Mode == settings.WarnOnly {
		d.add("settings", statusWarn, "warn mode: nothing is blocked, decisions are only shown to the user. "+summary, 0)
		return
	}
	d.add("settings", statusOK, summary, 0)
}

// checkEnvironment warns about variables that change how bash, the dynamic
// loader, node, Gemini CLI or the guard's Go runtime run the hooks: set in
// doctor's own environment (the one Gemini CLI starts from) or in the .env
// file Gemini CLI would load for this directory. Names only, never values.
func (d *doctorRun) checkEnvironment() {
	var lines []string
	for _, k := range protect.ControlKeysSet(d.getenv, envNames()) {
		lines = append(lines, k+" is set in this environment")
	}
	cwd, _ := os.Getwd()
	file, keys, runners := envFileKeys(cwd, d.getenv("HOME"))
	if len(keys) > 0 {
		lines = append(lines, strings.Join(keys, ", ")+" set in "+file+", which Gemini CLI loads into its environment and its hooks'")
	}
	if len(lines) == 0 && len(runners) == 0 {
		d.add("environment", statusOK, "no variable that changes how bash, the loader, node or Gemini CLI run the hooks", 0)
		return
	}
	var detail []string
	if len(lines) > 0 {
		detail = append(detail, strings.Join(lines, "; ")+": each changes how bash, the dynamic loader, node or Gemini CLI run the guard; remove what you did not set")
	}
	if len(runners) > 0 {
		detail = append(detail, strings.TrimPrefix(runnerEnvWarning(file, runners), "gemini-guard: "))
	}
	d.add("environment", statusWarn, strings.Join(detail, " "), 0)
}

// checkState: the state directory keeps what the hooks learn from tool
// output; while it cannot, they fail closed (known.StoreFault).
func (d *doctorRun) checkState() {
	dir := state.Dir(d.getenv)
	if err := known.StoreFault(dir); err != nil {
		d.add("state", statusFail, err.Error()+": the hooks withhold tool output and answers until it is repaired (move the damaged file away; gemini-guard makes a new directory and key)", 0)
		return
	}
	d.add("state", statusOK, dir, 0)
}

func onOff(auditLog string) string {
	if auditLog == "" {
		return "off"
	}
	return auditLog
}

func (d *doctorRun) checkPolicies() {
	dir := filepath.Join(d.ext.Dir, "policies")
	if _, err := os.Stat(dir); err != nil {
		d.add("policies", statusWarn, "no policies/: no defence in depth when hooks are disabled or time out", 0)
		return
	}
	rules, err := loadPolicies(dir)
	if err != nil {
		d.add("policies", statusFail, err.Error(), 0)
		return
	}
	var ids []string
	for _, r := range rules {
		ids = append(ids, r.id())
	}
	d.add("policies", statusOK, fmt.Sprintf("%d deny rules for Gemini CLI's policy engine: %s", len(rules), strings.Join(ids, ", ")), 0)
}

var frontmatterKey = &lazyregexp.Regexp{Expr: `(?m)^(name|description):`}

func (d *doctorRun) checkContext() {
	var notes []string
	status := statusOK
	if isFile(filepath.Join(d.ext.Dir, "GEMINI.md")) {
		notes = append(notes, "GEMINI.md")
	} else {
		status = statusWarn
		notes = append(notes, "GEMINI.md missing: the model is not told what a block means")
	}
	skills, _ := filepath.Glob(filepath.Join(d.ext.Dir, "skills", "*", "SKILL.md"))
	for _, s := range skills {
		data, err := os.ReadFile(s)
		name := filepath.Base(filepath.Dir(s))
		if err != nil || !bytes.HasPrefix(data, []byte("---")) || len(frontmatterKey.Get().FindAll(data, -1)) < 2 {
			status = statusWarn
			notes = append(notes, "skill "+name+" has no name/description frontmatter")
			continue
		}
		notes = append(notes, "skill "+name)
	}
	d.add("context", status, strings.Join(notes, ", "), 0)
}

// hookRun is one hook process's answer.
type hookRun struct {
	Hook   hookEntry
	Out    map[string]any
	Raw    string
	Millis float64
	Err    error
}

// runHook runs h the way Gemini CLI does: `bash -c` with ${...} substituted,
// cwd the workspace, the settings in the environment, the input as one JSON
// object on stdin, killed after the hook's timeout. The answer must be one
// JSON object on stdout, exit 0 and nothing on stderr.
func (d *doctorRun) runHook(h hookEntry, input map[string]any) hookRun {
	base := map[string]any{
		"session_id":      d.session,
		"transcript_path": filepath.Join(d.workspace, "transcript.jsonl"),
		"cwd":             d.workspace,
		"hook_event_name": h.Event,
		"timestamp":       time.Now().UTC().Format(time.RFC3339Nano),
	}
	for k, v := range input {
		base[k] = v
	}
	stdin, _ := json.Marshal(base)
	command := strings.ReplaceAll(bundle.Expand(h.Command, d.ext.Dir, string(filepath.Separator)), "${workspacePath}", d.workspace)
	for k, v := range d.envFile {
		command = strings.ReplaceAll(command, "${"+k+"}", v)
	}
	timeout := time.Duration(h.Timeout) * time.Millisecond
	if timeout <= 0 {
		timeout = 60 * time.Second
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-c", command)
	cmd.Dir = d.workspace
	cmd.Env = append(os.Environ(),
		"GEMINI_PROJECT_DIR="+d.workspace, "GEMINI_CWD="+d.workspace, "CLAUDE_PROJECT_DIR="+d.workspace,
		"GEMINI_SESSION_ID="+d.session)
	for k, v := range d.envFile {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	cmd.Stdin = bytes.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = time.Second
	start := time.Now()
	err := cmd.Run()
	r := hookRun{Hook: h, Raw: stdout.String() + stderr.String(), Millis: float64(time.Since(start).Microseconds()) / 1000}
	switch {
	case ctx.Err() != nil:
		r.Err = fmt.Errorf("timed out after %v: Gemini CLI lets the call through", timeout)
	case err != nil:
		r.Err = fmt.Errorf("exited with %v (stderr %q): Gemini CLI denies every call on a non-zero exit without JSON", err, firstLine(stderr.String()))
	case stderr.Len() > 0:
		r.Err = fmt.Errorf("wrote to stderr (%q): a hook must print only its JSON answer", firstLine(stderr.String()))
	default:
		dec := json.NewDecoder(bytes.NewReader(stdout.Bytes()))
		if derr := dec.Decode(&r.Out); derr != nil || r.Out == nil {
			r.Err = fmt.Errorf("did not print a JSON object (%q)", firstLine(stdout.String()))
		} else if dec.More() {
			r.Err = errors.New("printed more than one JSON value")
		}
	}
	return r
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	if len(s) > 120 {
		s = s[:120] + "…"
	}
	return s
}

// runEvent runs every hook of event whose matcher selects tool (all hooks of
// the event for tool ""), as Gemini CLI does, and merges their answers.
func (d *doctorRun) runEvent(event, tool string, input map[string]any) merged {
	var m merged
	for _, h := range d.hooks {
		if h.Event != event {
			continue
		}
		if tool != "" && h.Matcher != "" {
			re, err := regexp.Compile(h.Matcher)
			if err != nil || !re.MatchString(tool) {
				continue
			}
		}
		r := d.runHook(h, input)
		m.runs = append(m.runs, r)
		m.millis += r.Millis
	}
	return m
}

// merged is the answers of the hooks of one event for one call.
type merged struct {
	runs   []hookRun
	millis float64
}

func (m merged) err() error {
	var errs []string
	for _, r := range m.runs {
		if r.Err != nil {
			errs = append(errs, fmt.Sprintf("%s %v", r.Hook.Name, r.Err))
		}
	}
	if len(m.runs) == 0 {
		return errors.New("no hook ran")
	}
	if len(errs) > 0 {
		return errors.New(strings.Join(errs, "; "))
	}
	return nil
}

// decision is "deny" when any hook denied (Gemini CLI OR-merges BeforeTool
// and AfterTool decisions), else "".
func (m merged) decision() string {
	for _, r := range m.runs {
		if d, _ := r.Out["decision"].(string); d == "deny" || d == "block" {
			return "deny"
		}
	}
	return ""
}

func (m merged) field(name string) string {
	var parts []string
	for _, r := range m.runs {
		if s, _ := r.Out[name].(string); s != "" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, "\n")
}

// specific returns hookSpecificOutput[key] of the first hook that set it.
func (m merged) specific(key string) (json.RawMessage, bool) {
	for _, r := range m.runs {
		if s, ok := r.Out["hookSpecificOutput"].(map[string]any); ok {
			if v, ok := s[key]; ok {
				b, _ := json.Marshal(v)
				return b, true
			}
		}
	}
	return nil, false
}

// ruleOf is the rule id a gemini-guard reason names, or "".
var ruleOf = &lazyregexp.Regexp{Expr: `gemini-guard (?:blocked|would have blocked \(warn mode\)) ([A-Za-z0-9_.:-]+)`}

func ruleIn(text string) string {
	if m := ruleOf.FindStringSubmatch(text); m != nil {
		return strings.TrimSuffix(m[1], ":")
	}
	return ""
}

// doctorSecret is a GitHub token the secrets guard must find: high entropy,
// built at run time from a fixed seed, so neither this repository nor the
// binary holds one literal.
func doctorSecret() string {
	const alnum = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	x := uint64(0x9E3779B97F4A7C15)
	b := []byte("ghp_")
	for range 36 {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		b = append(b, alnum[x%uint64(len(alnum))])
	}
	return string(b)
}

func (d *doctorRun) checkLive() {
	if _, err := exec.LookPath("bash"); err != nil {
		d.add("live hooks", statusFail, "bash is not on PATH: Gemini CLI runs hook commands with bash", 0)
		return
	}
	ws, err := os.MkdirTemp("", "gemini-guard-doctor-")
	if err != nil {
		d.add("live hooks", statusFail, err.Error(), 0)
		return
	}
	defer os.RemoveAll(ws)
	d.workspace = ws
	warn := d.settings.Mode == settings.WarnOnly
	secret := doctorSecret()

	// Session start.
	m := d.runEvent("SessionStart", "", map[string]any{"source": "startup"})
	switch msg := m.field("systemMessage"); {
	case m.err() != nil:
		d.add("session start", statusFail, m.err().Error(), m.millis)
	case msg != "":
		d.add("session start", statusWarn, "tells the user: "+msg, m.millis)
	default:
		d.add("session start", statusOK, "no problems to report", m.millis)
	}

	// A known-bad command, then a known-good one, through every BeforeTool
	// hook that selects run_shell_command.
	bad := "rm -rf ~/"
	m = d.runEvent("BeforeTool", "run_shell_command", shellInput(bad))
	d.expectBlock("shell: known-bad", fmt.Sprintf("`%s`", bad), m, warn, secret)

	good := "ls -la"
	m = d.runEvent("BeforeTool", "run_shell_command", shellInput(good))
	switch {
	case m.err() != nil:
		d.add("shell: known-good", statusFail, m.err().Error(), m.millis)
	case m.decision() == "deny":
		d.add("shell: known-good", statusFail, fmt.Sprintf("`%s` was denied: %s", good, firstLine(m.field("reason"))), m.millis)
	default:
		d.add("shell: known-good", statusOK, fmt.Sprintf("`%s` allowed", good), m.millis)
	}

	// A write that adds a credential.
	write := map[string]any{"tool_name": "write_file", "tool_input": map[string]any{
		"file_path": "config.py", "content": "import os\n\nGITHUB_TOKEN = \"" + secret + "\"\n"}}
	m = d.runEvent("BeforeTool", "write_file", write)
	if _, rewritten := m.specific("tool_input"); rewritten && d.settings.SecretsAction == settings.Redact && m.decision() == "" {
		status, detail := statusOK, "the write was rewritten with the secret replaced (secrets action redact)"
		if strings.Contains(m.rawAll(), secret) {
			status, detail = statusFail, "the rewritten write still holds the secret"
		}
		d.add("secrets: write", status, detail, m.millis)
	} else {
		d.expectBlock("secrets: write", "a write_file adding a GitHub token", m, warn, secret)
	}

	// A streamed answer chunk that shows a credential.
	text := "Your token is " + secret + " - keep it safe."
	chunk := map[string]any{
		"llm_request": map[string]any{"model": "gemini-2.5-flash", "messages": []any{}},
		"llm_response": map[string]any{"text": text, "candidates": []any{map[string]any{
			"content": map[string]any{"role": "model", "parts": []any{text}}, "finishReason": "STOP", "index": 0}}},
	}
	m = d.runEvent("AfterModel", "", chunk)
	resp, replaced := m.specific("llm_response")
	switch {
	case m.err() != nil:
		d.add("redact: answer", statusFail, m.err().Error(), m.millis)
	case !d.settings.RedactStream:
		d.add("redact: answer", statusSkip, "stream redaction is off in the settings", m.millis)
	case m.decision() == "deny":
		d.add("redact: answer", statusFail, "the AfterModel hook denied: Gemini CLI then prints the chunk it meant to hide", m.millis)
	case !replaced:
		d.add("redact: answer", statusFail, "the chunk with a secret was passed through unchanged", m.millis)
	case strings.Contains(string(resp), secret) || strings.Contains(m.rawAll(), secret):
		d.add("redact: answer", statusFail, "the replacement chunk still shows the secret", m.millis)
	default:
		d.add("redact: answer", statusOK, "a chunk showing a GitHub token was redacted: "+firstLine(chunkText(resp)), m.millis)
	}

	// Tool output that holds a credential.
	out := map[string]any{"tool_name": "read_file", "tool_input": map[string]any{"file_path": ".env"},
		"tool_response": map[string]any{"llmContent": "GITHUB_TOKEN=" + secret + "\n", "returnDisplay": "", "error": nil}}
	m = d.runEvent("AfterTool", "read_file", out)
	_, replacedOut := m.specific("tool_response")
	_, addedContext := m.specific("additionalContext")
	switch {
	case m.err() != nil:
		d.add("redact: tool output", statusFail, m.err().Error(), m.millis)
	case !d.settings.RedactToolOutput:
		d.add("redact: tool output", statusSkip, "tool output redaction is off in the settings", m.millis)
	case strings.Contains(m.rawAll(), secret):
		d.add("redact: tool output", statusFail, "the hook's answer shows the secret to the model", m.millis)
	case warn && m.decision() == "" && strings.Contains(m.field("systemMessage"), "warn mode"):
		d.add("redact: tool output", statusWarn, "warn mode: a read_file result with a GitHub token reached the model; the user was told", m.millis)
	case m.decision() == "" && !replacedOut && !addedContext:
		d.add("redact: tool output", statusFail, "a read_file result with a secret was passed to the model unchanged", m.millis)
	default:
		d.add("redact: tool output", statusOK, "a read_file result with a GitHub token did not reach the model: "+firstLine(m.field("reason")), m.millis)
	}

	d.measureLatency()
	d.checkAudit(secret)
}

// rawAll is everything the hooks printed.
func (m merged) rawAll() string {
	var b strings.Builder
	for _, r := range m.runs {
		b.WriteString(r.Raw)
	}
	return b.String()
}

func chunkText(resp json.RawMessage) string {
	var r struct {
		Candidates []struct {
			Content struct {
				Parts []any `json:"parts"`
			} `json:"content"`
		} `json:"candidates"`
	}
	if json.Unmarshal(resp, &r) != nil || len(r.Candidates) == 0 {
		return ""
	}
	var parts []string
	for _, p := range r.Candidates[0].Content.Parts {
		switch p := p.(type) {
		case string:
			parts = append(parts, p)
		case map[string]any:
			if s, ok := p["text"].(string); ok {
				parts = append(parts, s)
			}
		}
	}
	return strings.Join(parts, "")
}

func shellInput(command string) map[string]any {
	return map[string]any{"tool_name": "run_shell_command", "tool_input": map[string]any{
		"command": command, "description": "gemini-guard doctor check"}}
}

// expectBlock records whether m blocked a call: denied with a gemini-guard
// reason, or in warn mode let through with a warning to the user. The answer
// must never show the secret.
func (d *doctorRun) expectBlock(name, what string, m merged, warn bool, secret string) {
	reason, msg := m.field("reason"), m.field("systemMessage")
	switch {
	case m.err() != nil:
		d.add(name, statusFail, m.err().Error(), m.millis)
	case strings.Contains(m.rawAll(), secret):
		d.add(name, statusFail, "the hook's answer shows the secret it is about", m.millis)
	case warn && m.decision() == "" && strings.Contains(msg, "warn mode"):
		d.add(name, statusOK, fmt.Sprintf("%s allowed with a warning (warn mode, rule %s)", what, ruleIn(msg)), m.millis)
	case warn && m.decision() == "deny":
		d.add(name, statusFail, fmt.Sprintf("%s was denied although the mode is warn", what), m.millis)
	case m.decision() != "deny":
		d.add(name, statusFail, fmt.Sprintf("%s was NOT denied", what), m.millis)
	case !strings.Contains(reason, "gemini-guard blocked"):
		d.add(name, statusWarn, fmt.Sprintf("%s denied, but the reason is not gemini-guard's: %s", what, firstLine(reason)), m.millis)
	default:
		d.add(name, statusOK, fmt.Sprintf("%s denied by %s", what, ruleIn(reason)), m.millis)
	}
}

// measureLatency runs an allowed call through each guard latencyRuns times
// and records the median wall time of one hook process. AfterModel's cost
// is paid once per streamed chunk, so it gets its own threshold.
func (d *doctorRun) measureLatency() {
	d.latency = map[string]float64{}
	plainChunk := map[string]any{
		"llm_request": map[string]any{"model": "gemini-2.5-flash", "messages": []any{}},
		"llm_response": map[string]any{"text": "Hello.", "candidates": []any{map[string]any{
			"content": map[string]any{"role": "model", "parts": []any{"Hello."}}, "index": 0}}},
	}
	calls := []struct {
		label string
		event string
		bin   string
		input map[string]any
	}{
		{"guard-shell", "BeforeTool", "guard-shell", shellInput("git status")},
		{"guard-secrets", "BeforeTool", "guard-secrets", map[string]any{"tool_name": "write_file",
			"tool_input": map[string]any{"file_path": "main.go", "content": "package main\n\nfunc main() {}\n"}}},
		{"guard-redact (AfterModel)", "AfterModel", "guard-redact", plainChunk},
	}
	var parts []string
	status := statusOK
	for _, c := range calls {
		i := slices.IndexFunc(d.hooks, func(h hookEntry) bool { return h.Event == c.event && h.Binary == c.bin })
		if i < 0 {
			continue
		}
		var times []float64
		var failed error
		for range latencyRuns {
			r := d.runHook(d.hooks[i], c.input)
			if r.Err != nil {
				failed = r.Err
				break
			}
			times = append(times, r.Millis)
		}
		if failed != nil {
			status = statusFail
			parts = append(parts, fmt.Sprintf("%s: %v", c.label, failed))
			continue
		}
		slices.Sort(times)
		med := times[len(times)/2]
		d.latency[c.label] = med
		parts = append(parts, fmt.Sprintf("%s %.1f ms", c.label, med))
		if c.event == "AfterModel" && med > 100 && status == statusOK {
			status = statusWarn
			parts = append(parts, "(AfterModel runs once per streamed chunk: answers will stream slowly)")
		}
	}
	d.add("latency", status, fmt.Sprintf("median of %d runs: %s", latencyRuns, strings.Join(parts, ", ")), 0)
}

// checkAudit looks for this run's decisions in the audit log when it is on,
// and makes sure the secret doctor used is not in it.
func (d *doctorRun) checkAudit(secret string) {
	path := audit.Path(d.settings, d.env)
	if path == "" {
		d.add("audit log", statusOK, "off (set GEMINI_GUARD_AUDIT_LOG=on to keep a log of decisions)", 0)
		return
	}
	entries, err := audit.Log{Path: path}.Read(0, func(e audit.Entry) bool { return e.Session == d.session })
	if err != nil {
		d.add("audit log", statusFail, err.Error(), 0)
		return
	}
	for _, name := range []string{path, path + ".1", path + ".2"} {
		if data, err := os.ReadFile(name); err == nil && bytes.Contains(data, []byte(secret)) {
			d.add("audit log", statusFail, name+" holds the secret doctor wrote", 0)
			return
		}
	}
	if len(entries) == 0 {
		d.add("audit log", statusWarn, path+": the hooks recorded none of doctor's calls", 0)
		return
	}
	d.add("audit log", statusOK, fmt.Sprintf("%s: %d of doctor's decisions recorded, no secret", path, len(entries)), 0)
}

// Package secretguard decides whether a write_file, replace or
// run_shell_command call would add a credential, whether a web, search or
// MCP tool call would carry one off the machine, or whether a call would
// weaken the guard by writing its configuration.
//
// It reads the call's arguments, works out the text that would exist after
// the call (edit), scans it (secrets), keeps only secrets that are new, and
// returns a verdict whose reason names each finding by rule, place and a
// masked preview — never the secret. With the redact action it returns the
// complete tool input with each new secret replaced by a placeholder
// instead. Check knows nothing of the hook protocol, so the people's
// command reuses it; Run (hook.go) is the guard-secrets hook around it:
// the call read from stdin, the settings and audit log (hookcall), warn
// mode, one JSON answer.
package secretguard

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/bounded"
	"github.com/gemini-guard/gemini-guard/internal/edit"
	"github.com/gemini-guard/gemini-guard/internal/protect"
	"github.com/gemini-guard/gemini-guard/internal/scanner"
	"github.com/gemini-guard/gemini-guard/internal/secrets"
	knownvals "github.com/gemini-guard/gemini-guard/internal/secrets/known"
	"github.com/gemini-guard/gemini-guard/internal/secrets/prefilter"
	"github.com/gemini-guard/gemini-guard/internal/settings"
	"github.com/gemini-guard/gemini-guard/internal/toolargs"
	"github.com/gemini-guard/gemini-guard/internal/verdict"
)

// Tool names this guard judges (Gemini CLI 0.61).
const (
	WriteFile = "write_file"
	Replace   = "replace"
	Shell     = "run_shell_command"
	// MultiReplace is Antigravity CLI's multi_replace_file_content as
	// internal/hook translates it: file_path and a list of edits applied
	// in order.
	MultiReplace = "multi_replace"
)

// MaxScan is the most bytes of one text the guard scans. A call whose text
// (a write's content, the changed part of an edit, a command, an outbound
// call's arguments) is longer is denied before any scan (tooLarge): scanning
// only its head would let a secret in its tail through, and scanning it
// whole could outrun the hook's deadline. 4 MiB of ordinary text takes
// about a second to scan; model tool calls are far smaller.
const MaxScan = 4 << 20

// RuleTooLarge denies a call whose text is longer than MaxScan.
const RuleTooLarge = "secrets.too-large-to-scan"

// tooLarge is the decision on a call whose text of size bytes is longer
// than MaxScan; what names the text.
func tooLarge(what string, size int) Decision {
	return Decision{
		Verdict: verdict.Verdict{
			Action: verdict.Deny,
			RuleID: RuleTooLarge,
			What:   fmt.Sprintf("%s is %d bytes, more than the %d MiB gemini-guard scans for secrets, and text it cannot scan whole is not let through", what, size, MaxScan>>20),
			Safer:  "write the content in smaller parts (a first write_file, then replace calls that add the rest), or keep large generated data out of the call",
		},
		Rules: []string{RuleTooLarge},
	}
}

// editContext is how far around an edit a replace is scanned (whole lines):
// a secret completed across the edit boundary lies within it. PEM blocks,
// the longest multi-line secrets, stay well under it.
const editContext = 16 << 10

// Rule ids of the guard's own decisions (secrets keep their gitleaks id).
const (
	// RuleProtectedConfig denies writing a file the guard reads its
	// configuration from, or Gemini CLI's settings and extensions.
	RuleProtectedConfig = "guard.protected-config"
	// RuleStateFault denies what the guard checks while the values the
	// session learnt from tool output cannot be read (known.ErrLearntLost).
	RuleStateFault = "hook.state-fault"
)

// Env is what the guard needs from outside the call.
type Env struct {
	Settings settings.Settings
	// Home is the user's home directory ("" if unknown: then ~/.gemini
	// paths cannot be recognised).
	Home string
	// Scanner returns the scanner for options; nil means the scanner
	// process's client (internal/scanner). The guard fills the options
	// from the settings and the workspace and calls it at most twice per
	// call (again without ConfigPath when the config fails to load).
	Scanner func(secrets.Options) secrets.Scanner
	// Known are the user's secrets known by value (internal/secrets/known):
	// a write, command or outbound call that holds one, or a form of one,
	// is judged as if a rule had found it. nil knows none.
	Known *knownvals.Set
	// FS is the file system the protected-path table and the shell
	// analysis read (symlinks, hard links, a copier's source); nil means
	// the real one through internal/bounded (a FIFO is never opened).
	FS bounded.FS
	// StateDir is gemini-guard's state directory (above state.Dir's
	// sessions), protected like the default ~/.local/state/gemini-guard.
	StateDir string
	// HostHomes are Claude Code's and Codex CLI's configuration
	// directories the environment names, protected there too.
	HostHomes protect.HostHomes
}

// Call is one BeforeTool call.
type Call struct {
	Tool string
	// Input is the tool's raw arguments (tool_input).
	Input json.RawMessage
	// Cwd is the workspace; relative file paths are taken from it.
	Cwd string
	// Name is the tool as the host calls it, for reasons ("" is Tool).
	Name string
}

// shown is the tool's name as reasons give it.
func (c Call) shown() string {
	if c.Name != "" {
		return c.Name
	}
	return c.Tool
}

// Decision is the guard's answer.
type Decision struct {
	// Verdict is Allow, Deny or Rewrite. Its reason never holds a secret.
	Verdict verdict.Verdict
	// ToolInput is the complete new tool_input when Verdict.Action is
	// Rewrite (the redact action).
	ToolInput json.RawMessage
	// UserMessage tells the user what was rewritten (Rewrite only).
	UserMessage string
	// Blocked is, for a Rewrite, the Deny the block action would have
	// returned (warn mode reports it instead of rewriting).
	Blocked verdict.Verdict
	// Rules lists the rule id of every new finding, in order (for the
	// audit log).
	Rules []string
	// Secrets are the new secrets found, for masking a preview. Never
	// print them.
	Secrets []string
	// FilePath is the file a write_file or replace names, as it names it
	// (for the provenance record; its arguments are decoded once).
	FilePath string
}

// InputError says the tool's arguments are unusable (wrong shape, missing
// file_path). The hook turns it into a deny asking for well-formed input.
type InputError struct{ Msg string }

// Error says what is wrong with the arguments (never their content).
func (e *InputError) Error() string { return "secretguard: " + e.Msg }

type writeInput struct {
	FilePath string `json:"file_path"`
	Content  string `json:"content"`
}

type replaceInput struct {
	FilePath      string `json:"file_path"`
	OldString     string `json:"old_string"`
	NewString     string `json:"new_string"`
	AllowMultiple bool   `json:"allow_multiple"`
}

type multiReplaceInput struct {
	FilePath string       `json:"file_path"`
	Edits    []edit.Chunk `json:"edits"`
}

type shellInput struct {
	Command string `json:"command"`
	DirPath string `json:"dir_path"`
}

// Check judges one call. The arguments of web_fetch, google_web_search and
// every MCP tool are scanned whole (outbound.go); other tools are allowed
// untouched. An error means the call could
// not be judged (unusable arguments, an unreadable target file): the hook
// fails safe and denies.
func Check(call Call, env Env) (Decision, error) {
	if f := env.Known.Fault(); errors.Is(f, knownvals.ErrLearntLost) {
		// A learnt value in this call would pass unseen: fail closed.
		return Decision{Verdict: verdict.Verdict{Action: verdict.Deny, RuleID: RuleStateFault,
			What:  f.Error() + ", so one of them in this call could not be seen",
			Safer: "ask the user to run `gemini-guard doctor` and repair the guard's state directory"},
			Rules: []string{RuleStateFault}}, nil
	}
	switch call.Tool {
	case WriteFile:
		var in writeInput
		if err := decode(call.Input, &in); err != nil {
			return Decision{}, err
		}
		if in.FilePath == "" {
			return Decision{}, &InputError{"write_file without file_path"}
		}
		d, err := checkFile(call, env, in.FilePath, func(before string, exists bool) edit.Result {
			return edit.Write(before, in.Content)
		}, "content")
		d.FilePath = in.FilePath
		return d, err
	case Replace:
		var in replaceInput
		if err := decode(call.Input, &in); err != nil {
			return Decision{}, err
		}
		if in.FilePath == "" {
			return Decision{}, &InputError{"replace without file_path"}
		}
		d, err := checkFile(call, env, in.FilePath, func(before string, exists bool) edit.Result {
			return edit.Replace(before, exists, in.OldString, in.NewString, in.AllowMultiple)
		}, "new_string")
		d.FilePath = in.FilePath
		return d, err
	case MultiReplace:
		var in multiReplaceInput
		if err := decode(call.Input, &in); err != nil {
			return Decision{}, err
		}
		if in.FilePath == "" {
			return Decision{}, &InputError{"multi_replace_file_content without TargetFile"}
		}
		// No single field holds the new text: the redact action blocks.
		return checkFile(call, env, in.FilePath, func(before string, exists bool) edit.Result {
			return edit.MultiReplace(before, exists, in.Edits)
		}, "")
	case Shell:
		var in shellInput
		if err := decode(call.Input, &in); err != nil {
			return Decision{}, err
		}
		return checkShell(call, env, in.Command, in.DirPath)
	}
	if toolargs.Outbound(call.Tool) || toolargs.Kept(call.Tool) || toolargs.Opaque(call.Tool) {
		return checkOutbound(call, env)
	}
	return Decision{}, nil
}

func decode(raw json.RawMessage, v any) error {
	if len(raw) == 0 || string(raw) == "null" {
		return &InputError{"tool_input is missing"}
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return &InputError{"tool_input is not the expected object: " + err.Error()}
	}
	return nil
}

// checkFile judges write_file and replace. field is the tool_input key that
// holds the model's new text (rewritten by the redact action).
func checkFile(call Call, env Env, filePath string, apply func(before string, exists bool) edit.Result, field string) (Decision, error) {
	path := edit.Resolve(call.Cwd, filePath)
	shown := displayPath(call.Cwd, path)
	before, exists, truncated, err := edit.Read(path)
	if err != nil {
		return Decision{}, fmt.Errorf("secretguard: reading %s: %w", shown, err)
	}
	res := apply(before, exists)
	if why, safer := protectedFile(env, call.Cwd, path, res); why != "" {
		return protectedDecision(call.shown(), shown, why, safer), nil
	}
	if skipped(env.Settings.SecretsSkipPaths, call.Cwd, path) {
		return Decision{}, nil
	}
	var notes []string
	if truncated {
		notes = append(notes, fmt.Sprintf("gemini-guard scanned only the first %d MiB of %s.", edit.MaxFile>>20, shown))
	}
	switch res.Outcome {
	case edit.NotFound, edit.Ambiguous, edit.Missing, edit.NoOp:
		notes = append(notes, fmt.Sprintf("gemini-guard could not apply this edit to %s (%s), so it scanned new_string alone.", shown, res.Outcome))
	}
	spans := scanSpans(res)
	for _, sp := range spans {
		if sp.End-sp.Start > MaxScan {
			return tooLarge("the text this call writes to "+shown, sp.End-sp.Start), nil
		}
	}
	sc := newConfigured(call, env)
	found, knownFound, err := scanWindows(sc, env.Known, res, spans)
	if err != nil {
		return Decision{}, err
	}
	notes = append(notes, sc.notes...)
	fresh := edit.New(found, res.After, res.Before)
	if len(fresh) < len(found) {
		// Some values were already in the file. Old only if the file's own
		// scan found them: a keyword added before a value makes it new.
		prior, err := sc.scan(res.Before[:min(len(res.Before), MaxScan)])
		if err != nil {
			return Decision{}, err
		}
		fresh = edit.NewSince(found, prior)
	}
	// A known value is new when the file did not hold it (or the form
	// found) before: no keyword makes it a secret, it is one.
	if kf := edit.New(knownFound, res.After, res.Before); len(kf) > 0 {
		fresh = sortFindings(append(fresh, kf...))
	}
	if len(fresh) == 0 {
		return Decision{Verdict: verdict.Verdict{Notes: notes}}, nil
	}
	d := blockDecision(call.Tool, call.shown(), "to "+shown, fresh, res.After, notes)
	if env.Settings.SecretsAction == settings.Redact {
		text := fieldText(call.Input, field)
		if r, ok := redactField(call.Input, field, text, fresh, res.After, env.Settings.MarkerRule); ok {
			r.Verdict.Notes = notes
			r.Rules, r.Secrets = d.Rules, d.Secrets
			r.UserMessage = rewriteMessage(call.Tool, shown, fresh, res.After)
			r.Blocked = d.Verdict
			return r, nil
		}
		d.Verdict.Notes = append(d.Verdict.Notes, "gemini-guard could not redact a secret that spans the edit boundary, so it blocked the call.")
	}
	return d, nil
}

// scanSpans are the parts of res.After that the call changed (with
// context), joined into as few as fit MaxScan; a part longer than MaxScan
// stays whole (the caller denies the call).
func scanSpans(res edit.Result) []edit.Span {
	if res.Outcome == edit.Applied && len(res.After) > editContext {
		return scanGroups(res.Window(editContext), MaxScan)
	}
	return []edit.Span{{Start: 0, End: len(res.After)}}
}

// scanWindows scans spans of res.After, each at most MaxScan bytes
// (scanSpans), and looks for the known values in them: the findings of
// each, with offsets in res.After.
func scanWindows(sc *configured, set *knownvals.Set, res edit.Result, spans []edit.Span) (found, known []secrets.Finding, err error) {
	lines := 0
	prev := 0
	shift := func(out []secrets.Finding, fs []secrets.Finding, sp edit.Span) []secrets.Finding {
		for _, f := range fs {
			f.Start += sp.Start
			f.End += sp.Start
			f.Line += lines
			out = append(out, f)
		}
		return out
	}
	for _, sp := range spans {
		lines += strings.Count(res.After[prev:sp.Start], "\n")
		prev = sp.Start
		fs, err := sc.scan(res.After[sp.Start:sp.End])
		if err != nil {
			return nil, nil, err
		}
		found = shift(found, fs, sp)
		known = shift(known, set.Find(res.After[sp.Start:sp.End], 0), sp)
	}
	return found, known, nil
}

// scanGroups joins consecutive spans into as few spans of at most limit
// bytes as it can (a span already longer stays alone): a replace with
// allow_multiple over thousands of places is then one scan of the edited
// region, not one round trip per place, and the number of scans is
// bounded by the file's size over limit. What lies between two places is
// scanned too; edit.New drops what the file already held.
func scanGroups(spans []edit.Span, limit int) []edit.Span {
	var out []edit.Span
	for _, sp := range spans {
		if n := len(out); n > 0 && sp.End-out[n-1].Start <= limit {
			out[n-1].End = sp.End
			continue
		}
		out = append(out, sp)
	}
	return out
}

func checkShell(call Call, env Env, command, dir string) (Decision, error) {
	if len(command) > MaxScan {
		// Denied before the analysis, whose cost grows with it.
		return tooLarge("this command", len(command)), nil
	}
	res := analyze(env, call.Cwd, dir, command)
	if why, safer := protectedCommand(env, call.Cwd, res); why != "" {
		return protectedDecision(call.Tool, "", why, safer), nil
	}
	text := command
	if extra := resolvedText(res, command); extra != "" {
		// One scan of the command and what its words become when run.
		text = command + "\n" + extra
	}
	if len(text) > MaxScan {
		return tooLarge("this command with what its words expand to", len(text)), nil
	}
	found, text, notes, err := scanShort(call, env, text)
	if err != nil || len(found) == 0 {
		return Decision{Verdict: verdict.Verdict{Notes: notes}}, err
	}
	d := blockDecision(call.Tool, call.shown(), "", found, text, notes)
	if env.Settings.SecretsAction == settings.Redact {
		if r, ok := redactField(call.Input, "command", command, found, text, env.Settings.MarkerRule); ok {
			r.Verdict.Notes = notes
			r.Rules, r.Secrets = d.Rules, d.Secrets
			r.UserMessage = rewriteMessage(call.Tool, "", found, text)
			r.Blocked = d.Verdict
			return r, nil
		}
	}
	return d, nil
}

// scanShort scans a short text (a command, a call's arguments; the caller
// denies one over MaxScan), asking the scanner only when a rule may match.
// It returns the findings with offsets in scanned, the text scanned, and
// notes for the user.
func scanShort(call Call, env Env, text string) (found []secrets.Finding, scanned string, notes []string, err error) {
	sc := newConfigured(call, env)
	if !sc.mayFind(text) {
		return withKnown(nil, env.Known, text), text, notes, nil
	}
	found, err = sc.scan(text)
	if err != nil {
		return nil, text, nil, err
	}
	return withKnown(found, env.Known, text), text, append(notes, sc.notes...), nil
}

// withKnown adds to found (findings in text) every known value in text,
// sorted by position as the reason expects. A value the rules found too
// is reported once, under the rule (oneRulePerSecret). text leaves the
// machine (a command, a web or MCP call's arguments): the parts of a
// value it holds are joined with those the session's earlier outbound
// calls held (FindSent), so a value sent in halves over two calls is
// caught at the second.
func withKnown(found []secrets.Finding, set *knownvals.Set, text string) []secrets.Finding {
	kf := set.FindSent(text)
	if len(kf) == 0 {
		return found
	}
	return sortFindings(append(slices.Clip(found), kf...))
}

// sortFindings sorts findings by position, as the reason expects.
func sortFindings(found []secrets.Finding) []secrets.Finding {
	slices.SortStableFunc(found, func(a, b secrets.Finding) int {
		if a.Start != b.Start {
			return a.Start - b.Start
		}
		return a.End - b.End
	})
	return found
}

// configured scans with the call's config: the configured gitleaks config,
// else the workspace's .gitleaks.toml, else the built-in rules. A config
// that fails to load falls back to the built-in rules with a note: the
// built-in set is never weaker than a broken file.
type configured struct {
	env   Env
	cwd   string
	opts  secrets.Options
	notes []string
}

func newConfigured(call Call, env Env) *configured {
	return &configured{env: env, cwd: call.Cwd, opts: secrets.ScanOptions(env.Settings, call.Cwd)}
}

func (c *configured) scanner(opts secrets.Options) secrets.Scanner {
	if c.env.Scanner != nil {
		return c.env.Scanner(opts)
	}
	return &scanner.Client{Options: opts}
}

// mayFind reports whether scanning text could find anything: whether some
// rule of the configured set has its keyword, and its pattern, in text or
// in a decoded form of it. It is the prefilter's Watch, which the redactor
// asks the same for every streamed chunk (a superset of what gitleaks finds; a test
// checks it on the corpus). Shell commands are short and almost never hold
// a secret, so most are decided here in tens of microseconds instead of
// by a round trip to the scanner process (~0.5 ms of a ~2 ms hook). File
// contents are not gated: they are long and nearly always hold a keyword
// (key, token, auth), so the check would cost more than it saves. A config
// that does not load asks the scanner, which reports it.
func (c *configured) mayFind(text string) bool {
	rules, err := prefilter.WatchRules(c.opts.ConfigPath)
	if err != nil {
		return true
	}
	return prefilter.NewWatch(rules, c.opts.DisabledRules).Check(text, 0, true).Scan
}

// scan scans text. An error means it could not be scanned at all: the
// hook fails safe and denies.
func (c *configured) scan(text string) ([]secrets.Finding, error) {
	found, bad, err := secrets.ScanOrBuiltin(c.scanner, c.opts, text)
	if bad != nil {
		c.notes = append(c.notes, fmt.Sprintf("gemini-guard could not load the gitleaks config %s (%v) and scanned with its built-in rules.", displayPath(c.cwd, c.opts.ConfigPath), bad.Err))
		c.opts.ConfigPath = "" // the call's other windows too
	}
	return found, err
}

// displayPath is path relative to the workspace when inside it.
func displayPath(cwd, path string) string {
	if cwd != "" {
		if rel, err := filepath.Rel(cwd, path); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return filepath.ToSlash(rel)
		}
	}
	return path
}

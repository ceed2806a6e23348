package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gemini-guard/gemini-guard/internal/hook"
	"github.com/gemini-guard/gemini-guard/internal/lazyregexp"
	"github.com/gemini-guard/gemini-guard/internal/scanner"
	"github.com/gemini-guard/gemini-guard/internal/secrets"
	"github.com/gemini-guard/gemini-guard/internal/settings"
)

// Claude Code reads hooks from the "hooks" key of its settings files:
// ~/.claude/settings.json (the user's) or <project>/.claude/settings.json
// (see the reference notes claude-code-hooks.md §1). gemini-guard owns the
// handlers whose command runs one of its programs with `--host claude`
// and nothing else there: install removes those and appends its own
// groups, keeping every other key, event, group and handler as written.
// The file is validated before it is replaced, written to a temporary
// file and renamed over, and the previous one kept as settings.json.bak.

// claudeHandler is one command handler of Claude Code's settings. Timeout
// is in seconds. OnFailure "block" makes a hook that fails (cannot start,
// times out, exits other than 0 or 2, prints invalid JSON) block the
// action; without it Claude Code lets the action through.
type claudeHandler struct {
	Type      string `json:"type"`
	Command   string `json:"command"`
	Timeout   int    `json:"timeout"`
	OnFailure string `json:"onFailure,omitempty"`
}

// claudeGroup is one event's handlers with the matcher that selects the
// tools (Claude Code: a plain name, a |-list or a regex; "*" is every
// tool; events without tools ignore it).
type claudeGroup struct {
	Matcher string          `json:"matcher,omitempty"`
	Hooks   []claudeHandler `json:"hooks"`
}

// claudeHookSpec is one program gemini-guard registers with Claude Code.
type claudeHookSpec struct {
	Event   string
	Matcher string
	Binary  string
	Args    string
	Timeout int
}

// claudeHooks are the programs Claude Code runs. The shell guard judges
// Bash and MCP calls that plainly run a shell; the secrets guard judges
// commands, writes, edits, notebooks, web and MCP arguments; guard-redact
// replaces secrets in every tool's output and blocks a prompt that holds
// one; session-start checks the installation. Read is not judged before
// it runs: its output is redacted, as in Gemini CLI. A failed tool's
// error text cannot be replaced (PostToolUseFailure can neither change it
// nor stop the turn): PostToolBatch, before the next request, stops the
// turn when a result still holds a secret. It is registered only where
// onFailure is (2.1.332): an event an older Claude Code does not know
// might make it reject the whole hooks setting.
var claudeHooks = []claudeHookSpec{
	{"PreToolUse", "Bash|mcp__.*", "guard-shell", "--host claude", 10},
	{"PreToolUse", "Bash|Write|Edit|MultiEdit|NotebookEdit|WebFetch|WebSearch|mcp__.*", "guard-secrets", "--host claude", 30},
	{"PostToolUse", "*", "guard-redact", "after-tool --host claude", 30},
	{"PostToolBatch", "", "guard-redact", "after-tool --host claude", 30},
	{"UserPromptSubmit", "", "guard-redact", "user-prompt --host claude", 30},
	{"SessionStart", "", "gemini-guard", "session-start --host claude", 10},
}

// claudeBinaries are the programs bin/ must hold for the Claude Code
// hooks: those they run, and guard-scanner, which the others ask.
var claudeBinaries = []string{"guard-shell", "guard-secrets", "guard-redact", "gemini-guard", "guard-scanner"}

// ClaudeOnFailureSince is the oldest Claude Code known to read a handler's
// onFailure (2.1.332, where it was read in the bundle; the changelog up to
// 2.1.240 does not name it). Older versions get no onFailure: an unknown
// key in a handler is not known to be harmless there.
const ClaudeOnFailureSince = "2.1.332"

// ClaudeReplacesOutputSince is the first Claude Code known to take a
// PostToolUse updatedToolOutput in the shape of the tool's output for
// Bash (anthropics/claude-code#68951, closed on 2.1.233): older versions
// may pass the output on unredacted.
const ClaudeReplacesOutputSince = "2.1.233"

// claudeGroupsFor is gemini-guard's groups with absolute paths into bin,
// by event in claudeHooks' order.
func claudeGroupsFor(bin string, onFailure bool) ([]string, map[string][]claudeGroup) {
	var events []string
	groups := map[string][]claudeGroup{}
	for _, h := range claudeHooks {
		if h.Event == "PostToolBatch" && !onFailure {
			continue
		}
		c := claudeHandler{Type: "command", Command: shellQuote(filepath.Join(bin, h.Binary+exeSuffix())) + " " + h.Args, Timeout: h.Timeout}
		if onFailure {
			c.OnFailure = "block"
		}
		if _, ok := groups[h.Event]; !ok {
			events = append(events, h.Event)
		}
		groups[h.Event] = append(groups[h.Event], claudeGroup{Matcher: h.Matcher, Hooks: []claudeHandler{c}})
	}
	return events, groups
}

// claudeOurs reports whether a handler's command is one gemini-guard
// wrote: one of its programs run with --host claude.
func claudeOurs(command string) bool {
	if !strings.Contains(command, "--host claude") {
		return false
	}
	base := strings.TrimSuffix(filepath.Base(commandProgram(command)), ".exe")
	return slices.Contains(claudeBinaries, base)
}

// claudeSplit reads one event's groups and splits off gemini-guard's
// handlers: kept are the groups as they were (a group that lost handlers
// re-encoded without them, one that lost all dropped), ours the groups
// that held them.
func claudeSplit(event string, raw json.RawMessage) (kept []json.RawMessage, ours []claudeGroup, err error) {
	var groups []json.RawMessage
	if err := json.Unmarshal(raw, &groups); err != nil {
		return nil, nil, fmt.Errorf("hooks.%s is not a list of groups", event)
	}
	for _, g := range groups {
		var obj map[string]json.RawMessage
		var handlers []json.RawMessage
		if json.Unmarshal(g, &obj) != nil || json.Unmarshal(obj["hooks"], &handlers) != nil {
			kept = append(kept, g) // not ours to judge
			continue
		}
		var rest []json.RawMessage
		mine := claudeGroup{}
		_ = json.Unmarshal(obj["matcher"], &mine.Matcher)
		for _, h := range handlers {
			var c claudeHandler
			if json.Unmarshal(h, &c) == nil && claudeOurs(c.Command) {
				mine.Hooks = append(mine.Hooks, c)
				continue
			}
			rest = append(rest, h)
		}
		if len(mine.Hooks) == 0 {
			kept = append(kept, g)
			continue
		}
		ours = append(ours, mine)
		if len(rest) > 0 {
			obj["hooks"], _ = json.Marshal(rest)
			b, err := json.Marshal(obj)
			if err != nil {
				return nil, nil, err
			}
			kept = append(kept, b)
		}
	}
	return kept, ours, nil
}

// claudeSettings is a settings file read for install: its members, and
// the events of its "hooks" object.
type claudeSettings struct {
	members []member
	hooksAt int // index of "hooks" in members, -1 when absent
	events  []member
}

func readClaudeSettings(data []byte) (claudeSettings, error) {
	ms, err := readMembers(data)
	if err != nil {
		return claudeSettings{}, err
	}
	s := claudeSettings{hooksAt: -1}
	for _, m := range ms {
		if m.Key == "hooks" {
			if s.hooksAt >= 0 {
				continue // a repeated key: Claude Code's JSON.parse keeps the last; one is kept
			}
			events, err := readMembers(m.Value)
			if err != nil {
				return claudeSettings{}, fmt.Errorf("hooks: %w", err)
			}
			s.hooksAt, s.events = len(s.members), events
		}
		s.members = append(s.members, m)
	}
	return s, nil
}

// rewrite is the settings with events as the new hooks (dropped when
// empty and drop is set).
func (s claudeSettings) rewrite(data []byte, events []member, drop bool) ([]byte, bool, error) {
	ms := slices.Clone(s.members)
	switch {
	case len(events) == 0 && drop && s.hooksAt >= 0:
		ms = slices.Delete(ms, s.hooksAt, s.hooksAt+1)
	default:
		v, err := writeMembers(events)
		if err != nil {
			return nil, false, err
		}
		if s.hooksAt >= 0 {
			ms[s.hooksAt].Value = v
		} else {
			ms = append(ms, member{"hooks", v})
		}
	}
	return finish(data, ms)
}

// withoutOurs is events without gemini-guard's handlers.
func withoutOurs(events []member) ([]member, error) {
	var out []member
	for _, e := range events {
		kept, ours, err := claudeSplit(e.Key, e.Value)
		if err != nil {
			return nil, err
		}
		if len(ours) == 0 {
			out = append(out, e)
			continue
		}
		if len(kept) == 0 {
			continue
		}
		b, err := json.Marshal(kept)
		if err != nil {
			return nil, err
		}
		out = append(out, member{e.Key, b})
	}
	return out, nil
}

// claudeInstall merges gemini-guard's handlers for bin into a settings
// file: every handler of gemini-guard's removed, its groups appended to
// their events. It returns the new content and whether it differs.
func claudeInstall(data []byte, bin string, onFailure bool) ([]byte, bool, error) {
	s, err := readClaudeSettings(data)
	if err != nil {
		return nil, false, err
	}
	events, err := withoutOurs(s.events)
	if err != nil {
		return nil, false, err
	}
	order, groups := claudeGroupsFor(bin, onFailure)
	for _, ev := range order {
		i := slices.IndexFunc(events, func(m member) bool { return m.Key == ev })
		var list []json.RawMessage
		if i >= 0 {
			if err := json.Unmarshal(events[i].Value, &list); err != nil {
				return nil, false, fmt.Errorf("hooks.%s is not a list of groups", ev)
			}
		}
		for _, g := range groups[ev] {
			b, err := json.Marshal(g)
			if err != nil {
				return nil, false, err
			}
			list = append(list, b)
		}
		b, err := json.Marshal(list)
		if err != nil {
			return nil, false, err
		}
		if i >= 0 {
			events[i].Value = b
		} else {
			events = append(events, member{ev, b})
		}
	}
	return s.rewrite(data, events, false)
}

// claudeUninstall removes gemini-guard's handlers and nothing else.
func claudeUninstall(data []byte) ([]byte, bool, error) {
	s, err := readClaudeSettings(data)
	if err != nil {
		return nil, false, err
	}
	events, err := withoutOurs(s.events)
	if err != nil {
		return nil, false, err
	}
	if len(events) == len(s.events) && slices.EqualFunc(events, s.events, func(a, b member) bool { return bytes.Equal(a.Value, b.Value) }) {
		return data, false, nil
	}
	return s.rewrite(data, events, true)
}

// claudeOursByEvent is gemini-guard's groups in a settings file, by event.
func claudeOursByEvent(s claudeSettings) (map[string][]claudeGroup, int, error) {
	got := map[string][]claudeGroup{}
	others := 0
	for _, e := range s.events {
		kept, ours, err := claudeSplit(e.Key, e.Value)
		if err != nil {
			return nil, 0, err
		}
		others += len(kept)
		got[e.Key] = ours
	}
	return got, others, nil
}

// claudeHadBlock reports whether the settings hold handlers of
// gemini-guard's, all with onFailure "block".
func claudeHadBlock(data []byte) bool {
	s, err := readClaudeSettings(data)
	if err != nil {
		return false
	}
	got, _, err := claudeOursByEvent(s)
	if err != nil {
		return false
	}
	n := 0
	for _, groups := range got {
		for _, g := range groups {
			for _, h := range g.Hooks {
				if h.OnFailure != "block" {
					return false
				}
				n++
			}
		}
	}
	return n > 0
}

// claudeFile is a settings file Claude Code reads.
type claudeFile struct {
	Path string
	// Scope is "user" (~/.claude) or "project" (<dir>/.claude).
	Scope string
}

func claudeSettingsFile(project bool, dir string, getenv func(string) string) (claudeFile, error) {
	if project {
		if dir == "" {
			dir = "."
		}
		abs, err := filepath.Abs(dir)
		if err != nil {
			return claudeFile{}, err
		}
		return claudeFile{filepath.Join(abs, ".claude", "settings.json"), "project"}, nil
	}
	if dir := getenv("CLAUDE_CONFIG_DIR"); dir != "" && filepath.IsAbs(dir) {
		// Claude Code's own relocation of ~/.claude.
		return claudeFile{filepath.Join(dir, "settings.json"), "user"}, nil
	}
	home := getenv("HOME")
	if home == "" || !filepath.IsAbs(home) {
		return claudeFile{}, errors.New("no home directory: set HOME, or use --project")
	}
	return claudeFile{filepath.Join(home, ".claude", "settings.json"), "user"}, nil
}

// claudeVersionRE is compiled on first use: session-start, a hook, links
// this package.
var claudeVersionRE = &lazyregexp.Regexp{Expr: `\b(\d+)\.(\d+)\.(\d+)\b`}

// claudeAgentRE reads the version from AI_AGENT, which Claude Code sets
// for its hooks (claude-code_2-1-332_harness).
var claudeAgentRE = &lazyregexp.Regexp{Expr: `^claude-code_(\d+)-(\d+)-(\d+)`}

// claudeVersion is the version `program --version` prints, "" when it
// cannot be run or read.
func claudeVersion(program string) string {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, program, "--version").Output()
	if err != nil {
		return ""
	}
	return claudeVersionRE.FindString(string(out))
}

// versionAtLeast reports whether v (x.y.z) is want or newer; false when v
// cannot be read.
func versionAtLeast(v, want string) bool {
	a, b := claudeVersionRE.FindStringSubmatch(v), claudeVersionRE.FindStringSubmatch(want)
	if a == nil || b == nil {
		return false
	}
	for i := 1; i <= 3; i++ {
		x, _ := strconv.Atoi(a[i])
		y, _ := strconv.Atoi(b[i])
		if x != y {
			return x > y
		}
	}
	return true
}

// claudeOptions are the flags of `gemini-guard claude`.
type claudeOptions struct {
	file      claudeFile
	bin       string
	program   string
	onFailure string
}

const claudeUsage = "usage: gemini-guard claude install|uninstall|status [--project] [--dir DIR] [--bin DIR] [--claude PROGRAM] [--on-failure auto|block|off]"

// claudeCommand is `gemini-guard claude install|uninstall|status`. See doc.go.
func claudeCommand(args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, claudeUsage)
		return 2
	}
	sub := args[0]
	fset := flag.NewFlagSet("claude "+sub, flag.ContinueOnError)
	fset.SetOutput(stderr)
	project := fset.Bool("project", false, "register in the project's .claude/settings.json (of --dir, default the current directory) instead of ~/.claude/settings.json")
	dir := fset.String("dir", "", "the project directory for --project (default: the current directory)")
	binFlag := fset.String("bin", "", "directory of the gemini-guard programs (default: the running program's)")
	program := fset.String("claude", "claude", "the Claude Code program whose version decides onFailure")
	onFailure := fset.String("on-failure", "auto", `"block" on every handler: auto (when Claude Code is `+ClaudeOnFailureSince+` or newer), block or off`)
	if err := fset.Parse(args[1:]); err != nil {
		return usageExit(err)
	}
	if fset.NArg() > 0 || !slices.Contains([]string{"auto", "block", "off"}, *onFailure) {
		fmt.Fprintln(stderr, claudeUsage)
		return 2
	}
	file, err := claudeSettingsFile(*project, *dir, getenv)
	if err != nil {
		fmt.Fprintln(stderr, "gemini-guard claude:", err)
		return 2
	}
	bin := *binFlag
	if bin == "" {
		if bin, err = agyBinDir(); err != nil {
			fmt.Fprintln(stderr, "gemini-guard claude:", err)
			return 2
		}
	}
	if bin, err = filepath.Abs(bin); err != nil {
		fmt.Fprintln(stderr, "gemini-guard claude:", err)
		return 2
	}
	o := claudeOptions{file: file, bin: bin, program: *program, onFailure: *onFailure}
	switch sub {
	case "install":
		return claudeInstallCmd(o, stdout, stderr)
	case "uninstall":
		return claudeUninstallCmd(file, stdout, stderr)
	case "status":
		st := claudeStatusOf(file, bin)
		for _, l := range st.Lines {
			fmt.Fprintln(stdout, l)
		}
		if st.Healthy {
			return 0
		}
		return 1
	}
	fmt.Fprintf(stderr, "gemini-guard claude: unknown command %q (want install, uninstall or status)\n", sub)
	return 2
}

// blockOnFailure decides onFailure for install, and what to tell the user.
// had says every handler of gemini-guard's in the file already has it: a
// version that cannot be told keeps it then.
func (o claudeOptions) blockOnFailure(v string, had bool) (bool, string) {
	switch o.onFailure {
	case "block":
		return true, ""
	case "off":
		return false, "Without onFailure \"block\" Claude Code lets a tool call through when a gemini-guard program fails, times out or is missing."
	}
	if versionAtLeast(v, ClaudeOnFailureSince) {
		return true, ""
	}
	if v == "" && had {
		return true, ""
	}
	if v == "" {
		return false, fmt.Sprintf("Could not tell the version of Claude Code (%s --version): onFailure \"block\" was left out, so Claude Code lets a tool call through when a gemini-guard program fails. "+
			"With Claude Code %s or newer run this again with --claude PATH or --on-failure block.", o.program, ClaudeOnFailureSince)
	}
	return false, fmt.Sprintf("Claude Code %s is older than %s: onFailure \"block\" was left out, so it lets a tool call through when a gemini-guard program fails. Update Claude Code and run this again.", v, ClaudeOnFailureSince)
}

func claudeInstallCmd(o claudeOptions, stdout, stderr io.Writer) int {
	var missing []string
	for _, name := range claudeBinaries {
		if !isExecutable(filepath.Join(o.bin, name+exeSuffix())) {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		fmt.Fprintf(stderr, "gemini-guard claude install: %s lacks %s (or they are not executable). Run `make build`, or install a release archive, then run this again from its bin/.\n",
			o.bin, strings.Join(missing, ", "))
		return 2
	}
	data, err := os.ReadFile(o.file.Path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		fmt.Fprintf(stderr, "gemini-guard claude install: %v\n", err)
		return 2
	}
	v := claudeVersion(o.program)
	block, note := o.blockOnFailure(v, claudeHadBlock(data))
	if v != "" && !versionAtLeast(v, ClaudeReplacesOutputSince) {
		note = strings.TrimSpace(note + "\nWARNING: Claude Code " + v + " is older than " + ClaudeReplacesOutputSince +
			", the first version known to take a hook's replacement of a tool's output: secrets in tool output may reach the model there. Update Claude Code.")
	}
	out, changed, err := claudeInstall(data, o.bin, block)
	if err != nil {
		fmt.Fprintf(stderr, "gemini-guard claude install: %s cannot be merged (%v): left as it is. Repair it, then run this again.\n", o.file.Path, err)
		return 2
	}
	if changed {
		backup, err := replaceFile(o.file.Path, out)
		if err != nil {
			fmt.Fprintf(stderr, "gemini-guard claude install: writing %s: %v\n", o.file.Path, err)
			return 2
		}
		fmt.Fprintf(stdout, "gemini-guard: registered its hooks in %s (programs in %s).\n", o.file.Path, o.bin)
		if backup != "" {
			fmt.Fprintf(stdout, "The previous file is kept as %s.\n", backup)
		}
	} else {
		fmt.Fprintf(stdout, "gemini-guard: already registered in %s.\n", o.file.Path)
	}
	if note != "" {
		fmt.Fprintln(stdout, note)
	}
	fmt.Fprintln(stdout, "Check what Claude Code loaded with /hooks in a session.")
	return 0
}

func claudeUninstallCmd(file claudeFile, stdout, stderr io.Writer) int {
	data, err := os.ReadFile(file.Path)
	if errors.Is(err, fs.ErrNotExist) {
		fmt.Fprintf(stdout, "gemini-guard: %s does not exist; nothing to remove.\n", file.Path)
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "gemini-guard claude uninstall: %v\n", err)
		return 2
	}
	out, changed, err := claudeUninstall(data)
	if err != nil {
		fmt.Fprintf(stderr, "gemini-guard claude uninstall: %s cannot be read (%v): left as it is.\n", file.Path, err)
		return 2
	}
	if !changed {
		fmt.Fprintf(stdout, "gemini-guard: not registered in %s; nothing to remove.\n", file.Path)
		return 0
	}
	backup, err := replaceFile(file.Path, out)
	if err != nil {
		fmt.Fprintf(stderr, "gemini-guard claude uninstall: writing %s: %v\n", file.Path, err)
		return 2
	}
	fmt.Fprintf(stdout, "gemini-guard: removed its hooks from %s (the previous file is kept as %s).\n", file.Path, backup)
	return 0
}

// claudeStatusOf reads file and says whether gemini-guard's handlers are
// there, complete, up to date with bin, and runnable.
func claudeStatusOf(file claudeFile, bin string) hostStatus {
	var st hostStatus
	say := st.say
	data, ok := readRegistration(&st, file.Path, "Claude Code", "claude")
	if !ok {
		return st
	}
	s, err := readClaudeSettings(data)
	if err != nil {
		say("%s: not valid settings (%v): Claude Code cannot use it.", file.Path, err)
		return st
	}
	got, others, err := claudeOursByEvent(s)
	if err != nil {
		say("%s: %v", file.Path, err)
		return st
	}
	n := 0
	for _, g := range got {
		n += len(g)
	}
	if n == 0 {
		say("%s: gemini-guard is not registered (%d other hook group(s)).", file.Path, others)
		return st
	}
	st.Installed, st.Healthy = true, true
	say("%s: gemini-guard is registered (%s scope); %d other hook group(s).", file.Path, file.Scope, others)
	claudeCheckHandlers(&st, got, bin, say)
	for _, m := range s.members {
		if m.Key == "disableAllHooks" && strings.TrimSpace(string(m.Value)) == "true" {
			st.Healthy = false
			say("  FAIL disableAllHooks is true in this file: Claude Code runs none of its hooks.")
		}
	}
	return st
}

// claudeCheckHandlers checks the handlers found against those bin's
// gemini-guard writes, with or without onFailure.
func claudeCheckHandlers(st *hostStatus, got map[string][]claudeGroup, bin string, say func(string, ...any)) {
	blocking := true
	installed := bin // the bin/ the handlers run programs from
	events := slices.Sorted(maps.Keys(got))
	order, _ := claudeGroupsFor(bin, true)
	slices.SortStableFunc(events, func(a, b string) int { return cmpIndex(order, a) - cmpIndex(order, b) })
	for _, ev := range events {
		for _, g := range got[ev] {
			for _, h := range g.Hooks {
				exe := commandProgram(h.Command)
				if !isExecutable(exe) {
					st.Healthy = false
					say("  FAIL %s is missing or not executable: the calls it checks are let through (or blocked, with onFailure). Reinstall gemini-guard, or run gemini-guard claude uninstall.", exe)
				} else {
					say("  ok   %s", h.Command)
				}
				blocking = blocking && h.OnFailure == "block"
				installed = filepath.Dir(exe)
			}
		}
	}
	order, want := claudeGroupsFor(installed, blocking)
	same := true
	for _, ev := range order {
		a, _ := json.Marshal(want[ev])
		b, _ := json.Marshal(got[ev])
		same = same && bytes.Equal(a, b)
	}
	switch {
	case !same:
		st.Healthy = false
		say("  FAIL the handlers differ from what gemini-guard writes (some tools or events unchecked, or a handler repeated): run gemini-guard claude install again.")
	case installed != bin:
		say("  note the handlers run the programs in %s, not this gemini-guard's (%s): run gemini-guard claude install from the copy you want Claude Code to use.", installed, bin)
	}
	if !blocking {
		say("  note onFailure \"block\" is not set: Claude Code lets a call through when a gemini-guard program fails or times out (needs Claude Code %s or newer).", ClaudeOnFailureSince)
	}
}

// cmpIndex is where s is in order, len(order) when absent.
func cmpIndex(order []string, s string) int {
	if i := slices.Index(order, s); i >= 0 {
		return i
	}
	return len(order)
}

// checkClaude is doctor's report of the registration in the user's Claude
// Code settings: absent is fine (Claude Code not used); registered but
// broken fails.
func (d *doctorRun) checkClaude() {
	file, err := claudeSettingsFile(false, "", d.getenv)
	if err != nil {
		d.add("claude code", statusSkip, err.Error(), 0)
		return
	}
	d.addHost("claude code", claudeStatusOf(file, filepath.Join(d.ext.Dir, "bin")))
}

// claudeSessionStart answers Claude Code's SessionStart: what gemini-guard
// cannot do there for the model (additionalContext), and any problem of
// the installation or the settings for the user (systemMessage).
func claudeSessionStart(in hook.SessionStartInput, getenv func(string) string) hook.Output {
	var problems []string
	if bin, err := agyBinDir(); err == nil {
		var missing []string
		for _, name := range claudeBinaries {
			if !isExecutable(filepath.Join(bin, name+exeSuffix())) {
				missing = append(missing, name)
			}
		}
		if len(missing) > 0 {
			problems = append(problems, fmt.Sprintf("gemini-guard is not fully installed: %s missing in %s. Run `make build` or reinstall, then gemini-guard claude install.", strings.Join(missing, ", "), bin))
		}
	}
	if m := claudeAgentRE.FindStringSubmatch(getenv("AI_AGENT")); m != nil {
		if v := m[1] + "." + m[2] + "." + m[3]; !versionAtLeast(v, ClaudeReplacesOutputSince) {
			problems = append(problems, "gemini-guard: Claude Code "+v+" is older than "+ClaudeReplacesOutputSince+
				", the first version known to take a hook's replacement of a tool's output: secrets in tool output may reach the model. Update Claude Code.")
		}
	}
	s, warnings := settings.Load(getenv)
	problems = append(problems, warnings...)
	s, warnings = settings.ApplyProject(s, in.Cwd)
	problems = append(problems, warnings...)
	if s.Mode == settings.WarnOnly {
		problems = append(problems, "gemini-guard is in warn mode: it blocks nothing and only tells you what it would have blocked.")
	}
	_ = (&scanner.Client{Options: secrets.ScanOptions(s, in.Cwd)}).Start()
	return hook.Output{SystemMessage: strings.Join(problems, "\n"), Specific: &hook.Specific{HookEventName: hook.SessionStart, AdditionalContext: hook.ClaudeLimits}}
}

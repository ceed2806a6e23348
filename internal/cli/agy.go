package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/gemini-guard/gemini-guard/internal/hook"
	"github.com/gemini-guard/gemini-guard/internal/scanner"
	"github.com/gemini-guard/gemini-guard/internal/secrets"
	"github.com/gemini-guard/gemini-guard/internal/settings"
	"github.com/gemini-guard/gemini-guard/internal/state"
)

// Antigravity CLI (agy ≥ 1.1.18) reads its hooks from one JSON object whose
// keys are hook names: ~/.gemini/config/hooks.json (always loaded) or a
// workspace's .agents/hooks.json (loaded only when that folder is an open
// workspace). gemini-guard owns the name AgyHookName there and nothing else.
// agy drops the whole file when it cannot read it, or when a top-level value
// is not an object, so the file is validated before it is replaced, written
// to a temporary file and renamed over, and the previous one kept as
// hooks.json.bak.

// AgyHookName is gemini-guard's named hook in agy's hooks.json.
const AgyHookName = "gemini-guard"

// agyHandler is one command of agy's hooks.json. Timeout is in seconds.
type agyHandler struct {
	Type    string `json:"type"`
	Command string `json:"command"`
	Timeout int    `json:"timeout"`
}

// agyGroup is a tool event's handlers with the regex matcher that selects
// the tools (tested against toolCall.name; anchored here, since agy does
// not say whether it anchors).
type agyGroup struct {
	Matcher string       `json:"matcher"`
	Hooks   []agyHandler `json:"hooks"`
}

// agyEntry is gemini-guard's named hook. PreToolUse is grouped by matcher;
// PreInvocation, not a tool event, lists its handlers flat (the other
// shape is dropped silently, reference §2.4).
type agyEntry struct {
	Enabled       bool         `json:"enabled"`
	PreToolUse    []agyGroup   `json:"PreToolUse"`
	PreInvocation []agyHandler `json:"PreInvocation"`
}

// agyHookSpec is one program gemini-guard registers with agy, and the agy
// tools it judges.
type agyHookSpec struct {
	Event   string
	Binary  string
	Args    string
	Tools   []string
	Timeout int
}

// agyHooks are the programs agy runs. The shell guard judges run_command,
// MCP calls that plainly run a shell, and view_file (a credential file
// opened there reaches the model unredacted); the secrets guard judges
// writes, edits, commands, web, search and MCP arguments, and scans every
// argument of the writers whose arguments are not known (toolargs.Opaque). No PostToolUse,
// PostInvocation or Stop hook: agy gives them nothing to redact or decide.
var agyHooks = []agyHookSpec{
	{hook.AgyPreToolUse, "guard-shell", "--host agy PreToolUse",
		[]string{"run_command", "call_mcp_tool", "view_file", "view_file_outline"}, 10},
	{hook.AgyPreToolUse, "guard-secrets", "--host agy PreToolUse",
		[]string{"write_to_file", "replace_file_content", "multi_replace_file_content", "run_command", "read_url_content", "search_web", "call_mcp_tool",
			"sed_file", "notebook_edit", "send_command_input"}, 30},
	{hook.AgyPreInvocation, "gemini-guard", "session-start --host agy PreInvocation", nil, 10},
}

// agyBinaries are the programs bin/ must hold for the agy hooks: those
// they run, and guard-scanner, which guard-secrets asks.
var agyBinaries = []string{"guard-shell", "guard-secrets", "gemini-guard", "guard-scanner"}

// agyEntryFor is gemini-guard's entry with absolute paths into bin.
func agyEntryFor(bin string) agyEntry {
	e := agyEntry{Enabled: true, PreToolUse: []agyGroup{}, PreInvocation: []agyHandler{}}
	for _, h := range agyHooks {
		cmd := agyHandler{Type: "command", Command: shellQuote(filepath.Join(bin, h.Binary+exeSuffix())) + " " + h.Args, Timeout: h.Timeout}
		switch h.Event {
		case hook.AgyPreToolUse:
			e.PreToolUse = append(e.PreToolUse, agyGroup{Matcher: "^(" + strings.Join(h.Tools, "|") + ")$", Hooks: []agyHandler{cmd}})
		default:
			e.PreInvocation = append(e.PreInvocation, cmd)
		}
	}
	return e
}

// shellQuote quotes p for sh -c (how agy ≥ 1.1.25 runs a command) only
// when it must: a plain path then also works for a build that runs the
// command without a shell (reported for 1.0.x).
func shellQuote(p string) string {
	plain := p != "" && strings.IndexFunc(p, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._-+,:@", r))
	}) < 0
	if plain {
		return p
	}
	return "'" + strings.ReplaceAll(p, "'", `'\''`) + "'"
}

// member is one top-level key of hooks.json with its value as written.
type member struct {
	Key   string
	Value json.RawMessage
}

// readMembers reads a hooks.json: one JSON object, its keys in file order
// and its values untouched. An empty file is an empty object.
func readMembers(data []byte) ([]member, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return nil, fmt.Errorf("not JSON: %w", err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, errors.New("not a JSON object")
	}
	var out []member
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("not JSON: %w", err)
		}
		key, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, fmt.Errorf("not JSON: %w", err)
		}
		out = append(out, member{key, v})
	}
	if _, err := dec.Token(); err != nil {
		return nil, fmt.Errorf("not JSON: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("not JSON: something follows the object")
	}
	return out, nil
}

// writeMembers writes members as one indented object, values re-indented
// but otherwise as they were.
func writeMembers(ms []member) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("{")
	for i, m := range ms {
		if i > 0 {
			b.WriteString(",")
		}
		k, _ := json.Marshal(m.Key)
		var v bytes.Buffer
		if err := json.Indent(&v, m.Value, "  ", "  "); err != nil {
			return nil, fmt.Errorf("%s: %w", m.Key, err)
		}
		fmt.Fprintf(&b, "\n  %s: %s", k, v.Bytes())
	}
	if len(ms) > 0 {
		b.WriteString("\n")
	}
	b.WriteString("}\n")
	return b.Bytes(), nil
}

// droppers are the top-level keys whose value is not an object: agy drops
// the whole file for one of them, every hook in it with it.
func droppers(ms []member) []string {
	var out []string
	for _, m := range ms {
		if t := bytes.TrimSpace(m.Value); len(t) == 0 || t[0] != '{' {
			out = append(out, m.Key)
		}
	}
	return out
}

// agyFile is a hooks.json agy reads.
type agyFile struct {
	Path string
	// Scope is "user" (~/.gemini/config) or "workspace" (.agents).
	Scope string
}

// agyHooksFile is the hooks.json for workspace ("" for the user's).
func agyHooksFile(workspace string, getenv func(string) string) (agyFile, error) {
	if workspace != "" {
		dir, err := filepath.Abs(workspace)
		if err != nil {
			return agyFile{}, err
		}
		return agyFile{filepath.Join(dir, ".agents", "hooks.json"), "workspace"}, nil
	}
	home := getenv("HOME")
	if home == "" || !filepath.IsAbs(home) {
		return agyFile{}, errors.New("no home directory: set HOME, or name a workspace with --workspace")
	}
	return agyFile{filepath.Join(home, ".gemini", "config", "hooks.json"), "user"}, nil
}

// agyBinDir is the directory of the running gemini-guard: its bin/.
func agyBinDir() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	if exe, err = filepath.EvalSymlinks(exe); err != nil {
		return "", err
	}
	return filepath.Dir(exe), nil
}

// missingBinaries lists the agy binaries bin lacks or cannot run.
func missingBinaries(bin string) []string {
	var out []string
	for _, name := range agyBinaries {
		if !isExecutable(filepath.Join(bin, name+exeSuffix())) {
			out = append(out, name)
		}
	}
	return out
}

func isExecutable(p string) bool {
	info, err := os.Stat(p)
	return err == nil && info.Mode().IsRegular() && (exeSuffix() != "" || info.Mode().Perm()&0o111 != 0)
}

// agyInstall merges gemini-guard's entry for bin into file's members:
// replaced in place when present, appended otherwise. It returns the new
// content and whether it differs from data.
func agyInstall(data []byte, bin string) ([]byte, bool, error) {
	ms, err := readMembers(data)
	if err != nil {
		return nil, false, err
	}
	entry, err := json.Marshal(agyEntryFor(bin))
	if err != nil {
		return nil, false, err
	}
	// In place of the first entry of ours; a repeated key (which agy would
	// read as the last) is dropped.
	var out []member
	found := false
	for _, m := range ms {
		if m.Key != AgyHookName {
			out = append(out, m)
		} else if !found {
			out = append(out, member{AgyHookName, entry})
			found = true
		}
	}
	if !found {
		out = append(out, member{AgyHookName, entry})
	}
	return finish(data, out)
}

// agyUninstall removes gemini-guard's entry and nothing else.
func agyUninstall(data []byte) ([]byte, bool, error) {
	ms, err := readMembers(data)
	if err != nil {
		return nil, false, err
	}
	ms = slices.DeleteFunc(ms, func(m member) bool { return m.Key == AgyHookName })
	return finish(data, ms)
}

// finish writes ms and checks that the result reads back as the same
// members (agy drops a file it cannot read): changed reports whether it
// differs from data in meaning, not only in spacing.
func finish(data []byte, ms []member) ([]byte, bool, error) {
	out, err := writeMembers(ms)
	if err != nil {
		return nil, false, err
	}
	back, err := readMembers(out)
	if err != nil || len(back) != len(ms) {
		return nil, false, fmt.Errorf("the file written would not read back (%v)", err)
	}
	old, _ := readMembers(data)
	return out, !sameMembers(old, back), nil
}

func sameMembers(a, b []member) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		var x, y any
		if a[i].Key != b[i].Key || json.Unmarshal(a[i].Value, &x) != nil || json.Unmarshal(b[i].Value, &y) != nil {
			return false
		}
		xs, _ := json.Marshal(x)
		ys, _ := json.Marshal(y)
		if !bytes.Equal(xs, ys) {
			return false
		}
	}
	return true
}

// replaceFile writes data to path atomically (a temporary file in the same
// directory, synced, renamed over), keeping the previous content in
// path+".bak" and the previous mode. A symbolic link is followed: its
// target is replaced, the link kept.
func replaceFile(path string, data []byte) (backup string, err error) {
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	mode := fs.FileMode(0o644)
	old, err := os.ReadFile(path)
	switch {
	case err == nil:
		if info, err := os.Stat(path); err == nil {
			mode = info.Mode().Perm()
		}
		backup = path + ".bak"
		if err := writeAtomic(backup, old, mode); err != nil {
			return "", fmt.Errorf("backup: %w", err)
		}
	case errors.Is(err, fs.ErrNotExist):
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return "", err
		}
	default:
		return "", err
	}
	return backup, writeAtomic(path, data, mode)
}

func writeAtomic(path string, data []byte, mode fs.FileMode) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp) // after a successful rename there is nothing to remove
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Chmod(mode); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// agyCommand is `gemini-guard agy install|uninstall|status`. See doc.go.
func agyCommand(args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "usage: gemini-guard agy install|uninstall|status [--workspace DIR] [--bin DIR]")
		return 2
	}
	sub := args[0]
	fs := flag.NewFlagSet("agy "+sub, flag.ContinueOnError)
	fs.SetOutput(stderr)
	workspace := fs.String("workspace", "", "register in DIR/.agents/hooks.json instead of ~/.gemini/config/hooks.json")
	binFlag := fs.String("bin", "", "directory of the gemini-guard programs (default: the running program's)")
	if err := fs.Parse(args[1:]); err != nil {
		return usageExit(err)
	}
	if fs.NArg() > 0 {
		fmt.Fprintln(stderr, "usage: gemini-guard agy install|uninstall|status [--workspace DIR] [--bin DIR]")
		return 2
	}
	file, err := agyHooksFile(*workspace, getenv)
	if err != nil {
		fmt.Fprintln(stderr, "gemini-guard agy:", err)
		return 2
	}
	bin := *binFlag
	if bin == "" {
		if bin, err = agyBinDir(); err != nil {
			fmt.Fprintln(stderr, "gemini-guard agy:", err)
			return 2
		}
	}
	if bin, err = filepath.Abs(bin); err != nil {
		fmt.Fprintln(stderr, "gemini-guard agy:", err)
		return 2
	}
	switch sub {
	case "install":
		return agyInstallCmd(file, bin, stdout, stderr)
	case "uninstall":
		return agyUninstallCmd(file, stdout, stderr)
	case "status":
		st := agyStatusOf(file, bin)
		for _, l := range st.Lines {
			fmt.Fprintln(stdout, l)
		}
		if st.Healthy {
			return 0
		}
		return 1
	}
	fmt.Fprintf(stderr, "gemini-guard agy: unknown command %q (want install, uninstall or status)\n", sub)
	return 2
}

func agyInstallCmd(file agyFile, bin string, stdout, stderr io.Writer) int {
	if missing := missingBinaries(bin); len(missing) > 0 {
		fmt.Fprintf(stderr, "gemini-guard agy install: %s lacks %s (or they are not executable): agy would block every tool call. Run `make build`, or install a release archive, then run this again from its bin/.\n",
			bin, strings.Join(missing, ", "))
		return 2
	}
	data, err := os.ReadFile(file.Path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		fmt.Fprintf(stderr, "gemini-guard agy install: %v\n", err)
		return 2
	}
	out, changed, err := agyInstall(data, bin)
	if err != nil {
		fmt.Fprintf(stderr, "gemini-guard agy install: %s is not a JSON object (%v): left as it is. Repair it (agy ignores it as it is), then run this again.\n", file.Path, err)
		return 2
	}
	if changed {
		backup, err := replaceFile(file.Path, out)
		if err != nil {
			fmt.Fprintf(stderr, "gemini-guard agy install: writing %s: %v\n", file.Path, err)
			return 2
		}
		fmt.Fprintf(stdout, "gemini-guard: registered the hook %q in %s (programs in %s).\n", AgyHookName, file.Path, bin)
		if backup != "" {
			fmt.Fprintf(stdout, "The previous file is kept as %s.\n", backup)
		}
	} else {
		fmt.Fprintf(stdout, "gemini-guard: already registered in %s.\n", file.Path)
	}
	if file.Scope == "workspace" {
		fmt.Fprintln(stdout, "agy loads a workspace's .agents/hooks.json only when that folder is an open workspace (the TUI started in it, or -p with --add-dir); the user's ~/.gemini/config/hooks.json is always loaded.")
	}
	fmt.Fprintln(stdout, "Check what agy loaded with: agy -p \"/hooks\" --output-format json")
	ms, _ := readMembers(out)
	if bad := droppers(ms); len(bad) > 0 {
		fmt.Fprintf(stderr, "gemini-guard agy install: agy drops this whole file, gemini-guard's hook with it, because the top-level key(s) %s do not hold an object. Remove or fix them.\n", strings.Join(bad, ", "))
		return 1
	}
	return 0
}

func agyUninstallCmd(file agyFile, stdout, stderr io.Writer) int {
	data, err := os.ReadFile(file.Path)
	if errors.Is(err, fs.ErrNotExist) {
		fmt.Fprintf(stdout, "gemini-guard: %s does not exist; nothing to remove.\n", file.Path)
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "gemini-guard agy uninstall: %v\n", err)
		return 2
	}
	out, changed, err := agyUninstall(data)
	if err != nil {
		fmt.Fprintf(stderr, "gemini-guard agy uninstall: %s is not a JSON object (%v): left as it is.\n", file.Path, err)
		return 2
	}
	if !changed {
		fmt.Fprintf(stdout, "gemini-guard: not registered in %s; nothing to remove.\n", file.Path)
		return 0
	}
	backup, err := replaceFile(file.Path, out)
	if err != nil {
		fmt.Fprintf(stderr, "gemini-guard agy uninstall: writing %s: %v\n", file.Path, err)
		return 2
	}
	fmt.Fprintf(stdout, "gemini-guard: removed the hook %q from %s (the previous file is kept as %s).\n", AgyHookName, file.Path, backup)
	return 0
}

// hostStatus is what a host's `status` command (agy, claude, codex) and
// doctor say of gemini-guard's registration with that host.
type hostStatus struct {
	// Installed: the host's file holds gemini-guard's entries.
	Installed bool
	// Healthy: installed as this gemini-guard would install it, enabled,
	// every program present and runnable, and nothing in the file makes
	// the host drop or distrust them.
	Healthy bool
	Lines   []string
}

// say adds a line to what st says.
func (st *hostStatus) say(format string, a ...any) { st.Lines = append(st.Lines, fmt.Sprintf(format, a...)) }

// readRegistration reads the host's registration file at path for a
// status; false, with st saying why, when it is absent (gemini-guard is
// not registered with host there; `gemini-guard command install` would)
// or cannot be read.
func readRegistration(st *hostStatus, path, host, command string) ([]byte, bool) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		st.say("%s: absent; gemini-guard is not registered with %s there (gemini-guard %s install).", path, host, command)
		return nil, false
	}
	if err != nil {
		st.say("%s: %v", path, err)
		return nil, false
	}
	return data, true
}

// addHost is doctor's line for a host's registration: absent is fine (the
// host is not used), registered but broken fails.
func (d *doctorRun) addHost(name string, st hostStatus) {
	switch {
	case !st.Installed:
		d.add(name, statusSkip, strings.Join(st.Lines, " "), 0)
	case st.Healthy:
		d.add(name, statusOK, strings.Join(st.Lines, " "), 0)
	default:
		d.add(name, statusFail, strings.Join(st.Lines, " "), 0)
	}
}

// agyStatusOf reads file and says whether gemini-guard's entry is there,
// enabled, up to date with bin, and runnable.
func agyStatusOf(file agyFile, bin string) hostStatus {
	var st hostStatus
	say := st.say
	data, ok := readRegistration(&st, file.Path, "agy", "agy")
	if !ok {
		return st
	}
	ms, err := readMembers(data)
	if err != nil {
		say("%s: not a JSON object (%v): agy ignores the whole file.", file.Path, err)
		return st
	}
	var raw json.RawMessage
	var others []string
	for _, m := range ms {
		if m.Key == AgyHookName {
			raw = m.Value
		} else {
			others = append(others, m.Key)
		}
	}
	if raw == nil {
		say("%s: gemini-guard is not registered (%d other hook(s): %s).", file.Path, len(others), strings.Join(others, ", "))
		return st
	}
	st.Installed, st.Healthy = true, true
	say("%s: gemini-guard is registered (%s scope); other hooks: %s.", file.Path, file.Scope, orNone(others))
	var got agyEntry
	if err := json.Unmarshal(raw, &got); err != nil {
		st.Healthy = false
		say("  FAIL its entry is not in the shape gemini-guard writes (%v): run gemini-guard agy install.", err)
		return st
	}
	if !got.Enabled {
		st.Healthy = false
		say("  FAIL it is switched off (\"enabled\": false, the `e` key of agy's /hooks): nothing is checked.")
	}
	for _, c := range agyCommands(got) {
		exe := commandProgram(c)
		if !isExecutable(exe) {
			st.Healthy = false
			say("  FAIL %s is missing or not executable: agy blocks every tool call this hook matches. Reinstall gemini-guard, or run gemini-guard agy uninstall.", exe)
		} else {
			say("  ok   %s", c)
		}
	}
	want := agyEntryFor(bin)
	wantJSON, _ := json.Marshal(want)
	gotJSON, _ := json.Marshal(got)
	if !bytes.Equal(wantJSON, gotJSON) {
		say("  note the entry differs from what this gemini-guard (%s) would write: run gemini-guard agy install from the copy you want agy to use.", bin)
	}
	if bad := droppers(ms); len(bad) > 0 {
		st.Healthy = false
		say("  FAIL agy drops this whole file because the top-level key(s) %s do not hold an object.", strings.Join(bad, ", "))
	}
	if file.Scope == "workspace" {
		say("  note agy loads it only when this folder is an open workspace; a hook named %q in ~/.gemini/config/hooks.json wins over it.", AgyHookName)
	}
	return st
}

func orNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ", ")
}

func agyCommands(e agyEntry) []string {
	var out []string
	for _, g := range e.PreToolUse {
		for _, h := range g.Hooks {
			out = append(out, h.Command)
		}
	}
	for _, h := range e.PreInvocation {
		out = append(out, h.Command)
	}
	return out
}

// commandProgram is the program a command written by agyEntryFor runs:
// its first word, unquoted.
func commandProgram(cmd string) string {
	if strings.HasPrefix(cmd, "'") {
		var b strings.Builder
		rest := cmd[1:]
		for {
			i := strings.IndexByte(rest, '\'')
			if i < 0 {
				return b.String() + rest
			}
			b.WriteString(rest[:i])
			rest = rest[i+1:]
			if !strings.HasPrefix(rest, `\''`) {
				return b.String()
			}
			b.WriteByte('\'')
			rest = rest[3:]
		}
	}
	first, _, _ := strings.Cut(cmd, " ")
	return first
}

// checkAgy is doctor's report of the agy registration in the user's
// hooks.json: absent is fine (agy not used); registered but broken fails,
// since agy then blocks every tool call.
func (d *doctorRun) checkAgy() {
	file, err := agyHooksFile("", d.getenv)
	if err != nil {
		d.add("antigravity cli", statusSkip, err.Error(), 0)
		return
	}
	d.addHost("antigravity cli", agyStatusOf(file, filepath.Join(d.ext.Dir, "bin")))
}

// agyNoticeKind names the state record that says a conversation was told.
const agyNoticeKind = "agy-notice"

// agySessionStart answers agy's PreInvocation: at the first model request
// of a conversation (invocationNum 0, not seen before) one message for the
// model, that gemini-guard is active and what agy keeps it from covering,
// with any problem of the installation or the settings. Later requests get
// nothing. agy puts no extension settings in a hook's environment: the
// settings are those of agy's own environment, tightened by the workspace's
// project file.
func agySessionStart(in hook.SessionStartInput, getenv func(string) string) hook.Output {
	if in.Source != "startup" || !firstNotice(getenv, in.SessionID) {
		return hook.Output{}
	}
	lines := []string{hook.AgyLimits}
	if bin, err := agyBinDir(); err == nil {
		if missing := missingBinaries(bin); len(missing) > 0 {
			lines = append(lines, fmt.Sprintf("gemini-guard is not fully installed: %s missing in %s; calls they check are blocked. Tell the user.", strings.Join(missing, ", "), bin))
		}
	}
	s, warnings := settings.Load(getenv)
	lines = append(lines, warnings...)
	s, warnings = settings.ApplyProject(s, in.Cwd)
	lines = append(lines, warnings...)
	if s.Mode == settings.WarnOnly {
		lines = append(lines, "gemini-guard is in warn mode: it blocks nothing, and Antigravity CLI shows no warning.")
	}
	_ = (&scanner.Client{Options: secrets.ScanOptions(s, in.Cwd)}).Start()
	return hook.Allow(strings.Join(lines, "\n"))
}

// firstNotice records that conversation id was told, and reports whether
// it had not been before. Without a usable state directory every turn is
// told: a repeated notice is better than none.
func firstNotice(getenv func(string) string, id string) bool {
	if id == "" {
		return true
	}
	st, err := state.Open(state.Dir(getenv))
	if err != nil {
		return true
	}
	// The sweep guard-redact runs on the same directory: a record an hour
	// old is gone (a conversation idle that long is told again), and a
	// longer age here would delay the sweep of its records.
	_ = st.CleanEvery(time.Now(), 10*time.Minute, time.Hour)
	first := true
	if err := st.Update(state.Key(agyNoticeKind, id), func(old []byte) ([]byte, error) {
		first = len(old) == 0
		return []byte("told\n"), nil
	}); err != nil {
		return true
	}
	return first
}

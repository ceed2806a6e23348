package cli

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/pelletier/go-toml/v2"

	"github.com/gemini-guard/gemini-guard/internal/hook"
	"github.com/gemini-guard/gemini-guard/internal/scanner"
	"github.com/gemini-guard/gemini-guard/internal/secrets"
	"github.com/gemini-guard/gemini-guard/internal/settings"
)

// Codex CLI (0.171.0) reads hooks from $CODEX_HOME/hooks.json (the user's)
// or <project>/.codex/hooks.json (a trusted project's), in the Claude Code
// shape {"hooks": {"PreToolUse": [{"matcher", "hooks": [{"type",
// "command", "timeout"}]}]}}. It runs a user or project hook only when the
// user's $CODEX_HOME/config.toml holds
//
//	[hooks.state."<abs path of hooks.json>:<event label>:<group>:<handler>"]
//	trusted_hash = "sha256:<hex>"
//
// matching the hook (codexTrustHash); otherwise, or after any change to
// the hook's command, matcher or timeout, it skips the hook without a
// word. So install writes both files, status recomputes every hash, and
// gemini-guard's groups are replaced where they stand (other hooks keep
// their indices, and so their trust). See the project's reference notes,
// codex-hooks.md §1.

// codexHookSpec is one program gemini-guard registers with Codex.
type codexHookSpec struct {
	Event   string
	Matcher string // "" for none
	Binary  string
	Args    string
	Timeout int // seconds
}

// codexTools are the Codex tools the guards judge before they run: the
// shell, the patch tool and MCP tools.
const codexTools = "^(Bash|apply_patch|mcp__.+)$"

// codexHooks are the programs Codex runs. Every one is named with
// `--host codex <event>`: Codex's input reads like Qwen Code's.
func codexHooks() []codexHookSpec {
	return []codexHookSpec{
		{hook.CodexPreToolUse, codexTools, "guard-shell", "--host codex PreToolUse", 10},
		{hook.CodexPreToolUse, codexTools, "guard-secrets", "--host codex PreToolUse", 30},
		{hook.CodexPostToolUse, "*", "guard-redact", "after-tool --host codex PostToolUse", 30},
		{hook.CodexSessionStart, "", "gemini-guard", "session-start --host codex SessionStart", 10},
	}
}

// codexBinaries are the programs bin/ must hold for the Codex hooks.
var codexBinaries = []string{"guard-shell", "guard-secrets", "guard-redact", "gemini-guard", "guard-scanner"}

// codexEventLabel is Codex's label of an event in a trust key, "" for an
// event it does not have.
func codexEventLabel(event string) string {
	switch event {
	case "PreToolUse":
		return "pre_tool_use"
	case "PostToolUse":
		return "post_tool_use"
	case "PermissionRequest":
		return "permission_request"
	case "UserPromptSubmit":
		return "user_prompt_submit"
	case "SessionStart":
		return "session_start"
	case "SessionEnd":
		return "session_end"
	case "Stop":
		return "stop"
	case "PreCompact":
		return "pre_compact"
	case "PostCompact":
		return "post_compact"
	case "SubagentStart":
		return "subagent_start"
	case "SubagentStop":
		return "subagent_stop"
	}
	return ""
}

// codexUsesMatcher says whether an event's matcher is part of a hook's
// identity (Codex ignores it for the others).
func codexUsesMatcher(label string) bool {
	switch label {
	case "pre_tool_use", "post_tool_use", "permission_request", "session_start", "pre_compact", "post_compact":
		return true
	}
	return false
}

// codexHandler is one handler of a Codex hooks.json as the trust hash
// reads it.
type codexHandler struct {
	Type          string  `json:"type"`
	Command       string  `json:"command"`
	Timeout       *int64  `json:"timeout,omitempty"`
	Async         bool    `json:"async,omitempty"`
	StatusMessage *string `json:"statusMessage,omitempty"`
}

// codexGroup is a matcher group.
type codexGroup struct {
	Matcher *string           `json:"matcher,omitempty"`
	Hooks   []json.RawMessage `json:"hooks"`
}

// codexTrustHash is the trusted_hash Codex 0.171.0 computes for a command
// handler (hooks/src/engine/discovery.rs, command_hook_hash): "sha256:" and
// the hex SHA-256 of the compact JSON, keys sorted, of {"event_name":
// label, "matcher": matcher (only for events that use one, and only when
// set), "hooks": [{"type": "command", "command", "timeout" (default 600,
// at least 1), "async", "statusMessage" (when set)}]}.
func codexTrustHash(label string, matcher *string, h codexHandler) string {
	timeout := int64(600)
	if h.Timeout != nil {
		timeout = max(*h.Timeout, 1)
	}
	handler := map[string]any{"type": "command", "command": h.Command, "timeout": timeout, "async": h.Async}
	if h.StatusMessage != nil {
		handler["statusMessage"] = *h.StatusMessage
	}
	identity := map[string]any{"event_name": label, "hooks": []any{handler}}
	if matcher != nil && codexUsesMatcher(label) {
		identity["matcher"] = *matcher
	}
	// encoding/json sorts map keys; jsonenc-style: no HTML escaping, as
	// serde_json writes < > & as they are.
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(identity)
	sum := sha256.Sum256(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// codexFiles are the files one Codex registration lives in.
type codexFiles struct {
	// Hooks is the hooks.json gemini-guard's groups go into.
	Hooks string
	// Config is the user's config.toml, where trust is kept.
	Config string
	// Scope is "user" or "project".
	Scope string
	// Shell is the shell Codex runs hooks with ($SHELL -lc, else
	// /bin/sh).
	Shell string
}

// codexHome is $CODEX_HOME (its real path), else ~/.codex.
func codexHome(getenv func(string) string) (string, error) {
	if h := getenv("CODEX_HOME"); h != "" {
		// Codex canonicalises CODEX_HOME (measured on 0.171.0: trust
		// written under a symbolic link's path was not found), but not
		// the default ~/.codex.
		abs, err := filepath.Abs(h)
		if err != nil {
			return "", err
		}
		if real, err := filepath.EvalSymlinks(abs); err == nil {
			abs = real
		}
		return abs, nil
	}
	home := getenv("HOME")
	if home == "" || !filepath.IsAbs(home) {
		return "", errors.New("no home directory: set HOME or CODEX_HOME")
	}
	return filepath.Join(home, ".codex"), nil
}

// codexFilesFor are the files of the user's registration, or of the
// project in dir when project is set.
func codexFilesFor(project bool, dir string, getenv func(string) string) (codexFiles, error) {
	home, err := codexHome(getenv)
	if err != nil {
		return codexFiles{}, err
	}
	f := codexFiles{Hooks: filepath.Join(home, "hooks.json"), Config: filepath.Join(home, "config.toml"), Scope: "user", Shell: getenv("SHELL")}
	if f.Shell == "" {
		f.Shell = "/bin/sh"
	}
	if project {
		abs, err := filepath.Abs(dir)
		if err != nil {
			return codexFiles{}, err
		}
		f.Hooks, f.Scope = filepath.Join(abs, ".codex", "hooks.json"), "project"
	}
	return f, nil
}

// codexHandlerFor is spec's handler with its program in bin.
func codexHandlerFor(bin string, s codexHookSpec) codexHandler {
	t := int64(s.Timeout)
	return codexHandler{Type: "command", Command: shellQuote(filepath.Join(bin, s.Binary+exeSuffix())) + " " + s.Args, Timeout: &t}
}

// isOurs says whether a handler command is one gemini-guard writes.
func isOurs(command string) bool {
	return strings.Contains(command, " --host codex ")
}

// codexEvents is the "hooks" object of a hooks.json: its events in file
// order, each with its groups untouched.
type codexEvents struct {
	top    []member // the file's members; "hooks" among them
	events []member // the members of "hooks"
}

func readCodexEvents(data []byte) (codexEvents, error) {
	var c codexEvents
	var err error
	if c.top, err = readMembers(data); err != nil {
		return c, err
	}
	for _, m := range c.top {
		if m.Key == "hooks" {
			if c.events, err = readMembers(m.Value); err != nil {
				return c, fmt.Errorf("hooks: %w", err)
			}
		}
	}
	return c, nil
}

// groups are the groups of event, nil when it has none.
func (c codexEvents) groups(event string) ([]json.RawMessage, error) {
	for _, m := range c.events {
		if m.Key == event {
			var gs []json.RawMessage
			if err := json.Unmarshal(m.Value, &gs); err != nil {
				return nil, fmt.Errorf("hooks.%s is not a list of matcher groups", event)
			}
			return gs, nil
		}
	}
	return nil, nil
}

// groupIsOurs says whether a group holds a handler gemini-guard wrote.
func groupIsOurs(raw json.RawMessage) bool {
	var g codexGroup
	if json.Unmarshal(raw, &g) != nil {
		return false
	}
	for _, h := range g.Hooks {
		var x codexHandler
		if json.Unmarshal(h, &x) == nil && isOurs(x.Command) {
			return true
		}
	}
	return false
}

// codexEventsOf lists the events in file order, then the events of want
// the file lacks.
func eventOrder(c codexEvents, want []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, m := range c.events {
		out, seen[m.Key] = append(out, m.Key), true
	}
	for _, e := range want {
		if !seen[e] {
			out, seen[e] = append(out, e), true
		}
	}
	return out
}

// codexMerge is hooks.json with gemini-guard's groups for bin (install) or
// without them (bin ""): each event's groups of ours are replaced by the
// new ones at the place of the first, or appended. Other groups, events
// and keys are kept as they are. It returns the new content and the trust
// keys that moved: a group of someone else's that now stands at another
// index (old key → new key).
func codexMerge(data []byte, bin string) ([]byte, map[string]string, error) {
	c, err := readCodexEvents(data)
	if err != nil {
		return nil, nil, err
	}
	want := map[string][]json.RawMessage{}
	var order []string
	if bin != "" {
		for _, s := range codexHooks() {
			g := map[string]any{"hooks": []codexHandler{codexHandlerFor(bin, s)}}
			if s.Matcher != "" {
				g["matcher"] = s.Matcher
			}
			b, err := json.Marshal(g)
			if err != nil {
				return nil, nil, err
			}
			if want[s.Event] == nil {
				order = append(order, s.Event)
			}
			want[s.Event] = append(want[s.Event], b)
		}
	}
	moved := map[string]string{}
	var events []member
	for _, ev := range eventOrder(c, order) {
		gs, err := c.groups(ev)
		if err != nil {
			return nil, nil, err
		}
		var out []json.RawMessage
		placed := false
		for i, g := range gs {
			if groupIsOurs(g) {
				if !placed {
					out, placed = append(out, want[ev]...), true
				}
				continue
			}
			if len(out) != i {
				moved[codexKeyPart(ev, i)] = codexKeyPart(ev, len(out))
			}
			out = append(out, g)
		}
		if !placed {
			out = append(out, want[ev]...)
		}
		if len(out) == 0 {
			continue // an event only gemini-guard used is removed with it
		}
		b, err := json.Marshal(out)
		if err != nil {
			return nil, nil, err
		}
		events = append(events, member{ev, b})
	}
	hooksValue, err := writeMembers(events)
	if err != nil {
		return nil, nil, err
	}
	top := c.top
	found := false
	for i, m := range top {
		if m.Key == "hooks" {
			top[i].Value, found = hooksValue, true
		}
	}
	if !found {
		top = append(top, member{"hooks", hooksValue})
	}
	out, err := writeMembers(top)
	return out, moved, err
}

// codexKeyPart is a trust key without its file: <event>:<group>. (The
// handler index follows; a group's handlers do not move.)
func codexKeyPart(event string, group int) string {
	return event + ":" + strconv.Itoa(group)
}

// codexTrust is one handler of ours with its trust key and hash.
type codexTrust struct {
	Key, Hash, Command string
}

// codexTrusts are gemini-guard's handlers in a hooks.json at path, with
// the keys and hashes Codex gives them.
func codexTrusts(path string, data []byte) ([]codexTrust, error) {
	c, err := readCodexEvents(data)
	if err != nil {
		return nil, err
	}
	var out []codexTrust
	for _, m := range c.events {
		label := codexEventLabel(m.Key)
		gs, err := c.groups(m.Key)
		if err != nil || label == "" {
			continue
		}
		for gi, raw := range gs {
			var g codexGroup
			if json.Unmarshal(raw, &g) != nil {
				continue
			}
			for hi, hraw := range g.Hooks {
				var h codexHandler
				if json.Unmarshal(hraw, &h) != nil || !isOurs(h.Command) {
					continue
				}
				key := fmt.Sprintf("%s:%s:%d:%d", path, label, gi, hi)
				out = append(out, codexTrust{Key: key, Hash: codexTrustHash(label, g.Matcher, h), Command: h.Command})
			}
		}
	}
	return out, nil
}

// tomlString is s as a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, "\\u%04X", r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func stateHeader(key string) string { return "[hooks.state." + tomlString(key) + "]" }

// tableSpan finds the table whose header is header in lines: its header
// line and the line after its last (the next header, or the end).
func tableSpan(lines []string, header string) (start, end int, ok bool) {
	for i, l := range lines {
		if strings.TrimSpace(l) != header {
			continue
		}
		end = len(lines)
		for j := i + 1; j < len(lines); j++ {
			if strings.HasPrefix(strings.TrimSpace(lines[j]), "[") {
				end = j
				break
			}
		}
		return i, end, true
	}
	return 0, 0, false
}

// codexState rewrites config.toml's [hooks.state] tables: the tables of
// drop are removed, those of rename get their new key, and a table for
// each of set is written at the end (enabled, trusted_hash). Everything
// else stays as written, comments too. The result is checked by parsing
// it: the same document but for these tables.
func codexState(data []byte, drop []string, rename map[string]string, set []codexTrust) ([]byte, error) {
	before := map[string]any{}
	if err := toml.Unmarshal(data, &before); err != nil {
		return nil, fmt.Errorf("not valid TOML: %w", err)
	}
	text := strings.ReplaceAll(string(data), "\r\n", "\n")
	lines := strings.Split(text, "\n")
	for _, key := range drop {
		for {
			s, e, ok := tableSpan(lines, stateHeader(key))
			if !ok {
				break
			}
			lines = append(lines[:s], lines[e:]...)
		}
	}
	// In two steps, through names no key has: a rename onto a key that
	// is itself renamed (groups shifted by one) must not meet it.
	var moved []string
	for from, to := range rename {
		if s, _, ok := tableSpan(lines, stateHeader(from)); ok {
			lines[s] = stateHeader("\x00gemini-guard-rename-" + strconv.Itoa(len(moved)))
			moved = append(moved, to)
		}
	}
	for i, to := range moved {
		if s, _, ok := tableSpan(lines, stateHeader("\x00gemini-guard-rename-"+strconv.Itoa(i))); ok {
			lines[s] = stateHeader(to)
		}
	}
	text = strings.TrimRight(strings.Join(lines, "\n"), "\n")
	var b strings.Builder
	b.WriteString(text)
	if text != "" {
		b.WriteString("\n")
	}
	for _, t := range set {
		fmt.Fprintf(&b, "\n%s\nenabled = true\ntrusted_hash = %s\n", stateHeader(t.Key), tomlString(t.Hash))
	}
	out := []byte(b.String())
	after := map[string]any{}
	if err := toml.Unmarshal(out, &after); err != nil {
		return nil, fmt.Errorf("the file written would not be valid TOML (%v); is [hooks.state] written inline?", err)
	}
	for _, t := range set {
		if st := codexStateOf(after, t.Key); st.Hash != t.Hash || !st.Enabled {
			return nil, fmt.Errorf("the file written would not read back the trust of %s", t.Key)
		}
	}
	// The document before, with the drops and renames done, is the one
	// after, but for the entries set.
	if !reflect.DeepEqual(withoutState(before, drop, rename, set), withoutState(after, nil, nil, set)) {
		return nil, errors.New("the file written would change more than gemini-guard's [hooks.state] entries")
	}
	return out, nil
}

// withoutState is doc without the state entries codexState touches.
func withoutState(doc map[string]any, drop []string, rename map[string]string, set []codexTrust) map[string]any {
	hooks, _ := doc["hooks"].(map[string]any)
	state, _ := hooks["state"].(map[string]any)
	if state == nil {
		return doc
	}
	for _, k := range drop {
		delete(state, k)
	}
	values := map[string]any{}
	for from, to := range rename {
		if v, ok := state[from]; ok {
			values[to] = v
		}
	}
	for from := range rename {
		delete(state, from)
	}
	for to, v := range values {
		state[to] = v
	}
	for _, t := range set {
		delete(state, t.Key)
	}
	if len(state) == 0 {
		delete(hooks, "state")
	}
	if len(hooks) == 0 {
		delete(doc, "hooks")
	}
	return doc
}

// codexStateEntry is one [hooks.state] entry as Codex reads it.
type codexStateEntry struct {
	Present bool
	Enabled bool
	Hash    string
}

func codexStateOf(doc map[string]any, key string) codexStateEntry {
	hooks, _ := doc["hooks"].(map[string]any)
	state, _ := hooks["state"].(map[string]any)
	e, ok := state[key].(map[string]any)
	if !ok {
		return codexStateEntry{}
	}
	st := codexStateEntry{Present: true, Enabled: true}
	if v, ok := e["enabled"].(bool); ok {
		st.Enabled = v
	}
	st.Hash, _ = e["trusted_hash"].(string)
	return st
}

// codexCommand is `gemini-guard codex install|uninstall|status`.
func codexCommand(args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	const use = "usage: gemini-guard codex install|uninstall|status [--project] [--bin DIR]"
	if len(args) == 0 {
		fmt.Fprintln(stderr, use)
		return 2
	}
	sub := args[0]
	fset := flag.NewFlagSet("codex "+sub, flag.ContinueOnError)
	fset.SetOutput(stderr)
	project := fset.Bool("project", false, "register in ./.codex/hooks.json (this project) instead of $CODEX_HOME/hooks.json")
	binFlag := fset.String("bin", "", "directory of the gemini-guard programs (default: the running program's)")
	if err := fset.Parse(args[1:]); err != nil {
		return usageExit(err)
	}
	if fset.NArg() > 0 {
		fmt.Fprintln(stderr, use)
		return 2
	}
	files, err := codexFilesFor(*project, ".", getenv)
	if err != nil {
		fmt.Fprintln(stderr, "gemini-guard codex:", err)
		return 2
	}
	bin := *binFlag
	if bin == "" {
		bin, err = agyBinDir()
	}
	if err == nil {
		bin, err = filepath.Abs(bin)
	}
	if err != nil {
		fmt.Fprintln(stderr, "gemini-guard codex:", err)
		return 2
	}
	switch sub {
	case "install":
		return codexInstallCmd(files, bin, stdout, stderr)
	case "uninstall":
		return codexUninstallCmd(files, stdout, stderr)
	case "status":
		st := codexStatusOf(files, bin)
		for _, l := range st.Lines {
			fmt.Fprintln(stdout, l)
		}
		if st.Healthy {
			return 0
		}
		return 1
	}
	fmt.Fprintf(stderr, "gemini-guard codex: unknown command %q (want install, uninstall or status)\n", sub)
	return 2
}

// readOptional reads path; a missing file is empty.
func readOptional(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return data, err
}

// codexApply computes both files for install (bin set) or uninstall
// (bin ""), validated, without writing anything.
func codexApply(files codexFiles, bin string) (hooksOut, configOut []byte, hooksChanged, configChanged bool, err error) {
	hooksData, err := readOptional(files.Hooks)
	if err != nil {
		return nil, nil, false, false, err
	}
	configData, err := readOptional(files.Config)
	if err != nil {
		return nil, nil, false, false, err
	}
	old, err := codexTrusts(files.Hooks, hooksData)
	if err != nil {
		return nil, nil, false, false, fmt.Errorf("%s is not a hooks file Codex reads (%v): left as it is", files.Hooks, err)
	}
	hooksOut, moved, err := codexMerge(hooksData, bin)
	if err != nil {
		return nil, nil, false, false, fmt.Errorf("%s: %v", files.Hooks, err)
	}
	var set []codexTrust
	if bin != "" {
		if set, err = codexTrusts(files.Hooks, hooksOut); err != nil {
			return nil, nil, false, false, err
		}
	}
	var drop []string
	for _, t := range old {
		drop = append(drop, t.Key)
	}
	rename := map[string]string{}
	for from, to := range moved {
		// Every handler of a moved group: its index within the group
		// stays. Keys are matched by prefix in the state table.
		for _, key := range stateKeysWithPrefix(configData, files.Hooks+":"+codexLabelPart(from)+":") {
			rename[key] = files.Hooks + ":" + codexLabelPart(to) + ":" + key[len(files.Hooks+":"+codexLabelPart(from)+":"):]
		}
	}
	configOut, err = codexState(configData, drop, rename, set)
	if err != nil {
		return nil, nil, false, false, fmt.Errorf("%s: %v: left as it is", files.Config, err)
	}
	oldMembers, _ := readCodexEvents(hooksData)
	newMembers, _ := readCodexEvents(hooksOut)
	hooksChanged = !sameMembers(oldMembers.top, newMembers.top) || len(hooksData) == 0
	if bin == "" && len(old) == 0 {
		hooksChanged = false
	}
	return hooksOut, configOut, hooksChanged, !bytes.Equal(configOut, configData), nil
}

// codexLabelPart turns codexKeyPart's "<Event>:<group>" into the key's
// "<label>:<group>".
func codexLabelPart(part string) string {
	ev, group, _ := strings.Cut(part, ":")
	return codexEventLabel(ev) + ":" + group
}

// stateKeysWithPrefix are the [hooks.state] keys of config that begin
// with prefix.
func stateKeysWithPrefix(config []byte, prefix string) []string {
	var doc map[string]any
	if toml.Unmarshal(config, &doc) != nil {
		return nil
	}
	hooks, _ := doc["hooks"].(map[string]any)
	state, _ := hooks["state"].(map[string]any)
	var out []string
	for k := range state {
		if strings.HasPrefix(k, prefix) {
			out = append(out, k)
		}
	}
	return out
}

func codexInstallCmd(files codexFiles, bin string, stdout, stderr io.Writer) int {
	var missing []string
	for _, name := range codexBinaries {
		if !isExecutable(filepath.Join(bin, name+exeSuffix())) {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		fmt.Fprintf(stderr, "gemini-guard codex install: %s lacks %s (or they are not executable). Run `make build`, or install a release archive, then run this again from its bin/.\n",
			bin, strings.Join(missing, ", "))
		return 2
	}
	hooksOut, configOut, hooksChanged, configChanged, err := codexApply(files, bin)
	if err != nil {
		fmt.Fprintln(stderr, "gemini-guard codex install:", err)
		return 2
	}
	if !hooksChanged && !configChanged {
		fmt.Fprintf(stdout, "gemini-guard: already registered in %s and trusted in %s.\n", files.Hooks, files.Config)
		return 0
	}
	if hooksChanged {
		if _, err := replaceFile(files.Hooks, hooksOut); err != nil {
			fmt.Fprintf(stderr, "gemini-guard codex install: writing %s: %v\n", files.Hooks, err)
			return 2
		}
	}
	if configChanged {
		if _, err := replaceFile(files.Config, configOut); err != nil {
			fmt.Fprintf(stderr, "gemini-guard codex install: writing %s: %v (the hooks are registered but not trusted: Codex skips them)\n", files.Config, err)
			return 2
		}
	}
	fmt.Fprintf(stdout, "gemini-guard: registered its hooks in %s (programs in %s) and trusted them in %s.\n", files.Hooks, bin, files.Config)
	fmt.Fprintln(stdout, "Codex runs a hook only while its trusted_hash matches: after editing these hooks, run this again. Check with: gemini-guard codex status")
	if files.Scope == "project" {
		fmt.Fprintln(stdout, "Codex loads a project's .codex/hooks.json only when the project is trusted in Codex.")
	}
	return 0
}

func codexUninstallCmd(files codexFiles, stdout, stderr io.Writer) int {
	hooksOut, configOut, hooksChanged, configChanged, err := codexApply(files, "")
	if err != nil {
		fmt.Fprintln(stderr, "gemini-guard codex uninstall:", err)
		return 2
	}
	if !hooksChanged && !configChanged {
		fmt.Fprintf(stdout, "gemini-guard: not registered in %s; nothing to remove.\n", files.Hooks)
		return 0
	}
	if hooksChanged {
		if _, err := replaceFile(files.Hooks, hooksOut); err != nil {
			fmt.Fprintf(stderr, "gemini-guard codex uninstall: writing %s: %v\n", files.Hooks, err)
			return 2
		}
	}
	if configChanged {
		if _, err := replaceFile(files.Config, configOut); err != nil {
			fmt.Fprintf(stderr, "gemini-guard codex uninstall: writing %s: %v\n", files.Config, err)
			return 2
		}
	}
	fmt.Fprintf(stdout, "gemini-guard: removed its hooks from %s and their trust from %s (the previous files are kept as .bak).\n", files.Hooks, files.Config)
	return 0
}

// codexStatusOf says whether gemini-guard's hooks are in files.Hooks, each
// trusted with the hash Codex computes for it now, enabled, runnable, and
// up to date with bin.
func codexStatusOf(files codexFiles, bin string) hostStatus {
	var st hostStatus
	say := st.say
	data, ok := readRegistration(&st, files.Hooks, "Codex", "codex")
	if !ok {
		return st
	}
	trusts, err := codexTrusts(files.Hooks, data)
	if err != nil {
		say("%s: not a hooks file Codex reads (%v).", files.Hooks, err)
		return st
	}
	if len(trusts) == 0 {
		say("%s: gemini-guard is not registered.", files.Hooks)
		return st
	}
	st.Installed, st.Healthy = true, true
	fail := func(format string, a ...any) {
		st.Healthy = false
		say("  FAIL "+format, a...)
	}
	say("%s: gemini-guard is registered (%s scope), trust kept in %s.", files.Hooks, files.Scope, files.Config)
	var doc map[string]any
	if config, err := readOptional(files.Config); err != nil || toml.Unmarshal(config, &doc) != nil {
		fail("%s cannot be read as TOML: Codex trusts none of these hooks.", files.Config)
	}
	for _, t := range trusts {
		if exe := commandProgram(t.Command); !isExecutable(exe) {
			fail("%s is missing or not executable: this hook fails and Codex runs the call unchecked. Reinstall gemini-guard.", exe)
			continue
		}
		switch s := codexStateOf(doc, t.Key); {
		case !s.Present:
			fail("%s is not trusted (no [hooks.state] entry): Codex skips it without a word. Run gemini-guard codex install.", t.Command)
		case s.Hash != t.Hash:
			fail("%s has lost its trust (it changed since it was trusted: trusted_hash differs): Codex skips it without a word. Run gemini-guard codex install.", t.Command)
		case !s.Enabled:
			fail("%s is switched off (enabled = false in [hooks.state]): nothing is checked.", t.Command)
		default:
			say("  ok   %s", t.Command)
		}
	}
	if missing := codexMissingHooks(trusts); len(missing) > 0 {
		fail("missing hooks: %s. Run gemini-guard codex install.", strings.Join(missing, ", "))
	} else if want := codexWanted(bin); !sameCommands(trusts, want) {
		say("  note the hooks differ from what this gemini-guard (%s) would write: run gemini-guard codex install from the copy you want Codex to use.", bin)
	}
	if out := loginShellOutput(files.Shell); out != "" {
		fail("%s -lc prints %q to stdout before any command (a profile file): Codex runs every hook through it, reads that as the hook's answer, finds it invalid and runs the call unchecked. Make the profile print nothing when not interactive.", files.Shell, out)
	}
	if features, _ := doc["features"].(map[string]any); features != nil && features["hooks"] == false {
		fail("[features] hooks = false in %s: Codex runs no hook.", files.Config)
	}
	if files.Scope == "project" {
		dir := filepath.Dir(filepath.Dir(files.Hooks))
		switch codexProjectTrust(doc, dir) {
		case "trusted":
			say("  ok   the project %s is trusted in Codex", dir)
		case "untrusted":
			fail("the project %s is untrusted in Codex, which then loads none of its .codex/hooks.json.", dir)
		default:
			say("  note Codex loads a project's .codex/hooks.json only when the project is trusted ([projects.%s] trust_level = \"trusted\", or codex exec --trust).", tomlString(dir))
		}
	}
	return st
}

// codexProjectTrust is the trust_level config.toml gives dir or the
// nearest directory above it that has one ("" for none).
func codexProjectTrust(doc map[string]any, dir string) string {
	projects, _ := doc["projects"].(map[string]any)
	for d := dir; ; d = filepath.Dir(d) {
		if p, ok := projects[d].(map[string]any); ok {
			if level, ok := p["trust_level"].(string); ok {
				return level
			}
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}

// loginShellOutput is what shell -lc ':' prints to stdout (cut to 60
// bytes), as Codex starts every hook: a login shell whose profile prints
// spoils every answer. "" when it prints nothing or cannot be run.
func loginShellOutput(shell string) string {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, shell, "-lc", ":")
	out, _ := cmd.Output()
	s := strings.TrimSpace(string(out))
	if len(s) > 60 {
		s = s[:60] + "…"
	}
	return s
}

// codexWanted are the commands install writes for bin.
func codexWanted(bin string) []string {
	var out []string
	for _, s := range codexHooks() {
		out = append(out, codexHandlerFor(bin, s).Command)
	}
	return out
}

func sameCommands(trusts []codexTrust, want []string) bool {
	have := map[string]bool{}
	for _, t := range trusts {
		have[t.Command] = true
	}
	for _, w := range want {
		if !have[w] {
			return false
		}
	}
	return len(have) == len(want)
}

// codexMissingHooks names the programs of ours no registered hook runs
// (the event's arguments, whatever the path).
func codexMissingHooks(trusts []codexTrust) []string {
	var out []string
	for _, s := range codexHooks() {
		found := false
		for _, t := range trusts {
			if strings.HasSuffix(t.Command, " "+s.Args) && filepath.Base(commandProgram(t.Command)) == s.Binary+exeSuffix() {
				found = true
			}
		}
		if !found {
			out = append(out, s.Binary+" "+s.Args)
		}
	}
	return out
}

// checkCodex is doctor's report of the Codex registration in the user's
// hooks.json: absent is fine (Codex not used); registered but untrusted,
// switched off or broken fails, since Codex then runs calls unchecked.
func (d *doctorRun) checkCodex() {
	files, err := codexFilesFor(false, "", d.getenv)
	if err != nil {
		d.add("codex cli", statusSkip, err.Error(), 0)
		return
	}
	d.addHost("codex cli", codexStatusOf(files, filepath.Join(d.ext.Dir, "bin")))
}

// codexSessionStart answers Codex's SessionStart: what gemini-guard
// checks there and what it cannot, with any problem of the installation
// or the settings, as context for the model.
func codexSessionStart(in hook.SessionStartInput, getenv func(string) string) hook.Output {
	lines := []string{hook.CodexLimits}
	if bin, err := agyBinDir(); err == nil {
		var missing []string
		for _, name := range codexBinaries {
			if !isExecutable(filepath.Join(bin, name+exeSuffix())) {
				missing = append(missing, name)
			}
		}
		if len(missing) > 0 {
			lines = append(lines, fmt.Sprintf("gemini-guard is not fully installed: %s missing in %s; calls they check run unchecked. Tell the user.", strings.Join(missing, ", "), bin))
		}
	}
	s, warnings := settings.Load(getenv)
	lines = append(lines, warnings...)
	s, warnings = settings.ApplyProject(s, in.Cwd)
	lines = append(lines, warnings...)
	if s.Mode == settings.WarnOnly {
		lines = append(lines, "gemini-guard is in warn mode: it blocks nothing.")
	}
	_ = (&scanner.Client{Options: secrets.ScanOptions(s, in.Cwd)}).Start()
	return hook.Allow(strings.Join(lines, "\n"))
}

// Package toolargs reads the arguments of tools the guards cannot know in
// advance (web and search tools, MCP tools): every string in them, and the
// shell command of an MCP tool that plainly runs one. It links nothing
// heavy, so the shell guard can use it.
package toolargs

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"unicode"

	"mvdan.cc/sh/v3/syntax"

	"github.com/gemini-guard/gemini-guard/internal/lazyregexp"
)

// MCPPrefix starts the name of every MCP tool in Gemini CLI 0.61:
// mcp_<server>_<tool>.
const MCPPrefix = "mcp_"

// Built-in tools whose arguments leave the machine (a URL, a prompt with
// URLs, a search query).
const (
	WebFetch  = "web_fetch"
	WebSearch = "google_web_search"
)

// IsMCP reports whether tool is an MCP tool.
func IsMCP(tool string) bool { return strings.HasPrefix(tool, MCPPrefix) }

// Outbound reports whether tool's arguments may carry text off the machine
// to a host the guard does not know: the web tools and every MCP tool (an
// MCP tool may write files, call APIs or post messages; we cannot know
// which).
func Outbound(tool string) bool { return tool == WebFetch || tool == WebSearch || IsMCP(tool) }

// Built-in tools that keep their arguments in a file the guard does not see
// written as one.
const (
	// SaveMemory (Gemini CLI before its memory became plain files, and Qwen
	// Code) appends a fact to ~/.gemini/GEMINI.md, which every later session
	// loads into its context.
	SaveMemory = "save_memory"
	// TrackerCreateTask and TrackerUpdateTask write the task tracker's
	// files in the project's temporary directory.
	TrackerCreateTask = "tracker_create_task"
	TrackerUpdateTask = "tracker_update_task"
)

// Kept reports whether tool keeps its arguments in such a file.
func Kept(tool string) bool {
	return tool == SaveMemory || tool == TrackerCreateTask || tool == TrackerUpdateTask
}

// Antigravity CLI tools that write a file or type into a running command,
// whose arguments no capture of agy shows: every string in them is scanned
// for secrets, as the outbound tools' are.
const (
	SedFile          = "sed_file"
	NotebookEdit     = "notebook_edit"
	SendCommandInput = "send_command_input"
)

// Opaque reports whether tool is one of them.
func Opaque(tool string) bool {
	return tool == SedFile || tool == NotebookEdit || tool == SendCommandInput
}

// MaxDepth bounds how deep Strings walks nested arguments; deeper values
// are rendered as their JSON text, which still holds every string.
const MaxDepth = 64

// Text renders every string in the JSON value raw as one text to scan, a
// line `key: value` per string (the key gives keyword rules their context:
// `api_key: …`, `Authorization: Bearer …`), object keys included. It fails
// on JSON that does not parse.
func Text(raw json.RawMessage) (string, error) {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return "", err
	}
	var b strings.Builder
	walk(&b, "", v, 0)
	return b.String(), nil
}

func walk(b *strings.Builder, key string, v any, depth int) {
	if depth > MaxDepth {
		j, _ := json.Marshal(v)
		line(b, key, string(j))
		return
	}
	switch x := v.(type) {
	case string:
		line(b, key, x)
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(x)) {
			walk(b, k, x[k], depth+1)
		}
	case []any:
		for _, e := range x {
			walk(b, key, e, depth+1)
		}
	case nil, bool, float64:
		// Numbers and booleans carry no credential a rule could name.
	}
}

func line(b *strings.Builder, key, value string) {
	if key != "" {
		b.WriteString(key)
		b.WriteString(": ")
	}
	b.WriteString(value)
	b.WriteByte('\n')
}

// shellTool matches the tool part of an MCP tool name that plainly runs
// commands or starts processes, once camelCase is split into words
// (runCommand, startProcess, execute_command, spawn). Compiled on first
// use: only MCP calls need it, and compiling it at start-up cost every
// shell hook process ~80 allocations.
var shellTool = &lazyregexp.Regexp{Expr: `(?i)(^|[_\-.])(run|exec|execute|shell|bash|sh|zsh|terminal|cmd|command|commands|powershell|process|subprocess|spawn)([_\-.]|$)`}

// shellNamed matches a tool whose name says the language is the shell's:
// its `code` argument is then a command line too (an exec or run tool's
// code may be Python or JavaScript).
var shellNamed = &lazyregexp.Regexp{Expr: `(?i)(^|[_\-.])(shell|bash|sh|zsh|terminal|cmd|powershell)([_\-.]|$)`}

// commandKeys are the argument names, folded (lower case, no _ or -), that
// hold the command of such a tool: a string, or a list of words (argv) or
// of command lines (commands).
var commandKeys = []string{"command", "cmd", "script", "cmdline", "commandline", "shellcommand", "argv", "commands"}

// words splits camelCase into snake_case words: startProcess becomes
// start_Process, so the separators shellTool looks for are there.
func words(name string) string {
	var b strings.Builder
	for i := 0; i < len(name); i++ {
		c := name[i]
		if i > 0 && c >= 'A' && c <= 'Z' && (name[i-1] >= 'a' && name[i-1] <= 'z' || name[i-1] >= '0' && name[i-1] <= '9') {
			b.WriteByte('_')
		}
		b.WriteByte(c)
	}
	return b.String()
}

// foldKey is an argument name without case, '_' or '-'.
func foldKey(k string) string {
	return strings.Map(func(r rune) rune {
		if r == '_' || r == '-' {
			return -1
		}
		return unicode.ToLower(r)
	}, k)
}

// ShellCommand returns the shell command an MCP tool call runs, when the
// tool is named like a shell or a process starter (run, exec, shell, bash,
// terminal, start_process, runCommand…) and one of its top-level arguments
// named like a command (command, cmd, script, cmdline, commandLine, argv,
// commands; code for a tool named for a shell) holds a string or a list
// of strings. argv becomes one command line, each word quoted; commands,
// one command per line.
func ShellCommand(tool string, raw json.RawMessage) (string, bool) {
	if !IsMCP(tool) {
		return "", false
	}
	name := words(strings.TrimPrefix(tool, MCPPrefix))
	if !shellTool.MatchString(name) {
		return "", false
	}
	var args map[string]json.RawMessage
	if json.Unmarshal(raw, &args) != nil {
		return "", false
	}
	wants := commandKeys
	if shellNamed.MatchString(name) {
		wants = append(slices.Clip(wants), "code")
	}
	// Each argument's name folded once; in name order, so that two
	// spellings of one key (cmd_line, cmdLine) give the same answer every
	// time.
	names := slices.Sorted(maps.Keys(args))
	folded := make([]string, len(names))
	for i, k := range names {
		folded[i] = foldKey(k)
	}
	for _, want := range wants {
		for i, k := range names {
			if folded[i] != want {
				continue
			}
			v := args[k]
			var s string
			if json.Unmarshal(v, &s) == nil {
				return s, true
			}
			var list []string
			if json.Unmarshal(v, &list) == nil && len(list) > 0 {
				if want == "commands" {
					return strings.Join(list, "\n"), true
				}
				return quoteWords(list), true
			}
		}
	}
	return "", false
}

// quoteWords is argv as one bash command line.
func quoteWords(argv []string) string {
	words := make([]string, len(argv))
	for i, a := range argv {
		q, err := syntax.Quote(a, syntax.LangBash)
		if err != nil {
			q = a // a word Bash cannot quote (a NUL byte): judged as it is
		}
		words[i] = q
	}
	return strings.Join(words, " ")
}

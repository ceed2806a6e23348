package toolargs

import (
	"encoding/json"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/gemini-guard/gemini-guard/internal/lazyregexp"
)

// fileTool matches the tool part of an MCP tool name that writes, edits,
// moves or copies files (the reference filesystem server's write_file,
// edit_file, move_file, create_directory, and their camelCase cousins).
var fileTool = &lazyregexp.Regexp{Expr: `(?i)(^|[_\-.]|[a-z])(write|edit|create|save|put|append|move|copy|rename|patch|mkdir)([_\-.A-Z]|$|file|dir)`}

// pathKeys hold the file an MCP file tool writes; sourceKeys what a move
// or copy reads; contentKeys the text it writes.
var (
	pathKeys    = []string{"path", "file_path", "filePath", "file", "filename", "fileName", "destination", "dest", "target", "to", "output"}
	sourceKeys  = []string{"source", "src", "from"}
	contentKeys = []string{"content", "contents", "text", "data", "body", "new_string", "newText", "new_text"}
)

// MaxFileCommandContent is the longest content FileCommand spells out (its
// quoted form stays well under the shell guard's 1 MiB command limit); a
// longer one is written as content the guard cannot know (tee), which the
// protected-path rules judge by where it lands alone.
const MaxFileCommandContent = 64 << 10

// FileCommand returns a shell command that does to the file system what an
// MCP file tool call does, so that both guards judge it with the shell
// rules (protected configuration, .env keys, shell startup files, git
// hooks): write_file {path, content} becomes printf '%s' content > path,
// an edit {path, edits: [{newText}]} appends the new texts (what an edit
// may add), move and copy {source, destination} become mv and cp, a
// directory creation mkdir -p. Only a tool named like a file writer with
// a string path argument is read.
func FileCommand(tool string, raw json.RawMessage) (string, bool) {
	if !IsMCP(tool) || !fileTool.MatchString(strings.TrimPrefix(tool, MCPPrefix)) {
		return "", false
	}
	var args map[string]json.RawMessage
	if json.Unmarshal(raw, &args) != nil {
		return "", false
	}
	str := func(keys []string) string {
		for _, k := range keys {
			var s string
			if v, ok := args[k]; ok && json.Unmarshal(v, &s) == nil && s != "" {
				return s
			}
		}
		return ""
	}
	dst := str(pathKeys)
	if dst == "" {
		return "", false
	}
	q := func(s string) string {
		out, err := syntax.Quote(s, syntax.LangBash)
		if err != nil {
			return "'unquotable'"
		}
		return out
	}
	name := strings.ToLower(strings.TrimPrefix(tool, MCPPrefix))
	if src := str(sourceKeys); src != "" {
		verb := "mv"
		if strings.Contains(name, "copy") {
			verb = "cp -r"
		}
		return verb + " -- " + q(src) + " " + q(dst), true
	}
	if strings.Contains(name, "mkdir") || strings.Contains(name, "directory") {
		return "mkdir -p -- " + q(dst), true
	}
	content, hasContent := "", false
	if c := str(contentKeys); c != "" {
		content, hasContent = c, true
	}
	var edits []map[string]json.RawMessage
	if v, ok := args["edits"]; ok && json.Unmarshal(v, &edits) == nil {
		var b strings.Builder
		for _, e := range edits {
			for _, k := range contentKeys {
				var s string
				if json.Unmarshal(e[k], &s) == nil {
					b.WriteString(s)
					b.WriteByte('\n')
				}
			}
		}
		return fileWrite(">>", b.String(), dst, q), true
	}
	if !hasContent {
		return "tee -- " + q(dst) + " </dev/null", true // what it writes is not known
	}
	op := ">"
	if strings.Contains(name, "append") || strings.Contains(name, "edit") || strings.Contains(name, "patch") {
		op = ">>"
	}
	return fileWrite(op, content, dst, q), true
}

func fileWrite(op, content, dst string, q func(string) string) string {
	if len(content) > MaxFileCommandContent {
		// What the protected-path rules read of a long content is its
		// assignment lines (a .env's keys): keep those, drop the rest.
		content = assignmentLines(content)
	}
	if len(content) > MaxFileCommandContent {
		return "tee -- " + q(dst) + " </dev/null"
	}
	return "printf '%s' " + q(content) + " " + op + " " + q(dst)
}

// assignmentLines are the lines of text that start like a KEY=value or
// KEY: value assignment (optionally after export), each ending in a newline.
func assignmentLines(text string) string {
	var b strings.Builder
	for line := range strings.Lines(text) {
		l := strings.TrimLeft(line, " \t")
		l = strings.TrimPrefix(l, "export ")
		if i := strings.IndexAny(l, "=:"); i > 0 && i <= 128 && !strings.ContainsAny(l[:i], " \t\"'") {
			b.WriteString(strings.TrimRight(line, "\r\n"))
			b.WriteByte('\n')
		}
	}
	return b.String()
}

package configcred

import (
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/dotenv"
)

// line is one line of a text: its bytes without the line end, and where
// it starts.
type line struct {
	text  string
	start int
}

// splitLines splits text at \n (a \r before it is dropped).
func splitLines(text string) []line {
	out := make([]line, 0, strings.Count(text, "\n")+1)
	eachLine(text, func(l line) bool {
		out = append(out, l)
		return true
	})
	return out
}

// eachLine calls f with each line of text until f returns false; it
// allocates nothing (a shape test usually stops at the first lines).
func eachLine(text string, f func(line) bool) {
	for start := 0; start <= len(text); {
		end := strings.IndexByte(text[start:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += start
		}
		if !f(line{strings.TrimSuffix(text[start:end], "\r"), start}) {
			return
		}
		start = end + 1
	}
}

// lineKind is what one line of an INI-like text is.
type lineKind int

const (
	otherLine lineKind = iota
	blankLine
	sectionLine
	assignLine
	pairsLine // host k=v k=v (Ansible inventory)
	otherCode // a line of a program (a brace, package, func, const ( …)
)

// codeLine reports whether a trimmed line is a program's: a lone brace or
// parenthesis, or a line starting with a keyword that starts declarations
// in Go, C, Python, JavaScript, Java or Ruby.
func codeLine(t string) bool {
	switch t {
	case "(", ")", "{", "}", "};", "end":
		return true
	}
	for _, k := range []string{"package ", "import ", "func ", "const ", "var (", "type ", "/*", "* ", "*/", "#include", "#define",
		"def ", "class ", "return", "function ", "module.exports", "exports.", "public ", "private ", "static ", "if ", "for ", "while "} {
		if strings.HasPrefix(t, k) {
			return true
		}
	}
	return false
}

// assignment is key = value on one line, as byte offsets into the line.
type assignment struct {
	key              string
	valStart, valEnd int
}

// classify reads one line of an INI, TOML, Java properties, .npmrc,
// gitconfig, my.cnf or HCL variables file.
func classify(s string) (lineKind, assignment) {
	t := strings.TrimSpace(s)
	switch {
	case t == "" || t[0] == '#' || t[0] == ';' || t[0] == '!' || strings.HasPrefix(t, "//") && !strings.Contains(t, "="):
		return blankLine, assignment{}
	case t[0] == '[' && t[len(t)-1] == ']':
		return sectionLine, assignment{key: strings.Trim(t, "[] \t")}
	}
	a, ok := assign(s)
	switch {
	case codeLine(t) && !ok:
		return otherCode, assignment{}
	case strings.IndexByte(";{}(),", t[len(t)-1]) >= 0:
		return otherLine, assignment{} // a statement of code
	case ok:
		return assignLine, a
	}
	if pairs(t) {
		return pairsLine, assignment{}
	}
	if bareWord(t) {
		return blankLine, assignment{} // my.cnf flags (skip-name-resolve)
	}
	return otherLine, assignment{}
}

// pairs reports whether a line is a name and then only k=v words (an
// Ansible inventory's host line), not a command with flags.
func pairs(t string) bool {
	f := strings.Fields(t)
	if len(f) < 2 || !bareWord(f[0]) || strings.ContainsAny(t, "(){};") {
		return false
	}
	for _, w := range f[1:] {
		if strings.IndexByte(w, '=') <= 0 {
			return false
		}
	}
	return true
}

func bareWord(t string) bool {
	for i := 0; i < len(t); i++ {
		c := t[i]
		if !(c == '_' || c == '-' || c == '.' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}

// assign reads `key = value`, `key=value`, `key: value` (properties) or
// `export KEY=value` on a line; the key is a run without spaces (npm's
// //host/:_authToken included) or a quoted string (TOML).
func assign(s string) (assignment, bool) {
	i := len(s) - len(strings.TrimLeft(s, " \t"))
	if strings.HasPrefix(s[i:], "export ") {
		i += len("export ")
	}
	keyStart := i
	for i < len(s) && s[i] != '=' && s[i] != ' ' && s[i] != '\t' && !(s[i] == ':' && !strings.HasPrefix(s[keyStart:], "//")) {
		i++
	}
	key := s[keyStart:i]
	if key == "" || strings.ContainsAny(key, "(){}<>,;\"'") && !quotedKey(key) {
		return assignment{}, false
	}
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	if i >= len(s) || s[i] != '=' && s[i] != ':' {
		return assignment{}, false
	}
	if s[i] == '=' && i+1 < len(s) && s[i+1] == '=' {
		return assignment{}, false // ==, code
	}
	i++
	vs, ve := valueSpan(s, i)
	return assignment{key: strings.Trim(key, `"'`), valStart: vs, valEnd: ve}, true
}

func quotedKey(k string) bool {
	return len(k) >= 2 && (k[0] == '"' && k[len(k)-1] == '"' || k[0] == '\'' && k[len(k)-1] == '\'')
}

// valueSpan is the value after position i of a line: inside quotes when
// quoted, else up to a comment ( # or ; after a space) or the line's end,
// spaces trimmed.
func valueSpan(s string, i int) (int, int) {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	if i < len(s) && (s[i] == '"' || s[i] == '\'') {
		if j := strings.IndexByte(s[i+1:], s[i]); j >= 0 {
			return i + 1, i + 1 + j
		}
	}
	end := len(s)
	for j := i + 1; j < len(s); j++ {
		if (s[j] == '#' || s[j] == ';') && (s[j-1] == ' ' || s[j-1] == '\t') {
			end = j
			break
		}
	}
	for end > i && (s[end-1] == ' ' || s[end-1] == '\t') {
		end--
	}
	return i, end
}

// lineShape counts the kinds of a text's lines.
func lineShape(text string) (assigns, sections, other int) {
	code := false
	eachLine(text, func(l line) bool {
		switch k, _ := classify(l.text); k {
		case otherCode:
			code = true // a program is not a configuration file
			return false
		case assignLine, pairsLine:
			assigns++
		case sectionLine:
			sections++
		case otherLine:
			other++
		}
		return true
	})
	if code {
		return 0, 0, 1
	}
	return assigns, sections, other
}

// linesShaped: every line is blank, a comment, a [section] or an
// assignment (at most one line in ten may be something else: a
// continuation, a stray word), and one is an assignment.
func linesShaped(text string) bool {
	assigns, _, other := lineShape(text)
	return assigns > 0 && other*10 <= assigns
}

// readLines reads an INI-like text: key paths are [section] key.
func readLines(text string, out *[]Credential) {
	section := ""
	for _, l := range splitLines(text) {
		k, a := classify(l.text)
		switch k {
		case sectionLine:
			section = a.key
		case assignLine:
			if CredentialKey(a.key) && !hclReference(l.text[a.valStart:a.valEnd], l.text, a.valStart) {
				add(out, text, "ini", keyPath(section, a.key), l.start+a.valStart, l.start+a.valEnd)
			}
		case pairsLine:
			readPairs(text, l, out)
		}
	}
}

// hclReference reports whether an HCL value is an unquoted expression
// (var.x, local.y, a function call): only a quoted string is a literal.
func hclReference(v, s string, at int) bool {
	if at > 0 && (s[at-1] == '"' || s[at-1] == '\'') {
		return false
	}
	return strings.HasPrefix(v, "var.") || strings.HasPrefix(v, "local.") || strings.HasPrefix(v, "data.") || strings.HasPrefix(v, "module.")
}

func keyPath(section, key string) string {
	if section == "" {
		return key
	}
	return "[" + section + "] " + key
}

// readPairs reads the k=v words of a line (an Ansible inventory's host
// line: web1 ansible_host=10.0.0.5 ansible_password=…).
func readPairs(text string, l line, out *[]Credential) {
	s := l.text
	for i := 0; i < len(s); {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
		j := i
		for j < len(s) && s[j] != ' ' && s[j] != '\t' {
			j++
		}
		word := s[i:j]
		if eq := strings.IndexByte(word, '='); eq > 0 && i > 0 {
			key := word[:eq]
			vs, ve := i+eq+1, j
			if vs < ve && (s[vs] == '"' || s[vs] == '\'') && ve-vs >= 2 && s[ve-1] == s[vs] {
				vs, ve = vs+1, ve-1
			}
			if CredentialKey(key) && !strings.ContainsAny(s[vs:ve], "\"'()") {
				add(out, text, "ini", key, l.start+vs, l.start+ve)
			}
		}
		i = j
	}
}

// envShaped: a .env text (KEY=value lines, no sections).
func envShaped(text string) bool {
	assigns, sections, other := lineShape(text)
	return assigns > 0 && sections == 0 && other*10 <= assigns
}

// readEnv reads a .env text with the project's dotenv reader (the host's
// own grammar) and places each credential's value on the last line that
// assigns its key.
func readEnv(text string, out *[]Credential) {
	lines := splitLines(text)
	last := map[string]int{}
	for i, l := range lines {
		if k, a := classify(l.text); k == assignLine {
			last[a.key] = i
		}
	}
	for _, e := range dotenv.Parse(text) {
		i, ok := last[e.Key]
		if !ok || !CredentialKey(e.Key) || e.Value == "" {
			continue
		}
		_, a := classify(lines[i].text)
		// dotenv's value is the line's value, or its start (dotenv ends an
		// unquoted value at #); anything else is not placed.
		if strings.HasPrefix(lines[i].text[a.valStart:a.valEnd], e.Value) {
			start := lines[i].start + a.valStart
			add(out, text, "env", e.Key, start, start+len(e.Value))
		}
	}
}

// netrcShaped: the first word is machine or default (a .netrc).
func netrcShaped(text string) bool {
	f := strings.Fields(firstContent(text))
	return len(f) > 0 && (f[0] == "machine" || f[0] == "default")
}

// firstContent is text's first line that is not blank or a comment.
func firstContent(text string) string {
	first := ""
	eachLine(text, func(l line) bool {
		if t := strings.TrimSpace(l.text); t != "" && t[0] != '#' {
			first = t
			return false
		}
		return true
	})
	return first
}

// readNetrc reads .netrc tokens: the word after password (and after
// account) is a credential.
func readNetrc(text string, out *[]Credential) {
	machine := ""
	prev := ""
	for i := 0; i < len(text); {
		for i < len(text) && isSpace(text[i]) {
			i++
		}
		j := i
		for j < len(text) && !isSpace(text[j]) {
			j++
		}
		if i == j {
			break
		}
		word := text[i:j]
		switch prev {
		case "machine":
			machine = word
		case "password", "account":
			add(out, text, "netrc", "machine "+machine+" "+prev, i, j)
		}
		prev = word
		i = j
	}
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// pgpassShaped: every content line is five colon-separated fields whose
// second is a port number or *.
func pgpassShaped(text string) bool {
	n, ok := 0, true
	eachLine(text, func(l line) bool {
		t := strings.TrimSpace(l.text)
		if t == "" || t[0] == '#' {
			return true
		}
		if _, ok = pgpassPassword(l.text); !ok {
			return false
		}
		n++
		return true
	})
	return ok && n > 0
}

// pgpassPassword returns where the password (the rest after the fourth
// unescaped colon) starts on a .pgpass line.
func pgpassPassword(s string) (int, bool) {
	fields, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case ' ', '\t':
			if fields < 4 {
				return 0, false // host, port, database and user have no spaces
			}
		case ':':
			if fields == 4 {
				return 0, false // a colon in the password is escaped
			}
			if fields == 0 && !pgHost(s[start:i]) || fields == 1 && !port(s[start:i]) || i == start {
				return 0, false
			}
			fields++
			start = i + 1
		}
	}
	if fields != 4 || start >= len(s) || s[start] == ' ' {
		return 0, false
	}
	return start, true
}

// pgHost: * or a name or address (holding a letter or a dot).
func pgHost(s string) bool {
	if s == "*" {
		return true
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !isAlnum(c) && c != '.' && c != '-' && c != '_' {
			return false
		}
	}
	return strings.ContainsAny(s, ".abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
}

func port(s string) bool {
	if s == "*" {
		return true
	}
	if s == "" || len(s) > 5 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func readPgpass(text string, out *[]Credential) {
	for _, l := range splitLines(text) {
		if p, ok := pgpassPassword(l.text); ok {
			add(out, text, "pgpass", "password (fifth field)", l.start+p, l.start+len(strings.TrimRight(l.text, " \t")))
		}
	}
}

// phpShaped: the text calls define(.
func phpShaped(text string) bool { return strings.Contains(text, "define(") }

// readPHP reads PHP's define('NAME', 'value') with a credential-named NAME.
func readPHP(text string, out *[]Credential) {
	for from := 0; ; {
		i := strings.Index(text[from:], "define(")
		if i < 0 {
			return
		}
		at := from + i + len("define(")
		from = at
		ns, ne, ok := quoted(text, at)
		if !ok {
			continue
		}
		j := ne + 1
		for j < len(text) && (text[j] == ' ' || text[j] == '\t') {
			j++
		}
		if j >= len(text) || text[j] != ',' {
			continue
		}
		vs, ve, ok := quoted(text, j+1)
		if ok && CredentialKey(text[ns:ne]) {
			add(out, text, "php", "define "+text[ns:ne], vs, ve)
		}
	}
}

// maxQuoted is the longest string quoted reads.
const maxQuoted = 4096

// quoted reads a '…' or "…" string after optional spaces at i: the range
// inside the quotes (a string with a backslash escape is not read).
func quoted(text string, i int) (int, int, bool) {
	for i < len(text) && (text[i] == ' ' || text[i] == '\t') {
		i++
	}
	if i >= len(text) || text[i] != '\'' && text[i] != '"' {
		return 0, 0, false
	}
	q := text[i]
	j := strings.IndexByte(text[i+1:min(len(text), i+1+maxQuoted)], q)
	if j < 0 || strings.ContainsAny(text[i+1:i+1+j], "\\\n") {
		return 0, 0, false
	}
	return i + 1, i + 1 + j, true
}

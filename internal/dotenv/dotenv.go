// Package dotenv reads a .env file exactly as the hosts read it: a port of
// the `parse` function of the npm module dotenv (lib/main.js, 16.x-17.x),
// which Gemini CLI bundles and uses for every .env it loads into its own
// environment and every hook's (its workspace .env, .gemini/.env, ~/.env,
// ~/.gemini/.env, an extension's settings .env), and Qwen Code likewise.
//
// The guard must read the same keys the host reads: a key the guard does
// not see (a line the host splits at a lone carriage return, a key behind
// a no-break space or a byte-order mark that JavaScript's \s skips) is a
// key it lets through. So this is not a dotenv dialect of our own but the
// module's regular expression, translated to Go's syntax with JavaScript's
// character classes and anchors spelled out, driven as JavaScript's
// RegExp.prototype.exec drives it. The differential test in this package
// runs the module's own code, taken from the installed CLI's bundle, over
// a generated corpus and compares every key and value.
package dotenv

import (
	"strings"
	"unicode/utf8"
)

// The module's expression (dotenv lib/main.js):
//
//	/(?:^|^)\s*(?:export\s+)?([\w.-]+)(?:\s*=\s*?|:\s+?)(\s*'(?:\\'|[^'])*'|\s*"(?:\\"|[^"])*"|\s*`(?:\\`|[^`])*`|[^#\r\n]+)?\s*(?:#.*)?(?:$|$)/mg
//
// is matched here by hand (scan), in the order JavaScript's backtracking
// tries its paths, so that the match it picks is the one the module gets:
// \s is JavaScript's (WhiteSpace and LineTerminator, Unicode's spaces
// included), . any character but a line terminator, ^ and $ (multiline)
// a line's start and end, \w ASCII. A compiled regular expression did
// the same (the tests keep it as an oracle: TestScanIsTheExpression), but
// compiling it cost each process that reads a .env ~40 µs.

// Entry is one key the file assigns and the value the host gives it.
type Entry struct {
	Key, Value string
}

// Parse returns the keys a .env file's bytes assign, as the module's parse
// returns them: each key once, at its first assignment, with the value of
// its last. Bytes that are not UTF-8 are decoded as node's
// readFileSync(path, "utf-8") decodes them (each maximal invalid
// subsequence one U+FFFD).
func Parse(src string) []Entry {
	text := nodeUTF8(src)
	// lines.replace(/\r\n?/mg, "\n")
	text = strings.ReplaceAll(text, "\r\n", "\n")
	text = strings.ReplaceAll(text, "\r", "\n")

	var out []Entry
	at := map[string]int{}
	for last := 0; ; {
		m, ok := nextMatch(scan, text, last)
		if !ok {
			return out
		}
		key := text[m.keyStart:m.keyEnd]
		value := ""
		if m.valStart >= 0 {
			value = text[m.valStart:m.valEnd]
		}
		value = trimJS(value)
		quote := byte(0)
		if value != "" {
			quote = value[0]
		}
		value = unquote(value)
		if quote == '"' {
			value = strings.ReplaceAll(value, `\n`, "\n")
			value = strings.ReplaceAll(value, `\r`, "\r")
		}
		last = m.end
		// obj[key] = value: assigning a string to __proto__ sets nothing.
		if key == "__proto__" {
			continue
		}
		if k, ok := at[key]; ok {
			out[k].Value = value
			continue
		}
		at[key] = len(out)
		out = append(out, Entry{Key: key, Value: value})
	}
}

// Map is Parse as a map from key to value.
func Map(src string) map[string]string {
	entries := Parse(src)
	m := make(map[string]string, len(entries))
	for _, e := range entries {
		m[e.Key] = e.Value
	}
	return m
}

// match is one match of the expression: the key, the value (valStart -1
// when the optional group did not match) and where it ends (lastIndex:
// before the line terminator its $ looks at), all indices into the text.
type match struct {
	keyStart, keyEnd, valStart, valEnd, end int
}

// nextMatch is exec's search from lastIndex: the first line start at or
// after from where the expression matches (try). A failed try whose
// leading \s* could have reached later line starts has tried those too
// (the rest of the expression is the same from any of them), so the
// search goes on after the blank run: a file of blank lines ends in one
// pass, not in one pass per line.
func nextMatch(try func(string, int) (match, bool), text string, from int) (match, bool) {
	for i := from; i <= len(text); {
		if !lineStart(text, i) {
			i = nextLineStart(text, i)
			continue
		}
		if m, ok := try(text, i); ok {
			return m, true
		}
		if i == len(text) {
			break
		}
		i = nextLineStart(text, i+spaceRun(text[i:]))
	}
	return match{}, false
}

// scan tries the expression at i: \s* (greedy; a key never starts with
// white space, so all of it), then export and \s+ if they lead to a
// match, else the key right there.
func scan(text string, i int) (match, bool) {
	p := i + spaceRun(text[i:])
	if strings.HasPrefix(text[p:], "export") {
		if n := spaceRun(text[p+6:]); n > 0 {
			if m, ok := afterExport(text, p+6+n); ok {
				return m, true
			}
		}
	}
	return afterExport(text, p)
}

// afterExport matches ([\w.-]+)(?:\s*=\s*?|:\s+?) at k and the rest. The
// key is all the key characters there (a shorter one would leave one
// before the separator), the \s* before = all the white space (= is
// none), and only one of the two separators can follow a key.
func afterExport(text string, k int) (match, bool) {
	e := k
	for e < len(text) && keyByte(text[e]) {
		e++
	}
	if e == k {
		return match{}, false
	}
	if w := e + spaceRun(text[e:]); w < len(text) && text[w] == '=' {
		return lazyValue(text, k, e, w+1, 0)
	}
	if e < len(text) && text[e] == ':' {
		return lazyValue(text, k, e, e+1, 1)
	}
	return match{}, false
}

func keyByte(c byte) bool {
	return c == '_' || c == '.' || c == '-' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// lazyValue is the separator's lazy white space (\s*? from none, \s+?
// from one) and what follows: the value and the end tried after the
// fewest white-space characters first.
func lazyValue(text string, keyStart, keyEnd, at, least int) (match, bool) {
	v := at
	for n := 0; ; n++ {
		if n >= least {
			if m, ok := valueAndEnd(text, v); ok {
				m.keyStart, m.keyEnd = keyStart, keyEnd
				return m, true
			}
		}
		if v >= len(text) {
			return match{}, false
		}
		r, size := utf8.DecodeRuneInString(text[v:])
		if !jsWhite(r) {
			return match{}, false
		}
		v += size
	}
}

// valueAndEnd matches the optional value group at v, its alternatives in
// order (the three quoted forms, then [^#\r\n]+), then the end; or no
// value and the end.
func valueAndEnd(text string, v int) (match, bool) {
	u := v + spaceRun(text[v:]) // a quote never is white space: all of it
	if u < len(text) && (text[u] == '\'' || text[u] == '"' || text[u] == '`') {
		if m, ok := quoted(text, v, u); ok {
			return m, true
		}
	}
	l := v
	for l < len(text) && text[l] != '#' && text[l] != '\r' && text[l] != '\n' {
		l++
	}
	if l > v {
		// The longest run always ends: what stops it is a #, a line
		// break or the end of the text.
		if end, ok := lineEndAt(text, l); ok {
			return match{valStart: v, valEnd: l, end: end}, true
		}
	}
	if end, ok := lineEndAt(text, v); ok {
		return match{valStart: -1, end: end}, true
	}
	return match{}, false
}

// quoted matches \s*Q(?:\\Q|[^Q])*Q from v, the opening quote Q at u,
// and the end after it. Inside, an escaped quote (one after a backslash)
// may be passed or close; an unescaped one must close. Backtracking tries
// the farthest close first, the first unescaped quote, then each escaped
// one before it, the last first.
func quoted(text string, v, u int) (match, bool) {
	q := text[u]
	var escaped []int
	closing := -1
	for p := u + 1; p < len(text); p++ {
		if text[p] != q {
			continue
		}
		if text[p-1] == '\\' && p-1 > u {
			escaped = append(escaped, p)
			continue
		}
		closing = p
		break
	}
	if closing >= 0 {
		if end, ok := lineEndAt(text, closing+1); ok {
			return match{valStart: v, valEnd: closing + 1, end: end}, true
		}
	}
	for i := len(escaped) - 1; i >= 0; i-- {
		if end, ok := lineEndAt(text, escaped[i]+1); ok {
			return match{valStart: v, valEnd: escaped[i] + 1, end: end}, true
		}
	}
	return match{}, false
}

// lineEndAt matches \s*(?:#.*)?(?:$|$) at p and returns where the match
// ends. \s* is greedy: all the white space, then a comment to the line's
// end, or the line's end itself; else the white space given back to the
// last line terminator inside it (a line end $ sees).
func lineEndAt(text string, p int) (int, bool) {
	w := p + spaceRun(text[p:])
	if w < len(text) && text[w] == '#' {
		e := w
		for e < len(text) {
			r, size := utf8.DecodeRuneInString(text[e:])
			if lineTerminator(r) {
				break
			}
			e += size
		}
		return e, true
	}
	for x := w; ; {
		if x == len(text) {
			return x, true
		}
		if r, _ := utf8.DecodeRuneInString(text[x:]); lineTerminator(r) {
			return x, true
		}
		if x <= p {
			return 0, false
		}
		_, size := utf8.DecodeLastRuneInString(text[:x])
		x -= size
	}
}

// lineStart says whether i is where JavaScript's multiline ^ matches: the
// start of the text or just after a line terminator.
func lineStart(text string, i int) bool {
	if i == 0 {
		return true
	}
	r, _ := utf8.DecodeLastRuneInString(text[:i])
	return lineTerminator(r)
}

// nextLineStart is the first line start after i (len(text)+1 when none).
func nextLineStart(text string, i int) int {
	for i < len(text) {
		r, size := utf8.DecodeRuneInString(text[i:])
		i += size
		if lineTerminator(r) {
			return i
		}
	}
	return len(text) + 1
}

// spaceRun is the length of the run of JavaScript white space and line
// terminators that text starts with.
func spaceRun(text string) int {
	n := 0
	for n < len(text) {
		r, size := utf8.DecodeRuneInString(text[n:])
		if !jsWhite(r) {
			break
		}
		n += size
	}
	return n
}

func lineTerminator(r rune) bool {
	return r == '\n' || r == '\r' || r == '\u2028' || r == '\u2029'
}

// jsWhite is JavaScript's \s and String.prototype.trim's set: WhiteSpace
// and LineTerminator (ECMA-262 12.2, 12.3), Unicode's Space_Separator
// included.
func jsWhite(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', '\u00A0', '\u1680', '\u2028', '\u2029', '\u202F', '\u205F', '\u3000', '\uFEFF':
		return true
	}
	return r >= '\u2000' && r <= '\u200A'
}

// trimJS is String.prototype.trim.
func trimJS(v string) string {
	return strings.TrimFunc(v, jsWhite)
}

// unquote is value.replace(/^(['"`])([\s\S]*)\1$/mg, "$2"): at each line
// start, from the left, a quote and the last same quote that ends a line
// (greedy [\s\S]* tries the longest first) are removed, and the search
// goes on after that quote.
func unquote(v string) string {
	if !strings.ContainsAny(v, "'\"`") {
		return v
	}
	var b strings.Builder
	done := 0                     // v[:done] is written to b
	closing := [3]int{-2, -2, -2} // each quote's lastClosing, once known
	for i := 0; i < len(v); i = nextLineStart(v, i) {
		q := strings.IndexByte("'\"`", v[i])
		if q < 0 {
			continue
		}
		if closing[q] == -2 {
			closing[q] = lastClosing(v, v[i])
		}
		k := closing[q]
		if k <= i {
			continue
		}
		b.WriteString(v[done:i])
		b.WriteString(v[i+1 : k])
		done = k + 1
		// The search goes on from k+1, whose next line start is after k.
		i = k
	}
	if done == 0 {
		return v
	}
	b.WriteString(v[done:])
	return b.String()
}

// lastClosing is the last index k holding the quote q at a line's end (the
// end of v or a line terminator after it), or -1. The greedy match from
// any opening quote before k closes there.
func lastClosing(v string, q byte) int {
	for k := len(v) - 1; k >= 0; k-- {
		if v[k] != q {
			continue
		}
		if k+1 == len(v) {
			return k
		}
		if r, _ := utf8.DecodeRuneInString(v[k+1:]); lineTerminator(r) {
			return k
		}
	}
	return -1
}

// nodeUTF8 is src as node's Buffer.toString("utf-8") decodes it (the
// WHATWG UTF-8 decoder): valid text unchanged, each maximal subpart of an
// invalid sequence replaced by one U+FFFD. Go's own replacement counts
// differently (one per byte, or one per run), and a value the host reads
// is compared byte for byte.
func nodeUTF8(src string) string {
	if utf8.ValidString(src) {
		return src
	}
	var b strings.Builder
	b.Grow(len(src) + 8)
	for i := 0; i < len(src); {
		r, size := utf8.DecodeRuneInString(src[i:])
		if r != utf8.RuneError || size > 1 {
			b.WriteString(src[i : i+size])
			i += size
			continue
		}
		b.WriteRune(utf8.RuneError)
		i += maximalSubpart(src[i:])
	}
	return b.String()
}

// maximalSubpart is the length of the invalid sequence src starts with as
// the WHATWG decoder consumes it: a lead byte and the continuation bytes
// that could still have begun a valid character (at least 1).
func maximalSubpart(src string) int {
	c := src[0]
	var need int
	lo, hi := byte(0x80), byte(0xBF)
	switch {
	case c >= 0xC2 && c <= 0xDF:
		need = 1
	case c >= 0xE0 && c <= 0xEF:
		need = 2
		if c == 0xE0 {
			lo = 0xA0
		} else if c == 0xED {
			hi = 0x9F
		}
	case c >= 0xF0 && c <= 0xF4:
		need = 3
		if c == 0xF0 {
			lo = 0x90
		} else if c == 0xF4 {
			hi = 0x8F
		}
	default:
		return 1
	}
	n := 1
	for ; n <= need && n < len(src); n++ {
		if src[n] < lo || src[n] > hi {
			break
		}
		lo, hi = 0x80, 0xBF
	}
	return n
}

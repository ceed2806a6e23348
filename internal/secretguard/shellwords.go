package secretguard

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gemini-guard/gemini-guard/internal/shell"
)

// maxResolved bounds the text resolvedText adds to a command's scan.
const maxResolved = 1 << 20

// resolvedText is what a shell command's words become when it runs, where
// that differs from its text: a secret assembled at run time (quotes inside
// the token, `$'\x67hp_…'`, `a=ghp_; b=…; echo $a$b`, printf escapes, a
// tr or sed over literal text) is not in the raw command, but is in the
// words bash resolves. Each command whose resolved words are not all in
// the raw text gives one line: its words joined by spaces, so that a
// keyword and its value stay on one line. Unknown parts ($X, $(...)) are
// blanks. Output bounded by maxResolved.
func resolvedText(res *shell.Result, command string) string {
	var b strings.Builder
	add := func(words []string) {
		fresh := false
		for _, w := range words {
			if w != "" && !strings.Contains(command, w) {
				fresh = true
				break
			}
		}
		if fresh && b.Len() < maxResolved {
			b.WriteString(strings.Join(words, " "))
			b.WriteByte('\n')
		}
	}
	for _, ex := range res.Execs {
		words := make([]string, 0, len(ex.Args)+len(ex.Env)+len(ex.Redirs))
		for _, a := range ex.Args {
			words = append(words, known(res, a))
		}
		for k, v := range ex.Env {
			words = append(words, k+"="+known(res, v))
		}
		add(words)
		if in := ex.Stdin; in != nil && in.HasText {
			add([]string{known(res, in.Text)})
		}
		if len(ex.CodeLiterals) > 0 {
			add(ex.CodeLiterals)
		}
		if out, ok := printed(res, ex); ok {
			add([]string{out})
		}
		if out, ok := transformed(res, ex); ok {
			add([]string{out})
		}
	}
	return b.String()
}

// known is s with computed values filled in and unknown parts blanked.
func known(res *shell.Result, s string) string {
	if shell.Known(s) {
		return s
	}
	s, _ = res.Substitute(s)
	var b strings.Builder
	for _, p := range res.Parts(s) {
		if p.Unknown != nil {
			b.WriteByte(' ')
			continue
		}
		b.WriteString(p.Text)
	}
	return b.String()
}

// printed is what echo -e or printf prints when its words are known: the
// backslash escapes decoded (printf's format with %s and %b filled in
// order).
func printed(res *shell.Result, ex *shell.Exec) (string, bool) {
	args := ex.Args
	if len(args) < 2 {
		return "", false
	}
	switch ex.Name {
	case "echo":
		if !strings.HasPrefix(args[1], "-") || !strings.Contains(args[1], "e") {
			return "", false
		}
		var parts []string
		for _, a := range args[2:] {
			parts = append(parts, unescape(known(res, a), false))
		}
		return strings.Join(parts, " "), true
	case "printf":
		i := 1
		if args[i] == "-v" && len(args) > 3 {
			i += 2
		}
		if args[i] == "--" {
			i++
		}
		if i >= len(args) {
			return "", false
		}
		format := unescape(known(res, args[i]), true)
		rest := args[i+1:]
		var b strings.Builder
		for j := 0; j < len(format); j++ {
			c := format[j]
			if c != '%' || j+1 >= len(format) {
				b.WriteByte(c)
				continue
			}
			j++
			switch format[j] {
			case '%':
				b.WriteByte('%')
			case 's', 'b', 'd', 'c', 'q':
				if len(rest) > 0 {
					v := known(res, rest[0])
					if format[j] == 'b' {
						v = unescape(v, false)
					}
					b.WriteString(v)
					rest = rest[1:]
				}
			default:
				b.WriteByte('%')
				b.WriteByte(format[j])
			}
		}
		return b.String(), true
	}
	return "", false
}

// unescape decodes backslash escapes as printf's format (octal \NNN) or
// echo -e and %b (octal \0NNN) do: \xHH, \uHHHH, \UHHHHHHHH and the usual
// letters.
func unescape(s string, format bool) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch c := s[i]; c {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'a', 'b', 'f', 'v', 'e', 'c':
			// control characters: nothing a secret is made of
		case '\\':
			b.WriteByte('\\')
		case 'x', 'u', 'U':
			n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[c]
			j := i + 1
			for j < len(s) && j < i+1+n && strings.IndexByte("0123456789abcdefABCDEF", s[j]) >= 0 {
				j++
			}
			v, err := strconv.ParseUint(s[i+1:j], 16, 32)
			if err != nil || j == i+1 {
				b.WriteByte('\\')
				b.WriteByte(c)
				continue
			}
			if c == 'x' {
				b.WriteByte(byte(v))
			} else if utf8.ValidRune(rune(v)) {
				b.WriteRune(rune(v))
			}
			i = j - 1
		case '0', '1', '2', '3', '4', '5', '6', '7':
			start := i
			if !format && c == '0' {
				start = i + 1
			}
			j := start
			for j < len(s) && j < start+3 && s[j] >= '0' && s[j] <= '7' {
				j++
			}
			v, _ := strconv.ParseUint(s[start:j], 8, 16)
			if j == start {
				v = 0
			}
			b.WriteByte(byte(v))
			i = j - 1
		default:
			b.WriteByte('\\')
			b.WriteByte(c)
		}
	}
	return b.String()
}

// transformed is what tr, rev or a simple sed s/// make of the known text
// piped into them (echo/printf output, a here-string or heredoc).
func transformed(res *shell.Result, ex *shell.Exec) (string, bool) {
	in := ex.Stdin
	if in == nil {
		return "", false
	}
	var text string
	switch {
	case in.HasText:
		text = known(res, in.Text)
	case len(in.Producers) == 1:
		p := in.Producers[0]
		if out, ok := printed(res, p); ok {
			text = out
		} else if p.Name == "echo" {
			var words []string
			for _, a := range p.Args[1:] {
				words = append(words, known(res, a))
			}
			text = strings.Join(words, " ")
		} else if out, ok := transformed(res, p); ok {
			text = out
		} else {
			return "", false
		}
	default:
		return "", false
	}
	args := ex.Args[1:]
	switch ex.Name {
	case "rev":
		r := []rune(text)
		for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
			r[i], r[j] = r[j], r[i]
		}
		return string(r), true
	case "tr":
		if len(args) == 2 && !strings.HasPrefix(args[0], "-") {
			return trMap(text, trSet(known(res, args[0])), trSet(known(res, args[1]))), true
		}
		if len(args) == 2 && args[0] == "-d" {
			del := trSet(known(res, args[1]))
			return strings.Map(func(r rune) rune {
				if strings.ContainsRune(string(del), r) {
					return -1
				}
				return r
			}, text), true
		}
	case "sed":
		if len(args) == 1 || len(args) == 2 && args[0] == "-e" {
			return sedSubst(text, known(res, args[len(args)-1]))
		}
	}
	return "", false
}

// trSet expands a tr set: ranges (a-z) and backslash escapes.
func trSet(s string) []rune {
	r := []rune(unescape(s, true))
	var out []rune
	for i := 0; i < len(r); i++ {
		if i+2 < len(r) && r[i+1] == '-' && r[i] <= r[i+2] && r[i+2]-r[i] < 1<<16 {
			for c := r[i]; c <= r[i+2]; c++ {
				out = append(out, c)
			}
			i += 2
			continue
		}
		out = append(out, r[i])
	}
	return out
}

// trMap maps each rune of text in from to the rune at the same place in
// to (its last rune when to is shorter), as tr does.
func trMap(text string, from, to []rune) string {
	if len(to) == 0 {
		return text
	}
	m := map[rune]rune{}
	for i, c := range from {
		m[c] = to[min(i, len(to)-1)]
	}
	return strings.Map(func(r rune) rune {
		if v, ok := m[r]; ok {
			return v
		}
		return r
	}, text)
}

// sedSubst applies one literal s/old/new/[g] command.
func sedSubst(text, script string) (string, bool) {
	if len(script) < 4 || script[0] != 's' {
		return "", false
	}
	parts := strings.Split(script[2:], script[1:2])
	if len(parts) != 3 || strings.ContainsAny(parts[0], `\.*[]^$`) || parts[0] == "" {
		return "", false
	}
	if strings.Contains(parts[2], "g") {
		return strings.ReplaceAll(text, parts[0], parts[1]), true
	}
	return strings.Replace(text, parts[0], parts[1], 1), true
}

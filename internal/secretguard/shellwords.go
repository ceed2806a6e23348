package secretguard

import (
	"strings"

	"mvdan.cc/sh/v3/expand"

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

// printed is what echo or printf prints with its known words (unknown
// parts blanked), escapes decoded and printf's format applied.
func printed(res *shell.Result, ex *shell.Exec) (string, bool) {
	if len(ex.Args) < 2 || ex.Name != "echo" && ex.Name != "printf" {
		return "", false
	}
	args := make([]string, 0, len(ex.Args))
	args = append(args, ex.Name)
	for _, a := range ex.Args[1:] {
		args = append(args, known(res, a))
	}
	return shell.EchoOutput(args)
}

// unescape decodes backslash escapes as echo -e does.
func unescape(s string) string {
	if out, _, err := expand.Format(nil, s, nil); err == nil {
		return out
	}
	return s
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
	r := []rune(unescape(s))
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

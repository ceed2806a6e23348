package secretguard

import (
	"strings"

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
	args := make([]string, 0, len(ex.Args))
	for _, a := range ex.Args[1:] {
		args = append(args, known(res, a))
	}
	return shell.Transform(ex.Name, args, text)
}

package shell

import (
	"strings"

	"mvdan.cc/sh/v3/expand"
)

// Transform is what the text filter name (rev, tr, a literal sed s///)
// with the known arguments args makes of text; ok is false for any other
// program or arguments it does not model. The shell analysis uses it to
// know the code `echo '~ fr- mr' | rev | sh` runs, the secrets guard to
// see a token assembled the same way.
func Transform(name string, args []string, text string) (string, bool) {
	switch name {
	case "rev":
		if len(args) > 0 {
			return "", false // files, not standard input
		}
		lines := strings.Split(text, "\n")
		for i, l := range lines {
			r := []rune(l)
			for a, b := 0, len(r)-1; a < b; a, b = a+1, b-1 {
				r[a], r[b] = r[b], r[a]
			}
			lines[i] = string(r)
		}
		return strings.Join(lines, "\n"), true
	case "tr":
		if len(args) == 2 && !strings.HasPrefix(args[0], "-") {
			return trMap(text, trSet(args[0]), trSet(args[1])), true
		}
		if len(args) == 2 && args[0] == "-d" {
			del := trSet(args[1])
			return strings.Map(func(r rune) rune {
				if strings.ContainsRune(string(del), r) {
					return -1
				}
				return r
			}, text), true
		}
	case "sed":
		if len(args) == 1 || len(args) == 2 && args[0] == "-e" {
			return sedSubst(text, args[len(args)-1])
		}
	}
	return "", false
}

// trSet expands a tr set: ranges (a-z) and backslash escapes.
func trSet(s string) []rune {
	if out, _, err := expand.Format(nil, s, nil); err == nil {
		s = out
	}
	r := []rune(s)
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

// sedSubst applies one literal s/old/new/[g] command (read by SedScript).
func sedSubst(text, script string) (string, bool) {
	cmds, complete := sedScript(script)
	if !complete || len(cmds) != 1 {
		return "", false
	}
	c := cmds[0]
	if c.Name != 's' || c.Addr != "" || c.Pattern == "" || strings.ContainsAny(c.Pattern, `\.*[]^$`) || strings.Trim(c.Flags, "g") != "" {
		return "", false
	}
	if strings.Contains(c.Flags, "g") {
		return strings.ReplaceAll(text, c.Pattern, c.Replacement), true
	}
	return strings.Replace(text, c.Pattern, c.Replacement, 1), true
}

// ProducedText is what the command p, piped into another, writes when the
// analysis can know it (echo, printf, cat of a heredoc, rev/tr/sed of
// those).
func ProducedText(p *Exec) (string, bool) { return producedText(p, maxFilters) }

// maxFilters bounds the chain of filters producedText follows upstream.
const maxFilters = 4

// producedText is what a command piped into another writes, when the
// analysis can know it: echo and printf, cat of a heredoc or here-string,
// and rev, tr or sed over such text (at most depth filters deep).
func producedText(p *Exec, depth int) (string, bool) {
	if out, ok := echoOutput(p.Args); ok {
		return out, p.Stdin == nil || len(p.Stdin.Producers) == 0
	}
	if depth <= 0 || p.Stdin == nil {
		return "", false
	}
	var in string
	switch {
	case p.Stdin.HasText && p.Stdin.File == "":
		in = p.Stdin.Text
	case len(p.Stdin.Producers) == 1 && p.Stdin.File == "":
		out, ok := producedText(p.Stdin.Producers[0], depth-1)
		if !ok {
			return "", false
		}
		in = out
	default:
		return "", false
	}
	if p.Name == "cat" {
		for _, a := range p.Args[1:] {
			if a != "-" {
				return "", false
			}
		}
		return in, true
	}
	for _, a := range p.Args[1:] {
		if !Known(a) {
			return "", false
		}
	}
	return Transform(p.Name, p.Args[1:], in)
}

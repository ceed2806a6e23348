package shell

import (
	"regexp"
	"slices"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/lazyregexp"
)

var placeholderRe = &lazyregexp.Regexp{Expr: `\{(\d+)?(\.|/|//|/\.|#|%)?\}`}

// FindStart splits find's arguments (without "find") into its starting
// points and its expression.
func FindStart(args []string) (starts, expr []string) {
	i := 0
	for i < len(args) {
		a := args[i]
		switch {
		case a == "-H" || a == "-L" || a == "-P" || a == "-E" || a == "-X" || a == "-s" || a == "-x" || strings.HasPrefix(a, "-O"):
			i++
		case a == "-D" && i+1 < len(args):
			i += 2
		case a == "--":
			i++
		default:
			goto paths
		}
	}
paths:
	for i < len(args) {
		a := args[i]
		if strings.HasPrefix(a, "-") && len(a) > 1 || a == "(" || a == "!" || a == "," || a == ")" {
			break
		}
		starts = append(starts, a)
		i++
	}
	return starts, args[i:]
}

// findTakesValue lists find primaries whose next word is their value (not
// a primary), so that `-name -delete` is not read as -delete.
var findTakesValue = []string{
	"-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename",
	"-regex", "-iregex", "-lname", "-ilname", "-type", "-xtype",
	"-user", "-group", "-uid", "-gid", "-perm", "-size", "-newer",
	"-anewer", "-cnewer", "-mtime", "-atime", "-ctime", "-mmin", "-amin",
	"-cmin", "-inum", "-samefile", "-links", "-maxdepth", "-mindepth",
	"-fprint", "-fprint0", "-fls", "-fstype", "-used", "-regextype",
	"-context", "-newerXY", "-printf", "-files0-from",
}

// FindExpr walks find's expression: primaries with their values, and the
// command of each -exec/-execdir/-ok/-okdir. It calls fn for each primary
// (value is its value, cmd the command of an -exec family primary).
func FindExpr(expr []string, fn func(primary, value string, cmd []string)) {
	for i := 0; i < len(expr); i++ {
		p := expr[i]
		switch {
		case p == "-exec" || p == "-execdir" || p == "-ok" || p == "-okdir":
			j := i + 1
			for j < len(expr) && expr[j] != ";" && expr[j] != "+" {
				j++
			}
			fn(p, "", expr[i+1:j])
			i = j
		case slices.Contains(findTakesValue, p) && i+1 < len(expr):
			fn(p, expr[i+1], nil)
			i++
		default:
			fn(p, "", nil)
		}
	}
}

func (a *analyzer) find(f *frame, st *state, ex *Exec) {
	a.emit(f, ex)
	_, expr := FindStart(ex.Args[1:])
	pattern := ""
	FindExpr(expr, func(p, v string, _ []string) {
		if (p == "-name" || p == "-iname") && pattern == "" {
			pattern = v
		}
	})
	FindExpr(expr, func(p, _ string, cmd []string) {
		if len(cmd) == 0 {
			return
		}
		found := a.unknown(Unknown{Kind: Input, Name: pattern})
		args := make([]string, len(cmd))
		for i, w := range cmd {
			args[i] = strings.ReplaceAll(w, "{}", found)
		}
		a.child(f, st, ex, args, "find "+p, func(c *Exec) {
			c.Stdin = nil
			if p == "-execdir" || p == "-okdir" {
				c.Dir = ""
			}
		})
	})
}

var xargsSpec = &OptSpec{Short: "0a:d:E:e::I:i::L:l::n:P:prs:txJ:R:S:o", Long: []string{
	"null", "arg-file=", "delimiter=", "eof=?", "replace=?", "max-lines=?", "max-args=", "max-procs=",
	"interactive", "no-run-if-empty", "max-chars=", "verbose", "exit", "show-limits", "process-slot-var=",
	"open-tty", "help", "version",
}, StopAtOperand: true, Abbrev: true}

// xargs runs its command with items read at run time: appended, or in place
// of the replace string (-I, -i, --replace, BSD -J).
func (a *analyzer) xargs(f *frame, st *state, ex *Exec) {
	p := ParseArgs(ex.Args[1:], xargsSpec)
	cmd := p.Operands
	if len(cmd) == 0 {
		cmd = []string{"echo"}
	}
	var producers []*Exec
	if ex.Stdin != nil {
		producers = ex.Stdin.Producers
	}
	name := "xargs input"
	if in := ex.Stdin; in != nil && in.HasText && in.Text != "" && !strings.ContainsAny(strings.TrimSpace(in.Text), " \t\n") {
		// xargs cat <<< ~/.aws/credentials: one item, known (the policy
		// judges it as the file it names, as for find -exec's pattern).
		name = strings.TrimSpace(in.Text)
	}
	file := ""
	if ex.Stdin != nil {
		file = ex.Stdin.File
	}
	if v, ok := p.Value("a", "arg-file"); ok {
		file = v
	}
	item := a.unknown(Unknown{Kind: Input, Name: name, Execs: producers, File: file})
	repl, replace := "", false
	for _, o := range p.Opts {
		switch o.Name {
		case "I", "J":
			repl, replace = o.Value, true
		case "i", "replace":
			repl, replace = o.Value, true
			if repl == "" {
				repl = "{}"
			}
		}
	}
	args := slices.Clone(cmd)
	replaced := false
	if replace && repl != "" {
		for i := 1; i < len(args); i++ {
			if strings.Contains(args[i], repl) {
				args[i] = strings.ReplaceAll(args[i], repl, item)
				replaced = true
			}
		}
	}
	if !replaced {
		// Without a replace string the items are appended. With one that
		// the command does not use, they are judged as appended too.
		args = append(args, item)
	}
	a.child(f, st, ex, args, "xargs", func(c *Exec) { c.Stdin = nil })
}

var parallelValueOpts = []string{
	"-j", "--jobs", "-S", "--sshlogin", "-I", "-N", "-n", "--max-args",
	"-L", "--max-lines", "-P", "-d", "--delimiter", "-E", "-a", "--arg-file",
	"--colsep", "-C", "--results", "--joblog", "--workdir", "--wd", "--timeout",
	"--retries", "--delay", "--tmpdir", "--basefile", "--bf", "--return",
	"--env", "--tag-string", "--tagstring", "--memfree", "--load", "--nice",
	"--block", "--blocksize", "--process-slot-var", "--slf", "--sshloginfile",
	"--halt", "--termseq", "--limit", "-s", "--max-chars", "--shebang-wrap",
}

// parallel runs its command once per item, through a shell; with no
// command, each item is a command line.
func (a *analyzer) parallel(f *frame, st *state, ex *Exec) {
	args := ex.Args[1:]
	i := 0
	repl := "{}"
	for i < len(args) && strings.HasPrefix(args[i], "-") && !strings.HasPrefix(args[i], ":::") {
		o := args[i]
		if o == "--" {
			i++
			break
		}
		name, _, hasVal := strings.Cut(o, "=")
		if name == "-I" && i+1 < len(args) {
			repl = args[i+1]
		}
		if slices.Contains(parallelValueOpts, name) && !hasVal {
			i++
		}
		i++
	}
	var cmd []string
	for i < len(args) && !strings.HasPrefix(args[i], ":::") {
		cmd = append(cmd, args[i])
		i++
	}
	var items []string
	fromStdin := true
	for i < len(args) {
		sep := args[i]
		i++
		fromStdin = false
		for i < len(args) && !strings.HasPrefix(args[i], ":::") {
			if strings.HasPrefix(sep, "::::") {
				items = append(items, a.unknown(Unknown{Kind: Input, Name: "parallel input"}))
			} else {
				items = append(items, args[i])
			}
			i++
		}
	}
	if fromStdin {
		var producers []*Exec
		if ex.Stdin != nil {
			producers = ex.Stdin.Producers
		}
		items = []string{a.unknown(Unknown{Kind: Input, Name: "parallel input", Execs: producers})}
	}
	if len(items) > 8 {
		items = items[:8]
	}
	a.emit(f, ex)
	if len(cmd) == 0 {
		for _, it := range items {
			a.codeString(f, st, ex, it, "parallel")
		}
		return
	}
	placeholder := placeholderRe.Get()
	if repl != "{}" {
		placeholder = regexp.MustCompile(regexp.QuoteMeta(repl))
	}
	for _, it := range items {
		c := slices.Clone(cmd)
		used := false
		for j := range c {
			if placeholder.MatchString(c[j]) {
				c[j] = placeholder.ReplaceAllLiteralString(c[j], it)
				used = true
			}
		}
		if !used {
			c = append(c, it)
		}
		a.child(f, st, ex, c, "parallel", func(c *Exec) { c.Stdin = nil })
	}
}

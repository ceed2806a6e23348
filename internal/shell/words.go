package shell

import (
	"fmt"
	"io"
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// state is what bash remembers while it runs one command line: variables,
// the working directory, positional parameters and functions. Subshells,
// pipeline elements and substitutions work on a copy.
type state struct {
	vars map[string]expand.Variable
	// dir is the working directory: absolute, "" when unknown, or a path
	// under a marker.
	dir string
	// pos are the positional parameters $1...; posKnown is false at the top
	// level (a command line has none, but bash -c "$1" may get them from
	// its caller); posMore marks an unknown tail (xargs items).
	pos      []string
	posKnown bool
	posMore  string
	// zero is $0 when known (bash -c 'code' name ...).
	zero      string
	zeroKnown bool
	funcs     map[string]*syntax.Stmt
	// calling guards against recursive function calls.
	calling map[string]bool
	// aliases are the aliases defined earlier in the text (evasion.go).
	aliases map[string]string
	// fds are the files the shell itself opened on a descriptor earlier in
	// the text (exec 3>>.env, exec >out): a later >&3, or any output when
	// the descriptor is 1, writes there.
	fds map[string]Redir
}

func (st *state) copy() *state {
	c := *st
	c.vars = maps.Clone(st.vars)
	c.funcs = maps.Clone(st.funcs)
	c.calling = maps.Clone(st.calling)
	c.fds = maps.Clone(st.fds)
	c.aliases = maps.Clone(st.aliases)
	return &c
}

// env is the expand.Environ of one expansion: known variables come from the
// state, everything else expands to a marker.
type env struct {
	a  *analyzer
	st *state
}

// tempVars name some temporary directory: a path under them is judged as a
// temporary path.
var tempVars = []string{"TMPDIR", "TMP", "TEMP", "TEMPDIR", "RUNNER_TEMP"}

func (e env) Get(name string) expand.Variable {
	if v, ok := e.knownVar(name); ok {
		return v
	}
	if user, ok := strings.CutPrefix(name, "HOME "); ok {
		return expand.Variable{Set: true, Kind: expand.String, Str: e.a.unknown(Unknown{Kind: OtherHome, Name: user})}
	}
	kind := Variable
	if slices.Contains(tempVars, name) {
		kind = TempDir
	}
	return expand.Variable{Set: true, Kind: expand.String, Str: e.a.unknown(Unknown{Kind: kind, Name: name})}
}

// knownVar is the value of a variable the analysis knows: one assigned
// earlier in the text, or HOME, PWD, the shell's own, the positional
// parameters once set. Anything else is unknown.
func (e env) knownVar(name string) (expand.Variable, bool) {
	if v, ok := e.st.vars[name]; ok {
		return v, true
	}
	str := func(s string) (expand.Variable, bool) {
		return expand.Variable{Set: true, Kind: expand.String, Str: s}, true
	}
	switch name {
	case "IFS":
		return str(" \t\n") // bash's default: ${IFS} splits words
	case "HOME":
		if e.a.opts.Home != "" {
			return str(e.a.opts.Home)
		}
	case "PWD":
		if e.st.dir != "" {
			return str(e.st.dir)
		}
	case "SHELL":
		// The user's shell: some POSIX shell. Knowing it is one lets
		// `$SHELL -c ...` be analysed as the nested shell it is.
		return str("/bin/sh")
	case "BASH":
		return str("/bin/bash")
	case "@", "*":
		if e.st.posKnown {
			list := e.st.pos
			if e.st.posMore != "" {
				list = append(list[:len(list):len(list)], e.st.posMore)
			}
			return expand.Variable{Set: true, Kind: expand.Indexed, List: list}, true
		}
	case "0":
		if e.st.zeroKnown {
			return str(e.st.zero)
		}
	case "#":
		if e.st.posKnown && e.st.posMore == "" {
			return str(fmt.Sprint(len(e.st.pos)))
		}
	}
	if n := positionalIndex(name); n > 0 && e.st.posKnown {
		if n <= len(e.st.pos) {
			return str(e.st.pos[n-1])
		}
		if e.st.posMore != "" {
			return str(e.st.posMore)
		}
		return expand.Variable{}, true
	}
	return expand.Variable{}, false
}

func (e env) Each(fn func(string, expand.Variable) bool) {
	for name, v := range e.st.vars {
		if !fn(name, v) {
			return
		}
	}
}

func positionalIndex(name string) int {
	if name == "" || name == "0" {
		return 0
	}
	n := 0
	for _, c := range name {
		if c < '0' || c > '9' {
			return 0
		}
		n = n*10 + int(c-'0')
		if n > 1<<20 {
			return 0
		}
	}
	return n
}

// unknown returns the marker for u, reusing the marker of an equal variable
// so that $x twice gives the same text.
func (a *analyzer) unknown(u Unknown) string {
	if (u.Kind == Variable || u.Kind == TempDir || u.Kind == OtherHome) && u.Execs == nil {
		key := fmt.Sprint(int(u.Kind), ":", u.Name)
		if m, ok := a.varMarks[key]; ok {
			return m
		}
		m := a.res.newUnknown(u)
		a.varMarks[key] = m
		return m
	}
	return a.res.newUnknown(u)
}

// wordCtx carries what expanding one word needs besides the state.
type wordCtx struct {
	f  *frame
	st *state
	// subst maps the substitutions of the words being expanded to the
	// marker (or static value) each expands to.
	subst map[syntax.Node]string
}

// config builds a fresh expand.Config: expand mutates the one it is given.
func (a *analyzer) config(wc *wordCtx) *expand.Config {
	return &expand.Config{
		Env: env{a: a, st: wc.st},
		CmdSubst: func(w io.Writer, cs *syntax.CmdSubst) error {
			if v, ok := wc.subst[cs]; ok {
				io.WriteString(w, v)
				return nil
			}
			io.WriteString(w, a.unknown(Unknown{Kind: CommandOutput}))
			return nil
		},
		ProcSubst: func(ps *syntax.ProcSubst) (string, error) {
			if v, ok := wc.subst[ps]; ok {
				return v, nil
			}
			return a.unknown(Unknown{Kind: ProcessFile}), nil
		},
		// ReadDir2 stays nil: no globbing, a * stays a *.
	}
}

// prepareWords analyses the command and process substitutions inside words
// (they run before the command that uses their output) and records what
// each expands to. nameWord, if not nil, is the command-name word: its
// substitutions made only of echo/printf are evaluated, so that
// `$(printf r)m -rf /` is judged as rm.
func (a *analyzer) prepareWords(f *frame, st *state, nameWord *syntax.Word, words ...*syntax.Word) *wordCtx {
	wc := &wordCtx{f: f, st: st}
	visit := func(w *syntax.Word, isName bool) {
		if w == nil {
			return
		}
		syntax.Walk(w, func(n syntax.Node) bool {
			switch n := n.(type) {
			case *syntax.CmdSubst:
				if wc.subst == nil {
					wc.subst = map[syntax.Node]string{}
				}
				wc.subst[n] = a.cmdSubst(f, st, n, isName)
				return false
			case *syntax.ProcSubst:
				if wc.subst == nil {
					wc.subst = map[syntax.Node]string{}
				}
				execs := a.stmts(f, st.copy(), n.Stmts, ioCtx{})
				wc.subst[n] = a.unknown(Unknown{Kind: ProcessFile, Execs: execs})
				return false
			}
			return true
		})
	}
	visit(nameWord, true)
	for _, w := range words {
		visit(w, false)
	}
	return wc
}

// cmdSubst analyses the commands of $(...) and returns what it expands to:
// the directory for $(pwd), a temporary directory for $(mktemp), the text
// of a lone echo/printf when evalStatic is set, otherwise a marker that
// remembers the commands.
func (a *analyzer) cmdSubst(f *frame, st *state, cs *syntax.CmdSubst, evalStatic bool) string {
	sub := st.copy()
	execs := a.stmts(f, sub, cs.Stmts, ioCtx{})
	if len(cs.Stmts) == 1 && len(execs) == 1 && execs[0].Depth == f.depth {
		ex := execs[0]
		switch ex.Name {
		case "pwd":
			if st.dir != "" {
				return a.unknown(Unknown{Kind: Computed, Name: st.dir, Execs: execs})
			}
		case "mktemp":
			return a.unknown(Unknown{Kind: TempDir, Name: "mktemp", Execs: execs})
		case "dirname", "realpath", "readlink":
			// $(dirname "$HOME") is home's parent: a path computed from a
			// known one is judged by its value.
			if p, ok := pathOutput(ex, st.dir); ok {
				return a.unknown(Unknown{Kind: Computed, Name: p, Execs: execs})
			}
		case "which", "command", "type":
			// $(which rm) is rm, wherever it is.
			if evalStatic && len(ex.Args) >= 2 {
				name := ex.Args[len(ex.Args)-1]
				if Known(name) && !strings.HasPrefix(name, "-") && (ex.Name == "which" || slices.ContainsFunc(ex.Args[1:], func(s string) bool {
					return strings.HasPrefix(s, "-") && strings.ContainsAny(s, "vpP")
				})) {
					return name
				}
			}
		case "cat":
			if len(ex.Args) == 1 && ex.Stdin != nil && ex.Stdin.HasText && Known(ex.Stdin.Text) {
				return a.unknown(Unknown{Kind: Computed, Name: strings.TrimRight(ex.Stdin.Text, "\n"), Execs: execs})
			}
		case "echo", "printf":
			if out, ok := echoOutput(ex.Args); ok && Known(out) {
				out = strings.TrimRight(out, "\n")
				if evalStatic {
					return out
				}
				return a.unknown(Unknown{Kind: Computed, Name: out, Execs: execs})
			}
		}
	}
	if len(cs.Stmts) == 1 && len(execs) > 1 && len(execs) <= maxFilters+1 {
		// $(echo '~ fr- mr' | rev): a filter chain over literal text.
		last := execs[len(execs)-1]
		chain := 1
		for p := last; p.Stdin != nil && len(p.Stdin.Producers) == 1; p = p.Stdin.Producers[0] {
			chain++
		}
		if out, ok := producedText(last, maxFilters); ok && chain == len(execs) && last.Depth == f.depth && Known(out) {
			out = strings.TrimRight(out, "\n")
			if evalStatic {
				return out
			}
			return a.unknown(Unknown{Kind: Computed, Name: out, Execs: execs})
		}
	}
	return a.unknown(Unknown{Kind: CommandOutput, Execs: execs})
}

// pathOutput is what dirname, realpath or readlink -f prints for its one
// known path operand; ok is false for anything else.
func pathOutput(ex *Exec, dir string) (string, bool) {
	var ops []string
	canonical := false
	for _, a := range ex.Args[1:] {
		switch {
		case a == "-f" || a == "-e" || a == "-m" || a == "--canonicalize" || a == "--canonicalize-existing" || a == "--canonicalize-missing":
			canonical = true
		case strings.HasPrefix(a, "-"):
			return "", false
		default:
			ops = append(ops, a)
		}
	}
	if len(ops) != 1 || !Known(ops[0]) || ex.Name == "readlink" && !canonical {
		return "", false
	}
	p := ResolvePath(dir, ops[0])
	if p == "" {
		return "", false
	}
	if ex.Name == "dirname" {
		return path.Dir(p), true
	}
	return p, true
}

// fields expands words as command arguments. A word whose expansion fails
// (an unsupported construct, an arithmetic error) becomes one unknown
// field: never silently nothing.
func (a *analyzer) fields(wc *wordCtx, words ...*syntax.Word) []string {
	var out []string
	for _, w := range words {
		out = append(out, a.wordFields(wc, w)...)
	}
	return out
}

func (a *analyzer) wordFields(wc *wordCtx, w *syntax.Word) (out []string) {
	if opaqueWord(env{a: a, st: wc.st}, w) {
		return []string{a.unknown(Unknown{Kind: Variable, Name: wordSource(wc.f.src, w)})}
	}
	defer func() {
		if r := recover(); r != nil {
			out = []string{a.unknown(Unknown{Kind: Variable, Name: wordSource(wc.f.src, w)})}
		}
	}()
	// Brace expansion is counted before it is done: {a,b}{a,b}... costs
	// bash nothing to write and the analysis exponential time to expand.
	n := braceCount(w)
	if n > maxBraceWords {
		a.stop(wc.f, wordSource(wc.f.src, w), fmt.Sprintf("a brace expansion of more than %d words", maxBraceWords))
		return []string{a.unknown(Unknown{Kind: Variable, Name: wordSource(wc.f.src, w)})}
	}
	if !a.affordable(wc, w, n) {
		return []string{a.unknown(Unknown{Kind: Variable, Name: wordSource(wc.f.src, w)})}
	}
	if hasExtGlob(w) {
		// zsh's glob qualifiers (*(.), *(om[1,3]), ~/*(D)) parse as bash's
		// extended globs: either way the word names some files where the
		// glob is, so it is judged as that glob (*), and zsh's e and +
		// qualifiers run code for each file.
		a.zshQualifierCode(wc, w)
		w = extGlobAsStar(w)
	}
	fs, err := expand.Fields(a.config(wc), w)
	if err != nil {
		return []string{a.unknown(Unknown{Kind: Variable, Name: wordSource(wc.f.src, w)})}
	}
	if a.fieldCount += len(fs); a.fieldCount > maxFields {
		a.stop(wc.f, wordSource(wc.f.src, w), fmt.Sprintf("more than %d words after expansion", maxFields))
	}
	return fs
}

// maxBraceWords bounds one word's brace expansion, maxFields the words one
// analysis expands in all (loops and nested shells multiply them). Past
// either the analysis stops with a TooComplex hazard, which is denied.
const (
	maxBraceWords = 4096
	maxFields     = 100_000
)

// braceCount is how many words w's brace expansions produce, computed from
// the syntax without expanding (saturating at maxBraceWords+1).
func braceCount(w *syntax.Word) int {
	if !strings.Contains(wordLits(w), "{") {
		return 1
	}
	cp := *w
	cp.Parts = slices.Clone(w.Parts)
	if !syntax.SplitBraces(&cp) {
		return 1
	}
	return partsCount(cp.Parts)
}

func wordLits(w *syntax.Word) string {
	var b strings.Builder
	for _, p := range w.Parts {
		if l, ok := p.(*syntax.Lit); ok {
			b.WriteString(l.Value)
		}
	}
	return b.String()
}

func partsCount(parts []syntax.WordPart) int {
	const limit = maxBraceWords + 1
	n := 1
	for _, p := range parts {
		b, ok := p.(*syntax.BraceExp)
		if !ok {
			continue
		}
		c := 0
		if b.Sequence {
			c = seqCount(b)
		} else {
			for _, e := range b.Elems {
				if c += partsCount(e.Parts); c >= limit {
					break
				}
			}
		}
		if n = n * max(c, 1); n >= limit {
			return limit
		}
	}
	return n
}

// seqCount is the length of {x..y[..incr]}: numbers or single letters.
func seqCount(b *syntax.BraceExp) int {
	const limit = maxBraceWords + 1
	if len(b.Elems) < 2 {
		return 1
	}
	from, to := b.Elems[0].Lit(), b.Elems[1].Lit()
	incr := 1
	if len(b.Elems) > 2 {
		if v, err := strconv.Atoi(b.Elems[2].Lit()); err == nil && v != 0 {
			incr = max(v, -v)
		}
	}
	x, err1 := strconv.Atoi(from)
	y, err2 := strconv.Atoi(to)
	if err1 != nil || err2 != nil {
		if len(from) == 1 && len(to) == 1 {
			x, y = int(from[0]), int(to[0])
		} else {
			return limit // a number too large for int is too many words
		}
	}
	d := y - x
	if d < 0 {
		d = -d
	}
	return min(d/incr+1, limit)
}

// literal expands a word as one string, as bash does for assignment values
// and redirection targets.
func (a *analyzer) literal(wc *wordCtx, w *syntax.Word) (out string) {
	if w == nil {
		return ""
	}
	if opaqueWord(env{a: a, st: wc.st}, w) {
		return a.unknown(Unknown{Kind: Variable, Name: wordSource(wc.f.src, w)})
	}
	defer func() {
		if r := recover(); r != nil {
			out = a.unknown(Unknown{Kind: Variable, Name: wordSource(wc.f.src, w)})
		}
	}()
	if !a.affordable(wc, w, braceCount(w)) {
		return a.unknown(Unknown{Kind: Variable, Name: wordSource(wc.f.src, w)})
	}
	s, err := expand.Literal(a.config(wc), w)
	if err != nil {
		return a.unknown(Unknown{Kind: Variable, Name: wordSource(wc.f.src, w)})
	}
	return s
}

// document expands a heredoc body; quoted delimiters give a literal body
// (the parser already keeps it unexpanded).
func (a *analyzer) document(wc *wordCtx, w *syntax.Word) (out string) {
	if w == nil {
		return ""
	}
	defer func() {
		if r := recover(); r != nil {
			out = a.unknown(Unknown{Kind: Variable, Name: "heredoc"})
		}
	}()
	if !a.affordable(wc, w, 1) {
		return a.unknown(Unknown{Kind: Variable, Name: "heredoc"})
	}
	s, err := expand.Document(a.config(wc), w)
	if err != nil {
		return a.unknown(Unknown{Kind: Variable, Name: "heredoc"})
	}
	return s
}

// opaqueWord reports whether a word applies string operations (${x:1},
// ${x/a/b}, ${#x}, ${!x}) to a variable that is not known: working on the
// marker's text would forge known-looking text, so the whole word is
// unknown. Defaults (${x:-d}) stay: they give the marker itself. A known
// variable's operations are done (${HOME:0:1} is /, ${HOME%/*} home's
// parent).
func opaqueWord(e env, w *syntax.Word) bool {
	opaque := false
	syntax.Walk(w, func(n syntax.Node) bool {
		if opaque {
			return false
		}
		switch n := n.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst:
			return false
		case *syntax.ParamExp:
			if n.Param == nil {
				opaque = true
				return false
			}
			plain := !n.Excl && !n.Length && !n.Width && n.Slice == nil && n.Repl == nil &&
				n.Index == nil && len(n.Modifiers) == 0 && n.Names == 0
			if n.Exp != nil {
				switch n.Exp.Op {
				case syntax.DefaultUnset, syntax.DefaultUnsetOrNull,
					syntax.AlternateUnset, syntax.AlternateUnsetOrNull,
					syntax.AssignUnset, syntax.AssignUnsetOrNull,
					syntax.ErrorUnset, syntax.ErrorUnsetOrNull:
				default:
					plain = false
				}
			}
			if plain {
				return true
			}
			name := n.Param.Value
			if _, known := e.knownVar(name); known && !n.Excl {
				return true
			}
			if n.Index != nil && (name == "@" || name == "*") {
				return true
			}
			opaque = true
			return false
		}
		return true
	})
	return opaque
}

func wordSource(src string, w *syntax.Word) string {
	start, end := int(w.Pos().Offset()), int(w.End().Offset())
	if start >= 0 && end <= len(src) && start <= end {
		s := src[start:end]
		if len(s) > 60 {
			s = s[:60] + "…"
		}
		return s
	}
	return "word"
}

// echoOutput is what echo or printf with these arguments prints, when it
// can be computed: echo's -n/-e/-E flags and printf's format are applied.
func echoOutput(args []string) (string, bool) {
	if len(args) == 0 {
		return "", false
	}
	switch CommandName(args[0]) {
	case "echo":
		rest := args[1:]
		newline, escapes := true, false
		for len(rest) > 0 && len(rest[0]) > 1 && rest[0][0] == '-' && strings.Trim(rest[0][1:], "neE") == "" {
			for _, c := range rest[0][1:] {
				switch c {
				case 'n':
					newline = false
				case 'e':
					escapes = true
				case 'E':
					escapes = false
				}
			}
			rest = rest[1:]
		}
		out := strings.Join(rest, " ")
		if escapes {
			if s, _, err := expand.Format(nil, out, nil); err == nil {
				out = s
			}
		}
		if newline {
			out += "\n"
		}
		return out, true
	case "printf":
		rest := args[1:]
		if len(rest) > 0 && rest[0] == "--" {
			rest = rest[1:]
		}
		if len(rest) == 0 || strings.HasPrefix(rest[0], "-") {
			return "", false
		}
		format, fargs := rest[0], rest[1:]
		var b strings.Builder
		for range 64 {
			s, n, err := expand.Format(nil, format, fargs)
			if err != nil {
				return "", false
			}
			b.WriteString(s)
			if n == 0 || n >= len(fargs) {
				break
			}
			fargs = fargs[n:]
		}
		return b.String(), true
	}
	return "", false
}

func hasExtGlob(w *syntax.Word) bool {
	return slices.ContainsFunc(w.Parts, func(p syntax.WordPart) bool {
		_, ok := p.(*syntax.ExtGlob)
		return ok
	})
}

// extGlobAsStar returns w with its extended globs as a plain *.
func extGlobAsStar(w *syntax.Word) *syntax.Word {
	parts := make([]syntax.WordPart, len(w.Parts))
	for i, p := range w.Parts {
		if _, ok := p.(*syntax.ExtGlob); ok {
			p = &syntax.Lit{Value: "*"}
		}
		parts[i] = p
	}
	return &syntax.Word{Parts: parts}
}

// zshQualifierCode analyses the code of zsh's e qualifier (*(e:'cmd':),
// *(e['cmd'])) as a nested shell: zsh -c runs it for every file.
func (a *analyzer) zshQualifierCode(wc *wordCtx, w *syntax.Word) {
	for _, p := range w.Parts {
		g, ok := p.(*syntax.ExtGlob)
		if !ok || g.Pattern == nil {
			continue
		}
		if code, ok := zshECode(g.Pattern.Value); ok {
			ex := &Exec{Dir: wc.st.dir, Via: wc.f.via, Text: wordSource(wc.f.src, w), Depth: wc.f.depth}
			a.nested(wc.f, wc.st, ex, code, "zsh glob qualifier e", nil)
		}
	}
}

// zshECode returns the code of an e qualifier: e, a delimiter, the code,
// the closing delimiter ([ ] { } < > ( ) pair up).
func zshECode(q string) (string, bool) {
	i := strings.IndexByte(q, 'e')
	// Other qualifiers may come first (.e:…:), never an alternative (|).
	if i < 0 || i+1 >= len(q) || strings.ContainsAny(q[:i], " \t|") {
		return "", false
	}
	open := q[i+1]
	if !strings.ContainsRune(":'\"[{<", rune(open)) {
		return "", false
	}
	closing := map[byte]byte{'[': ']', '{': '}', '<': '>'}[open]
	if closing == 0 {
		closing = open
	}
	end := strings.LastIndexByte(q, closing)
	if end <= i+1 {
		return "", false
	}
	code := strings.TrimSpace(q[i+2 : end])
	if len(code) >= 2 && (code[0] == '\'' || code[0] == '"') && code[len(code)-1] == code[0] {
		code = code[1 : len(code)-1]
	}
	return code, code != ""
}

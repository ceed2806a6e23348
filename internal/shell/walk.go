package shell

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"

	"github.com/gemini-guard/gemini-guard/internal/lazyregexp"
)

// analyzer holds one Analyze call's progress.
type analyzer struct {
	opts     Options
	res      *Result
	varMarks map[string]string
	maxDepth int
	stopped  bool
	steps    int
	// fields Count counts the words expanded so far, against maxFields.
	fieldCount int
	// expanded counts the bytes of expanded text so far (a bound), against
	// maxExpandedBytes (budget.go).
	expanded int
	// written holds the content of files the command writes with known
	// text (echo ... > f, cat > f <<EOF), by resolved path, so that running
	// them later in the same command is judged by what they hold.
	written map[string]string
	// renamed maps a path the command copied or linked a program to onto
	// that program's name; moved maps a path something was moved to onto
	// where it came from (evasion.go).
	renamed, moved map[string]string
}

// frame is one piece of shell text being analysed: the command line, or the
// string of a nested shell.
type frame struct {
	src   string
	via   []string
	depth int
	// stdin is the standard input of the nested shell (for `bash` reading
	// its script from a pipe, the producers of that pipe).
	stdin *Stdin
}

// ioCtx is the input and output set up by enclosing commands.
type ioCtx struct {
	stdin  *Stdin
	redirs []Redir
}

// Analyze finds everything src would run. It never panics and always
// returns a Result; text that is not valid bash gives a ParseError hazard
// (and the commands of the part that parsed).
func Analyze(src string, opts Options) (res *Result) {
	a := &analyzer{opts: opts, res: &Result{}, varMarks: map[string]string{}, maxDepth: opts.MaxDepth}
	if a.maxDepth <= 0 {
		a.maxDepth = DefaultMaxDepth
	}
	defer func() {
		if r := recover(); r != nil {
			// A bug in the analysis, never expected: report it as a hazard
			// so the policy fails closed instead of allowing.
			a.res.Hazards = append(a.res.Hazards, Hazard{Kind: TooComplex, Text: src, Detail: fmt.Sprintf("internal error while analysing: %v", r)})
			res = a.res
		}
	}()
	if strings.ContainsAny(src, markRunes) {
		src = strings.NewReplacer(string(markOpen), "\uFFFD", string(markClose), "\uFFFD").Replace(src)
	}
	if d, ops := nesting(src); d > maxNesting || ops > maxOperators {
		// The parser and the walk recurse once per level: an unbounded
		// depth would overflow the stack, which Go cannot recover from.
		a.res.Hazards = append(a.res.Hazards, Hazard{Kind: TooComplex, Text: src,
			Detail: fmt.Sprintf("the command nests %d levels deep with %d operators, more than gemini-guard follows", d, ops)})
		return a.res
	}
	st := &state{vars: map[string]expand.Variable{}, dir: opts.Dir}
	a.script(&frame{src: src}, st, src, ioCtx{})
	a.res.Written = a.written
	return a.res
}

// Bounds checked before parsing: bracket nesting and the number of list and
// pipe operators (binary commands nest in the tree too).
const (
	maxNesting   = 500
	maxOperators = 50_000
)

// nesting returns the deepest bracket nesting of src, counting ( { [ and
// backquotes wherever they are (also inside quotes: a cheap upper bound),
// and the number of |, && and || operators.
func nesting(src string) (depth, ops int) {
	d := 0
	tick := false
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '(', '{', '[':
			d++
		case ')', '}', ']':
			if d > 0 {
				d--
			}
		case '`':
			if tick {
				d--
			} else {
				d++
			}
			tick = !tick
		case '|', '&':
			ops++
		}
		depth = max(depth, d)
	}
	return depth, ops
}

func (a *analyzer) tracef(f *frame, format string, args ...any) {
	if !a.opts.Trace {
		return
	}
	indent := strings.Repeat("  ", f.depth)
	a.res.Trace = append(a.res.Trace, indent+fmt.Sprintf(format, args...))
}

var parseErrorRe = &lazyregexp.Regexp{Expr: "without closing quote (?:`(.)`|\"(.)\")|without matching `[^`]*` with `([^`]*)`|unclosed here-document `([^`]*)`|must end with `(fi|done|esac|})`"}

// script parses and analyses src in frame f (whose src field is src).
func (a *analyzer) script(f *frame, st *state, src string, io ioCtx) []*Exec {
	file, err := parse(src)
	if err == nil {
		return a.stmts(f, st, file.Stmts, io)
	}
	// Bash never runs a line that does not parse, but it runs the complete
	// lines before it, and the agent will retry the command with its quotes
	// fixed: judge the statements that parsed, then the text with its open
	// quotes and brackets closed.
	repaired, ok := repair(src, err)
	if ok {
		if file, err2 := parse(repaired); err2 == nil {
			a.res.Hazards = append(a.res.Hazards, Hazard{Kind: ParseError, Repaired: true, Text: src, Detail: err.Error(), Via: f.via})
			a.tracef(f, "parse error (%v); analysed with the quotes closed", err)
			rf := *f
			rf.src = repaired
			return a.stmts(&rf, st, file.Stmts, io)
		}
	}
	a.res.Hazards = append(a.res.Hazards, Hazard{Kind: ParseError, Text: src, Detail: err.Error(), Via: f.via})
	a.tracef(f, "parse error: %v; analysing the statements before it", err)
	var before []*syntax.Stmt
	for s, err := range syntax.NewParser(syntax.Variant(syntax.LangBash)).StmtsSeq(strings.NewReader(src)) {
		if err != nil {
			break
		}
		before = append(before, s)
	}
	return a.stmts(f, st, before, io)
}

func parse(src string) (*syntax.File, error) {
	return syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
}

// repair closes what the parse error says is open, a few times over. A
// ${...} that is not a valid expansion (bash only fails on it when it runs,
// "bad substitution") is replaced by an unknown variable.
func repair(src string, err error) (string, bool) {
	for range 6 {
		var pe syntax.ParseError
		if errors.As(err, &pe) && strings.Contains(pe.Text, "not a valid parameter expansion") {
			off := int(pe.Pos.Offset())
			start := strings.LastIndex(src[:min(off, len(src))], "${")
			if start < 0 {
				return "", false
			}
			depth, end := 0, -1
			for i := start + 1; i < len(src) && end < 0; i++ {
				switch src[i] {
				case '{':
					depth++
				case '}':
					depth--
					if depth == 0 {
						end = i
					}
				}
			}
			if end < 0 {
				return "", false
			}
			src = src[:start] + "${gemini_guard_bad_substitution}" + src[end+1:]
			if _, err = parse(src); err == nil {
				return src, true
			}
			continue
		}
		if errors.As(err, &pe) && strings.Contains(pe.Text, "encountered `(`") {
			// zsh's glob qualifiers (ls *.log(mh-1), rm -rf ~/.ssh(/)):
			// judged as the glob they qualify.
			q, ok := dropGlobQualifier(src, int(pe.Pos.Offset()))
			if !ok {
				return "", false
			}
			src = q
			if _, err = parse(src); err == nil {
				return src, true
			}
			continue
		}
		m := parseErrorRe.FindStringSubmatch(err.Error())
		if m == nil {
			return "", false
		}
		switch {
		case m[1] != "":
			src += m[1]
		case m[2] != "":
			src += m[2]
		case m[3] != "":
			src += m[3]
		case m[4] != "":
			src += "\n" + m[4] + "\n"
		case m[5] != "":
			src += "\n" + m[5]
		}
		if _, err = parse(src); err == nil {
			return src, true
		}
	}
	return "", false
}

func (a *analyzer) stmts(f *frame, st *state, stmts []*syntax.Stmt, io ioCtx) []*Exec {
	var out []*Exec
	for _, s := range stmts {
		if a.stopped {
			break
		}
		out = append(out, a.stmt(f, st, s, io)...)
	}
	return out
}

func (a *analyzer) stmt(f *frame, st *state, s *syntax.Stmt, io ioCtx) []*Exec {
	if s == nil || a.stopped {
		return nil
	}
	if a.steps++; a.steps > maxSteps {
		a.stop(f, source(f.src, s), fmt.Sprintf("more than %d statements to follow", maxSteps))
		return nil
	}
	io = a.redirects(f, st, s.Redirs, io)
	switch c := s.Cmd.(type) {
	case nil:
		// Only redirections: `> .env` truncates a file.
		if len(io.redirs) > 0 {
			ex := &Exec{Dir: st.dir, Redirs: io.redirs, Stdin: io.stdin, Via: f.via, Text: source(f.src, s), Depth: f.depth}
			a.emit(f, ex)
			return []*Exec{ex}
		}
	case *syntax.CallExpr:
		return a.call(f, st, c, s, io)
	case *syntax.BinaryCmd:
		switch c.Op {
		case syntax.Pipe, syntax.PipeAll:
			left := a.stmt(f, st.copy(), c.X, ioCtx{stdin: io.stdin})
			right := a.stmt(f, st.copy(), c.Y, ioCtx{stdin: &Stdin{Producers: left}, redirs: io.redirs})
			return append(left, right...)
		default:
			left := a.stmt(f, st, c.X, io)
			return append(left, a.stmt(f, st, c.Y, io)...)
		}
	case *syntax.Subshell:
		return a.stmts(f, st.copy(), c.Stmts, io)
	case *syntax.Block:
		return a.stmts(f, st, c.Stmts, io)
	case *syntax.IfClause:
		var out []*Exec
		for cl := c; cl != nil; cl = cl.Else {
			out = append(out, a.stmts(f, st, cl.Cond, io)...)
			out = append(out, a.stmts(f, st, cl.Then, io)...)
		}
		return out
	case *syntax.WhileClause:
		out := a.stmts(f, st, c.Cond, io)
		return append(out, a.stmts(f, st, c.Do, io)...)
	case *syntax.ForClause:
		return a.forClause(f, st, c, io)
	case *syntax.CaseClause:
		out := a.wordsOnly(f, st, c.Word)
		for _, item := range c.Items {
			out = append(out, a.wordsOnly(f, st, item.Patterns...)...)
			out = append(out, a.stmts(f, st, item.Stmts, io)...)
		}
		return out
	case *syntax.FuncDecl:
		a.funcDecl(f, st, c)
	case *syntax.ArithmCmd:
		return a.nodeSubsts(f, st, c)
	case *syntax.LetClause:
		return a.nodeSubsts(f, st, c)
	case *syntax.TestClause:
		return a.nodeSubsts(f, st, c)
	case *syntax.DeclClause:
		return a.declClause(f, st, c, s, io)
	case *syntax.TimeClause:
		return a.stmt(f, st, c.Stmt, io)
	case *syntax.CoprocClause:
		return a.stmt(f, st.copy(), c.Stmt, io)
	default:
		// A construct this walk does not know (a newer mvdan/sh, bats'
		// @test) could hide any command: the text cannot be judged.
		a.stop(f, source(f.src, s), fmt.Sprintf("unknown shell construct %T", c))
	}
	return nil
}

// wordsOnly analyses the substitutions inside words that are not a command
// (a case subject and its patterns).
func (a *analyzer) wordsOnly(f *frame, st *state, words ...*syntax.Word) []*Exec {
	start := len(a.res.Execs)
	a.prepareWords(f, st, nil, words...)
	return slices.Clone(a.res.Execs[start:])
}

// nodeSubsts analyses the substitutions anywhere inside n ((( )), let, [[ ]]).
func (a *analyzer) nodeSubsts(f *frame, st *state, n syntax.Node) []*Exec {
	var words []*syntax.Word
	syntax.Walk(n, func(n syntax.Node) bool {
		if w, ok := n.(*syntax.Word); ok {
			words = append(words, w)
			return false
		}
		return true
	})
	return a.wordsOnly(f, st, words...)
}

func (a *analyzer) forClause(f *frame, st *state, c *syntax.ForClause, io ioCtx) []*Exec {
	switch loop := c.Loop.(type) {
	case *syntax.WordIter:
		var items []string
		var out []*Exec
		if loop.InPos.IsValid() {
			out = a.wordsOnly(f, st, loop.Items...)
			wc := a.prepareWords(f, st, nil, loop.Items...)
			items = a.fields(wc, loop.Items...)
		} else {
			items = []string{a.unknown(Unknown{Kind: Variable, Name: "@"})}
		}
		name := loop.Name.Value
		if len(items) > 8 {
			items = []string{a.unknown(Unknown{Kind: Variable, Name: name})}
		}
		for _, item := range items {
			st.vars[name] = expand.Variable{Set: true, Kind: expand.String, Str: item}
			out = append(out, a.stmts(f, st, c.Do, io)...)
		}
		return out
	case *syntax.CStyleLoop:
		out := a.nodeSubsts(f, st, loop)
		return append(out, a.stmts(f, st, c.Do, io)...)
	default:
		a.stop(f, source(f.src, c), fmt.Sprintf("unknown loop %T", loop))
		return nil
	}
}

// funcDecl records a function; calls to it run its body. A function that
// starts itself in a pipe or in the background is a fork bomb, whatever its
// name.
func (a *analyzer) funcDecl(f *frame, st *state, c *syntax.FuncDecl) {
	if c.Name == nil || c.Body == nil {
		return
	}
	name := c.Name.Value
	if st.funcs == nil {
		st.funcs = map[string]*syntax.Stmt{}
	}
	st.funcs[name] = c.Body
	if selfSpawning(name, c.Body) {
		a.res.Hazards = append(a.res.Hazards, Hazard{Kind: ForkBomb, Text: source(f.src, c), Detail: fmt.Sprintf("function %s starts copies of itself", name), Via: f.via})
		a.tracef(f, "fork bomb: function %s starts copies of itself", name)
	}
}

func selfSpawning(name string, body *syntax.Stmt) bool {
	found := false
	var visit func(s *syntax.Stmt, spawned bool)
	isSelf := func(s *syntax.Stmt) bool {
		ce, ok := s.Cmd.(*syntax.CallExpr)
		return ok && len(ce.Args) > 0 && ce.Args[0].Lit() == name
	}
	visit = func(s *syntax.Stmt, spawned bool) {
		if s == nil || found {
			return
		}
		spawned = spawned || s.Background
		if isSelf(s) && spawned {
			found = true
			return
		}
		syntax.Walk(s.Cmd, func(n syntax.Node) bool {
			switch n := n.(type) {
			case *syntax.BinaryCmd:
				pipe := n.Op == syntax.Pipe || n.Op == syntax.PipeAll
				visit(n.X, spawned || pipe)
				visit(n.Y, spawned || pipe)
				return false
			case *syntax.Stmt:
				visit(n, spawned)
				return false
			}
			return true
		})
	}
	visit(body, false)
	return found
}

func (a *analyzer) declClause(f *frame, st *state, c *syntax.DeclClause, s *syntax.Stmt, io ioCtx) []*Exec {
	start := len(a.res.Execs)
	wc := a.prepareWords(f, st, nil, assignedWords(c.Args)...)
	for _, as := range c.Args {
		if as.Name == nil {
			continue
		}
		a.assign(wc, st, as)
	}
	if printing, args := declPrinting(c); printing {
		// export -p, declare -x, bare export: the clause prints variables
		// (the environment's secrets included), so it is a command whose
		// output goes somewhere.
		ex := &Exec{Args: args, Name: args[0], Dir: st.dir, Redirs: io.redirs, Stdin: io.stdin, Via: f.via, Text: source(f.src, s), Depth: f.depth}
		a.emit(f, ex)
	} else if len(io.redirs) > 0 {
		ex := &Exec{Dir: st.dir, Redirs: io.redirs, Via: f.via, Text: source(f.src, s), Depth: f.depth}
		a.emit(f, ex)
	}
	return slices.Clone(a.res.Execs[start:])
}

// declPrinting reports whether a declaration clause only prints variables
// (no name is assigned or declared; or -p with names, declare -p T, which
// prints those), with its words as arguments.
func declPrinting(c *syntax.DeclClause) (bool, []string) {
	args := []string{c.Variant.Value}
	var names []string
	p := false
	for _, as := range c.Args {
		if as.Name != nil {
			if !as.Naked {
				return false, nil
			}
			names = append(names, as.Name.Value)
			continue
		}
		if as.Value == nil {
			return false, nil
		}
		lit := as.Value.Lit()
		if !strings.HasPrefix(lit, "-") && !strings.HasPrefix(lit, "+") {
			return false, nil
		}
		p = p || strings.HasPrefix(lit, "-") && strings.Contains(lit, "p")
		args = append(args, lit)
	}
	if len(names) > 0 && !p {
		return false, nil
	}
	return true, append(args, names...)
}

// assign applies one assignment to st.
func (a *analyzer) assign(wc *wordCtx, st *state, as *syntax.Assign) {
	name := as.Name.Value
	if !slices.Contains(a.res.Assigned, name) && len(a.res.Assigned) < 256 {
		a.res.Assigned = append(a.res.Assigned, name)
	}
	switch {
	case as.Array != nil:
		var list []string
		for _, e := range as.Array.Elems {
			if e.Value != nil {
				list = append(list, a.fields(wc, e.Value)...)
			}
		}
		if len(list) > 1024 {
			list = []string{a.unknown(Unknown{Kind: Variable, Name: name})}
		}
		st.vars[name] = expand.Variable{Set: true, Kind: expand.Indexed, List: list}
	case as.Naked:
		// `export x` or `declare -a x`: attributes only.
	case as.Index != nil:
		// a[i]=v: the array now holds something unknown.
		st.vars[name] = expand.Variable{Set: true, Kind: expand.String, Str: a.unknown(Unknown{Kind: Variable, Name: name})}
	default:
		v := a.literal(wc, as.Value)
		if as.Append {
			if old, ok := st.vars[name]; ok {
				v = old.String() + v
			} else {
				v = a.unknown(Unknown{Kind: Variable, Name: name}) + v
			}
		}
		if len(v) > maxValue {
			v = a.unknown(Unknown{Kind: Variable, Name: name})
		}
		st.vars[name] = expand.Variable{Set: true, Kind: expand.String, Str: v}
		if a.res.Values == nil {
			a.res.Values = map[string]string{}
		}
		if _, ok := a.res.Values[name]; ok || len(a.res.Values) < 256 {
			a.res.Values[name] = v
		}
	}
}

// redirects resolves s's redirections onto io: output targets are added,
// heredocs, here-strings and < files become the standard input.
func (a *analyzer) redirects(f *frame, st *state, rs []*syntax.Redirect, io ioCtx) ioCtx {
	if len(rs) == 0 {
		return st.withOpenStdout(io)
	}
	var words []*syntax.Word
	for _, r := range rs {
		if r.Word != nil {
			words = append(words, r.Word)
		}
		if r.Hdoc != nil {
			words = append(words, r.Hdoc)
		}
	}
	wc := a.prepareWords(f, st, nil, words...)
	io.redirs = slices.Clip(io.redirs)
	for _, r := range rs {
		rd := Redir{Op: r.Op.String()}
		if r.N != nil {
			rd.Fd = r.N.Value
		}
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc:
			io.stdin = &Stdin{Text: a.document(wc, r.Hdoc), HasText: true}
		case syntax.WordHdoc:
			io.stdin = &Stdin{Text: a.literal(wc, r.Word) + "\n", HasText: true}
			rd.Target = ""
		default:
			rd.Target = a.literal(wc, r.Word)
			if r.Op == syntax.RdrIn && (rd.Fd == "" || rd.Fd == "0") {
				io.stdin = &Stdin{File: rd.Target}
			}
			if open, ok := st.fds[rd.Target]; ok && r.Op == syntax.DplOut {
				// >&3 after exec 3>>.env writes .env.
				rd.Op, rd.Target = open.Op, open.Target
			}
		}
		io.redirs = append(io.redirs, rd)
	}
	return st.withOpenStdout(io)
}

// openFds records the files exec's own redirections open on a
// descriptor (exec 3>>.env, exec >out, exec &>log) for the commands after
// it.
func (st *state) openFds(rs []Redir) {
	for _, r := range rs {
		if !r.Writes() || r.Op == ">&" {
			continue
		}
		fd := r.Fd
		if fd == "" {
			fd = "1"
		}
		if st.fds == nil {
			st.fds = map[string]Redir{}
		}
		st.fds[fd] = Redir{Op: r.Op, Target: r.Target}
		if r.Op == "&>" || r.Op == "&>>" {
			st.fds["2"] = st.fds[fd]
		}
	}
}

// withOpenStdout adds to io the file exec opened on descriptor 1 (exec
// >out), when the command does not redirect its output itself: what it
// prints lands there.
func (st *state) withOpenStdout(io ioCtx) ioCtx {
	open, ok := st.fds["1"]
	if !ok {
		return io
	}
	for _, r := range io.redirs {
		if r.Writes() && (r.Fd == "" || r.Fd == "1") {
			return io
		}
	}
	io.redirs = append(slices.Clip(io.redirs), Redir{Op: ">>", Target: open.Target})
	return io
}

// assignedWords are the words assignments give values: each value and
// each array element's, in order.
func assignedWords(assigns []*syntax.Assign) []*syntax.Word {
	var words []*syntax.Word
	for _, as := range assigns {
		if as.Value != nil {
			words = append(words, as.Value)
		}
		if as.Array != nil {
			for _, e := range as.Array.Elems {
				if e.Value != nil {
					words = append(words, e.Value)
				}
			}
		}
	}
	return words
}

// call analyses a simple command.
func (a *analyzer) call(f *frame, st *state, ce *syntax.CallExpr, s *syntax.Stmt, io ioCtx) []*Exec {
	start := len(a.res.Execs)
	assignWords := assignedWords(ce.Assigns)
	var nameWord *syntax.Word
	var rest []*syntax.Word
	if len(ce.Args) > 0 {
		nameWord, rest = ce.Args[0], ce.Args[1:]
	}
	wc := a.prepareWords(f, st, nameWord, append(assignWords, rest...)...)
	if len(ce.Args) == 0 {
		for _, as := range ce.Assigns {
			if as.Name != nil {
				a.assign(wc, st, as)
			}
		}
		if len(io.redirs) > 0 {
			ex := &Exec{Dir: st.dir, Redirs: io.redirs, Stdin: io.stdin, Via: f.via, Text: source(f.src, s), Depth: f.depth}
			a.emit(f, ex)
		}
		return slices.Clone(a.res.Execs[start:])
	}
	args := a.fields(wc, ce.Args...)
	var envs map[string]string
	for _, as := range ce.Assigns {
		if as.Name == nil {
			continue
		}
		if envs == nil {
			envs = map[string]string{}
		}
		envs[as.Name.Value] = a.literal(wc, as.Value)
	}
	if len(args) == 0 {
		// The command word expanded to nothing: the assignments stay.
		for _, as := range ce.Assigns {
			if as.Name != nil {
				a.assign(wc, st, as)
			}
		}
		return slices.Clone(a.res.Execs[start:])
	}
	name := args[0]
	if s, computed := a.res.Substitute(name); computed && Known(s) {
		// x=$(printf 'r%s' m); $x -rf ~: a name computed from literal
		// text is that name, as $(printf r)m is.
		name = s
	}
	ex := &Exec{
		Args: args, Name: CommandName(name), Dir: st.dir, Env: envs,
		Redirs: io.redirs, Stdin: io.stdin, Via: f.via, Text: source(f.src, s), Depth: f.depth,
	}
	a.run(f, st, ex)
	return slices.Clone(a.res.Execs[start:])
}

// recordWrites remembers what ex writes to files. Text with unknown parts
// is remembered too, markers and all: a script run later is judged like
// bash -c code, where `rm -rf ~ $(date)` deletes home whatever the
// substitution prints. The path may hold unknowns as well ($x from
// $(mktemp)): the same variable expands to the same marker, so the write
// and the run still meet.
func (a *analyzer) recordWrites(ex *Exec) {
	var text string
	known := false
	switch ex.Name {
	case "echo", "printf":
		text, known = echoOutput(ex.Args)
	case "cat", "tee":
		if ex.Stdin != nil && ex.Stdin.HasText {
			text, known = ex.Stdin.Text, true
			if ex.Name == "tee" {
				for _, op := range ex.Args[1:] {
					if !strings.HasPrefix(op, "-") {
						a.remember(ResolvePath(ex.Dir, op), text, slices.Contains(ex.Args, "-a"))
					}
				}
			}
			if ex.Name == "cat" && len(ex.Args) > 1 {
				known = false
			}
		}
	}
	if !known {
		return
	}
	for _, r := range ex.Redirs {
		if r.Writes() && (r.Fd == "" || r.Fd == "1") && r.Target != "" {
			a.remember(ResolvePath(ex.Dir, r.Target), text, r.Op == ">>" || r.Op == "&>>")
		}
	}
}

func (a *analyzer) remember(path, text string, appendTo bool) {
	if path == "" || len(text) > maxValue {
		return
	}
	if a.written == nil {
		a.written = map[string]string{}
	}
	if appendTo {
		text = a.written[path] + text
	}
	a.written[path] = text
}

// writtenScript returns the content the command itself wrote to file.
func (a *analyzer) writtenScript(dir, file string) (string, bool) {
	text, ok := a.written[ResolvePath(dir, file)]
	return text, ok
}

// stop ends the analysis with a TooComplex hazard.
func (a *analyzer) stop(f *frame, text, detail string) {
	if !a.stopped {
		a.stopped = true
		a.res.Hazards = append(a.res.Hazards, Hazard{Kind: TooComplex, Text: text, Detail: detail, Via: f.via})
	}
}

// emit records ex as a command that runs.
func (a *analyzer) emit(f *frame, ex *Exec) {
	if len(a.res.Execs) >= maxExecs {
		a.stop(f, ex.Text, fmt.Sprintf("more than %d commands", maxExecs))
		return
	}
	a.res.Execs = append(a.res.Execs, ex)
	a.recordWrites(ex)
	if a.opts.Trace {
		line := "run: " + a.res.showArgs(ex.Args)
		if len(ex.Args) == 0 {
			line = "redirections only"
		}
		if len(ex.Via) > 0 {
			line += "   (via " + strings.Join(ex.Via, " > ") + ")"
		}
		if ex.Dir != "" && ex.Dir != a.opts.Dir {
			line += "   in " + a.res.Show(ex.Dir)
		}
		for _, r := range ex.Redirs {
			line += "   " + r.Fd + r.Op + " " + a.res.Show(r.Target)
		}
		a.tracef(f, "%s", line)
	}
}

func (r *Result) showArgs(args []string) string {
	out := make([]string, len(args))
	for i, s := range args {
		s = r.Show(s)
		if s == "" || strings.ContainsAny(s, " \t\n'\"") {
			s = fmt.Sprintf("%q", s)
		}
		out[i] = s
	}
	return strings.Join(out, " ")
}

// source is the text of node n in src.
func source(src string, n syntax.Node) string {
	start, end := int(n.Pos().Offset()), int(n.End().Offset())
	if start < 0 || end > len(src) || start > end {
		return src
	}
	return strings.TrimRight(src[start:end], ";& \t\n")
}

// with returns a copy of ex running args instead, reached through label.
func (ex *Exec) with(args []string, label string) *Exec {
	c := *ex
	c.Args = args
	c.Name = ""
	if len(args) > 0 {
		c.Name = CommandName(args[0])
	}
	c.Via = append(slices.Clip(ex.Via), label)
	c.Env = maps.Clone(ex.Env)
	return &c
}

// globQualifierRe is what a zsh glob qualifier list may hold: file types,
// permissions, owners, sizes and times, sort orders, [ranges], and the e
// qualifier's quoted code; no unquoted space or shell operator.
var globQualifierRe = &lazyregexp.Regexp{Expr: `^(?:[\w.\/@=*%:+\-^,\[\]{}<>!~]|'[^']*'|"[^"$\\]*")*$`}

// dropGlobQualifier removes a zsh glob qualifier list that starts at
// offset off ("(" right after a word) and ends the word. The code of an e
// qualifier is kept as a statement of its own, so that it is judged.
func dropGlobQualifier(src string, off int) (string, bool) {
	if off <= 0 || off >= len(src) || src[off] != '(' || strings.ContainsRune(" \t\n;|&()<>", rune(src[off-1])) {
		return "", false
	}
	end, depth, quote := -1, 0, byte(0)
	for i := off + 1; i < len(src) && end < 0; i++ {
		switch ch := src[i]; {
		case quote != 0:
			if ch == quote {
				quote = 0
			}
		case ch == '\'' || ch == '"':
			quote = ch
		case ch == '[':
			depth++
		case ch == ']':
			depth--
		case ch == ')' && depth <= 0:
			end = i
		}
	}
	if end < 0 || end+1 < len(src) && !strings.ContainsRune(" \t\n;|&)", rune(src[end+1])) {
		return "", false
	}
	body := src[off+1 : end]
	if !globQualifierRe.MatchString(body) {
		return "", false
	}
	out := src[:off] + src[end+1:]
	if code, ok := zshECode(body); ok {
		out += "\n" + code
	}
	return out, true
}

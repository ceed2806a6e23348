package shell

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// DefaultMaxDepth is how deeply nested shells (bash -c inside eval inside
// sh -c ...) are followed when Options.MaxDepth is 0. Deeper nesting is a
// TooDeep hazard: nothing legitimate nests that far.
const DefaultMaxDepth = 8

// maxExecs bounds the commands one analysis produces (loops over known
// items, xargs fan-out, function calls), maxSteps the statements it walks
// (nested loops and function calls multiply). Past either, the analysis
// stops with a TooComplex hazard instead of spending unbounded time.
const (
	maxExecs = 2000
	maxSteps = 100_000
)

// maxValue bounds a variable's value: x=$x$x doubles it at each step.
// Longer values become unknown.
const maxValue = 64 << 10

// Options tell Analyze where the command runs. The zero value analyses with
// an unknown working directory and an unknown home.
type Options struct {
	// Dir is the absolute directory the command starts in, "" if unknown.
	Dir string
	// Home is the user's home directory ($HOME and ~), "" if unknown.
	Home string
	// MaxDepth limits nested shells; 0 means DefaultMaxDepth.
	MaxDepth int
	// Trace asks for Result.Trace, a human account of the analysis. It
	// costs allocations, so the hook leaves it off.
	Trace bool
}

// Result is everything Analyze found.
type Result struct {
	// Execs are the commands that would run, in the order bash would start
	// them, wrappers removed (sudo rm -rf / gives one Exec for rm).
	Execs []*Exec
	// Hazards are dangers that are not a single command.
	Hazards []Hazard
	// Trace explains the analysis line by line when Options.Trace is set.
	Trace []string
	// Written holds the content of the files the command writes with
	// known text (echo … > f, cat > f <<EOF), by absolute path: a
	// configuration or script dropped and then handed to a program in the
	// same command is judged by what it holds.
	Written map[string]string
	// Assigned names the shell variables the command line assigns or
	// exports (X=1; export X=1; declare -x X=1), in order, once each:
	// a later program inherits an exported one.
	Assigned []string
	// Values holds the last value a plain assignment of the command line
	// gives each of Assigned's variables (X=v, export X=v), with a marker
	// where it cannot be known statically: what a program started later
	// inherits.
	Values map[string]string

	unknowns []Unknown
}

// Exec is one command that would run.
type Exec struct {
	// Args are the resolved words, Args[0] the command as written after
	// expansion (`\rm` gives "rm", `/bin/rm` stays "/bin/rm"). A word, or
	// part of one, that cannot be known statically holds a marker: see
	// Result.Parts and Known. Arguments that are code analysed separately
	// (the string of bash -c, the program of python -c) are blanked to "".
	Args []string
	// Name is the command's name for matching: the last path element of
	// Args[0], lower-cased (case-insensitive file systems run `RM` as rm),
	// without ".exe". It is "" when the name is not known statically.
	Name string
	// Dir is the working directory the command runs in: absolute, "" when
	// unknown, or a path under a marker (a directory reached by cd $x).
	Dir string
	// Env holds the variables set for this command only (`A=1 cmd`,
	// `env A=1 cmd`), with resolved values.
	Env map[string]string
	// Redirs are the command's redirections, including those of enclosing
	// compound commands ({ ...; } > f).
	Redirs []Redir
	// Stdin says where the command's standard input comes from, nil when it
	// is inherited.
	Stdin *Stdin
	// Via lists, outermost first, the wrappers and nested shells the command
	// was found through ("sudo", "bash -c", "xargs", "find -exec",
	// "python -c").
	Via []string
	// Text is the source of the simple command as written (inside its own
	// nested shell string for nested commands), for quoting in reasons.
	Text string
	// Sudo is set when a wrapper runs the command as another user.
	Sudo bool
	// Depth is the nesting depth: 0 for the command line itself.
	Depth int
	// Synthetic is set for commands derived from interpreter code
	// (shutil.rmtree(p) becomes rm -rf p).
	Synthetic bool
	// CodeLiterals are the string literals of the interpreter code this
	// command runs (python -c "open('.env')" gives ".env"), and CodeWrites
	// says whether that code looks like it writes or deletes files,
	// CodeLinks whether it makes a link (os.link, symlink, fs.linkSync,
	// perl's link), whose source is one of the literals.
	CodeLiterals []string
	CodeWrites   bool
	CodeLinks    bool
}

// Redir is one redirection.
type Redir struct {
	// Op is the operator as written: >, >>, <, <>, >|, &>, &>>, >&, <&, <<,
	// <<-, <<<.
	Op string
	// Fd is the explicit file descriptor ("2" in 2>), "" if none.
	Fd string
	// Target is the resolved word after the operator ("" for heredocs).
	Target string
}

// Writes reports whether the redirection opens its target for writing.
func (r Redir) Writes() bool {
	switch r.Op {
	case ">", ">>", ">|", "&>", "&>>", "<>":
		return true
	case ">&":
		// 2>&1 duplicates a descriptor; >&file writes a file.
		return !isFdNumber(r.Target)
	}
	return false
}

// Truncates reports whether the redirection empties its target first.
func (r Redir) Truncates() bool {
	switch r.Op {
	case ">", ">|", "&>":
		return true
	case ">&":
		return !isFdNumber(r.Target)
	}
	return false
}

// Reads reports whether the redirection reads its target file.
func (r Redir) Reads() bool {
	switch r.Op {
	case "<", "<>":
		return true
	case "<&":
		return !isFdNumber(r.Target)
	}
	return false
}

func isFdNumber(s string) bool {
	if s == "-" {
		return true
	}
	_, err := strconv.Atoi(s)
	return err == nil
}

// Stdin is where a command reads its standard input from.
type Stdin struct {
	// Producers are the commands piped into this one (a | b: a for b).
	Producers []*Exec
	// Text is the body of a heredoc or here-string; HasText tells an empty
	// body from none. It may hold markers.
	Text    string
	HasText bool
	// File is the target of a < redirection, "" if none.
	File string
}

// HazardKind is a kind of danger that is not a single command.
type HazardKind int

const (
	// ForkBomb: a function that starts itself in a pipe or in the
	// background, or interpreter code that forks in a loop.
	ForkBomb HazardKind = iota + 1
	// DynamicCode: a shell or interpreter runs code, or a command name, that
	// is not known statically. Sources and FromInput say where it comes
	// from; the policy decides (curl | sh is remote code execution).
	DynamicCode
	// ParseError: the text is not valid bash. Repaired is set when it
	// parsed after closing its open quotes and brackets.
	ParseError
	// TooDeep: nested shells beyond Options.MaxDepth.
	TooDeep
	// TooComplex: the analysis hit its size bound.
	TooComplex
	// InterpreterCode: python, node, perl, ruby or php code was analysed.
	// The analysis finds the usual calls (os.system, shutil.rmtree,
	// child_process, backticks, ...) but a program can hide anything.
	InterpreterCode
)

func (k HazardKind) String() string {
	switch k {
	case ForkBomb:
		return "fork-bomb"
	case DynamicCode:
		return "dynamic-code"
	case ParseError:
		return "parse-error"
	case TooDeep:
		return "too-deep"
	case TooComplex:
		return "too-complex"
	case InterpreterCode:
		return "interpreter-code"
	}
	return fmt.Sprintf("HazardKind(%d)", int(k))
}

// Hazard is a danger found in the structure of the command.
type Hazard struct {
	Kind HazardKind
	// Text is the offending source fragment.
	Text string
	// Detail says what was found, for reasons and traces.
	Detail string
	// Interpreter is the command that runs the dynamic code (sh, python,
	// eval, xargs), "" for an unknown command name.
	Interpreter string
	// Sources are the commands whose output becomes the code: the
	// producers of a pipe, the commands inside $(...) or <(...).
	Sources []*Exec
	// FromInput is set when the code comes from data read at run time
	// (xargs and parallel items, read, awk's input lines).
	FromInput bool
	// Repaired is set on a ParseError whose text parsed once its open
	// quotes and brackets were closed; the commands of the repaired text
	// are in Execs.
	Repaired bool
	// Via is the nesting the hazard was found through.
	Via []string
}

// UnknownKind says why part of a word cannot be known statically.
type UnknownKind int

const (
	// Variable: a variable not assigned in the command ($FOO).
	Variable UnknownKind = iota + 1
	// CommandOutput: the output of $(...) or `...`.
	CommandOutput
	// ProcessFile: the /dev/fd path of <(...) or >(...).
	ProcessFile
	// Input: data read at run time (xargs items, read, find's {}).
	Input
	// TempDir: $TMPDIR and friends, or $(mktemp): some temporary
	// directory.
	TempDir
	// OtherHome: ~user, another user's home directory.
	OtherHome
	// Computed: a value the analysis computed but that is only produced at
	// run time ($(pwd) gives the working directory); Name holds it.
	Computed
)

func (k UnknownKind) String() string {
	switch k {
	case Variable:
		return "variable"
	case CommandOutput:
		return "command output"
	case ProcessFile:
		return "process substitution"
	case Input:
		return "run-time input"
	case TempDir:
		return "temporary directory"
	case OtherHome:
		return "another user's home"
	case Computed:
		return "computed value"
	}
	return fmt.Sprintf("UnknownKind(%d)", int(k))
}

// Unknown is one value that cannot be known statically.
type Unknown struct {
	Kind UnknownKind
	// Name is the variable's name (Variable, TempDir) or the user's
	// (OtherHome).
	Name string
	// Execs are the commands inside the substitution (CommandOutput,
	// ProcessFile), already part of Result.Execs.
	Execs []*Exec
	// File is the file an Input's items are read from (xargs < list,
	// xargs -a list), "" if none or unknown.
	File string
}

// Part is a piece of a resolved word: known text, or one unknown value.
type Part struct {
	Text    string
	Unknown *Unknown
}

// Markers delimit an unknown value inside a resolved word: markOpen, the
// decimal index into Result.unknowns, markClose. They are private-use
// runes; Analyze replaces any the input itself holds, so they cannot be
// forged.
const (
	markOpen  = '\uE000'
	markClose = '\uE001'
	markRunes = "\uE000\uE001"
)

// Known reports whether s holds no unknown part.
func Known(s string) bool {
	return !strings.ContainsAny(s, markRunes)
}

// Parts splits a resolved word into known text and unknown values. A word
// without markers gives one Part (none for ""). Marker debris (a marker
// that field splitting or a ${x:1} cut in two) becomes an Unknown of kind
// Variable: it is never read as known text.
func (r *Result) Parts(s string) []Part {
	var parts []Part
	for s != "" {
		i := strings.IndexAny(s, markRunes)
		if i < 0 {
			parts = append(parts, Part{Text: s})
			break
		}
		if i > 0 {
			parts = append(parts, Part{Text: s[:i]})
			s = s[i:]
		}
		if strings.HasPrefix(s, string(markOpen)) {
			rest := s[len(string(markOpen)):]
			if j := strings.IndexRune(rest, markClose); j >= 0 {
				if n, err := strconv.Atoi(rest[:j]); err == nil && n >= 0 && n < len(r.unknowns) {
					parts = append(parts, Part{Unknown: &r.unknowns[n]})
					s = rest[j+len(string(markClose)):]
					continue
				}
			}
		}
		// Debris: skip to past the next marker rune.
		_, size := firstRune(s)
		s = s[size:]
		if j := strings.IndexAny(s, markRunes); j == 0 {
			_, size = firstRune(s)
			s = s[size:]
		}
		parts = append(parts, Part{Unknown: &Unknown{Kind: Variable, Name: "?"}})
	}
	return parts
}

// Rest returns s without its first Part (the text after a leading unknown
// value, or after the leading known text), markers intact.
func (r *Result) Rest(s string) string {
	if strings.HasPrefix(s, string(markOpen)) {
		if j := strings.IndexRune(s, markClose); j >= 0 {
			return s[j+len(string(markClose)):]
		}
		return ""
	}
	if i := strings.IndexAny(s, markRunes); i >= 0 {
		return s[i:]
	}
	return ""
}

// Substitute replaces the Computed values in s by the values the analysis
// computed for them; changed reports whether there were any.
func (r *Result) Substitute(s string) (out string, changed bool) {
	if Known(s) {
		return s, false
	}
	var b strings.Builder
	rest := s
	for rest != "" {
		i := strings.IndexRune(rest, markOpen)
		if i < 0 {
			b.WriteString(rest)
			break
		}
		b.WriteString(rest[:i])
		rest = rest[i:]
		j := strings.IndexRune(rest, markClose)
		if j < 0 {
			b.WriteString(rest)
			break
		}
		marker := rest[:j+len(string(markClose))]
		rest = rest[len(marker):]
		if n, err := strconv.Atoi(marker[len(string(markOpen)):j]); err == nil && n >= 0 && n < len(r.unknowns) && r.unknowns[n].Kind == Computed {
			b.WriteString(r.unknowns[n].Name)
			changed = true
			continue
		}
		b.WriteString(marker)
	}
	return b.String(), changed
}

// OutputTakers returns the commands that take ex's standard output instead
// of it being shown or written to a file: those it is piped into, and
// those whose words, environment, here-string or heredoc hold it ($(...)
// and backticks, also through a variable assigned from one).
func (r *Result) OutputTakers(ex *Exec) []*Exec {
	var out []*Exec
	holds := func(word string) bool { return r.holdsOutput(word, ex) }
	for _, e := range r.Execs {
		switch {
		case e == ex:
		case e.Stdin != nil && slices.Contains(e.Stdin.Producers, ex),
			e.Stdin != nil && e.Stdin.HasText && holds(e.Stdin.Text),
			slices.ContainsFunc(e.Args, holds),
			slices.ContainsFunc(slices.Collect(maps.Values(e.Env)), holds),
			slices.ContainsFunc(e.Redirs, func(rd Redir) bool { return holds(rd.Target) }):
			out = append(out, e)
		}
	}
	return out
}

// Captured reports whether ex's standard output is kept in a variable the
// command line assigns (T=$(gh auth token), export T="$(...)"). What later
// reads that variable is among OutputTakers (the marker travels with the
// value), so a capture alone shows nothing. False when the analysis
// stopped recording values (more than 256 variables): then the output
// counts as shown.
func (r *Result) Captured(ex *Exec) bool {
	for _, v := range r.Values {
		if r.holdsOutput(v, ex) {
			return true
		}
	}
	return false
}

func (r *Result) holdsOutput(word string, ex *Exec) bool {
	for _, u := range r.Unknowns(word) {
		if u.Kind == CommandOutput && slices.Contains(u.Execs, ex) {
			return true
		}
	}
	return false
}

// StdoutDiscarded reports whether ex's standard output ends in /dev/null
// after its redirections, applied in order (> /dev/null, &> /dev/null,
// 2>/dev/null >&2). A redirection whose target is not known statically
// discards nothing.
func (ex *Exec) StdoutDiscarded() bool {
	out, errOut := "", ""
	for _, rd := range ex.Redirs {
		switch {
		case rd.Op == "&>" || rd.Op == "&>>":
			out, errOut = rd.Target, rd.Target
		case rd.Op == ">&" && (rd.Fd == "" || rd.Fd == "1") && rd.Target == "2":
			out = errOut
		case rd.Op == ">&" && rd.Fd == "2" && rd.Target == "1":
			errOut = out
		case rd.Writes() && (rd.Fd == "" || rd.Fd == "1"):
			out = rd.Target
		case rd.Writes() && rd.Fd == "2":
			errOut = rd.Target
		}
	}
	return out == "/dev/null"
}

// Unknowns returns the unknown values in s, in order.
func (r *Result) Unknowns(s string) []*Unknown {
	if Known(s) {
		return nil
	}
	var out []*Unknown
	for _, p := range r.Parts(s) {
		if p.Unknown != nil {
			out = append(out, p.Unknown)
		}
	}
	return out
}

// Show renders s for people: known text as is, unknown values as
// ⟨$NAME⟩, ⟨$(...)⟩, ⟨input⟩, ⟨$TMPDIR⟩ and so on.
func (r *Result) Show(s string) string {
	if Known(s) {
		return s
	}
	var b strings.Builder
	for _, p := range r.Parts(s) {
		if p.Unknown == nil {
			b.WriteString(p.Text)
			continue
		}
		switch p.Unknown.Kind {
		case Variable, TempDir:
			b.WriteString("⟨$" + p.Unknown.Name + "⟩")
		case CommandOutput:
			b.WriteString("⟨$(...)⟩")
		case ProcessFile:
			b.WriteString("⟨<(...)⟩")
		case Input:
			b.WriteString("⟨input⟩")
		case OtherHome:
			b.WriteString("⟨~" + p.Unknown.Name + "⟩")
		case Computed:
			b.WriteString("⟨" + p.Unknown.Name + "⟩")
		}
	}
	return b.String()
}

func (r *Result) newUnknown(u Unknown) string {
	r.unknowns = append(r.unknowns, u)
	return string(markOpen) + strconv.Itoa(len(r.unknowns)-1) + string(markClose)
}

func firstRune(s string) (rune, int) {
	for _, r := range s {
		return r, len(string(r))
	}
	return 0, 0
}

// CommandName normalises a command word for matching: its last path element
// (either slash), lower-cased, without a trailing ".exe". It returns "" for
// a word with an unknown or glob last element, or an empty one.
func CommandName(word string) string {
	base := word
	if i := strings.LastIndexAny(base, `/\`); i >= 0 {
		base = base[i+1:]
	}
	if base == "" || !Known(base) || strings.ContainsAny(base, "*?[") && base != "[" { // [ is test, not a glob
		return ""
	}
	base = strings.ToLower(base)
	base = strings.TrimSuffix(base, ".exe")
	return base
}

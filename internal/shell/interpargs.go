package shell

import (
	"slices"
	"strings"
)

// interpRead is what an interpreter's arguments say it runs: the code of
// its one-liner options (in order), the arguments that hold it (blanked
// before the command is judged), else the index of its script file (-1
// for none), else whether it reads its code from standard input.
type interpRead struct {
	codes  []string
	blank  []int
	script int
	stdin  bool
}

// interpSyntax is how one language's command line names the code it runs.
// Its options are read by ParseArgs with spec; roles says what the options
// that matter carry. To add an interpreter: a name in Interpreter, an entry
// in interpSyntaxes (the spec, with every option that takes a value, so
// that the value is not taken for the script), its call patterns.
type interpSyntax struct {
	lang  string
	spec  OptSpec
	roles []interpRole
	// first ends the reading at the first option with a role (python's -c
	// and -m end its options; pwsh's -Command, -EncodedCommand, -File).
	first bool
	// operand is what the first operand is (the first not starting with
	// "-" for php).
	operand operandRole
	// dashStdin: a first operand "-" (not after "--") is standard input.
	dashStdin bool
	// stdin: with no code and no script, the code comes on standard input,
	// unless a word starts with notStdin (python -m; kept as the loop it
	// replaced read it: -Bm does not count).
	stdin    bool
	notStdin string
	// evalSub: deno eval: after this subcommand, the last word is code.
	evalSub string
}

// interpRole is what an option's value is.
type interpRole struct {
	name string
	role optRole
}

type optRole uint8

const (
	roleCode     optRole = iota + 1 // code (python -c, node -e, perl -e)
	roleCodeRest                    // code with every word after it (pwsh -Command)
	roleStdin                       // roleCodeRest, whose value "-" is standard input (pwsh -Command -)
	roleEncoded                     // base64 of UTF-16LE code (pwsh -EncodedCommand)
	roleScript                      // the script file (pwsh -File)
	roleProgram                     // a program file: no operand is code (awk -f)
	roleModule                      // a module: no script (python -m)
)

type operandRole uint8

const (
	operandScript        operandRole = iota + 1 // the script file
	operandCode                                 // the code (awk's program)
	operandCodeRest                             // code with every word after it (pwsh)
	operandScriptNotDash                        // the script: the first operand not starting with "-" (php)
)

// pwshRoles are the spellings of -Command, -EncodedCommand and -File that
// pwsh is read with (after - or /, in any case): each a prefix of the name,
// the first of the three winning (-c is -Command, -e -EncodedCommand),
// listed rather than found by OptSpec.Abbrev, which would find -c
// ambiguous and take -exe for -ExecutionPolicy.
var pwshRoles = []interpRole{
	{"command", roleStdin}, {"c", roleCodeRest}, {"co", roleCodeRest}, {"com", roleCodeRest}, {"comm", roleCodeRest},
	{"comma", roleCodeRest}, {"comman", roleCodeRest},
	{"e", roleEncoded}, {"en", roleEncoded}, {"enc", roleEncoded}, {"enco", roleEncoded}, {"encod", roleEncoded},
	{"encode", roleEncoded}, {"encoded", roleEncoded}, {"encodedc", roleEncoded}, {"encodedco", roleEncoded},
	{"encodedcom", roleEncoded}, {"encodedcomm", roleEncoded}, {"encodedcomma", roleEncoded},
	{"encodedcomman", roleEncoded}, {"encodedcommand", roleEncoded}, {"ec", roleEncoded},
	{"f", roleScript}, {"fi", roleScript}, {"fil", roleScript}, {"file", roleScript},
}

// interpSyntaxes is the table of interpreters, one entry per language.
var interpSyntaxes = []interpSyntax{
	{
		lang:  "python",
		spec:  OptSpec{Short: "c:m:W:X:", Long: []string{"check-hash-based-pycs="}, StopAtOperand: true},
		roles: []interpRole{{"c", roleCode}, {"m", roleModule}},
		first: true, operand: operandScript, dashStdin: true, stdin: true, notStdin: "-m",
	},
	{
		// node's options are whole words (-pe is --print --eval).
		lang: "node",
		spec: OptSpec{SingleDash: true, StopAtOperand: true, Long: []string{"e=", "eval=", "p=", "print=", "pe=", "ep=",
			"r=", "require=", "import=", "loader=", "input-type=", "C=", "conditions="}},
		roles:   []interpRole{{"e", roleCode}, {"eval", roleCode}, {"p", roleCode}, {"print", roleCode}, {"pe", roleCode}, {"ep", roleCode}},
		operand: operandScript, dashStdin: true, stdin: true,
	},
	{lang: "deno", evalSub: "eval"},
	{
		// -e, -E and -I take the rest of their cluster or the next word;
		// -d, -D, -F, -i, -m, -M and -x the rest of their cluster. -0, -l
		// and -C take only digits (or -C's letters), read here as flags of
		// their own (-lne is -l -n -e), like every other switch.
		lang:    "perl",
		spec:    OptSpec{Short: "e:E:I:d::D::F::i::m::M::x::", StopAtOperand: true},
		roles:   []interpRole{{"e", roleCode}, {"E", roleCode}},
		operand: operandScript, dashStdin: true, stdin: true,
	},
	{
		lang:    "ruby",
		spec:    OptSpec{Short: "e:I:r:C:E:F::i::W::K::x::0::T::", StopAtOperand: true},
		roles:   []interpRole{{"e", roleCode}},
		operand: operandScript, dashStdin: true, stdin: true,
	},
	{
		// php's options are whole words and do not end at an operand.
		lang: "php",
		spec: OptSpec{SingleDash: true, Long: []string{"r=", "R=", "B=", "E=", "f=", "c=", "d=", "z=", "t=",
			"run=", "process-code=", "process-begin=", "process-end=", "file=", "php-ini=", "define=", "zend-extension=", "docroot="}},
		roles: []interpRole{{"r", roleCode}, {"R", roleCode}, {"B", roleCode}, {"E", roleCode}, {"f", roleScript},
			{"run", roleCode}, {"process-code", roleCode}, {"process-begin", roleCode}, {"process-end", roleCode}, {"file", roleScript}},
		operand: operandScriptNotDash,
	},
	{
		lang: "pwsh",
		spec: OptSpec{SingleDash: true, Slash: true, FoldLong: true, StopAtOperand: true, Long: []string{
			"command=", "c=", "co=", "com=", "comm=", "comma=", "comman=",
			"e=", "en=", "enc=", "enco=", "encod=", "encode=", "encoded=", "encodedc=", "encodedco=", "encodedcom=",
			"encodedcomm=", "encodedcomma=", "encodedcomman=", "encodedcommand=", "ec=",
			"f=", "fi=", "fil=", "file=",
			"executionpolicy=", "ep=", "ex=", "windowstyle=", "w=", "workingdirectory=", "wd=", "configurationname=",
			"settingsfile=", "inputformat=", "outputformat=", "of=", "if=", "version=", "v=", "custompipename="}},
		roles: pwshRoles,
		first: true, operand: operandCodeRest, dashStdin: true,
	},
	{
		lang: "awk",
		// -i/--include loads a library: the program is still the first
		// operand (gawk). -W takes a value (gawk, mawk: -W posix).
		spec: OptSpec{Short: "f:E:i:e:v:F:l:W:", StopAtOperand: true,
			Long: []string{"file=", "exec=", "include=", "source=", "assign=", "field-separator=", "load="}},
		roles: []interpRole{{"e", roleCode}, {"source", roleCode}, {"f", roleProgram}, {"E", roleProgram},
			{"file", roleProgram}, {"exec", roleProgram}},
		operand: operandCode,
	},
}

// interpArgs reads an interpreter's arguments (without its name).
func interpArgs(lang string, args []string) interpRead {
	r := interpRead{script: -1}
	for i := range interpSyntaxes {
		if syn := &interpSyntaxes[i]; syn.lang == lang {
			syn.read(args, &r)
			break
		}
	}
	return r
}

func (syn *interpSyntax) read(args []string, r *interpRead) {
	if syn.evalSub != "" {
		if len(args) >= 2 && args[0] == syn.evalSub {
			r.code(len(args)-1, args[len(args)-1])
		}
		return
	}
	p := parseArgs(args, &syn.spec, true)
	stop, program := syn.readOpts(args, p, r)
	if !stop && !program {
		syn.readOperand(args, p, r)
	}
	if len(r.codes) > 0 {
		r.script, r.stdin = -1, false
		return
	}
	// A "--" with nothing after it names no script, and reads no stdin.
	if syn.stdin && r.script < 0 && (stop || p.DashDash < 0) && !syn.notStdinWord(args) {
		r.stdin = true
	}
}

// readOpts takes what the options carry. stop: an option ended the
// reading (first); program: an option names a program file.
func (syn *interpSyntax) readOpts(args []string, p Args, r *interpRead) (stop, program bool) {
	for k, o := range p.Opts {
		role := syn.role(o)
		if role == 0 {
			continue
		}
		r.take(args, role, o, p.at[k])
		program = program || role == roleProgram
		if syn.first {
			return true, program
		}
	}
	return false, program
}

// take takes what the option o, whose value args[at] holds, carries.
func (r *interpRead) take(args []string, role optRole, o Opt, at int) {
	switch {
	case !o.HasValue:
	case role == roleStdin && o.Value == "-":
		r.stdin = true
	case role == roleCodeRest || role == roleStdin:
		r.codeRest(args, o.Value, at)
	case role == roleEncoded:
		r.code(at, decodePwsh(o.Value))
	case role == roleCode:
		r.code(at, o.Value)
	case role == roleScript:
		r.script = at
	}
}

// role returns what the option o carries, 0 for nothing.
func (syn *interpSyntax) role(o Opt) optRole {
	if !o.Known {
		return 0
	}
	for _, x := range syn.roles {
		if x.name == o.Name {
			return x.role
		}
	}
	return 0
}

// readOperand reads the first operand: the script, or the code.
func (syn *interpSyntax) readOperand(args []string, p Args, r *interpRead) {
	if len(r.codes) > 0 || len(p.Operands) == 0 {
		return
	}
	first := len(args) - len(p.Operands) // the operands are the last words
	switch {
	case syn.operand == operandScriptNotDash:
		r.script = firstNotDash(args, p)
	case p.Operands[0] == "-" && p.DashDash != 0 && syn.dashStdin:
		r.stdin = true
	case syn.operand == operandScript:
		r.script = first
	case syn.operand == operandCode:
		r.code(first, args[first])
	case syn.operand == operandCodeRest:
		r.codeRest(args, args[first], first)
	}
}

// firstNotDash returns the index of the first operand not starting with
// "-" (-1 for none): a word that is not an option's value.
func firstNotDash(args []string, p Args) int {
	for _, s := range p.Operands {
		if strings.HasPrefix(s, "-") {
			continue
		}
	word:
		for i, w := range args {
			if w != s {
				continue
			}
			if slices.Contains(p.at, i) {
				continue word
			}
			return i
		}
	}
	return -1
}

func (syn *interpSyntax) notStdinWord(args []string) bool {
	if syn.notStdin == "" {
		return false
	}
	for _, w := range args {
		if strings.HasPrefix(w, syn.notStdin) {
			return true
		}
	}
	return false
}

// code takes code held by the argument at i.
func (r *interpRead) code(i int, code string) {
	r.codes = append(r.codes, code)
	r.blank = append(r.blank, i)
}

// codeRest takes as code value, held by the argument at, and every word
// after it.
func (r *interpRead) codeRest(args []string, value string, at int) {
	if args[at] == value {
		r.codes = append(r.codes, strings.Join(args[at:], " "))
	} else {
		r.codes = append(r.codes, strings.Join(append([]string{value}, args[at+1:]...), " "))
	}
	for i := at; i < len(args); i++ {
		r.blank = append(r.blank, i)
	}
}

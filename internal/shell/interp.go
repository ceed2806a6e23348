package shell

import (
	"encoding/base64"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"

	"github.com/gemini-guard/gemini-guard/internal/lazyregexp"
)

// Interpreter names the language of an interpreter command (CommandName):
// python, node, deno, perl, ruby, php or awk; "" for anything else.
func Interpreter(name string) string {
	switch name {
	case "node", "nodejs", "bun":
		return "node"
	case "perl", "perl5":
		return "perl"
	case "ruby", "jruby", "truffleruby", "irb", "jirb":
		return "ruby"
	case "php", "php-cli":
		return "php"
	case "awk", "gawk", "mawk", "nawk", "busybox-awk":
		return "awk"
	case "deno":
		return "deno"
	case "pwsh", "powershell", "pwsh-preview":
		return "pwsh"
	}
	if isPythonName(name) {
		return "python"
	}
	return ""
}

// decodePwsh decodes pwsh -EncodedCommand (base64 of UTF-16LE); text that
// does not decode is returned as it is.
func decodePwsh(s string) string {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil || len(b)%2 != 0 {
		return s
	}
	u := make([]uint16, len(b)/2)
	for i := range u {
		u[i] = uint16(b[2*i]) | uint16(b[2*i+1])<<8
	}
	return string(utf16.Decode(u))
}

// isPythonName matches ^(python|pypy)(\d+(\.\d+)?)?[mtw]?$ (python3,
// python3.12, pypy3, python3.13t). It is code rather than a regexp because
// every command of every call asks, and compiling the regexp would cost
// more than the rest of a typical command's analysis.
func isPythonName(name string) bool {
	rest, ok := strings.CutPrefix(name, "python")
	if !ok {
		if rest, ok = strings.CutPrefix(name, "pypy"); !ok {
			return false
		}
	}
	digits := func(s string) (string, bool) {
		i := 0
		for i < len(s) && '0' <= s[i] && s[i] <= '9' {
			i++
		}
		return s[i:], i > 0
	}
	if r, ok := digits(rest); ok {
		rest = r
		if r, ok := strings.CutPrefix(rest, "."); ok {
			if r, ok := digits(r); ok {
				rest = r
			}
		}
	}
	return rest == "" || len(rest) == 1 && strings.ContainsRune("mtw", rune(rest[0]))
}

// interpreter finds the code an interpreter runs: its one-liner options,
// its script file, or its standard input.
func (a *analyzer) interpreter(f *frame, st *state, ex *Exec, lang string) {
	args := ex.Args[1:]
	r := interpArgs(lang, args)
	blanked := slices.Clone(ex.Args)
	for _, i := range r.blank {
		blanked[i+1] = ""
	}
	ex.Args = blanked
	a.emit(f, ex)
	for _, code := range r.codes {
		a.interpCode(f, st, ex, lang, code, ex.Name+" code")
	}
	if r.script >= 0 {
		a.scriptFile(f, st, ex, args[r.script], ex.Name, lang)
	}
	if r.stdin {
		a.stdinCode(f, st, ex, lang)
	}
}

// callPattern is a function of an interpreter whose arguments matter.
type callPattern struct {
	kind callKind
	re   *lazyregexp.Regexp
}

type callKind int

const (
	callShell     callKind = iota + 1 // the argument is shell code (or an argv list)
	callArgv                          // the arguments are a program and its arguments
	callRemoveAll                     // recursive delete of the argument
	callRemove                        // delete of the argument
	callRemoveOpt                     // delete, recursive if "recursive" is among the options
)

// A call pattern is callStart, the function names as alternatives, then
// callEnd: a call with parentheses; or bareCallEnd: also without (ruby's
// and perl's `system "cmd"`). Constants, so that the expressions are laid
// out by the compiler and each is compiled on first use (lazyregexp): most
// commands run no interpreter, and one runs one language.
const (
	callStart   = `(?:^|[^\w$])(?:`
	callEnd     = `)\s*(\()`
	bareCallEnd = `)\s*(\(|\s)`
)

var pythonCalls = []callPattern{
	{kind: callShell, re: &lazyregexp.Regexp{Expr: callStart + `os\.system|os\.popen|subprocess\.(?:getoutput|getstatusoutput|run|call|check_call|check_output|Popen)|commands\.getoutput|system|Popen|check_output|pty\.spawn` + callEnd}},
	{kind: callArgv, re: &lazyregexp.Regexp{Expr: callStart + `os\.exec[lv]p?e?|os\.spawn[lv]p?e?|os\.posix_spawnp?` + callEnd}},
	{kind: callRemoveAll, re: &lazyregexp.Regexp{Expr: callStart + `shutil\.rmtree|rmtree` + callEnd}},
	{kind: callRemove, re: &lazyregexp.Regexp{Expr: callStart + `os\.remove|os\.unlink` + callEnd}},
}

var nodeCalls = []callPattern{
	{kind: callShell, re: &lazyregexp.Regexp{Expr: callStart + `execSync|exec|execaCommand(?:Sync)?` + callEnd}},
	{kind: callArgv, re: &lazyregexp.Regexp{Expr: callStart + `spawnSync|spawn|execFileSync|execFile|execa(?:Sync)?` + callEnd}},
	{kind: callRemoveOpt, re: &lazyregexp.Regexp{Expr: callStart + `rmSync|rm|rmdirSync|rmdir|promises\.rm` + callEnd}},
	{kind: callRemoveAll, re: &lazyregexp.Regexp{Expr: callStart + `rimraf(?:\.sync)?|removeSync|remove|emptyDirSync|emptyDir|del(?:Sync)?` + callEnd}},
	{kind: callRemove, re: &lazyregexp.Regexp{Expr: callStart + `unlinkSync|unlink` + callEnd}},
}

var denoCalls = []callPattern{
	{kind: callArgv, re: &lazyregexp.Regexp{Expr: callStart + `Deno\.Command|Deno\.run` + callEnd}},
	{kind: callRemoveOpt, re: &lazyregexp.Regexp{Expr: callStart + `Deno\.removeSync|Deno\.remove` + callEnd}},
}

var rubyCalls = []callPattern{
	{kind: callShell, re: &lazyregexp.Regexp{Expr: callStart + `system|exec|spawn|IO\.popen|Open3\.\w+|Kernel\.system|Kernel\.exec|PTY\.spawn` + bareCallEnd}},
	{kind: callRemoveAll, re: &lazyregexp.Regexp{Expr: callStart + `FileUtils\.(?:rm_rf|rm_r|remove_dir|remove_entry(?:_secure)?|rmtree)|rm_rf|rm_r` + callEnd}},
	{kind: callRemove, re: &lazyregexp.Regexp{Expr: callStart + `FileUtils\.(?:rm|rm_f|remove|safe_unlink)|File\.(?:delete|unlink)` + callEnd}},
}

var perlCalls = []callPattern{
	{kind: callShell, re: &lazyregexp.Regexp{Expr: callStart + `system|exec|open` + bareCallEnd}},
	{kind: callRemoveAll, re: &lazyregexp.Regexp{Expr: callStart + `rmtree|remove_tree|File::Path::rmtree` + bareCallEnd}},
	{kind: callRemove, re: &lazyregexp.Regexp{Expr: callStart + `unlink` + bareCallEnd}},
}

var phpCalls = []callPattern{
	{kind: callShell, re: &lazyregexp.Regexp{Expr: callStart + `system|exec|shell_exec|passthru|popen|proc_open` + callEnd}},
	{kind: callRemove, re: &lazyregexp.Regexp{Expr: callStart + `unlink` + callEnd}},
}

var awkCalls = []callPattern{
	{kind: callShell, re: &lazyregexp.Regexp{Expr: callStart + `system` + callEnd}},
}

// interpCalls returns, for a language, the calls whose arguments matter.
func interpCalls(lang string) []callPattern {
	switch lang {
	case "python":
		return pythonCalls
	case "node":
		return nodeCalls
	case "deno":
		return denoCalls
	case "ruby":
		return rubyCalls
	case "perl":
		return perlCalls
	case "php":
		return phpCalls
	case "awk":
		return awkCalls
	}
	return nil
}

var (
	homeExprRe = &lazyregexp.Regexp{Expr: `^(?:os\.environ\[\s*["']HOME["']\s*\]|os\.(?:getenv|environ\.get)\(\s*["']HOME["']\s*\)|(?:pathlib\.)?Path\.home\(\)|os\.path\.expanduser\(\s*["']~/?["']\s*\)|(?:os|require\(["']os["']\))\.homedir\(\)|process\.env\.HOME|ENV\[["']HOME["']\]|ENV\.fetch\(["']HOME["']\)|Dir\.home|\$ENV\{HOME\}|getenv\(["']HOME["']\)|\$_SERVER\[["']HOME["']\])`}
	forkLoopRe = &lazyregexp.Regexp{Expr: `(?s)(?:\bwhile\b|\bloop\b|\buntil\b|for\s*\(\s*;\s*;\s*\)|\bfor\b[^\n]{0,60}\brange\()[^\n]{0,120}\bfork\b|\bfork\b[^\n]{0,40}\b(?:while|until)\b`}
	// linkHintRe finds the calls that make a hard or symbolic link:
	// os.link, os.symlink, Path.hardlink_to, fs.linkSync, File.link,
	// FileUtils.ln, perl's and php's link and symlink.
	linkHintRe  = &lazyregexp.Regexp{Expr: `\b(?:os\.(?:sym)?link|(?:hard|sym)link_to|(?:sym)?link(?:Sync)?\s*\(|File\.(?:sym)?link|FileUtils\.ln\w*|(?:sym)?link\s+["'$(])`}
	writeHintRe = &lazyregexp.Regexp{Expr: `open\s*\((?:[^()]|\([^()]*\))*["'](?:[wax]\+?b?|r\+)["']|write_?(?:text|bytes|FileSync|File)|appendFile|File\.write|>>|\bprint\s*\{|fputs|file_put_contents|os\.(?:remove|unlink|rename|replace)|shutil\.(?:move|copy\w*|rmtree)|unlink|rmSync|rm_rf|rename`}
)

// interpCode finds what interpreter code does: the shell commands it runs,
// the files it deletes, the files it names, and fork loops.
func (a *analyzer) interpCode(f *frame, st *state, ex *Exec, lang, code, label string) {
	code, _ = a.res.Substitute(code)
	if a.unknownCode(f, ex, code) {
		return
	}
	if f.depth+1 > a.maxDepth {
		a.res.Hazards = append(a.res.Hazards, Hazard{Kind: TooDeep, Text: ex.Text, Via: f.via, Detail: "code nested too deeply"})
		return
	}
	a.tracef(f, "%s: %s", label, a.res.Show(code))
	if lang != "awk" {
		a.res.Hazards = append(a.res.Hazards, Hazard{Kind: InterpreterCode, Text: ex.Text, Via: f.via, Interpreter: ex.Name,
			Detail: ex.Name + " runs code that is analysed only for its usual dangerous calls"})
	}
	lits := stringLiterals(code, lang)
	ex.CodeLiterals = append(ex.CodeLiterals, literalValues(lits)...)
	ex.CodeLiterals = append(ex.CodeLiterals, homeJoined(code, lits)...)
	if mayWrite(code) && writeHintRe.MatchString(code) {
		ex.CodeWrites = true
	}
	if strings.Contains(code, "link") && linkHintRe.MatchString(code) {
		ex.CodeLinks = true
	}
	if strings.Contains(code, "fork") && forkLoopRe.MatchString(code) { // every match holds "fork"; the regexp costs ~2 ms to compile cold
		a.res.Hazards = append(a.res.Hazards, Hazard{Kind: ForkBomb, Text: ex.Text, Via: f.via, Detail: ex.Name + " code forks in a loop"})
	}
	if lang == "pwsh" {
		a.pwshDeletes(f, st, ex, code, label)
	}
	for _, cp := range interpCalls(lang) {
		for _, m := range cp.re.FindAllStringSubmatchIndex(code, -1) {
			if inLiteral(lits, m[2]) {
				continue // "system(" inside a string is text
			}
			name := strings.TrimSpace(code[m[0]:m[2]])
			name = strings.TrimLeft(name, "=(;{,!&|. \t")
			a.interpCall(f, st, ex, lang, code, lits, cp.kind, name, m[3], label)
		}
	}
	a.codeCommands(f, st, ex, lang, code, lits, label)
}

// unknownCode reports whether code is one value not known statically (a
// DynamicCode hazard, added here).
func (a *analyzer) unknownCode(f *frame, ex *Exec, code string) bool {
	if Known(code) {
		return false
	}
	parts := a.res.Parts(code)
	if len(parts) != 1 || parts[0].Unknown == nil {
		return false
	}
	u := parts[0].Unknown
	h := Hazard{Kind: DynamicCode, Text: ex.Text, Via: f.via, Interpreter: ex.Name, Sources: u.Execs, FromInput: u.Kind == Input,
		Detail: ex.Name + " runs code that is not known statically: " + a.res.Show(code)}
	a.res.Hazards = append(a.res.Hazards, h)
	a.tracef(f, "unknown: %s", h.Detail)
	return true
}

// codeCommands judges the shell commands interpreter code holds outside
// calls: backticks, qx, awk's pipes, and code that is a command line.
func (a *analyzer) codeCommands(f *frame, st *state, ex *Exec, lang, code string, lits []literal, label string) {
	// Backticks, %x() and qx() run shell code in ruby, perl and php.
	if lang == "ruby" || lang == "perl" || lang == "php" {
		for _, l := range lits {
			if l.quote == '`' {
				a.nested(f, st, ex, l.val, label+" `...`", markSynthetic)
			}
		}
		for _, s := range quotedCommands(code) {
			a.nested(f, st, ex, s, label+" qx", markSynthetic)
		}
	}
	if lang == "awk" {
		a.awkPipes(f, st, ex, code, lits, label)
	}
	// Code that is itself a shell command line (node -e "rm -rf /") is
	// judged as one: the agent meant it to run.
	if lang != "awk" {
		if file, err := parse(code); err == nil && len(file.Stmts) > 0 {
			hz := len(a.res.Hazards)
			a.nested(f, st, ex, code, label+" as shell", markSynthetic)
			a.res.Hazards = a.res.Hazards[:hz]
		}
	}
}

func markSynthetic(c *Exec) { c.Synthetic = true }

// interpCall handles one call found in interpreter code; at is the offset
// just after the call's name and its opening parenthesis or blank.
func (a *analyzer) interpCall(f *frame, st *state, ex *Exec, lang, code string, lits []literal, kind callKind, name string, at int, label string) {
	args, dynamic := callArgs(code, lits, at)
	via := label + " " + name
	if len(args) == 0 {
		if dynamic {
			a.dynamicCall(f, st, ex, lang, kind, name, via)
		}
		return
	}
	switch kind {
	case callShell:
		if lang == "perl" && name == "open" {
			a.perlOpen(f, st, ex, args, via)
			return
		}
		if len(args) == 1 {
			a.nested(f, st, ex, args[0], via, markSynthetic)
			return
		}
		a.synthetic(f, st, ex, args, via)
	case callArgv:
		if lang == "python" && strings.HasPrefix(name, "os.exec") || strings.HasPrefix(name, "os.spawn") {
			// os.execvp("rm", ["rm", "-rf", "/"]): the program, then argv.
			if len(args) > 1 {
				args = args[1:]
			}
		}
		if len(args) == 1 && strings.ContainsAny(args[0], " \t") {
			a.nested(f, st, ex, args[0], via, markSynthetic)
			return
		}
		a.synthetic(f, st, ex, args, via)
	case callRemoveAll:
		a.synthetic(f, st, ex, []string{"rm", "-rf", args[0]}, via)
	case callRemove:
		a.synthetic(f, st, ex, []string{"rm", args[0]}, via)
	case callRemoveOpt:
		end := matching(code, at-1, '(', ')')
		if end < at {
			end = len(code)
		}
		if strings.Contains(code[at:end], "recursive") {
			a.synthetic(f, st, ex, []string{"rm", "-rf", args[0]}, via)
		} else {
			a.synthetic(f, st, ex, []string{"rm", args[0]}, via)
		}
	}
}

// dynamicCall handles a call whose first argument is not a literal.
func (a *analyzer) dynamicCall(f *frame, st *state, ex *Exec, lang string, kind callKind, name, via string) {
	if kind == callShell || kind == callArgv {
		h := Hazard{Kind: DynamicCode, Text: ex.Text, Via: f.via, Interpreter: ex.Name + " " + name,
			Detail: ex.Name + " code calls " + name + " with a command that is not known statically"}
		if lang == "awk" {
			// awk's system($0) or system(cmd): the command comes from
			// the input awk reads.
			h.FromInput = true
		}
		a.res.Hazards = append(a.res.Hazards, h)
		a.tracef(f, "unknown: %s", h.Detail)
	}
	if kind == callRemoveAll || kind == callRemoveOpt {
		a.synthetic(f, st, ex, []string{"rm", "-rf", a.unknown(Unknown{Kind: Variable, Name: name + " argument"})}, via)
	}
}

// perlOpen handles perl's open: a command only in open(FH, "-|", "cmd",
// ...) or open(FH, "cmd |").
func (a *analyzer) perlOpen(f *frame, st *state, ex *Exec, args []string, via string) {
	if len(args) == 1 {
		return
	}
	for i, s := range args {
		if (s == "-|" || s == "|-") && i+1 < len(args) {
			a.synthetic(f, st, ex, args[i+1:], via)
			return
		}
		if t := strings.TrimSpace(s); strings.HasSuffix(t, "|") || strings.HasPrefix(t, "|") {
			a.nested(f, st, ex, strings.Trim(t, "| "), via, markSynthetic)
			return
		}
	}
}

func (a *analyzer) synthetic(f *frame, st *state, ex *Exec, args []string, via string) {
	c := ex.with(args, via)
	c.Synthetic = true
	c.Stdin = nil
	c.CodeLiterals = nil
	c.CodeWrites = false
	c.CodeLinks = false
	a.run(f, st, c)
}

// callArgs reads the literal arguments of a call starting at offset at:
// one string, several strings separated by commas, or a [...] list.
// dynamic is set when the first argument is not a literal.
func callArgs(code string, lits []literal, at int) (args []string, dynamic bool) {
	i := skipBlank(code, at)
	if i < len(code) && code[i] == '(' {
		i = skipBlank(code, i+1)
	}
	if i < len(code) && code[i] == '[' {
		args = listArgs(code, lits, i)
		return args, len(args) == 0
	}
	if home, ok := homeArg(code, lits, i); ok {
		return []string{home}, false
	}
	for {
		l, ok := literalAt(lits, i)
		if !ok {
			return args, len(args) == 0
		}
		j := skipBlank(code, l.end)
		args = append(args, joinedValue(code, lits, l.val, j))
		if j < len(code) && code[j] == ',' {
			k := skipBlank(code, j+1)
			if _, ok := literalAt(lits, k); ok {
				i = k
				continue
			}
			if k < len(code) && code[k] == '[' {
				// execFileSync("rm", ["-rf", os.homedir()]): the program,
				// then its argument list.
				args = append(args, listArgs(code, lits, k)...)
			}
		}
		return args, false
	}
}

// homeArg reads a home expression at code[i] as ~ (os.homedir()), or
// a path in home as ~/...: os.path.expanduser("~/Documents"),
// File.expand_path("~/.ssh") (the bare "~" is homeExprRe's).
func homeArg(code string, lits []literal, i int) (string, bool) {
	if h := homeExprRe.FindString(code[i:]); h != "" {
		return "~", true
	}
	for _, p := range []string{"os.path.expanduser(", "expanduser(", "File.expand_path("} {
		if strings.HasPrefix(code[i:], p) {
			if l, ok := literalAt(lits, skipBlank(code, i+len(p))); ok && strings.HasPrefix(l.val, "~/") {
				return l.val, true
			}
		}
	}
	return "", false
}

// joinedValue is the value of the literal val when code[j], after it,
// may join it to more: "rm -rf " + os.homedir() is "rm -rf ~", anything
// else joined is unknown (\uFFFD).
func joinedValue(code string, lits []literal, val string, j int) string {
	if j >= len(code) || !(code[j] == '+' || code[j] == '.' && lits != nil && !strings.HasPrefix(code[j:], "..") || code[j] == '%') {
		return val
	}
	if h := homeExprRe.FindString(code[skipBlank(code, j+1):]); h != "" && code[j] != '%' {
		val += "~" // "rm -rf " + os.homedir()
		if k := skipBlank(code, skipBlank(code, j+1)+len(h)); k < len(code) && (code[k] == '+' || code[k] == '.') {
			val += "/\uFFFD"
		}
		return val
	}
	return val + "\uFFFD" // concatenated with something unknown
}

// listArgs returns the elements of the bracketed list at code[i] ('['):
// string literals as they are, home expressions as ~, anything else as
// an unknown value.
func listArgs(code string, lits []literal, i int) []string {
	end := matching(code, i, '[', ']')
	var args []string
	for j := skipBlank(code, i+1); j < end && len(args) < 64; {
		switch l, ok := literalAt(lits, j); {
		case ok:
			args = append(args, l.val)
			j = l.end
		case homeExprRe.FindString(code[j:end]) != "":
			args = append(args, "~")
			j += len(homeExprRe.FindString(code[j:end]))
		default:
			args = append(args, "\uFFFD")
		}
		// On to the next element, past nested brackets.
		depth := 0
		for ; j < end; j++ {
			c := code[j]
			if c == '(' || c == '[' || c == '{' {
				depth++
			} else if (c == ')' || c == ']' || c == '}') && depth > 0 {
				depth--
			} else if c == ',' && depth == 0 {
				break
			}
		}
		j = skipBlank(code, j+1)
	}
	return args
}

func skipBlank(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	return i
}

func matching(s string, i int, open, close byte) int {
	depth := 0
	for j := i; j < len(s); j++ {
		switch s[j] {
		case open:
			depth++
		case close:
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return len(s)
}

// literal is a string literal in interpreter code.
type literal struct {
	start, end int // offsets of the opening quote (or prefix) and past the closing one
	val        string
	quote      byte
}

func literalAt(lits []literal, i int) (literal, bool) {
	for _, l := range lits {
		if l.start == i {
			return l, true
		}
		if l.start > i {
			break
		}
	}
	return literal{}, false
}

func inLiteral(lits []literal, i int) bool {
	for _, l := range lits {
		if l.start < i && i < l.end {
			return true
		}
	}
	return false
}

// homeEnds are the home expressions a path literal is appended to
// (os.homedir() + '/.gemini/settings.json').
var homeEnds = []string{"homedir()", "Path.home()", "expanduser('~')", `expanduser("~")`, "os.environ['HOME']", `os.environ["HOME"]`,
	"process.env.HOME", "Dir.home", "getenv('HOME')", `getenv("HOME")`, "ENV['HOME']", `ENV["HOME"]`, "$ENV{HOME}"}

// homeJoined returns, as ~/…, the path literals that code appends to a
// home expression: "/.ssh/id_rsa" after os.homedir() + is ~/.ssh/id_rsa.
func homeJoined(code string, lits []literal) []string {
	var out []string
	for _, l := range lits {
		for _, h := range homeInterpolations {
			if rest, ok := strings.CutPrefix(l.val, h); ok && strings.HasPrefix(rest, "/") {
				out = append(out, "~"+rest) // "$ENV{HOME}/.gemini/settings.json"
			}
		}
		if !strings.HasPrefix(l.val, "/") {
			continue
		}
		before := strings.TrimRight(code[:l.start], " \t")
		if !strings.HasSuffix(before, "+") && !strings.HasSuffix(before, ".") {
			continue
		}
		before = strings.TrimRight(before[:len(before)-1], " \t")
		for _, h := range homeEnds {
			if strings.HasSuffix(before, h) {
				out = append(out, "~"+l.val)
				break
			}
		}
	}
	return out
}

// homeInterpolations are the home directory interpolated at the start of
// a string literal: perl's "$ENV{HOME}/x", ruby's "#{Dir.home}/x",
// JavaScript's `${os.homedir()}/x`.
var homeInterpolations = []string{"$ENV{HOME}", "${ENV{HOME}}", "#{Dir.home}", `#{ENV["HOME"]}`, "#{ENV['HOME']}", "${process.env.HOME}", "${os.homedir()}", "${require('os').homedir()}"}

// mayWrite reports whether code holds a literal that every match of
// writeHintRe needs, so that the regexp is compiled only for code that
// may write.
func mayWrite(code string) bool {
	for _, s := range []string{"open", "rite", "ppend", ">>", "print", "puts", "put_contents", "os.", "shutil", "unlink", "rmSync", "rm_rf", "rename"} {
		if strings.Contains(code, s) {
			return true
		}
	}
	return false
}

func literalValues(lits []literal) []string {
	out := make([]string, 0, len(lits))
	for _, l := range lits {
		out = append(out, l.val)
	}
	return out
}

// stringLiterals finds the quoted strings of code, decoding escapes.
func stringLiterals(code, lang string) []literal {
	var out []literal
	for i := 0; i < len(code); i++ {
		c := code[i]
		start := i
		if lang == "python" && pythonStringPrefix(code, i) {
			i++
			c = code[i]
		}
		if c == '#' && (lang == "python" || lang == "ruby" || lang == "perl") && (i == 0 || code[i-1] != '$') {
			// A comment, unless inside an expression like $#array.
			for i < len(code) && code[i] != '\n' {
				i++
			}
			continue
		}
		if c != '\'' && c != '"' && c != '`' {
			continue
		}
		raw := lang == "python" && start != i && (code[start] == 'r' || code[start] == 'R')
		if lang == "python" && strings.HasPrefix(code[i:], string([]byte{c, c, c})) {
			end := strings.Index(code[i+3:], string([]byte{c, c, c}))
			if end < 0 {
				end = len(code) - i - 3
			}
			out = append(out, literal{start: start, end: min(len(code), i+3+end+3), val: code[i+3 : i+3+end], quote: c})
			i = i + 3 + end + 2
			continue
		}
		val, j := quotedString(code, i, lang, raw)
		out = append(out, literal{start: start, end: min(j+1, len(code)), val: val, quote: c})
		i = j
	}
	return out
}

// pythonStringPrefix reports whether code[i] is a string prefix (r'…',
// b"…", f'…') rather than the end of a word.
func pythonStringPrefix(code string, i int) bool {
	return strings.IndexByte("rbfuRBF", code[i]) >= 0 && i+1 < len(code) && (code[i+1] == '\'' || code[i+1] == '"') &&
		(i == 0 || !isWordByte(code[i-1]))
}

// quotedString decodes the string literal whose quote is code[i] and
// returns its value and the offset of its closing quote (len(code) if
// none).
func quotedString(code string, i int, lang string, raw bool) (string, int) {
	c := code[i]
	var b strings.Builder
	j := i + 1
	for ; j < len(code) && code[j] != c; j++ {
		if code[j] == '\\' && j+1 < len(code) && !raw {
			if c == '\'' && (lang == "perl" || lang == "ruby" || lang == "php") {
				if code[j+1] == '\\' || code[j+1] == '\'' {
					j++
				}
				b.WriteByte(code[j])
				continue
			}
			j++
			n := decodeEscape(code, j, &b)
			j += n
			continue
		}
		b.WriteByte(code[j])
	}
	return b.String(), j
}

// decodeEscape writes the character of the escape at code[j] (after the
// backslash) and returns how many bytes beyond j it used.
func decodeEscape(code string, j int, b *strings.Builder) int {
	switch e := code[j]; e {
	case 'n':
		b.WriteByte('\n')
	case 't':
		b.WriteByte('\t')
	case 'r':
		b.WriteByte('\r')
	case 'x':
		if j+2 < len(code) {
			if v, err := strconv.ParseUint(code[j+1:j+3], 16, 8); err == nil {
				b.WriteByte(byte(v))
				return 2
			}
		}
		b.WriteByte(e)
	case '0', '1', '2', '3', '4', '5', '6', '7':
		k := j
		for k < len(code) && k < j+3 && code[k] >= '0' && code[k] <= '7' {
			k++
		}
		v, _ := strconv.ParseUint(code[j:k], 8, 8)
		b.WriteByte(byte(v))
		return k - j - 1
	default:
		b.WriteByte(e)
	}
	return 0
}

func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

var qxRe = &lazyregexp.Regexp{Expr: `(?:%x|\bqx)\s*([({\[<|/!])`}

// quotedCommands returns the bodies of ruby's %x(...) and perl's qx(...).
func quotedCommands(code string) []string {
	var out []string
	for _, m := range qxRe.FindAllStringSubmatchIndex(code, -1) {
		open := code[m[2]]
		closeBy := map[byte]byte{'(': ')', '{': '}', '[': ']', '<': '>'}[open]
		if closeBy == 0 {
			closeBy = open
		}
		start := m[3]
		end := strings.IndexByte(code[start:], closeBy)
		if end < 0 {
			end = len(code) - start
		}
		out = append(out, code[start:start+end])
	}
	return out
}

var awkPipeRe = &lazyregexp.Regexp{Expr: `\|\s*("|getline)`}

// awkPipes finds awk's `print ... | "cmd"` and `"cmd" | getline`.
func (a *analyzer) awkPipes(f *frame, st *state, ex *Exec, code string, lits []literal, label string) {
	for _, m := range awkPipeRe.FindAllStringSubmatchIndex(code, -1) {
		if m[0] > 0 && code[m[0]-1] == '|' {
			continue // ||
		}
		if code[m[2]:m[3]] == `"` {
			if l, ok := literalAt(lits, m[2]); ok {
				a.nested(f, st, ex, l.val, label+" | pipe", markSynthetic)
			}
			continue
		}
		// "cmd" | getline: the literal just before the pipe.
		for k := len(lits) - 1; k >= 0; k-- {
			if lits[k].end <= m[0] {
				if strings.TrimSpace(code[lits[k].end:m[0]]) == "" {
					a.nested(f, st, ex, lits[k].val, label+" getline", markSynthetic)
				}
				break
			}
		}
	}
}

// pwshRemovers are PowerShell's Remove-Item and its aliases.
var pwshRemovers = []string{"remove-item", "ri", "rm", "del", "erase", "rd", "rmdir"}

// pwshListers are Get-ChildItem and its aliases: piped into Remove-Item,
// what they list is deleted.
var pwshListers = []string{"get-childitem", "gci", "ls", "dir", "get-item", "gi"}

// pwshDeletes reads PowerShell's deletes as the rm they amount to:
// Remove-Item -Recurse -Force /etc is rm -rf /etc, Get-ChildItem ~ |
// Remove-Item -Recurse is rm -rf ~/*. Paths $HOME, ~, $env:HOME and
// $env:USERPROFILE are home. A delete with -WhatIf deletes nothing.
func (a *analyzer) pwshDeletes(f *frame, st *state, ex *Exec, code, label string) {
	for _, stmt := range strings.FieldsFunc(code, func(r rune) bool { return r == ';' || r == '\n' }) {
		var listed []string
		for _, seg := range strings.Split(stmt, "|") {
			words := strings.Fields(strings.Trim(strings.TrimSpace(seg), "()"))
			if len(words) == 0 {
				continue
			}
			verb := strings.ToLower(words[0])
			var paths []string
			recurse, whatIf := false, false
			for i := 1; i < len(words); i++ {
				w := strings.Trim(words[i], `"'`)
				lw := strings.ToLower(w)
				switch {
				case lw == "-path" || lw == "-literalpath" || lw == "-lp":
					if i+1 < len(words) {
						paths = append(paths, pwshPath(strings.Trim(words[i+1], `"'`)))
						i++
					}
				case strings.HasPrefix(lw, "-r") && strings.HasPrefix("-recurse", lw):
					recurse = true
				case lw == "-whatif" || lw == "-whatif:$true":
					whatIf = true // only prints what it would delete
				case strings.HasPrefix(lw, "-"):
				default:
					paths = append(paths, pwshPath(w))
				}
			}
			switch {
			case slices.Contains(pwshListers, verb):
				listed = nil
				for _, p := range paths {
					listed = append(listed, strings.TrimSuffix(p, "/")+"/*")
				}
				if len(paths) == 0 {
					listed = []string{"./*"}
				}
			case slices.Contains(pwshRemovers, verb) && !whatIf:
				if len(paths) == 0 {
					paths = listed
				}
				for _, p := range paths {
					args := []string{"rm", p}
					if recurse {
						args = []string{"rm", "-rf", p}
					}
					a.synthetic(f, st, ex, args, label+" "+words[0])
				}
			default:
				listed = nil
			}
		}
	}
}

// pwshPath writes PowerShell's home expressions as ~.
func pwshPath(p string) string {
	for _, h := range []string{"$HOME", "$env:HOME", "$env:USERPROFILE", "${env:HOME}", "${env:USERPROFILE}"} {
		if len(p) >= len(h) && strings.EqualFold(p[:len(h)], h) {
			return "~" + strings.ReplaceAll(p[len(h):], "\\", "/")
		}
	}
	return p
}

package shell

import (
	"slices"
	"strings"
)

// Evasions that rename or move things before using them (issue 17): a
// copy or link of a program under another name, an alias defined and used
// in the same text, and a directory moved somewhere harmless-looking
// before it is deleted. The analysis follows each one so that the policy
// judges what really runs on what really exists.

// copyNames are the commands that put a file under a new name.
var copyNames = []string{"cp", "ln", "install", "mv", "rsync"}

// remember copies and moves: a program copied or linked to a new path runs
// as itself (cp /bin/rm x; ./x -rf ~ is rm), and a path moved elsewhere is
// still what it was (mv ~/proj /tmp/x; rm -rf /tmp/x deletes ~/proj).
func (a *analyzer) rememberCopy(ex *Exec) {
	if !slices.Contains(copyNames, ex.Name) {
		return
	}
	var ops []string
	args := ex.Args[1:]
	for i := 0; i < len(args); i++ {
		w := args[i]
		if ex.Name == "install" && (w == "-m" || w == "-o" || w == "-g") {
			i++ // install's mode, owner and group values
			continue
		}
		if !strings.HasPrefix(w, "-") || w == "-" {
			ops = append(ops, w)
		}
	}
	if len(ops) != 2 || !Known(ops[0]) || !Known(ops[1]) {
		return
	}
	src, dst := ResolvePath(ex.Dir, ops[0]), ResolvePath(ex.Dir, ops[1])
	if src == "" || dst == "" {
		return
	}
	if a.renamed == nil {
		a.renamed, a.moved = map[string]string{}, map[string]string{}
	}
	if name := CommandName(ops[0]); name != "" && (strings.HasPrefix(ops[0], "/") || a.renamed[src] != "") {
		if prev := a.renamed[src]; prev != "" {
			name = prev
		}
		a.renamed[dst] = name // a program under a new name
	}
	if ex.Name == "mv" {
		a.moved[dst] = src
	}
}

// renamedName is the real program behind a path the command made by
// copying or linking one, "" if none.
func (a *analyzer) renamedName(ex *Exec) string {
	if len(ex.Args) == 0 || !strings.Contains(ex.Args[0], "/") && !a.onPath(ex) || len(a.renamed) == 0 {
		return ""
	}
	if n := a.renamed[ResolvePath(ex.Dir, ex.Args[0])]; n != "" {
		return n
	}
	return ""
}

// onPath reports whether ex's command was made in a directory the command
// put on PATH (PATH=/tmp:$PATH p).
func (a *analyzer) onPath(ex *Exec) bool {
	p, ok := ex.Env["PATH"]
	if !ok {
		return false
	}
	for _, dir := range strings.Split(p, ":") {
		if a.renamed[ResolvePath(ex.Dir, dir+"/"+ex.Args[0])] != "" {
			ex.Args[0] = dir + "/" + ex.Args[0]
			return true
		}
		if text, ok := a.writtenScript(ex.Dir, dir+"/"+ex.Args[0]); ok && text != "" {
			ex.Args[0] = dir + "/" + ex.Args[0]
			return false
		}
	}
	return false
}

// movedTwin returns a copy of ex with every argument that names a moved
// path (or a path inside one) replaced by where it came from, nil when no
// argument does.
func (a *analyzer) movedTwin(ex *Exec) *Exec {
	if len(a.moved) == 0 || ex.Name == "mv" {
		return nil
	}
	var args []string
	for i, w := range ex.Args {
		if i == 0 || !Known(w) {
			continue
		}
		p := ResolvePath(ex.Dir, w)
		for dst, src := range a.moved {
			if p == dst || strings.HasPrefix(p, dst+"/") {
				if args == nil {
					args = slices.Clone(ex.Args)
				}
				args[i] = src + strings.TrimPrefix(p, dst)
			}
		}
	}
	if args == nil {
		return nil
	}
	c := ex.with(args, "moved by mv")
	c.Synthetic = true
	return c
}

// alias records `alias name='words'` so that later uses of name in the
// same text are judged as the words (bash expands aliases in scripts that
// set expand_aliases, and in interactive shells).
func (a *analyzer) alias(st *state, ex *Exec) {
	for _, w := range ex.Args[1:] {
		name, value, ok := strings.Cut(w, "=")
		if !ok || name == "" || strings.HasPrefix(name, "-") {
			continue
		}
		if st.aliases == nil {
			st.aliases = map[string]string{}
		}
		st.aliases[name] = value
	}
}

// echoedFile returns the text a process substitution made only of echo or
// printf produces (source <(echo 'rm -rf ~')): it is the script.
func (a *analyzer) echoedFile(file string) (string, bool) {
	us := a.res.Unknowns(file)
	if len(us) != 1 || us[0].Kind != ProcessFile || len(us[0].Execs) == 0 {
		return "", false
	}
	var b strings.Builder
	for _, p := range us[0].Execs {
		out, ok := producedText(p, maxFilters)
		if !ok {
			return "", false
		}
		b.WriteString(out)
	}
	return b.String(), true
}

// stdinRunners are programs that run the code they read on standard input
// when given no script (curl … | php, | pwsh -, | lua -), besides the
// shells and the interpreters whose code the analysis reads.
var stdinRunners = []string{
	"php", "php-cli", "pwsh", "powershell", "lua", "luajit", "tclsh", "wish", "julia", "jshell",
	"groovy", "guile", "expect", "osascript", "r", "rscript", "node", "nodejs", "bun", "deno",
	"ruby", "perl", "irb", "racket", "sbcl", "clisp", "ghci", "scala", "elixir", "crystal", "swift",
	"jjs", "jrunscript", "rhino", "groovysh", "kotlinc", "kotlin", "clojure", "clj", "bsh", "nashorn",
}

// runnerValueOptions are a stdin runner's options that take a value other
// than a script: osascript -l JavaScript names the language of the code
// it still reads on standard input. A switch, not a map: nothing is built
// at start-up.
func runnerValueOptions(name string) []string {
	if name == "osascript" {
		return []string{"-l", "-s"}
	}
	return nil
}

// RunsStdin reports whether name runs the code it reads on standard input
// when given no script (tclsh, jshell, expect, lua, ...).
func RunsStdin(name string) bool { return slices.Contains(stdinRunners, name) }

// pipedCode reports code piped into a stdin runner from a command whose
// output is not known (curl … | php): a DynamicCode hazard with the
// producers as sources, which the policy judges by where the code comes
// from.
func (a *analyzer) pipedCode(f *frame, ex *Exec) {
	in := ex.Stdin
	if in == nil || len(in.Producers) == 0 || !slices.Contains(stdinRunners, ex.Name) {
		return
	}
	args := ex.Args[1:]
	if (ex.Name == "bun" || ex.Name == "deno") && len(args) > 1 && args[0] == "run" && slices.Contains(args, "-") {
		args = args[1:] // bun run -, deno run -: the script is standard input
	}
	for i, w := range args {
		if w != "-" && !strings.HasPrefix(w, "-") && !(i > 0 && slices.Contains(runnerValueOptions(ex.Name), args[i-1])) {
			return // a script file or code operand: stdin is data
		}
	}
	for _, p := range in.Producers {
		if _, ok := producedText(p, maxFilters); ok {
			continue
		}
		a.res.Hazards = append(a.res.Hazards, Hazard{Kind: DynamicCode, Text: ex.Text, Via: f.via, Interpreter: ex.Name,
			Sources: in.Producers, Detail: ex.Name + " runs code piped in from another command"})
		return
	}
}

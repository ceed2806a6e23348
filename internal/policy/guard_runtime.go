package policy

// guard.tamper's reading of the files a call is handed only at run time:
// the files find gives -exec ({}), the items xargs reads, and what find
// -delete deletes. Each is judged by where it comes from: find's starting
// points and the tests that select what it acts on, or the literal paths
// echo and printf give xargs.

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/protect"
	"github.com/gemini-guard/gemini-guard/internal/shell"
)

// runtimeChanged: find -delete, or a call run by find -exec or xargs that
// writes, deletes, moves or changes the mode of the files it is handed
// (changed: the paths the call changes), when those files may be
// protected: find ~/.gemini -name guard-redact -exec chmod a-x {} +.
func runtimeChanged(c *Call, r protect.Roots, changed []string) Finding {
	if c.Ex.Name == "find" && findDeletes(c.Args) {
		starts, expr := shell.FindStart(c.Args)
		if e, ok := c.findReaches(r, starts, expr); ok {
			return hit("find -delete deletes what it selects, and it can select " + e.What)
		}
	}
	for _, a := range c.Args {
		parts := c.Res.Parts(a)
		if len(parts) == 0 || parts[0].Unknown == nil || parts[0].Unknown.Kind != shell.Input || !slices.Contains(changed, c.resolve(a)) {
			continue
		}
		if e, ok := c.inputReaches(r, parts[0].Unknown); ok {
			return hit(c.Ex.Name + " changes the files " + c.handedBy() + " hands it, among which " + e.What)
		}
	}
	return Finding{}
}

// findDeletes reports a find expression with -delete.
func findDeletes(args []string) bool {
	_, expr := shell.FindStart(args)
	deletes := false
	shell.FindExpr(expr, func(p, _ string, _ []string) { deletes = deletes || p == "-delete" })
	return deletes
}

// handedBy names what hands the call its files.
func (c *Call) handedBy() string {
	if c.parentFind() != nil {
		return "find"
	}
	return "xargs"
}

// inputReaches says which protected object a run-time item u may be: a
// file of the find that runs the call, or of the find that feeds xargs,
// or a path echo or printf (or a here-string) gives xargs.
func (c *Call) inputReaches(r protect.Roots, u *shell.Unknown) (protect.Entry, bool) {
	if f := c.parentFind(); f != nil {
		starts, expr := shell.FindStart(f.Args[1:])
		return c.findReaches(r, starts, expr)
	}
	var items []string
	for _, p := range u.Execs {
		switch p.Name {
		case "find":
			starts, expr := shell.FindStart(p.Args[1:])
			if e, ok := c.findReaches(r, starts, expr); ok {
				return e, true
			}
		case "echo", "printf", "ls", "realpath", "readlink", "basename", "dirname":
			// The paths they print are their operands, or what a
			// directory or a glob among them holds (ls DIR, ls DIR/*).
			items = append(items, operands(p.Args[1:])...)
		}
	}
	if len(u.Execs) == 0 && u.Name != "" && u.Name != "xargs input" {
		items = append(items, u.Name) // xargs chmod -x <<< FILE
	}
	if u.File != "" && shell.Known(u.File) {
		// xargs rm < list.txt, xargs -a list.txt rm: the list's lines.
		if text, err := c.readSmall(c.resolve(u.File)); err == nil {
			items = append(items, strings.Fields(text)...)
		}
	}
	for _, it := range items {
		if !shell.Known(it) {
			continue
		}
		p := c.resolve(it)
		if i := strings.IndexAny(p, "*?["); i >= 0 {
			// What a glob may match lies below its fixed directory.
			p = filepath.Dir(p[:i+1])
			if e := protect.Check(r, p); denyingKind(e.Kind) {
				return e, true
			}
			for _, below := range protect.Below(r, p) {
				if e := protect.Classify(r, below); denyingKind(e.Kind) {
					return e, true
				}
			}
			continue
		}
		if e := protect.Check(r, p); denyingKind(e.Kind) {
			return e, true
		}
	}
	return protect.Entry{}, false
}

// findReaches says which protected object a find may act on: one its
// starting point is in, or one that exists below it and that the tests
// before its action do not rule out by name or path
// (find . -name '*.o' -delete reaches none).
func (c *Call) findReaches(r protect.Roots, starts, expr []string) (protect.Entry, bool) {
	if len(starts) == 0 {
		starts = []string{"."}
	}
	isAction := func(p string) bool { return p == "-delete" || isFindExec(p) }
	tests := findTestsBefore(expr, isAction)
	for _, s := range starts {
		if !shell.Known(s) {
			continue
		}
		dir := c.resolve(s)
		if e := protect.Check(r, dir); denyingKind(e.Kind) {
			return e, true
		}
		for _, p := range protect.Below(r, dir) {
			rel, err := filepath.Rel(dir, p)
			if err != nil || branchesExclude(dir, tests, []string{rel}) {
				continue
			}
			if e := protect.Classify(r, p); denyingKind(e.Kind) {
				return e, true
			}
		}
	}
	return protect.Entry{}, false
}

// denyingKind: the kinds no change of the agent's may reach through files
// it cannot name (a .env's or git's are judged by what is written).
func denyingKind(k protect.Kind) bool { return k == protect.Config || k == protect.Tightening }

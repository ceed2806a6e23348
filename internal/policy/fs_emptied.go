package policy

// fs.home-emptied: a dotfile of home or a credential file emptied in
// place.

import (
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/shell"
)

// checkHomeEmptied: a dotfile or directory of home outside the workspace,
// or a credential file anywhere, emptied by a bare redirection, truncate, a
// copy of /dev/null, tee from /dev/null or a link to /dev/null.
func checkHomeEmptied(c *Call) Finding {
	for _, r := range c.Ex.Redirs {
		if r.Truncates() && r.Target != "" && homeEmptiable(c, c.resolve(r.Target)) && outputEmpty(c) {
			return hit("empties " + c.resolve(r.Target))
		}
	}
	switch c.Ex.Name {
	case "truncate":
		return firstEmptied(c, operands(c.Args), "truncate empties ")
	case "ln":
		ops := operands(c.Args)
		if len(ops) == 2 && ops[0] == "/dev/null" && hasShortFlag(c.Args, 'f') {
			if dst := c.resolve(ops[1]); homeEmptiable(c, dst) {
				return hit("ln replaces " + dst + " with a link to /dev/null")
			}
		}
	case "tee":
		if in := c.Ex.Stdin; in != nil && in.File == "/dev/null" && !hasArg(c.Args, "-a", "--append") {
			return firstEmptied(c, operands(c.Args), "tee empties ")
		}
	case "vi", "vim", "nvim", "ex", "ed":
		return editorEmpties(c)
	case "cp", "cat", "dd":
		ops := operands(c.Args)
		if len(ops) == 2 {
			src, _ := strings.CutPrefix(ops[0], "if=")
			if dst := c.resolve(strings.TrimPrefix(ops[1], "of=")); src == "/dev/null" && homeEmptiable(c, dst) {
				return hit(c.Ex.Name + " empties " + dst)
			}
		}
	}
	return Finding{}
}

// homeEmptiable reports whether emptying p loses something: a credential
// file anywhere (the workspace's .env too), a dotfile of home, or any
// file of another user's home.
func homeEmptiable(c *Call, p string) bool {
	if _, ok := c.Ctx.credential(c.Res, p); ok && shell.Known(p) {
		return true // a credential file anywhere, the workspace's .env too
	}
	l := c.Ctx.placeKnown(p)
	if !shell.Known(p) || l.Place != InHome && l.Place != OtherHome {
		return false
	}
	rel := strings.TrimPrefix(p, c.Ctx.Home+"/")
	return strings.HasPrefix(rel, ".") || l.Place == OtherHome
}

// firstEmptied is a hit, what followed by the path, for the first of ops
// homeEmptiable.
func firstEmptied(c *Call, ops []string, what string) Finding {
	for _, o := range ops {
		if p := c.resolve(o); homeEmptiable(c, p) {
			return hit(what + p)
		}
	}
	return Finding{}
}

// editorEmpties: ex commands that delete every line and write: vim -c
// '%d|wq' f, ex -sc '%d|x' f, ed's ",d" then "w".
func editorEmpties(c *Call) Finding {
	if !editorErasesAll(c) {
		return Finding{}
	}
	for _, o := range operands(c.Args) {
		if p := c.resolve(o); !strings.Contains(o, "%d") && homeEmptiable(c, p) {
			return hit(c.Ex.Name + " deletes every line of " + p)
		}
	}
	return Finding{}
}

// editorErasesAll reports whether an editor's -c/+ commands or input
// delete every line (%d, ,d).
func editorErasesAll(c *Call) bool {
	for i, a := range c.Args {
		if (a == "-c" || a == "-sc" || a == "+" || strings.HasPrefix(a, "+")) && (strings.Contains(a, "%d") || i+1 < len(c.Args) && strings.Contains(c.Args[i+1], "%d")) {
			return true
		}
	}
	in := c.Ex.Stdin
	return in != nil && (strings.Contains(in.Text, ",d") || strings.Contains(in.Text, "%d"))
}

// outputEmpty: a command whose stdout carries nothing (:, true, echo -n,
// printf ”), used only to empty a redirection's target.
func outputEmpty(c *Call) bool {
	switch c.Ex.Name {
	case "":
		return len(c.Ex.Args) == 0 // a bare redirection
	case ":", "true", "false":
		return true
	case "echo":
		return len(c.Args) == 0 || len(c.Args) == 1 && c.Args[0] == "-n"
	case "printf":
		return len(c.Args) == 0 || len(c.Args) == 1 && c.Args[0] == ""
	case "cat":
		return c.Ex.Stdin != nil && c.Ex.Stdin.File == "/dev/null" || hasArg(c.Args, "/dev/null")
	}
	return false
}

package policy

// The harm rules judge what a command does to what: the effects package
// computes each command's effects (reads, writes, deletes, service and
// account changes, processes exposed, remote destroys) from program specs
// or, for a program nobody listed, generic guesses, and its inventory says
// which objects are sensitive. Each harm_*.go file holds one family's
// rule and check; they run after every other rule (the end of table), so
// they only add denials where the program-keyed rules said nothing.

import (
	"github.com/gemini-guard/gemini-guard/internal/effects"
)

// effectsOf returns the call's effects, computed once per call.
func (c *Call) effectsOf() []effects.Effect {
	if !c.effDone {
		c.eff, c.effDone = effects.Of(c.Ex, c.Ctx.Home), true
	}
	return c.eff
}

// inProject reports whether p is inside the workspace or a temporary
// directory, where a dotfiles repository or a test may keep its own
// copies of start-up files.
func (c *Call) inProject(p string) bool { return !c.Ctx.outsideProject(c.Res, p) }

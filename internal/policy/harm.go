package policy

// The harm rules judge what a command does to what: the effects package
// computes each command's effects (reads, writes, deletes, service and
// account changes, processes exposed, remote destroys) from program specs
// or, for a program nobody listed, generic guesses, and its inventory says
// which objects are sensitive. Each harm_*.go file holds one family's
// rule and check; they run after every other rule (the end of table), so
// they only add denials where the program-keyed rules said nothing.

import (
	"slices"

	"github.com/gemini-guard/gemini-guard/internal/effects"
	"github.com/gemini-guard/gemini-guard/internal/shell"
)

// effectsOf returns the call's effects, computed once per call.
func (c *Call) effectsOf() []effects.Effect {
	if !c.effDone {
		c.eff, c.effDone = effects.Of(c.Ex, c.Ctx.Home), true
	}
	return c.eff
}

// effect is the call's first effect of kind on area (ok false: none); most
// harm rules are that one question and a reason built from the effect.
func (c *Call) effect(kind effects.Kind, area effects.Area) (e effects.Effect, ok bool) {
	for _, e := range c.effectsOf() {
		if e.Kind == kind && e.Area == area {
			return e, true
		}
	}
	return effects.Effect{}, false
}

// inProject reports whether p is inside the workspace or a temporary
// directory, where a dotfiles repository or a test may keep its own
// copies of start-up files.
func (c *Call) inProject(p string) bool { return !c.Ctx.outsideProject(c.Res, p) }

// processNames are the names a call's arguments look processes up by:
// kill $(pidof auditd), gcore $(pgrep -n ssh-agent). ok is false when no
// argument is such a lookup.
func (c *Call) processNames() (names []string, ok bool) {
	for _, a := range c.Args {
		for _, u := range c.Res.Unknowns(a) {
			if u.Kind != shell.CommandOutput {
				continue
			}
			for _, ex := range u.Execs {
				if ex.Name != "pgrep" && ex.Name != "pidof" || len(ex.Args) < 2 {
					continue
				}
				ok = true
				p := shell.ParseArgs(ex.Args[1:], &shell.OptSpec{Short: "u:U:g:G:P:s:t:F:o:"})
				names = append(names, p.Operands...)
			}
		}
	}
	return names, ok
}

// secretHolders are processes whose memory holds other programs' secrets.
var secretHolders = []string{"ssh-agent", "gpg-agent", "keepassxc", "keepass", "1password", "bitwarden", "gnome-keyring-daemon", "kwalletd", "kwalletd5",
	"kwalletd6", "securityd", "sshd", "sudo", "login", "lsass", "vault", "chrome", "firefox", "op", "bw", "secretd", "keyring", "kdeinit5", "polkitd", "loginwindow"}

// ownProcessDump reports a memory dump of processes looked up by name,
// none of which holds other programs' secrets (gcore $(pgrep -n
// my-test-server)).
func (c *Call) ownProcessDump() bool {
	names, ok := c.processNames()
	return ok && !slices.ContainsFunc(names, func(n string) bool { return slices.Contains(secretHolders, n) })
}

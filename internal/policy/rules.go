package policy

import (
	"slices"
	"sync"
)

// Rules are literals of constants, functions and literals, so that the
// compiler lays them out in the binary: a hook process starts for every
// call, and a rule filled in at start-up (a copy of a string variable, say)
// writes its page of the binary's data, a copy-on-write fault in every
// process. Package initwork says what the compiler lays out;
// TestHookPackagesComputeNothingAtStartUp (internal/initwork) keeps the policy so.
const (
	shellUnknown   = "Strict mode only: standard mode allows it."
	noUnknownStory = "Nothing here depends on values that cannot be known statically."
)

// Rules returns the policy, in the order rules are tried. The caller must
// not modify it.
func Rules() []*Rule {
	joinFamilies.Do(func() { joined = slices.Concat(families...) })
	return joined
}

// families is the policy: the rule families in the order they are tried,
// each a package variable of literals in its own file (guard.go,
// secrets.go, …) so that the compiler lays the rules out in the binary: a
// hook process starts for every call, and building the rules at start-up
// cost it more than judging a typical command. Rules joins them on first
// use, so that nothing of the policy is computed before main
// (TestHookPackagesComputeNothingAtStartUp).
var families = [][]*Rule{
	guardRules, secretsRules, rceRules, procRules, fsRules, diskRules, gitRules, permRules, persistRules, infraRules, shellRules, execRules,
	harmRules,
}

var (
	joinFamilies sync.Once
	joined       []*Rule // families, joined: only Rules reads it
)

// harmRules judge what a command does to what (harm_*.go, over package
// effects); last, so that they only add denials.
var harmRules = []*Rule{
	harmCredentialRead, harmPersistWrite, harmDefenceStop, harmAccountChange, harmProcessExposed, harmFetchRun, harmRemoteDestroy, harmDeviceWrite,
	harmNetworkRedirect, harmRemoteLogin, harmSystemStop, harmCapture, harmKernelModule, harmCredentialDelete,
	harmHostStop,
}

// checkGitCheckoutSwitch judges git checkout and git switch.
func checkGitCheckoutSwitch(c *Call) Finding {
	co := gitSubcommand(c, gitCheckoutSpec, checkGitCheckout, "checkout")
	if co.Hit || co.Maybe {
		return co
	}
	return gitSubcommand(c, gitSwitchSpec, checkGitSwitch, "switch")
}

func checkKillAll(c *Call) Finding {
	if c.Ex.Name == "kill" {
		return checkKill(c)
	}
	return checkKillall(c)
}

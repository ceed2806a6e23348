package policy

import "slices"

var (
	rmNames        = []string{"rm", "unlink", "srm", "wipe", "rsync"}
	allCommands    = []string{"*"}
	gitOnly        = []string{"git"}
	shellUnknown   = "Strict mode only: standard mode allows it."
	noUnknownStory = "Nothing here depends on values that cannot be known statically."
)

// Rules returns the policy, in the order rules are tried. The caller must
// not modify it.
func Rules() []*Rule { return table }

// table is the policy: the rule families in the order they are tried, each
// family a package variable of literals in its own file (guard.go,
// secrets.go, …) so that the compiler lays the rules out in the binary: a
// hook process starts for every call, and building the rules at run time
// cost it more than judging a typical command. Joining the families costs
// one slice of pointers at start-up.
var table = slices.Concat(
	guardRules, secretsRules, rceRules, procRules, fsRules, diskRules, gitRules, permRules, persistRules, infraRules, shellRules, execRules,
	harmRules,
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
	co := gitRule([]string{"checkout"}, gitCheckoutSpec, checkGitCheckout)(c)
	if co.Hit || co.Maybe {
		return co
	}
	return gitRule([]string{"switch"}, gitSwitchSpec, checkGitSwitch)(c)
}

func checkKillAll(c *Call) Finding {
	if c.Ex.Name == "kill" {
		return checkKill(c)
	}
	return checkKillall(c)
}

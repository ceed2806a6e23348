package policy

// A git-family check kept apart from the git rules' own files: the
// discards git's rules do not name (checkout-index --force, git-extras).

import "slices"

// gitExtrasDiscards are git-extras commands (git-<name> on PATH) that
// discard work: clear is reset --hard plus clean -fdx, delete-tag and
// delete-branch remove refs locally and on the remote.
var gitExtrasDiscards = []string{"clear", "clear-soft", "delete-tag", "delete-branch", "delete-merged-branches", "delete-squashed-branches", "delete-submodule", "obliterate", "reset-file", "scp"}

// checkGitDiscardOther: discards of uncommitted work or refs that git's own
// rules do not name: checkout-index --force over the work tree and the
// git-extras discards.
func checkGitDiscardOther(c *Call) Finding {
	g := parseGit(c)
	switch {
	case g.sub == "checkout-index" && (hasArg(g.args, "-f", "--force") || hasShortFlag(g.args, 'f')) && !hasPrefixArg(g.args, "--prefix"):
		return hit("git checkout-index --force overwrites work-tree files from the index, discarding their unstaged changes")
	case slices.Contains(gitExtrasDiscards, g.sub) && g.sub != "scp":
		return hit("git " + g.sub + " (git-extras) discards work or deletes refs, locally and on the remote")
	case g.sub == "undo" && hasArg(g.args, "--hard", "-h"):
		return hit("git undo --hard (git-extras) discards the last commits and their changes")
	}
	return Finding{}
}

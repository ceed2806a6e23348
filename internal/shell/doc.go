// Package shell finds every command a bash command line would run, the way
// bash would run it, without running anything.
//
// Analyze parses the text with mvdan.cc/sh/v3 (bash dialect) and walks the
// whole tree: lists (; && || &), pipelines, subshells, groups, command and
// process substitutions, if/for/while/case bodies and function bodies. Each
// simple command becomes an Exec whose words are resolved as bash would
// resolve them (quote removal, escapes, $'..', brace expansion, tilde,
// variables assigned earlier in the same text) under a restricted expansion:
// nothing is executed, no file is globbed, and whatever cannot be known
// statically (an unset variable, a command substitution, the items xargs
// reads at run time) stays visibly unknown: it is replaced by a marker that
// Result.Parts reports, never by "".
//
// Wrappers are unwrapped (sudo, env, nohup, timeout, xargs, find -exec, ...),
// nested shells are parsed again (bash -c, eval, su -c, a heredoc or an echo
// piped into sh), git aliases given inline are expanded, and the code given to
// interpreters (python -c, node -e, perl -e, ruby -e, awk) is searched for the
// shell commands and file operations it makes. Structural dangers that are not
// a single command (a fork bomb, code piped into a shell, a parse error) are
// reported as Hazards. A syntax node the walk has no case for (a construct
// of a newer mvdan/sh) stops the analysis as TooComplex, which the policy
// denies as "cannot analyse": nothing is skipped silently.
//
// The package knows how bash runs commands, not which commands are dangerous:
// that is package policy's job.
package shell

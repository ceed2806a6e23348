// Package prefilter decides whether a secret rule could match a text, and
// how much of a text still being streamed could turn into a secret, without
// finding anything itself and without linking gitleaks. Both secret paths
// use it to skip the scanner process (internal/scanner) when no rule can
// match: the streaming redactor (internal/redact) on every chunk, the
// secrets guard (internal/secretguard) on a shell command.
//
// A Watch holds the rules (patterns and keywords, as gitleaks runs them).
// Its Check looks for keywords (words.go), then runs only the rules a
// keyword calls for: their requirements on the text (require.go), their
// shape read off the compiled program (shape.go: how long a match and its
// lead can be, which characters a secret holds) and a small NFA that tells
// where a match could still be under way at the end of the text (vm.go).
//
// The analysis of the built-in rules is precomputed into rules_gen.go by
// internal/gen (`go generate ./internal/secrets/prefilter`), so a hook
// process never analyses a pattern; TestRulesGenUpToDate fails when the
// committed table is stale.
package prefilter

//go:generate go run ./internal/gen

package secrets

// The built-in rules (builtin_gen.go) and the prefilter's keyword list
// (keywords/words_gen.go) are generated from gitleaks' default config and
// rules.toml by internal/gen.

//go:generate go run ./internal/gen

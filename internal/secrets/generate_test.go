package secrets_test

import (
	"os"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/zricethezav/gitleaks/v8/config"

	"github.com/gemini-guard/gemini-guard/internal/secrets"
	"github.com/gemini-guard/gemini-guard/internal/secrets/internal/source"
)

// TestGeneratedUpToDate fails when rules.toml or gitleaks changed without
// `go generate ./internal/secrets`.
func TestGeneratedUpToDate(t *testing.T) {
	add, err := os.ReadFile("rules.toml")
	require.NoError(t, err)
	cfg, err := secrets.BuildBuiltin([]byte(config.DefaultConfig), add)
	require.NoError(t, err)

	want, err := source.Builtin(cfg, secrets.GitleaksVersion)
	require.NoError(t, err)
	got, err := os.ReadFile("builtin_gen.go")
	require.NoError(t, err)
	assert.Equal(t, string(want), string(got), "run go generate ./internal/secrets")

	want, err = source.Keywords(cfg)
	require.NoError(t, err)
	got, err = os.ReadFile("keywords/words_gen.go")
	require.NoError(t, err)
	assert.Equal(t, string(want), string(got), "run go generate ./internal/secrets")
}

// TestGitleaksVersion: the built-in rules come from the gitleaks release in
// go.mod.
func TestGitleaksVersion(t *testing.T) {
	mod, err := os.ReadFile("../../go.mod")
	require.NoError(t, err)
	re := regexp.MustCompile(`(?m)^\s*github\.com/zricethezav/gitleaks/v8 (\S+)`)
	m := re.FindSubmatch(mod)
	require.NotNil(t, m, "gitleaks in go.mod")
	assert.Equal(t, string(m[1]), secrets.GitleaksVersion)
}

package secrets_test

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/secrets"
)

// TestGeneratedUpToDate fails when rules.toml or gitleaks changed without
// `go generate ./internal/secrets`.
func TestGeneratedUpToDate(t *testing.T) {
	cfg, err := secrets.BuiltinConfig()
	require.NoError(t, err)
	want, err := secrets.KeywordsSource(cfg)
	require.NoError(t, err)
	got, err := os.ReadFile("keywords/words_gen.go")
	require.NoError(t, err)
	assert.Equal(t, string(want), string(got), "run go generate ./internal/secrets")
}

package settings

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestDefaults(t *testing.T) {
	s, warnings := Load(env(nil))
	assert.Empty(t, warnings)
	assert.Equal(t, Standard, s.Mode)
	assert.Equal(t, Block, s.SecretsAction)
	assert.False(t, s.TrustGitleaksAllow)
	assert.True(t, s.RedactStream)
	assert.True(t, s.RedactToolOutput)
	assert.True(t, s.MarkerRule)
	assert.Equal(t, "", s.AuditLog)
	assert.Equal(t, s, Default())
}

func TestLoadValues(t *testing.T) {
	s, warnings := Load(env(map[string]string{
		"GEMINI_GUARD_MODE":                 " Strict ",
		"GEMINI_GUARD_DISABLED_RULES":       "git.reset-hard, generic-api-key,,",
		"GEMINI_GUARD_SECRETS_ACTION":       "redact",
		"GEMINI_GUARD_TRUST_GITLEAKS_ALLOW": "yes",
		"GEMINI_GUARD_REDACT_STREAM":        "off",
		"GEMINI_GUARD_REDACT_MARKER":        "plain",
		"GEMINI_GUARD_AUDIT_LOG":            "/tmp/x.jsonl",
		"GEMINI_GUARD_SECRETS_SKIP_PATHS":   "testdata/**\nfixtures/*.json",
	}))
	assert.Empty(t, warnings)
	assert.Equal(t, Strict, s.Mode)
	assert.Equal(t, []string{"git.reset-hard", "generic-api-key"}, s.DisabledRules)
	assert.True(t, s.RuleDisabled("generic-api-key"))
	assert.False(t, s.RuleDisabled("git.clean"))
	assert.Equal(t, Redact, s.SecretsAction)
	assert.True(t, s.TrustGitleaksAllow)
	assert.False(t, s.RedactStream)
	assert.False(t, s.MarkerRule)
	assert.Equal(t, "/tmp/x.jsonl", s.AuditLog)
	assert.Equal(t, []string{"testdata/**", "fixtures/*.json"}, s.SecretsSkipPaths)
}

func TestInvalidValuesFallBackToDefaults(t *testing.T) {
	s, warnings := Load(env(map[string]string{
		"GEMINI_GUARD_MODE":           "yolo",
		"GEMINI_GUARD_SECRETS_ACTION": "ignore",
		"GEMINI_GUARD_REDACT_STREAM":  "maybe",
	}))
	assert.Equal(t, Standard, s.Mode)
	assert.Equal(t, Block, s.SecretsAction)
	assert.True(t, s.RedactStream)
	require.Len(t, warnings, 3)
	assert.Contains(t, warnings[0], `GEMINI_GUARD_MODE="yolo" is not valid`)
	assert.Contains(t, warnings[0], `using the default "standard"`)
}

func TestTableIsWellFormed(t *testing.T) {
	seen := map[string]bool{}
	for _, s := range Table {
		assert.True(t, strings.HasPrefix(s.EnvVar, "GEMINI_GUARD_"), s.EnvVar)
		assert.False(t, seen[s.EnvVar], "duplicate %s", s.EnvVar)
		seen[s.EnvVar] = true
		assert.NotEmpty(t, s.Name)
		assert.NotEmpty(t, s.Description)
		assert.NotEmpty(t, s.Values)
	}
}

// The manifest's settings[] must list exactly Table, in order, with the
// same names and descriptions: `gemini extensions config` shows them.
func TestManifestMatchesTable(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "gemini-extension.json"))
	require.NoError(t, err)
	var manifest struct {
		Settings []struct {
			Name        string `json:"name"`
			Description string `json:"description"`
			EnvVar      string `json:"envVar"`
		} `json:"settings"`
	}
	require.NoError(t, json.Unmarshal(data, &manifest))
	require.Len(t, manifest.Settings, len(Table))
	for i, s := range Table {
		assert.Equal(t, s.EnvVar, manifest.Settings[i].EnvVar)
		assert.Equal(t, s.Name, manifest.Settings[i].Name)
		assert.Equal(t, ManifestDescription(s), manifest.Settings[i].Description)
	}
}

func TestTrustedHosts(t *testing.T) {
	s, warnings := Load(env(map[string]string{
		"GEMINI_GUARD_TRUSTED_HOSTS": " API.Shop-Demo.test., *.internal-corp.test ,*,*.com,no_dots,bad..host.test",
	}))
	assert.Equal(t, []string{"api.shop-demo.test", "*.internal-corp.test"}, s.TrustedHosts)
	require.Len(t, warnings, 4)
	assert.Contains(t, warnings[0], `GEMINI_GUARD_TRUSTED_HOSTS="*"`)
	assert.Empty(t, Default().TrustedHosts)
}

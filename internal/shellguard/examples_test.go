package shellguard

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/policy"
	"github.com/gemini-guard/gemini-guard/internal/settings"
)

// testDirs makes a fresh workspace and a separate home.
func testDirs(t testing.TB) (workspace, home string) {
	t.Helper()
	root := t.TempDir()
	workspace, home = filepath.Join(root, "project"), filepath.Join(root, "home")
	require.NoError(t, os.MkdirAll(workspace, 0o755))
	require.NoError(t, os.MkdirAll(home, 0o755))
	return workspace, home
}

// TestRuleExamples runs every rule's must-match and must-not-match examples
// through the real Decide; a rule lacking either kind fails.
func TestRuleExamples(t *testing.T) {
	workspace, home := testDirs(t)
	ids := map[string]bool{}
	for _, r := range policy.Rules() {
		t.Run(r.ID, func(t *testing.T) {
			require.False(t, ids[r.ID], "duplicate rule id")
			ids[r.ID] = true
			assert.NotEmpty(t, r.Block, "rule has no must-match example")
			assert.NotEmpty(t, r.Allow, "rule has no must-not-match example")
			assert.NotEmpty(t, r.What)
			assert.NotEmpty(t, r.Safer)
			assert.NotEmpty(t, r.Protects)
			assert.NotEmpty(t, r.Unknown)
			assert.Regexp(t, `^[a-z]+\.[a-z0-9-]+$`, r.ID)
			for _, cmd := range r.Block {
				s := settings.Default()
				if r.StrictExamples {
					s.Mode = settings.Strict
				}
				in := Input{Command: cmd, Cwd: workspace, Home: home, Settings: s}
				found := false
				ctx := policy.NewContext(workspace, home, s)
				for _, f := range Findings(in) {
					if f.Rule.ID == r.ID && f.Denies(&ctx) {
						found = true
					}
				}
				assert.True(t, found, "must match: %s (decision %s)", cmd, Decide(in).RuleID)
			}
			for _, cmd := range r.Allow {
				in := Input{Command: cmd, Cwd: workspace, Home: home, Settings: settings.Default()}
				ctx := policy.NewContext(workspace, home, in.Settings)
				for _, f := range Findings(in) {
					assert.False(t, f.Rule.ID == r.ID && f.Denies(&ctx), "must not match: %s (%s)", cmd, f.Describe())
				}
			}
		})
	}
}

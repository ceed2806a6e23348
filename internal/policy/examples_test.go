package policy_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/policy"
	"github.com/gemini-guard/gemini-guard/internal/settings"
	"github.com/gemini-guard/gemini-guard/internal/shell"
	"github.com/gemini-guard/gemini-guard/internal/testdirs"
)

// findings analyses cmd run in workspace and returns every finding, denying
// or not, with the context that judges them (what shellguard.Findings does
// for a command run in the workspace root).
func findings(workspace, home string, s settings.Settings, cmd string) ([]policy.Finding, *policy.Context) {
	ctx := policy.NewContext(workspace, home, s)
	res := shell.Analyze(cmd, shell.Options{Dir: workspace, Home: home})
	return policy.Evaluate(res, &ctx, true), &ctx
}

// decision is the id of the rule that denies cmd, "" when it is allowed.
func decision(workspace, home string, s settings.Settings, cmd string) string {
	fs, ctx := findings(workspace, home, s, cmd)
	for _, f := range fs {
		if f.Denies(ctx) {
			return f.Rule.ID
		}
	}
	return ""
}

// TestRuleExamples runs every rule's must-match and must-not-match examples
// through the real analysis and policy; a rule lacking either kind fails.
func TestRuleExamples(t *testing.T) {
	workspace, home := testdirs.New(t)
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
				found := false
				fs, ctx := findings(workspace, home, s, cmd)
				for _, f := range fs {
					if f.Rule.ID == r.ID && f.Denies(ctx) {
						found = true
					}
				}
				assert.True(t, found, "must match: %s (decision %s)", cmd, decision(workspace, home, s, cmd))
			}
			for _, cmd := range r.Allow {
				fs, ctx := findings(workspace, home, settings.Default(), cmd)
				for _, f := range fs {
					assert.False(t, f.Rule.ID == r.ID && f.Denies(ctx), "must not match: %s (%s)", cmd, f.Describe())
				}
			}
		})
	}
}

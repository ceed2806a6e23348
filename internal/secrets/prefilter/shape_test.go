package prefilter

import (
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/secrets/secrettest"
)

func TestMinRun(t *testing.T) {
	for _, c := range []struct {
		pattern string
		want    int
	}{
		{`ghp_[0-9a-zA-Z]{36}`, 40},                                  // no group: the whole match
		{`\b(sgp_[a-f0-9]{40})\b`, 44},                               // one group
		{`(?i)\b(\d{15,16}(\||%)[0-9a-z\-_]{27,40})(?:[\s;]|$)`, 43}, // the outer group, not the inner one
		{`(?:token|key)\s*=\s*(a{8}|b{20})`, 8},                      // the shorter branch
		{`x(a{5})|y(b{9})`, 5},                                       // every match opens some group
		{`(a{40})|xyz`, 0},                                           // a match with no group
		{`key=([a-z]*)`, 0},                                          // a secret that may be empty
	} {
		prog, groups, err := compileSyntax(c.pattern)
		require.NoError(t, err)
		assert.Equal(t, c.want, minRun(prog, groups), c.pattern)
	}
}

// TestMinRunBoundsEveryRule: every match of every built-in rule holds a run
// of at least minRun bytes its secret may hold, on matches generated from
// the rules' own patterns. Check skips a rule's regexp on text without one.
func TestMinRunBoundsEveryRule(t *testing.T) {
	bounded := 0
	for _, r := range BuiltinRules() {
		re := regexp.MustCompile(r.Pattern)
		if r.info.minRun > 1 {
			bounded++
		}
		matched := 0
		for seed := uint64(1); seed <= 200 && matched < 40; seed++ {
			s, err := secrettest.Generate(r.Pattern, seed)
			require.NoError(t, err)
			loc := re.FindStringIndex(s)
			if loc == nil {
				continue
			}
			matched++
			m := s[loc[0]:loc[1]]
			if !assert.GreaterOrEqual(t, longestRun(m, r.info), r.info.minRun, "%s: %q", r.ID, m) {
				break
			}
			runs := runLengths{text: m}
			assert.True(t, runs.allow(r.info), "%s: %q", r.ID, m)
		}
	}
	t.Logf("%d of %d rules have a run bound above 1", bounded, len(BuiltinRules()))
}

func TestSecretGroupOnly(t *testing.T) {
	// sonar-api-token's shape: the keyword's suffix is group 1, the token
	// group 2 (gitleaks' secretGroup).
	p := `(?i)sonar[_.-]?(login|token)[ =]{1,3}([a-z0-9]{40})`
	got := SecretGroupOnly(p, 2)
	assert.Equal(t, regexp.MustCompile(p).MatchString("sonar.login=aaaaaaaaaabbbbbbbbbbccccccccccdddddddddd"), regexp.MustCompile(got).MatchString("sonar.login=aaaaaaaaaabbbbbbbbbbccccccccccdddddddddd"))
	assert.Equal(t, 1, regexp.MustCompile(got).NumSubexp())
	in, err := analyze(got, []string{"sonar"})
	require.NoError(t, err)
	assert.Equal(t, 0, in.maxSuffix, "the token ends the match")
	assert.GreaterOrEqual(t, in.maxPrefix, len("sonar.login="+"   "), "the token starts after the keyword and operator")

	assert.Equal(t, p, SecretGroupOnly(p, 0), "no secretGroup: as gitleaks, any group")
	assert.Equal(t, `a(b)c`, SecretGroupOnly(`a(b)c`, 1), "the only group")
}

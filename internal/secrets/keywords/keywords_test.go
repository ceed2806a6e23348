package keywords

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// naiveEach is what Each must report: every occurrence of every word.
func naiveEach(words []string, s string) []string {
	var out []string
	for i := range s {
		for j, w := range words {
			if strings.HasPrefix(s[i:], w) {
				out = append(out, fmt.Sprint(j, "@", i))
			}
		}
	}
	return out
}

func FuzzMatcherEach(f *testing.F) {
	words := []string{"a", "ab", "abc", "key", "ke", "s.", "api", "apikey", "ghp_", "-----begin", "é"}
	m := NewMatcher(words)
	for _, s := range []string{"", "apikey", "s.s.", "xkeykey", "-----BEGIN", "aé", "ghp_ghp_", "ab"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var got []string
		m.Each(s, func(w, pos int) { got = append(got, fmt.Sprint(w, "@", pos)) })
		want := naiveEach(m.Words(), s)
		// Same set (Each orders by position, naive by rune start and word).
		assert.ElementsMatch(t, want, got, "%q", s)
		assert.Equal(t, len(want) > 0, m.Any(s))
	})
}

func TestMayContainSecret(t *testing.T) {
	assert.False(t, MayContainSecret(""))
	assert.False(t, MayContainSecret("hello world"))
	assert.True(t, MayContainSecret("my api_key here"))
	assert.True(t, MayContainSecret("GHP_ in capitals"))
	// The keyword only appears after decoding.
	assert.True(t, MayContainSecret("x = Z2hwX2FiY2RlZmdoaWprbG1ub3BxcnN0dXZ3eHl6"))
	assert.True(t, MayContainSecret("x = %67%68%70%5F"))
}

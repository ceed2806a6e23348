package prefilter

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWordIndex(t *testing.T) {
	words := []string{"a3t", "api", "k", "key", "token"}
	x := newWordIndex(words)
	cases := map[string][]bool{
		"":                 {false, false, false, false, false},
		"the api token":    {false, true, true, false, true},
		"keys":             {false, false, true, true, false},
		"a3":               {false, false, false, false, false},
		"xa3tx apikey tok": {true, true, true, true, false},
	}
	for text, want := range cases {
		found := make([]bool, len(words))
		any := x.find(text, found)
		assert.Equal(t, want, found, text)
		assert.Equal(t, any, x.find(text, nil), text)
	}
}

func TestWordIndexMatchesPrefilter(t *testing.T) {
	x := newWordIndex(builtinWords)
	for _, text := range []string{"no words here at all", "my github token ghp_", "-----begin rsa", "AKIA and xoxb- and sk-ant-"} {
		found := make([]bool, len(builtinWords))
		x.find(text, found)
		theirs := make([]bool, len(builtinWords))
		for i, w := range builtinWords {
			theirs[i] = strings.Contains(text, w)
		}
		assert.Equal(t, theirs, found, text)
	}
}

// pieces is a text of 1 to 12 pieces of words, each cut anywhere, some
// followed by one of the bytes of seps.
func pieces(rng *rand.Rand, words []string, seps string) string {
	var b strings.Builder
	for range 1 + rng.IntN(12) {
		w := words[rng.IntN(len(words))]
		from := rng.IntN(len(w))
		b.WriteString(w[from:][:rng.IntN(len(w)-from)+1])
		if rng.IntN(3) == 0 {
			b.WriteByte(seps[rng.IntN(len(seps))])
		}
	}
	return b.String()
}

// find's shortcuts (words sharing a first byte searched by their second,
// words found once not looked for again) find exactly what a plain search
// does: on texts made of pieces of the built-in keywords, cut anywhere.
func TestWordIndexShortcuts(t *testing.T) {
	x := newWordIndex(builtinWords)
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		text := pieces(rng, builtinWords, " s.ek")
		found := make([]bool, len(builtinWords))
		any := x.find(text, found)
		want := make([]bool, len(builtinWords))
		wantAny := false
		for i, w := range builtinWords {
			want[i] = strings.Contains(text, w)
			wantAny = wantAny || want[i]
		}
		require.Equal(t, want, found, "%q", text)
		require.Equal(t, wantAny, any, "%q", text)
		require.Equal(t, wantAny, x.find(text, nil), "%q", text)
	}
}

// The built-in rules' requirements are answered from one index pass over
// their literals: exactly what a search of the text for each would say, on
// texts made of pieces of those literals cut anywhere. A literal the index
// does not know is searched for.
func TestLiteralsMatchSearch(t *testing.T) {
	w := NewWatch(BuiltinRules(), nil)
	require.NotEmpty(t, w.lits)
	rng := rand.New(rand.NewPCG(3, 4))
	for range 1000 {
		text := pieces(rng, builtinLiterals, " =:\"/")
		lits := literals{lower: text, w: w}
		for _, l := range append(builtinLiterals[:len(builtinLiterals):len(builtinLiterals)], "not-a-literal", "=") {
			require.Equal(t, strings.Contains(text, l), lits.has(l), "%q in %q", l, text)
		}
	}
	for _, r := range BuiltinRules() {
		for _, q := range []requirement{r.info.need, r.info.needBefore} {
			for _, term := range q {
				for _, l := range term {
					assert.Contains(t, builtinLiterals, l, r.ID)
				}
			}
		}
	}
}

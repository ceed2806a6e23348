package known

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/secrets/known/knowntest"
)

// The values of issue 38's measure: a custom-format token and a .env
// password.
func TestEverySpellingIsFound(t *testing.T) {
	s := NewSet(Key{7, 9})
	s.Add(Value{Source: "$INTERNAL_API_TOKEN", Text: envToken})
	s.Add(Value{Source: ".env (DB_PASSWORD)", Text: filePass})
	for _, v := range []struct{ source, text string }{{"$INTERNAL_API_TOKEN", envToken}, {".env (DB_PASSWORD)", filePass}} {
		for name, sp := range knowntest.Spellings(v.text) {
			text := "the value: " + sp + " (done)"
			got := s.Find(text, 0)
			require.NotEmpty(t, got, "%s of %s: %q", name, v.source, sp)
			assert.Equal(t, v.source, got[0].Description, name)
			// The finding is the spelling, but for the brackets or a
			// function's name around a list.
			at := strings.Index(text, sp)
			assert.True(t, got[0].Start >= at && got[0].Start <= at+len("String.fromCharCode("), "%s: %q at %d", name, sp, got[0].Start)
			assert.True(t, got[0].End <= at+len(sp) && got[0].End >= at+len(sp)-2, "%s: %q ends at %d", name, sp, got[0].End)
		}
	}
}

// Short values (under CanonMinLen bytes) are matched only as they are and
// in their encoded forms: case folded or reversed they would match too
// much ordinary text.
func TestShortValuesHaveNoCanonicalForms(t *testing.T) {
	s := NewSet(Key{7, 9})
	s.Add(Value{Source: "$T", Text: "Qx7-pL2m"})
	assert.NotEmpty(t, s.Find("x Qx7-pL2m y", 0))
	for _, text := range []string{"QX7-PL2M", "m2Lp-7xQ", "Dk7-cY2z", `\x51\x78\x37\x2d\x70\x4c\x32\x6d`} {
		assert.Empty(t, s.Find("x "+text+" y", 0), text)
	}
}

// The property: for random values of 12-40 characters and random texts,
// the canonical view finds a value exactly when one of its spellings was
// put in the text: it finds every spelling, and nothing in text that
// holds none (a plain search of every spelling says which).
func TestPropertyCanonicalFoundIffSpelt(t *testing.T) {
	r := rand.New(rand.NewPCG(38, 1))
	const valueChars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_!#%+"
	textChars := []string{"a", "e", "t", "x", "Q", "7", "0", " ", " ", ",", ", ", "\n", "%", "%4", "&#", ";", "\\x", "\\u00", "0x", ":", "'", "\"", "(", ")", "+", "-", "é", "\u200b", "日本", "chr(", "9", "10"}
	rounds, inserted, foundOnlyByView := 3000, 0, 0
	if testing.Short() {
		rounds = 500
	}
	for round := 0; round < rounds; round++ {
		b := make([]byte, 12+r.IntN(29))
		for i := range b {
			b[i] = valueChars[r.IntN(len(valueChars))]
		}
		v := string(b)
		if Ordinary(v) {
			continue
		}
		s := NewSet(Key{r.Uint64(), r.Uint64()})
		s.Add(Value{Source: "$V", Text: v})
		var tb strings.Builder
		for i := 0; i < r.IntN(200); i++ {
			tb.WriteString(textChars[r.IntN(len(textChars))])
		}
		text := tb.String()
		spellings := knowntest.Spellings(v)
		names := make([]string, 0, len(spellings))
		for n := range spellings {
			names = append(names, n)
		}
		slices.Sort(names)
		var sp string
		if r.IntN(2) == 0 {
			name := names[r.IntN(len(names))]
			sp = spellings[name]
			at := r.IntN(len(text) + 1)
			// Not in the middle of a character.
			for at < len(text) && text[at]&0xC0 == 0x80 {
				at++
			}
			text = text[:at] + " " + sp + " " + text[at:]
			inserted++
		}
		plain := false
		for _, f := range append(Forms(v), valuesOf(spellings)...) {
			plain = plain || strings.Contains(text, f)
		}
		got := s.Find(text, 0)
		if sp != "" {
			require.True(t, plain)
			require.NotEmpty(t, got, "round %d: %q spelt %q in %q", round, v, sp, text)
			foundOnlyByView++
		} else {
			require.Equal(t, plain, len(got) > 0, "round %d: %q in %q found %v", round, v, text, got)
		}
	}
	t.Logf("%d rounds, %d with a spelling inserted (%d found)", rounds, inserted, foundOnlyByView)
}

func valuesOf(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

// The stream holds back a suffix that may start a canonical form: the
// value upper-cased, reversed or in rot13 (canonTail), and a run of
// escapes, codes or characters apart that reaches the end (decodedTail).
func TestTailHoldsASpellingUnderWay(t *testing.T) {
	s := NewSet(Key{5, 6})
	s.Add(Value{Source: "$T", Text: envToken})
	prefix := "Sure, here it is: "
	for name, sp := range knowntest.Spellings(envToken) {
		// What wraps a list may be shown: it says nothing of the value.
		wrapper := 0
		for _, w := range []string{"String.fromCharCode(", "bytes([", "chr(", "['", "[", "{"} {
			if strings.HasPrefix(sp, w) {
				wrapper = len(w)
				break
			}
		}
		for cut := max(24, len(sp)/3); cut < len(sp); cut++ {
			text := prefix + sp[:cut]
			if len(s.Find(text, 0)) > 0 {
				continue // found whole: the stream holds a finding at the end
			}
			assert.LessOrEqual(t, s.Tail(text, 0), len(prefix)+wrapper, "%s cut at %d: %q", name, cut, sp[:cut])
		}
	}
	// Ordinary prose is not held.
	text := "Rotate the API key in the vault, then update the token. "
	assert.Equal(t, len(text), s.Tail(text, 0))
}

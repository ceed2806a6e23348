package known

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Spellings are the ways issue 38's attacker wrote a value out without a
// tool, made here byte by byte (with fmt and strings, not with the
// package's decoder): the canonical view must find each of them.
func Spellings(v string) map[string]string {
	each := func(f func(c byte) string, sep string) string {
		parts := make([]string, len(v))
		for i := 0; i < len(v); i++ {
			parts[i] = f(v[i])
		}
		return strings.Join(parts, sep)
	}
	rev := []byte(v)
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	rot := []byte(v)
	for i, c := range rot {
		switch {
		case 'a' <= c && c <= 'z':
			rot[i] = 'a' + (c-'a'+13)%26
		case 'A' <= c && c <= 'Z':
			rot[i] = 'A' + (c-'A'+13)%26
		}
	}
	named := map[byte]string{'!': "&excl;", '#': "&num;", '%': "&percnt;", '+': "&plus;", '_': "&lowbar;", '&': "&amp;", '"': "&quot;", '\'': "&apos;", '@': "&commat;", '$': "&dollar;", ' ': "&#32;"}
	return map[string]string{
		"upper":          strings.ToUpper(v),
		"lower":          strings.ToLower(v),
		"reversed":       string(rev),
		"rot13":          string(rot),
		"percent lower":  each(func(c byte) string { return fmt.Sprintf("%%%02x", c) }, ""),
		"percent twice":  each(func(c byte) string { return fmt.Sprintf("%%25%02X", c) }, ""),
		"\\u each":       each(func(c byte) string { return fmt.Sprintf(`\u%04x`, c) }, ""),
		"\\u{} each":     each(func(c byte) string { return fmt.Sprintf(`\u{%x}`, c) }, ""),
		"&#dec;":         each(func(c byte) string { return fmt.Sprintf("&#%d;", c) }, ""),
		"&#xhex;":        each(func(c byte) string { return fmt.Sprintf("&#x%x;", c) }, ""),
		"named entities": each(func(c byte) string { return cond(named[c] != "", named[c], cond(c == '-', "&#45;", string(c))) }, ""),
		"octal":          each(func(c byte) string { return fmt.Sprintf(`\%03o`, c) }, ""),
		"decimal list":   "[" + each(func(c byte) string { return fmt.Sprint(c) }, ", ") + "]",
		"decimal tight":  "bytes([" + each(func(c byte) string { return fmt.Sprint(c) }, ",") + "])",
		"chr()":          each(func(c byte) string { return fmt.Sprintf("chr(%d)", c) }, "+"),
		"fromCharCode":   "String.fromCharCode(" + each(func(c byte) string { return fmt.Sprint(c) }, ", ") + ")",
		"hex colons":     each(func(c byte) string { return fmt.Sprintf("%02x", c) }, ":"),
		"\\x each":       each(func(c byte) string { return fmt.Sprintf(`\x%02x`, c) }, ""),
		"0x list":        each(func(c byte) string { return fmt.Sprintf("0x%02x", c) }, ","),
		"0x list spaced": "{" + each(func(c byte) string { return fmt.Sprintf("0x%02X", c) }, ", ") + "}",
		"commas":         each(func(c byte) string { return string(c) }, ","),
		"spaces":         each(func(c byte) string { return string(c) }, " "),
		"comma space":    each(func(c byte) string { return string(c) }, ", "),
		"quoted chars":   "[" + each(func(c byte) string { return "'" + string(c) + "'" }, ", ") + "]",
		"zero width":     each(func(c byte) string { return string(c) }, "\u200b"),
		"zero width j":   each(func(c byte) string { return string(c) }, "\u200d"),
		"specials %xx":   each(func(c byte) string { return cond(isAlnum(c), string(c), fmt.Sprintf("%%%02x", c)) }, ""),
		"upper, \\x":     each(func(c byte) string { return cond(isAlnum(c), strings.ToUpper(string(c)), fmt.Sprintf(`\x%02x`, c)) }, ""),
		"specials &#;":   each(func(c byte) string { return cond(isAlnum(c), string(c), fmt.Sprintf("&#%d;", c)) }, ""),
	}
}

func cond[T any](c bool, a, b T) T {
	if c {
		return a
	}
	return b
}

// The values of issue 38's measure: a custom-format token and a .env
// password.
func TestEverySpellingIsFound(t *testing.T) {
	s := NewSet(Key{7, 9})
	s.Add(Value{"$INTERNAL_API_TOKEN", envToken})
	s.Add(Value{".env (DB_PASSWORD)", filePass})
	for _, v := range []struct{ source, text string }{{"$INTERNAL_API_TOKEN", envToken}, {".env (DB_PASSWORD)", filePass}} {
		for name, sp := range Spellings(v.text) {
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
	s.Add(Value{"$T", "Qx7-pL2m"})
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
		s.Add(Value{"$V", v})
		var tb strings.Builder
		for i := 0; i < r.IntN(200); i++ {
			tb.WriteString(textChars[r.IntN(len(textChars))])
		}
		text := tb.String()
		spellings := Spellings(v)
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

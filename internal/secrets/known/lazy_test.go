package known

import (
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/secrets"
)

// A set that builds its forms only when a text may hold one finds and
// holds exactly what a set with every form built does: the values
// themselves, their encodings, in any text and at any split.
func TestLazyFormsAsEager(t *testing.T) {
	r := rand.New(rand.NewPCG(27, 9))
	const alnum = "abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"
	const specials = "!@#$%^&*()+=/ '\"\\:;,.<>?"
	withSpecials := false
	randomValue := func() string {
		b := make([]byte, 8+r.IntN(40))
		for i := range b {
			b[i] = alnum[r.IntN(len(alnum))]
			if withSpecials && r.IntN(8) == 0 {
				b[i] = specials[r.IntN(len(specials))]
			}
		}
		return string(b)
	}
	words := []string{"the", "build", "failed", "internal/server", "--stat", "HEAD~1", "token", "==", "\n", " ", "0123456789abcdef0123", "a+b", "%20", `\"`, "-----", "xY9_zZ-q/"}
	stayedLazy, built := 0, 0
	for round := 0; round < 2000; round++ {
		withSpecials = round%2 == 0
		var values []Value
		for i := 0; i < 1+r.IntN(6); i++ {
			values = append(values, Value{Source: "$V" + string(rune('A'+i)), Text: randomValue()})
		}
		var b strings.Builder
		for i := 0; i < 2+r.IntN(12); i++ {
			if r.IntN(3) == 0 {
				v := values[r.IntN(len(values))].Text
				forms := Forms(v)
				f := forms[r.IntN(len(forms))]
				if r.IntN(4) == 0 {
					f = f[:r.IntN(len(f))] // a form cut short, as at a chunk's end
				}
				b.WriteString(f)
			} else {
				b.WriteString(words[r.IntN(len(words))])
			}
		}
		text := b.String()
		lazy, eager := NewSet(Key{K0: 7, K1: 9}), NewSet(Key{K0: 7, K1: 9})
		for _, v := range values {
			lazy.Add(v)
			eager.Add(v)
		}
		eager.build()
		for _, from := range []int{len(text), r.IntN(len(text) + 1), 0} {
			require.Equal(t, spans(eager.Find(text, from)), spans(lazy.Find(text, from)), "Find(%q, %d) of %q", text, from, values)
		}
		if len(lazy.pending) > 0 {
			stayedLazy++
		} else {
			built++
		}
		// A fresh lazy set for Tail: Find may have built the forms.
		lazy = NewSet(Key{K0: 7, K1: 9})
		for _, v := range values {
			lazy.Add(v)
		}
		base := r.IntN(len(text) + 1)
		require.Equal(t, eager.Tail(text, base), lazy.Tail(text, base), "Tail(%q, %d) of %q", text, base, values)
	}
	t.Logf("texts where the forms stayed unbuilt: %d, built: %d", stayedLazy, built)
	require.Positive(t, stayedLazy)
	require.Positive(t, built)
}

func spans(fs []secrets.Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, fmt.Sprintf("%s %d-%d line %d decoded %v", f.Description, f.Start, f.End, f.Line, f.Decoded))
	}
	slices.Sort(out)
	return out
}

// Find finds exactly what a plain search for every form of every value
// finds, whatever filters it takes to skip the rest of a text: values
// held in the clear, as keyed hashes, and both at once.
func TestFindAsPlainSearch(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 3))
	const alnum = "abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789+/%'\\ "
	words := []string{"the", "build", "internal/server", "\n", " ", "0123456789abcdef0123", "==", "aGVsbG8gd29ybGQ", "%41%42"}
	found := 0
	for round := 0; round < 1500; round++ {
		key := Key{K0: r.Uint64(), K1: r.Uint64()}
		s := NewSet(key)
		s.noCanon = true // the canonical view has its own test (canon_test.go)
		type known struct {
			source, text string
			hashed       bool
		}
		var values []known
		for i := 0; i < 1+r.IntN(30); i++ {
			b := make([]byte, 8+r.IntN(40))
			for j := range b {
				b[j] = alnum[r.IntN(len(alnum))]
			}
			v := known{source: fmt.Sprintf("$V%d", i), text: string(b), hashed: round%3 == 0 && r.IntN(2) == 0}
			if Ordinary(v.text) || slices.ContainsFunc(values, func(k known) bool { return k.text == v.text }) {
				continue
			}
			values = append(values, v)
			if v.hashed {
				for _, h := range Hash(key, Value{Source: v.source, Text: v.text}) {
					s.AddHashed(h)
				}
			} else {
				s.Add(Value{Source: v.source, Text: v.text})
			}
		}
		if len(values) == 0 {
			continue
		}
		var b strings.Builder
		for i := 0; i < 2+r.IntN(20); i++ {
			if r.IntN(3) == 0 {
				forms := Forms(values[r.IntN(len(values))].text)
				b.WriteString(forms[r.IntN(len(forms))])
			} else {
				b.WriteString(words[r.IntN(len(words))])
			}
		}
		text := b.String()
		from := 0
		if r.IntN(3) == 0 {
			from = r.IntN(len(text) + 1)
		}
		var want []string
		for _, v := range values {
			for k, f := range Forms(v.text) {
				for i := 0; i+len(f) <= len(text); i++ {
					if text[i:i+len(f)] == f && i+len(f) > from {
						want = append(want, fmt.Sprintf("%s %d-%d line %d decoded %v", v.source, i, i+len(f), 1+strings.Count(text[:i], "\n"), k > 0))
					}
				}
			}
		}
		slices.Sort(want)
		got := spans(s.Find(text, from))
		require.Equal(t, want, got, "Find(%q, %d)", text, from)
		found += len(got)
	}
	require.Positive(t, found)
}

// Every base64 and hex form of a value starts with one of the starts
// encodedStarts gives for it (the escaped forms are built on an escape
// instead).
func TestEncodedStartsBeginEveryEncodedForm(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 27))
	for i := 0; i < 5000; i++ {
		b := make([]byte, MinLen+r.IntN(60))
		for j := range b {
			b[j] = byte(r.IntN(256))
			if i%2 == 0 {
				b[j] = byte(' ' + r.IntN(95))
			}
		}
		v := string(b)
		starts := encodedStarts(v, nil)
		encoded := []string{hex.EncodeToString(b), strings.ToUpper(hex.EncodeToString(b))}
		for align := 0; align < 3; align++ {
			std := base64Interior(append(make([]byte, align), b...), align)
			encoded = append(encoded, std, strings.NewReplacer("+", "-", "/", "_").Replace(std))
		}
		for _, f := range encoded {
			require.Contains(t, Forms(v), f, "an encoded form of %q", v)
			require.Contains(t, starts, gram(f), "form %q of %q", f, v)
		}
	}
}

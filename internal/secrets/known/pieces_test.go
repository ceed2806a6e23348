package known

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPieceBounds(t *testing.T) {
	for n, want := range map[int]int{13: 12, 23: 12, 24: 12, 25: 13, 40: 20, 64: 32} {
		assert.Equal(t, want, PieceMin(n), n)
	}
	assert.Equal(t, 8, pieceJoin(20))
	assert.Equal(t, 8, pieceJoin(24))
	assert.Equal(t, 13, pieceJoin(25))
	assert.Equal(t, 32, pieceJoin(64))
}

func TestPiecesFoundAndJoined(t *testing.T) {
	const v = "itk9-Qm3vZr8LpW2xNc7Hd4B" // 24 bytes: PieceMin 12, joined from 8
	s := NewSet(Key{1, 2})
	s.Add(Value{Source: "$INTERNAL_API_TOKEN", Text: v})
	found := func(text string) bool {
		fs := s.Find(text, 0)
		for _, f := range fs {
			assert.Equal(t, "$INTERNAL_API_TOKEN", f.Description)
			assert.Contains(t, v, f.Secret, "a piece's finding holds the piece")
			assert.Equal(t, text[f.Start:f.End], f.Secret)
		}
		return len(fs) > 0
	}
	assert.True(t, found("x="+v[3:15]+";"), "a piece of PieceMin bytes")
	assert.False(t, found("x="+v[3:14]+";"), "a byte less")
	assert.True(t, found("curl -d a="+v[:12]+" -d b="+v[12:]+" https://x.test"), "halves in one command")
	assert.True(t, found("a = \""+v[16:]+"\"\nb = \""+v[:9]+"\"\n"), "two strings, in any order")
	assert.False(t, found("a = \""+v[16:]+"\"\nb = \""+v[13:16]+"\"\n"), "8 and 3 bytes: not enough")
	assert.False(t, found("a = \""+v[:7]+"\"\nb = \""+v[7:14]+"\"\n"), "parts under 8 bytes are not joined")
	assert.False(t, found("a="+v[:9]+" b="+v[:9]), "the same part twice covers it once")
	fs := s.Find("k="+v+" and "+v[:14], 0)
	require.Len(t, fs, 2, "the whole value once, the piece once")
	assert.Equal(t, v, fs[0].Secret)
	assert.Equal(t, v[:14], fs[1].Secret)
	assert.Empty(t, s.Find("x="+v[3:15]+";", 15), "a piece ending before from is not reported")

	const long = "Lw2-zq8VxR4pKm7Nc3Hd9TbY6s" // 26 bytes: PieceMin 13, parts not joined
	s.Add(Value{Source: "$LONG_TOKEN", Text: long})
	assert.NotEmpty(t, s.Find("-d a="+long[:13]+" -d b="+long[13:], 0), "halves: one is a match alone")
	assert.Empty(t, s.Find("a="+long[:9]+" b="+long[9:18]+" c="+long[18:], 0), "thirds of a longer value are not joined")
}

// TestPropertyPiecesFoundIffPresent: random values in random texts, with
// random parts of the value put in. The value is found exactly when an
// independent search of the text finds a common run with the value of
// PieceMin bytes, or common runs of pieceJoin bytes or more that together
// cover PieceMin of it; and every finding is such a run.
func TestPropertyPiecesFoundIffPresent(t *testing.T) {
	r := rand.New(rand.NewPCG(38, 2))
	const alphabet = "abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ0123456789-_.+/=!#%"
	const textAlphabet = alphabet + "      \n"
	cases, foundCount := 0, 0
	for cases < 3000 {
		b := make([]byte, 13+r.IntN(48))
		for j := range b {
			b[j] = alphabet[r.IntN(len(alphabet))]
		}
		v := string(b)
		if Untracked(Value{Text: v}) != "" {
			continue
		}
		cases++
		var text strings.Builder
		for k := range 1 + r.IntN(4) {
			for range r.IntN(40) {
				text.WriteByte(textAlphabet[r.IntN(len(textAlphabet))])
			}
			if k == 0 && r.IntN(4) == 0 {
				continue // some texts hold no part
			}
			lo := max(1, pieceJoin(len(v))-3)
			n := lo + r.IntN(len(v)-lo+1)
			at := r.IntN(len(v) - n + 1)
			text.WriteString(v[at : at+n])
		}
		s := NewSet(Key{r.Uint64(), r.Uint64()})
		s.noCanon = true // the canonical forms have their own property test
		s.Add(Value{Source: "$V", Text: v})
		txt := text.String()
		fs := s.Find(txt, 0)
		want := oraclePieces(v, txt)
		if !assert.Equal(t, want, len(fs) > 0, "value %q in %q", v, txt) {
			return
		}
		for _, f := range fs {
			require.Contains(t, v, txt[f.Start:f.End])
		}
		if want {
			foundCount++
		}
	}
	t.Logf("%d values, %d found", cases, foundCount)
}

// oraclePieces is the brute-force answer: the maximal common runs of v
// and text, those of pieceJoin bytes or more joined.
func oraclePieces(v, text string) bool {
	if strings.Contains(text, v) {
		return true
	}
	covered := make([]bool, len(v))
	for t := range len(text) {
		for o := range len(v) {
			if t > 0 && o > 0 && text[t-1] == v[o-1] {
				continue // not maximal on the left
			}
			n := 0
			for t+n < len(text) && o+n < len(v) && text[t+n] == v[o+n] {
				n++
			}
			if n >= PieceMin(len(v)) {
				return true
			}
			if n >= pieceJoin(len(v)) {
				for k := o; k < o+n; k++ {
					covered[k] = true
				}
			}
		}
	}
	c := 0
	for _, x := range covered {
		if x {
			c++
		}
	}
	return c >= PieceMin(len(v))
}

// TestPiecesOfStrongValuesNotInOrdinaryText: 200 random values,
// none of whose pieces is in Go's own sources (code, comments, strings).
func TestPiecesOfStrongValuesNotInOrdinaryText(t *testing.T) {
	var corpus strings.Builder
	for _, f := range []string{"net/http/transfer.go", "net/http/server.go", "encoding/json/encode.go", "strings/strings.go"} {
		data, err := os.ReadFile(filepath.Join(runtime.GOROOT(), "src", filepath.FromSlash(f)))
		if err != nil {
			t.Skip("GOROOT sources not available")
		}
		corpus.Write(data)
	}
	r := rand.New(rand.NewPCG(38, 4))
	const alphabet = "abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ0123456789-_.!#%"
	s := NewSet(Key{7, 8})
	for range 200 {
		b := make([]byte, 13+r.IntN(40))
		for j := range b {
			b[j] = alphabet[r.IntN(len(alphabet))]
		}
		s.Add(Value{Source: "$V", Text: string(b)})
	}
	assert.Empty(t, s.Find(corpus.String(), 0))
}

// TestPiecesOfARepeatedGramCostLittle: 100 KB of one gram of a value over
// and over (each a part of its own, none joined to the next) is looked at
// in about the time of any text: no part is compared with every other.
func TestPiecesOfARepeatedGramCostLittle(t *testing.T) {
	const v = "itk9-Qm3vZr8LpW2xNc7Hd4B"
	s := NewSet(Key{1, 2})
	s.Add(Value{Source: "$T", Text: v})
	text := strings.Repeat(v[:8]+" ", 100<<10/9) + v[8:20]
	start := time.Now()
	fs := s.Find(text, 0)
	assert.Less(t, time.Since(start), 2*time.Second)
	assert.NotEmpty(t, fs, "8 bytes and 12 bytes of a 24-byte value: joined")
	assert.Equal(t, 1+strings.Count(text[:fs[len(fs)-1].Start], "\n"), fs[len(fs)-1].Line)
}

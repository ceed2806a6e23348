package redact

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/secrets"
)

// The one pass per length finds what a search per secret finds, in the
// same order: overlapping copies, copies that end after base only,
// secrets listed twice, empty ones skipped.
func TestKnownCopiesByLengthEqualsEach(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	alpha := "ab"
	for round := range 300 {
		var known []string
		for range 1 + rng.IntN(40) {
			n := []int{0, 1, 2, 3, 8, 9}[rng.IntN(6)]
			var b strings.Builder
			for range n {
				b.WriteByte(alpha[rng.IntN(len(alpha))])
			}
			known = append(known, b.String())
		}
		if rng.IntN(4) == 0 {
			known = append(known, known[0])
		}
		var b strings.Builder
		for range rng.IntN(200) {
			b.WriteByte(alpha[rng.IntN(len(alpha))])
		}
		text := b.String()
		base := rng.IntN(len(text) + 1)
		var each []secrets.Finding
		for _, k := range known {
			each = append(each, knownCopies(text, base, []string{k})...)
		}
		got := knownCopiesByLength(text, base, known)
		require.Equal(t, each, got, "round %d: text %q base %d known %q", round, text, base, known)
	}
}

// Tens of thousands of secrets over megabytes of text are looked for in
// one pass per length, not a search each (which took minutes).
func TestKnownCopiesManySecrets(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	const alnum = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	var known []string
	var b strings.Builder
	for b.Len() < 2<<20 {
		var k strings.Builder
		k.WriteString("ghp_")
		for range 36 {
			k.WriteByte(alnum[rng.IntN(len(alnum))])
		}
		known = append(known, k.String())
		b.WriteString("token: " + k.String() + "\n")
	}
	text := b.String() + known[0]
	start := time.Now()
	got := knownCopies(text, 0, known)
	assert.Len(t, got, len(known)+1, "each secret where it is, and the copy of the first")
	t.Logf("%d secrets over %d bytes: %v", len(known), len(text), time.Since(start))
}

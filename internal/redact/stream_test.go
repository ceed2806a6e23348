package redact

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/secrets/prefilter"
)

// Test secrets are built at run time so that the repository holds none.
func alnum(rng *rand.Rand, n int) string {
	const a = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	b := make([]byte, n)
	for i := range b {
		b[i] = a[rng.IntN(len(a))]
	}
	return string(b)
}

func fromSet(rng *rand.Rand, set string, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = set[rng.IntN(len(set))]
	}
	return string(b)
}

// planted is a secret inside the text that carries it, and the part that
// must never be displayed.
type planted struct {
	text, secret, rule string
}

func plant(rng *rand.Rand, kind int) planted {
	switch kind % 5 {
	case 0:
		s := "ghp_" + alnum(rng, 36)
		return planted{"my token " + s + " works", s, "github-pat"}
	case 1:
		s := "AKIA" + fromSet(rng, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16)
		return planted{"aws id " + s + ".", s, "aws-access-token"}
	case 2:
		s := alnum(rng, 28)
		return planted{`auth = "` + s + `"`, s, "generic-api-key"}
	case 3:
		var b strings.Builder
		for range 6 {
			b.WriteString(fromSet(rng, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/", 64))
			b.WriteString("\n")
		}
		s := "-----BEGIN RSA PRIVATE KEY-----\n" + b.String() + "-----END RSA PRIVATE KEY-----"
		return planted{"key:\n" + s + "\nend of key", s, "private-key"}
	default:
		s := "xoxb-" + fromSet(rng, "0123456789", 11) + "-" + fromSet(rng, "0123456789", 12) + "-" + alnum(rng, 24)
		return planted{"slack " + s + " here", s, "slack-bot-token"}
	}
}

var filler = strings.Fields(`the quick answer is that you should rotate it now. Here is the plan:
first, check the logs; second, update config files and restart the service. Thanks!
We keep every ordinary word of this text visible to the user, including words like
token, key, secret, password and access, which are only keywords.`)

func newTestRedactor() (*Redactor, *regexpScanner) {
	sc := &regexpScanner{rules: prefilter.BuiltinRules()}
	return &Redactor{Watch: prefilter.NewWatch(prefilter.BuiltinRules(), nil), Scanner: sc}, sc
}

// stream pushes chunks through a fresh stream and flushes it, returning
// what was shown after each chunk and in total.
func stream(t testing.TB, r *Redactor, chunks []string) ([]string, string) {
	t.Helper()
	var s Stream
	var shown []string
	var all strings.Builder
	for _, c := range chunks {
		out, err := r.Push(&s, c)
		require.NoError(t, err)
		shown = append(shown, out)
		all.WriteString(out)
	}
	out, err := r.Flush(&s)
	require.NoError(t, err)
	shown = append(shown, out)
	all.WriteString(out)
	return shown, all.String()
}

// cut splits text at n-1 random byte positions (not inside a UTF-8 rune).
func cut(rng *rand.Rand, text string, n int) []string {
	var at []int
	for range n - 1 {
		at = append(at, rng.IntN(len(text)+1))
	}
	at = append(at, 0, len(text))
	slicesSort(at)
	var out []string
	for i := 1; i < len(at); i++ {
		a, b := runeStart(text, at[i-1]), runeStart(text, at[i])
		if b > a {
			out = append(out, text[a:b])
		}
	}
	return out
}

func slicesSort(a []int) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j] < a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}

func TestPushRedacts(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for kind := range 5 {
		p := plant(rng, kind)
		t.Run(p.rule, func(t *testing.T) {
			r, _ := newTestRedactor()
			text := "Before. " + p.text + " After."
			_, whole := stream(t, r, []string{text})
			assert.NotContains(t, whole, p.secret)
			assert.Contains(t, whole, "[REDACTED:"+p.rule+"]")
			assert.True(t, strings.HasPrefix(whole, "Before. "), whole)
			assert.True(t, strings.HasSuffix(whole, " After."), whole)

			// Split in the middle of the secret: the first part is held.
			i := strings.Index(text, p.secret) + len(p.secret)/2
			shown, whole2 := stream(t, r, []string{text[:i], text[i:]})
			assert.Equal(t, whole, whole2)
			assert.NotContains(t, shown[0], p.secret[:len(p.secret)/2])
		})
	}
}

func TestPushMarkers(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	p := plant(rng, 0)
	r, _ := newTestRedactor()
	r.Marker = PlainMarker
	_, whole := stream(t, r, []string{p.text})
	assert.Equal(t, "my token [REDACTED] works", whole)
}

func TestPushHoldsOnlyWhatCouldBecomeASecret(t *testing.T) {
	cases := []struct {
		name, chunk, shown string
	}{
		{"plain sentence", "Hello there, how are you?", "Hello there, how are you?"},
		// A word under way may be the start of a secret whose keyword
		// comes later (hashicorp-tf-api-token's 14 characters before
		// ".atlasv1."): it waits for the next chunk.
		{"ends mid word", "Hello ther", "Hello "}, //nolint:misspell // a word cut short
		{"a token prefix", "your token is gh", "your token is "},
		{"token under way", "your token is ghp_abc", "your token is "},
		{"generic value under way", `api_key = "abcdef`, `api_key = "`},
		{"generic opener only", `api_key = "`, `api_key = "`},
		{"pem block open", "key:\n-----BEGIN RSA PRIVATE KEY-----\nMIIEow", "key:\n"},
		{"long base64 run", "blob " + strings.Repeat("QUJD", 5), "blob "},
		{"keyword words", "Use the key and the token wisely.", "Use the key and the token wisely."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, _ := newTestRedactor()
			var s Stream
			out, err := r.Push(&s, c.chunk)
			require.NoError(t, err)
			assert.Equal(t, c.shown, out)
			assert.Equal(t, c.chunk[len(c.shown):], s.Held)
			rest, err := r.Flush(&s)
			require.NoError(t, err)
			if c.name != "pem block open" {
				assert.Equal(t, c.chunk, out+rest, "flush shows the rest when it is no secret")
			}
		})
	}
}

func TestFlushOpenPrivateKey(t *testing.T) {
	r, _ := newTestRedactor()
	text := "key:\n-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA" + strings.Repeat("x", 80)
	_, whole := stream(t, r, []string{text})
	assert.Equal(t, "key:\n[REDACTED:private-key]", whole)
}

func TestKnownSecretCopies(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	p := plant(rng, 2)
	r, _ := newTestRedactor()
	// The bare copy later has no keyword: only the memory hides it.
	text := p.text + ". Again: " + p.secret + " done."
	for _, chunks := range [][]string{{text}, cut(rng, text, 5), cut(rng, text, 20)} {
		_, whole := stream(t, r, chunks)
		assert.NotContains(t, whole, p.secret)
		assert.Equal(t, 2, strings.Count(whole, "[REDACTED:"), whole)
	}
}

func TestScannerError(t *testing.T) {
	r := &Redactor{Watch: prefilter.NewWatch(prefilter.BuiltinRules(), nil), Scanner: failingScanner{}}
	s := Stream{Held: "held"}
	_, err := r.Push(&s, `api_key = "abcdefghijklmnop1234" and more`)
	assert.ErrorIs(t, err, errScan)
	assert.Equal(t, Stream{Held: "held"}, s, "stream unchanged on error")
	_, err = (&Redactor{}).Push(&s, "x")
	assert.ErrorIs(t, err, ErrNotReady)
}

// TestAnyChunking streams answers with one to three secrets under many
// random chunkings: no secret is ever displayed, every ordinary word is, and
// the result does not depend on the chunking.
func TestAnyChunking(t *testing.T) {
	fake, _ := newTestRedactor()
	t.Run("regexp scanner", func(t *testing.T) { anyChunking(t, fake, 60, true) })
	// gitleaks' allowlists can clear a planted secret in the context the
	// random words give it ("keywords. api_key = ..." matches an allowlist):
	// then it is no secret in the whole text either, and only the equality
	// with the one-chunk result is checked for it.
	t.Run("gemini-guard scanner", func(t *testing.T) { anyChunking(t, newRealRedactor(t), 30, false) })
}

func anyChunking(t *testing.T, r *Redactor, rounds int, allFound bool) {
	rng := rand.New(rand.NewPCG(42, 42))
	for round := range rounds {
		var b strings.Builder
		var secrets []planted
		n := 1 + rng.IntN(3)
		for i := range n {
			for range 3 + rng.IntN(12) {
				b.WriteString(filler[rng.IntN(len(filler))])
				b.WriteString(" ")
			}
			p := plant(rng, rng.IntN(5)+i)
			secrets = append(secrets, p)
			b.WriteString(p.text)
			b.WriteString(" ")
		}
		b.WriteString("Bye.")
		text := b.String()
		_, want := stream(t, r, []string{text})
		var hidden []planted
		for _, p := range secrets {
			if allFound || !strings.Contains(want, p.secret) {
				require.NotContains(t, want, p.secret, "round %d", round)
				hidden = append(hidden, p)
			}
		}
		for _, w := range strings.Fields(stripSecrets(text, secrets)) {
			require.Contains(t, want, w, "round %d: word %q kept", round, w)
		}
		for try := range 15 {
			chunks := cut(rng, text, 2+rng.IntN(30))
			shown, got := stream(t, r, chunks)
			require.Equal(t, want, got, "round %d try %d chunks %q", round, try, chunks)
			var sofar strings.Builder
			for _, s := range shown {
				sofar.WriteString(s)
				for _, p := range hidden {
					require.NotContains(t, sofar.String(), p.secret[:min(len(p.secret), 20)], "round %d try %d", round, try)
				}
			}
		}
	}
}

// stripSecrets removes the secrets (and what their rule takes with them)
// so that the remaining words must all be shown.
func stripSecrets(text string, secrets []planted) string {
	for _, p := range secrets {
		text = strings.ReplaceAll(text, p.secret, " ")
	}
	return text
}

// TestContextCoversEveryLead: the context a stream keeps covers every
// bounded lead of a built-in rule, so a secret whose keyword was shown is
// still recognised when its value arrives.
func TestContextCoversEveryLead(t *testing.T) {
	rules := prefilter.BuiltinRules()
	for i := range rules {
		if n, ok := rules[i].Lead(); ok {
			assert.Less(t, n, ContextSize, rules[i].ID)
		}
	}
}

// TestKeywordAfterTheSecret: a rule whose keyword may lie outside its match
// (gitleaks wants it anywhere in the text) finds a secret only once the
// keyword arrives. The stream holds a complete match until then, so a token
// followed later by its keyword is never shown; without the keyword it is
// shown at the end (it is no finding).
func TestKeywordAfterTheSecret(t *testing.T) {
	r, _ := newTestRedactor()
	tok := "MT" + strings.Repeat("a1B2", 6) + ".Xy9_-k." + strings.Repeat("Qw3rT7", 5) + "zz"
	_, all := stream(t, r, []string{"Run it with bot.run(\"" + tok + "\") and ", "then, as the discord", " docs say, restart."})
	assert.NotContains(t, all, tok)
	assert.Contains(t, all, "restart.")
	_, all = stream(t, r, []string{"Run it with bot.run(\"" + tok + "\") and ", "then restart."})
	assert.Contains(t, all, tok, "no keyword: no finding, shown at the end")
}

package prefilter

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Patterns of gitleaks' default rules (v8.30.1), as the VM meets them.
const (
	reGeneric    = `(?i)[\w.-]{0,50}?(?:access|auth|(?-i:[Aa]pi|API)|credential|creds|key|passw(?:or)?d|secret|token)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([\w.=-]{10,150}|[a-z0-9][a-z0-9+/]{11,}={0,3})(?:[\x60'"\s;]|\\[nr]|$)`
	reGitHubPAT  = `ghp_[0-9a-zA-Z]{36}`
	reAWS        = `\b((?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16})\b`
	rePrivateKey = `(?i)-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----[\s\S-]{64,}?KEY(?: BLOCK)?-----`
)

func TestShape(t *testing.T) {
	cases := []struct {
		name                         string
		pattern                      string
		maxLen, maxPrefix, maxSuffix int
		in, out                      string // characters the secret can and cannot hold
	}{
		{"no groups", `ab[0-9]{2}`, 4, 0, 0, "ab09", "c "},
		{"group", `k=([a-z]{3})(?:;|$)`, 6, 2, 1, "abz", "=;0 "},
		{"unbounded secret", `k=([a-z]+);`, unbounded, 2, 1, "a", ";"},
		{"unbounded prefix", `a*k=([a-z]{2})`, unbounded, unbounded, 0, "ak", "=0"},
		{"aws", reAWS, 20, 0, 0, "AKZ27", "a "},
		{"private key", rePrivateKey, unbounded, 0, 0, "a \n-=/+", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, err := newShape(c.pattern)
			require.NoError(t, err)
			assert.Equal(t, c.maxLen, s.maxLen, "maxLen")
			assert.Equal(t, c.maxPrefix, s.maxPrefix, "maxPrefix")
			assert.Equal(t, c.maxSuffix, s.maxSuffix, "maxSuffix")
			for _, r := range c.in {
				assert.True(t, s.secretRune(r), "%q in secret", r)
			}
			for _, r := range c.out {
				assert.False(t, s.secretRune(r), "%q not in secret", r)
			}
		})
	}

	t.Run("generic", func(t *testing.T) {
		s, err := newShape(reGeneric)
		require.NoError(t, err)
		assert.Equal(t, unbounded, s.maxLen)
		assert.Greater(t, s.maxPrefix, 90)
		assert.Less(t, s.maxPrefix, 300)
		assert.Equal(t, 2, s.maxSuffix)
		for _, r := range " \t\n\"'`;:" {
			assert.False(t, s.secretRune(r), "%q", r)
		}
		for _, r := range "aZ09_.=-+/" {
			assert.True(t, s.secretRune(r), "%q", r)
		}
	})
}

func TestPendingSecret(t *testing.T) {
	pat := "ghp_" + "0123456789abcdefghijABCDEFGHIJ012345"
	cases := []struct {
		name, pattern, text string
		want                int
	}{
		{"nothing", reGitHubPAT, "hello world", -1},
		{"prefix of the prefix", reGitHubPAT, "hello g", 6},
		{"token under way", reGitHubPAT, "see ghp_0123", 4},
		{"token complete", reGitHubPAT, "see " + pat, -1},
		{"aws waits for the boundary", reAWS, "key AKIA" + "ABCDEFGHIJKLMNOP", 4},
		{"aws decided by a space", reAWS, "key AKIA" + "ABCDEFGHIJKLMNOP ", -1},
		{"generic keyword only: secret not started", reGeneric, "the api_key", -1},
		{"generic operator seen: secret not started", reGeneric, `api_key = "`, -1},
		{"generic value under way", reGeneric, `api_key = "abc`, 11},
		{"generic value closed", reGeneric, `api_key = "abcdefghijkl123" `, -1},
		{"generic value waits for \\n", reGeneric, `api_key=abcdefghijkl123\`, 8},
		{"plain words", reGeneric, "we keep the words here", -1},
		{"pem header open", rePrivateKey, "x -----BEGIN RSA PRIVATE KEY-----\nMIIE", 2},
		{"pem closed", rePrivateKey, "x -----BEGIN RSA PRIVATE KEY-----\n" + fill(70) + "\n-----END RSA PRIVATE KEY----- and on", -1},
		{"pem partial header", rePrivateKey, "text -----BEG", 5},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, err := newShape(c.pattern)
			require.NoError(t, err)
			assert.Equal(t, c.want, newVM(s.vm, c.text).pendingSecret(0))
		})
	}
}

func fill(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"[i*7%64]
	}
	return string(b)
}

// secretRanges is what gitleaks takes as the secrets of pattern's matches:
// the first non-empty group, or the whole match.
func secretRanges(re *regexp.Regexp, text string) [][2]int {
	var out [][2]int
	for _, m := range re.FindAllStringSubmatchIndex(text, -1) {
		r := [2]int{m[0], m[1]}
		for g := 1; 2*g+1 < len(m); g++ {
			if m[2*g] >= 0 && m[2*g+1] > m[2*g] {
				r = [2]int{m[2*g], m[2*g+1]}
				break
			}
		}
		out = append(out, r)
	}
	return out
}

// TestPendingSecretIsSafe checks the property the streaming redactor builds
// on, against Go's regexp on random text: whatever follows a prefix, no
// secret of the whole text straddles the hold point, and the secrets before
// it are the ones the prefix already shows.
func TestPendingSecretIsSafe(t *testing.T) {
	patterns := []string{
		`ab(c{2,4})d`,
		`x\b(y+)`,
		`(?:^|[ ])k=([a-z]{3,})(?:;|$)`,
		`-B[\s\S]{2,}?E-`,
		`(?i)[a-z]{0,3}?(?:key|ab)[ ]?=[ ]?([a-z0-9]{3,6}|[0-9][0-9+]{4,}=?)(?:[ ;]|$)`,
		`(a|ab)(c|bcd)(d*)`,
		`\bq[a-c]{2}\b`,
	}
	alphabet := []rune("abcdexyzkqBE0123=;+ -\n")
	rng := rand.New(rand.NewPCG(1, 2))
	for _, p := range patterns {
		re := regexp.MustCompile(p)
		s, err := newShape(p)
		require.NoError(t, err)
		t.Run(p, func(t *testing.T) {
			for range 400 {
				n := rng.IntN(24)
				rs := make([]rune, n)
				for i := range rs {
					rs[i] = alphabet[rng.IntN(len(alphabet))]
				}
				full := string(rs)
				whole := secretRanges(re, full)
				for k := 0; k <= len(full); k++ {
					prefix := full[:k]
					hold := newVM(s.vm, prefix).pendingSecret(0)
					if hold < 0 {
						hold = k
					}
					var before, seen [][2]int
					for _, r := range whole {
						if !assert.False(t, r[0] < hold && r[1] > hold, "secret %v of %q straddles hold %d of prefix %q", r, full, hold, prefix) {
							return
						}
						if r[1] <= hold {
							before = append(before, r)
						}
					}
					for _, r := range secretRanges(re, prefix) {
						if r[1] <= hold {
							seen = append(seen, r)
						}
					}
					if !assert.True(t, slices.Equal(before, seen), "text %q prefix %q hold %d: whole %v prefix %v", full, prefix, hold, before, seen) {
						return
					}
				}
			}
		})
	}
}

func BenchmarkPendingSecret(b *testing.B) {
	s, err := newShape(reGeneric)
	require.NoError(b, err)
	text := fmt.Sprintf("%s api_key = \"abcdefgh", fill(200))
	for b.Loop() {
		newVM(s.vm, text).pendingSecret(0)
	}
}

package secrets

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// windowedRules are the built-in rules that run in keyword windows.
func windowedRules(t testing.TB) []*crule {
	t.Helper()
	e, err := newEngine(builtin, Options{}, nil)
	require.NoError(t, err)
	require.NoError(t, e.ready(nil))
	var out []*crule
	for _, r := range e.rules {
		require.NoError(t, r.compile())
		if r.analyzed() != nil {
			out = append(out, r)
		}
	}
	return out
}

func TestMostTemplateRulesAreWindowed(t *testing.T) {
	rs := windowedRules(t)
	ids := map[string]bool{}
	for _, r := range rs {
		ids[r.src.ID] = true
	}
	assert.True(t, ids["generic-api-key"], "generic-api-key is windowed")
	assert.Greater(t, len(rs), 80, "gitleaks' semi-generic rules are windowed")
}

// TestFindAllWindowedEqualsWholeText: on random texts made of each rule's
// keywords, separators, quotes, escapes, long and short tokens, and texts
// cut right after a token (where `$` matches), windowed FindAll equals the
// regexp's FindAll over the whole text.
func TestFindAllWindowedEqualsWholeText(t *testing.T) {
	rs := windowedRules(t)
	pieces := []string{" ", "\n", "\t", "=", " = ", ":", ": ", ":=", "=>", "\"", "'", "`", ";", ",", "\\n", "\\r", "-", ".", "_", "/", "+", "==", "(", ")", "{", "}", "é", "\xff", "\r\n", "|", "||", "?=", ">", "#"}
	r := uint64(7)
	next := func(n int) int {
		r ^= r << 13
		r ^= r >> 7
		r ^= r << 17
		return int(r % uint64(n))
	}
	const alnum = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	token := func() string {
		n := []int{1, 3, 8, 10, 11, 12, 16, 20, 24, 32, 40, 64, 150, 151, 200}[next(15)]
		var b strings.Builder
		for range n {
			b.WriteByte(alnum[next(len(alnum))])
		}
		return b.String()
	}
	checked := 0
	for _, rule := range rs {
		for n := 0; n < 80; n++ {
			var b strings.Builder
			parts := 2 + next(14)
			for range parts {
				switch next(4) {
				case 0:
					kw := rule.analyzed().literals[next(len(rule.analyzed().literals))]
					if next(2) == 0 {
						kw = strings.ToUpper(kw)
					}
					b.WriteString(kw)
				case 1:
					b.WriteString(token())
				default:
					b.WriteString(pieces[next(len(pieces))])
				}
			}
			text := b.String()
			want := rule.re.FindAllStringIndex(text, -1)
			got := findAll(rule, text, func() string { return asciiLower(text) }, nil, nil)
			if !assert.Equal(t, want, got, "%s on %q", rule.src.ID, text) {
				return
			}
			checked++
		}
	}
	t.Logf("%d texts over %d rules", checked, len(rs))
}

// TestWindowFallbacks: texts with the fold extras are searched whole, and a
// window match reaching the window's end falls back to the whole text.
func TestWindowFallbacks(t *testing.T) {
	var generic *crule
	for _, r := range windowedRules(t) {
		if r.src.ID == "generic-api-key" {
			generic = r
		}
	}
	require.NotNil(t, generic)
	for _, text := range []string{
		"ſecret = \"Zx9Qw3Er7Ty2Ui8Op\"",
		"api_Key = 'Zx9Qw3Er7Ty2Ui8Op'",
		"token=Zx9Qw3Er7Ty2Ui8Op",
		"token=Zx9Qw3Er7Ty2Ui8Op\n" + strings.Repeat("filler ", 100) + "secret: Ab1Cd2Ef3Gh4Ij5Kl6",
	} {
		assert.Equal(t, generic.re.FindAllStringIndex(text, -1), findAll(generic, text, func() string { return asciiLower(text) }, nil, nil), "%q", text)
	}
	_, ok := generic.analyzed().windows("ſecret", func() string { return asciiLower("ſecret") }, nil)
	assert.False(t, ok)
}

func FuzzFindAllWindowed(f *testing.F) {
	rs := windowedRules(f)
	for _, s := range []string{"api_key = \"abcdefghij1234567890\"", "token: Zx9Qw3Er7Ty2Ui8Op\\n", "password=" + strings.Repeat("a1", 80)} {
		f.Add(s, uint8(0))
	}
	f.Fuzz(func(t *testing.T, text string, which uint8) {
		rule := rs[int(which)%len(rs)]
		want := rule.re.FindAllStringIndex(text, -1)
		got := findAll(rule, text, func() string { return asciiLower(text) }, nil, nil)
		assert.Equal(t, want, got, "%s on %q", rule.src.ID, text)
	})
}

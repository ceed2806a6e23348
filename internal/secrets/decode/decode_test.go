package decode

import (
	"encoding/base64"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/zricethezav/gitleaks/v8/detect/codec"

	"github.com/gemini-guard/gemini-guard/internal/secrets/secrettest"
)

// encodingSamples exercise every branch of the encodings patterns.
var encodingSamples = []string{
	"", "%", "%2", "%20", "a%20b%2Fc%zz%41\n%41", "%41%42%43", "100% sure %d %02x",
	"U+0041", "U+0041 U+0042 U+00", "U+0041U+0042", "U+004", "x U+0041\tU+0042\nU+0043",
	`\u0041`, `\\u0041`, `\\\u0041`, `\U0041\u0042`, `\u004`, `\\\\u0041`, `a\u0041\u0042b`,
	strings.Repeat("ab12", 8), strings.Repeat("0123456789abcdef", 2), strings.Repeat("0123456789abcdef", 2) + "ghij" + strings.Repeat("k", 12),
	"zz" + strings.Repeat("0123456789abcdef", 3), strings.Repeat("A", 15), strings.Repeat("A", 16) + "===", "ZGVmYXVsdA==", "aGVsbG8gd29ybGQgZnJvbSBiYXNlNjQ=",
	"key = \"" + strings.Repeat("x9/+", 5) + "==\"", "é%41ü" + strings.Repeat("ß", 10) + `\u00e9`,
}

func TestScanEncodingsMatchesRegexp(t *testing.T) {
	for _, s := range encodingSamples {
		assert.Equal(t, regexpEncodingMatches(s), scanEncodings(s), "%q", s)
	}
	// Random texts over an alphabet of the characters that matter.
	const alphabet = "%%UU+\\\\uuAf09zZ_-/=\n \t.é"
	r := uint64(1)
	for n := 0; n < 20000; n++ {
		var b strings.Builder
		l := int(r%60) + 1
		for range l {
			r ^= r << 13
			r ^= r >> 7
			r ^= r << 17
			b.WriteByte(alphabet[r%uint64(len(alphabet))])
		}
		s := b.String()
		require.Equal(t, regexpEncodingMatches(s), scanEncodings(s), "%q", s)
	}
	// Real source files.
	paths, _ := filepath.Glob(filepath.Join(runtime.GOROOT(), "src", "net", "url", "*.go"))
	more, _ := filepath.Glob(filepath.Join(runtime.GOROOT(), "src", "encoding", "*", "*.go"))
	for _, p := range append(paths, more...) {
		data, err := os.ReadFile(p)
		require.NoError(t, err)
		assert.Equal(t, regexpEncodingMatches(string(data)), scanEncodings(string(data)), p)
	}
}

func FuzzScanEncodings(f *testing.F) {
	for _, s := range encodingSamples {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !assert.Equal(t, regexpEncodingMatches(s), scanEncodings(s)) {
			t.Logf("%q", s)
		}
	})
}

// decodeBase64Ref is gitleaks' decodeBase64, which decodeBase64 must equal.
func decodeBase64Ref(v string) string {
	if !hasByteIn(v, "0123456789+/-_") {
		return ""
	}
	if b, err := base64.StdEncoding.DecodeString(v); err == nil && isPrintableASCII(b) {
		return string(b)
	}
	if b, err := base64.RawURLEncoding.DecodeString(v); err == nil && isPrintableASCII(b) {
		return string(b)
	}
	return ""
}

func TestDecodeBase64MatchesGitleaks(t *testing.T) {
	var inputs []string
	for _, s := range []string{"hello world, base64!", "token=ghp_abc", "a", "ab?", "{\"k\":1}"} {
		inputs = append(inputs, base64.StdEncoding.EncodeToString([]byte(s)), base64.RawURLEncoding.EncodeToString([]byte(s)), base64.URLEncoding.EncodeToString([]byte(s)))
	}
	inputs = append(inputs, "some_long_identifier_name", "ParseHTTPVersion2019", "0123456789abcdef0123", "aGVsbG8=x", "aGVs=G8gd29ybGQ=", "YWJj-_YWJj", "YWJj+/YWJj")
	r := uint64(3)
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/-_="
	for range 50000 {
		r ^= r << 13
		r ^= r >> 7
		r ^= r << 17
		n := 16 + int(r%40)
		b := make([]byte, n)
		for i := range b {
			r ^= r << 13
			r ^= r >> 7
			r ^= r << 17
			b[i] = alphabet[r%uint64(len(alphabet))]
		}
		inputs = append(inputs, string(b))
		// Printable payloads too, so that the success path is exercised.
		p := make([]byte, n)
		for i := range p {
			p[i] = byte(0x20 + (int(b[i]) % 95))
		}
		inputs = append(inputs, base64.StdEncoding.EncodeToString(p), base64.RawURLEncoding.EncodeToString(p))
	}
	for _, in := range inputs {
		require.Equal(t, decodeBase64Ref(in), decodeBase64(in), "%q", in)
	}
}

// encodingsRe is gitleaks' combined encodings regexp, the reference
// scanEncodings is checked against.
var encodingsRe = sync.OnceValue(func() *regexp.Regexp {
	names := []string{"percent", "unicode", "hex", "base64"}
	parts := make([]string, len(encodings))
	for i, e := range encodings {
		parts[i] = "(?P<" + names[i] + ">" + e.pattern + ")"
	}
	return regexp.MustCompile(strings.Join(parts, "|"))
})

// regexpEncodingMatches is what gitleaks computes: every match of the
// combined encodings regexp (leftmost-first, alternatives in precedence
// order). scanEncodings computes the same without the regexp engine, whose
// capture-tracking NFA costs ~0.3 ms per 10 KB; a test checks they agree.
func regexpEncodingMatches(data string) []encodingMatch {
	var all []encodingMatch
	for _, idx := range encodingsRe().FindAllStringSubmatchIndex(data, -1) {
		for i, j := 2, 0; i < len(idx); i, j = i+2, j+1 {
			if idx[i] > -1 {
				all = append(all, encodingMatch{enc: j, span: Span{idx[i], idx[i+1]}})
			}
		}
	}
	return all
}

// TestDecodeMatchesGitleaks: on the secrets corpus (rule samples plain and
// base64-, hex- and percent-encoded, real sources), every decoding pass
// gives the text gitleaks' own decoder gives.
func TestDecodeMatchesGitleaks(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: decodes a corpus twice")
	}
	texts := secrettest.Corpus()
	require.Greater(t, len(texts), 1000)
	changed := 0
	for name, text := range texts {
		ours, theirs := NewDecoder(), codec.NewDecoder()
		o, t2 := text, text
		var oseg []*Segment
		var ts []*codec.EncodedSegment
		for depth := 1; depth <= MaxDecodeDepth; depth++ {
			o, oseg = ours.Decode(o, oseg)
			t2, ts = theirs.Decode(t2, ts)
			require.Equal(t, t2, o, "%s pass %d", name, depth)
			require.Equal(t, len(ts), len(oseg), "%s pass %d segments", name, depth)
			if len(oseg) == 0 {
				break
			}
			changed++
		}
	}
	assert.Greater(t, changed, 300, "passes that decoded something")
}

// charClass is a literal table of the hex and base64 classes (the two
// base64 alphabets), and IsBase64Char reads it.
func TestCharClassTable(t *testing.T) {
	for c := range 256 {
		b := byte(c)
		var want uint8
		if unhex(b) != 0xff {
			want |= classHex
		}
		if 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9' || b == '_' || b == '/' || b == '+' || b == '-' {
			want |= classBase64
		}
		require.Equal(t, want, charClass[c], "%q", rune(c))
		require.Equal(t, want&classBase64 != 0, IsBase64Char(b), "%q", rune(c))
	}
}

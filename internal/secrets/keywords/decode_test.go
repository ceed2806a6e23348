package keywords

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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

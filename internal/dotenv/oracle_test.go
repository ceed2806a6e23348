package dotenv

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The module's expression translated to Go's syntax, the oracle scan is
// checked against: JavaScript's \s and . spelled out, ^ handled by the
// caller (tried at line starts only), $ consumed instead of looked at and
// given back (exprEnd).
const (
	jsSpace  = `\t\n\x0B\f\r \x{00A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}`
	sp       = `[` + jsSpace + `]`
	dot      = `[^\n\r\x{2028}\x{2029}]`
	lineEnd  = `(\z|[\n\r\x{2028}\x{2029}])`
	lineExpr = `^` + sp + `*(?:export` + sp + `+)?([\w.-]+)(?:` + sp + `*=` + sp + `*?|:` + sp + `+?)` +
		`(` + sp + `*'(?:\\'|[^'])*'|` + sp + `*"(?:\\"|[^"])*"|` + sp + "*`(?:\\\\`|[^`])*`|[^#\\r\\n]+)?" +
		sp + `*(?:#` + dot + `*)?` + lineEnd
)

var lineRe = regexp.MustCompile(lineExpr)

// exprAt is scan done by the compiled expression.
func exprAt(text string, i int) (match, bool) {
	m := lineRe.FindStringSubmatchIndex(text[i:])
	if m == nil {
		return match{}, false
	}
	end := m[6] // the line end the expression looks at, given back

	out := match{keyStart: i + m[2], keyEnd: i + m[3], valStart: -1, end: i + end}
	if m[4] >= 0 {
		out.valStart, out.valEnd = i+m[4], i+m[5]
	}
	return out, true
}

// TestScanIsTheExpression: the hand-written scan finds, at every line
// start, the match the expression finds (key, value, end), over random
// texts made of the grammar's own characters, JavaScript's white space
// and line ends, and ordinary letters. The differential test then checks
// both against the module itself.
func TestScanIsTheExpression(t *testing.T) {
	pieces := []string{"A", "B_1", "export", " ", "\t", "\n", "\u00A0", "\u2028", "\u2029", "\uFEFF", "\v", "\f", "\u3000",
		"=", ":", "#", "'", "\"", "`", "\\", "\\'", "\\\"", "x", "é", "-", ".", "PORT", "BASH_ENV", "\r"}
	r := rand.New(rand.NewPCG(36, 37))
	for n := 0; n < 200000; n++ {
		var b strings.Builder
		for range 1 + r.IntN(24) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		text := strings.ReplaceAll(strings.ReplaceAll(b.String(), "\r\n", "\n"), "\r", "\n")
		for from := 0; from <= len(text); {
			want, wok := nextMatch(exprAt, text, from)
			got, gok := nextMatch(scan, text, from)
			require.Equal(t, wok, gok, "%q from %d", text, from)
			if !wok {
				break
			}
			require.Equal(t, want, got, "%q from %d", text, from)
			from = want.end
		}
	}
}

package dotenv

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// The cases say what the module does, as read from its code and checked
// against it (differential_test.go runs the module itself).
func TestParse(t *testing.T) {
	for _, c := range []struct {
		name, src string
		want      map[string]string
	}{
		{"plain", "A=1\nB=two words\n", map[string]string{"A": "1", "B": "two words"}},
		{"export and colon", "export A=1\nB: 2\n", map[string]string{"A": "1", "B": "2"}},
		{"comment after a value", "A=1 # c\n# B=2\n", map[string]string{"A": "1"}},
		{"quotes", `A='x # y'` + "\n" + `B="a\nb"` + "\nC=`c`\n", map[string]string{"A": "x # y", "B": "a\nb", "C": "c"}},
		{"single quotes keep escapes", `A='a\nb'`, map[string]string{"A": `a\nb`}},
		{"multi-line value", "A=\"one\ntwo\"\nB=3", map[string]string{"A": "one\ntwo", "B": "3"}},
		{"last value, first place", "A=1\nB=2\nA=3", map[string]string{"A": "3", "B": "2"}},
		{"empty", "A=\nB=", map[string]string{"A": "", "B": ""}},
		{"not a key", "just words\nA B=1\n=2\n", map[string]string{}},
		{"__proto__ sets nothing", "__proto__=x\nA=1", map[string]string{"A": "1"}},

		// The switch-off spellings: a lone \r is a line break, JavaScript's
		// \s holds Unicode spaces and the byte-order mark, and U+2028 is a
		// line terminator for ^.
		{"lone CR", "PORT=3000\rBASH_ENV=./.hk.sh", map[string]string{"PORT": "3000", "BASH_ENV": "./.hk.sh"}},
		{"CRLF", "A=1\r\nB=2\r\n", map[string]string{"A": "1", "B": "2"}},
		{"byte-order mark", "\uFEFFBASH_ENV=x", map[string]string{"BASH_ENV": "x"}},
		{"no-break space", "PORT=1\n\u00A0BASH_ENV=x", map[string]string{"PORT": "1", "BASH_ENV": "x"}},
		{"form feed", "\fBASH_ENV=x", map[string]string{"BASH_ENV": "x"}},
		{"vertical tab", "\vBASH_ENV=x", map[string]string{"BASH_ENV": "x"}},
		{"export NBSP", "export\u00A0GEMINI_GUARD_MODE=warn", map[string]string{"GEMINI_GUARD_MODE": "warn"}},
		{"ideographic space", "\u3000GEMINI_CLI_HOME=/tmp/g", map[string]string{"GEMINI_CLI_HOME": "/tmp/g"}},
		{"after a comment and U+2028", "# c\u2028BASH_ENV=x", map[string]string{"BASH_ENV": "x"}},
		{"U+2029 before the key", "A=1\n\u2029BASH_ENV=x", map[string]string{"A": "1", "BASH_ENV": "x"}},
		// An unquoted value runs over U+2028 ([^#\r\n]+), so the key after
		// it is part of the value, not a key.
		{"U+2028 inside an unquoted value", "A=1\u2028B=2", map[string]string{"A": "1\u2028B=2"}},
		{"space before =", "A\u00A0=\u00A0x", map[string]string{"A": "x"}},
		{"invalid UTF-8", "A=\xe2\x82B\nC=\xff\xff", map[string]string{"A": "\uFFFDB", "C": "\uFFFD\uFFFD"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, Map(c.src))
		})
	}
}

func TestParseKeepsFirstOrder(t *testing.T) {
	assert.Equal(t, []Entry{{"B", "3"}, {"A", "2"}}, Parse("B=1\nA=2\nB=3"))
}

// Inputs shaped to make a naive search quadratic end in one pass.
func TestParseIsLinear(t *testing.T) {
	for name, src := range map[string]string{
		"blank lines then garbage": strings.Repeat("\n", 64<<10) + "!",
		"spaces then garbage":      strings.Repeat(" \u00A0\n", 20<<10) + "!",
		"quotes at line starts":    "A=\"" + strings.Repeat("\n'x", 20<<10),
		"keys":                     strings.Repeat("A=1\n", 16<<10),
		"escaped quotes, no close": strings.Repeat("A='\\'\\'\\'x\n", 8<<10),
		"colons and spaces":        strings.Repeat("A:\u00a0\u00a0\u00a0\n", 8<<10) + "!",
	} {
		start := time.Now()
		Parse(src)
		// A generous bound: the quadratic versions take minutes.
		assert.Less(t, time.Since(start), 5*time.Second, name)
	}
}

func TestNodeUTF8(t *testing.T) {
	for in, want := range map[string]string{
		"ok \u00e9":            "ok \u00e9",
		"\xe2\x82A":            "\uFFFDA",
		"\xff\xfe":             "\uFFFD\uFFFD",
		"\xed\xa0\x80":         "\uFFFD\uFFFD\uFFFD", // a surrogate: ED then A0 out of range
		"\xf0\x9f\x98":         "\uFFFD",
		"\xf4\x90\x80\x80":     "\uFFFD\uFFFD\uFFFD\uFFFD",
		"\xc0\xaf":             "\uFFFD\uFFFD",
		"a\xe0\xa0":            "a\uFFFD",
		"\xf0\x9f\x98\x80\x80": "\U0001F600\uFFFD",
	} {
		assert.Equal(t, want, nodeUTF8(in), "%q", in)
	}
}

package shell

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestInterpCallPatternsCompile: every call pattern is a valid expression
// (each compiles only on its first use, so a broken one would otherwise
// panic inside a hook), and its function names are matched as calls.
func TestInterpCallPatternsCompile(t *testing.T) {
	calls := map[string]string{
		"python": "os.system('x')", "node": "execSync('x')", "deno": "Deno.run({})", "ruby": "system 'x'",
		"perl": "system 'x'", "php": "system('x')", "awk": "system(\"x\")",
	}
	for lang, code := range calls {
		patterns := interpCalls(lang)
		assert.NotEmpty(t, patterns, lang)
		for _, cp := range patterns {
			assert.NotPanics(t, func() { cp.re.Get() }, "%s: %s", lang, cp.re.Expr)
		}
		assert.True(t, patterns[0].re.MatchString(code), "%s: %s", lang, code)
	}
	assert.Empty(t, interpCalls("pwsh"), "no call patterns for pwsh")
}

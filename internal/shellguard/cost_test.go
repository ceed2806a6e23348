package shellguard

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/gemini-guard/gemini-guard/internal/verdict"
)

// adversarialInputs are commands that bash runs in milliseconds but whose
// naive analysis costs seconds or more (issue 17, "fail open by time"):
// Gemini CLI lets an action through when the hook times out, so each must
// be decided, and denied when it carries a dangerous command, well inside
// the hook's 10 s timeout.
func adversarialInputs() map[string]string {
	nest := "rm -rf ~"
	for range 10 { // each level quadruples the quotes: ~1 MB at 10
		nest = "bash -c " + shellQuote(nest)
	}
	return map[string]string{
		"brace bomb":         strings.Repeat("{a,b,c,d}", 30) + " ; rm -rf ~",
		"brace bomb in arg":  "echo " + strings.Repeat("{a,b}", 64) + " && rm -rf ~",
		"huge range":         "echo {1..100000000} ; rm -rf ~",
		"nested ranges":      "echo {1..1000}{1..1000}{1..1000} ; rm -rf ~",
		"brace bomb in -c":   "bash -c 'echo " + strings.Repeat("{x,y}", 60) + "'; rm -rf ~",
		"deep nesting":       strings.Repeat("(", 5000) + "rm -rf ~" + strings.Repeat(")", 5000),
		"deep subst":         strings.Repeat("$(", 3000) + "rm -rf ~" + strings.Repeat(")", 3000),
		"nested -c layers":   nest,
		"1 MB command":       strings.Repeat("echo hello world; ", 60_000) + "rm -rf ~",
		"1 MB word":          "echo " + strings.Repeat("a", 1<<20) + "; rm -rf ~",
		"many pipes":         strings.Repeat("cat | ", 20_000) + "rm -rf ~",
		"var doubling":       "x=a; " + strings.Repeat("x=$x$x$x$x; ", 40) + "echo $x; rm -rf ~",
		"loop over braces":   "for i in " + strings.Repeat("{a,b}", 40) + "; do rm -rf ~; done",
		"embedded commands":  strings.Repeat("tool --hook='make build "+strings.Repeat("x ", 2000)+"' ; ", 150) + "rm -rf ~",
		"brace in -c layers": "bash -c \"bash -c 'echo " + strings.Repeat("{a,b}", 30) + "'\"; rm -rf ~",
	}
}

// TestAdversarialCost: each adversarial input is denied, and decided well
// inside half the hook's 10 s timeout (a generous bound for a shared
// 2-core machine; the analysis itself takes milliseconds).
func TestAdversarialCost(t *testing.T) {
	workspace, home := testDirs(t)
	for name, cmd := range adversarialInputs() {
		t.Run(name, func(t *testing.T) {
			start := time.Now()
			v := Decide(Input{Command: cmd, Cwd: workspace, Home: home})
			took := time.Since(start)
			t.Logf("%s: %s in %v", name, v.RuleID, took)
			assert.Equal(t, verdict.Deny, v.Action, "%s must be denied", name)
			assert.Less(t, took, 5*time.Second, "%s took %v", name, took)
		})
	}
}

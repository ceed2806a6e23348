package edit_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/gemini-guard/gemini-guard/internal/edit"
)

// TestReplaceWorstCaseIsBounded: the fuzzy strategy's cost is bounded the
// way the CLI bounds it (lines × len(old_string)² <= 4e8), so an adversarial
// replace ends well within the secrets hook's 30 s timeout. The bound here
// is generous: the machine is shared.
func TestReplaceWorstCaseIsBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	for _, c := range []struct{ lines, oldLen int }{{400, 1000}, {40000, 100}, {4, 10000}} {
		line := strings.Repeat("a b ", c.oldLen/4) + "\n"
		before := strings.Repeat(line, c.lines)
		old := strings.Repeat("a  c ", c.oldLen/5)
		start := time.Now()
		r := edit.Replace(before, true, old, "x", true)
		took := time.Since(start)
		t.Logf("%d lines, old_string %d bytes: %s (%s)", c.lines, c.oldLen, took, r.Outcome)
		assert.Less(t, took, 15*time.Second)
	}
	// Every window a near match (one character off): each is a candidate
	// and gets its full distance computed.
	for _, c := range []struct{ lines, oldLen int }{{400, 1000}, {40000, 100}} {
		old := strings.Repeat("ab c", c.oldLen/4)
		line := "Z" + old[1:] + "\n"
		start := time.Now()
		r := edit.Replace(strings.Repeat(line, c.lines), true, old, "x", true)
		took := time.Since(start)
		t.Logf("near matches, %d lines, old_string %d bytes: %s (%s)", c.lines, c.oldLen, took, r.Outcome)
		assert.Less(t, took, 15*time.Second)
	}
}

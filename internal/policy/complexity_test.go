package policy

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/fzipp/gocyclo"
	"github.com/stretchr/testify/assert"
)

// The policy reads like gitleaks' rules (issue 24): no function of it with a
// cyclomatic complexity over 25, and 8 at most on average (mvdan.cc/sh's
// expand, the most complex package we imitate, averages 8.9). Measured
// with gocyclo over the package's non-test files; printed on every run.
func TestPolicyComplexity(t *testing.T) {
	stats := gocyclo.Analyze([]string{"."}, regexp.MustCompile(`_test\.go$`))
	over := stats.SortAndFilter(-1, 25)
	fmt.Printf("scorecard policy-complexity  functions %d  average %.1f  over 25: %d\n", len(stats), stats.AverageComplexity(), len(over))
	for _, s := range over {
		t.Logf("  over 25: %s", s)
	}
	assert.Empty(t, over, "functions of internal/policy with a cyclomatic complexity over 25")
	assert.LessOrEqual(t, stats.AverageComplexity(), 8.0, "the average cyclomatic complexity of internal/policy")
}

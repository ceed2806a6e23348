package shell

import (
	"regexp"
	"testing"

	"github.com/fzipp/gocyclo"
	"github.com/stretchr/testify/assert"
)

// The interpreter's reading and analysis (issue 36 item 5): no function
// of these files with a cyclomatic complexity over 25 (gocyclo; the
// policy's own bound, TestPolicyComplexity). The rest of the package is
// not held to it yet: run, cmdSubst and shellCommand are over.
func TestInterpComplexity(t *testing.T) {
	stats := gocyclo.Analyze([]string{"interp.go", "interpargs.go", "argv.go"}, regexp.MustCompile(`_test\.go$`))
	assert.NotEmpty(t, stats)
	for _, s := range stats.SortAndFilter(-1, 25) {
		t.Errorf("over 25: %s", s)
	}
}

package prefilter

import (
	"maps"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gemini-guard/gemini-guard/internal/secrets/secrettest"
)

// TestWatchScansWhatGitleaksFinds: a whole text that the Watch would not
// send to the scanner (Check(text, 0, true).Scan false) has no finding of
// gitleaks on the corpus. The redactor and the secrets guard's shell check
// rely on it to skip the scanner process.
func TestWatchScansWhatGitleaksFinds(t *testing.T) {
	sc := secrettest.Builtin()
	texts := secrettest.Corpus()
	skipped, missed := 0, 0
	for _, n := range slices.Sorted(maps.Keys(texts)) {
		text := texts[n]
		if NewWatch(BuiltinRules(), nil).Check(text, 0, true).Scan {
			continue
		}
		skipped++
		if found := sc.MustScan(text); len(found) > 0 {
			missed++
			assert.Empty(t, found, "%s: gitleaks finds %s where the Watch asks for no scan", n, found[0].RuleID)
		}
	}
	t.Logf("%d of %d texts need no scan; %d of those have a finding", skipped, len(texts), missed)
}

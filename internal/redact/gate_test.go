package redact

import (
	"sort"
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
	names := make([]string, 0, len(texts))
	for n := range texts {
		names = append(names, n)
	}
	sort.Strings(names)
	skipped, missed := 0, 0
	for _, n := range names {
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

package prefilter

import (
	"maps"
	"slices"
	"strings"
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

// A text that repeats a rule's keyword at every byte (a Twitter bearer
// token starts with 21 A's; an expansion bomb prints a's by the megabyte)
// is not tried at each place: past maxKeywordPositions the text goes to
// the scanner, and a stream holds what is new. Bounded in time and memory
// either way (it took a hook 0.4 s and 60 MB on 13 KB).
func TestWatchRepeatedKeywordGoesToTheScanner(t *testing.T) {
	w := NewWatch(BuiltinRules(), nil)
	text := "echo " + strings.Repeat("a", 200_000)
	gate := w.Check(text, 0, true)
	assert.True(t, gate.Scan, "a one-shot check sends it to the scanner")
	stream := w.Check(text, 5, false)
	assert.True(t, stream.Scan)
	assert.LessOrEqual(t, stream.Hold, 5, "a stream holds what is new")
	short := "the token starts with " + strings.Repeat("A", 21) + " then text"
	assert.False(t, w.Check(short, 0, true).Scan, "a few places are still tried one by one, and hold no secret")
}

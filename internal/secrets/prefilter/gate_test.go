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

// A rule that is an alternation needs, before a secret under way, what each
// branch needs; a branch whose secret starts with a keyword needs the
// keyword, or the text ends in its beginning. Built on a rule of our own
// shaped like atlassian-api-token: a keyword-and-value branch and a
// prefixed-token branch.
func TestAlternationNeedsItsBranchesKeywords(t *testing.T) {
	rule := Rule{
		ID:       "zeta-token",
		Pattern:  `(?i)[\w.-]{0,20}?(?:zetacorp|zeta_api)[ \t]*[=:][ \t]*([a-z0-9]{24})|\b(ZTK9[A-Za-z0-9]{30})\b`,
		Keywords: []string{"zetacorp", "zeta_api", "ztk9"},
	}
	q, starts, ok := branchesNeedBefore(rule.Pattern, rule.Keywords)
	assert.True(t, ok)
	assert.Equal(t, []string{"ztk9"}, starts)
	has := func(text string) func(string) bool {
		return func(lit string) bool { return strings.Contains(text, lit) }
	}
	assert.False(t, q.holds(has("plain prose with no keyword at all.")))
	assert.True(t, q.holds(has("zetacorp = ")))
	assert.True(t, q.holds(has("token ztk9abc")))

	w := NewWatch([]Rule{rule}, nil)
	prose := "Here is the handler; it now checks the error first. "
	for _, c := range []struct {
		tail string
		held string // what must not be shown yet
	}{
		{"no secret here.", ""},
		{"use ZT", "ZT"},
		{"use ZTK9aB3", "ZTK9aB3"},
		{"set zetacorp = 0a1b2c", "0a1b2c"},
	} {
		text := prose + c.tail
		gate := w.Check(text, len(prose), false)
		assert.Equal(t, c.held, text[gate.Hold:], c.tail)
	}
}

package redact

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"regexp/syntax"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/secrets"
	"github.com/gemini-guard/gemini-guard/internal/secrets/prefilter"
)

// sample returns a random string of the language of re (its full pattern,
// lead and all). Unbounded repeats get a few extra rounds; character classes
// prefer printable ASCII. Assertions (\b, ^, $) are not honoured here: the
// caller checks the result in its context with the real pattern.
func sample(rng *rand.Rand, re *syntax.Regexp, b *strings.Builder) {
	switch re.Op {
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			if re.Flags&syntax.FoldCase != 0 && rng.IntN(2) == 0 {
				r = unicode.SimpleFold(r)
			}
			b.WriteRune(r)
		}
	case syntax.OpCharClass:
		b.WriteRune(classRune(rng, re.Rune))
	case syntax.OpAnyCharNotNL, syntax.OpAnyChar:
		// Often a dot: rules write hostnames with unescaped dots.
		if rng.IntN(2) == 0 {
			b.WriteByte('.')
		} else {
			b.WriteByte(alnumBytes[rng.IntN(len(alnumBytes))])
		}
	case syntax.OpCapture:
		sample(rng, re.Sub[0], b)
	case syntax.OpConcat:
		for _, s := range re.Sub {
			sample(rng, s, b)
		}
	case syntax.OpAlternate:
		sample(rng, re.Sub[rng.IntN(len(re.Sub))], b)
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		lo, hi := re.Min, re.Max
		switch re.Op {
		case syntax.OpStar:
			lo, hi = 0, -1
		case syntax.OpPlus:
			lo, hi = 1, -1
		case syntax.OpQuest:
			lo, hi = 0, 1
		}
		if hi < 0 || hi > lo+24 {
			hi = lo + 24
		}
		for range lo + rng.IntN(hi-lo+1) {
			sample(rng, re.Sub[0], b)
		}
	}
}

const alnumBytes = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

// classRune picks a rune of the class given as ranges, printable ASCII
// (letters and digits most often) when the class has any.
func classRune(rng *rand.Rand, ranges []rune) rune {
	in := func(r rune) bool {
		for i := 0; i+1 < len(ranges); i += 2 {
			if ranges[i] <= r && r <= ranges[i+1] {
				return true
			}
		}
		return false
	}
	var pool []rune
	for i := 0; i < len(alnumBytes); i++ {
		if r := rune(alnumBytes[i]); in(r) {
			pool = append(pool, r)
		}
	}
	if len(pool) == 0 || rng.IntN(8) == 0 {
		for r := rune(0x20); r < 0x7f; r++ {
			if in(r) {
				pool = append(pool, r)
			}
		}
	}
	if len(pool) == 0 {
		for _, r := range "\n\t" {
			if in(r) {
				pool = append(pool, r)
			}
		}
	}
	if len(pool) == 0 {
		return ranges[0]
	}
	return pool[rng.IntN(len(pool))]
}

func containsAnyFold(s string, words []string) bool {
	lower := strings.ToLower(s)
	for _, w := range words {
		if strings.Contains(lower, strings.ToLower(w)) {
			return true
		}
	}
	return false
}

// settings an answer puts a secret in: prose and code.
var everyRuleSettings = []struct{ name, before, after string }{
	{"prose", "Sure, here it is:\n\n", "\n\nKeep it safe, rotate it later."},
	{"code", "```python\nclient = Client(\n    ", ",\n    timeout=30)\n```\nDone."},
}

// everyRuleSample is one text that holds a secret of rule id.
type everyRuleSample struct {
	rule, text string
	secrets    []string // what must never be displayed
	words      []string // ordinary words around it
}

// everyRuleSamples makes, for every rule of rules, a text per setting that
// holds a match of the rule's full pattern the scanner finds; a keyword the
// match need not hold is put before it or after it. It returns the
// rules for which no sample could be made.
func everyRuleSamples(t *testing.T, rules []prefilter.Rule, sc secrets.Scanner) ([]everyRuleSample, []string) {
	t.Helper()
	var out []everyRuleSample
	var missed []string
	for i, r := range rules {
		re, err := syntax.Parse(r.Pattern, syntax.Perl)
		require.NoError(t, err, r.ID)
		re = re.Simplify()
		full := regexp.MustCompile(r.Pattern)
		for si, set := range everyRuleSettings {
			rng := rand.New(rand.NewPCG(uint64(i), uint64(si)))
			made := false
			for try := 0; try < 400 && !made; try++ {
				var b strings.Builder
				sample(rng, re, &b)
				m := b.String()
				if !full.MatchString(m) || strings.ContainsAny(m, "\x00") {
					continue
				}
				// A rule whose keyword the match need not hold (gitleaks
				// wants it somewhere in the text) gets it just before.
				// In code it comes after the match instead: the
				// secret must not be shown before the keyword arrives.
				before, after := set.before, set.after
				if len(r.Keywords) > 0 && !containsAnyFold(m, r.Keywords) {
					if si%2 == 0 {
						before += r.Keywords[0] + ": "
					} else {
						after = " (" + r.Keywords[0] + ")" + after
					}
				}
				text := before + m + after
				finds, err := sc.Scan(text)
				require.NoError(t, err)
				var secrets []string
				for _, f := range finds {
					// A secret that the text also holds by chance outside
					// the finding cannot be told apart from ordinary words.
					if f.Secret == "" || strings.Count(text, f.Secret) > 1 || strings.Contains(before+after, f.Secret) {
						continue
					}
					if f.RuleID == r.ID {
						made = true
					}
					secrets = append(secrets, f.Secret)
				}
				if made {
					out = append(out, everyRuleSample{rule: r.ID + "/" + set.name, text: text, secrets: secrets,
						words: strings.Fields(before + " " + after)})
				}
			}
			if !made {
				missed = append(missed, r.ID+"/"+set.name)
			}
		}
	}
	return out, missed
}

// markerPattern is what the redactor shows in a secret's place.
var markerPattern = regexp.MustCompile(`\[REDACTED(?::[\w.-]+)?\]`)

// TestEveryRuleEveryCut is the stream's property over the whole rule set
// (gitleaks' default rules and ours, whatever rules_gen.go holds): for a
// match of each rule's full pattern, in prose and in code, cut into two
// chunks at every byte and into several at random points, no chunk sequence
// displays a secret the scanner finds in the whole text, and the ordinary
// words around it are shown.
func TestEveryRuleEveryCut(t *testing.T) {
	rules := prefilter.BuiltinRules()
	sc := &regexpScanner{rules: rules}
	r := &Redactor{Watch: prefilter.NewWatch(rules, nil), Scanner: sc}
	samples, missed := everyRuleSamples(t, rules, sc)
	// A rule the generator cannot satisfy in a setting (a lead the setting
	// breaks) must still be sampled in the other one.
	for _, m := range missed {
		id := m[:strings.LastIndexByte(m, '/')]
		other := 0
		for _, s := range samples {
			if strings.HasPrefix(s.rule, id+"/") {
				other++
			}
		}
		assert.NotZero(t, other, "no sample for rule %s", id)
	}
	t.Logf("%d rules, %d samples, %d rule/setting pairs without a sample: %v", len(rules), len(samples), len(missed), missed)

	step := 1
	if testing.Short() {
		step = 5
	}
	words, lost := 0, 0
	leaks := map[string]int{}
	check := func(s everyRuleSample, chunks []string, how string) {
		var st Stream
		var all strings.Builder
		for _, c := range chunks {
			out, err := r.Push(&st, c)
			require.NoError(t, err)
			all.WriteString(out)
		}
		out, err := r.Flush(&st)
		require.NoError(t, err)
		all.WriteString(out)
		shown := all.String()
		// A short secret (a one-character password) can be a letter of a
		// marker: look for secrets in what is shown outside the markers.
		unmarked := markerPattern.ReplaceAllString(shown, "\x00")
		for _, sec := range s.secrets {
			if strings.Contains(unmarked, sec) {
				if leaks[s.rule]++; leaks[s.rule] <= 2 {
					t.Errorf("%s: cut %s displays the secret (%d bytes)", s.rule, how, len(sec))
				}
			}
		}
		for _, w := range s.words {
			words++
			if !strings.Contains(shown, w) {
				lost++
			}
		}
	}
	rng := rand.New(rand.NewPCG(13, 13))
	for _, s := range samples {
		for p := 1; p < len(s.text); p += step {
			if q := runeStart(s.text, p); q == p {
				check(s, []string{s.text[:p], s.text[p:]}, fmt.Sprint("at ", p))
			}
		}
		for n := range 20 {
			chunks := cut(rng, s.text, 2+n%7)
			check(s, chunks, fmt.Sprint("into ", len(chunks), " random chunks"))
		}
	}
	t.Logf("%d ordinary words checked, %d lost (%.3f%%); rules with a leak: %d", words, lost, 100*float64(lost)/float64(max(words, 1)), len(leaks))
	assert.LessOrEqual(t, float64(lost), 0.02*float64(words), "ordinary words lost")
}

package secrets_test

import (
	"sync"
	"testing"

	"github.com/gemini-guard/gemini-guard/internal/secrets"
	"github.com/gemini-guard/gemini-guard/internal/secrets/secrettest"
)

// ruleSample is a generated text in which the built-in scanner finds a
// secret of rule RuleID.
type ruleSample struct {
	RuleID, Text string
}

var defaultScanner = sync.OnceValues(func() (*secrets.Scanner, error) { return secrets.NewScanner(secrets.Options{}) })

// ruleSamples generates one sample per content rule of the built-in set
// (from the rule's own regexp, deterministic seeds); missing lists rules
// for which no seed produced a finding.
var ruleSamples = sync.OnceValues(func() ([]ruleSample, []string) {
	s, err := defaultScanner()
	if err != nil {
		panic(err)
	}
	cfg, err := secrets.BuiltinConfig()
	if err != nil {
		panic(err)
	}
	var out []ruleSample
	var missing []string
	for _, r := range cfg.Rules {
		if r.Regex == "" || r.Path != "" {
			continue
		}
		ok := false
		for seed := uint64(1); seed <= 400 && !ok; seed++ {
			text, err := secrettest.Generate(r.Regex, seed)
			if err != nil {
				break
			}
			text = "x " + text + " \n"
			for _, f := range s.Scan(text) {
				if f.RuleID == r.ID {
					out = append(out, ruleSample{r.ID, text})
					ok = true
					break
				}
			}
		}
		if !ok {
			missing = append(missing, r.ID)
		}
	}
	return out, missing
})

func TestRuleSamples(t *testing.T) {
	samples, missing := ruleSamples()
	t.Logf("%d samples, missing %d: %v", len(samples), len(missing), missing)
}

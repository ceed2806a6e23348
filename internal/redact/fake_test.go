package redact

import (
	"regexp"
	"strings"
	"sync"

	"github.com/gemini-guard/gemini-guard/internal/secrets"
	"github.com/gemini-guard/gemini-guard/internal/secrets/prefilter"
)

// regexpScanner is a stand-in for gitleaks: every rule whose keyword occurs
// in the text runs its regexp, the secret being the first non-empty group
// (or the whole match). No entropy or allowlists, so it finds at least what
// gitleaks would.
type regexpScanner struct {
	rules []prefilter.Rule
	once  sync.Once
	res   []*regexp.Regexp
	calls int
}

func (s *regexpScanner) Scan(text string) ([]secrets.Finding, error) {
	s.once.Do(func() {
		for _, r := range s.rules {
			s.res = append(s.res, regexp.MustCompile(r.Pattern))
		}
	})
	s.calls++
	lower := strings.ToLower(text)
	var out []secrets.Finding
	for i, r := range s.rules {
		run := len(r.Keywords) == 0
		for _, k := range r.Keywords {
			run = run || strings.Contains(lower, k)
		}
		if !run {
			continue
		}
		for _, m := range s.res[i].FindAllStringSubmatchIndex(text, -1) {
			start, end := m[0], m[1]
			for g := 1; 2*g+1 < len(m); g++ {
				if m[2*g] >= 0 && m[2*g+1] > m[2*g] {
					start, end = m[2*g], m[2*g+1]
					break
				}
			}
			out = append(out, secrets.Finding{RuleID: r.ID, Start: start, End: end, Secret: text[start:end]})
		}
	}
	return out, nil
}

// failingScanner always fails.
type failingScanner struct{}

func (failingScanner) Scan(string) ([]secrets.Finding, error) { return nil, errScan }

var errScan = errorString("scanner broke")

type errorString string

func (e errorString) Error() string { return string(e) }

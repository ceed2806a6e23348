// Package secrettest makes secret-looking test data at run time, so that no
// credential-shaped literal is ever committed (the repository itself must not
// trip secret scanners). Everything is deterministic: the same seed gives
// the same string.
//
// It is for tests only.
package secrettest

import (
	"context"
	"fmt"
	"regexp/syntax"
	"strings"
	"sync"
	"unicode"

	"github.com/gemini-guard/gemini-guard/internal/secrets"
	"github.com/gemini-guard/gemini-guard/internal/secrets/detector"
)

// Rand is a small deterministic generator (xorshift64*). The zero value is
// seeded with 1.
type Rand struct{ x uint64 }

// NewRand returns a generator for seed.
func NewRand(seed uint64) *Rand { return &Rand{x: seed*0x9E3779B97F4A7C15 + 1} }

// Uint64 returns the next number.
func (r *Rand) Uint64() uint64 {
	if r.x == 0 {
		r.x = 1
	}
	r.x ^= r.x >> 12
	r.x ^= r.x << 25
	r.x ^= r.x >> 27
	return r.x * 2685821657736338717
}

// Intn returns a number in [0, n); n <= 0 gives 0.
func (r *Rand) Intn(n int) int {
	if n <= 0 {
		return 0
	}
	return int(r.Uint64() % uint64(n))
}

// From returns n characters drawn from alphabet.
func (r *Rand) From(alphabet string, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[r.Intn(len(alphabet))]
	}
	return string(b)
}

// Alphabets for From.
const (
	Alnum      = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	LowerAlnum = "abcdefghijklmnopqrstuvwxyz0123456789"
	Hex        = "0123456789abcdef"
	Base64URL  = Alnum + "-_"
)

// Token returns prefix followed by n random alphanumeric characters, seeded
// by seed: a high-entropy token of a given shape, e.g. Token(1, "ghp_", 36).
func Token(seed uint64, prefix string, n int) string {
	return prefix + NewRand(seed).From(Alnum, n)
}

// Generate returns a string that the regular expression pattern (Go
// syntax, as gitleaks rules are written) is likely to match, chosen by seed.
// Assertions (^, $, \b) are not enforced, so callers check the result with
// the real matcher and try another seed when it does not match.
func Generate(pattern string, seed uint64) (string, error) {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return "", fmt.Errorf("secrettest: %w", err)
	}
	g := &generator{r: NewRand(seed)}
	var b strings.Builder
	g.gen(&b, re)
	return b.String(), nil
}

type generator struct{ r *Rand }

func (g *generator) gen(b *strings.Builder, re *syntax.Regexp) {
	switch re.Op {
	case syntax.OpLiteral:
		for _, c := range re.Rune {
			if re.Flags&syntax.FoldCase != 0 && g.r.Intn(2) == 0 {
				c = unicode.SimpleFold(c)
				if c > unicode.MaxASCII {
					c = unicode.ToLower(c)
				}
			}
			b.WriteRune(c)
		}
	case syntax.OpCharClass:
		b.WriteRune(g.pick(re.Rune))
	case syntax.OpAnyCharNotNL, syntax.OpAnyChar:
		// In rule patterns an unescaped dot is nearly always meant as one
		// (hooks.slack.com).
		b.WriteByte('.')
	case syntax.OpCapture:
		g.gen(b, re.Sub[0])
	case syntax.OpStar:
		g.repeat(b, re.Sub[0], 0, 3)
	case syntax.OpPlus:
		g.repeat(b, re.Sub[0], 1, 4)
	case syntax.OpQuest:
		g.repeat(b, re.Sub[0], 0, 1)
	case syntax.OpRepeat:
		max := re.Max
		if max < 0 {
			max = re.Min + 8
		}
		g.repeat(b, re.Sub[0], re.Min, max)
	case syntax.OpConcat:
		for _, s := range re.Sub {
			g.gen(b, s)
		}
	case syntax.OpAlternate:
		g.gen(b, re.Sub[g.r.Intn(len(re.Sub))])
	}
	// Empty matches and assertions produce nothing.
}

func (g *generator) repeat(b *strings.Builder, re *syntax.Regexp, min, max int) {
	n := min
	if max > min {
		// Prefer short optional parts: long random prefixes only add noise.
		span := max - min
		if re.Op == syntax.OpCharClass && min == 0 && span > 4 {
			span = 4
		}
		n += g.r.Intn(span + 1)
	}
	for range n {
		g.gen(b, re)
	}
}

// pick chooses a rune from a class given as ranges, preferring ASCII
// letters and digits, then other printable ASCII, then anything.
func (g *generator) pick(ranges []rune) rune {
	var alnum, printable []rune
	for i := 0; i+1 < len(ranges); i += 2 {
		for c := ranges[i]; c <= ranges[i+1] && c < 0x7f; c++ {
			switch {
			case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
				alnum = append(alnum, c)
			case c == ' ' || (0x21 <= c && c < 0x7f):
				printable = append(printable, c)
			}
		}
	}
	switch {
	case len(alnum) > 0 && (len(printable) == 0 || g.r.Intn(10) > 0):
		return alnum[g.r.Intn(len(alnum))]
	case len(printable) > 0:
		return printable[g.r.Intn(len(printable))]
	case len(ranges) > 0:
		return ranges[0]
	}
	return 'x'
}

// Sample is a generated text in which the built-in scanner finds a secret of
// rule RuleID.
type Sample struct {
	RuleID, Text string
}

// RuleSamples returns one sample per content rule of the built-in rule set,
// generated from the rule's own regexp with deterministic seeds (a rule
// keyword is put in front when the generated text lacks one), and the ids
// of the rules for which no seed produced a finding. Path-gated rules never
// match content and are skipped. It panics if the built-in rules do not
// load.
var RuleSamples = sync.OnceValues(func() ([]Sample, []string) {
	sc := Builtin()
	cfg, err := detector.Builtin()
	if err != nil {
		panic(err)
	}
	var out []Sample
	var missing []string
	for _, r := range cfg.Rules {
		if r.Regex == "" || r.Path != "" {
			continue
		}
		ok := false
		for seed := uint64(1); seed <= 400 && !ok; seed++ {
			gen, err := Generate(r.Regex, seed)
			if err != nil {
				break
			}
			text := "x " + gen + " \n"
			if len(r.Keywords) > 0 && !containsAny(strings.ToLower(gen), r.Keywords) {
				text = "x " + r.Keywords[0] + " " + gen + " \n"
			}
			for _, f := range sc.MustScan(text) {
				if f.RuleID == r.ID {
					out = append(out, Sample{r.ID, text})
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

func containsAny(s string, words []string) bool {
	for _, w := range words {
		if strings.Contains(s, strings.ToLower(w)) {
			return true
		}
	}
	return false
}

// PrivateKey is a PEM private key block of kind ("RSA", "OPENSSH") with
// lines random base64 lines of width characters drawn from r, without a
// trailing newline. The markers are assembled at run time so the source
// holds no key header for secret scanners to flag.
func PrivateKey(r *Rand, kind string, lines, width int) string {
	var b strings.Builder
	b.WriteString("-----BEGIN " + kind + " PRIVATE" + " KEY-----\n")
	for range lines {
		b.WriteString(r.From(Alnum+"+/", width) + "\n")
	}
	b.WriteString("-----END " + kind + " PRIVATE" + " KEY-----")
	return b.String()
}

var scanners sync.Map

// Scanner is the gitleaks detector for options, in the test process, as a
// secrets.Scanner. A user config can be loaded once per process (gitleaks'
// extend counter); a second one fails with a *secrets.ConfigError.
type Scanner struct {
	d   *detector.Detector
	err error
}

// Scan scans text with the detector.
func (s *Scanner) Scan(text string) ([]secrets.Finding, error) {
	if s.err != nil {
		return nil, s.err
	}
	return s.d.Scan(context.Background(), text), nil
}

// MustScan scans text and panics on an error (tests of the built-in rules).
func (s *Scanner) MustScan(text string) []secrets.Finding {
	found, err := s.Scan(text)
	if err != nil {
		panic(err)
	}
	return found
}

// RuleIDs lists the detector's rules.
func (s *Scanner) RuleIDs() []string { return s.d.RuleIDs() }

// CachedScanner builds one detector per distinct options for the whole
// test binary: building one per case would only make the tests slow.
func CachedScanner(o secrets.Options) secrets.Scanner { return cached(o) }

// Builtin is the cached scanner of the built-in rules.
func Builtin() *Scanner { return cached(secrets.Options{}) }

func cached(o secrets.Options) *Scanner {
	key := fmt.Sprint(o)
	if sc, ok := scanners.Load(key); ok {
		return sc.(*Scanner)
	}
	d, err := detector.New(o)
	sc, _ := scanners.LoadOrStore(key, &Scanner{d: d, err: err})
	return sc.(*Scanner)
}

package redact

import (
	"errors"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/gemini-guard/gemini-guard/internal/secrets"
	"github.com/gemini-guard/gemini-guard/internal/secrets/known"
	"github.com/gemini-guard/gemini-guard/internal/secrets/prefilter"
)

// ContextSize is how many bytes of already shown text a Stream keeps so
// that a secret whose keyword was shown (`api_key = `) is still recognised
// when its value arrives. It is above the longest lead any built-in rule
// allows before its secret.
const ContextSize = 1024

// MaxHeld bounds the text a stream holds back. A longer run that could
// still become a secret (an endless base64 blob, a private key block that
// never closes) is scanned and shown, redacted as far as the scanner can
// tell, rather than withheld forever.
const MaxHeld = 64 << 10

// minKnown is the shortest secret whose later copies are hidden: shorter
// captured values would mark ordinary words all over a text.
const minKnown = 8

// maxKnown bounds how many secrets a stream remembers.
const maxKnown = 64

// Stream is the state of one streamed answer between two chunks. It is
// what the hook stores between its processes, so it is plain data. It
// holds text the model wrote that may contain a secret: keep it private.
// The zero Stream is a stream that has not started.
type Stream struct {
	// Shown is the end of the text already shown, unredacted, at most
	// ContextSize bytes: context for the rules.
	Shown string `json:"shown,omitempty"`
	// Held is the text received but not shown yet.
	Held string `json:"held,omitempty"`
	// Known are the secrets found so far: every later copy is hidden too,
	// also where no rule would match it on its own.
	Known []string `json:"known,omitempty"`
}

// Redactor redacts streamed text: what it returns never shows a secret
// that the Scanner finds in the whole text, however the text is cut into
// chunks, and every other byte is shown unchanged, only later when it could
// still have become part of a secret.
type Redactor struct {
	// Watch tells how far text may be shown and when to scan. Required.
	Watch *prefilter.Watch
	// Scanner finds the secrets. Required.
	Scanner secrets.Scanner
	// Marker is what replaces a secret found by a rule; nil means
	// RuleMarker.
	Marker func(ruleID string) string
	// Known are the user's secrets known by value (internal/secrets/known):
	// every form of one is hidden too, and the stream holds back a tail
	// that could be the start of one. nil knows none.
	Known *known.Set
}

// RuleMarker is the marker naming the rule: [REDACTED:github-pat].
func RuleMarker(ruleID string) string { return "[REDACTED:" + ruleID + "]" }

// PlainMarker is the marker without the rule: [REDACTED].
func PlainMarker(string) string { return "[REDACTED]" }

// ErrNotReady is returned when a Redactor lacks its Watch or Scanner.
var ErrNotReady = errors.New("redact: redactor needs a watch and a scanner")

// Push adds chunk to the stream s and returns the text that can be shown
// now: everything that can no longer become part of a secret, with the
// secrets in it replaced by markers. The rest stays in s for the next Push
// or Flush. On error (the scanner failed) s is left unchanged and nothing
// should be shown by the caller's choice; the caller decides how to fail.
func (r *Redactor) Push(s *Stream, chunk string) (string, error) {
	if r.Watch == nil || r.Scanner == nil {
		return "", ErrNotReady
	}
	text := s.Shown + s.Held + chunk
	base := len(s.Shown)
	gate := r.Watch.Check(text, base, false)
	hold := gate.Hold
	if hold-base > MaxHeld {
		// Give up holding: show all but the end, scanned as it is now.
		hold = max(base, len(text)-MaxHeld)
		hold = runeStart(text, hold)
		gate.Scan = true
	}
	finds, err := r.find(text, base, gate.Scan, s.Known)
	if err != nil {
		return "", err
	}
	// A copy of a known secret may be under way at the end.
	if p := knownTail(text, base, s.Known); p < hold {
		hold = p
	}
	// So may a value the user's secrets are known by.
	if p := r.Known.Tail(text, base); p < hold {
		hold = p
	}
	// A secret must never be split by the hold point, and one that ends
	// at the end of the text may still grow.
	for changed := true; changed; {
		changed = false
		for _, f := range finds {
			if f.Start < hold && (f.End > hold || f.End == len(text)) {
				if h := max(base, f.Start); h < hold {
					hold, changed = h, true
				}
			}
		}
	}
	out := r.replace(text, base, hold, finds)
	s.Known = remember(s.Known, finds, hold)
	s.Shown = lastBytes(text[:hold], ContextSize)
	s.Held = text[hold:]
	return out, nil
}

// Flush ends the stream: it returns everything s still holds, with its
// secrets replaced, and resets s (keeping Known, which a caller may carry
// over to the next answer). An unterminated private key block counts as a
// secret: a truncated key still gives most of the key away.
func (r *Redactor) Flush(s *Stream) (string, error) {
	if r.Watch == nil || r.Scanner == nil {
		return "", ErrNotReady
	}
	text := s.Shown + s.Held
	base := len(s.Shown)
	if base == len(text) {
		s.Shown, s.Held = "", ""
		return "", nil
	}
	gate := r.Watch.Check(text, base, true)
	finds, err := r.find(text, base, gate.Scan, s.Known)
	if err != nil {
		return "", err
	}
	if f, ok := openPrivateKey(text, base); ok {
		finds = append(finds, f)
	}
	out := r.replace(text, base, len(text), finds)
	s.Known = remember(s.Known, finds, len(text))
	s.Shown, s.Held = "", ""
	return out, nil
}

// find runs the scanner when asked to and adds the copies of known secrets.
func (r *Redactor) find(text string, base int, scan bool, known []string) ([]secrets.Finding, error) {
	var finds []secrets.Finding
	if scan {
		var err error
		if finds, err = r.Scanner.Scan(text); err != nil {
			return nil, err
		}
	}
	for _, f := range finds {
		if f.Start < 0 || f.End > len(text) || f.Start > f.End {
			return nil, errors.New("redact: scanner returned a finding outside the text")
		}
	}
	// Copies of every secret known or just found are hidden too.
	all := known
	var listed map[string]bool // for many findings: a search of all each was quadratic
	if len(finds) > fewKnown {
		listed = make(map[string]bool, len(known)+len(finds))
		for _, k := range known {
			listed[k] = true
		}
	}
	for _, f := range finds {
		if len(f.Secret) < minKnown {
			continue
		}
		if listed != nil {
			if listed[f.Secret] {
				continue
			}
			listed[f.Secret] = true
		} else if slices.Contains(all, f.Secret) {
			continue
		}
		all = append(all[:len(all):len(all)], f.Secret)
	}
	finds = append(finds, knownCopies(text, base, all)...)
	return append(finds, r.Known.Find(text, base)...), nil
}

// replace returns text[base:hold] with every finding inside it replaced by
// a marker; overlapping findings share one marker.
func (r *Redactor) replace(text string, base, hold int, finds []secrets.Finding) string {
	marker := r.Marker
	if marker == nil {
		marker = RuleMarker
	}
	var spans []secrets.Finding
	for _, f := range finds {
		start, end := max(f.Start, base), min(f.End, hold)
		if start < end {
			g := f
			g.Start, g.End = start, end
			spans = append(spans, g)
		}
	}
	if len(spans) == 0 {
		return text[base:hold]
	}
	slices.SortFunc(spans, func(a, b secrets.Finding) int {
		if a.Start != b.Start {
			return a.Start - b.Start
		}
		return b.End - a.End
	})
	var b strings.Builder
	at := base
	for i := 0; i < len(spans); {
		group := spans[i]
		best := spans[i]
		j := i + 1
		for ; j < len(spans) && spans[j].Start < group.End; j++ {
			group.End = max(group.End, spans[j].End)
			if better(spans[j], best) {
				best = spans[j]
			}
		}
		b.WriteString(text[at:group.Start])
		b.WriteString(marker(best.RuleID))
		at = group.End
		i = j
	}
	b.WriteString(text[at:hold])
	return b.String()
}

// better prefers the finding that names the secret best: a rule's finding
// over a copy of a known secret or a value known by value, a specific rule over a generic one (secrets.GenericRule),
// then the longer range.
func better(a, b secrets.Finding) bool {
	copyOf := func(f secrets.Finding) bool { return f.RuleID == knownRule || f.RuleID == known.RuleID }
	if ak, bk := copyOf(a), copyOf(b); ak != bk {
		return bk
	}
	ag, bg := secrets.GenericRule(a.RuleID), secrets.GenericRule(b.RuleID)
	if ag != bg {
		return bg
	}
	return a.End-a.Start > b.End-b.Start
}

// knownRule is the rule id of a copy of a secret found earlier.
const knownRule = "known-secret"

// fewKnown is how many known secrets knownCopies looks for one at a time,
// a search of the text each; more are looked for in one pass of the text
// per length (knownCopiesByLength). A tool output dense with keys has
// tens of thousands, and a search each made the redaction quadratic.
const fewKnown = 16

// knownCopies finds the copies of known secrets in text that end after
// base: for each secret of known in order, its copies from left to right
// (overlapping ones too).
func knownCopies(text string, base int, known []string) []secrets.Finding {
	if len(known) > fewKnown {
		return knownCopiesByLength(text, base, known)
	}
	var out []secrets.Finding
	for _, k := range known {
		if k == "" {
			continue
		}
		from := max(0, base-len(k)+1)
		for from < len(text) {
			i := strings.Index(text[from:], k)
			if i < 0 {
				break
			}
			out = append(out, secrets.Finding{RuleID: knownRule, Start: from + i, End: from + i + len(k), Secret: k})
			from += i + 1
		}
	}
	return out
}

// knownCopiesByLength is knownCopies in one pass of text per length of
// secret: each place is looked up in a set of the secrets of that length,
// after a filter on its first two bytes. The findings come in knownCopies'
// order.
func knownCopiesByLength(text string, base int, known []string) []secrets.Finding {
	byLen := map[int]map[string][]int{} // length → secret → its indexes in known
	for i, k := range known {
		if k == "" {
			continue
		}
		g := byLen[len(k)]
		if g == nil {
			g = map[string][]int{}
			byLen[len(k)] = g
		}
		g[k] = append(g[k], i)
	}
	at := make([][]int, len(known))
	for n, g := range byLen {
		var first [1 << 16 / 64]uint64 // the secrets' first two bytes
		if n >= 2 {
			for k := range g {
				b := uint16(k[0])<<8 | uint16(k[1])
				first[b/64] |= 1 << (b % 64)
			}
		}
		for i := max(0, base-n+1); i+n <= len(text); i++ {
			if n >= 2 {
				if b := uint16(text[i])<<8 | uint16(text[i+1]); first[b/64]&(1<<(b%64)) == 0 {
					continue
				}
			}
			for _, k := range g[text[i:i+n]] {
				at[k] = append(at[k], i)
			}
		}
	}
	var out []secrets.Finding
	for k, starts := range at {
		for _, s := range starts {
			out = append(out, secrets.Finding{RuleID: knownRule, Start: s, End: s + len(known[k]), Secret: known[k]})
		}
	}
	return out
}

// knownTail is where a copy of a known secret that the text ends in the
// middle of starts, or len(text).
func knownTail(text string, base int, known []string) int {
	hold := len(text)
	for _, k := range known {
		for n := min(len(k)-1, len(text)-base); n > 0; n-- {
			if strings.HasSuffix(text, k[:n]) {
				hold = min(hold, len(text)-n)
				break
			}
		}
	}
	return hold
}

// remember adds the secrets of finds that were shown (redacted) to seen.
func remember(seen []string, finds []secrets.Finding, hold int) []string {
	for _, f := range finds {
		// A value known by value is never stored in the clear: the next
		// process knows it again from its source.
		if f.RuleID == knownRule || f.RuleID == known.RuleID || f.End > hold || len(f.Secret) < minKnown || slices.Contains(seen, f.Secret) {
			continue
		}
		seen = append(seen, f.Secret)
	}
	if len(seen) > maxKnown {
		seen = seen[len(seen)-maxKnown:]
	}
	return seen
}

// openPrivateKey finds a private key block that starts at or after base and
// is not closed by the end of text.
func openPrivateKey(text string, base int) (secrets.Finding, bool) {
	upper := strings.ToUpper(text[base:])
	i := strings.LastIndex(upper, "-----BEGIN")
	if i < 0 {
		return secrets.Finding{}, false
	}
	header := upper[i:]
	if nl := strings.IndexByte(header, '\n'); nl >= 0 {
		header = header[:nl]
	}
	if !strings.Contains(header, "PRIVATE KEY") {
		return secrets.Finding{}, false
	}
	rest := upper[i+len("-----BEGIN"):]
	// Closed when an END line follows the header line.
	if nl := strings.IndexByte(rest, '\n'); nl >= 0 && strings.Contains(rest[nl:], "KEY-----") {
		return secrets.Finding{}, false
	}
	return secrets.Finding{RuleID: "private-key", Start: base + i, End: len(text)}, true
}

// lastBytes is the end of s, at most n bytes, cut at a rune boundary.
func lastBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[runeStart(s, len(s)-n):]
}

// runeStart moves i forward to the start of a rune.
func runeStart(s string, i int) int {
	for i < len(s) && !utf8.RuneStart(s[i]) {
		i++
	}
	return i
}

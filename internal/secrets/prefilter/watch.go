package prefilter

import (
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/gemini-guard/gemini-guard/internal/secrets/decode"
)

// Watch decides, for the text of a stream received so far, how much of it
// may be shown and whether the Scanner has to look at it. It knows the rules
// (patterns and keywords) but finds nothing itself, so it links no gitleaks:
// the hook process that handles one streamed chunk stays light, and starts
// the scanner only when a rule really matches.
//
// A Watch compiles each rule it needs once, on first use; it is not safe
// for concurrent use.
type Watch struct {
	rules  []Rule
	words  []string // every keyword, lower case, sorted, no duplicates
	index  *wordIndex
	ruleKW [][]int // per rule: indexes into words
	maxKW  int     // longest keyword in bytes
	// lits and litIndex: every literal the rules' requirements name, and
	// an index over them made on first use (built-in rules only; see
	// literals).
	lits     []string
	litIndex *wordIndex
	comp     []*compiled
	qs       queues // the memory of the VMs Check runs, one at a time
}

// compiled holds what one rule needs at run time, each part built on
// first use: a hook process compiles only the rules its text calls for.
type compiled struct {
	once sync.Once
	info *ruleInfo
	err  error
	// Whole pattern and keyword-anchored form: the regexp that tells
	// whether it matches, and the program the VM runs.
	full, anch lazyRule
}

type lazyRule struct {
	reOnce, progOnce sync.Once
	re               *regexp.Regexp
	prog             *program
}

func (l *lazyRule) regexp(pattern string) *regexp.Regexp {
	l.reOnce.Do(func() {
		var err error
		if l.re, err = regexp.Compile(pattern); err != nil {
			l.re = nil
		}
	})
	return l.re
}

func (l *lazyRule) program(pattern string) *program {
	l.progOnce.Do(func() {
		var err error
		if l.prog, err = compileProgram(pattern); err != nil {
			l.prog = nil
		}
	})
	return l.prog
}

// NewWatch returns a Watch over rules, leaving out those whose id is in
// disabled. A rule whose pattern does not compile is skipped when it is
// first needed (the scanner, which compiles the same patterns, reports that
// error).
func NewWatch(rules []Rule, disabled []string) *Watch {
	w := &Watch{rules: rules}
	if len(disabled) > 0 {
		w.rules = nil
		for _, r := range rules {
			if !slices.Contains(disabled, r.ID) {
				w.rules = append(w.rules, r)
			}
		}
	}
	w.comp = make([]*compiled, len(w.rules))
	w.ruleKW = make([][]int, len(w.rules))
	if isBuiltin(rules) {
		// Precomputed keyword list and indexes.
		w.words, w.maxKW = builtinWords, builtinMaxKW
		w.index = newWordIndex(w.words)
		w.lits = builtinLiterals
		for i, r := range w.rules {
			w.ruleKW[i] = r.kw
		}
		return w
	}
	for _, r := range w.rules {
		for _, k := range r.Keywords {
			w.words = append(w.words, strings.ToLower(k))
		}
	}
	slices.Sort(w.words)
	w.words = slices.Compact(w.words)
	w.words = slices.DeleteFunc(w.words, func(s string) bool { return s == "" })
	w.index = newWordIndex(w.words)
	for i, r := range w.rules {
		for _, k := range r.Keywords {
			if j, ok := slices.BinarySearch(w.words, strings.ToLower(k)); ok {
				w.ruleKW[i] = append(w.ruleKW[i], j)
			}
		}
	}
	for _, k := range w.words {
		w.maxKW = max(w.maxKW, len(k))
	}
	return w
}

// isBuiltin reports whether rules is the built-in table itself.
func isBuiltin(rules []Rule) bool {
	return len(rules) == len(builtinRules) && len(rules) > 0 && &rules[0] == &builtinRules[0]
}

// BuiltinRules returns the built-in rule set (gitleaks' default config
// extended by internal/secrets/detector/rules.toml) with its precomputed analysis.
// The caller must not modify it.
func BuiltinRules() []Rule { return builtinRules }

// Gate is what Check says about the text of a stream: where it must stop
// being shown for now, and whether it must go to the scanner. (Not a
// decision: the scanner finds the secrets; the gate only says what may
// pass unscanned.)
type Gate struct {
	// Hold is the first byte that must not be shown yet: from there on the
	// text could still become part of a secret. Base <= Hold <= len(text).
	Hold int
	// Scan is set when some rule matches in a way that can give a finding
	// in the text from base on: the scanner must look at the text.
	Scan bool
}

// Check looks at text, of which text[:base] has been shown already (kept as
// context), and tells how far it may be shown and whether it must be
// scanned. final says that no more text will follow (the answer ended):
// nothing is held then, and a match that needs the end of the text counts.
// It never fails: a rule whose pattern does not compile makes the text
// scanned and held from base (the scanner reports the error).
func (w *Watch) Check(text string, base int, final bool) Gate {
	gate := Gate{Hold: len(text)}
	if base > len(text) {
		base = len(text)
	}
	// gitleaks lower-cases with strings.ToLower; for ASCII text that is
	// the byte-preserving lower-casing the keyword positions need too.
	isASCII := asciiOnly(text)
	var lower string
	if isASCII {
		lower = asciiLower(text)
	} else {
		lower = strings.ToLower(text)
	}
	found := make([]bool, len(w.words))
	w.index.find(lower, found)
	// Keyword positions come from an ASCII-only lower-casing that keeps
	// byte offsets. The only non-ASCII runes that case-fold to ASCII
	// letters are the Kelvin sign and the long s: with either in the text,
	// keyword-anchored shortcuts are off and rules run over the whole text.
	anchorsOK := !strings.ContainsRune(text, '\u212a') && !strings.ContainsRune(text, '\u017f')
	var ascii string
	if anchorsOK {
		ascii = lower
		if !isASCII {
			ascii = asciiLower(text)
		}
	}
	tailWords := w.tailPrefixes(lower)
	lits := literals{lower: lower, w: w}
	runs := runLengths{text: text}

	for i := range w.rules {
		r := &w.rules[i]
		hasKW := len(r.Keywords) == 0
		partial := false
		for _, k := range w.ruleKW[i] {
			hasKW = hasKW || found[k]
			partial = partial || tailWords[k]
		}
		if !hasKW && !partial && (final || !w.leadsKeyword(i)) {
			continue
		}
		if !hasKW && !final && anchorsOK && r.info != nil && r.info.kwStart {
			// Only the start of a keyword ends the text, and the rule's
			// secret starts with its keyword: hold from there, no need to
			// run the rule.
			if p := w.partialStart(ascii, i, base, r.info.kwBoundary); p < gate.Hold {
				gate.Hold = p
			}
			continue
		}
		c := w.comp[i]
		if c == nil {
			c = &compiled{}
			w.comp[i] = c
		}
		c.once.Do(func() { c.info, c.err = ruleAnalysis(r) })
		if c.err != nil {
			continue
		}
		in := c.info
		q := len(text)
		if !final {
			q = tailBound(text, base, in)
		}
		anchored := anchorsOK && in.anchored != ""
		if anchored {
			if !hasKW {
				continue // an anchored match starts with a whole keyword
			}
			from := max(0, min(base, q)-in.anchorPrefix)
			prog := r.anchProg
			if prog == nil {
				prog = c.anch.program(in.anchored)
			}
			if prog == nil {
				gate.Scan, gate.Hold = true, base
				continue
			}
			m := w.qs.vm(prog, text)
			m.final = final
			complete := w.keywordPositions(ascii, i, from, func(k int) {
				if gate.Scan && (final || k < q-in.anchorPrefix || q == len(text)) {
					return // nothing more to learn here
				}
				matched, p := m.attempt(k)
				if matched && k >= base-in.anchorPrefix {
					gate.Scan = true
				}
				if p >= 0 && p < gate.Hold {
					gate.Hold = p
				}
			})
			if !complete {
				// Too many places to try (maxKeywordPositions): as when the
				// rule cannot be run here.
				gate.Scan, gate.Hold = true, min(gate.Hold, base)
			}
			continue
		}
		useNeed := anchorsOK // requirements assume no Kelvin sign or long s
		if hasKW && !gate.Scan && useNeed && !in.need.holds(lits.has) {
			hasKW = false // no match possible: nothing to scan for
		}
		if hasKW && !gate.Scan && runs.allow(in) {
			hit := c.full.regexp(r.Pattern)
			lo := 0
			if in.maxPrefix != unbounded {
				lo = max(0, base-in.maxPrefix-utf8.UTFMax)
			}
			if hit == nil {
				gate.Scan = true // does not compile: let the scanner report it
			} else if loc := hit.FindStringIndex(text[lo:]); loc != nil && lo+loc[1] > base {
				gate.Scan = true
			} else if loc != nil && lo+loc[1] <= base {
				// A match ends before base: others may follow.
				for _, m := range hit.FindAllStringIndex(text[lo:], -1) {
					if lo+m[1] > base {
						gate.Scan = true
						break
					}
				}
			}
		}
		// A secret under way needs what comes before it, or, in a branch
		// whose secret starts with a keyword, the text ends in that
		// keyword's beginning (branchesNeedBefore).
		if q < len(text) && !final && !(useNeed && !in.needBefore.holds(lits.has) && !w.endsInStart(i, in, tailWords)) {
			from := 0
			if in.maxPrefix != unbounded {
				from = max(0, q-in.maxPrefix-utf8.UTFMax)
			}
			prog := r.fullProg
			if prog == nil {
				prog = c.full.program(r.Pattern)
			}
			if prog == nil {
				gate.Scan, gate.Hold = true, base
				continue
			}
			if p := w.qs.vm(prog, text).pendingSecret(from); p >= 0 && p < gate.Hold {
				gate.Hold = p
			}
		}
		if !hasKW && !final && !(useNeed && !in.need.holds(lits.has)) && runs.allow(in) {
			// The rule's keyword may lie outside its match (gitleaks wants it
			// anywhere in the text: facebook-access-token, discord-bot-token).
			// A complete match shown now would become a secret when the keyword
			// comes later in the answer, too late to hide: hold it until the
			// keyword comes (then it is scanned) or the answer ends.
			if hit := c.full.regexp(r.Pattern); hit != nil {
				lo := max(0, base-keywordLaterWindow)
				for _, m := range hit.FindAllStringIndex(text[lo:], -1) {
					if lo+m[1] > base {
						gate.Hold = min(gate.Hold, lo+m[0])
						break
					}
				}
			}
		}
	}
	if p := encodedTail(text); p < gate.Hold && !final {
		gate.Hold = p
	}
	if !gate.Scan && decodedKeyword(text, w.index) {
		gate.Scan = true
	}
	gate.Hold = max(gate.Hold, base)
	return gate
}

// runLengths tells, for one text, whether a rule's match fits in it by
// the characters of its secret alone: every match holds a run of at least
// minRun runes the secret can hold (ruleInfo.minRun). Most text has no
// such run for most rules (40 hex digits, 30 letters and digits in a
// row), and then the rule's regexp is neither compiled nor run: in a hook
// process, compiling a handful of gitleaks patterns cost more than the
// rest of a streamed chunk's check. The longest run of each character
// set is counted once per text.
type runLengths struct {
	text string
	sets []runSet
}

type runSet struct {
	ascii   [2]uint64
	wide    bool
	longest int
}

// allow reports whether text may hold a match of the rule described by in.
func (r *runLengths) allow(in *ruleInfo) bool {
	if in.minRun <= 1 {
		return true
	}
	for _, s := range r.sets {
		if s.ascii == in.secretASCII && s.wide == in.secretWide {
			return s.longest >= in.minRun
		}
	}
	s := runSet{ascii: in.secretASCII, wide: in.secretWide, longest: longestRun(r.text, in)}
	r.sets = append(r.sets, s)
	return s.longest >= in.minRun
}

// longestRun is the most bytes in a row of text that the rule's secret may
// hold. A non-ASCII rune counts with all its bytes when the secret may hold
// any non-ASCII rune (so a run of n runes is at least n bytes), and breaks
// the run otherwise; invalid UTF-8 reads as U+FFFD, a non-ASCII rune too.
func longestRun(text string, in *ruleInfo) int {
	best, cur := 0, 0
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c < utf8.RuneSelf && in.secretByte(c) || c >= utf8.RuneSelf && in.secretWide {
			cur++
			continue
		}
		best = max(best, cur)
		cur = 0
	}
	return max(best, cur)
}

// keywordLaterWindow is how far before the shown text a held match without
// its keyword is looked for: a match ending in new text starts at most this
// far back for every rule whose keyword may lie outside it.
const keywordLaterWindow = 4096

// leadsKeyword reports whether a secret of rule i may start before any of
// its keywords occurs (hashicorp-tf-api-token's `<14>.atlasv1.<60+>`,
// openai-api-key's `sk-…T3BlbkFJ…`) or hold none at all: a text with no
// keyword may then end in the beginning of a secret, which must be held
// like one whose keyword was seen. Other rules' secrets start with a
// keyword (kwStart) or after one (anchored).
func (w *Watch) leadsKeyword(i int) bool {
	in := w.rules[i].info
	if in == nil {
		c := w.comp[i]
		if c == nil {
			c = &compiled{}
			w.comp[i] = c
		}
		r := &w.rules[i]
		c.once.Do(func() { c.info, c.err = ruleAnalysis(r) })
		if c.err != nil {
			return true // let the scanner report it
		}
		in = c.info
	}
	return !in.kwStart && in.anchored == ""
}

// ruleAnalysis is r's precomputed analysis, or computes it.
func ruleAnalysis(r *Rule) (*ruleInfo, error) {
	if r.info != nil {
		return r.info, nil
	}
	return analyze(r.Pattern, r.Keywords)
}

// tailBound is the earliest position where the secret of a match still
// under way at the end of text can start, by the rule's shape alone: the
// secret is a run of characters it can hold, ending at most maxSuffix bytes
// before the end, and it starts at base or later (what came before was
// decided when it was shown). len(text) means no secret can be under way.
func tailBound(text string, base int, in *ruleInfo) int {
	if in.maxSuffix == unbounded {
		return base
	}
	p := max(base, len(text)-in.maxSuffix)
	q := p
	for q > base {
		r, n := utf8.DecodeLastRuneInString(text[:q])
		if !in.secretRune(r) {
			break
		}
		q -= n
	}
	if q == p && p == len(text) {
		return len(text)
	}
	return q
}

// keywordPositions calls fn with every position from on where one of rule
// i's keywords occurs in the ASCII-lower-cased text, in increasing order.
func (w *Watch) keywordPositions(lower string, i, from int, fn func(int)) (complete bool) {
	var pos []int
	for _, k := range w.ruleKW[i] {
		word := w.words[k]
		for at := from; at <= len(lower); {
			j := strings.Index(lower[at:], word)
			if j < 0 {
				break
			}
			if len(pos) == maxKeywordPositions {
				return false
			}
			pos = append(pos, at+j)
			at += j + 1
		}
	}
	slices.Sort(pos)
	pos = slices.Compact(pos)
	for _, p := range pos {
		fn(p)
	}
	return true
}

// maxKeywordPositions bounds the places where one rule is tried in one
// Check. A text that repeats a keyword at every byte (a run of the A's
// that a Twitter bearer token starts with: an expansion bomb's output, a
// padded blob) had the rule tried at each, which took a hook 0.4 s and
// 60 MB on 13 KB of text and grows with the text. Past the bound, the rule
// is not tried: the text goes to the scanner, whose one regexp pass is
// linear, and a stream holds what is new until it has.
const maxKeywordPositions = 4096

// partialStart is where the longest beginning of one of rule i's keywords
// that ends text starts (at base or later), or len(text). With boundary the
// beginning must start a word.
func (w *Watch) partialStart(lower string, i, base int, boundary bool) int {
	best := len(lower)
	for _, k := range w.ruleKW[i] {
		word := w.words[k]
		for n := min(len(word)-1, len(lower)-base); n > 0; n-- {
			p := len(lower) - n
			if p >= best || !strings.HasSuffix(lower, word[:n]) {
				continue
			}
			if boundary && p > 0 && isWordByte(lower[p-1]) == isWordByte(lower[p]) {
				continue
			}
			best = p
			break
		}
	}
	return best
}

func isWordByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_'
}

// endsInStart reports whether the text ends in the beginning of one of
// the keywords a branch of rule i's secret starts with (in.startKeywords),
// as tailPrefixes marked them in tail.
func (w *Watch) endsInStart(i int, in *ruleInfo, tail []bool) bool {
	for _, k := range w.ruleKW[i] {
		if tail[k] && slices.Contains(in.startKeywords, w.words[k]) {
			return true
		}
	}
	return false
}

// tailPrefixes marks the keywords that the end of lower begins: a suffix of
// lower that is a proper prefix of the keyword ("gh" for "ghp_"). Such a
// rule may start a match in the next chunk that began in this one.
func (w *Watch) tailPrefixes(lower string) []bool {
	marks := make([]bool, len(w.words))
	for n := 1; n < w.maxKW && n <= len(lower); n++ {
		suffix := lower[len(lower)-n:]
		j, _ := slices.BinarySearch(w.words, suffix)
		for ; j < len(w.words) && strings.HasPrefix(w.words[j], suffix); j++ {
			if len(w.words[j]) > n {
				marks[j] = true
			}
		}
	}
	return marks
}

// minEncoded is the shortest run that gitleaks decodes as base64.
const minEncoded = 16

// encodedTail is where a run of base64 characters at the end of text starts
// when it is long enough to be decoded (it may still grow, and its decoded
// value change), else len(text).
func encodedTail(text string) int {
	q := len(text)
	for q > 0 && isBase64Byte(text[q-1]) {
		q--
	}
	if len(text)-q >= minEncoded {
		return q
	}
	return len(text)
}

func isBase64Byte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '/' || c == '+' || c == '-' || c == '='
}

// decodedKeyword reports whether a keyword shows up only after decoding
// text (base64, hex, percent, unicode escapes, as gitleaks decodes): then a
// finding may hide in an encoded run and the scanner must look.
func decodedKeyword(text string, x *wordIndex) bool {
	// A pass at a time, as gitleaks decodes, without lower-casing the text
	// itself again (the caller has looked at it).
	d := decode.NewDecoder()
	var segments []*decode.Segment
	for depth := 1; depth <= decode.MaxDecodeDepth; depth++ {
		text, segments = d.Decode(text, segments)
		if len(segments) == 0 {
			return false
		}
		if x.find(strings.ToLower(text), nil) {
			return true
		}
	}
	return false
}

// asciiOnly reports whether s has no byte outside ASCII.
func asciiOnly(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// asciiLower lower-cases ASCII letters only, so byte offsets stay valid.
func asciiLower(s string) string {
	i := 0
	for i < len(s) && !('A' <= s[i] && s[i] <= 'Z') {
		i++
	}
	if i == len(s) {
		return s
	}
	// Built in place: []byte(s) and back would be two copies of a text
	// that can be megabytes, in new memory a hook process pays for.
	var b strings.Builder
	b.Grow(len(s))
	from := 0
	for ; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			b.WriteString(s[from:i])
			b.WriteByte(s[i] + 'a' - 'A')
			from = i + 1
		}
	}
	b.WriteString(s[from:])
	return b.String()
}

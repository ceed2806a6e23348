package secrets

// The detection engine is a port of gitleaks v8.30.1's detect.Detector for
// one fragment without a file path or commit (detect/detect.go, utils.go,
// location.go; config/allowlist.go, config.go; MIT licence, Copyright (c)
// 2019 Zachary Rice). It exists for speed, not to change results:
//
//   - linking gitleaks' detect package costs a hook process ~3 ms of page
//     faults before main runs; this engine links only the standard library;
//   - a rule's regexp is compiled only when one of its keywords occurs in
//     the text (gitleaks compiles all ~220 at start-up, ~8 ms);
//   - allowlist stopwords are checked by substring search after a match
//     instead of building an Aho-Corasick trie of 1,446 words up front.
//
// Everything else follows gitleaks line by line, including its quirks
// (entropy over runes divided by bytes, the allowlist regexps joined into one
// alternation, the secret group re-matched on the trimmed match), so that
// findings are identical; TestEquivalence compares them with gitleaks' own
// detector on real source files and secret samples.

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/gemini-guard/gemini-guard/internal/secrets/keywords"
)

const gitleaksAllowSignature = "gitleaks:allow"

// engine is a compiled rule set, set up in two steps: the keyword matcher
// at once (all a text without keywords needs), the rules on the first text
// that has one. Rules compile lazily after that; an engine is safe for
// concurrent use.
type engine struct {
	cfg         *Config
	ignoreAllow bool
	// words are the rules' keywords, lowercased, sorted, distinct;
	// matcher finds them.
	words   []string
	matcher *keywords.Matcher
	// hasAlways: some content rule has no keywords (it runs on every text).
	hasAlways bool

	setup    sync.Once
	setupErr error
	rules    []*crule
	byID     map[string]*crule
	// allowlists are the global ones (those without targetRules).
	allowlists []*callowlist
	// ruleWords[i] are the rules that have words[i] as a keyword.
	ruleWords [][]*crule
	// always are the rules without keywords.
	always []*crule
}

// crule is one rule with its lazily compiled regexps.
type crule struct {
	src  Rule
	once sync.Once
	re   *regexp.Regexp
	err  error
	// pathBlocks: the rule's path regexp does not match "", so it never
	// runs (set by compile).
	pathBlocks bool
	// shape is the windowing analysis (nil: search the whole text), made
	// once without compiling the regexp.
	shapeOnce sync.Once
	shape     *shape
	allow     []*callowlist
	required  []*crule
}

// callowlist is an allowlist with its regexps joined and compiled lazily.
type callowlist struct {
	and         bool
	regexTarget string
	hasCommits  bool
	hasPaths    bool
	regexes     []string
	// rawStopwords as configured; stopwords lowercased, set by compile.
	rawStopwords []string
	stopwords    []string
	once         sync.Once
	re           *regexp.Regexp
	err          error
}

// newEngine builds the engine of cfg. With validate not nil (a user's
// config) the rules are set up at once and the regexps of the rules named
// in validate, and every global allowlist that is not built in, are
// compiled: a user's broken regexp must fail NewScanner, not a later scan.
// Otherwise (the built-in rules, which tests compile) everything waits
// until a text needs it.
func newEngine(cfg *Config, opts Options, validate map[string]bool) (*engine, error) {
	e := &engine{cfg: cfg, ignoreAllow: !opts.TrustAllowComments}
	for _, r := range cfg.Rules {
		if r.Regex == "" {
			continue // path-only: never matches content
		}
		if len(r.Keywords) == 0 {
			e.hasAlways = true
		}
		for _, k := range r.Keywords {
			if k != "" { // an empty keyword never matches (gitleaks' trie)
				e.words = append(e.words, strings.ToLower(k))
			}
		}
	}
	slices.Sort(e.words)
	e.words = slices.Compact(e.words)
	e.matcher = keywords.NewMatcher(e.words)
	if validate != nil {
		if err := e.ready(validate); err != nil {
			return nil, err
		}
	}
	return e, nil
}

// ready sets the rules up once (see newEngine) and returns the error of
// that set-up.
func (e *engine) ready(validate map[string]bool) error {
	e.setup.Do(func() { e.setupErr = e.build(validate) })
	return e.setupErr
}

// wordIndex is the index of keyword w in e.words, or -1.
func (e *engine) wordIndex(w string) int {
	if i, ok := slices.BinarySearch(e.words, w); ok {
		return i
	}
	return -1
}

func (e *engine) build(validate map[string]bool) error {
	cfg := e.cfg
	e.byID = map[string]*crule{}
	targeted := map[string][]*callowlist{}
	var check []*callowlist
	for _, a := range cfg.Allowlists {
		ca, err := newAllowlist(a)
		if err != nil {
			return fmt.Errorf("secrets: [[allowlists]] %w", err)
		}
		if validate != nil && !slices.Contains(builtin.Allowlists, a) {
			check = append(check, ca)
		}
		if len(a.TargetRules) > 0 {
			for _, id := range a.TargetRules {
				targeted[id] = append(targeted[id], ca)
			}
			continue
		}
		e.allowlists = append(e.allowlists, ca)
	}
	for i := range cfg.Rules {
		r := cfg.Rules[i]
		if strings.TrimSpace(r.ID) == "" {
			return errors.New("secrets: rule |id| is missing or empty")
		}
		if r.Regex == "" && r.Path == "" {
			return fmt.Errorf("secrets: %s: both |regex| and |path| are empty, this rule will have no effect", r.ID)
		}
		cr := &crule{src: r}
		for _, a := range r.Allowlists {
			ca, err := newAllowlist(a)
			if err != nil {
				return fmt.Errorf("secrets: %s: [[rules.allowlists]] %w", r.ID, err)
			}
			cr.allow = append(cr.allow, ca)
		}
		if _, dup := e.byID[r.ID]; dup {
			return fmt.Errorf("secrets: rule %s is defined twice", r.ID)
		}
		e.byID[r.ID] = cr
		e.rules = append(e.rules, cr)
	}
	for id, as := range targeted {
		cr, ok := e.byID[id]
		if !ok {
			return fmt.Errorf("secrets: [[allowlists]] target rule ID '%s' does not exist", id)
		}
		cr.allow = append(cr.allow, as...)
	}
	for _, cr := range e.rules {
		for _, req := range cr.src.Required {
			if req.ID == "" {
				return fmt.Errorf("secrets: %s: [[rules.required]] rule ID is empty", cr.src.ID)
			}
			rr, ok := e.byID[req.ID]
			if !ok {
				return fmt.Errorf("secrets: %s: [[rules.required]] rule ID '%s' does not exist", cr.src.ID, req.ID)
			}
			cr.required = append(cr.required, rr)
		}
	}
	// A path-only rule never matches content (gemini-guard never passes a
	// path, see package doc); a rule with a path and a regexp runs only if
	// its path regexp matches "" (decided when it first runs).
	kept := e.rules[:0]
	for _, cr := range e.rules {
		if cr.src.Regex != "" {
			kept = append(kept, cr)
		}
	}
	e.rules = kept
	e.ruleWords = make([][]*crule, len(e.words))
	for _, cr := range e.rules {
		if len(cr.src.Keywords) == 0 {
			e.always = append(e.always, cr)
			continue
		}
		for _, k := range cr.src.Keywords {
			i := e.wordIndex(strings.ToLower(k))
			if i >= 0 && !slices.Contains(e.ruleWords[i], cr) {
				e.ruleWords[i] = append(e.ruleWords[i], cr)
			}
		}
	}
	for _, cr := range e.rules {
		if validate[cr.src.ID] {
			if err := cr.validate(); err != nil {
				return err
			}
		}
	}
	for _, a := range check {
		if err := a.compile(); err != nil {
			return fmt.Errorf("secrets: [[allowlists]] %w", err)
		}
	}
	return nil
}

func newAllowlist(a *Allowlist) (*callowlist, error) {
	ca := &callowlist{hasCommits: len(a.Commits) > 0, hasPaths: len(a.Paths) > 0, regexes: a.Regexes}
	switch strings.ToUpper(a.Condition) {
	case "AND", "&&":
		ca.and = true
	case "", "OR", "||":
	default:
		return nil, fmt.Errorf("unknown allowlist |condition| '%s' (expected 'and', 'or')", a.Condition)
	}
	switch a.RegexTarget {
	case "", "secret":
	case "match", "line":
		ca.regexTarget = a.RegexTarget
	default:
		return nil, fmt.Errorf("unknown allowlist |regexTarget| '%s' (expected 'match', 'line')", a.RegexTarget)
	}
	if len(a.Commits) == 0 && len(a.Paths) == 0 && len(a.Regexes) == 0 && len(a.StopWords) == 0 {
		return nil, errors.New("must contain at least one check for: commits, paths, regexes, or stopwords")
	}
	// Stopwords are lowercased when first needed (compile): the built-in
	// set has 1,446 and most scans never check one.
	ca.rawStopwords = a.StopWords
	return ca, nil
}

// compile compiles the rule's regexp once (its allowlists compile when a
// finding first needs them).
func (r *crule) compile() error {
	r.once.Do(func() {
		if r.src.Regex != "" {
			re, err := regexp.Compile(r.src.Regex)
			if err != nil {
				r.err = fmt.Errorf("secrets: rule %s: %w", r.src.ID, err)
				return
			}
			if r.src.SecretGroup > re.NumSubexp() {
				r.err = fmt.Errorf("secrets: %s: invalid regex secret group %d, max regex secret group %d", r.src.ID, r.src.SecretGroup, re.NumSubexp())
				return
			}
			r.re = re
		}
		if r.src.Path != "" {
			p, err := regexp.Compile(r.src.Path)
			if err != nil {
				r.err = fmt.Errorf("secrets: %s: path: %w", r.src.ID, err)
				return
			}
			// The path is always "": the rule only runs if that matches.
			r.pathBlocks = !p.MatchString("")
		}
	})
	return r.err
}

// analyzed returns the rule's windowing shape, analysing it once.
func (r *crule) analyzed() *shape {
	r.shapeOnce.Do(func() {
		if r.src.Regex != "" {
			r.shape = analyze(r.src.Regex)
		}
	})
	return r.shape
}

// validate compiles the rule and its allowlists, reporting the first error:
// a user's rule is validated when the scanner is built.
func (r *crule) validate() error {
	if err := r.compile(); err != nil {
		return err
	}
	for _, a := range r.allow {
		if err := a.compile(); err != nil {
			return fmt.Errorf("secrets: %s: [[rules.allowlists]] %w", r.src.ID, err)
		}
	}
	return nil
}

// compile joins the allowlist's regexps as gitleaks does: one alternation
// of the pattern texts, so a flag such as (?i) at the start of one pattern
// carries into the patterns after it.
func (a *callowlist) compile() error {
	a.once.Do(func() {
		a.stopwords = make([]string, len(a.rawStopwords))
		for i, w := range a.rawStopwords {
			a.stopwords[i] = strings.ToLower(w)
		}
		if len(a.regexes) == 0 {
			return
		}
		for _, p := range a.regexes {
			if _, err := regexp.Compile(p); err != nil {
				a.err = err
				return
			}
		}
		a.re, a.err = regexp.Compile("(?:" + strings.Join(a.regexes, "|") + ")")
	})
	return a.err
}

func (e *engine) ruleIDs() []string {
	if e.ready(nil) != nil {
		return nil
	}
	ids := make([]string, 0, len(e.rules))
	for _, r := range e.rules {
		ids = append(ids, r.src.ID)
	}
	slices.Sort(ids)
	return ids
}

// pass is one decoding pass: its text and the segments decoded into it.
type pass struct {
	text, lower string
	segments    []*keywords.Segment
	// ascii is text with only ASCII letters lowercased (byte offsets kept),
	// computed when a windowed rule first needs it.
	ascii string
	done  bool
	// occ[w] are the positions of engine word w in ascii; nil until
	// computed, or when the text holds a character whose Unicode
	// lowercase is an ASCII letter (U+212A, U+0130): then keyword
	// presence must be read from lower instead.
	occ     [][]int
	occDone bool
}

// occurrences returns the positions of every engine word in the pass's
// ASCII-lowercased text, scanning once. Its keyword presence equals that of
// lower (gitleaks' strings.ToLower) unless the text holds U+212A or U+0130,
// the only characters whose lowercase is ASCII: then it returns nil.
func (p *pass) occurrences(m *keywords.Matcher) [][]int {
	if !p.occDone {
		p.occDone = true
		if !strings.Contains(p.text, "\u212a") && !strings.Contains(p.text, "\u0130") {
			p.occ = make([][]int, len(m.Words()))
			m.Each(p.asciiLower(), func(w, pos int) { p.occ[w] = append(p.occ[w], pos) })
		}
	}
	return p.occ
}

func (p *pass) asciiLower() string {
	if !p.done {
		p.done = true
		if len(p.lower) == len(p.text) && isASCII(p.text) {
			p.ascii = p.lower // strings.ToLower of ASCII is the same
		} else {
			p.ascii = asciiLower(p.text)
		}
	}
	return p.ascii
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// touchesSegment reports whether w overlaps a decoded segment (touching
// counts, as in gitleaks).
func (p *pass) touchesSegment(w span) bool {
	for _, s := range p.segments {
		if s.Decoded.Start <= w.end && s.Decoded.End >= w.start {
			return true
		}
	}
	return false
}

// passes returns the decoding passes of text, as gitleaks' scan loop makes
// them (the text, then up to MaxDecodeDepth decoded versions).
func passes(text string) []pass {
	out := []pass{{text: text, lower: keywords.Lower(text)}}
	d := keywords.NewDecoder()
	var segments []*keywords.Segment
	for depth := 1; depth <= MaxDecodeDepth; depth++ {
		text, segments = d.Decode(text, segments)
		if len(segments) == 0 {
			break
		}
		out = append(out, pass{text: text, lower: keywords.Lower(text), segments: segments})
	}
	return out
}

// mayContain reports whether some rule could match text: a rule without
// keywords exists, or a keyword occurs in some decoding pass.
func (e *engine) mayContain(text string) bool {
	if e.hasAlways {
		return text != ""
	}
	found := false
	keywords.Passes(text, func(lower string) bool {
		found = e.matcher.Any(lower)
		return !found
	})
	return found
}

// finding is a gitleaks finding with the fields gitleaks reports (for the
// equivalence test) and the exact byte range gemini-guard reports.
type finding struct {
	RuleID, Description string
	// gitleaks' fields: 0-based lines, 1-based columns with its quirks.
	StartLine, EndLine, StartColumn, EndColumn int
	Line, Match, Secret                        string
	Tags                                       []string
	Entropy                                    float32
	// start, end is the byte range of the secret (decoded: the encoded
	// span) in the scanned text.
	start, end int
	decoded    bool
}

// detect runs the rules on text as gitleaks' DetectString does with
// MaxDecodeDepth decoding passes.
func (e *engine) detect(text string) []Finding {
	var out []Finding
	lines := newLineIndex(text)
	for _, f := range e.detectRaw(text) {
		out = append(out, Finding{
			RuleID: f.RuleID, Description: f.Description,
			Start: f.start, End: f.end, Line: lines.line(f.start),
			Secret: f.Secret, Decoded: f.decoded,
		})
	}
	return out
}

func (e *engine) detectRaw(text string) []finding {
	if text == "" {
		return nil
	}
	ps := passes(text)
	// Which rules run in which pass: a rule runs in a pass when one of its
	// keywords occurs in that pass's lowercased text.
	found := make([][]bool, len(ps))
	anyWord := false
	for i := range ps {
		found[i] = make([]bool, len(e.words))
		if occ := ps[i].occurrences(e.matcher); occ != nil {
			for w, o := range occ {
				found[i][w] = len(o) > 0
				anyWord = anyWord || len(o) > 0
			}
		} else if e.matcher.Found(ps[i].lower, found[i]) {
			anyWord = true
		}
	}
	if !anyWord && !e.hasAlways {
		return nil // no rule can run: the rules need not even be set up
	}
	if e.ready(nil) != nil {
		return nil // only a user's config can fail, and NewScanner reported it
	}
	active := make([][]*crule, len(ps))
	any := false
	for i := range ps {
		seen := map[*crule]bool{}
		for w, ok := range found[i] {
			if !ok {
				continue
			}
			for _, r := range e.ruleWords[w] {
				if !seen[r] {
					seen[r] = true
					active[i] = append(active[i], r)
				}
			}
		}
		active[i] = append(active[i], e.always...)
		any = any || len(active[i]) > 0
	}
	if !any {
		return nil
	}
	s := &scan{e: e, raw: text}
	var findings []finding
	for i := range ps {
		for _, r := range active[i] {
			findings = append(findings, s.detectRule(&ps[i], r, false)...)
		}
	}
	return filterGeneric(findings)
}

// anchors returns the sorted positions of lits in the pass's text from the
// pass's single keyword scan, or nil when that scan cannot answer (a text
// that is not ASCII, or a literal that is not an engine word).
func (s *scan) anchors(p *pass, lits []string) []int {
	occ := p.occurrences(s.e.matcher)
	if occ == nil {
		return nil
	}
	var out []int
	for _, l := range lits {
		w := s.e.wordIndex(l)
		if w < 0 {
			return nil
		}
		out = append(out, occ[w]...)
	}
	if out == nil {
		out = []int{} // known: none
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// scan holds what one detect call computes once.
type scan struct {
	e        *engine
	raw      string
	newlines []int
	nlDone   bool
}

func (s *scan) newlineIndices() []int {
	if !s.nlDone {
		s.nlDone = true
		for i := 0; i < len(s.raw); i++ {
			if s.raw[i] == '\n' {
				s.newlines = append(s.newlines, i)
			}
		}
	}
	return s.newlines
}

// detectRule is gitleaks' Detector.detectRule for a fragment without path
// or commit. inherited marks the scan of a composite rule's required rule.
func (s *scan) detectRule(p *pass, r *crule, inherited bool) []finding {
	current, segments := p.text, p.segments
	if r.src.SkipReport && !inherited {
		return nil
	}
	if r.src.Regex == "" {
		return nil
	}
	if r.src.Path != "" && (r.compile() != nil || r.pathBlocks) {
		return nil
	}
	var keep func(span) bool
	if len(segments) > 0 {
		keep = p.touchesSegment
	}
	// Built-in rules always compile (tested); a user's rule that does not
	// was rejected by NewScanner, so an error here finds nothing.
	matches := findAll(r, current, p.asciiLower, keep, func(lits []string) []int { return s.anchors(p, lits) })
	if len(matches) == 0 {
		return nil
	}
	var findings []finding
	for _, m := range matches {
		rawMatch := current[m[0]:m[1]]
		secret := strings.Trim(rawMatch, "\n")
		lead := len(rawMatch) - len(strings.TrimLeft(rawMatch, "\n"))
		var metaTags []string
		currentLine := ""
		matchIndex := []int{m[0], m[1]}
		decoded := len(segments) > 0
		if decoded {
			overlapping := keywords.SegmentsOverlapping(segments, m[0], m[1])
			if len(overlapping) == 0 {
				continue // already reported in an earlier pass
			}
			sp := keywords.ToOriginal(overlapping, keywords.Span{Start: m[0], End: m[1]})
			matchIndex = []int{sp.Start, sp.End}
			metaTags = keywords.Tags(overlapping)
			currentLine = keywords.CurrentLine(overlapping, current)
		} else {
			matchIndex[1] = matchIndex[0] + len(secret)
		}
		loc := location(s.newlineIndices(), s.raw, matchIndex)
		if matchIndex[1] > loc.endLineIndex {
			loc.endLineIndex = matchIndex[1]
		}
		f := finding{
			RuleID:      r.src.ID,
			Description: r.src.Description,
			StartLine:   loc.startLine,
			EndLine:     loc.endLine,
			StartColumn: loc.startColumn,
			EndColumn:   loc.endColumn,
			Line:        s.raw[loc.startLineIndex:loc.endLineIndex],
			Match:       secret,
			Secret:      secret,
			Tags:        append(slices.Clip(r.src.Tags), metaTags...),
			decoded:     decoded,
		}
		if !s.e.ignoreAllow && strings.Contains(f.Line, gitleaksAllowSignature) {
			continue
		}
		if currentLine == "" {
			currentLine = f.Line
		}
		// The secret group, taken by re-matching the trimmed match as
		// gitleaks does.
		secretOff := 0
		if idx := r.re.FindStringSubmatchIndex(f.Secret); len(idx) >= 4 {
			g := -1
			if r.src.SecretGroup > 0 {
				if len(idx)/2 <= r.src.SecretGroup {
					continue
				}
				g = r.src.SecretGroup
			} else {
				for i := 1; i < len(idx)/2; i++ {
					if idx[2*i] >= 0 && idx[2*i+1] > idx[2*i] {
						g = i
						break
					}
				}
			}
			if g > 0 {
				if idx[2*g] >= 0 {
					secretOff = idx[2*g]
					f.Secret = f.Secret[idx[2*g]:idx[2*g+1]]
				} else {
					f.Secret = ""
				}
			}
		}
		entropy := shannonEntropy(f.Secret)
		f.Entropy = float32(entropy)
		if r.src.Entropy != 0.0 && entropy <= r.src.Entropy {
			continue
		}
		if stopped(f, s.e.allowlists) || stopped(f, r.allow) ||
			allowed(f, currentLine, s.e.allowlists) || allowed(f, currentLine, r.allow) {
			continue
		}
		if decoded {
			f.start, f.end = matchIndex[0], matchIndex[1]
		} else {
			f.start = m[0] + lead + secretOff
			f.end = f.start + len(f.Secret)
			if f.Secret == "" {
				f.start, f.end = m[0]+lead, m[0]+lead+len(secret)
			}
		}
		findings = append(findings, f)
	}
	if inherited || len(r.required) == 0 {
		return findings
	}
	return s.processRequired(p, r, findings)
}

// stopped reports whether an OR allowlist of lists allows f by a stopword
// alone: checked before allowed, it spares compiling allowlist regexps for
// the many generic matches a stopword dismisses (the outcome is the same,
// allowed would reach that list too).
func stopped(f finding, lists []*callowlist) bool {
	for _, a := range lists {
		if !a.and && len(a.rawStopwords) > 0 && containsStopwordRaw(f.Secret, a.rawStopwords) {
			return true
		}
	}
	return false
}

// containsStopwordRaw is containsStopword on stopwords not yet lowercased.
func containsStopwordRaw(secret string, words []string) bool {
	if secret == "" {
		return false
	}
	s := strings.ToLower(secret)
	for _, w := range words {
		if strings.Contains(s, strings.ToLower(w)) {
			return true
		}
	}
	return false
}

// allowed is gitleaks' checkFindingAllowed without path and commit (both
// empty: a path or commit check never passes).
func allowed(f finding, currentLine string, lists []*callowlist) bool {
	for _, a := range lists {
		target := f.Secret
		switch a.regexTarget {
		case "match":
			target = f.Match
		case "line":
			target = currentLine
		}
		regexAllowed := false
		if a.compile() == nil && a.re != nil && target != "" {
			regexAllowed = a.re.MatchString(target)
		}
		// compile has set a.stopwords.
		stop := containsStopword(f.Secret, a.stopwords)
		var ok bool
		if a.and {
			ok = !a.hasCommits && !a.hasPaths
			if len(a.regexes) > 0 {
				ok = ok && regexAllowed
			}
			if len(a.stopwords) > 0 {
				ok = ok && stop
			}
		} else {
			ok = regexAllowed || stop
		}
		if ok {
			return true
		}
	}
	return false
}

func containsStopword(secret string, words []string) bool {
	if secret == "" || len(words) == 0 {
		return false
	}
	s := strings.ToLower(secret)
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// processRequired is gitleaks' processRequiredRules: a composite rule's
// finding stands only when every required rule has a finding near it.
func (s *scan) processRequired(p *pass, r *crule, primary []finding) []finding {
	if len(primary) == 0 {
		return primary
	}
	all := map[string][]finding{}
	for _, rr := range r.required {
		all[rr.src.ID] = s.detectRule(p, rr, true)
	}
	var out []finding
	for _, f := range primary {
		got := map[string]bool{}
		for i, req := range r.src.Required {
			for _, g := range all[r.required[i].src.ID] {
				if withinProximity(f, g, req) {
					got[req.ID] = true
				}
			}
		}
		complete := len(got) > 0
		for _, req := range r.src.Required {
			complete = complete && got[req.ID]
		}
		if complete {
			out = append(out, f)
		}
	}
	return out
}

func withinProximity(primary, required finding, req Required) bool {
	if req.WithinLines == nil && req.WithinColumns == nil {
		return true
	}
	if req.WithinLines != nil && abs(primary.StartLine-required.StartLine) > *req.WithinLines {
		return false
	}
	if req.WithinColumns != nil && abs(primary.StartColumn-required.StartColumn) > *req.WithinColumns {
		return false
	}
	return true
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// shannonEntropy is gitleaks' entropy: rune frequencies over the byte length.
func shannonEntropy(data string) (entropy float64) {
	if data == "" {
		return 0
	}
	counts := make(map[rune]int)
	for _, c := range data {
		counts[c]++
	}
	inv := 1.0 / float64(len(data))
	for _, n := range counts {
		freq := float64(n) * inv
		entropy -= freq * math.Log2(freq)
	}
	return entropy
}

// filterGeneric drops a generic rule's finding when a specific rule found a
// secret containing it on the same line (gitleaks' filter).
func filterGeneric(findings []finding) []finding {
	var out []finding
	for _, f := range findings {
		include := true
		if strings.Contains(strings.ToLower(f.RuleID), "generic") {
			for _, g := range findings {
				if f.StartLine == g.StartLine && f.RuleID != g.RuleID &&
					strings.Contains(g.Secret, f.Secret) &&
					!strings.Contains(strings.ToLower(g.RuleID), "generic") {
					include = false
					break
				}
			}
		}
		if include {
			out = append(out, f)
		}
	}
	return out
}

// loc is gitleaks' Location.
type loc struct {
	startLine, endLine, startColumn, endColumn, startLineIndex, endLineIndex int
}

// location is gitleaks' location(): lines and columns of a match from the
// newline offsets of raw.
func location(newlines []int, raw string, matchIndex []int) loc {
	var (
		prev   int
		l      loc
		set    bool
		lineNo int
	)
	start, end := matchIndex[0], matchIndex[1]
	if len(newlines) == 0 {
		newlines = []int{len(raw)}
	}
	for n, nl := range newlines {
		lineNo = n
		if prev <= start && start < nl {
			set = true
			l.startLine, l.endLine = n, n
			l.startColumn = start - prev + 1
			l.startLineIndex = prev
			l.endLineIndex = nl
		}
		if prev < end && end <= nl {
			l.endLine = n
			l.endColumn = end - prev
			l.endLineIndex = nl
		}
		prev = nl
	}
	if !set {
		l.startColumn = start - prev + 1
		l.endColumn = end - prev
		l.startLine = lineNo + 1
		l.endLine = lineNo + 1
		i := 0
		for end+i < len(raw) {
			if raw[end+i] == '\n' || raw[end+i] == '\r' {
				break
			}
			i++
		}
		l.endLineIndex = end + i
	}
	return l
}

package prefilter

import (
	"fmt"
	"regexp/syntax"
	"slices"
	"strings"
	"unicode/utf8"
)

// Rule is a detection rule as the streaming redactor sees it: enough to tell
// whether text received so far could still turn into one of its findings.
// The findings themselves come from the Scanner.
type Rule struct {
	// ID is the rule id (github-pat).
	ID string
	// Pattern is the rule's Go regexp, as gitleaks runs it.
	Pattern string
	// Keywords are the rule's keywords, lower case. Like gitleaks, the
	// redactor considers a rule only when one of them occurs in the text
	// (or could be completed by what follows); a rule without keywords is
	// always considered.
	Keywords []string

	// info is the analysis of Pattern; generated for the built-in rules,
	// computed on first use for others.
	info *ruleInfo
	// kw are the indexes of Keywords in builtinWords (built-in rules only).
	kw []int
	// anchProg is the compiled anchored program, generated for the rules
	// whose keywords are everyday words (see commonWords).
	anchProg *program
	// fullProg is the compiled whole pattern, generated for the rules whose
	// secret may start before any keyword with nothing, or only common
	// words, required before it (leadsKeyword, requirement.common): the
	// end of nearly every chunk is checked against them.
	fullProg *program
}

// Lead is the most bytes a match of r can hold before its secret starts
// (the keyword and operator of `api_key = "…"`); bounded is false when
// there is no limit or the pattern does not compile. A streaming redactor
// keeps at least that much shown text as context.
func (r *Rule) Lead() (n int, bounded bool) {
	in, err := ruleAnalysis(r)
	if err != nil || in.maxPrefix == unbounded {
		return 0, false
	}
	return in.maxPrefix, true
}

// commonWords are keywords that ordinary prose is full of. Rules with one
// of them, or with a keyword of three bytes or less ("s.", "ey"), are
// checked on most chunks, so their anchored program is generated as data
// instead of compiled in every hook process.
var commonWords = []string{"access", "api", "auth", "key", "credential", "creds", "passwd", "password", "secret", "token"}

func common(k string) bool { return len(k) <= 3 || slices.Contains(commonWords, k) }

// common reports whether ordinary text meets r easily: one of its terms
// holds only common words (`d"`, `://`, key). The whole pattern of a rule
// with such a requirement before its secret runs at the end of most
// chunks, so it is generated as data too (jwk-private-key's program alone
// took a tenth of a 2 KB chunk's hook process to compile).
func (r requirement) common() bool {
	return slices.ContainsFunc(r, func(term []string) bool {
		return len(term) > 0 && !slices.ContainsFunc(term, func(k string) bool { return !common(k) })
	})
}

// ruleInfo is what the redactor derives from a rule's pattern once.
type ruleInfo struct {
	// maxPrefix and maxSuffix bound the bytes a match holds before and
	// after its secret (see shape); unbounded is -1.
	maxPrefix, maxSuffix int
	// secretASCII is a bitmap of the ASCII characters the secret can hold;
	// secretWide tells whether it can hold any non-ASCII rune.
	secretASCII [2]uint64
	secretWide  bool
	// minRun is the fewest runes of the secret's characters every match
	// holds in one run (see minRun); 0 for no such bound.
	minRun int
	// anchored, when not "", is the rule's pattern without its optional
	// lead, starting at a keyword: every match of the rule contains a match
	// of anchored that starts where one of the rule's keywords occurs, and
	// the secret lies inside it. The redactor then only tries the rule at
	// keyword occurrences instead of over the whole text.
	anchored string
	// anchorPrefix bounds the bytes between the keyword and the secret of
	// an anchored match.
	anchorPrefix int
	// need is what the lower-cased text holds when the rule matches;
	// needBefore what it holds before a match's secret starts.
	need, needBefore requirement
	// kwStart is set when every secret of the rule starts with one of its
	// keywords and nothing of the match comes before it (ghp_…, AKIA…);
	// kwBoundary when a word boundary must precede it (\b). A text that
	// ends in the beginning of such a keyword then holds from there on,
	// without running the rule.
	kwStart, kwBoundary bool
	// startKeywords, when needBefore was read branch by branch
	// (branchesNeedBefore), are the keywords some branch's secret starts
	// with: a text ending in the beginning of one may hold a secret under
	// way although needBefore does not hold.
	startKeywords []string
}

func (in *ruleInfo) secretByte(c byte) bool { return in.secretASCII[c>>6]&(1<<(c&63)) != 0 }

// secretRune tells whether the rule's secret can hold r.
func (in *ruleInfo) secretRune(r rune) bool {
	if r >= 0 && r < utf8.RuneSelf {
		return in.secretByte(byte(r))
	}
	return in.secretWide
}

// analyze derives a rule's ruleInfo from its pattern. It fails only when
// the pattern does not compile.
func analyze(pattern string, keywords []string) (*ruleInfo, error) {
	s, err := newShape(pattern)
	if err != nil {
		return nil, err
	}
	in := &ruleInfo{maxPrefix: s.maxPrefix, maxSuffix: s.maxSuffix, minRun: s.minRun}
	for c := range utf8.RuneSelf {
		if s.ascii[c] {
			in.secretASCII[c>>6] |= 1 << (c & 63)
		}
	}
	// Non-ASCII: a rune class reaching past ASCII, or any-char.
	for _, inst := range s.insts {
		switch inst.Op {
		case syntax.InstRuneAny, syntax.InstRuneAnyNotNL:
			in.secretWide = true
		case syntax.InstRune1:
			in.secretWide = in.secretWide || inst.Rune[0] >= utf8.RuneSelf
		case syntax.InstRune:
			if width(inst) > 1 {
				in.secretWide = true
			}
		}
	}
	in.need, in.needBefore = requirements(pattern)
	in.kwStart, in.kwBoundary = keywordStart(pattern, keywords)
	if q, starts, ok := branchesNeedBefore(pattern, keywords); ok && !in.kwStart {
		in.needBefore, in.startKeywords = q, starts
	}
	if in.need.trivial() {
		in.need = nil
	}
	if in.needBefore.trivial() {
		in.needBefore = nil
	}
	if a := anchorOf(pattern, keywords); a != "" {
		as, err := newShape(a)
		if err == nil && as.groups && as.maxPrefix != unbounded {
			in.anchored, in.anchorPrefix = a, as.maxPrefix
		}
	}
	if in.anchored == "" && in.kwStart {
		// The match starts at its keyword (after assertions), and so does
		// its secret: the pattern itself is anchored at the keyword.
		in.anchored, in.anchorPrefix = pattern, 0
	}
	return in, nil
}

// branchesNeedBefore is, for a pattern that is an alternation, what a
// text holds once a match's secret has started, branch by branch: before
// the secret as needBefore says, or, in a branch whose secret starts with
// a keyword (keywordStart), that keyword — unless the text ends in the
// keyword's beginning: those keywords are returned for Check to test that
// apart. atlassian-api-token is
// `…(?:atlassian|confluence|jira)…(<secret>)|\b(ATATT3…)`: taken whole,
// nothing is required before its secret, and every streamed chunk ran its
// program over the end of the text (a third of a chunk's check); by
// branches it needs one of its keywords, or a text ending in "atat".
func branchesNeedBefore(pattern string, keywords []string) (q requirement, starts []string, ok bool) {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil || re.Op != syntax.OpAlternate || len(keywords) == 0 {
		return nil, nil, false
	}
	for i, sub := range re.Sub {
		branch := sub.String()
		var b requirement
		if kws, _ := keywordStarts(branch, keywords); kws != nil {
			for _, k := range kws {
				b = append(b, []string{k})
				if !slices.Contains(starts, k) {
					starts = append(starts, k)
				}
			}
		} else {
			_, b = requirements(branch)
		}
		if i == 0 {
			q = b
		} else {
			q = or(q, b)
		}
	}
	if q.trivial() {
		return nil, nil, false
	}
	return q, starts, true
}

// maxAnchorWords bounds how many strings anchorOf enumerates for the
// keyword part of a pattern.
const maxAnchorWords = 512

// anchorOf returns pattern without its optional lead when what follows the
// lead always starts with one of keywords and the capture groups all lie
// after the lead, else "". The lead is every leading element that may match
// empty text (`[\w.-]{0,50}?`); assertions (`\b`) are kept. A pattern
// with no lead that starts with its keywords (service-named-credential's
// names) is anchored as it is: without this, such a rule ran over every
// streamed chunk, keyword or not.
func anchorOf(pattern string, keywords []string) string {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil || re.Op != syntax.OpConcat || len(keywords) == 0 {
		return ""
	}
	subs := re.Sub
	i := 0
	for i < len(subs) && optional(subs[i]) {
		if hasCapture(subs[i]) {
			return ""
		}
		i++
	}
	j := i
	for j < len(subs) && assertion(subs[j]) {
		j++
	}
	if j == len(subs) {
		return ""
	}
	words, ok := language(subs[j], maxAnchorWords)
	if !ok || len(words) == 0 {
		return ""
	}
	for _, w := range words {
		if !startsWithAny(strings.ToLower(w), keywords) {
			return ""
		}
	}
	rest := &syntax.Regexp{Op: syntax.OpConcat, Flags: re.Flags, Sub: subs[i:]}
	return rest.String()
}

// keywordStart reports whether every match of pattern starts, after
// assertions only, with its secret and the secret with one of keywords;
// boundary tells that one of those assertions is \b.
func keywordStart(pattern string, keywords []string) (start, boundary bool) {
	kws, boundary := keywordStarts(pattern, keywords)
	return kws != nil, boundary
}

// keywordStarts is keywordStart that also tells which keywords the secrets
// start with (nil when they do not all start with one).
func keywordStarts(pattern string, keywords []string) (starts []string, boundary bool) {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil || len(keywords) == 0 {
		return nil, false
	}
	groups := hasCapture(re)
	subs := []*syntax.Regexp{re}
	if re.Op == syntax.OpConcat {
		subs = re.Sub
	}
	i := 0
	for i < len(subs) && assertion(subs[i]) {
		boundary = boundary || subs[i].Op == syntax.OpWordBoundary
		i++
	}
	if i == len(subs) {
		return nil, false
	}
	first := subs[i]
	if groups {
		// The secret must be the first thing matched: a capture here.
		if first.Op != syntax.OpCapture {
			return nil, false
		}
		first = first.Sub[0]
	}
	words, ok := leading(first)
	if !ok || len(words) == 0 {
		return nil, false
	}
	for _, w := range words {
		if !startsWithAny(w, keywords) {
			return nil, false
		}
	}
	for _, k := range keywords {
		if k != "" && slices.ContainsFunc(words, func(w string) bool { return strings.HasPrefix(w, k) }) && !slices.Contains(starts, k) {
			starts = append(starts, k)
		}
	}
	return starts, boundary
}

// leading lists, lower-cased, strings that every match of re starts with
// one of: the language of its first element, through groups and
// alternations.
func leading(re *syntax.Regexp) ([]string, bool) {
	switch re.Op {
	case syntax.OpCapture:
		return leading(re.Sub[0])
	case syntax.OpConcat:
		if len(re.Sub) == 0 {
			return nil, false
		}
		out, ok := leading(re.Sub[0])
		if !ok {
			return nil, false
		}
		// Extend with the next elements while their strings are few, so
		// that "(?:sc|ext)" + "_" gives sc_ and ext_.
		for _, s := range re.Sub[1:] {
			next, ok := language(s, maxAnchorWords)
			if !ok {
				// What s starts with still extends them, and nothing after
				// it can: a(?:io_|pify_api_)… gives aio_ and apify_api_.
				if lead, ok := leading(s); ok {
					if longer := cross(out, lead, maxAnchorWords); longer != nil {
						out = longer
					}
				}
				break
			}
			longer := cross(out, next, maxAnchorWords)
			if longer == nil {
				break
			}
			out = longer
		}
		return out, true
	case syntax.OpAlternate:
		var out []string
		for _, s := range re.Sub {
			w, ok := leading(s)
			if !ok {
				return nil, false
			}
			out = append(out, w...)
		}
		return out, len(out) <= maxAnchorWords
	}
	return language(re, maxAnchorWords)
}

func optional(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpStar, syntax.OpQuest, syntax.OpEmptyMatch:
		return true
	case syntax.OpRepeat:
		return re.Min == 0
	}
	return false
}

func assertion(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText, syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return true
	}
	return false
}

func hasCapture(re *syntax.Regexp) bool {
	if re.Op == syntax.OpCapture {
		return true
	}
	for _, s := range re.Sub {
		if hasCapture(s) {
			return true
		}
	}
	return false
}

func startsWithAny(s string, words []string) bool {
	for _, w := range words {
		if w != "" && strings.HasPrefix(s, w) {
			return true
		}
	}
	return false
}

// language lists, lower-cased and without duplicates, every string re
// matches when there are at most limit of them, else !ok. Lower-casing
// early keeps case-folded words from multiplying: keywords are matched
// against lower-cased text anyway.
func language(re *syntax.Regexp, limit int) (out []string, ok bool) {
	switch re.Op {
	case syntax.OpEmptyMatch:
		return []string{""}, true
	case syntax.OpLiteral:
		out = []string{""}
		for _, r := range re.Rune {
			out = cross(out, []string{strings.ToLower(string(r))}, limit)
			if out == nil {
				return nil, false
			}
		}
		return out, true
	case syntax.OpCharClass:
		seen := map[string]bool{}
		for i := 0; i+1 < len(re.Rune); i += 2 {
			for r := re.Rune[i]; r <= re.Rune[i+1]; r++ {
				l := strings.ToLower(string(r))
				if !seen[l] {
					seen[l] = true
					out = append(out, l)
				}
				if len(out) > limit {
					return nil, false
				}
			}
		}
		return out, true
	case syntax.OpCapture:
		return language(re.Sub[0], limit)
	case syntax.OpQuest:
		sub, ok := language(re.Sub[0], limit)
		if !ok {
			return nil, false
		}
		return append([]string{""}, sub...), len(sub)+1 <= limit
	case syntax.OpConcat:
		out = []string{""}
		for _, s := range re.Sub {
			sub, ok := language(s, limit)
			if !ok {
				return nil, false
			}
			if out = cross(out, sub, limit); out == nil {
				return nil, false
			}
		}
		return out, true
	case syntax.OpAlternate:
		for _, s := range re.Sub {
			sub, ok := language(s, limit)
			if !ok {
				return nil, false
			}
			out = append(out, sub...)
			if len(out) > limit {
				return nil, false
			}
		}
		return out, true
	}
	return nil, false
}

func cross(a, b []string, limit int) []string {
	if len(a)*len(b) > limit {
		return nil
	}
	out := make([]string, 0, len(a)*len(b))
	for _, x := range a {
		for _, y := range b {
			out = append(out, x+y)
		}
	}
	return out
}

// RulesSource renders the Go source of the built-in rule table for rules
// (the generated rules_gen.go), with each rule's analysis and keyword
// indexes precomputed so a hook process never analyses a pattern. Keywords
// must be lower case. It fails on a pattern that does not compile.
func RulesSource(rules []Rule) ([]byte, error) {
	var words []string
	for _, r := range rules {
		words = append(words, r.Keywords...)
	}
	slices.Sort(words)
	words = slices.Compact(words)
	words = slices.DeleteFunc(words, func(w string) bool { return w == "" })
	// One entry per line (a keyword, a field of a rule, an instruction of
	// a program), so that a change to one rule reads as a small diff.
	var b strings.Builder
	b.WriteString("// Code generated by internal/secrets/prefilter/internal/gen; DO NOT EDIT.\n\n")
	b.WriteString("package prefilter\n\n")
	b.WriteString("// builtinWords are the keywords of the built-in rules, sorted.\n")
	b.WriteString("var builtinWords = []string{\n")
	maxKW := 0
	for _, w := range words {
		fmt.Fprintf(&b, "\t%q,\n", w)
		maxKW = max(maxKW, len(w))
	}
	b.WriteString("}\n\n")
	b.WriteString("// builtinMaxKW is the length of the longest built-in keyword.\n")
	fmt.Fprintf(&b, "const builtinMaxKW = %d\n\n", maxKW)
	infos := make([]*ruleInfo, len(rules))
	var reqs []requirement
	for i, r := range rules {
		in, err := analyze(r.Pattern, r.Keywords)
		if err != nil {
			return nil, fmt.Errorf("prefilter: rule %s: %w", r.ID, err)
		}
		infos[i] = in
		reqs = append(reqs, in.need, in.needBefore)
	}
	b.WriteString("// builtinLiterals are the literals the built-in rules' requirements name, sorted.\n")
	b.WriteString("var builtinLiterals = []string{\n")
	for _, l := range requiredLiterals(reqs...) {
		fmt.Fprintf(&b, "\t%q,\n", l)
	}
	b.WriteString("}\n\n")
	b.WriteString("// builtinRules are the content rules of the built-in rule set (gitleaks' default\n")
	b.WriteString("// config extended by internal/secrets/detector/rules.toml), with their analysis.\n")
	b.WriteString("var builtinRules = []Rule{\n")
	for i, r := range rules {
		in := infos[i]
		var kw []int
		for _, k := range r.Keywords {
			if i, ok := slices.BinarySearch(words, k); ok && !slices.Contains(kw, i) {
				kw = append(kw, i)
			}
		}
		prog := "nil"
		if in.anchored != "" && slices.ContainsFunc(r.Keywords, common) {
			p, err := compileProgram(in.anchored)
			if err != nil {
				return nil, fmt.Errorf("prefilter: rule %s: %w", r.ID, err)
			}
			prog = programSource(p)
		}
		full := "nil"
		if !in.kwStart && in.anchored == "" && (in.needBefore == nil || in.needBefore.common()) {
			p, err := compileProgram(r.Pattern)
			if err != nil {
				return nil, fmt.Errorf("prefilter: rule %s: %w", r.ID, err)
			}
			full = programSource(p)
		}
		b.WriteString("\t{\n")
		fmt.Fprintf(&b, "\t\tID: %q,\n", r.ID)
		fmt.Fprintf(&b, "\t\tPattern: %s,\n", quote(r.Pattern))
		fmt.Fprintf(&b, "\t\tKeywords: %#v,\n", r.Keywords)
		fmt.Fprintf(&b, "\t\tkw: %#v,\n", kw)
		fmt.Fprintf(&b, "\t\tanchProg: %s,\n", prog)
		fmt.Fprintf(&b, "\t\tfullProg: %s,\n", full)
		b.WriteString("\t\tinfo: &ruleInfo{\n")
		fmt.Fprintf(&b, "\t\t\tmaxPrefix: %d,\n", in.maxPrefix)
		fmt.Fprintf(&b, "\t\t\tmaxSuffix: %d,\n", in.maxSuffix)
		fmt.Fprintf(&b, "\t\t\tsecretASCII: [2]uint64{%#x, %#x},\n", in.secretASCII[0], in.secretASCII[1])
		fmt.Fprintf(&b, "\t\t\tsecretWide: %t,\n", in.secretWide)
		fmt.Fprintf(&b, "\t\t\tminRun: %d,\n", in.minRun)
		fmt.Fprintf(&b, "\t\t\tanchored: %s,\n", quote(in.anchored))
		fmt.Fprintf(&b, "\t\t\tanchorPrefix: %d,\n", in.anchorPrefix)
		fmt.Fprintf(&b, "\t\t\tneed: %s,\n", reqSource(in.need))
		fmt.Fprintf(&b, "\t\t\tneedBefore: %s,\n", reqSource(in.needBefore))
		fmt.Fprintf(&b, "\t\t\tkwStart: %t,\n", in.kwStart)
		fmt.Fprintf(&b, "\t\t\tkwBoundary: %t,\n", in.kwBoundary)
		if in.startKeywords != nil {
			fmt.Fprintf(&b, "\t\t\tstartKeywords: %#v,\n", in.startKeywords)
		}
		b.WriteString("\t\t},\n")
		b.WriteString("\t},\n")
	}
	b.WriteString("}\n")
	return []byte(b.String()), nil
}

// programSource is p as a Go literal, one instruction per line.
func programSource(p *program) string {
	var b strings.Builder
	fmt.Fprintf(&b, "&program{start: %d, groups: %t,\n", p.start, p.groups)
	b.WriteString("runes: []rune{")
	for i, r := range p.runes {
		if i%16 == 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "%d, ", r)
	}
	b.WriteString("\n},\ninst: []inst{\n")
	for _, in := range p.inst {
		fmt.Fprintf(&b, "{op: %d, out: %d, arg: %d, lo: %d, hi: %d},\n", in.op, in.out, in.arg, in.lo, in.hi)
	}
	b.WriteString("}}")
	return b.String()
}

func reqSource(q requirement) string {
	if q == nil {
		return "nil"
	}
	var b strings.Builder
	b.WriteString("requirement{")
	for _, t := range q {
		fmt.Fprintf(&b, "%#v, ", t)
	}
	b.WriteString("}")
	return strings.ReplaceAll(b.String(), "[]string", "")
}

// quote writes s as a raw string literal when it can, for readable patterns.
func quote(s string) string {
	if !strings.Contains(s, "`") && utf8.ValidString(s) && !strings.ContainsAny(s, "\r") {
		return "`" + s + "`"
	}
	return fmt.Sprintf("%q", s)
}

// SecretGroupOnly returns pattern with every capture group but group made
// non-capturing, so that the analysis (which takes any group for the
// secret) sees the group gitleaks reports: sonar-api-token's
// `sonar[_.-]?(login|token)…(<40 chars>)` has secretGroup 2, and taking
// `login` for its secret put the secret before the token, so a stream whose
// keyword was already shown never scanned the token (issue #26). A match
// is a match either way. Group 0 (gitleaks' "first non-empty group") or a
// pattern without other groups is returned as it is; so is a pattern that
// does not parse (the scanner reports it).
func SecretGroupOnly(pattern string, group int) string {
	if group <= 0 {
		return pattern
	}
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil || re.MaxCap() <= 1 && group == 1 {
		return pattern
	}
	changed := false
	var strip func(re *syntax.Regexp) *syntax.Regexp
	strip = func(re *syntax.Regexp) *syntax.Regexp {
		for i, s := range re.Sub {
			re.Sub[i] = strip(s)
		}
		if re.Op == syntax.OpCapture && re.Cap != group {
			changed = true
			return re.Sub[0]
		}
		return re
	}
	re = strip(re)
	if !changed {
		return pattern
	}
	return re.String()
}

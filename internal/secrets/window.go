package secrets

// Keyword windows: running a "semi-generic" rule only near its keywords.
//
// Most gitleaks rules built from its generic template look like
//
//	(?i)[\w.-]{0,50}?(?:access|auth|key|...)(?:[ \t\w.-]{0,20})...(SECRET)(?:[\x60'"\s;]|\\[nr]|$)
//
// They have no literal prefix, so Go's regexp runs its NFA over the whole
// text: generic-api-key alone costs ~0.3 ms per KB of code, and its keywords
// occur in nearly every source file. Yet every match contains one of the
// keyword literals, at most P bytes after the match start (P = the prefix
// repeat's width), and ends at most at a bound B(q) computed from the rest
// of the pattern and the text after the keyword occurrence q. So all matches
// lie in the windows [q-P, B(q)+1) around keyword occurrences, and FindAll
// over the whole text equals FindAll over the merged windows:
//
//   - a match can only start at q-P..q for some occurrence q, so nothing is
//     missed between windows, and matches never span two merged windows;
//   - every real match in a window ends before the window's end, so it is
//     also a match of the window's text, with the same assertions (none is
//     evaluated at the window's last byte); and the window's leftmost-first
//     match, if it ends before the window's end, uses only the window's
//     text, so it is a real match and no real match is preferred to it;
//   - a window match that reaches the window's end (it may have used `$` at
//     a cut) makes the rule fall back to the whole text.
//
// B(q) walks the pattern after the keyword: bounded parts add their maximum
// width in bytes; an unbounded repeat of a character class extends to the
// first byte after the current bound that the class cannot contain (a run of
// class characters cannot cross it). Patterns this analysis cannot bound are
// run on the whole text. Keyword occurrences are found by substring search
// in the ASCII-lowercased text; case folding also maps U+017F (ſ) to s and
// U+212A (K) to k, so a text containing either is run whole.

import (
	"regexp/syntax"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gemini-guard/gemini-guard/internal/secrets/keywords"
)

// shape is the windowing analysis of one rule's regexp; nil when the rule
// must run on the whole text. All widths assume a text without U+017F and
// U+212A (texts holding either are searched whole, see windows), so every
// character a case-folded ASCII class or literal matches is one byte.
type shape struct {
	// prefix is the class of the leading bounded repeat (nil if none);
	// prefixMax its maximum width in bytes.
	prefix    *byteSet
	prefixMax int
	// ctx is how many bytes before a window its search needs: zero-width
	// assertions at the match start (\b, ^) look at the previous rune.
	ctx int
	// literals are the strings that the anchor (the first consuming part
	// after the prefix) starts with, lowercased: every match contains one
	// of them where its anchor begins. matcher finds them.
	literals []string
	matcher  *keywords.Matcher
	// rest is the anchor and everything after it, reduced for bounding.
	rest []bnode
}

// bnode is a regexp node reduced to what the window analysis needs: a
// conservative byte-level matcher (every real match path is also a path
// here) that tells where a match starting at a position can end.
type bnode struct {
	op syntax.Op
	// lit is a literal's bytes, lowercased when fold is set (ASCII only).
	lit  string
	fold bool
	// set is a character class (OpCharClass, or the class of a class
	// repeat, OpRepeat with no subs).
	set      *byteSet
	min, max int // repeats; max -1 is unbounded
	subs     []bnode
}

// byteSet says which bytes can be (part of) a character of a class. A
// class with characters beyond ASCII (other than the two fold extras)
// includes every byte >= 0x80, as does one that matches U+FFFD (invalid
// UTF-8 bytes match as U+FFFD).
type byteSet [256]bool

// maxLiterals bounds the anchor literals a windowed rule may have.
const maxLiterals = 64

// analyze returns the windowing shape of pattern, or nil. The pattern,
// read as a sequence (top-level groups spliced in), must be: an optional
// bounded repeat of one character class, optional zero-width assertions,
// an anchor whose matches start with one of a few ASCII literals, and a
// rest in which every unbounded repeat is of one character class.
func analyze(pattern string) *shape {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return nil
	}
	seq := flatten(re)
	sh := &shape{}
	i := 0
	if i < len(seq) && seq[i].Op == syntax.OpRepeat && seq[i].Max >= 0 && seq[i].Sub[0].Op == syntax.OpCharClass {
		sh.prefix = classSet(seq[i].Sub[0])
		sh.prefixMax = seq[i].Max * classWidth(seq[i].Sub[0])
		i++
	}
	for i < len(seq) && zeroWidth(seq[i].Op) {
		sh.ctx = utf8.UTFMax
		i++
	}
	if i >= len(seq) {
		return nil
	}
	lits, ok := leading(seq[i])
	if !ok || len(lits) == 0 {
		return nil
	}
	for _, l := range lits {
		if l == "" {
			return nil
		}
	}
	sh.literals = lits
	sh.matcher = keywords.NewMatcher(lits)
	for _, r := range seq[i:] {
		n, ok := reduce(r)
		if !ok {
			return nil
		}
		sh.rest = append(sh.rest, n)
	}
	return sh
}

// flatten reads re as a sequence: top-level concatenations and capture
// groups are spliced in (a group does not change where a match can be).
func flatten(re *syntax.Regexp) []*syntax.Regexp {
	switch re.Op {
	case syntax.OpConcat:
		var out []*syntax.Regexp
		for _, s := range re.Sub {
			out = append(out, flatten(s)...)
		}
		return out
	case syntax.OpCapture:
		return flatten(re.Sub[0])
	}
	return []*syntax.Regexp{re}
}

func zeroWidth(op syntax.Op) bool {
	switch op {
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText,
		syntax.OpEndText, syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return true
	}
	return false
}

// leading returns literals, lowercased, one of which starts every match of
// re (the longest enumerable start), or false.
func leading(re *syntax.Regexp) ([]string, bool) {
	switch re.Op {
	case syntax.OpCapture:
		return leading(re.Sub[0])
	case syntax.OpAlternate:
		var out []string
		for _, s := range re.Sub {
			l, ok := leading(s)
			if !ok || len(out)+len(l) > maxLiterals {
				return nil, false
			}
			out = append(out, l...)
		}
		slices.Sort(out)
		return slices.Compact(out), true
	case syntax.OpConcat:
		// The literals of the longest run of enumerable parts at the start.
		out := []string{""}
		for _, s := range re.Sub {
			if zeroWidth(s.Op) && len(out) == 1 && out[0] == "" {
				return nil, false // an assertion before the anchor: not handled here
			}
			l, ok := literals(s)
			if !ok || len(out)*len(l) > maxLiterals {
				break
			}
			var next []string
			for _, a := range out {
				for _, b := range l {
					next = append(next, a+b)
				}
			}
			out = next
		}
		if len(out) == 1 && out[0] == "" {
			// The first part is not enumerable: its own start.
			return leading(re.Sub[0])
		}
		slices.Sort(out)
		return slices.Compact(out), true
	case syntax.OpRepeat, syntax.OpPlus:
		if re.Op == syntax.OpRepeat && re.Min < 1 {
			return nil, false
		}
		return leading(re.Sub[0])
	}
	return literals(re)
}

// literals enumerates the strings re matches, lowercased (a superset of
// the case-sensitive ones), if they are few and ASCII.
func literals(re *syntax.Regexp) ([]string, bool) {
	switch re.Op {
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			if r >= utf8.RuneSelf {
				return nil, false
			}
		}
		return []string{strings.ToLower(string(re.Rune))}, true
	case syntax.OpCharClass:
		var out []string
		for i := 0; i+1 < len(re.Rune); i += 2 {
			for r := re.Rune[i]; r <= re.Rune[i+1]; r++ {
				if isFoldExtra(r) {
					continue
				}
				if r >= utf8.RuneSelf || len(out) >= 8 {
					return nil, false
				}
				out = append(out, strings.ToLower(string(r)))
			}
		}
		slices.Sort(out)
		return slices.Compact(out), true
	case syntax.OpCapture:
		return literals(re.Sub[0])
	case syntax.OpAlternate:
		var out []string
		for _, s := range re.Sub {
			l, ok := literals(s)
			if !ok || len(out)+len(l) > maxLiterals {
				return nil, false
			}
			out = append(out, l...)
		}
		slices.Sort(out)
		return slices.Compact(out), true
	case syntax.OpConcat:
		out := []string{""}
		for _, s := range re.Sub {
			l, ok := literals(s)
			if !ok || len(out)*len(l) > maxLiterals {
				return nil, false
			}
			var next []string
			for _, a := range out {
				for _, b := range l {
					next = append(next, a+b)
				}
			}
			out = next
		}
		slices.Sort(out)
		return slices.Compact(out), true
	case syntax.OpQuest:
		l, ok := literals(re.Sub[0])
		if !ok {
			return nil, false
		}
		return append([]string{""}, l...), true
	case syntax.OpEmptyMatch:
		return []string{""}, true
	}
	return nil, false
}

// isFoldExtra reports the two non-ASCII characters case folding adds to
// ASCII letters: U+017F (long s) and U+212A (Kelvin sign).
func isFoldExtra(r rune) bool { return r == 0x17f || r == 0x212a }

// classSet is the byte set of a class (fold extras left out).
func classSet(class *syntax.Regexp) *byteSet {
	var set byteSet
	for i := 0; i+1 < len(class.Rune); i += 2 {
		lo, hi := class.Rune[i], class.Rune[i+1]
		for r := lo; r <= hi && r < utf8.RuneSelf; r++ {
			set[r] = true
		}
		if hi >= utf8.RuneSelf && !(lo == hi && isFoldExtra(lo)) {
			for b := utf8.RuneSelf; b < 256; b++ {
				set[b] = true
			}
		}
	}
	return &set
}

// classWidth is the most bytes one character of class takes (fold extras
// left out; invalid UTF-8 bytes match as one-byte U+FFFD).
func classWidth(class *syntax.Regexp) int {
	n := 1
	for i := 0; i+1 < len(class.Rune); i += 2 {
		lo, hi := class.Rune[i], class.Rune[i+1]
		if lo == hi && isFoldExtra(lo) {
			continue
		}
		n = max(n, utf8.RuneLen(min(hi, unicode.MaxRune)))
	}
	return n
}

// reduce turns a regexp node into a bnode, or false for what the analysis
// does not handle: non-ASCII literals, and unbounded repeats of anything
// but one character class.
func reduce(re *syntax.Regexp) (bnode, bool) {
	switch re.Op {
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		// Conservative: these assertions are taken to hold everywhere.
		return bnode{op: syntax.OpEmptyMatch}, true
	case syntax.OpBeginText, syntax.OpEndText:
		return bnode{op: re.Op}, true
	case syntax.OpLiteral:
		var b []byte
		fold := re.Flags&syntax.FoldCase != 0
		for _, r := range re.Rune {
			if r >= utf8.RuneSelf {
				return bnode{}, false
			}
			c := byte(r)
			if fold && 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			b = append(b, c)
		}
		return bnode{op: syntax.OpLiteral, lit: string(b), fold: fold}, true
	case syntax.OpCharClass:
		return bnode{op: syntax.OpCharClass, set: classSet(re)}, true
	case syntax.OpAnyCharNotNL, syntax.OpAnyChar:
		var set byteSet
		for i := range set {
			set[i] = re.Op == syntax.OpAnyChar || i != '\n'
		}
		return bnode{op: syntax.OpCharClass, set: &set}, true
	case syntax.OpCapture:
		return reduce(re.Sub[0])
	case syntax.OpConcat, syntax.OpAlternate:
		n := bnode{op: re.Op}
		for _, s := range re.Sub {
			c, ok := reduce(s)
			if !ok {
				return bnode{}, false
			}
			n.subs = append(n.subs, c)
		}
		return n, true
	case syntax.OpQuest, syntax.OpRepeat, syntax.OpStar, syntax.OpPlus:
		minN, maxN := re.Min, re.Max
		switch re.Op {
		case syntax.OpQuest:
			minN, maxN = 0, 1
		case syntax.OpStar:
			minN, maxN = 0, -1
		case syntax.OpPlus:
			minN, maxN = 1, -1
		}
		sub := re.Sub[0]
		if sub.Op == syntax.OpCharClass {
			return bnode{op: syntax.OpRepeat, set: classSet(sub), min: minN, max: maxN}, true
		}
		if maxN < 0 || maxN > 64 {
			return bnode{}, false
		}
		c, ok := reduce(sub)
		if !ok {
			return bnode{}, false
		}
		return bnode{op: syntax.OpRepeat, min: minN, max: maxN, subs: []bnode{c}}, true
	}
	return bnode{}, false
}

// ends returns the positions where a match of n can end when it starts at
// one of the positions in from (sorted, distinct); the result is sorted
// and distinct. It over-approximates the regexp: every real match path is
// included (assertions other than ^ and $ are assumed to hold, a class
// character beyond ASCII is taken as one whole UTF-8 sequence).
func (n *bnode) ends(text string, from []int) []int {
	if len(from) == 0 {
		return nil
	}
	switch n.op {
	case syntax.OpEmptyMatch:
		return from
	case syntax.OpBeginText:
		if from[0] == 0 {
			return from[:1]
		}
		return nil
	case syntax.OpEndText:
		if from[len(from)-1] == len(text) {
			return from[len(from)-1:]
		}
		return nil
	case syntax.OpLiteral:
		var out []int
		for _, p := range from {
			if p+len(n.lit) <= len(text) && n.matchLit(text[p:p+len(n.lit)]) {
				out = append(out, p+len(n.lit))
			}
		}
		return out
	case syntax.OpCharClass:
		var out []int
		for _, p := range from {
			if w := n.set.char(text, p); w > 0 {
				out = append(out, p+w)
			}
		}
		return sortedSet(out)
	case syntax.OpConcat:
		for i := range n.subs {
			from = n.subs[i].ends(text, from)
			if len(from) == 0 {
				return nil
			}
		}
		return from
	case syntax.OpAlternate:
		var out []int
		for i := range n.subs {
			out = append(out, n.subs[i].ends(text, from)...)
		}
		return sortedSet(out)
	case syntax.OpRepeat:
		if n.subs == nil {
			return n.classRun(text, from)
		}
		var out []int
		if n.min == 0 {
			out = append(out, from...)
		}
		cur := from
		for i := 1; i <= n.max && len(cur) > 0; i++ {
			cur = n.subs[0].ends(text, cur)
			if i >= n.min {
				out = append(out, cur...)
			}
		}
		return sortedSet(out)
	}
	return nil
}

// classRun is a repeat of one class: from each start, every position after
// min..max class characters.
func (n *bnode) classRun(text string, from []int) []int {
	var out []int
	for _, p := range from {
		k := 0
		q := p
		for {
			if k >= n.min {
				out = append(out, q)
			}
			if n.max >= 0 && k == n.max {
				break
			}
			w := n.set.char(text, q)
			if w == 0 {
				break
			}
			q += w
			k++
		}
	}
	return sortedSet(out)
}

func (n *bnode) matchLit(s string) bool {
	if !n.fold {
		return s == n.lit
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != n.lit[i] {
			return false
		}
	}
	return true
}

// char returns the width of the character at p if the set holds it, else 0.
func (set *byteSet) char(text string, p int) int {
	if p >= len(text) || !set[text[p]] {
		return 0
	}
	if text[p] < utf8.RuneSelf {
		return 1
	}
	_, w := utf8.DecodeRuneInString(text[p:])
	return w
}

func sortedSet(ps []int) []int {
	slices.Sort(ps)
	return slices.Compact(ps)
}

// runStart is the first position of the run of set bytes that ends at to.
func runStart(text string, to int, set *byteSet) int {
	i := to
	for i > 0 && set[text[i-1]] {
		i--
	}
	return i
}

// end returns one byte past the furthest a match whose anchor starts at q
// can reach, or 0 when no match can have its anchor there.
func (sh *shape) end(text string, q int) int {
	ps := []int{q}
	for i := range sh.rest {
		if ps = sh.rest[i].ends(text, ps); len(ps) == 0 {
			return 0
		}
	}
	return ps[len(ps)-1] + 1
}

// span is a byte range.
type span struct{ start, end int }

// windows returns the merged windows of text (whose ASCII-lowercased form
// is lower) in which all matches of the rule lie, or false when the whole
// text must be searched.
func (sh *shape) windows(text string, lower func() string, occ []int) ([]span, bool) {
	if strings.Contains(text, "\u017f") || strings.Contains(text, "\u212a") {
		return nil, false
	}
	if occ == nil {
		sh.matcher.Each(lower(), func(_, pos int) {
			if n := len(occ); n == 0 || occ[n-1] != pos {
				occ = append(occ, pos)
			}
		})
	}
	if len(occ) == 0 {
		return nil, true
	}
	var out []span
	for _, q := range occ {
		start := q
		if sh.prefix != nil {
			start = max(0, q-sh.prefixMax, runStart(text, q, sh.prefix))
		}
		e := sh.end(text, q)
		if e == 0 {
			continue // no match can have its anchor here
		}
		w := span{start, min(len(text), e)}
		if n := len(out); n > 0 && w.start <= out[n-1].end {
			out[n-1].end = max(out[n-1].end, w.end)
			continue
		}
		out = append(out, w)
	}
	return out, true
}

// asciiLower lowercases ASCII letters only, keeping byte offsets.
func asciiLower(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; 'A' <= c && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if c := b[j]; 'A' <= c && c <= 'Z' {
					b[j] = c + 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

// findAll is the rule's regexp FindAllStringIndex(text, -1), computed
// over the rule's windows when it has a shape: the regexp is compiled only
// when some window may hold a match. lower gives the text's ASCII-lowercased
// form. keep, when not nil, says which windows can matter (decoded passes
// only report matches that touch a decoded segment); the others are
// skipped. A rule whose regexp does not compile finds nothing.
//
// anchors, when not nil, may return the sorted positions of the rule's
// anchor literals from a scan already made (nil if it cannot).
func findAll(r *crule, text string, lower func() string, keep func(span) bool, anchors func([]string) []int) [][]int {
	whole := func() [][]int {
		if r.compile() != nil {
			return nil
		}
		return r.re.FindAllStringIndex(text, -1)
	}
	sh := r.analyzed()
	if sh == nil {
		return whole()
	}
	var occ []int
	if anchors != nil {
		occ = anchors(sh.literals)
	}
	ws, ok := sh.windows(text, lower, occ)
	if !ok {
		return whole()
	}
	var out [][]int
	pos := 0
	for _, w := range ws {
		start := max(w.start, pos)
		if start >= w.end || keep != nil && !keep(w) {
			continue
		}
		if r.compile() != nil {
			return nil
		}
		// Assertions at the window's first byte look at the bytes before
		// it: search from ctx bytes earlier, and reject a match that starts
		// there (no real match can: it is before the first candidate).
		from := max(0, start-sh.ctx)
		for _, m := range r.re.FindAllStringIndex(text[from:w.end], -1) {
			ms, me := from+m[0], from+m[1]
			if me == w.end && w.end < len(text) || ms < start {
				// The match reaches the cut (it may have used `$` there) or
				// starts in the context bytes: search the whole text.
				return whole()
			}
			out = append(out, []int{ms, me})
			pos = me
		}
	}
	return out
}

package prefilter

import (
	"regexp/syntax"
	"slices"
	"strings"
	"unicode/utf8"
)

// A requirement is a condition on the lower-cased text that every match of
// a pattern meets: any one of its terms has all of its literals in the text.
// A requirement with an empty term (or none computed) always holds. It lets
// the redactor skip a rule whose match is impossible without compiling it:
// a rule for Kubernetes secrets needs "kind:" and "data:", not only its
// keyword "secret", which plenty of prose has.
type requirement [][]string

// maxTerms bounds the terms of a requirement; beyond it the analysis gives
// up (the requirement always holds), which is always safe.
const maxTerms = 16

// minLiteral is the shortest literal worth requiring: single characters
// occur everywhere.
const minLiteral = 2

var always = requirement{{}}

// holds reports whether a text meets the requirement; has tells whether
// the lower-cased text contains a literal.
func (q requirement) holds(has func(lit string) bool) bool {
	if len(q) == 0 {
		return true
	}
outer:
	for _, term := range q {
		for _, lit := range term {
			if !has(lit) {
				continue outer
			}
		}
		return true
	}
	return false
}

// literals tells which literals a lower-cased text contains. For the
// built-in rules one pass of an index over every literal their requirements
// name answers them all: a streamed chunk asks about some 300 rules, and
// a search of the text per question cost a quarter of its check.
type literals struct {
	lower string
	w     *Watch
	found marks // which of w.lits occur, made on first use
}

func (l *literals) has(lit string) bool {
	if j, ok := slices.BinarySearch(l.w.lits, lit); ok {
		if l.found == nil {
			if l.w.litIndex == nil {
				l.w.litIndex = newWordIndex(l.w.lits)
			}
			l.found = make(marks, len(l.w.lits))
			l.w.litIndex.find(l.lower, l.found)
		}
		return l.found[j]
	}
	return strings.Contains(l.lower, lit)
}

// requiredLiterals are the literals of rules' requirements, sorted, without
// duplicates.
func requiredLiterals(qs ...requirement) []string {
	var out []string
	for _, q := range qs {
		for _, term := range q {
			out = append(out, term...)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func (q requirement) trivial() bool {
	for _, t := range q {
		if len(t) == 0 {
			return true
		}
	}
	return len(q) == 0
}

func and(a, b requirement) requirement {
	if a.trivial() {
		return b
	}
	if b.trivial() {
		return a
	}
	if len(a)*len(b) > maxTerms {
		// Keep the smaller side: still a necessary condition.
		if len(a) <= len(b) {
			return a
		}
		return b
	}
	var out requirement
	for _, x := range a {
		for _, y := range b {
			t := append(slices.Clone(x), y...)
			slices.Sort(t)
			out = append(out, slices.Compact(t))
		}
	}
	return out
}

func or(a, b requirement) requirement {
	if a.trivial() || b.trivial() || len(a)+len(b) > maxTerms {
		return always
	}
	return append(slices.Clone(a), b...)
}

// requirements returns what every match of pattern needs (match) and what
// it needs before its secret starts (beforeSecret): literals that must
// come first. Patterns that do not parse give requirements that always
// hold.
func requirements(pattern string) (match, beforeSecret requirement) {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return always, always
	}
	re = re.Simplify()
	match = need(re)
	if !hasCapture(re) {
		return match, always // the whole match is the secret
	}
	return match, needBefore(re)
}

// need is what every match of re contains.
func need(re *syntax.Regexp) requirement {
	switch re.Op {
	case syntax.OpLiteral:
		lit := strings.ToLower(string(re.Rune))
		if utf8.RuneCountInString(lit) < minLiteral || !ascii(re.Rune) {
			return always
		}
		return requirement{{lit}}
	case syntax.OpCapture:
		return need(re.Sub[0])
	case syntax.OpPlus:
		return need(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return need(re.Sub[0])
		}
		return always
	case syntax.OpConcat:
		q := always
		for _, s := range re.Sub {
			q = and(q, need(s))
		}
		return q
	case syntax.OpAlternate:
		q := need(re.Sub[0])
		for _, s := range re.Sub[1:] {
			q = or(q, need(s))
		}
		return q
	}
	return always
}

// needBefore is what a match of re contains before its secret (its first
// capture group) starts. A part that matches without reaching a group
// counts whole: the secret comes after it.
func needBefore(re *syntax.Regexp) requirement {
	if !hasCapture(re) {
		return need(re)
	}
	switch re.Op {
	case syntax.OpCapture:
		return always
	case syntax.OpPlus:
		return needBefore(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return needBefore(re.Sub[0])
		}
		return always
	case syntax.OpConcat:
		q := always
		for _, s := range re.Sub {
			if hasCapture(s) {
				return and(q, needBefore(s))
			}
			q = and(q, need(s))
		}
		return q
	case syntax.OpAlternate:
		q := needBefore(re.Sub[0])
		for _, s := range re.Sub[1:] {
			q = or(q, needBefore(s))
		}
		return q
	}
	return always
}

// ascii reports whether rs are all ASCII. Case folding of ASCII letters
// matches only ASCII letters, except k and s (the Kelvin sign and the long
// s): the caller does not rely on requirements when the text holds those.
func ascii(rs []rune) bool {
	for _, r := range rs {
		if r >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

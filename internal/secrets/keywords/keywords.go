// Package keywords is the streaming redactor's prefilter, without gitleaks.
//
// Every gitleaks rule gemini-guard runs lists keywords, and gitleaks only
// runs a rule when one of its keywords occurs in the lowercased text of some
// decoding pass (the text itself, then with its base64, hex, percent and
// unicode escapes decoded, up to MaxDecodeDepth passes). So when no keyword
// occurs in any pass, no rule can find anything: MayContainSecret says so
// without compiling a single rule regexp.
//
// The package links only the standard library, so a binary that runs on
// every streamed chunk does not pay gitleaks' start-up cost. It decides
// only what to hold back and when to ask the scanner process; findings are
// gitleaks' own. The word list is generated from the same rule set the
// scanner uses (words_gen.go, by internal/redact/internal/gen).
package keywords

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Matcher finds which of a fixed set of lowercase words occur in a text.
// The zero value matches nothing; build one with NewMatcher. A Matcher is
// safe for concurrent use.
type Matcher struct {
	words []string
	// single marks the bytes that are words of their own.
	single    [256]bool
	hasSingle bool
	// index maps a bigram to 1 + the index of its slot in slots (0: no
	// word starts with it). 128 KiB, of which a text touches the few
	// pages its bigrams fall in.
	index []uint16
	slots []slot
}

// slot holds the words that start with one bigram.
type slot struct {
	// third is a bitset of the third bytes of its words longer than two.
	third [4]uint64
	// two are the words of exactly two bytes (they match on the bigram).
	two []int
	// long are the longer words.
	long []int
}

// NewMatcher returns a matcher for words. Words are lowercased; empty words
// are ignored.
func NewMatcher(words []string) *Matcher {
	m := &Matcher{}
	for _, w := range words {
		w = strings.ToLower(w)
		if w == "" {
			continue
		}
		i := len(m.words)
		m.words = append(m.words, w)
		if len(w) == 1 {
			m.single[w[0]] = true
			m.hasSingle = true
			continue
		}
		if m.index == nil {
			m.index = make([]uint16, 1<<16)
		}
		bg := uint16(w[0])<<8 | uint16(w[1])
		if m.index[bg] == 0 {
			m.slots = append(m.slots, slot{})
			m.index[bg] = uint16(len(m.slots))
		}
		sl := &m.slots[m.index[bg]-1]
		if len(w) == 2 {
			sl.two = append(sl.two, i)
		} else {
			sl.third[w[2]>>6] |= 1 << (w[2] & 63)
			sl.long = append(sl.long, i)
		}
	}
	return m
}

// Words returns the matcher's words in the order given to NewMatcher
// (lowercased, empties dropped). The caller must not modify the slice.
func (m *Matcher) Words() []string { return m.words }

// Any reports whether some word occurs in lower, which the caller has
// already lowercased (strings.ToLower, as gitleaks does).
func (m *Matcher) Any(lower string) bool {
	return m.scan(lower, nil)
}

// Found marks found[i] for every word i that occurs in lower and reports
// whether any did. found must have len(m.Words()) entries; entries already
// true stay true, so one slice can collect the words of several texts.
func (m *Matcher) Found(lower string, found []bool) bool {
	return m.scan(lower, found)
}

// Each calls fn with the index and position of every occurrence of every
// word in lower (overlapping ones too), in order of position.
func (m *Matcher) Each(lower string, fn func(word, pos int)) {
	m.walk(lower, func(w, pos int) bool { fn(w, pos); return true })
}

func (m *Matcher) scan(s string, found []bool) bool {
	any := false
	m.walk(s, func(w, _ int) bool {
		any = true
		if found == nil {
			return false
		}
		found[w] = true
		return true
	})
	return any
}

// walk calls fn for each occurrence in order of position until fn returns
// false. Per byte it costs one table load; a word is compared only when its
// first three bytes fit.
func (m *Matcher) walk(s string, fn func(word, pos int) bool) {
	if m == nil || len(m.words) == 0 {
		return
	}
	index := m.index
	for i := 0; i < len(s); i++ {
		if m.hasSingle && m.single[s[i]] {
			for j, w := range m.words {
				if len(w) == 1 && w[0] == s[i] && !fn(j, i) {
					return
				}
			}
		}
		if i+1 >= len(s) || index == nil {
			continue
		}
		k := index[uint16(s[i])<<8|uint16(s[i+1])]
		if k == 0 {
			continue
		}
		sl := &m.slots[k-1]
		for _, j := range sl.two {
			if !fn(j, i) {
				return
			}
		}
		if i+2 < len(s) && sl.third[s[i+2]>>6]&(1<<(s[i+2]&63)) != 0 {
			for _, j := range sl.long {
				if strings.HasPrefix(s[i:], m.words[j]) && !fn(j, i) {
					return
				}
			}
		}
	}
}

// Lower returns strings.ToLower(s), faster for text that is mostly ASCII
// with some other characters (strings.ToLower then maps every rune through
// a function call). Invalid UTF-8 bytes become U+FFFD, as strings.ToLower
// makes them.
func Lower(s string) string {
	ascii, upper := true, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			ascii = false
			break
		}
		upper = upper || 'A' <= c && c <= 'Z'
	}
	if ascii {
		if !upper {
			return s
		}
		return strings.ToLower(s)
	}
	b := make([]byte, 0, len(s)+8)
	changed := false
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
				changed = true
			}
			b = append(b, c)
			i++
			continue
		}
		r, w := utf8.DecodeRuneInString(s[i:])
		l := unicode.ToLower(r)
		if l != r || r == utf8.RuneError && w == 1 {
			changed = true
		}
		b = utf8.AppendRune(b, l)
		i += w
	}
	if !changed {
		return s
	}
	return string(b)
}

// Passes calls fn with the lowercased text of each decoding pass of text,
// first the text itself, then after each pass that decoded something, at
// most MaxDecodeDepth decoding passes, stopping early when fn returns false.
// It decodes exactly as gitleaks does.
func Passes(text string, fn func(lower string) bool) {
	if !fn(Lower(text)) {
		return
	}
	d := NewDecoder()
	var segments []*Segment
	for depth := 1; depth <= MaxDecodeDepth; depth++ {
		text, segments = d.Decode(text, segments)
		if len(segments) == 0 {
			return
		}
		if !fn(Lower(text)) {
			return
		}
	}
}

// builtin is the matcher for the built-in rule set's keywords.
var builtin = sync.OnceValue(func() *Matcher { return NewMatcher(builtinWords) })

// Builtin returns the matcher of the built-in rule set's keywords (gitleaks'
// default rules plus gemini-guard's own).
func Builtin() *Matcher { return builtin() }

// MayContainSecret reports whether the built-in rule set could find a secret
// in text. It is false only when no rule keyword occurs in the lowercased
// text of any decoding pass, in which case a full scan finds nothing. It is
// conservative: true does not mean a secret is there.
//
// It is only valid for the built-in rules: with a user's gitleaks config
// (which may add keywords or rules without any), use the scanner's own
// check (secrets.Scanner.MayContainSecret). Empty text gives false.
func MayContainSecret(text string) bool {
	m := Builtin()
	found := false
	Passes(text, func(lower string) bool {
		found = m.Any(lower)
		return !found
	})
	return found
}

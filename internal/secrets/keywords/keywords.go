// Package keywords is the secrets scanner's prefilter, without gitleaks.
//
// Every gitleaks rule gemini-guard runs lists keywords, and gitleaks only
// runs a rule when one of its keywords occurs in the lowercased text of some
// decoding pass (the text itself, then with its base64, hex, percent and
// unicode escapes decoded, up to MaxDecodeDepth passes). So when no keyword
// occurs in any pass, no rule can find anything: MayContainSecret says so
// without compiling a single rule regexp.
//
// The package links only the standard library, so a binary that calls
// MayContainSecret on every streamed chunk does not pay gitleaks' start-up
// cost. The word list is generated from the same rule set the scanner uses
// (see words_gen.go and internal/secrets/internal/gen).
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
	single [256]bool
	// bigram is a bitset of the first two bytes of every longer word, so a
	// position that starts no word costs one load and one test.
	bigram [1 << 16 / 64]uint64
	// slots is an open-addressed table from a bigram to the indexes of
	// the words starting with it (a map lookup per hit costs more than
	// the whole scan otherwise).
	slots []slot
	mask  uint16
}

type slot struct {
	bigram uint16
	used   bool
	words  []int
}

func (m *Matcher) lookup(bg uint16) []int {
	for i := hashBigram(bg) & m.mask; ; i = (i + 1) & m.mask {
		s := &m.slots[i]
		if !s.used {
			return nil
		}
		if s.bigram == bg {
			return s.words
		}
	}
}

func hashBigram(bg uint16) uint16 { return uint16((uint32(bg) * 40503) >> 6) }

// NewMatcher returns a matcher for words. Words are lowercased; empty words
// are ignored.
func NewMatcher(words []string) *Matcher {
	m := &Matcher{}
	byBigram := map[uint16][]int{}
	for _, w := range words {
		w = strings.ToLower(w)
		if w == "" {
			continue
		}
		i := len(m.words)
		m.words = append(m.words, w)
		if len(w) == 1 {
			m.single[w[0]] = true
			continue
		}
		bg := uint16(w[0])<<8 | uint16(w[1])
		m.bigram[bg/64] |= 1 << (bg % 64)
		byBigram[bg] = append(byBigram[bg], i)
	}
	size := 8
	for size < 2*len(byBigram) {
		size *= 2
	}
	m.slots = make([]slot, size)
	m.mask = uint16(size - 1)
	for bg, ws := range byBigram {
		i := hashBigram(bg) & m.mask
		for m.slots[i].used {
			i = (i + 1) & m.mask
		}
		m.slots[i] = slot{bigram: bg, used: true, words: ws}
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
	if m == nil || len(m.words) == 0 {
		return
	}
	for i := 0; i < len(lower); i++ {
		c := lower[i]
		if m.single[c] {
			for j, w := range m.words {
				if len(w) == 1 && w[0] == c {
					fn(j, i)
				}
			}
		}
		if i+1 >= len(lower) {
			break
		}
		bg := uint16(c)<<8 | uint16(lower[i+1])
		if m.bigram[bg/64]&(1<<(bg%64)) == 0 {
			continue
		}
		for _, j := range m.lookup(bg) {
			if strings.HasPrefix(lower[i:], m.words[j]) {
				fn(j, i)
			}
		}
	}
}

func (m *Matcher) scan(s string, found []bool) bool {
	if m == nil || len(m.words) == 0 {
		return false
	}
	any := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if m.single[c] {
			for j, w := range m.words {
				if len(w) == 1 && w[0] == c {
					if found == nil {
						return true
					}
					found[j], any = true, true
				}
			}
		}
		if i+1 >= len(s) {
			break
		}
		bg := uint16(c)<<8 | uint16(s[i+1])
		if m.bigram[bg/64]&(1<<(bg%64)) == 0 {
			continue
		}
		for _, j := range m.lookup(bg) {
			if strings.HasPrefix(s[i:], m.words[j]) {
				if found == nil {
					return true
				}
				found[j], any = true, true
			}
		}
	}
	return any
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

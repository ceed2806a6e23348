package prefilter

import (
	"sort"
	"strings"
)

// wordIndex finds which of a sorted list of lower-case keywords occur in a
// text. It is built from plain arrays (no maps), so building one costs a
// few microseconds: a hook process builds it on every run.
type wordIndex struct {
	words []string // sorted, no duplicates, none empty
	// bigram is a bitset of the first two bytes of every word of two bytes
	// or more: a position no word starts at costs one test.
	bigram [1 << 16 / 64]uint64
	// first[c] is the range of words starting with byte c.
	first [256][2]uint16
	// single[c] is set when the one-byte word c exists.
	single [256]bool
}

func newWordIndex(words []string) *wordIndex {
	x := &wordIndex{words: words}
	for i, w := range words {
		c := w[0]
		if x.first[c][1] == 0 {
			x.first[c][0] = uint16(i)
		}
		x.first[c][1] = uint16(i + 1)
		if len(w) == 1 {
			x.single[c] = true
			continue
		}
		bg := uint16(w[0])<<8 | uint16(w[1])
		x.bigram[bg/64] |= 1 << (bg % 64)
	}
	return x
}

// find marks found[i] for every word i that occurs in lower and reports
// whether any did. With found nil it stops at the first.
func (x *wordIndex) find(lower string, found marks) bool {
	any := false
	for i := 0; i < len(lower); i++ {
		c := lower[i]
		if !x.single[c] {
			if i+1 >= len(lower) {
				break
			}
			bg := uint16(c)<<8 | uint16(lower[i+1])
			if x.bigram[bg/64]&(1<<(bg%64)) == 0 {
				continue
			}
		}
		r := x.first[c]
		j := int(r[0])
		if i+1 < len(lower) && r[1]-r[0] > 4 {
			// Many words start with c ("s", "x"): go straight to those
			// that also share the second byte (the words are sorted, a
			// one-byte word first).
			c1 := lower[i+1]
			j += sort.Search(int(r[1])-j, func(k int) bool {
				w := x.words[j+k]
				return len(w) > 1 && w[1] >= c1
			})
			if x.single[c] && !found.has(int(r[0])) {
				if found == nil {
					return true
				}
				found[r[0]], any = true, true
			}
		}
		for ; j < int(r[1]); j++ {
			w := x.words[j]
			if len(w) > 1 && i+1 < len(lower) && w[1] > lower[i+1] {
				break
			}
			// A word found already is not looked for again: in a long
			// text the common ones (key, auth, s.) occur thousands of times.
			if found.has(j) || !strings.HasPrefix(lower[i:], w) {
				continue
			}
			if found == nil {
				return true
			}
			found[j], any = true, true
		}
	}
	return any
}

// marks are the words found so far; nil when the caller only asks
// whether any word occurs.
type marks []bool

func (m marks) has(j int) bool { return m != nil && m[j] }

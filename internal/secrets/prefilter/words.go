package prefilter

import "strings"

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
func (x *wordIndex) find(lower string, found []bool) bool {
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
		for j := r[0]; j < r[1]; j++ {
			if strings.HasPrefix(lower[i:], x.words[j]) {
				if found == nil {
					return true
				}
				found[j], any = true, true
			}
		}
	}
	return any
}

package known

import (
	"slices"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/secrets"
)

// Pieces of a known value (issue 38): a value cut in parts, each sent on
// its own (`curl -d a=<first half> -d b=<second half>`, two strings of one
// write), is found when the parts of it in one text cover at least
// PieceMin of its bytes. A part is found from its 8-byte grams: each value
// of more than CanonMinLen bytes gives the grams at every pieceStride-th
// offset (and its last), so a part of at least pieceJoin bytes holds one
// whole; a gram found in the text is grown both ways as far as the text
// agrees with the value. Only values known in the clear have pieces (a
// learnt value is kept as hashes of its whole forms).

// gramLen is the length of the grams a piece is found from.
const gramLen = 8

// PieceMin is the fewest bytes of a value of n bytes that its pieces in
// one text must cover to be a match: 12, or half the value when that is
// longer. A value of 12 bytes or fewer has no pieces: only the whole.
func PieceMin(n int) int { return max(CanonMinLen, (n+1)/2) }

// pieceJoin is the shortest part of a value of n bytes that is joined
// with others: a gram (8 bytes) for a value of up to 24 bytes, whose
// halves are shorter than 12; PieceMin for a longer one, one of whose
// halves is a match alone (parts that short are not looked for: each
// shorter length the grams must find costs every text a gram more of the
// value to look for).
func pieceJoin(n int) int {
	if n <= 2*CanonMinLen {
		return gramLen
	}
	return PieceMin(n)
}

// pieceStride is the distance between the offsets of a value's grams:
// every part of at least pieceJoin bytes holds one whole gram.
func pieceStride(n int) int { return pieceJoin(n) - gramLen + 1 }

// pieceGram is one gram of a value: where it is in the value.
type pieceGram struct {
	gram   uint64
	origin int32
	off    int32
	key    uint16 // pieceKey(gram)
}

// piece is a part of a value found in a text: value[from:to] at
// text[at:at+to-from].
type piece struct {
	origin       int32
	from, to, at int
	hit          int // where its gram was found
}

// pieceKey is a gram's 16-bit key: its high byte its group, its high 12
// bits its bit in gramBits (4096 bits: a hook process makes it for a few
// hundred grams, and a larger one cost more to make than it saved).
func pieceKey(g uint64) uint16 { return uint16((g * 0x9e3779b97f4a7c15) >> 48) }

// pieceIndex makes the grams of the clear values (index calls it), their
// groups by key and their bitset, and their first two bytes' gramBit in
// pairs (folded as pairKey folds them), the filter every position passes
// first: a position only a gram may start is not compared with the forms.
func (s *Set) pieceIndex() {
	count := 0
	for _, o := range s.origins {
		if n := len(o.value); n > CanonMinLen {
			count += (n-gramLen)/pieceStride(n) + 2
		}
	}
	s.grams = slices.Grow(s.grams[:0], count)
	for at, o := range s.origins {
		n := len(o.value)
		if o.value == "" || n <= CanonMinLen || s.noPieces {
			continue
		}
		stride := pieceStride(n)
		off := 0
		for ; off+gramLen <= n; off += stride {
			s.grams = append(s.grams, newGram(o.value, at, off))
		}
		if last := n - gramLen; off-stride != last {
			s.grams = append(s.grams, newGram(o.value, at, last))
		}
	}
	if s.gramBits == nil && len(s.grams) > 0 {
		s.gramBits = make([]uint64, 1<<12/64)
	} else {
		clear(s.gramBits)
	}
	s.gramBy = groupByHigh(len(s.grams), func(i int) uint16 { return s.grams[i].key }, &s.gramGroups, s.gramBy)
	for _, g := range s.grams {
		k := g.key >> 4
		s.gramBits[k/64] |= 1 << (k % 64)
		p := pairKey(byte(g.gram), byte(g.gram>>8))
		s.pairs[pairWord(p)] |= gramBit(p)
	}
}

func newGram(v string, origin, off int) pieceGram {
	g := le64(v[off:])
	return pieceGram{gram: g, origin: int32(origin), off: int32(off), key: pieceKey(g)}
}

// pieceAt adds to found the parts of values that a gram at text[i:]
// starts, grown both ways; a part found already (the same value at the
// same alignment, reaching past i) is not added again. Only the parts
// found at the last maxClear positions can reach i: the scan for one
// stops there (a text of one gram repeated costs no more than the gram's
// length per position).
func (s *Set) pieceAt(found []piece, text string, i int) []piece {
	w := le64(text[i:])
	k := pieceKey(w)
	if b := k >> 4; s.gramBits[b/64]&(1<<(b%64)) == 0 {
		return found
	}
next:
	for _, j := range s.gramBy[s.gramGroups[k>>8]:s.gramGroups[k>>8+1]] {
		g := &s.grams[j]
		if g.gram != w {
			continue
		}
		for q := len(found) - 1; q >= 0 && found[q].hit+s.maxClear > i; q-- {
			p := &found[q]
			if p.origin == g.origin && p.at-p.from == i-int(g.off) && p.at+p.to-p.from > i {
				continue next
			}
		}
		v := s.origins[g.origin].value
		from, to, at := int(g.off), int(g.off)+gramLen, i
		for from > 0 && at > 0 && text[at-1] == v[from-1] {
			from--
			at--
		}
		for to < len(v) && at+to-from < len(text) && text[at+to-from] == v[to] {
			to++
		}
		found = append(found, piece{origin: g.origin, from: from, to: to, at: at, hit: i})
	}
	return found
}

// joinPieces appends to out a finding for each part in found of a value
// whose parts of at least pieceJoin bytes cover PieceMin of it, that ends
// after from and is not within a finding of the same value in out (the
// whole value, a form) already: one of the 64 findings that start last
// before it, which out, sorted, has first. The finding names the value's
// source; its Secret is the part.
func (s *Set) joinPieces(out []secrets.Finding, found []piece, text string, from int) []secrets.Finding {
	whole := len(out)
	slices.SortStableFunc(found, func(a, b piece) int { return a.at - b.at })
	verdicts := map[int32]bool{} // a value's parts cover enough (covered), once per value
	line, lineAt, before := 1, 0, 0
	for _, p := range found {
		o := s.origins[p.origin]
		if p.to-p.from < pieceJoin(len(o.value)) {
			continue
		}
		ok, seen := verdicts[p.origin]
		if !seen {
			ok = s.covered(found, p.origin)
			verdicts[p.origin] = ok
		}
		end := p.at + p.to - p.from
		for before < whole && out[before].Start <= p.at {
			before++
		}
		if !ok || end <= from || within(out[max(0, before-64):before], o.source, p.at, end) {
			continue
		}
		line += strings.Count(text[lineAt:p.at], "\n")
		lineAt = p.at
		out = append(out, secrets.Finding{RuleID: RuleID, Description: o.source, Start: p.at, End: end, Line: line, Secret: text[p.at:end]})
	}
	if len(out) > whole {
		slices.SortStableFunc(out, func(a, b secrets.Finding) int { return a.Start - b.Start })
	}
	return out
}

// covered reports whether the parts in found of the value at origin, each
// of at least pieceJoin bytes, cover PieceMin of its bytes.
func (s *Set) covered(found []piece, origin int32) bool {
	n := len(s.origins[origin].value)
	var c coverage
	for _, p := range found {
		if p.origin != origin || p.to-p.from < pieceJoin(n) {
			continue
		}
		c.mark(p.from, p.to)
		if p.to-p.from >= PieceMin(n) {
			return true
		}
	}
	return c.count >= PieceMin(n)
}

// coverage counts the bytes of a value's first 256 that parts cover.
type coverage struct {
	bits  [4]uint64
	count int
}

// mark adds the bytes [from, to) of the value.
func (c *coverage) mark(from, to int) {
	for b := max(0, from); b < to && b < 256; b++ {
		if c.bits[b/64]&(1<<(b%64)) == 0 {
			c.bits[b/64] |= 1 << (b % 64)
			c.count++
		}
	}
}

// within reports whether text[start:end] lies within a finding of source
// in out.
func within(out []secrets.Finding, source string, start, end int) bool {
	for _, f := range out {
		if f.Description == source && f.Start <= start && end <= f.End {
			return true
		}
	}
	return false
}

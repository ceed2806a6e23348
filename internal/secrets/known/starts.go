package known

import (
	"encoding/base64"

	"github.com/gemini-guard/gemini-guard/internal/secrets/decode"
)

// A value's base64 and hex forms are built only when a text may hold one
// (buildFor). Whether it may is told without building them: every such
// form starts with four characters that the value's first six bytes
// decide (encodedStarts), and a form can only be in a text whose runs of
// base64 characters, long enough to hold it, hold its start (grams).

// startLen is how many leading characters of a form encodedStarts gives.
const startLen = 4

// encodedStarts appends to out the first startLen characters, as a
// number (gram), of each base64 form of v (the three alignments, in both
// alphabets) and of its hex forms (both cases). v has at least MinLen
// bytes.
func encodedStarts(v string, out []uint32) []uint32 {
	var buf [2 + 6]byte
	copy(buf[2:], v[:6])
	for align := 0; align < 3; align++ {
		// The same characters as base64Interior's first ones: those of
		// the value's bytes alone, and six bytes decide at least four.
		var enc [12]byte
		src := buf[2-align:]
		base64.StdEncoding.Encode(enc[:], src)
		start := enc[interiorFrom(align):][:startLen]
		out = append(out, gram(string(start)))
		if toURLAlphabet(start) { // the URL alphabet's form starts otherwise only then
			out = append(out, gram(string(start)))
		}
	}
	for _, digits := range [...]string{lowerHex, upperHex} {
		out = append(out, gram(string([]byte{digits[v[0]>>4], digits[v[0]&15], digits[v[1]>>4], digits[v[1]&15]})))
	}
	return out
}

// gram is the first startLen bytes of s as a number.
func gram(s string) uint32 {
	return uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
}

// grams is a set of a text's grams, as a bitset of their hashes: it may
// say a gram is there when it is not, never the reverse.
type grams []uint64

// gramsOf is the set of the grams that start in text's runs of base64
// characters of at least minRun bytes, and the longest run's length.
func gramsOf(text string, minRun int) (grams, int) {
	var set grams
	longest := 0
	for i := 0; i < len(text); {
		if !decode.IsBase64Char(text[i]) {
			i++
			continue
		}
		j := i
		for j < len(text) && decode.IsBase64Char(text[j]) {
			j++
		}
		longest = max(longest, j-i)
		if j-i >= minRun && j-i >= startLen {
			if set == nil {
				set = make(grams, 1<<16/64)
			}
			for k := i; k+startLen <= j; k++ {
				h := gramHash(gram(text[k:]))
				set[h/64] |= 1 << (h % 64)
			}
		}
		i = j
	}
	return set, longest
}

func gramHash(g uint32) uint16 { return uint16((g * 0x9e3779b1) >> 16) }

func (set grams) has(g uint32) bool {
	h := gramHash(g)
	return set != nil && set[h/64]&(1<<(h%64)) != 0
}

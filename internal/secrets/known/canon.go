package known

import (
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/gemini-guard/gemini-guard/internal/secrets"
)

// The canonical view (issue 38): a value an agent spells out by hand —
// upper-cased, reversed, rot13, every character escaped (%61, %2561, \x61,
// \u0061, \141, &#97;, &#x61;, &amp;), as a list of character codes
// ([97, 99, 107], chr(97)+chr(99), 0x61,0x63, 61:63:6b) or with its
// characters apart (a,c,k; a c k; a\u200bc) — is found by matching the
// value's canonical forms against a canonical view of the text: the
// escapes decoded, the codes turned into characters, the separators
// between single characters and every zero-width character dropped, ASCII
// letters in lower case. The canonical forms of a value are the value
// with its letters folded (what a spelling of each of its characters
// decodes to: the view decodes once), reversed and in rot13, and, when it
// differs, the view of the value itself (a value holding escape syntax,
// written as it is).
//
// Only values of at least CanonMinLen bytes have canonical forms: folding
// case and reversing make a short value match far more ordinary text.
//
// Cost. The folded view of a text is not built: the pass that looks for
// the exact forms tests every position's two bytes, ASCII case ignored,
// against one bitset holding the exact forms' first two bytes and each
// canonical form's anchor (its rarest pair among its first 16 bytes),
// and compares a canonical form with case folded on the fly only there.
// The decoded view is built only around something to decode
// (canonRegions), where a sampled word (sampleHints) or an anchor beside
// escape syntax (escapedNear) says to look.

// CanonMinLen is the shortest value that is also looked for in the
// canonical view.
const CanonMinLen = 12

// cell is one byte of a decoded view and the bytes of the text it comes
// from: text[s:e].
type cell struct {
	b    byte
	s, e int32
}

// foldByte is c with an ASCII letter in lower case.
func foldByte(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// pairKey is the filter's key of two bytes: ASCII case ignored (and a few
// punctuation pairs merged, which only costs a comparison).
func pairKey(a, b byte) uint16 { return uint16(a|0x20)<<8 | uint16(b|0x20) }

// canonValue is the canonical view of a whole value.
func canonValue(v string) string {
	cells := decodeCells(v, 0, len(v), nil)
	cells = joinSingles(decodeLists(cells, nil), nil)
	b := make([]byte, len(cells))
	for i, c := range cells {
		b[i] = c.b
	}
	return string(b)
}

func hexVal(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c && c <= 'f':
		return int(c-'a') + 10
	case 'A' <= c && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// hexAt is the number of n hex digits at text[i:], or -1.
func hexAt(text string, i, n int) int {
	if i+n > len(text) {
		return -1
	}
	x := 0
	for k := 0; k < n; k++ {
		d := hexVal(text[i+k])
		if d < 0 {
			return -1
		}
		x = x<<4 | d
	}
	return x
}

func isOctal(c byte) bool { return '0' <= c && c <= '7' }
func isDigit(c byte) bool { return '0' <= c && c <= '9' }
func isAlnum(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// zeroWidth is the length of the zero-width character (U+200B, U+200C,
// U+200D, U+2060, U+FEFF, U+00AD) at text[i:], or 0.
func zeroWidth(text string, i int) int {
	if i+1 < len(text) && text[i] == 0xC2 && text[i+1] == 0xAD {
		return 2
	}
	if i+2 >= len(text) {
		return 0
	}
	switch text[i : i+3] {
	case "\u200b", "\u200c", "\u200d", "\u2060", "\ufeff":
		return 3
	}
	return 0
}

// escapeAt decodes the escape at text[i:] (percent, once or doubled;
// \x, \u, \u{…}, \U, octal, a backslashed punctuation character; an
// HTML or XML character reference), returning the character and the
// escape's length; n is 0 when there is none. A decoded character above
// ASCII is returned as -1 with its rune in r.
func escapeAt(text string, i int) (c rune, n int) {
	switch text[i] {
	case '%':
		x := hexAt(text, i+1, 2)
		if x < 0 {
			return 0, 0
		}
		if x == '%' { // %25xx: percent-encoded twice
			if y := hexAt(text, i+3, 2); y >= 0 {
				return rune(y), 5
			}
		}
		return rune(x), 3
	case '\\':
		if i+1 >= len(text) {
			return 0, 0
		}
		switch d := text[i+1]; {
		case d == 'x':
			if x := hexAt(text, i+2, 2); x >= 0 {
				return rune(x), 4
			}
		case d == 'u':
			if i+2 < len(text) && text[i+2] == '{' {
				end := strings.IndexByte(text[i+3:min(len(text), i+11)], '}')
				if end > 0 {
					if x := hexAt(text, i+3, end); x >= 0 {
						return rune(x), end + 4
					}
				}
				return 0, 0
			}
			if x := hexAt(text, i+2, 4); x >= 0 {
				return rune(x), 6
			}
		case d == 'U':
			if x := hexAt(text, i+2, 8); x >= 0 && x <= utf8.MaxRune {
				return rune(x), 10
			}
		case d >= '0' && d <= '3':
			if i+3 < len(text) && isOctal(text[i+2]) && isOctal(text[i+3]) {
				return rune(d-'0')<<6 | rune(text[i+2]-'0')<<3 | rune(text[i+3]-'0'), 4
			}
		case d > ' ' && d < 0x7f && !isAlnum(d):
			return rune(d), 2
		}
	case '&':
		end := strings.IndexByte(text[i+1:min(len(text), i+12)], ';')
		if end < 1 {
			return 0, 0
		}
		ref := text[i+1 : i+1+end]
		if ref[0] == '#' {
			num, base := ref[1:], 10
			if num != "" && (num[0] == 'x' || num[0] == 'X') {
				num, base = num[1:], 16
			}
			if num == "" || len(num) > 7 {
				return 0, 0
			}
			x := 0
			for k := 0; k < len(num); k++ {
				d := hexVal(num[k])
				if d < 0 || d >= base {
					return 0, 0
				}
				x = x*base + d
			}
			if x > utf8.MaxRune {
				return 0, 0
			}
			return rune(x), end + 2
		}
		if r := namedEntity(ref); r != 0 {
			return r, end + 2
		}
	}
	return 0, 0
}

// namedEntity is the character of an HTML named reference for ASCII
// punctuation (what a value's special characters are written as), or 0.
func namedEntity(name string) rune {
	switch name {
	case "amp", "AMP":
		return '&'
	case "lt", "LT":
		return '<'
	case "gt", "GT":
		return '>'
	case "quot", "QUOT":
		return '"'
	case "apos":
		return '\''
	case "excl":
		return '!'
	case "num":
		return '#'
	case "dollar":
		return '$'
	case "percnt":
		return '%'
	case "lpar":
		return '('
	case "rpar":
		return ')'
	case "ast", "midast":
		return '*'
	case "plus":
		return '+'
	case "comma":
		return ','
	case "period":
		return '.'
	case "sol":
		return '/'
	case "colon":
		return ':'
	case "semi":
		return ';'
	case "equals":
		return '='
	case "quest":
		return '?'
	case "commat":
		return '@'
	case "lsqb", "lbrack":
		return '['
	case "bsol":
		return '\\'
	case "rsqb", "rbrack":
		return ']'
	case "Hat":
		return '^'
	case "lowbar", "UnderBar":
		return '_'
	case "grave", "DiacriticalGrave":
		return '`'
	case "lcub", "lbrace":
		return '{'
	case "verbar", "vert", "VerticalLine":
		return '|'
	case "rcub", "rbrace":
		return '}'
	case "tilde":
		return '~'
	case "nbsp":
		return ' '
	}
	return 0
}

// decodeCells appends to out the view of text[lo:hi] with its escapes
// decoded (an escape that decodes to another escape's start, as
// %255Cx61, decoded again: up to three times), zero-width characters
// dropped and ASCII letters folded.
func decodeCells(text string, lo, hi int, out []cell) []cell {
	for i := lo; i < hi; {
		if n := zeroWidth(text, i); n > 0 && i+n <= hi {
			i += n
			continue
		}
		c, n := escapeAt(text, i)
		if n == 0 || i+n > hi {
			out = append(out, cell{b: foldByte(text[i]), s: int32(i), e: int32(i + 1)})
			i++
			continue
		}
		out = appendRune(out, c, int32(i), int32(i+n))
		i += n
	}
	return out
}

// appendRune appends r's UTF-8 bytes (folded; none for a zero-width
// character), all standing for text[s:e].
func appendRune(out []cell, r rune, s, e int32) []cell {
	switch r {
	case 0x200b, 0x200c, 0x200d, 0x2060, 0xfeff, 0xad:
		return out
	}
	if r < utf8.RuneSelf {
		return append(out, cell{b: foldByte(byte(r)), s: s, e: e})
	}
	var buf [4]byte
	for _, b := range buf[:utf8.EncodeRune(buf[:], r)] {
		out = append(out, cell{b: b, s: s, e: e})
	}
	return out
}

// minList is the fewest codes or single characters in a row that are
// read as characters.
const minList = 4

// decodeLists replaces every list of at least minList character codes in
// cells by the characters: decimal numbers (32 to 126) separated by a few
// bytes without digits, a colon or a line end ([97, 99, 107], chr(97)+chr(99)),
// 0x-prefixed hex numbers (0x61,0x63), and two-digit hex numbers
// separated by one ':' or ' ' (61:63:6b, 61 63 6b).
func decodeLists(cells, out []cell) []cell {
	for i := 0; i < len(cells); {
		if n, codes := listAt(cells, i); n > 0 {
			out = append(out, codes...)
			i += n
			continue
		}
		out = append(out, cells[i])
		i++
	}
	return out
}

// number reads the number token at cells[i:] (decimal, 0x hex, or two hex
// digits when hexPairs): its value, length and whether it was hex.
func numberAt(cells []cell, i int, hexPairs bool) (val, n int, ok bool) {
	if i > 0 && isAlnum(cells[i-1].b) {
		return 0, 0, false
	}
	j := i
	if j+2 < len(cells) && cells[j].b == '0' && cells[j+1].b == 'x' && hexVal(cells[j+2].b) >= 0 {
		j += 2
		for j < len(cells) && hexVal(cells[j].b) >= 0 && j-i < 4 {
			val = val<<4 | hexVal(cells[j].b)
			j++
		}
	} else if hexPairs {
		if j+1 >= len(cells) || hexVal(cells[j].b) < 0 || hexVal(cells[j+1].b) < 0 {
			return 0, 0, false
		}
		val = hexVal(cells[j].b)<<4 | hexVal(cells[j+1].b)
		j += 2
	} else {
		for j < len(cells) && isDigit(cells[j].b) && j-i < 3 {
			val = val*10 + int(cells[j].b-'0')
			j++
		}
	}
	if j == i || j < len(cells) && isAlnum(cells[j].b) {
		return 0, 0, false
	}
	return val, j - i, true
}

// listAt reads a list of character codes at cells[i:]: how many cells it
// takes and the characters, or 0.
func listAt(cells []cell, i int) (int, []cell) {
	if !isDigit(cells[i].b) || i > 0 && isAlnum(cells[i-1].b) {
		return 0, nil
	}
	for _, hexPairs := range [2]bool{true, false} {
		var codes []cell
		j, sep := i, byte(0)
		for {
			v, n, ok := numberAt(cells, j, hexPairs)
			if !ok || v < 0x20 || v > 0x7e {
				break
			}
			codes = append(codes, cell{b: foldByte(byte(v)), s: cells[j].s, e: cells[j+n-1].e})
			j += n
			// The gap to the next number.
			k := j
			if hexPairs {
				if k >= len(cells) || cells[k].b != ':' && cells[k].b != ' ' || sep != 0 && cells[k].b != sep {
					break
				}
				sep = cells[k].b
				k++
			} else {
				for k < len(cells) && k-j <= 8 && !isDigit(cells[k].b) && cells[k].b != '\n' && cells[k].b != ':' {
					k++
				}
				if k == j || k-j > 8 || k >= len(cells) || !isDigit(cells[k].b) {
					break
				}
			}
			j = k
		}
		if len(codes) >= minList {
			last := codes[len(codes)-1]
			// What the list takes: up to its last number.
			n := 0
			for n < len(cells)-i && cells[i+n].e <= last.e {
				n++
			}
			return n, codes
		}
	}
	return 0, nil
}

// sepByte reports whether c separates single characters (a,c,k; a c k).
func sepByte(c byte) bool { return c == ',' || c == ' ' || c == '\t' || c == ';' }

// unitAt reads a single character at cells[i:], alone or quoted ('a',
// "a"): its place and the cells it takes, or 0.
func unitAt(cells []cell, i int) (at, n int) {
	if i >= len(cells) {
		return 0, 0
	}
	c := cells[i].b
	if (c == '\'' || c == '"') && i+2 < len(cells) && cells[i+2].b == c && cells[i+1].b > ' ' && cells[i+1].b < 0x7f {
		return i + 1, 3
	}
	if c > ' ' && c < 0x7f && !sepByte(c) {
		return i, 1
	}
	return 0, 0
}

// joinSingles drops the separators of every run of at least minList
// single characters apart (a,c,k,x; a c k x; 'a', 'c', 'k', 'x'; quoted
// characters may also be joined by '+').
func joinSingles(cells, out []cell) []cell {
	for i := 0; i < len(cells); {
		if units, end := singlesAt(cells, i); len(units) >= minList {
			for _, u := range units {
				out = append(out, cells[u])
			}
			i = end
			continue
		}
		out = append(out, cells[i])
		i++
	}
	return out
}

// singlesAt lists the places of the single characters apart that start
// at cells[i], and where the run ends.
func singlesAt(cells []cell, i int) (units []int, end int) {
	if i > 0 && isAlnum(cells[i-1].b) {
		return nil, 0
	}
	for j := i; ; {
		at, n := unitAt(cells, j)
		if n == 0 {
			break
		}
		quoted := n == 3
		k := j + n
		if k < len(cells) {
			c := cells[k].b
			if !sepByte(c) && !(quoted && c == '+') && c != ')' && c != ']' && c != '}' && c != '\n' {
				break // not single: part of a word
			}
		}
		units, end = append(units, at), k
		for k < len(cells) && k-end < 3 && (sepByte(cells[k].b) || quoted && cells[k].b == '+') {
			k++
		}
		if k == end {
			break
		}
		j = k
	}
	if len(units) < minList {
		return nil, 0
	}
	return units, end
}

// The kinds of canonical form.
const (
	canonPlain uint8 = iota
	canonReversed
	canonRot13
	// canonDecoded is the value's own view (its escapes decoded, its
	// single characters joined) when that differs from the value folded.
	canonDecoded
)

// canonEntry is one canonical form of a value: its canonical view (the
// origin's canon, or its value folded when canon is ""), reversed or in
// rot13, compared byte by byte without being made.
type canonEntry struct {
	origin int32
	n      int32
	// at is the form's anchor: the place of its two bytes least likely
	// in ordinary text (anchorScore), whose pairKey is key; first is the
	// pairKey of its first two bytes (for Tail).
	at         int32
	key, first uint16
	kind       uint8
}

// byteRank is how common each byte is in ordinary text and code, lower
// is rarer (a rough ranking is all the anchor needs): common letters 6,
// other common letters, the digits 0-2 and space 4, other digits 3, other
// letters 2; letters have the bit 0x40 too. Bytes not listed (0) are
// punctuation, which a spelling may escape: never an anchor when there is
// another choice. A literal table: hook packages compute nothing at
// start-up.
var byteRank = [256]uint8{
	'e': 0x46, 't': 0x46, 'a': 0x46, 'o': 0x46, 'i': 0x46, 'n': 0x46, 's': 0x46, 'r': 0x46, 'h': 0x46, 'l': 0x46,
	'd': 0x44, 'c': 0x44, 'u': 0x44, 'm': 0x44, 'f': 0x44, 'p': 0x44, 'g': 0x44, 'w': 0x44, 'y': 0x44, 'b': 0x44,
	'j': 0x42, 'k': 0x42, 'q': 0x42, 'v': 0x42, 'x': 0x42, 'z': 0x42,
	'E': 0x46, 'T': 0x46, 'A': 0x46, 'O': 0x46, 'I': 0x46, 'N': 0x46, 'S': 0x46, 'R': 0x46, 'H': 0x46, 'L': 0x46,
	'D': 0x44, 'C': 0x44, 'U': 0x44, 'M': 0x44, 'F': 0x44, 'P': 0x44, 'G': 0x44, 'W': 0x44, 'Y': 0x44, 'B': 0x44,
	'J': 0x42, 'K': 0x42, 'Q': 0x42, 'V': 0x42, 'X': 0x42, 'Z': 0x42,
	'0': 4, '1': 4, '2': 4, '3': 3, '4': 3, '5': 3, '6': 3, '7': 3, '8': 3, '9': 3,
}

// anchorScore is how common the pair a, b is in ordinary text (lower is
// rarer): two letters are common, a letter beside a digit rare.
func anchorScore(a, b byte) int {
	ra, rb := byteRank[a], byteRank[b]
	if ra == 0 || rb == 0 {
		return 64 // a special character may be escaped in a spelling
	}
	s := int(ra&0x3f) + int(rb&0x3f)
	if (ra^rb)&0x40 != 0 {
		s -= 4
	}
	return s
}

// plainCanon reports whether v's canonical view is v with letters folded:
// v holds no escape syntax, separator, quote, non-ASCII byte or number
// standing alone (what a list of codes starts with).
func plainCanon(v string) bool {
	i := 0
	for i < len(v) && isAlnum(v[i]) {
		i++
	}
	if i == len(v) {
		return true // a number needs a separator to stand alone
	}
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c >= 0x80, c == '%', c == '\\', c == '&', c == '\'', c == '"', c == ':', sepByte(c):
			return false
		case isDigit(c) && (i == 0 || !isAlnum(v[i-1])):
			return false
		}
	}
	return true
}

// canonByte is byte j of the canonical form e of the origin's view src.
func canonByte(src string, e *canonEntry, j int) byte {
	var c byte
	if e.kind == canonReversed {
		c = foldByte(src[int(e.n)-1-j])
	} else {
		c = foldByte(src[j])
	}
	if e.kind == canonRot13 {
		c = rot13Byte(c)
	}
	return c
}

// rot13Byte is c, a folded byte, in rot13.
func rot13Byte(c byte) byte {
	switch {
	case 'a' <= c && c <= 'm':
		return c + 13
	case 'n' <= c && c <= 'z':
		return c - 13
	}
	return c
}

// canonSource is the text e's bytes are taken from.
func (s *Set) canonSource(e *canonEntry) string {
	if e.kind == canonDecoded {
		for _, v := range s.canonViews {
			if v.origin == e.origin {
				return v.view
			}
		}
	}
	return s.origins[e.origin].value
}

// canonView is the decoded view of a value that holds escape syntax or
// single characters apart (canonDecoded).
type canonView struct {
	origin int32
	view   string
}

// canonEqual reports whether text (folded on the fly) is the form e.
func (s *Set) canonEqual(text string, e *canonEntry) bool {
	src := s.canonSource(e)
	for j := 0; j < len(text); j++ {
		if foldByte(text[j]) != canonByte(src, e, j) {
			return false
		}
	}
	return true
}

// canonIndex makes the canonical entries of the values added since the
// last call, and their filters.
func (s *Set) canonIndex() {
	if s.noCanon {
		return
	}
	for ; s.canonDone < len(s.origins); s.canonDone++ {
		o := &s.origins[s.canonDone]
		if len(o.value) < CanonMinLen { // and every hashed value (no value)
			continue
		}
		src := o.value
		n := len(src)
		// The anchor: the rarest pair among the first 16 bytes; the
		// reversed form's is the same pair, the rot13 form's the same
		// place. The same pass tells whether the value is letters and
		// digits only (most are), whose view is itself folded.
		best, at, alnum := math.MaxInt, 0, true
		for j := 0; j < n; j++ {
			alnum = alnum && byteRank[src[j]] != 0 // letters and digits only are ranked
			if j < 16 && j+1 < n {
				if sc := anchorScore(src[j], src[j+1]); sc < best {
					best, at = sc, j
				}
			}
		}
		ascii := alnum || isASCII(src)
		if !alnum && !plainCanon(src) {
			// Spelt out character by character, the value decodes to
			// itself (the view decodes once); written as it is, to its
			// own view.
			if c := canonValue(src); len(c) >= CanonMinLen && c != strings.ToLower(src) {
				s.canonViews = append(s.canonViews, canonView{origin: int32(s.canonDone), view: c})
			}
		}
		if s.canon == nil {
			s.canon = make([]canonEntry, 0, 3*len(s.origins))
		}
		a, b := foldByte(src[at]), foldByte(src[at+1])
		oi := int32(s.canonDone)
		s.canon = append(s.canon,
			canonEntry{origin: oi, n: int32(n), kind: canonPlain, at: int32(at), key: pairKey(a, b), first: pairKey(src[0], src[1])},
			canonEntry{origin: oi, n: int32(n), kind: canonRot13, at: int32(at), key: pairKey(rot13Byte(a), rot13Byte(b)),
				first: pairKey(rot13Byte(foldByte(src[0])), rot13Byte(foldByte(src[1])))})
		if ascii { // reversed by character only for ASCII
			s.canon = append(s.canon, canonEntry{origin: oi, n: int32(n), kind: canonReversed, at: int32(n - 2 - at), key: pairKey(b, a), first: pairKey(src[n-1], src[n-2])})
		}
		s.maxCanon = max(s.maxCanon, n)
		if k := len(s.canonViews) - 1; k >= 0 && s.canonViews[k].origin == oi {
			c := s.canonViews[k].view
			best, at := math.MaxInt, 0
			for j := 0; j+1 < len(c) && j < 16; j++ {
				if sc := anchorScore(c[j], c[j+1]); sc < best {
					best, at = sc, j
				}
			}
			s.canon = append(s.canon, canonEntry{origin: oi, n: int32(len(c)), kind: canonDecoded, at: int32(at), key: pairKey(c[at], c[at+1]), first: pairKey(c[0], c[1])})
			s.maxCanon = max(s.maxCanon, len(c))
		}
		s.canonSorted = false
	}
	if s.canonSorted {
		return
	}
	s.canonSorted, s.canonFirst = true, s.canonFirst[:0]
	// Grouped by the anchor key's high byte, as index groups the tags.
	s.canonBy = groupByHigh(len(s.canon), func(i int) uint16 { return s.canon[i].key }, &s.canonGroups, s.canonBy)
}

// canonWith is the places in s.canon of the canonical entries whose
// anchor's key has k's high byte (the caller compares the key).
func (s *Set) canonWith(k uint16) []int32 {
	return s.canonBy[s.canonGroups[k>>8]:s.canonGroups[k>>8+1]]
}

// canonAt appends the canonical forms found in text at i (text's bytes
// folded on the fly) that end after from, but one at the span of an
// exact finding of the same value.
func (s *Set) canonAt(out []secrets.Finding, text string, i, from int, k uint16, line func(int) int) []secrets.Finding {
	for _, idx := range s.canonWith(k) {
		e := &s.canon[idx]
		if e.key != k {
			continue
		}
		start := i - int(e.at)
		end := start + int(e.n)
		if start < 0 || end > len(text) || end <= from {
			continue
		}
		if !s.canonEqual(text[start:end], e) {
			if s.escapedNear(text, i, e) {
				s.hint(i-4*int(e.n), i+4*int(e.n))
			}
			continue
		}
		out = s.appendCanon(out, e, start, end, line(start))
	}
	return out
}

// escapedNear reports whether the form e, whose anchor is at text[i:],
// may be there with a character escaped (%2f for a / of the value): the
// bytes beside the anchor agree with the form up to escape syntax, on
// one side or the other, over at least four bytes in all.
func (s *Set) escapedNear(text string, i int, e *canonEntry) bool {
	src := s.canonSource(e)
	at := int(e.at)
	f := 2 // bytes agreeing from the anchor on
	for at+f < int(e.n) && i+f < len(text) && foldByte(text[i+f]) == canonByte(src, e, at+f) {
		f++
	}
	b := 0 // and before it
	for b < at && i-b-1 >= 0 && foldByte(text[i-b-1]) == canonByte(src, e, at-b-1) {
		b++
	}
	if f+b < 4 {
		return false
	}
	if at+f < int(e.n) && i+f < len(text) && strings.IndexByte("%\\&", text[i+f]) >= 0 {
		return true
	}
	if b < at {
		// An escape ends where the agreement stops: %2f, \x2f, &#47;.
		w := text[max(0, i-b-12):max(0, i-b)]
		return strings.ContainsAny(w, "%\\&")
	}
	return false
}

// appendCanon appends a canonical finding at text[start:end] unless one of
// the same value at the same span is there.
func (s *Set) appendCanon(out []secrets.Finding, e *canonEntry, start, end, line int) []secrets.Finding {
	o := &s.origins[e.origin]
	for k := len(out) - 1; k >= 0 && out[k].Start >= start; k-- {
		if out[k].Start == start && out[k].End == end && out[k].Description == o.source {
			return out
		}
	}
	return append(out, secrets.Finding{RuleID: RuleID, Description: o.source, Start: start, End: end, Line: line, Secret: o.value, Decoded: true})
}

// Classes of bytes for canonRegions: a separator between single
// characters; a byte of a list of codes (a comma, a digit, the x of 0x);
// a byte that may start escape syntax or a zero-width character.
const (
	clsSep  = 1
	clsList = 2
	clsRare = 4
)

// canonClass is the class of each byte. A literal table: hook packages
// compute nothing at start-up.
var canonClass = [256]uint8{
	' ': clsSep, '\t': clsSep, ';': clsSep, '\'': clsSep, '"': clsSep, ',': clsSep | clsList,
	'0': clsList, '1': clsList, '2': clsList, '3': clsList, '4': clsList, '5': clsList, '6': clsList, '7': clsList, '8': clsList, '9': clsList, 'x': clsList,
	'%': clsRare, '\\': clsRare, '&': clsRare, ':': clsRare, '(': clsRare, 0xC2: clsRare, 0xE2: clsRare, 0xEF: clsRare,
}

// canonRegions lists the parts of text from lo on whose decoded view may
// differ from the text folded: around escape syntax that decodes to a
// printable or zero-width character, a list of character codes, or
// single characters apart; each widened by width bytes on both sides (the
// literal rest of a form), merged when they meet.
func canonRegions(text string, lo, hi, width int, out [][2]int) [][2]int {
	add := func(a, b int) {
		a, b = max(0, a-width), min(len(text), b+width)
		if n := len(out); n > 0 && a <= out[n-1][1] {
			out[n-1] = [2]int{min(out[n-1][0], a), max(out[n-1][1], b)}
			return
		}
		out = append(out, [2]int{a, b})
	}
	n := min(len(text), hi+2)
	for i := lo; i+2 < n; i++ {
		a, c := canonClass[text[i]], canonClass[text[i+2]]
		if a&(c|clsRare) == 0 {
			continue
		}
		switch {
		case a&clsRare != 0:
			if e := rareAt(text, i); e > i {
				add(i, e)
			}
		case a&c&clsList != 0:
			// A comma, then a number: a list if a number ends before it.
			if i > 0 && hexVal(text[i-1]) >= 0 {
				add(i, i+3)
			}
		case a&c&clsSep != 0 && canonClass[text[i+1]]&clsSep == 0:
			if e := singlesRaw(text, i); e > i {
				add(i, e)
				i = e - 1
			}
		}
	}
	return out
}

// rareAt is the end of the escape, zero-width character, hex pair list
// (61:63) or chr( at text[i], or i when there is none that matters:
// escapes of control characters (\n) and backslashed punctuation (\",
// which the shell and JSON forms cover) do not.
func rareAt(text string, i int) int {
	switch text[i] {
	case ':':
		if i >= 2 && i+2 < len(text) && hexVal(text[i-1]) >= 0 && hexVal(text[i-2]) >= 0 && hexVal(text[i+1]) >= 0 && hexVal(text[i+2]) >= 0 {
			return i + 3
		}
		return i
	case '(':
		if i >= 3 && foldByte(text[i-2]) == 'h' && foldByte(text[i-1]) == 'r' && i+1 < len(text) && isDigit(text[i+1]) {
			return i + 1
		}
		return i
	case 0xC2, 0xE2, 0xEF:
		return i + zeroWidth(text, i)
	}
	r, n := escapeAt(text, i)
	if n == 0 || r < 0x20 || r == 0x7f || text[i] == '\\' && n == 2 {
		return i
	}
	return i + n
}

// singlesRaw is the end of a run of at least three single characters
// apart starting with the separator at text[i] (the view's joinSingles
// decides), or i.
func singlesRaw(text string, i int) int {
	units, j := 0, i
	for {
		k := j
		for k < len(text) && k-j < 3 && canonClass[text[k]]&clsSep != 0 && (text[k] != '\'' && text[k] != '"' || k+2 < len(text) && text[k+2] != text[k]) {
			k++
		}
		if k == j && units > 0 || k >= len(text) {
			break
		}
		u := k
		if (text[u] == '\'' || text[u] == '"') && u+2 < len(text) && text[u+2] == text[u] {
			u += 3
		} else if text[u] > ' ' && text[u] < 0x7f && canonClass[text[u]]&clsSep == 0 {
			u++
		} else {
			break
		}
		if u < len(text) && canonClass[text[u]]&clsSep == 0 && text[u] != '+' && text[u] != ')' && text[u] != ']' && text[u] != '}' {
			break
		}
		units++
		j = u
	}
	if units < 3 {
		return i
	}
	return j
}

// findDecoded appends the canonical forms found in the decoded view of
// each region of text from lo on that ends after from, but those the
// folded pass over text found (a match of bytes that stand for
// themselves).
func (s *Set) findDecoded(out []secrets.Finding, text string, lo, from int) []secrets.Finding {
	sampleHints(text, lo, s.hint)
	if len(s.hints) == 0 {
		return out
	}
	slices.SortFunc(s.hints, func(a, b [2]int) int { return a[0] - b[0] })
	var regions [][2]int
	for _, h := range s.hints {
		// A spelling may go on past the part hinted at: while the next
		// 64 bytes on either side hold something to decode, so does the
		// part looked at.
		a, b := max(lo, h[0]), min(len(text), h[1])
		for a > lo && len(canonRegions(text, max(lo, a-64), a, 0, nil)) > 0 {
			a = max(lo, a-64)
		}
		for b < len(text) && len(canonRegions(text, b, min(len(text), b+64), 0, nil)) > 0 {
			b = min(len(text), b+64)
		}
		regions = canonRegions(text, a, b, s.maxCanon, regions)
	}
	s.hints = s.hints[:0]
	if len(regions) == 0 {
		return out
	}
	n0 := len(out)
	var cells, lists, singles []cell
	var view []byte
	for _, r := range regions {
		cells = decodeCells(text, r[0], r[1], cells[:0])
		lists = decodeLists(cells, lists[:0])
		singles = joinSingles(lists, singles[:0])
		cells, singles = singles, cells
		view = view[:0]
		for _, c := range cells {
			view = append(view, c.b)
		}
		v := string(view)
		for i := 0; i+2 <= len(v); i++ {
			k := pairKey(v[i], v[i+1])
			if s.pairs[pairWord(k)]&formBit(k) == 0 {
				continue
			}
			for _, idx := range s.canonWith(k) {
				e := &s.canon[idx]
				if e.key != k {
					continue
				}
				startv := i - int(e.at)
				endv := startv + int(e.n)
				if startv < 0 || endv > len(v) || !s.canonEqual(v[startv:endv], e) {
					continue
				}
				start, end := int(cells[startv].s), int(cells[endv-1].e)
				if end <= from || end-start == int(e.n) {
					continue // before from, or found by the folded pass
				}
				out = s.appendCanon(out, e, start, end, 1+strings.Count(text[:start], "\n"))
			}
		}
	}
	if len(out) > n0 {
		slices.SortStableFunc(out, func(a, b secrets.Finding) int { return a.Start - b.Start })
	}
	return out
}

// decodedTail is where a spelling that needs decoding may be under way
// at the end of text (from base on, before hold): when the last bytes (a
// value's length and 16) hold something to decode (canonRegions), the
// decoded view of the text's end (ten times the longest value) is built and, as canonTail does on the text, the earliest
// suffix of it that a canonical form starts with is held back, from the
// first byte it comes from. An escape or code cut at the end (\x6, &#4,
// 10) does not decode yet: up to 10 such bytes at the end are set aside
// before the suffixes are compared.
func (s *Set) decodedTail(text string, base, hold int) int {
	if len(s.canon) == 0 || len(text)-base < 4 {
		return hold
	}
	lo := max(base, len(text)-10*s.maxCanon)
	rs := canonRegions(text, max(lo, len(text)-s.maxCanon-16), len(text), 0, nil)
	if len(rs) == 0 {
		return hold
	}
	cells := joinSingles(decodeLists(decodeCells(text, lo, len(text), nil), nil), nil)
	end := len(cells)
	if end >= 2 && (cells[end-2].b == '\'' || cells[end-2].b == '"') {
		end -= 2 // a quoted character not closed yet
	}
	for end > 0 && len(cells)-end < 10 && (strings.IndexByte("\\%&#{()+chr0123456789abcdefxu,;:' ", cells[end-1].b) >= 0 || cells[end-1].b >= 0x80) && (int(cells[end-1].e)-int(cells[end-1].s) == 1 || cells[end-1].b == '%') {
		end--
	}
	view := make([]byte, end)
	for k := range view {
		view[k] = cells[k].b
	}
	if p := s.canonPrefixAt(string(view), 0, len(view)); p < len(view) {
		return min(hold, max(base, int(cells[p].s)))
	}
	return hold
}

// canonTail is where text, from base on and before hold, may end in the
// middle of a canonical form matched against the folded text (a value
// upper-cased, reversed or in rot13): the earliest such suffix's start,
// or hold. A form that needs decoding is held by decodedTail.
func (s *Set) canonTail(text string, base, hold int) int {
	if len(s.canon) == 0 {
		return hold
	}
	return s.canonPrefixAt(text, base, hold)
}

// canonPrefixAt is the earliest position from base on, before hold, where
// a suffix of text (folded) starts that is a proper prefix of a canonical
// form, or hold.
func (s *Set) canonPrefixAt(text string, base, hold int) int {
	if len(s.canonFirst) == 0 {
		// Grouped by the first key's high byte, by counting.
		s.canonFirstGroups = [257]int32{}
		for _, e := range s.canon {
			s.canonFirstGroups[e.first>>8+1]++
		}
		for b := 1; b < len(s.canonFirstGroups); b++ {
			s.canonFirstGroups[b] += s.canonFirstGroups[b-1]
		}
		s.canonFirst = make([]int32, len(s.canon))
		next := s.canonFirstGroups
		for i, e := range s.canon {
			s.canonFirst[next[e.first>>8]] = int32(i)
			next[e.first>>8]++
		}
	}
	for p := max(base, len(text)-s.maxCanon+1); p < hold; p++ {
		rest := text[p:]
		if len(rest) >= 2 {
			k := pairKey(rest[0], rest[1])
			for _, j := range s.canonFirst[s.canonFirstGroups[k>>8]:s.canonFirstGroups[k>>8+1]] {
				if e := &s.canon[j]; e.first == k && int(e.n) > len(rest) && s.canonEqual(rest, e) {
					return p
				}
			}
			continue
		}
		for idx := range s.canon {
			e := &s.canon[idx]
			if foldByte(rest[0]) == canonByte(s.canonSource(e), e, 0) {
				return p
			}
		}
	}
	return hold
}

// hint adds text[a:b] to the parts canonRegions looks at.
func (s *Set) hint(a, b int) {
	a = max(a, 0)
	if n := len(s.hints); n > 0 && a <= s.hints[n-1][1] && a >= s.hints[n-1][0] {
		s.hints[n-1][1] = max(s.hints[n-1][1], b)
		return
	}
	s.hints = append(s.hints, [2]int{a, b})
}

// sampleClass counts, one byte each, what sampleHints looks for in 8
// bytes: escape syntax (%, \\, &), commas, separators and quotes, colons,
// ')' and '+'. A literal table: hook packages compute nothing at start-up.
var sampleClass = [256]uint64{
	'%': 1, '\\': 1, '&': 1,
	',': 1<<8 | 1<<16, ' ': 1 << 16, '\'': 1 << 16, '"': 1 << 16,
	':': 1 << 24, ')': 1 << 32, '+': 1 << 40,
}

// highs is the high bit of each of 8 bytes: a byte above ASCII.
const highs = 0x8080808080808080

// sampleHints calls hint around every 16th byte of text from lo on whose
// 8 bytes look like part of a spelling that needs decoding: escape syntax
// (% \ &), a byte above ASCII (a zero-width character), four separators
// or quotes (a,c,k,x; 'a', 'c'), two colons (61:63:6b), two commas
// (97,99,107), or ')' and '+' (chr(97)+chr(99)), and where a scan of
// those 8 bytes (canonRegions) confirms something decodes. A spelling of
// a whole value of at least CanonMinLen bytes with one of these in every
// character is at least 23 bytes long, so it holds one of the 8-byte
// words looked at.
func sampleHints(text string, lo int, hint func(a, b int)) {
	for i := lo; i+8 <= len(text); i += 16 {
		t := text[i : i+8]
		// One counter a byte (sampleClass): escape syntax, commas,
		// separators and quotes, colons, ')' and '+'.
		acc := sampleClass[t[0]] + sampleClass[t[1]] + sampleClass[t[2]] + sampleClass[t[3]] +
			sampleClass[t[4]] + sampleClass[t[5]] + sampleClass[t[6]] + sampleClass[t[7]]
		if acc == 0 && le64(t)&highs == 0 {
			continue
		}
		if (le64(t)&highs != 0 || acc&0xff != 0 || acc>>8&0xff >= 2 || acc>>16&0xff >= 4 || acc>>24&0xff >= 2 || acc>>32&0xff != 0 && acc>>40&0xff != 0) &&
			len(canonRegions(text, i, i+8, 0, nil)) > 0 { // and something there to decode
			hint(i-24, i+32)
		}
	}
	// The end, which no full word covers.
	if t := max(lo, len(text)-16); t < len(text) {
		if strings.ContainsAny(text[t:], "%\\&,:'\"+") || !isASCII(text[t:]) {
			hint(t-24, len(text))
		}
	}
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

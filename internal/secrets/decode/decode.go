// Package decode is the streaming redactor's view of encoded text: the
// decoding passes of gitleaks v8.30.1 (detect/codec: encodings.go,
// decoder.go, base64.go, hex.go, percent.go, unicode.go, ascii.go; MIT
// licence, Copyright (c) 2019 Zachary Rice), without importing gitleaks.
//
// The redactor runs once per streamed chunk and must not pay gitleaks'
// start-up (with the release's RE2 build, ~0.28 s): it decodes to see
// whether a rule keyword hides in an encoded run, to hold the text back and
// ask the scanner process, whose findings are gitleaks' own. It must decode
// as gitleaks does; TestDecodeMatchesGitleaks compares the two.
package decode

import (
	"bytes"
	"encoding/base64"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gemini-guard/gemini-guard/internal/lazyregexp"
)

// MaxDecodeDepth is how many base64/hex/percent/unicode decoding passes a
// scan makes, the gitleaks command line's default (--max-decode-depth 5).
const MaxDecodeDepth = 5

// Encoding kinds, or'd together when a segment was decoded several times.
const (
	percentKind = 1 << iota
	unicodeKind
	hexKind
	base64Kind
)

// encoding is one decodable format. Order matters: it is gitleaks'
// precedence order (earlier wins when two matches overlap).
type encoding struct {
	kind       int
	pattern    string
	decode     func(string) string
	precedence int
}

var encodings = []encoding{
	{kind: percentKind, pattern: `%[0-9A-Fa-f]{2}(?:.*%[0-9A-Fa-f]{2})?`, decode: decodePercent, precedence: 4},
	{kind: unicodeKind, pattern: `(?:(?:U\+[a-fA-F0-9]{4}(?:\s|$))+|(?i)(?:\\{1,2}u[a-fA-F0-9]{4})+)`, decode: decodeUnicode, precedence: 3},
	{kind: hexKind, pattern: `[0-9A-Fa-f]{32,}`, decode: decodeHex, precedence: 2},
	{kind: base64Kind, pattern: `[\w\/+-]{16,}={0,2}`, decode: decodeBase64, precedence: 1},
}

// encodingNames maps a kind's bit index to its gitleaks name.
var encodingNames = []string{"percent", "unicode", "hex", "base64"}

// KindNames returns the names of the encodings or'd into kinds, in gitleaks'
// order (percent, unicode, hex, base64).
func KindNames(kinds int) []string {
	var names []string
	for i, n := range encodingNames {
		if kinds&(1<<i) != 0 {
			names = append(names, n)
		}
	}
	return names
}

// Span is a half-open byte range [Start, End).
type Span struct{ Start, End int }

func (s Span) overlaps(o Span) bool { return o.Start <= s.End && o.End >= s.Start }
func (s Span) contains(o Span) bool { return s.Start <= o.Start && o.End <= s.End }
func (s Span) merge(o Span) Span    { return Span{min(s.Start, o.Start), max(s.End, o.End)} }
func (s Span) sub(o Span) Span      { return Span{s.Start - o.Start, s.End - o.End} }
func (s Span) add(o Span) Span      { return Span{s.Start + o.Start, s.End + o.End} }
func (s Span) overflow(o Span) Span { return s.merge(o).sub(s) }

// Segment is one decoded run of one decoding pass, as gitleaks'
// codec.EncodedSegment.
type Segment struct {
	predecessors []*Segment
	// Original is the span in the scanned text before any decoding.
	Original Span
	// Encoded is the span in the previous pass's text.
	Encoded Span
	// Decoded is the span of the decoded value in this pass's text.
	Decoded Span
	Value   string
	// Kinds are the encodings that produced the value (or'd kind bits).
	Kinds int
	// Depth is the number of passes it took.
	Depth int
}

// Decoder decodes in passes, remembering values it has decoded before. The
// zero value is not usable: use NewDecoder.
type Decoder struct {
	cache map[string]string
}

// NewDecoder returns a decoder for one scan.
func NewDecoder() *Decoder { return &Decoder{cache: make(map[string]string)} }

// Decode makes one decoding pass over data, whose segments from the previous
// pass are predecessors. It returns the text with every decodable run
// replaced by its value, and the segments; no segments means nothing was
// decoded and data is returned unchanged.
func (d *Decoder) Decode(data string, predecessors []*Segment) (string, []*Segment) {
	segments := d.findSegments(data, predecessors)
	if len(segments) == 0 {
		return data, segments
	}
	var b strings.Builder
	b.Grow(len(data))
	from := 0
	for _, s := range segments {
		b.WriteString(data[from:s.Encoded.Start])
		b.WriteString(s.Value)
		from = s.Encoded.End
	}
	b.WriteString(data[from:])
	return b.String(), segments
}

func (d *Decoder) findSegments(data string, predecessors []*Segment) []*Segment {
	if len(data) == 0 || !mayBeEncoded(data) {
		return nil
	}
	shift := 0
	matches := findEncodingMatches(data)
	segments := make([]*Segment, 0, len(matches))
	for _, m := range matches {
		encoded := data[m.span.Start:m.span.End]
		decoded, ok := d.cache[encoded]
		if !ok {
			decoded = encodings[m.enc].decode(encoded)
			d.cache[encoded] = decoded
		}
		if len(decoded) == 0 {
			continue
		}
		s := &Segment{
			predecessors: predecessors,
			Original:     toOriginal(predecessors, m.span),
			Encoded:      m.span,
			Decoded:      Span{m.span.Start + shift, m.span.Start + shift + len(decoded)},
			Value:        decoded,
			Kinds:        encodings[m.enc].kind,
			Depth:        1,
		}
		shift += len(decoded) - len(encoded)
		if len(predecessors) != 0 {
			s.Depth = 1 + predecessors[0].Depth
			for _, p := range predecessors {
				if s.Encoded.overlaps(p.Decoded) {
					s.Kinds |= p.Kinds
				}
			}
		}
		segments = append(segments, s)
	}
	return segments
}

// mayBeEncoded is a cheap necessary condition for findEncodingMatches to
// find anything: a '%', a "U+" or "\u"/"\U", or a run of at least 16
// base64/hex characters. It saves running the combined regexp over text
// that has none (most prose and short chunks).
func mayBeEncoded(data string) bool {
	run := 0
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch {
		case c == '%':
			return true
		case c == '+' && i > 0 && data[i-1] == 'U':
			return true
		case (c == 'u' || c == 'U') && i > 0 && data[i-1] == '\\':
			return true
		}
		if IsBase64Char(c) {
			run++
			if run >= 16 {
				return true
			}
		} else {
			run = 0
		}
	}
	return false
}

// IsBase64Char reports whether c is in either base64 alphabet, standard
// or URL-safe (hex digits are too): a lookup in charClass, as the callers
// read every byte of a text.
func IsBase64Char(c byte) bool { return charClass[c]&classBase64 != 0 }

type encodingMatch struct {
	enc  int
	span Span
}

func findEncodingMatches(data string) []encodingMatch {
	all := scanEncodings(data)
	if len(all) == 1 {
		return all
	}
	// Drop lower-precedence matches that overlap their neighbours.
	filtered := make([]encodingMatch, 0, len(all))
	for i, m := range all {
		if i > 0 {
			prev := all[i-1]
			if m.span.overlaps(prev.span) && encodings[prev.enc].precedence > encodings[m.enc].precedence {
				continue
			}
		}
		if i+1 < len(all) {
			next := all[i+1]
			if m.span.overlaps(next.span) && encodings[next.enc].precedence > encodings[m.enc].precedence {
				continue
			}
		}
		filtered = append(filtered, m)
	}
	return filtered
}

// scanEncodings finds the matches of the combined encodings regexp by hand:
// at each position, left to right, the first alternative that matches
// (percent, unicode, hex, base64) wins; the search goes on after it.
//
// Inside a run of base64 characters shorter than 16 from the current
// position, no hex or base64 match can start (their runs would be too
// short) and percent and \u escapes start outside runs, so only a "U+"
// escape can: the scan jumps to the next 'U' or the run's end.
func scanEncodings(data string) []encodingMatch {
	var all []encodingMatch
	hexEnd, b64End := -1, -1 // ends of the runs containing the position
	for i := 0; i < len(data); {
		c := data[i]
		if charClass[c]&classBase64 == 0 {
			switch c {
			case '%':
				if end := matchPercent(data, i); end > 0 {
					all = append(all, encodingMatch{enc: 0, span: Span{i, end}})
					i = end
					continue
				}
			case '\\':
				if end := matchUnicode(data, i); end > 0 {
					all = append(all, encodingMatch{enc: 1, span: Span{i, end}})
					i = end
					continue
				}
			}
			i++
			continue
		}
		if i >= b64End {
			b64End = i
			for b64End < len(data) && charClass[data[b64End]]&classBase64 != 0 {
				b64End++
			}
		}
		if c == 'U' {
			if end := matchUnicode(data, i); end > 0 {
				all = append(all, encodingMatch{enc: 1, span: Span{i, end}})
				i = end
				continue
			}
		}
		if charClass[c]&classHex != 0 {
			if i >= hexEnd {
				hexEnd = i
				for hexEnd < len(data) && charClass[data[hexEnd]]&classHex != 0 {
					hexEnd++
				}
			}
			if hexEnd-i >= 32 {
				all = append(all, encodingMatch{enc: 2, span: Span{i, hexEnd}})
				i = hexEnd
				continue
			}
		}
		if b64End-i >= 16 {
			end := b64End
			for k := 0; k < 2 && end < len(data) && data[end] == '='; k++ {
				end++
			}
			all = append(all, encodingMatch{enc: 3, span: Span{i, end}})
			i = end
			continue
		}
		if j := strings.IndexByte(data[i+1:b64End], 'U'); j >= 0 {
			i += 1 + j
		} else {
			i = b64End
		}
	}
	return all
}

// Character classes of the encodings patterns.
const (
	classHex    = 1 << iota // [0-9A-Fa-f]
	classBase64             // [\w/+-]
)

// charClass is a literal (TestCharClassTable), so that no hook process
// computes it at start-up.
var charClass = [256]uint8{
	'+': classBase64, '-': classBase64, '/': classBase64, '0': classHex | classBase64,
	'1': classHex | classBase64, '2': classHex | classBase64, '3': classHex | classBase64,
	'4': classHex | classBase64, '5': classHex | classBase64, '6': classHex | classBase64,
	'7': classHex | classBase64, '8': classHex | classBase64, '9': classHex | classBase64,
	'A': classHex | classBase64, 'B': classHex | classBase64, 'C': classHex | classBase64,
	'D': classHex | classBase64, 'E': classHex | classBase64, 'F': classHex | classBase64, 'G': classBase64,
	'H': classBase64, 'I': classBase64, 'J': classBase64, 'K': classBase64, 'L': classBase64, 'M': classBase64,
	'N': classBase64, 'O': classBase64, 'P': classBase64, 'Q': classBase64, 'R': classBase64, 'S': classBase64,
	'T': classBase64, 'U': classBase64, 'V': classBase64, 'W': classBase64, 'X': classBase64, 'Y': classBase64,
	'Z': classBase64, '_': classBase64, 'a': classHex | classBase64, 'b': classHex | classBase64,
	'c': classHex | classBase64, 'd': classHex | classBase64, 'e': classHex | classBase64,
	'f': classHex | classBase64, 'g': classBase64, 'h': classBase64, 'i': classBase64, 'j': classBase64,
	'k': classBase64, 'l': classBase64, 'm': classBase64, 'n': classBase64, 'o': classBase64, 'p': classBase64,
	'q': classBase64, 'r': classBase64, 's': classBase64, 't': classBase64, 'u': classBase64, 'v': classBase64,
	'w': classBase64, 'x': classBase64, 'y': classBase64, 'z': classBase64,
}

func isHex(c byte) bool { return unhex(c) != 0xff }

// matchPercent matches %[0-9A-Fa-f]{2}(?:.*%[0-9A-Fa-f]{2})? at i: the
// greedy .* reaches the last %XX before the end of the line.
func matchPercent(s string, i int) int {
	if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
		return 0
	}
	end := i + 3
	lineEnd := len(s)
	if j := strings.IndexByte(s[end:], '\n'); j >= 0 {
		lineEnd = end + j
	}
	for j := lineEnd - 3; j >= end; j-- {
		if s[j] == '%' && isHex(s[j+1]) && isHex(s[j+2]) {
			return j + 3
		}
	}
	return end
}

// matchUnicode matches (?:U\+[a-fA-F0-9]{4}(?:\s|$))+ or, when that does
// not match at i, (?i)(?:\\{1,2}u[a-fA-F0-9]{4})+ at i.
func matchUnicode(s string, i int) int {
	if s[i] == 'U' {
		end := i
		for {
			j := end
			if j+6 > len(s) || s[j] != 'U' || s[j+1] != '+' || !isHex(s[j+2]) || !isHex(s[j+3]) || !isHex(s[j+4]) || !isHex(s[j+5]) {
				break
			}
			j += 6
			if j == len(s) {
				end = j // $ matches; nothing can follow
				break
			}
			if !isSpace(s[j]) {
				break
			}
			end = j + 1
		}
		if end > i {
			return end
		}
		return 0
	}
	end := i
	for {
		j := escapeAt(s, end)
		if j < 0 {
			break
		}
		end = j
	}
	if end > i {
		return end
	}
	return 0
}

// escapeAt matches \\{1,2}u[a-fA-F0-9]{4} (u either case) at i, preferring
// two backslashes as the greedy {1,2} does, and returns its end or -1.
func escapeAt(s string, i int) int {
	for _, n := range []int{2, 1} {
		j := i
		ok := true
		for k := 0; k < n; k++ {
			if j >= len(s) || s[j] != '\\' {
				ok = false
				break
			}
			j++
		}
		if !ok || j+5 > len(s) || (s[j] != 'u' && s[j] != 'U') {
			continue
		}
		if isHex(s[j+1]) && isHex(s[j+2]) && isHex(s[j+3]) && isHex(s[j+4]) {
			return j + 5
		}
	}
	return -1
}

// isSpace is the regexp \s class: [\t\n\f\r ].
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'
}

// SegmentsOverlapping returns the segments whose decoded span overlaps
// [start, end) (touching counts, as in gitleaks).
func SegmentsOverlapping(segments []*Segment, start, end int) []*Segment {
	se := Span{start, end}
	var out []*Segment
	for _, s := range segments {
		if s.Decoded.overlaps(se) {
			out = append(out, s)
		}
	}
	return out
}

// ToOriginal maps a span of the current pass's text back to the scanned text.
func ToOriginal(segments []*Segment, span Span) Span {
	if len(segments) == 0 {
		return span
	}
	return toOriginal(segments, span)
}

func toOriginal(predecessors []*Segment, decoded Span) Span {
	if len(predecessors) == 0 {
		return decoded
	}
	encoded := Span{}
	for _, p := range predecessors {
		if !p.Decoded.overlaps(decoded) {
			continue
		}
		if p.Decoded.contains(decoded) {
			return p.Original
		}
		if encoded.End == 0 {
			encoded = p.Encoded.add(p.Decoded.overflow(decoded))
		} else {
			encoded = encoded.merge(p.Encoded.add(p.Decoded.overflow(decoded)))
		}
	}
	if encoded.End == 0 {
		return decoded
	}
	return toOriginal(predecessors[0].predecessors, encoded)
}

// CurrentLine returns the text from the line start before the segments to
// the line end after them (gitleaks' codec.CurrentLine, including its quirk
// of keeping the leading newline).
func CurrentLine(segments []*Segment, raw string) string {
	if len(segments) == 0 {
		return raw
	}
	start, end := 0, len(raw)
	decoded := segments[0].Decoded
	for _, s := range segments[1:] {
		decoded = decoded.merge(s.Decoded)
	}
	for i := decoded.Start; i > -1; i-- {
		if raw[i] == '\n' {
			start = i
			break
		}
	}
	for i := decoded.End; i < end; i++ {
		if raw[i] == '\n' {
			end = i
			break
		}
	}
	return raw[start:end]
}

// Tags returns gitleaks' decoding tags for segments ("decoded:base64",
// "decode-depth:1").
func Tags(segments []*Segment) []string {
	if len(segments) == 0 {
		return []string{}
	}
	kinds := 0
	for _, s := range segments {
		kinds |= s.Kinds
	}
	tags := []string{}
	for _, n := range KindNames(kinds) {
		tags = append(tags, "decoded:"+n)
	}
	return append(tags, "decode-depth:"+strconv.Itoa(segments[0].Depth))
}

// printable says b is printable ASCII, or a tab or line break.
func printable(b byte) bool { return '\x08' < b && b < '\x7f' }

func isPrintableASCII(b []byte) bool {
	for _, c := range b {
		if !printable(c) {
			return false
		}
	}
	return true
}

func hasByteIn(data, set string) bool { return strings.ContainsAny(data, set) }

func decodeBase64(v string) string {
	if !hasByteIn(v, "0123456789+/-_") {
		return ""
	}
	// Most candidates are long identifiers: their first 4-character
	// quantum already decodes to a byte that is not printable, so the
	// whole value cannot be. Checking that first saves two full decodes
	// and their allocations; the result is the same.
	if len(v)%4 == 0 && printableQuantum(base64.StdEncoding, v) {
		if b, err := base64.StdEncoding.DecodeString(v); err == nil && isPrintableASCII(b) {
			return string(b)
		}
	}
	if len(v)%4 != 1 && !strings.ContainsAny(v, "+/=") && printableQuantum(base64.RawURLEncoding, v) {
		if b, err := base64.RawURLEncoding.DecodeString(v); err == nil && isPrintableASCII(b) {
			return string(b)
		}
	}
	return ""
}

// printableQuantum reports whether the first four characters of v decode
// with enc to printable bytes (false when they do not decode).
func printableQuantum(enc *base64.Encoding, v string) bool {
	if len(v) < 4 {
		return true
	}
	var buf [3]byte
	n, err := enc.Decode(buf[:], []byte(v[:4]))
	if err != nil {
		// "xx==" style padding inside the first quantum: let the full
		// decode decide.
		return true
	}
	return isPrintableASCII(buf[:n])
}

func unhex(c byte) byte {
	switch {
	case '0' <= c && c <= '9':
		return c - '0'
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10
	}
	return 0xff
}

func decodeHex(v string) string {
	if len(v)%2 != 0 || !hasByteIn(v, "0123456789") {
		return ""
	}
	out := make([]byte, len(v)/2)
	for i := 0; i < len(v); i += 2 {
		n1, n2 := unhex(v[i]), unhex(v[i+1])
		if n1|n2 == 0xff {
			return ""
		}
		b := n1<<4 | n2
		if !printable(b) {
			return ""
		}
		out[i/2] = b
	}
	return string(out)
}

func decodePercent(v string) string {
	out := make([]byte, len(v))
	di, ei := 0, 0
	for ei < len(v) {
		if v[ei] == '%' && ei+2 < len(v) {
			n1, n2 := unhex(v[ei+1]), unhex(v[ei+2])
			if n1|n2 != 0xff {
				b := n1<<4 | n2
				if !printable(b) {
					return ""
				}
				out[di] = b
				ei += 3
				di++
				continue
			}
		}
		out[di] = v[ei]
		ei++
		di++
	}
	return string(out[:di])
}

// gitleaks' unicode patterns, compiled on first use (most texts hold no
// escape).
var (
	codePointRe      = &lazyregexp.Regexp{Expr: `U\+([a-fA-F0-9]{4}).?`}
	multiCodePointRe = &lazyregexp.Regexp{Expr: `(?:U\+[a-fA-F0-9]{4}(?:\s|$))+`}
	escapeRe         = &lazyregexp.Regexp{Expr: `(?i)\\{1,2}u([a-fA-F0-9]{4})`}
	multiEscapeRe    = &lazyregexp.Regexp{Expr: `(?i)(?:\\{1,2}u[a-fA-F0-9]{4})+`}
)

func decodeUnicode(v string) string {
	if matches := multiCodePointRe.Get().FindAllString(v, -1); len(matches) > 0 {
		for _, m := range matches {
			if d := decodeMultiCodePoint(m); d != "" && d != m {
				v = strings.Replace(v, m, d, 1)
			}
		}
		return v
	}
	if matches := multiEscapeRe.Get().FindAllString(v, -1); len(matches) > 0 {
		for _, m := range matches {
			if d := decodeMultiEscape(m); d != "" && d != m {
				v = strings.Replace(v, m, d, 1)
			}
		}
		return v
	}
	data := []byte(v)
	var result []byte
	if codePointRe.Get().Match(data) {
		result = decodeIndividualCodePoints(data)
	}
	if len(result) == 0 || escapeRe.Get().Match(data) {
		if len(result) > 0 {
			result = decodeIndividualEscapes(result)
		} else {
			result = decodeIndividualEscapes(data)
		}
	}
	if len(result) == 0 || bytes.Equal(result, data) {
		return v
	}
	return string(result)
}

func decodeMultiCodePoint(seq string) string {
	if seq == "" {
		return ""
	}
	cps := strings.Fields(seq)
	if len(cps) == 0 {
		return seq
	}
	var runes []rune
	for _, cp := range cps {
		if !strings.HasPrefix(cp, "U+") || len(cp) < 6 {
			continue
		}
		n, err := strconv.ParseInt(cp[2:], 16, 32)
		if err != nil {
			continue
		}
		runes = append(runes, rune(n))
	}
	if len(runes) == 0 {
		return seq
	}
	return string(runes)
}

func decodeMultiEscape(seq string) string {
	if seq == "" {
		return ""
	}
	escapes := escapeRe.Get().FindAllStringSubmatch(seq, -1)
	if len(escapes) == 0 {
		return seq
	}
	var runes []rune
	for _, e := range escapes {
		n, err := strconv.ParseInt(e[1], 16, 32)
		if err != nil {
			continue
		}
		runes = append(runes, rune(n))
	}
	if len(runes) == 0 {
		return seq
	}
	return string(runes)
}

// decodeIndividualCodePoints and decodeIndividualEscapes modify input in
// place, as gitleaks' versions do (the caller's data slice may change).
func decodeIndividualCodePoints(input []byte) []byte {
	indices := codePointRe.Get().FindAllSubmatchIndex(input, -1)
	if len(indices) == 0 {
		return input
	}
	buf := make([]byte, utf8.UTFMax)
	for i := len(indices) - 1; i >= 0; i-- {
		m := indices[i]
		start, end, hs, he := m[0], m[1], m[2], m[3]
		if end != he && end < len(input) && input[end-1] == ' ' {
			end--
		}
		n, err := strconv.ParseInt(string(input[hs:he]), 16, 32)
		if err != nil {
			continue
		}
		l := utf8.EncodeRune(buf, rune(n))
		input = append(input[:start], append(buf[:l], input[end:]...)...)
	}
	return input
}

func decodeIndividualEscapes(input []byte) []byte {
	indices := escapeRe.Get().FindAllSubmatchIndex(input, -1)
	if len(indices) == 0 {
		return input
	}
	buf := make([]byte, utf8.UTFMax)
	for i := len(indices) - 1; i >= 0; i-- {
		m := indices[i]
		start, hs, end := m[0], m[2], m[3]
		n, err := strconv.ParseInt(string(input[hs:end]), 16, 32)
		if err != nil {
			continue
		}
		l := utf8.EncodeRune(buf, rune(n))
		input = append(input[:start], append(buf[:l], input[end:]...)...)
	}
	return input
}

package known

import (
	"encoding/base64"
	"strings"
)

// Forms are the texts a value may appear as, the value first: itself; its
// base64 in both alphabets at each of the three alignments it can have
// inside a longer encoded text (only the characters that depend on the
// value alone, as CI systems mask a secret's base64); URL-encoded; hex in
// both cases; JSON-escaped; shell-escaped (single-quoted, double-quoted,
// backslashed). Each form is at least MinLen bytes; duplicates are left
// out.
func Forms(value string) []string {
	out := make([]string, 1, 12)
	out[0] = value
	add := func(f string) {
		if len(f) < MinLen {
			return
		}
		for _, x := range out {
			if x == f {
				return
			}
		}
		out = append(out, f)
	}
	// One buffer of two zero bytes and the value serves the three
	// alignments (a process builds the forms of every known value).
	buf := make([]byte, 2+len(value))
	copy(buf[2:], value)
	for align := 0; align < 3; align++ {
		std := base64Interior(buf[2-align:], align)
		add(std)
		if strings.ContainsAny(std, "+/") {
			add(urlAlphabet(std))
		}
	}
	// The escapes below change only values with special bytes; most
	// tokens have none, and skip them.
	if special(value) {
		add(percentEncode(value, ""))
		add(strings.ReplaceAll(percentEncode(value, ""), "%20", "+")) // form encoding
		add(percentEncode(value, "$&+,:;=@"))                         // a URL path segment (Go's url.PathEscape)
		add(percentEncode(value, "!'()*"))                            // JavaScript's encodeURIComponent
		add(jsonEscape(value, false))
		add(jsonEscape(value, true))
		if strings.Contains(value, "'") {
			add(strings.ReplaceAll(value, "'", `'\''`))
		}
		add(backslash(value, "\"\\$`"))
		add(backslash(value, " \t!\"#$&'()*,;<>?[\\]^`{|}~"))
	}
	add(hexString(buf[2:], lowerHex))
	add(hexString(buf[2:], upperHex))
	return out
}

// The digits of the two hex forms.
const lowerHex, upperHex = "0123456789abcdef", "0123456789ABCDEF"

// hexString is b in hex with the given digits (both cases are forms: two
// encodings cost less than upper-casing a copy).
func hexString(b []byte, digits string) string {
	out := make([]byte, 2*len(b))
	for i, c := range b {
		out[2*i], out[2*i+1] = digits[c>>4], digits[c&15]
	}
	return string(out)
}

// urlAlphabet is standard base64 in the URL alphabet. By hand, not with a
// strings.Replacer: a process builds the forms of every known value, and
// making a replacer for each cost more than the encodings.
func urlAlphabet(std string) string {
	b := []byte(std)
	toURLAlphabet(b)
	return string(b)
}

// toURLAlphabet turns standard base64 in b into the URL alphabet, in
// place, and reports whether that changed b.
func toURLAlphabet(b []byte) (changed bool) {
	for i, c := range b {
		switch c {
		case '+':
			b[i], changed = '-', true
		case '/':
			b[i], changed = '_', true
		}
	}
	return changed
}

// special reports whether s holds a byte that a URL, JSON or shell escapes
// (anything but letters, digits, '-', '.', '_' and '~').
func special(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~') {
			return true
		}
	}
	return false
}

// base64Interior is the part of buf's base64 (standard alphabet) that
// depends on the value alone, when buf is align zero bytes then the value:
// the value starting align bytes after a multiple of 3 in an encoded text.
func base64Interior(buf []byte, align int) string {
	s := base64.StdEncoding.EncodeToString(buf)
	from := interiorFrom(align)
	to := 8 * len(buf) / 6
	if to <= from || to > len(s) {
		return ""
	}
	return s[from:to]
}

// interiorFrom is where the interior starts in the base64 of align zero
// bytes then a value: the first character of the value's bytes alone.
func interiorFrom(align int) int { return (8*align + 5) / 6 }

// percentEncode escapes every byte but the unreserved ones (RFC 3986) and
// those in keep, as URL query and path encoders do for a credential's
// special characters.
func percentEncode(s, keep string) string {
	const hexDigits = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~' || strings.IndexByte(keep, c) >= 0 {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hexDigits[c>>4])
		b.WriteByte(hexDigits[c&15])
	}
	return b.String()
}

// jsonEscape is s inside a JSON string (without quotes); html also escapes
// <, > and & as encoding/json does by default.
func jsonEscape(s string, html bool) string {
	const hexDigits = "0123456789abcdef"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\t':
			b.WriteString(`\t`)
		case c == '\r':
			b.WriteString(`\r`)
		case c < 0x20 || html && (c == '<' || c == '>' || c == '&'):
			b.WriteString(`\u00`)
			b.WriteByte(hexDigits[c>>4])
			b.WriteByte(hexDigits[c&15])
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// backslash puts a backslash before every byte of s that is in special.
func backslash(s, special string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(special, s[i]) >= 0 {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

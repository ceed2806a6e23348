// Package knowntest is test support for the known values: the spellings
// of a value an agent writes by hand (issue 38).
package knowntest

import (
	"fmt"
	"strings"
)

// Spellings are the ways issue 38's attacker wrote a value out without a
// tool, by name, made byte by byte with fmt and strings (independent of
// the known package's decoder): the canonical view must find each of
// them in a value of at least known.CanonMinLen bytes.
func Spellings(v string) map[string]string {
	each := func(f func(c byte) string, sep string) string {
		parts := make([]string, len(v))
		for i := 0; i < len(v); i++ {
			parts[i] = f(v[i])
		}
		return strings.Join(parts, sep)
	}
	rev := []byte(v)
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	rot := []byte(v)
	for i, c := range rot {
		switch {
		case 'a' <= c && c <= 'z':
			rot[i] = 'a' + (c-'a'+13)%26
		case 'A' <= c && c <= 'Z':
			rot[i] = 'A' + (c-'A'+13)%26
		}
	}
	named := map[byte]string{'!': "&excl;", '#': "&num;", '%': "&percnt;", '+': "&plus;", '_': "&lowbar;", '&': "&amp;", '"': "&quot;", '\'': "&apos;", '@': "&commat;", '$': "&dollar;", ' ': "&#32;"}
	return map[string]string{
		"upper":          strings.ToUpper(v),
		"lower":          strings.ToLower(v),
		"reversed":       string(rev),
		"rot13":          string(rot),
		"percent lower":  each(func(c byte) string { return fmt.Sprintf("%%%02x", c) }, ""),
		"percent twice":  each(func(c byte) string { return fmt.Sprintf("%%25%02X", c) }, ""),
		"\\u each":       each(func(c byte) string { return fmt.Sprintf(`\u%04x`, c) }, ""),
		"\\u{} each":     each(func(c byte) string { return fmt.Sprintf(`\u{%x}`, c) }, ""),
		"&#dec;":         each(func(c byte) string { return fmt.Sprintf("&#%d;", c) }, ""),
		"&#xhex;":        each(func(c byte) string { return fmt.Sprintf("&#x%x;", c) }, ""),
		"named entities": each(func(c byte) string { return cond(named[c] != "", named[c], cond(c == '-', "&#45;", string(c))) }, ""),
		"octal":          each(func(c byte) string { return fmt.Sprintf(`\%03o`, c) }, ""),
		"decimal list":   "[" + each(func(c byte) string { return fmt.Sprint(c) }, ", ") + "]",
		"decimal tight":  "bytes([" + each(func(c byte) string { return fmt.Sprint(c) }, ",") + "])",
		"chr()":          each(func(c byte) string { return fmt.Sprintf("chr(%d)", c) }, "+"),
		"fromCharCode":   "String.fromCharCode(" + each(func(c byte) string { return fmt.Sprint(c) }, ", ") + ")",
		"hex colons":     each(func(c byte) string { return fmt.Sprintf("%02x", c) }, ":"),
		"\\x each":       each(func(c byte) string { return fmt.Sprintf(`\x%02x`, c) }, ""),
		"0x list":        each(func(c byte) string { return fmt.Sprintf("0x%02x", c) }, ","),
		"0x list spaced": "{" + each(func(c byte) string { return fmt.Sprintf("0x%02X", c) }, ", ") + "}",
		"commas":         each(func(c byte) string { return string(c) }, ","),
		"spaces":         each(func(c byte) string { return string(c) }, " "),
		"comma space":    each(func(c byte) string { return string(c) }, ", "),
		"quoted chars":   "[" + each(func(c byte) string { return "'" + string(c) + "'" }, ", ") + "]",
		"zero width":     each(func(c byte) string { return string(c) }, "\u200b"),
		"zero width j":   each(func(c byte) string { return string(c) }, "\u200d"),
		"specials %xx":   each(func(c byte) string { return cond(alnum(c), string(c), fmt.Sprintf("%%%02x", c)) }, ""),
		"upper, \\x":     each(func(c byte) string { return cond(alnum(c), strings.ToUpper(string(c)), fmt.Sprintf(`\x%02x`, c)) }, ""),
		"specials &#;":   each(func(c byte) string { return cond(alnum(c), string(c), fmt.Sprintf("&#%d;", c)) }, ""),
	}
}

func cond[T any](c bool, a, b T) T {
	if c {
		return a
	}
	return b
}

func alnum(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

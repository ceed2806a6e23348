package known

import (
	"sync"

	"github.com/gemini-guard/gemini-guard/internal/secrets/keyname"
)

// MinLen is the shortest value the guard tracks: shorter values would
// mark ordinary words all over a text (the stream redactor's rule for
// copies of found secrets is the same).
const MinLen = 8

// SecretName reports whether an environment variable's name says it holds
// a secret (keyname.SecretName: the one list the guard keeps).
func SecretName(name string) bool { return keyname.SecretName(name) }

// secretNameUpper is SecretName of a name already in upper case.
func secretNameUpper(up string) bool { return keyname.SecretNameUpper(up) }

// SecretKey reports whether a key in a credential, configuration or .env
// file names a secret (keyname.SecretKey).
func SecretKey(key string) bool { return keyname.SecretKey(key) }

// placeholders are parts of values that stand for a secret, not one.
var placeholders = []string{"changeme", "change_me", "change-me", "your_", "your-", "yourpassword", "yourtoken", "placeholder", "example", "xxxxxx", "******", "<", "${", "{{", "redacted", "dummy"}

// Ordinary reports whether value is ordinary text rather than a secret
// worth tracking: Untracked of the value without its key's name.
func Ordinary(value string) bool { return Untracked(Value{Text: value}) != "" }

// holdsPlaceholder reports whether value holds a placeholder in any case:
// one pass over value, comparing only the placeholders that start with
// the byte at hand (a hook process checks every known value, and one
// search per placeholder cost it more).
func holdsPlaceholder(value string) bool {
	for i := 0; i < len(value); i++ {
		for _, p := range placeholdersByFirst(lower(value[i])) {
			if hasLowerPrefix(value[i:], p) {
				return true
			}
		}
	}
	return false
}

// placeholdersByFirst is the placeholders that start with c. The index
// is made on first use: a call that knows no value never needs it, and no
// hook process builds it at start-up.
func placeholdersByFirst(c byte) []string {
	indexPlaceholders.Do(func() {
		for _, p := range placeholders {
			placeholdersIndex[p[0]] = append(placeholdersIndex[p[0]], p)
		}
	})
	return placeholdersIndex[c]
}

var (
	indexPlaceholders sync.Once
	placeholdersIndex [256][]string
)

// hasLowerPrefix reports whether s, with ASCII letters in lower case,
// starts with p.
func hasLowerPrefix(s, p string) bool {
	if len(s) < len(p) {
		return false
	}
	for j := 0; j < len(p); j++ {
		if lower(s[j]) != p[j] {
			return false
		}
	}
	return true
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// number reports whether s is a number (digits, a sign, a point, an
// exponent, a version's dots).
func number(s string) bool {
	exponents := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == 'e' || c == 'E' {
			exponents++ // one at most: 407e8670e54479 is hex
			continue
		}
		if !(c >= '0' && c <= '9' || c == '.' || c == '-' || c == '+' || c == '_') {
			return false
		}
	}
	return exponents <= 1
}

// word reports whether s looks like one dictionary word: at most 12 ASCII
// letters, all lower case, all upper case, or one capital then lower case.
func word(s string) bool {
	if len(s) > 12 {
		return false
	}
	lower, upper := 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 'a' && c <= 'z':
			lower++
		case c >= 'A' && c <= 'Z':
			upper++
		default:
			return false
		}
	}
	return upper == 0 || lower == 0 || upper == 1 && s[0] >= 'A' && s[0] <= 'Z'
}

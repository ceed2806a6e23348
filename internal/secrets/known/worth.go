package known

import (
	"slices"
	"strings"
)

// Why a value is not tracked (Untracked): short phrases for session start
// and the docs' table.
const (
	WhyShort       = "shorter than 8 bytes"
	WhyWord        = "an ordinary word (a boolean, a number, a single word)"
	WhyPath        = "a path or a URL"
	WhyPlaceholder = "a placeholder"
	WhyRun         = "a run of the alphabet, the digits or a keyboard row"
	WhyLowEntropy  = "too few different characters (under 2 bits each)"
	WhyExample     = "a documentation example"
	WhyPassword    = "a common password"
	WhyWordDigits  = "one word with digits or signs around it"
	WhyKeyName     = "a key name (its own, or a secret's)"
)

// Untracked says why v is not worth tracking, or "" when it is. The cut
// (docs/secrets.md, "What is not tracked"): shorter than MinLen; a
// boolean, a number or one word; a path or a URL; a placeholder; a run of
// the alphabet, the digits or a keyboard row with at most a few breaks
// (abcdefghijklmnop, 0123456789abcdef); too few different characters; a
// documentation example (keyboard cat); a common password, also with
// digits or signs around it and digits for letters (password123,
// p@ssw0rd!); one word with digits or signs around it (Summer2024!); the
// value's own key name or a secret's key name (DB_PASSWORD=db_password,
// redis-password). A value that passes all of these is tracked, and so is
// any piece of it (Pieces).
func Untracked(v Value) string {
	t := v.Text
	switch {
	case len(t) < MinLen:
		return WhyShort
	case boolean(t) || number(t) || word(t):
		return WhyWord
	case pathOrURL(t):
		return WhyPath
	case holdsPlaceholder(t):
		return WhyPlaceholder
	}
	return weak(t, v.Key)
}

// weak is Untracked's checks of what a weak secret looks like.
func weak(t, key string) string {
	switch {
	case run(t):
		return WhyRun
	case lowEntropy(t):
		return WhyLowEntropy
	case docExample(t):
		return WhyExample
	case commonPassword(t):
		return WhyPassword
	case wordWithDigits(t):
		return WhyWordDigits
	case keyName(t, key):
		return WhyKeyName
	}
	return ""
}

func boolean(t string) bool {
	for _, w := range []string{"true", "false", "enabled", "disabled", "yes", "no", "on", "off", "null", "none", "undefined"} {
		if strings.EqualFold(t, w) {
			return true
		}
	}
	return false
}

func pathOrURL(t string) bool {
	return strings.HasPrefix(t, "/") || strings.HasPrefix(t, "~/") || strings.HasPrefix(t, "./") || strings.HasPrefix(t, "../") ||
		len(t) > 2 && t[1] == ':' && (t[2] == '\\' || t[2] == '/') || strings.Contains(t, "://")
}

// run reports whether t is a few runs of sequences (or repeated bytes)
// end to end: at most max(2, len/5) places where the next byte does not
// follow. abcdefghijklmnop has none, 0123456789abcdef one.
func run(t string) bool {
	most := max(2, len(t)/5)
	for i, breaks := 1, 0; i < len(t); i++ {
		if !follows(lower(t[i-1]), lower(t[i])) {
			if breaks++; breaks > most {
				return false // a random value stops here within a few bytes
			}
		}
	}
	return true
}

// follows reports whether b comes next to a, either way, in the alphabet,
// the digits (0 after 9, as on a keyboard), a keyboard row or the shifted
// digit row, or repeats it: letters and digits by their codes, the rows
// by a search of ten bytes (run is called for every value a hook process
// knows).
func follows(a, b byte) bool {
	d := int(a) - int(b)
	switch {
	case a == b:
		return true
	case letter(a) && letter(b):
		k := int(keyboard[a-'a']) - int(keyboard[b-'a'])
		return d == 1 || d == -1 || k == 1 || k == -1
	case digit(a) && digit(b):
		return d == 1 || d == -1 || d == 9 || d == -9
	case letter(a) || letter(b) || digit(a) || digit(b):
		return false
	}
	return adjacentIn(a, b, "!@#$%^&*()")
}

// keyboard is each letter's place on a QWERTY keyboard, row·16 + column
// (qwertyuiop, asdfghjkl, zxcvbnm): two letters are next to each other in
// a row when their places differ by one (TestKeyboardTable).
const keyboard = "\x10\x24\x22\x12\x02\x13\x14\x15\x07\x16\x17\x18\x26\x25\x08\x09\x00\x03\x11\x04\x06\x23\x01\x21\x05\x20"

func letter(c byte) bool { return 'a' <= c && c <= 'z' }
func digit(c byte) bool  { return '0' <= c && c <= '9' }

// adjacentIn reports whether a and b are next to each other in row.
func adjacentIn(a, b byte, row string) bool {
	i := strings.IndexByte(row, a)
	if i < 0 {
		return false
	}
	return i > 0 && row[i-1] == b || i+1 < len(row) && row[i+1] == b
}

// lowEntropy reports whether t's bytes have under 2 bits of collision
// entropy (Rényi's of order 2: -log2 of the chance that two bytes drawn
// from t are equal; never above Shannon's) per byte: the sum of the
// squares of their counts is above n²/4. No logarithm.
func lowEntropy(t string) bool {
	var counts [256]int32
	sum := 0
	for i := 0; i < len(t); i++ {
		c := &counts[t[i]]
		sum += 2*int(*c) + 1
		*c++
	}
	return 4*sum > len(t)*len(t)
}

// folded is t with ASCII letters in lower case and space, '-', '_' and '.'
// dropped: the form a list entry is compared in.
func folded(t string) string {
	b := make([]byte, 0, len(t))
	for i := 0; i < len(t); i++ {
		if !dropped(t[i]) {
			b = append(b, lower(t[i]))
		}
	}
	return string(b)
}

// docExample reports whether t is a secret that well-known documentation
// shows as a sample (folded): express-session's "keyboard cat", the
// Docker images' postgres and mysql passwords, xkcd's horse, Java's
// keystore default, Google's P12 key password, Stripe's docs test key.
func docExample(t string) bool {
	if len(t) > 40 {
		return false
	}
	switch folded(t) {
	case "keyboardcat", "mysecretpassword", "mysecretpw", "supersecret", "supersecretkey", "supersecretpassword",
		"topsecret", "notasecret", "secretkey", "mysecret", "mysecretkey", "thisisasecret", "thisismysecret",
		"correcthorsebatterystaple", "changeit", "secretpassword", "sktest4ec39hqlyjwdarjtt1zdp7dc":
		return true
	}
	return false
}

// commonWord reports whether w (lower case) is on the list of the most
// common password words.
func commonWord(w string) bool {
	switch w {
	case "password", "passwd", "pass", "letmein", "qwerty", "qwertz", "azerty", "hunter", "admin", "administrator", "root", "toor",
		"welcome", "monkey", "dragon", "iloveyou", "trustno", "sunshine", "princess", "football", "baseball", "master", "shadow",
		"superman", "batman", "starwars", "secret", "guest", "default", "login", "test", "tester", "testing", "abc", "access",
		"whatever", "freedom", "user", "demo", "qazwsx", "zaq", "asdf", "hello", "love", "god", "changeme":
		return true
	}
	return false
}

// commonPassword reports whether t is a common password word, or two,
// with digits or signs around it and digits or signs for letters
// (password123, P@ssw0rd!, adminadmin, trustno1).
func commonPassword(t string) bool {
	trimmed := strings.TrimFunc(t, notLetter)
	if len(trimmed) > 2*len("administrator") {
		return false
	}
	core := []byte(trimmed)
	for i, c := range core {
		switch c = lower(c); c {
		case '0':
			core[i] = 'o'
		case '1', '!':
			core[i] = 'i'
		case '3':
			core[i] = 'e'
		case '4', '@':
			core[i] = 'a'
		case '5', '$':
			core[i] = 's'
		case '7':
			core[i] = 't'
		default:
			core[i] = c
		}
	}
	w := string(core)
	if commonWord(w) {
		return true
	}
	for i := 1; i < len(w); i++ {
		if commonWord(w[:i]) && commonWord(w[i:]) {
			return true
		}
	}
	return false
}

func notLetter(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') }

// wordWithDigits reports whether t is one word (word: at most 12 letters
// in one case, or Capitalised) of at least 4 letters and half of t, with
// only digits and signs before and after it (Summer2024!, hello12345).
func wordWithDigits(t string) bool {
	core := strings.TrimFunc(t, notLetter)
	return len(core) >= 4 && 2*len(core) >= len(t) && word(core) && strings.IndexFunc(t[:strings.Index(t, core)], notDigitOrSign) < 0 &&
		strings.IndexFunc(t[strings.Index(t, core)+len(core):], notDigitOrSign) < 0
}

func notDigitOrSign(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r > 0x7e || r <= ' '
}

// equalFolded reports whether a and b are equal once folded (folded),
// without making either.
func equalFolded(a, b string) bool {
	i, j := 0, 0
	for {
		for i < len(a) && dropped(a[i]) {
			i++
		}
		for j < len(b) && dropped(b[j]) {
			j++
		}
		if i == len(a) || j == len(b) {
			return i == len(a) && j == len(b)
		}
		if lower(a[i]) != lower(b[j]) {
			return false
		}
		i++
		j++
	}
}

func dropped(c byte) bool { return c == ' ' || c == '-' || c == '_' || c == '.' }

// keyName reports whether t is its own key's name (DB_PASSWORD=db_password,
// folded) or a key name that SecretKey calls a secret's, made of letters
// and '_', '-', '.' only (redis-password, postgresPassword): a chart's or
// a template's key left as the value.
func keyName(t, key string) bool {
	if key != "" && equalFolded(t, key) {
		return true
	}
	for i := 0; i < len(t); i++ {
		if c := t[i]; notLetter(rune(c)) && c != '_' && c != '-' && c != '.' {
			return false
		}
	}
	return SecretKey(t)
}

// Skip is a secret value left untracked: its source and why, never the
// value.
type Skip struct{ Source, Why string }

// Skipped lists the values of an environment (os.Environ's list) and of
// the files of FromFiles (cwd, home) that Untracked leaves out, each
// value once, in Load's order: session start names them, so that the
// user knows which secrets the guard does not know by value. Not paths
// and URLs (GOOGLE_APPLICATION_CREDENTIALS=/…): they are no secret.
func Skipped(environ []string, cwd, home string) []Skip {
	var out []Skip
	var seen []string
	for _, v := range append(FromFiles(cwd, home), FromEnviron(environ)...) {
		if slices.Contains(seen, v.Text) {
			continue
		}
		seen = append(seen, v.Text)
		if why := Untracked(v); why != "" && why != WhyPath {
			out = append(out, Skip{Source: v.Source, Why: why})
		}
	}
	return out
}

package known

import (
	"strings"
	"sync"
)

// MinLen is the shortest value the guard tracks: shorter values would
// mark ordinary words all over a text (the stream redactor's rule for
// copies of found secrets is the same).
const MinLen = 8

// wellKnown are secret variables whose names the suffix rules miss.
var wellKnown = []string{
	"GITHUB_TOKEN", "GH_TOKEN", "GH_ENTERPRISE_TOKEN", "GITLAB_TOKEN", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN",
	"NPM_TOKEN", "NODE_AUTH_TOKEN", "PYPI_TOKEN", "TWINE_PASSWORD", "DOCKER_PASSWORD", "HF_TOKEN",
	"OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY", "SLACK_BOT_TOKEN",
	"VAULT_TOKEN", "PGPASSWORD", "MYSQL_PWD", "REDIS_PASSWORD", "DATABASE_PASSWORD", "SENTRY_AUTH_TOKEN",
	"TOKEN", "SECRET", "PASSWORD", "PASSWD", "API_KEY", "APIKEY", "ACCESS_TOKEN", "AUTH_TOKEN",
}

// secretSuffixes are the name endings that say a variable holds a secret.
var secretSuffixes = []string{"_TOKEN", "_KEY", "_APIKEY", "_PASSWORD", "_PASSWD", "_PASS", "_PWD", "_CREDENTIALS", "_CREDENTIAL", "_AUTH"}

// notSecretSuffixes are endings of names that match a secret rule but hold
// something public or a reference (a key's id, a public key, a path to a
// key file).
var notSecretSuffixes = []string{"_PUBLIC_KEY", "_PUBLISHABLE_KEY", "_PUB_KEY", "_KEY_ID", "_KEY_PATH", "_KEY_FILE", "_TOKEN_FILE", "_PASSWORD_FILE", "_SECRET_FILE", "_TOKEN_PATH"}

// SecretName reports whether an environment variable's name says it holds
// a secret: a well-known name, a name ending in _TOKEN, _KEY, _API_KEY,
// _PASSWORD, _PASS, _CREDENTIALS, … or holding SECRET; not a public key, a
// key id or a path to a secret file, and not gemini-guard's own settings.
func SecretName(name string) bool { return secretNameUpper(strings.ToUpper(name)) }

// secretNameUpper is SecretName of a name already in upper case.
func secretNameUpper(up string) bool {
	if up == "PWD" || up == "OLDPWD" || strings.HasPrefix(up, "GEMINI_GUARD_") {
		return false
	}
	for _, s := range notSecretSuffixes {
		if strings.HasSuffix(up, s) {
			return false
		}
	}
	for _, w := range wellKnown {
		if up == w {
			return true
		}
	}
	if strings.Contains(up, "SECRET") {
		return true
	}
	for _, s := range secretSuffixes {
		if strings.HasSuffix(up, s) {
			return true
		}
	}
	return false
}

// SecretKey reports whether a key in a credential or .env file names a
// secret: SecretName, or (file formats spell keys in lower or camel case)
// a key holding token, secret, password, passwd, apikey, or ending in
// auth or key (npm's _authToken, docker's auth, aws_secret_access_key).
func SecretKey(key string) bool {
	if SecretName(key) {
		return true
	}
	l := strings.ToLower(key)
	if strings.HasSuffix(l, "_id") || strings.HasSuffix(l, "public_key") || strings.HasSuffix(l, "publickey") ||
		strings.HasSuffix(l, "_file") || strings.HasSuffix(l, "_path") {
		return false
	}
	for _, w := range []string{"token", "secret", "password", "passwd", "apikey", "api_key", "api-key", "credential"} {
		if strings.Contains(l, w) {
			return true
		}
	}
	return l == "auth" || l == "pass" || strings.HasSuffix(l, "_auth") || strings.HasSuffix(l, "_key") || strings.HasSuffix(l, "-key") || strings.HasSuffix(l, "_pass")
}

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

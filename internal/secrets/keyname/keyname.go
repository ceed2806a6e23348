// Package keyname says whether a name or a key names a secret: the one
// list of credential names the guard keeps, shared by the known-values
// reader (internal/secrets/known, in hook processes) and the grammar
// reader (internal/secrets/configcred, in the scanner). It imports
// nothing of the project, so both can use it.
package keyname

import "strings"

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
func SecretName(name string) bool { return SecretNameUpper(strings.ToUpper(name)) }

// SecretNameUpper is SecretName of a name already in upper case.
func SecretNameUpper(up string) bool {
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
// auth or key (npm's _authToken, docker's auth, aws_secret_access_key),
// or pwd in any case (ODBC's PWD; the variable PWD is a directory, but a
// file's key is not a variable).
//
// A key that names something about a secret rather than the secret is not
// one: a word of it (split at _ - . and camelCase) says public (public,
// publishable, pub), or its last word says a location, a kind, a name or a
// measure (url, uri, endpoint, path, file, dir, name, type, id, length,
// ttl, expiry, …), or its first word is max or min (max_tokens,
// min_password_length), names a lookup key (cache_key, sort_key,
// routing_key) or says the secret was transformed (hashed_password,
// encrypted_api_key).
func SecretKey(key string) bool {
	if describesSecret(key) {
		return false
	}
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
	return l == "auth" || l == "pass" || l == "pwd" || strings.HasSuffix(l, "_auth") || strings.HasSuffix(l, "_key") || strings.HasSuffix(l, "-key") || strings.HasSuffix(l, "_pass")
}

// describesSecret reports whether a key names something about a secret
// (where it is, what kind, how long it lives, a public half) rather than
// the secret: see SecretKey.
func describesSecret(key string) bool {
	words := keyWords(key)
	if len(words) < 2 {
		return false
	}
	for _, w := range words {
		switch w {
		case "public", "publishable", "pub", "page", "pagination", "cursor":
			return true
		}
	}
	switch words[0] {
	case "max", "min",
		// a key that finds a record, not one that opens a lock
		"cache", "sort", "partition", "routing", "primary", "foreign", "idempotency", "lookup", "index", "dedup", "ordering",
		// what is left of a secret after a one-way or keyed transform
		"hashed", "encrypted", "salted":
		return true
	}
	switch words[len(words)-1] {
	case "url", "uri", "urls", "endpoint", "host", "path", "file", "dir", "name", "names", "type", "kind", "id", "ids",
		"length", "len", "size", "count", "limit", "ttl", "timeout", "expiry", "expires", "expiration", "lifetime",
		"header", "field", "param", "prefix", "hint", "label", "policy", "mode", "enabled", "required", "format",
		"algorithm", "method", "provider", "location", "env", "var", "ref",
		"hash", "digest", "fingerprint", "checksum", "regex", "pattern", "rule", "rules", "validation", "strength", "complexity":
		return true
	}
	return false
}

// keyWords splits a key into lower-case words at _ - . / : spaces and
// camelCase humps (passwordFile: password, file).
func keyWords(key string) []string {
	var words []string
	start := -1
	flush := func(end int) {
		if start >= 0 && end > start {
			words = append(words, strings.ToLower(key[start:end]))
		}
		start = -1
	}
	for i := 0; i < len(key); i++ {
		c := key[i]
		switch {
		case c >= 'A' && c <= 'Z':
			if start >= 0 && i > 0 && key[i-1] >= 'a' && key[i-1] <= 'z' {
				flush(i)
			}
			if start < 0 {
				start = i
			}
		case c >= 'a' && c <= 'z' || c >= '0' && c <= '9':
			if start < 0 {
				start = i
			}
		default:
			flush(i)
		}
	}
	flush(len(key))
	return words
}

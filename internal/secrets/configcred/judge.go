package configcred

import "strings"

// Why says why a value in a credential position is not a secret ("" for
// a secret).
type Why string

// The reasons a value is not a secret.
const (
	IsSecret    Why = ""
	Reference   Why = "reference"
	Placeholder Why = "placeholder"
	Ciphertext  Why = "ciphertext"
	Location    Why = "location"
	Public      Why = "public"
)

// Secret reports whether a value in a credential position is a secret:
// anything but empty, a reference to a secret kept elsewhere, a
// placeholder, ciphertext, a path or URL (a URL's own password is judged
// where it stands), or a word that means nothing (true, null, none).
// Which characters a value has never decides it.
func Secret(value string) bool { return Judge(value) == IsSecret }

// Judge says why value is not a secret, or IsSecret.
func Judge(value string) Why {
	v := strings.TrimSpace(value)
	switch {
	case len(v) < 4:
		return Placeholder
	case reference(v) || memberChain(v):
		return Reference
	case ciphertext(v):
		return Ciphertext
	case placeholder(v) || periodic(v):
		return Placeholder
	case location(v):
		return Location
	case unsignedJWT(v):
		return Public
	}
	return IsSecret
}

// memberChain reports whether v is a chain of three or more identifiers
// joined by dots (Rails.application.credentials.x, config.db.password): a
// name in a program, not a value.
func memberChain(v string) bool {
	parts := strings.Split(v, ".")
	if len(parts) < 3 { // two parts may be a token's prefix and body (o.kVATN…)
		return false
	}
	for _, p := range parts {
		if p == "" || !(p[0] == '_' || 'a' <= p[0] && p[0] <= 'z' || 'A' <= p[0] && p[0] <= 'Z') {
			return false
		}
		for i := 1; i < len(p); i++ {
			if c := p[i]; !(c == '_' || isAlnum(c)) {
				return false
			}
		}
	}
	return true
}

// periodic reports whether v is one short unit written again and again
// (ab12ab12ab12…): a filler, not a secret.
func periodic(v string) bool {
	for n := 1; n <= 4 && 3*n <= len(v); n++ {
		if strings.Repeat(v[:n], len(v)/n+1)[:len(v)] == v {
			return true
		}
	}
	return false
}

// unsignedJWT reports whether v is a JWT with no signature (alg none):
// it signs nothing.
func unsignedJWT(v string) bool {
	return strings.HasPrefix(v, "eyJ") && strings.HasSuffix(v, ".") && strings.Count(v, ".") == 2
}

// reference reports whether v refers to a value kept elsewhere: ${VAR},
// $VAR, $(cmd), %(name)s, %VAR%, <%= ENV[…] %>, {{ … }}, #{…}, HCL's
// var./local./data., getenv(…), env(…), ENV[…], a secret manager's
// reference.
func reference(v string) bool {
	l := strings.ToLower(v)
	for _, s := range []string{"${", "{{", "<%", "%(", "#{", "getenv(", "env(", "env[", "env.fetch", "process.env", "os.environ",
		"secretsmanager:", "ssm:", "keyvault", "vault(", "lookup(", "file(", "secret("} {
		if strings.Contains(l, s) {
			return true
		}
	}
	if v[0] == '$' && len(v) > 1 && (identStart(v[1]) || v[1] == '(') {
		return true
	}
	if v[0] == '%' && v[len(v)-1] == '%' {
		return true
	}
	for _, p := range []string{"var.", "local.", "data.", "module.", "env.", "secrets.", "vars.", "!ref", "@microsoft.keyvault", "op://", "vault:"} {
		if strings.HasPrefix(l, p) {
			return true
		}
	}
	return false
}

func identStart(c byte) bool {
	return c == '_' || c == '{' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// placeholder reports whether v stands for a secret: changeme, your-…,
// <…>, xxx…, ***, example…, a word like password or secret on its own, a
// password documentation prints. Only words no generated or chosen secret
// holds by chance count anywhere in v (xxx and *** runs, an ellipsis);
// the shorter words (1234, sample, fake, todo, passw) only as the value's
// start: a strong password may hold them.
func placeholder(v string) bool {
	l := strings.ToLower(v)
	for _, p := range []string{"changeme", "change_me", "change-me", "changeit", "your_", "your-", "yourpass", "yoursecret", "yourtoken",
		"placeholder", "example", "redacted", "dummy", "mysecret", "mytoken", "mykey", "bearertoken", "correcthorse",
		"change-this", "change_this", "xxx", "***", "...", "…"} {
		if strings.Contains(l, p) {
			return true
		}
	}
	for _, p := range []string{"<", "replace", "todo", "fixme", "insert", "sample", "fake", "1234", "passw",
		"hunter2", "letmein", "qwerty", "s3cr3t"} {
		if strings.HasPrefix(l, p) {
			return true
		}
	}
	if weakWord(l) {
		return true
	}
	switch l {
	case "true", "false", "null", "nil", "none", "undefined", "password", "passwd", "secret", "token", "pass", "empty",
		"required", "optional", "string", "default", "test", "admin", "root", "user", "guest", "prompt", "ask",
		"read", "write", "read-write", "readonly", "value", "inherit", "secretkey", "apikey", "github", "gitlab", "gitea":
		return true
	}
	return strings.Trim(l, "*x#.-_ ") == ""
}

// weakWord: a test or default value, one of a few words with digits or
// signs around it (test1234, password1, admin_123, secret!): the value as
// a whole, never a word inside a longer one.
func weakWord(l string) bool {
	w := strings.Trim(l, "0123456789-_.!@#")
	switch w {
	case "test", "testing", "fake", "dummy", "sample", "mock", "demo", "dev", "local", "secret", "password", "passwd", "pass", "admin",
		"root", "user", "default", "temp", "changeme", "qwerty", "letmein", "welcome", "abc", "foo", "bar", "foobar":
		return w != l
	}
	return false
}

// WholePlaceholder: a value that is a placeholder as a whole, not one that
// merely holds a placeholder's word (a real password may hold 1234,
// sample or fake): only such a value overrules a rule's finding (the
// detector's byGrammar), which is never dropped on a substring's say-so.
// The stricter twin of placeholder.
func WholePlaceholder(v string) bool {
	l := strings.ToLower(strings.Trim(v, `"' `))
	if strings.Trim(l, "*x#.-_ ") == "" || strings.HasPrefix(l, "<") && strings.HasSuffix(l, ">") {
		return true
	}
	for _, p := range []string{"changeme", "change_me", "change-me", "changeit", "your_", "your-", "yourpass", "yoursecret", "yourtoken",
		"placeholder", "example", "replace_me", "replace-me", "replaceme", "redacted", "dummy", "todo", "fixme", "insert_", "insert-"} {
		if strings.HasPrefix(l, p) {
			return true
		}
	}
	switch l {
	case "password", "passwd", "secret", "token", "pass", "empty", "required", "test", "admin", "root", "user", "guest", "value", "default":
		return true
	}
	return false
}

// ciphertext reports whether v is a secret encrypted at rest: SOPS
// ENC[…], ejson EJ[…], Ansible Vault, age, Jasypt ENC(…), Spring Cloud
// {cipher}, a vault transit value. (Maven's and Jenkins' {…} are
// encrypted with a key kept beside them: secrets still.)
func ciphertext(v string) bool {
	for _, p := range []string{"ENC[", "ENC(", "EJ[", "$ANSIBLE_VAULT", "-----BEGIN AGE", "{cipher}", "vault:v"} {
		if strings.HasPrefix(v, p) {
			return true
		}
	}
	return false
}

// location reports whether v is a path or a URL: a key that names a
// credential sometimes holds where the credential is.
func location(v string) bool {
	return strings.HasPrefix(v, "/") || strings.HasPrefix(v, "~/") || strings.HasPrefix(v, "./") || strings.HasPrefix(v, "../") ||
		strings.HasPrefix(v, "file:") || strings.Contains(v, "://") ||
		len(v) > 2 && v[1] == ':' && (v[2] == '\\' || v[2] == '/')
}

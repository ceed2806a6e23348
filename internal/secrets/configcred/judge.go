package configcred

import "strings"

// Secret reports whether a value in a credential position is a secret:
// anything but empty, a reference to a secret kept elsewhere, a
// placeholder, ciphertext, a path or URL (a URL's own password is judged
// where it stands), or a word that means nothing (true, null, none).
// Which characters a value has never decides it.
func Secret(value string) bool {
	v := strings.TrimSpace(value)
	if len(v) < 4 {
		return false
	}
	return !reference(v) && !placeholder(v) && !ciphertext(v) && !location(v)
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
// <…>, xxx, ***, example…, a word like password or secret on its own.
func placeholder(v string) bool {
	l := strings.ToLower(v)
	for _, p := range []string{"changeme", "change_me", "change-me", "changeit", "your_", "your-", "yourpass", "yoursecret", "yourtoken",
		"placeholder", "example", "xxx", "***", "...", "redacted", "dummy", "replace", "todo", "fixme", "insert", "<", "…", "sample", "fake", "1234", "passw", "mysecret", "mytoken", "mykey", "bearertoken"} {
		if strings.Contains(l, p) {
			return true
		}
	}
	switch l {
	case "true", "false", "null", "nil", "none", "undefined", "password", "passwd", "secret", "token", "pass", "empty",
		"required", "optional", "string", "default", "test", "admin", "root", "user", "guest", "prompt", "ask",
		"read", "write", "read-write", "readonly", "value", "inherit", "secretkey", "apikey", "github", "gitlab", "gitea":
		return true
	}
	return strings.Trim(l, "*x#.-_ ") == ""
}

// ciphertext reports whether v is a secret encrypted at rest: SOPS
// ENC[…], Ansible Vault, age, Jasypt ENC(…), Spring Cloud {cipher}, Maven's
// {…} master-encrypted password, a vault transit value.
func ciphertext(v string) bool {
	for _, p := range []string{"ENC[", "ENC(", "$ANSIBLE_VAULT", "-----BEGIN AGE", "{cipher}", "vault:v", "AGE-SECRET-KEY-"} {
		if strings.HasPrefix(v, p) {
			return p != "AGE-SECRET-KEY-" // an age identity is a private key, not ciphertext
		}
	}
	return len(v) > 2 && v[0] == '{' && v[len(v)-1] == '}' && !strings.ContainsAny(v, " \"'")
}

// location reports whether v is a path or a URL: a key that names a
// credential sometimes holds where the credential is.
func location(v string) bool {
	return strings.HasPrefix(v, "/") || strings.HasPrefix(v, "~/") || strings.HasPrefix(v, "./") || strings.HasPrefix(v, "../") ||
		strings.HasPrefix(v, "file:") || strings.Contains(v, "://") ||
		len(v) > 2 && v[1] == ':' && (v[2] == '\\' || v[2] == '/')
}

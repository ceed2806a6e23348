// Package credpaths is the one table of where credentials live in files:
// environment files, credential files by name, and the directories under
// home whose files hold tokens. The shell policy (internal/policy) judges a
// command that reads or sends such a file by it; the known-value source
// (internal/secrets/known) reads the values of such files by it. It holds
// data and name tests only, so a hook process that links it pays nothing
// at start-up (its regexps compile on first use).
package credpaths

import (
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/lazyregexp"
)

var (
	// EnvFileRe matches the names of environment files (.env, .env.local,
	// .envrc, prod.env).
	EnvFileRe = &lazyregexp.Regexp{Expr: `^(\.env(\..+)?|\.envrc|[\w.-]+\.env)$`}
	// EnvExampleRe matches the part of an environment file's name that
	// makes it an example or template (.env.example, .env.sample,
	// test.env): committed placeholders, not credentials.
	EnvExampleRe = &lazyregexp.Regexp{Expr: `(?i)(^|[.-])(example|sample|template|dist|defaults?|schema|tpl|test|ci)($|[.-])`}
	// Names are credential files known by their base name.
	Names = []string{".netrc", "_netrc", ".git-credentials", ".pgpass", ".my.cnf", ".pypirc", ".vault-token", ".boto", ".s3cfg", ".dockercfg", "application_default_credentials.json", "oauth_creds.json", "credentials.tfrc.json", ".htpasswd",
		".msmtprc", ".mbsyncrc", ".fetchmailrc", "wp-config.php", "master.key", "settings-security.xml"}
	// Dirs are the directories (relative to home, each starting with a
	// dot directory) whose every file is a credential (Files nil), or
	// whose named files are.
	Dirs = []Dir{
		{".gnupg", nil}, {".password-store", nil}, {".config/gcloud", nil}, {".azure", nil},
		{".aws", []string{"credentials", "sso", "cli"}},
		{".kube", nil}, // every kubeconfig (~/.kube/prod.yaml) holds tokens or client keys
		{".docker", []string{"config.json"}},
		{".codex", []string{"auth.json"}}, {".gemini", []string{"oauth_creds.json", "google_accounts.json"}},
		{".config/gh", []string{"hosts.yml"}}, {".cargo", []string{"credentials", "credentials.toml"}}, {".gem", []string{"credentials"}},
		{".terraform.d", []string{"credentials.tfrc.json"}}, {".config/hub", nil},
		// The long tail of tools that keep a token or password in home.
		{".config/rclone", nil}, {".m2", []string{"settings.xml", "settings-security.xml"}}, {".gradle", []string{"gradle.properties"}},
		{".composer", []string{"auth.json"}}, {".config/composer", []string{"auth.json"}}, {".config/ngrok", nil}, {".ngrok2", nil},
		{".config/doctl", nil}, {".config/hcloud", nil}, {".fly", []string{"config.yml"}}, {".oci", nil}, {".config/filezilla", nil},
		{".vnc", []string{"passwd"}}, {".local/share/keyrings", nil}, {".config/op", nil}, {".config/linode-cli", nil}, {".config/scw", nil},
	}
	// HomeFiles are credential files known by their place in home, beside
	// those of Dirs: npm's token file (a .npmrc elsewhere is a project's
	// registry settings).
	HomeFiles = []string{".npmrc"}
)

// Dir is a credential directory under home.
type Dir struct {
	Dir   string
	Files []string
}

// EnvFile reports whether base names an environment file that may hold
// real values: not an example or template (.env.example, test.env).
func EnvFile(base string) bool {
	return strings.Contains(base, ".env") && EnvFileRe.MatchString(base) &&
		!EnvExampleRe.MatchString(strings.TrimPrefix(base, ".env")) && !EnvExampleRe.MatchString(strings.TrimSuffix(base, ".env"))
}

// NamedHomeFiles are the credential files under home that have a fixed
// name (home-relative, slash-separated): Names, each named file of Dirs,
// and HomeFiles. Directories whose every file is a credential are not
// listed (their files have no fixed names).
func NamedHomeFiles() []string {
	out := append([]string(nil), Names...)
	for _, d := range Dirs {
		for _, f := range d.Files {
			out = append(out, d.Dir+"/"+f)
		}
	}
	return append(out, HomeFiles...)
}

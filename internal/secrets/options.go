package secrets

import (
	"os"
	"path/filepath"

	"github.com/gemini-guard/gemini-guard/internal/settings"
)

// ScanOptions are the scanner options for settings s in workspace cwd:
// ConfigPath, the disabled rules, whether gitleaks:allow is trusted. Both secret
// paths (the secrets guard and the redaction hook) use them, so both scan
// alike.
func ScanOptions(s settings.Settings, cwd string) Options {
	return Options{
		ConfigPath:         ConfigPath(s, cwd),
		DisabledRules:      s.DisabledRules,
		TrustAllowComments: s.TrustGitleaksAllow,
	}
}

// ConfigPath is the gitleaks config the guard layers onto its built-in
// rules: the GitleaksConfig setting (relative paths from the workspace),
// else <workspace>/.gitleaks.toml when it exists, else "".
func ConfigPath(s settings.Settings, cwd string) string {
	if s.GitleaksConfig != "" {
		p := s.GitleaksConfig
		if !filepath.IsAbs(p) {
			p = filepath.Join(cwd, p)
		}
		return filepath.Clean(p)
	}
	if cwd == "" {
		return ""
	}
	p := filepath.Join(cwd, ".gitleaks.toml")
	if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
		return p
	}
	return ""
}

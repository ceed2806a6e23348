package cli

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/bounded"
	"github.com/gemini-guard/gemini-guard/internal/protect"
)

// envNames are the names of the process's environment variables.
func envNames() []string {
	var out []string
	for _, kv := range os.Environ() {
		if k, _, ok := strings.Cut(kv, "="); ok && k != "" {
			out = append(out, k)
		}
	}
	return out
}

// controlEnvWarnings are session start's and doctor's lines for the
// variables set in the hooks' environment that change how bash, the
// dynamic loader, node, Gemini CLI or the guard's Go runtime behave
// (protect.EnvFamilies): each names the variable, never its value.
func controlEnvWarnings(getenv func(string) string) []string {
	var out []string
	for _, k := range protect.ControlKeysSet(getenv, envNames()) {
		out = append(out, protect.EnvWarning(k))
	}
	return out
}

// geminiEnvFile is the .env Gemini CLI 0.61 loads for a trusted workspace
// (findEnvFile in its config): from the workspace up to /, each
// directory's .gemini/.env then .env; then ~/.gemini/.env, ~/.env. "" if
// none.
func geminiEnvFile(workspace, home string) string {
	exists := func(p string) bool {
		_, err := os.Stat(p)
		return err == nil
	}
	if workspace != "" {
		for d := filepath.Clean(workspace); ; d = filepath.Dir(d) {
			for _, p := range []string{filepath.Join(d, ".gemini", ".env"), filepath.Join(d, ".env")} {
				if exists(p) {
					return p
				}
			}
			if filepath.Dir(d) == d {
				break
			}
		}
	}
	if home != "" {
		for _, p := range []string{filepath.Join(home, ".gemini", ".env"), filepath.Join(home, ".env")} {
			if exists(p) {
				return p
			}
		}
	}
	return ""
}

// envFileControlKeys are the control keys in the .env Gemini CLI would
// load for workspace, with the file's path.
func envFileControlKeys(workspace, home string) (string, []string) {
	p := geminiEnvFile(workspace, home)
	if p == "" {
		return "", nil
	}
	data, _, err := bounded.ReadFile(p, 1<<20)
	if err != nil {
		return p, nil
	}
	return p, protect.ControlKeysIn(string(data))
}

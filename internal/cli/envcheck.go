package cli

import (
	"os"
	"path/filepath"
	"slices"
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

// envFileKeys are the keys of the .env Gemini CLI would load for
// workspace, as the host reads it, with the file's path: the control keys
// (protect.ControlKey) and the runner keys (protect.RunnerKey).
func envFileKeys(workspace, home string) (file string, control, runners []string) {
	p := geminiEnvFile(workspace, home)
	if p == "" {
		return "", nil, nil
	}
	data, _, err := bounded.ReadFile(p, 1<<20)
	if err != nil {
		return p, nil, nil
	}
	control, runners = protect.EnvFileKeys(string(data))
	return p, control, runners
}

// runnerEnvWarning is session start's and doctor's line for the runner
// keys a loaded .env sets: their names and what they do, never a value.
func runnerEnvWarning(file string, keys []string) string {
	var whys []string
	for _, k := range keys {
		if why, _ := protect.RunnerKey(k); !slices.Contains(whys, why) {
			whys = append(whys, why)
		}
	}
	return "gemini-guard: " + file + " sets " + strings.Join(keys, ", ") + ", which Gemini CLI loads into every command the agent runs: " +
		strings.Join(whys, "; ") + ". The guard allows such keys (many projects set them); if you did not, remove them."
}

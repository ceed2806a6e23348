package cli

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/settings"
)

// ExtensionName is the directory name Gemini CLI installs gemini-guard under.
const ExtensionName = "gemini-guard"

// extension is an installed (or staged) extension directory.
type extension struct {
	// Dir holds gemini-extension.json, hooks/ and bin/: what ${extensionPath}
	// expands to. For a linked extension it is the linked source.
	Dir string
	// SettingsDir holds the user-scope .env that `gemini extensions config`
	// writes: ~/.gemini/extensions/gemini-guard for an installed or linked
	// extension, Dir for one named with --ext.
	SettingsDir string
	// How says how Dir was found, for doctor's report.
	How string
}

// findExtension locates the extension: the --ext directory when given, else
// ~/.gemini/extensions/gemini-guard when Gemini CLI has it installed or
// linked, else the directory the running program sits in
// (<ext>/bin/gemini-guard) when it holds gemini-extension.json. A linked
// install (`gemini extensions link`) is followed to its source.
func findExtension(flagExt string, getenv func(string) string) (extension, error) {
	if flagExt != "" {
		dir, err := filepath.Abs(flagExt)
		if err != nil {
			return extension{}, err
		}
		return resolveLink(extension{Dir: dir, SettingsDir: dir, How: "--ext"})
	}
	if home := getenv("HOME"); home != "" {
		installed := filepath.Join(home, ".gemini", "extensions", ExtensionName)
		if isFile(filepath.Join(installed, "gemini-extension.json")) || isFile(filepath.Join(installed, ".gemini-extension-install.json")) {
			return resolveLink(extension{Dir: installed, SettingsDir: installed, How: "installed in ~/.gemini/extensions"})
		}
	}
	if exe, err := os.Executable(); err == nil {
		if exe, err = filepath.EvalSymlinks(exe); err == nil {
			dir := filepath.Dir(filepath.Dir(exe))
			if isFile(filepath.Join(dir, "gemini-extension.json")) {
				return extension{Dir: dir, SettingsDir: dir, How: "the running program's directory (not installed in ~/.gemini/extensions)"}, nil
			}
		}
	}
	return extension{}, errors.New("gemini-guard is not installed in ~/.gemini/extensions/gemini-guard; name the extension directory with --ext")
}

// resolveLink follows .gemini-extension-install.json of type "link".
func resolveLink(ext extension) (extension, error) {
	data, err := os.ReadFile(filepath.Join(ext.Dir, ".gemini-extension-install.json"))
	if err != nil {
		return ext, nil
	}
	var meta struct {
		Source string `json:"source"`
		Type   string `json:"type"`
	}
	if json.Unmarshal(data, &meta) == nil && meta.Type == "link" && meta.Source != "" {
		ext.Dir = meta.Source
		ext.How += " (linked)"
	}
	return ext, nil
}

// settingsEnv returns the environment gemini-guard's hooks would see for
// their settings: the values in the extension's user-scope .env, which
// Gemini CLI puts over the process environment, then getenv. Only declared
// settings (settings.Table) are taken from the file, as Gemini CLI does. The
// workspace-scope .env of trusted folders is not read.
func settingsEnv(ext extension, getenv func(string) string) (func(string) string, map[string]string, error) {
	if ext.SettingsDir == "" {
		return getenv, nil, nil
	}
	vals, err := readDotEnv(filepath.Join(ext.SettingsDir, ".env"))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return getenv, nil, err
	}
	declared := map[string]string{}
	for _, s := range settings.Table {
		if v, ok := vals[s.EnvVar]; ok {
			declared[s.EnvVar] = v
		}
	}
	return func(k string) string {
		if v, ok := declared[k]; ok {
			return v
		}
		return getenv(k)
	}, declared, nil
}

// readDotEnv parses the subset of dotenv that `gemini extensions config`
// writes: KEY=VALUE lines, optional `export `, '#' comments, values in
// single or double quotes (with \n in double quotes).
func readDotEnv(path string) (map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		line = strings.TrimPrefix(line, "export ")
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		switch {
		case len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"':
			v = strings.ReplaceAll(v[1:len(v)-1], `\n`, "\n")
		case len(v) >= 2 && v[0] == '\'' && v[len(v)-1] == '\'':
			v = v[1 : len(v)-1]
		default:
			if i := strings.Index(v, " #"); i >= 0 {
				v = strings.TrimSpace(v[:i])
			}
		}
		out[k] = v
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return out, nil
}

// loadSettings is the settings the hooks would use for a session in
// workspace: the environment and the extension's .env, tightened by the
// workspace's project file. Warnings cover both.
func loadSettings(ext extension, workspace string, getenv func(string) string) (settings.Settings, []string) {
	env, _, err := settingsEnv(ext, getenv)
	var warnings []string
	if err != nil {
		warnings = append(warnings, fmt.Sprintf("gemini-guard: could not read the extension's settings: %v", err))
	}
	s, w := settings.Load(env)
	warnings = append(warnings, w...)
	s, w = settings.ApplyProject(s, workspace)
	return s, append(warnings, w...)
}

func isFile(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.Mode().IsRegular()
}

package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// FloorVersion is the oldest Gemini CLI that gets every protection
// gemini-guard offers: extension hooks on by default (0.26) and the policy
// wall (extension policies with deny_message, 0.32). The end-to-end tests
// run on it and on the pinned latest (internal/e2e).
const FloorVersion = "0.32.1"

// belowFloor says what a Gemini CLI older than FloorVersion does not
// protect, version ranges as tested (issue 14's table). "" means nothing
// is missing.
func belowFloor(major, minor int) string {
	if major > 0 || minor >= 32 {
		return ""
	}
	const noWall = "no policy wall (extension policies arrive in 0.32): with hooks disabled or timed out, `rm -rf ~` runs"
	switch {
	case minor >= 26:
		return noWall
	case minor >= 24:
		return "hooks are off by default before 0.26 (nothing is checked unless hooksConfig.enabled is true); " + noWall
	case minor >= 21:
		return "hooks are off by default, and secrets in tool output are NOT hidden from the model (no tool-output replacement before 0.24); " + noWall
	}
	return "NOTHING is protected: Gemini CLI before 0.21 runs no extension hooks and has no extension policies"
}

var cliVersion = regexp.MustCompile(`(\d+)\.(\d+)\.(\d+)`)

// parseCLIVersion reads `gemini --version` output.
func parseCLIVersion(out string) (major, minor int, ok bool) {
	m := cliVersion.FindStringSubmatch(out)
	if m == nil {
		return 0, 0, false
	}
	major, _ = strconv.Atoi(m[1])
	minor, _ = strconv.Atoi(m[2])
	return major, minor, true
}

// checkHost tells what the user's Gemini CLI leaves unprotected: a version
// below FloorVersion, or hooks switched off in settings.json (which no
// SessionStart hook can report, since it does not run then).
func (d *doctorRun) checkHost() {
	gemini, err := exec.LookPath("gemini")
	if err != nil {
		d.add("gemini cli", statusSkip, "`gemini` is not on PATH: cannot tell its version. gemini-guard needs Gemini CLI "+FloorVersion+" or newer", 0)
	} else {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		out, err := exec.CommandContext(ctx, gemini, "--version").Output()
		cancel()
		major, minor, ok := parseCLIVersion(string(out))
		v := strings.TrimSpace(string(out))
		switch {
		case err != nil || !ok:
			d.add("gemini cli", statusWarn, fmt.Sprintf("`gemini --version` gave no version (%v): gemini-guard needs Gemini CLI %s or newer", err, FloorVersion), 0)
		case belowFloor(major, minor) != "":
			d.add("gemini cli", statusFail, fmt.Sprintf("Gemini CLI %s is older than %s: %s. Update: npm install -g @google/gemini-cli", v, FloorVersion, belowFloor(major, minor)), 0)
		case noRequestRedaction(cliVersion.FindString(string(out))) != "":
			d.add("gemini cli", statusWarn, fmt.Sprintf("Gemini CLI %s: %s. Update: npm install -g @google/gemini-cli", v, noRequestRedaction(cliVersion.FindString(string(out)))), 0)
		default:
			d.add("gemini cli", statusOK, fmt.Sprintf("Gemini CLI %s (%s or newer)", v, FloorVersion), 0)
		}
	}
	d.checkHooksEnabled()
}

// checkHooksEnabled reads hooksConfig in the user's and the workspace's
// settings.json: hooks switched off, or gemini-guard hooks disabled by name.
func (d *doctorRun) checkHooksEnabled() {
	var files []string
	if home := d.getenv("HOME"); home != "" {
		files = append(files, filepath.Join(home, ".gemini", "settings.json"))
	}
	if cwd, err := os.Getwd(); err == nil {
		files = append(files, filepath.Join(cwd, ".gemini", "settings.json"))
	}
	var problems []string
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		var s struct {
			HooksConfig struct {
				Enabled  *bool    `json:"enabled"`
				Disabled []string `json:"disabled"`
			} `json:"hooksConfig"`
		}
		if json.Unmarshal(data, &s) != nil {
			continue // Gemini CLI reports its own settings errors
		}
		if e := s.HooksConfig.Enabled; e != nil && !*e {
			problems = append(problems, f+" switches hooks off (hooksConfig.enabled: false): NOTHING is checked or redacted; only the policy wall holds")
		}
		var ours []string
		for _, name := range s.HooksConfig.Disabled {
			if strings.HasPrefix(name, "gemini-guard-") {
				ours = append(ours, name)
			}
		}
		if len(ours) > 0 {
			problems = append(problems, fmt.Sprintf("%s disables %s (hooksConfig.disabled): what they guard is not protected", f, strings.Join(ours, ", ")))
		}
	}
	if len(problems) > 0 {
		d.add("hooks enabled", statusWarn, strings.Join(problems, "; "), 0)
		return
	}
	d.add("hooks enabled", statusOK, "no settings.json switches gemini-guard's hooks off", 0)
}

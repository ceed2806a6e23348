package cli

import "github.com/gemini-guard/gemini-guard/internal/hostcli"

// versionWarning is what session-start tells a user whose Gemini CLI
// (version v, as hostcli.RunningVersion read it) is below FloorVersion; "" when
// it is not, or v is unknown.
func versionWarning(v string) string {
	major, minor, ok := parseCLIVersion(v)
	if !ok {
		return ""
	}
	missing := belowFloor(major, minor)
	if missing == "" {
		return ""
	}
	return "gemini-guard: this Gemini CLI (" + v + ") is older than " + FloorVersion + ", the oldest it fully protects: " + missing +
		". Update: npm install -g " + hostcli.Package
}

package cli

import "github.com/gemini-guard/gemini-guard/internal/hostcli"

// versionWarning is what session-start tells a user whose Gemini CLI
// (version v, as hostcli.RunningVersion read it) is below FloorVersion; ""
// when it is not, or v is unknown.
func versionWarning(v string) string {
	major, minor, ok := parseCLIVersion(v)
	if !ok {
		return ""
	}
	missing := belowFloor(major, minor)
	if missing == "" {
		return ""
	}
	return "gemini-guard: this Gemini CLI (" + v + ") is older than " + FloorVersion + ", the oldest it supports: " + missing +
		". Update: npm install -g " + hostcli.Package
}

// versionNotice is what session-start tells a user whose Gemini CLI is
// supported but cannot have its requests to the model redacted; "" for
// any other version.
func versionNotice(v string) string {
	if versionWarning(v) != "" {
		return ""
	}
	if missing := noRequestRedaction(v); missing != "" {
		return "gemini-guard: on this Gemini CLI (" + v + ") " + missing + ". Every other guard works. Update: npm install -g " + hostcli.Package
	}
	return ""
}

// noRequestRedaction says what a Gemini CLI from FloorVersion on but before
// hostcli.MergesRewrittenRequest lacks; "" for any other version.
func noRequestRedaction(v string) string {
	if before, _ := hostcli.Before(v, hostcli.MergesRewrittenRequest); !before {
		return ""
	}
	return "secrets in the requests to the model are NOT removed (before " + hostcli.MergesRewrittenRequest +
		" a hook's rewrite would drop every tool call from the request); you are told when one is found"
}

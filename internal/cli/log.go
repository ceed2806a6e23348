package cli

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/gemini-guard/gemini-guard/internal/audit"
	"github.com/gemini-guard/gemini-guard/internal/jsonenc"
	"github.com/gemini-guard/gemini-guard/internal/version"
)

// showLog prints recent entries of the audit log. See doc.go.
func showLog(args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	fs := flag.NewFlagSet("log", flag.ContinueOnError)
	fs.SetOutput(stderr)
	n := fs.Int("n", 20, "show the last `N` entries (0: all)")
	all := fs.Bool("all", false, "show every decision, not only blocks and warnings")
	asJSON := fs.Bool("json", false, "print the entries as JSON lines")
	extFlag := fs.String("ext", "", "extension directory whose settings name the log (default: ~/.gemini/extensions/gemini-guard)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: gemini-guard log [-n N] [--all] [--json] [--ext DIR]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return usageExit(err)
	}
	if fs.NArg() > 0 || *n < 0 {
		fs.Usage()
		return 2
	}
	cwd, _ := os.Getwd()
	ext, err := findExtension(*extFlag, getenv)
	if err != nil {
		ext = extension{} // no extension: the environment alone names the log
	}
	s, _ := loadSettings(ext, cwd, getenv)
	env, _, _ := settingsEnv(ext, getenv)
	path := audit.Path(s, env)
	if path == "" {
		fmt.Fprintln(stderr, "gemini-guard log: the audit log is off. Turn it on with `gemini extensions config gemini-guard \"Audit log\"` (value: on), or GEMINI_GUARD_AUDIT_LOG=on.")
		return 2
	}
	keep := audit.Entry.Blocked
	if *all {
		keep = nil
	}
	entries, err := audit.Log{Path: path}.Read(*n, keep)
	if err != nil {
		fmt.Fprintln(stderr, "gemini-guard log:", err)
		return 2
	}
	if *asJSON {
		enc := jsonenc.NewEncoder(stdout)
		for _, e := range entries {
			enc.Encode(e)
		}
		return 0
	}
	if len(entries) == 0 {
		what := "blocks"
		if *all {
			what = "decisions"
		}
		fmt.Fprintf(stdout, "no %s in %s\n", what, path)
		return 0
	}
	for _, e := range entries {
		fmt.Fprintln(stdout, logLine(e))
	}
	return 0
}

// logLine is one entry for people: local time, decision, hook and tool,
// rules, preview, session.
func logLine(e audit.Entry) string {
	where := e.Hook
	if e.Tool != "" {
		where += " " + e.Tool
	}
	rules := strings.Join(e.Rules, ",")
	if rules == "" {
		rules = "-"
	}
	line := fmt.Sprintf("%s  %-7s %-30s %s", e.Time.Local().Format(time.DateTime), e.Decision, where, rules)
	if e.Preview != "" {
		line += "  " + e.Preview
	}
	if e.Session != "" {
		s := e.Session
		if len(s) > 8 {
			s = s[:8]
		}
		line += "  (session " + s + ")"
	}
	return line
}

// showVersion prints the version. See doc.go.
func showVersion(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("version", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print as JSON")
	if err := fs.Parse(args); err != nil {
		return usageExit(err)
	}
	if fs.NArg() > 0 {
		fmt.Fprintln(stderr, "usage: gemini-guard version [--json]")
		return 2
	}
	if *asJSON {
		json.NewEncoder(stdout).Encode(map[string]string{
			"version": version.Version, "go": runtime.Version(), "platform": runtime.GOOS + "/" + runtime.GOARCH,
		})
		return 0
	}
	fmt.Fprintf(stdout, "gemini-guard %s (%s %s/%s)\n", version.Version, runtime.Version(), runtime.GOOS, runtime.GOARCH)
	return 0
}

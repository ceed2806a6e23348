package cli

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/jsonenc"
	"github.com/gemini-guard/gemini-guard/internal/secretguard"
	"github.com/gemini-guard/gemini-guard/internal/secrets"
	"github.com/gemini-guard/gemini-guard/internal/settings"
	"github.com/gemini-guard/gemini-guard/internal/verdict"
)

// maxScanFile is the most scan reads of one file; the secrets guard itself
// scans at most secretguard.MaxScan of it and says so in a note.
const maxScanFile = 64 << 20

// scanResult is one file's answer (--json prints one per line).
type scanResult struct {
	File string `json:"file"`
	// Decision is allow, deny, warn (deny let through in warn mode) or
	// rewrite (the redact action would replace the secrets).
	Decision string   `json:"decision"`
	Rules    []string `json:"rules,omitempty"`
	Reason   string   `json:"reason,omitempty"`
	Notes    []string `json:"notes,omitempty"`
	Error    string   `json:"error,omitempty"`
}

// scan decides, for each file, what the secrets guard would answer to a
// write_file of its content. See doc.go.
func scan(args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	fs := flag.NewFlagSet("scan", flag.ContinueOnError)
	fs.SetOutput(stderr)
	workspaceFlag := fs.String("workspace", "", "the session's workspace (default: the current directory)")
	extFlag := fs.String("ext", "", "read settings from this extension directory's .env")
	asJSON := fs.Bool("json", false, "print one JSON object per file")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: gemini-guard scan [--workspace W] [--ext DIR] [--json] <file>...")
		fs.PrintDefaults()
	}
	files, err := parseInterspersed(fs, args)
	if err != nil {
		return usageExit(err)
	}
	if len(files) == 0 {
		fs.Usage()
		return 2
	}
	workspace, err := workspaceDir(*workspaceFlag)
	if err != nil {
		fmt.Fprintln(stderr, "gemini-guard scan:", err)
		return 2
	}
	s, warnings := commandSettings(*extFlag, workspace, getenv)
	for _, w := range warnings {
		fmt.Fprintln(stderr, w)
	}
	// A relative gitleaks config is the workspace's; the guard runs in a
	// scratch directory below (see scanFile), so make it absolute here.
	s.GitleaksConfig = secrets.ConfigPath(s, workspace)
	scratch, err := os.MkdirTemp("", "gemini-guard-scan-")
	if err != nil {
		fmt.Fprintln(stderr, "gemini-guard scan:", err)
		return 2
	}
	defer os.RemoveAll(scratch)

	code := 0
	for _, file := range files {
		r := scanFile(file, stdin, workspace, scratch, s, getenv("HOME"))
		switch {
		case r.Error != "":
			code = 2
		case r.Decision != "allow" && code == 0:
			code = 1
		}
		if *asJSON {
			jsonenc.NewEncoder(stdout).Encode(r)
			continue
		}
		printScan(stdout, stderr, r)
	}
	return code
}

func printScan(stdout, stderr io.Writer, r scanResult) {
	if r.Error != "" {
		fmt.Fprintf(stderr, "%s: %s\n", r.File, r.Error)
		return
	}
	switch r.Decision {
	case "allow":
		fmt.Fprintf(stdout, "%s: no secrets\n", r.File)
	default:
		fmt.Fprintf(stdout, "%s: %s %s\n", r.File, r.Decision, strings.Join(r.Rules, ","))
		if r.Reason != "" {
			fmt.Fprintf(stdout, "  %s\n", r.Reason)
		}
	}
	for _, n := range r.Notes {
		fmt.Fprintf(stdout, "  note: %s\n", n)
	}
}

// scanFile asks the secrets guard about a write_file of file's content.
//
// The guard only objects to secrets a write adds, and a file's own content
// adds nothing to itself; so the write goes to the same relative path in an
// empty scratch workspace, where the file does not exist yet. Paths inside
// the workspace keep their relative path (skip paths and path rules apply);
// others keep their base name.
func scanFile(file string, stdin io.Reader, workspace, scratch string, s settings.Settings, home string) scanResult {
	r := scanResult{File: file}
	var content []byte
	var err error
	rel := "stdin"
	if file == "-" {
		content, err = io.ReadAll(io.LimitReader(stdin, maxScanFile+1))
	} else {
		content, err = readLimited(file, maxScanFile+1)
		rel = relativeTo(workspace, file)
	}
	if err != nil {
		r.Error = err.Error()
		return r
	}
	if len(content) > maxScanFile {
		r.Error = fmt.Sprintf("larger than %d MiB, not scanned", maxScanFile>>20)
		return r
	}
	input, _ := json.Marshal(map[string]string{"file_path": rel, "content": string(content)})
	d, err := secretguard.Check(secretguard.Call{Tool: secretguard.WriteFile, Input: input, Cwd: scratch},
		secretguard.Env{Settings: s, Home: home}) // scans through guard-scanner beside this program
	if err != nil {
		r.Error = err.Error()
		return r
	}
	v := d.Verdict
	r.Rules = d.Rules
	r.Notes = v.Notes
	switch v.Action {
	case verdict.Deny:
		r.Decision = "deny"
		if s.Mode == settings.WarnOnly {
			r.Decision = "warn"
		}
		r.Reason = v.Message()
		if len(r.Rules) == 0 && v.RuleID != "" {
			r.Rules = []string{v.RuleID}
		}
	case verdict.Rewrite:
		r.Decision = "rewrite"
		r.Reason = d.UserMessage
		if s.Mode == settings.WarnOnly {
			r.Decision, r.Reason = "warn", d.Blocked.Message()
		}
	default:
		r.Decision = "allow"
	}
	return r
}

// relativeTo is file relative to workspace when inside it, else its base
// name.
func relativeTo(workspace, file string) string {
	abs, err := filepath.Abs(file)
	if err != nil {
		return filepath.Base(file)
	}
	if rel, err := filepath.Rel(workspace, abs); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return rel
	}
	return filepath.Base(abs)
}

func readLimited(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if info.IsDir() {
		return nil, fmt.Errorf("is a directory")
	}
	return io.ReadAll(io.LimitReader(f, limit))
}

// workspaceDir is the --workspace flag made absolute, or the current
// directory.
func workspaceDir(flagValue string) (string, error) {
	if flagValue == "" {
		return os.Getwd()
	}
	abs, err := filepath.Abs(flagValue)
	if err != nil {
		return "", err
	}
	if info, err := os.Stat(abs); err != nil || !info.IsDir() {
		return "", fmt.Errorf("workspace %s is not a directory", flagValue)
	}
	return abs, nil
}

// commandSettings are the settings a hook would use in workspace: the
// extension's (--ext, else the installed one, if any) over the environment,
// tightened by the workspace's project file.
func commandSettings(extFlag, workspace string, getenv func(string) string) (settings.Settings, []string) {
	ext, err := findExtension(extFlag, getenv)
	if err != nil {
		ext = extension{}
	}
	return loadSettings(ext, workspace, getenv)
}

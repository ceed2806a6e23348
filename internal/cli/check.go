package cli

import (
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/hook"
	"github.com/gemini-guard/gemini-guard/internal/jsonenc"
	"github.com/gemini-guard/gemini-guard/internal/settings"
	"github.com/gemini-guard/gemini-guard/internal/shellguard"
	"github.com/gemini-guard/gemini-guard/internal/verdict"
)

// checkResult is check's answer (--json prints it).
type checkReport struct {
	Command   string `json:"command"`
	Dir       string `json:"dir,omitempty"`
	Workspace string `json:"workspace"`
	Mode      string `json:"mode"`
	// Decision is the guard's: allow, deny, or warn (a deny that warn mode
	// lets through).
	Decision string `json:"decision"`
	// HookDecision is what Gemini CLI is told: deny or allow.
	HookDecision string `json:"hook_decision"`
	Rule         string `json:"rule,omitempty"`
	// Reason is what the model reads when the call is denied.
	Reason string `json:"reason,omitempty"`
	// UserMessage is what the user sees (systemMessage).
	UserMessage string   `json:"user_message,omitempty"`
	Safer       string   `json:"safer,omitempty"`
	Fragment    string   `json:"fragment,omitempty"`
	Notes       []string `json:"notes,omitempty"`
	Trace       []string `json:"trace,omitempty"`
}

// check decides a shell command as the shell guard's hook would. See doc.go.
func check(args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dirFlag := fs.String("dir", "", "the directory the command runs in (the tool's dir_path; default: the workspace)")
	workspaceFlag := fs.String("workspace", "", "the session's workspace (default: the current directory)")
	modeFlag := fs.String("mode", "", "decide in this mode (standard, strict, warn) instead of the configured one")
	extFlag := fs.String("ext", "", "read settings from this extension directory's .env")
	explain := fs.Bool("explain", false, "print how the command was read: unwrapped wrappers, nested shells, resolved words")
	asJSON := fs.Bool("json", false, "print the decision as one JSON object")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: gemini-guard check [--dir D] [--workspace W] [--mode M] [--ext DIR] [--explain] [--json] '<command>'")
		fmt.Fprintln(stderr, "       (quote the command, or put it after --; '-' reads it from standard input)")
		fs.PrintDefaults()
	}
	words, err := parseInterspersed(fs, args)
	if err != nil {
		return usageExit(err)
	}
	if len(words) == 0 {
		fs.Usage()
		return 2
	}
	command := strings.Join(words, " ")
	if len(words) == 1 && words[0] == "-" {
		data, err := io.ReadAll(io.LimitReader(stdin, shellguard.MaxCommand+1))
		if err != nil {
			fmt.Fprintln(stderr, "gemini-guard check:", err)
			return 2
		}
		command = string(data)
	}
	workspace, err := workspaceDir(*workspaceFlag)
	if err != nil {
		fmt.Fprintln(stderr, "gemini-guard check:", err)
		return 2
	}
	s, warnings := commandSettings(*extFlag, workspace, getenv)
	for _, w := range warnings {
		fmt.Fprintln(stderr, w)
	}
	if *modeFlag != "" {
		m, ok := map[string]settings.Mode{"standard": settings.Standard, "strict": settings.Strict, "warn": settings.WarnOnly}[strings.ToLower(*modeFlag)]
		if !ok {
			fmt.Fprintf(stderr, "gemini-guard check: --mode %q: want standard, strict or warn\n", *modeFlag)
			return 2
		}
		s.Mode = m
	}
	dir := *dirFlag
	if dir != "" && !filepath.IsAbs(dir) && dir != "~" && !strings.HasPrefix(dir, "~/") {
		dir = filepath.Join(workspace, dir)
	}

	in := shellguard.Input{Command: command, Dir: dir, Cwd: workspace, Home: getenv("HOME"), Settings: s}
	// The hosts the workspace's files name, as the hook gathers them
	// (secrets.variable-sent); check has no session, so no file counts
	// as the agent's.
	in.ProjectHosts = shellguard.GatherProjectHosts(workspace, nil, nil)
	var v verdict.Verdict
	var trace []string
	if *explain {
		v, trace = shellguard.Explain(in)
	} else {
		v = shellguard.Decide(in)
	}
	r := report(command, dir, workspace, s, v, trace)
	if *asJSON {
		enc := jsonenc.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.Encode(r)
	} else {
		printCheck(stdout, r)
	}
	if r.Decision != "allow" {
		return 1
	}
	return 0
}

// report builds check's answer from the verdict, with the hook's answer as
// hook.FromVerdict gives it in the configured mode.
func report(command, dir, workspace string, s settings.Settings, v verdict.Verdict, trace []string) checkReport {
	warn := s.Mode == settings.WarnOnly
	out := hook.FromVerdict(v, warn)
	// The trace quotes the command's words as resolved; mask credentials in
	// them as the reason does.
	masked := make([]string, len(trace))
	for i, line := range trace {
		masked[i] = shellguard.Mask(line)
	}
	if trace == nil {
		masked = nil
	}
	r := checkReport{
		Command: shellguard.Mask(verdict.Truncate(command, 4*verdict.MaxFragment)), Dir: dir, Workspace: workspace,
		Mode: s.Mode.String(), Decision: "allow", HookDecision: "allow",
		Rule: v.RuleID, Safer: v.Safer, Fragment: v.Fragment, Notes: v.Notes, Trace: masked,
		Reason: out.Reason, UserMessage: out.SystemMessage,
	}
	if out.Decision == "deny" {
		r.HookDecision = "deny"
	}
	switch {
	case v.Action == verdict.Deny && warn, v.Action == verdict.Warn:
		r.Decision = "warn"
		r.Reason = v.Message()
	case v.Action == verdict.Deny:
		r.Decision = "deny"
	}
	return r
}

func printCheck(w io.Writer, r checkReport) {
	switch r.Decision {
	case "allow":
		fmt.Fprintf(w, "allow   (mode %s)\n", r.Mode)
	case "warn":
		fmt.Fprintf(w, "warn    %s (mode %s: the hook lets it run and tells the user)\n", r.Rule, r.Mode)
	default:
		fmt.Fprintf(w, "deny    %s (mode %s)\n", r.Rule, r.Mode)
	}
	if r.Reason != "" {
		fmt.Fprintf(w, "reason  %s\n", r.Reason)
	}
	for _, n := range r.Notes {
		fmt.Fprintf(w, "note    %s\n", n)
	}
	if len(r.Trace) > 0 {
		fmt.Fprintln(w, "how it was read:")
		for _, line := range r.Trace {
			fmt.Fprintf(w, "  %s\n", line)
		}
	}
}

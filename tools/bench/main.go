// Command bench measures gemini-guard's hooks the way Gemini CLI runs them
// (`make bench`).
//
// It stages the host's extension exactly as it ships (bundle.Stage), builds
// the floor program (tools/bench/floor: read stdin, print {}), and for each
// case starts whole processes: `bash -c <the hooks.json command>` with
// ${extensionPath} and ${/} substituted, the hook's JSON on stdin, in a
// throwaway workspace and HOME. Hook and floor runs are interleaved in the
// same loop, so both see the same machine state, and each case reports the
// median and p90 wall time, the ratio of the medians to the floor, and the
// peak RSS of the hook process. Targets from issue 6 are printed beside the
// results; nothing passes or fails on timing. Then adversarial inputs
// (issue 17, worst.go) run a few times each: their slowest time to answer
// is printed against half the hook's hooks.json timeout.
//
// Peak RSS comes from separate runs under tools/bench/rss (see there why):
// it is the largest ru_maxrss of the bash process, which execs the program.
//
// Usage:
//
//	go run ./tools/bench [-n 200] [-json dist/bench.json] [-case substring]
//	go run ./tools/bench -inputs DIR   # the inputs only, for pprof and strace
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/gemini-guard/gemini-guard/internal/bundle"
	"github.com/gemini-guard/gemini-guard/internal/version"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	n := fs.Int("n", 200, "runs per case (of the hook and of the floor each)")
	jsonOut := fs.String("json", "", "also write the results as JSON to this file")
	only := fs.String("case", "", "run only cases whose name contains this")
	inputs := fs.String("inputs", "", "write each case's hook input to this directory (for profiling) and time nothing")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *n < 1 {
		fmt.Fprintln(stderr, "bench: -n must be at least 1")
		return 2
	}
	if *inputs != "" {
		if err := writeInputs(*inputs, stdout); err != nil {
			fmt.Fprintln(stderr, "bench:", err)
			return 1
		}
		return 0
	}
	report, err := bench(context.Background(), *n, *only, stdout)
	if err != nil {
		fmt.Fprintln(stderr, "bench:", err)
		return 1
	}
	if *jsonOut != "" {
		data, _ := json.MarshalIndent(report, "", "  ")
		if err := os.WriteFile(*jsonOut, append(data, '\n'), 0o644); err != nil {
			fmt.Fprintln(stderr, "bench:", err)
			return 1
		}
		fmt.Fprintf(stdout, "\nresults written to %s\n", *jsonOut)
	}
	return 0
}

// Report is the JSON file's content.
type Report struct {
	Version   string    `json:"version"`
	Time      time.Time `json:"time"`
	GoVersion string    `json:"go_version"`
	Platform  string    `json:"platform"`
	CPUs      int       `json:"cpus"`
	Runs      int       `json:"runs"`
	Results   []Result  `json:"results"`
	// Worst is the time to answer of adversarial inputs (issue 17).
	Worst []Worst `json:"worst,omitempty"`
}

// Result is one case's numbers. Times are in milliseconds, RSS in MB.
type Result struct {
	Case       string  `json:"case"`
	Hook       string  `json:"hook"`
	InputBytes int     `json:"input_bytes"`
	Decision   string  `json:"decision"`
	MedianMS   float64 `json:"median_ms"`
	P90MS      float64 `json:"p90_ms"`
	FloorMS    float64 `json:"floor_median_ms"`
	FloorP90MS float64 `json:"floor_p90_ms"`
	Ratio      float64 `json:"ratio"`
	Target     float64 `json:"target_ratio,omitempty"`
	// TargetOverMS is a target in milliseconds over the floor's median
	// instead of a ratio (BeforeModel on a large conversation).
	TargetOverMS float64 `json:"target_over_floor_ms,omitempty"`
	MeetsTarget  *bool   `json:"meets_target,omitempty"`
	RSSMB        float64 `json:"peak_rss_mb"`
	FloorRSSMB   float64 `json:"floor_peak_rss_mb"`
	RSSTargetMB  float64 `json:"rss_target_mb"`
	Note         string  `json:"note,omitempty"`
}

// rssTargetMB is issue 6's memory target per hook process.
const rssTargetMB = 30

func bench(ctx context.Context, n int, only string, stdout io.Writer) (*Report, error) {
	root, err := bundle.FindRoot(".")
	if err != nil {
		return nil, err
	}
	work, err := os.MkdirTemp("", "gemini-guard-bench-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(work)

	fmt.Fprintln(stdout, "building the extension and the floor program...")
	staged := filepath.Join(work, "staged")
	if err := bundle.Stage(ctx, root, staged, bundle.Host()); err != nil {
		return nil, err
	}
	// The hooks run from a copy of the staging, as `gemini extensions
	// install` copies it into ~/.gemini/extensions (and a release archive is
	// extracted): measured on this VM, the go linker's own output file
	// execs ~0.7 ms slower per process than a copy of the same bytes.
	ext := filepath.Join(work, "extension")
	if err := os.CopyFS(ext, os.DirFS(staged)); err != nil {
		return nil, err
	}
	floor := filepath.Join(work, "floor")
	if err := buildTool(ctx, root, "./tools/bench/floor", floor); err != nil {
		return nil, err
	}
	rss := filepath.Join(work, "rss")
	if err := buildTool(ctx, root, "./tools/bench/rss", rss); err != nil {
		return nil, err
	}
	hooksJSON, err := os.ReadFile(filepath.Join(ext, "hooks", "hooks.json"))
	if err != nil {
		return nil, err
	}
	commands, err := hookCommands(hooksJSON, ext)
	if err != nil {
		return nil, err
	}
	floorCmd, err := floorCommand(hooksJSON, floor)
	if err != nil {
		return nil, err
	}

	env, err := newEnvironment(work)
	if err != nil {
		return nil, err
	}
	cases, err := makeCases(env)
	if err != nil {
		return nil, err
	}

	report := &Report{
		Version: version.Version, Time: time.Now().UTC(), GoVersion: runtime.Version(),
		Platform: bundle.Host().Node(), CPUs: runtime.NumCPU(), Runs: n,
	}
	fmt.Fprintf(stdout, "%d runs per case, hook and floor interleaved; %s, %d CPUs, %s\n\n", n, report.Platform, report.CPUs, report.GoVersion)
	for _, c := range cases {
		if only != "" && !strings.Contains(c.name, only) {
			continue
		}
		command, ok := commands[c.hook]
		if !ok {
			return nil, fmt.Errorf("hooks.json has no hook named %s", c.hook)
		}
		fmt.Fprintf(stdout, "  %-36s", c.name)
		res, err := measure(ctx, env, c, command, floorCmd, rss, n)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", c.name, err)
		}
		fmt.Fprintf(stdout, " %6.2f ms  (%.2fx)\n", res.MedianMS, res.Ratio)
		report.Results = append(report.Results, res)
	}
	fmt.Fprintln(stdout, "\nadversarial inputs:")
	if report.Worst, err = measureWorst(ctx, env, hooksJSON, commands, n, only, stdout); err != nil {
		return nil, err
	}
	fmt.Fprintln(stdout)
	printTable(stdout, report)
	printWorst(stdout, report.Worst)
	return report, nil
}

// writeInputs writes each case's hook input to dir as <hook>.<n>.json,
// with the workspace it refers to under dir/work, so that a hook can be
// profiled (pprof, strace) on exactly what make bench times.
func writeInputs(dir string, stdout io.Writer) error {
	work := filepath.Join(dir, "work")
	if err := os.MkdirAll(work, 0o755); err != nil {
		return err
	}
	env, err := newEnvironment(work)
	if err != nil {
		return err
	}
	cases, err := makeCases(env)
	if err != nil {
		return err
	}
	for i, c := range cases {
		name := filepath.Join(dir, fmt.Sprintf("%s.%d.json", c.hook, i))
		if err := os.WriteFile(name, c.input, 0o644); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s\t%s\n", name, c.name)
	}
	fmt.Fprintf(stdout, "run the hooks with cwd %s and HOME %s\n", env.workspace, env.home)
	return nil
}

func buildTool(ctx context.Context, root, pkg, out string) error {
	goTool, err := bundle.GoTool()
	if err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, goTool, "build", "-tags", bundle.BuildTags, "-trimpath", "-ldflags=-s -w", "-o", out, pkg)
	cmd.Dir = root
	// As the release and `make build` build them: static, no cgo. With cgo
	// (os/user pulls it in) every hook process pays for the dynamic loader.
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if output, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build %s: %w\n%s", pkg, err, output)
	}
	return nil
}

// hookCommands maps each hook's name to its command with Gemini CLI's
// substitution done for the staged extension.
func hookCommands(hooksJSON []byte, ext string) (map[string]string, error) {
	f, err := bundle.ParseHooks(hooksJSON)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, groups := range f.Hooks {
		for _, g := range groups {
			for _, h := range g.Hooks {
				out[h.Name] = bundle.Expand(h.Command, ext, string(filepath.Separator))
			}
		}
	}
	return out, nil
}

// floorCommand is the shell guard's command with the floor program in place
// of the guard: the same bash wrapper, so the ratio isolates the program.
func floorCommand(hooksJSON []byte, floor string) (string, error) {
	f, err := bundle.ParseHooks(hooksJSON)
	if err != nil {
		return "", err
	}
	for _, groups := range f.Hooks {
		for _, g := range groups {
			for _, h := range g.Hooks {
				c, err := bundle.ParseCommand(h.Command)
				if err != nil {
					return "", err
				}
				if len(c.Args) == 0 {
					cmd := strings.Replace(h.Command, "${extensionPath}${/}bin${/}"+c.Binary, "${extensionPath}", 1)
					return bundle.Expand(cmd, floor, string(filepath.Separator)), nil
				}
			}
		}
	}
	return "", errors.New("hooks.json has no hook without arguments to model the floor on")
}

// sample is one process run.
type sample struct {
	wall   time.Duration
	stdout []byte
	stderr []byte
}

// runHook starts `bash -c command` like Gemini CLI: JSON on stdin, cwd the
// workspace, the hook environment. With a non-empty wrapper, the wrapper
// program starts bash.
func runHook(ctx context.Context, env *environment, command string, input []byte, wrapper ...string) (sample, error) {
	argv := append(wrapper, "bash", "-c", command)
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = env.workspace
	cmd.Env = env.vars
	cmd.Stdin = bytes.NewReader(input)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if err != nil {
		return sample{}, fmt.Errorf("bash -c %.60q: %w: %s", command, err, errOut.String())
	}
	return sample{wall: wall, stdout: out.Bytes(), stderr: errOut.Bytes()}, nil
}

// rssRuns is how many runs under tools/bench/rss give the peak RSS.
const rssRuns = 5

// peakRSSKB is the largest peak RSS of rssRuns runs of command.
func peakRSSKB(ctx context.Context, env *environment, rss, command string, input []byte) (int64, error) {
	var peak int64
	for range rssRuns {
		s, err := runHook(ctx, env, command, input, rss)
		if err != nil {
			return 0, err
		}
		lines := strings.Split(strings.TrimSpace(string(s.stderr)), "\n")
		var kb int64
		if _, err := fmt.Sscanf(lines[len(lines)-1], "maxrss_kb=%d", &kb); err != nil {
			return 0, fmt.Errorf("rss: no maxrss_kb line in %q", truncate(string(s.stderr), 200))
		}
		peak = max(peak, kb)
	}
	return peak, nil
}

func measure(ctx context.Context, env *environment, c benchCase, command, floorCmd, rss string, n int) (Result, error) {
	if len(c.env) > 0 {
		// The case's own variables, for the hook and the floor alike.
		withVars := *env
		withVars.vars = append(slices.Clip(env.vars), c.env...)
		env = &withVars
	}
	// Warm up the page cache and any per-user state the hook keeps.
	run := 0 // runs of the hook so far
	first, err := runHook(ctx, env, command, c.inputFor(run))
	if err != nil {
		return Result{}, err
	}
	decision, err := decisionOf(first.stdout)
	if err != nil {
		return Result{}, err
	}
	for range 5 {
		if _, err := runHook(ctx, env, floorCmd, c.input); err != nil {
			return Result{}, err
		}
		run++
		if _, err := runHook(ctx, env, command, c.inputFor(run)); err != nil {
			return Result{}, err
		}
	}
	hook := make([]time.Duration, 0, n)
	floor := make([]time.Duration, 0, n)
	for i := range n {
		order := []bool{true, false} // hook first on even runs, floor first on odd ones
		if i%2 == 1 {
			order = []bool{false, true}
		}
		for _, isHook := range order {
			cmd := floorCmd
			if isHook {
				cmd = command
			}
			input := c.input
			if isHook {
				run++
				input = c.inputFor(run)
			}
			s, err := runHook(ctx, env, cmd, input)
			if err != nil {
				return Result{}, err
			}
			if isHook {
				hook = append(hook, s.wall)
			} else {
				floor = append(floor, s.wall)
			}
		}
	}
	// A session of its own for the peak too (newSession): the first of
	// these runs is a first call.
	hookRSS, err := peakRSSKB(ctx, env, rss, command, c.inputFor(n+1<<20))
	if err != nil {
		return Result{}, err
	}
	floorRSS, err := peakRSSKB(ctx, env, rss, floorCmd, c.input)
	if err != nil {
		return Result{}, err
	}
	r := Result{
		Case: c.name, Hook: c.hook, InputBytes: len(c.input), Decision: decision,
		MedianMS: ms(percentile(hook, 50)), P90MS: ms(percentile(hook, 90)),
		FloorMS: ms(percentile(floor, 50)), FloorP90MS: ms(percentile(floor, 90)),
		RSSMB: float64(hookRSS) / 1024, FloorRSSMB: float64(floorRSS) / 1024, RSSTargetMB: rssTargetMB,
		Target: c.target, TargetOverMS: c.overMS, Note: c.note,
	}
	r.Ratio = r.MedianMS / r.FloorMS
	if c.target > 0 {
		meets := r.Ratio <= c.target
		r.MeetsTarget = &meets
	}
	if c.overMS > 0 {
		meets := r.MedianMS-r.FloorMS <= c.overMS
		r.MeetsTarget = &meets
	}
	return r, nil
}

// decisionOf checks the hook answered one JSON object and names its
// decision: deny, allow, replaced (new tool input or chunk), or {} (none).
func decisionOf(stdout []byte) (string, error) {
	var out struct {
		Decision string `json:"decision"`
		Specific *struct {
			ToolInput   json.RawMessage `json:"tool_input"`
			LLMResponse json.RawMessage `json:"llm_response"`
		} `json:"hookSpecificOutput"`
	}
	dec := json.NewDecoder(bytes.NewReader(stdout))
	if err := dec.Decode(&out); err != nil {
		return "", fmt.Errorf("the hook's stdout is not one JSON object: %q", truncate(string(stdout), 200))
	}
	if dec.More() {
		return "", fmt.Errorf("the hook printed more than one JSON value: %q", truncate(string(stdout), 200))
	}
	switch {
	case out.Decision != "":
		return out.Decision, nil
	case out.Specific != nil && (len(out.Specific.ToolInput) > 0 || len(out.Specific.LLMResponse) > 0):
		return "replaced", nil
	}
	return "{}", nil
}

func percentile(d []time.Duration, p int) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	i := (len(s)*p + 99) / 100 // nearest rank
	return s[max(i-1, 0)]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

func printTable(w io.Writer, r *Report) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "case\tinput\tanswer\tmedian ms\tp90 ms\tfloor ms\tratio\ttarget\tpeak RSS MB\t")
	for _, res := range r.Results {
		target := "—"
		if res.Target > 0 {
			mark := "meets"
			if !*res.MeetsTarget {
				mark = "MISSES"
			}
			target = fmt.Sprintf("≤%.1fx %s", res.Target, mark)
		}
		if res.TargetOverMS > 0 {
			mark := "meets"
			if !*res.MeetsTarget {
				mark = "MISSES"
			}
			target = fmt.Sprintf("≤floor+%.0fms %s", res.TargetOverMS, mark)
		}
		rss := fmt.Sprintf("%.1f", res.RSSMB)
		if res.RSSMB > rssTargetMB {
			rss += " (>30)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%.2f\t%.2f\t%.2f\t%.2fx\t%s\t%s\t\n",
			res.Case, size(res.InputBytes), res.Decision, res.MedianMS, res.P90MS, res.FloorMS, res.Ratio, target, rss)
	}
	tw.Flush()
	fmt.Fprintf(w, "\nfloor: bash -c starting tools/bench/floor (reads stdin, prints {}), peak RSS %.1f MB; RSS target ≤%d MB per hook process.\n",
		maxFloorRSS(r), rssTargetMB)
	for _, res := range r.Results {
		if res.Note != "" {
			fmt.Fprintf(w, "%s: %s\n", res.Case, res.Note)
		}
	}
}

func maxFloorRSS(r *Report) float64 {
	var m float64
	for _, res := range r.Results {
		m = max(m, res.FloorRSSMB)
	}
	return m
}

func size(n int) string {
	if n >= 1024 {
		return fmt.Sprintf("%.1f KB", float64(n)/1024)
	}
	return fmt.Sprintf("%d B", n)
}

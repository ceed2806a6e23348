// Package hostcli tells which Gemini CLI runs the hook: session-start warns
// a user whose CLI is too old, and the BeforeModel hook rewrites a request
// only where the CLI merges the rewrite back without losing the turns the
// hook cannot see.
package hostcli

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// Package is the npm package of Gemini CLI.
const Package = "@google/gemini-cli"

// MergesRewrittenRequest is the first Gemini CLI whose fromHookLLMRequest
// merges a BeforeModel hook's llm_request back into the request's contents.
// Before it (0.41.2 and older, read in their bundles) the returned messages
// replace the contents whole, as text only: every function call and
// function response would be dropped from the request.
const MergesRewrittenRequest = "0.42.0"

// RunningVersion is the version of the Gemini CLI that runs this hook,
// "" when it cannot be told. Gemini CLI passes hooks no version (neither
// in their input nor in their environment), and the `gemini` on PATH need
// not be the one running (npx, a second install), so it is read from the
// process tree: a hook is `bash -c <command>` started by Gemini CLI's node
// process, whose arguments name its script (<package>/bundle/gemini.js,
// or node_modules/.bin/gemini linking to it); the package.json above the
// script holds the version. Linux reads the tree from /proc; macOS and the
// BSDs ask ps (a few milliseconds a process, paid only when a request to
// the model holds a secret); Windows is not read ("").
func RunningVersion() string {
	var tree processTree
	switch runtime.GOOS {
	case "linux":
		tree = procfs{}
	case "darwin", "freebsd", "openbsd", "netbsd", "dragonfly":
		tree = psTree{}
	default:
		return ""
	}
	return versionUp(tree, os.Getppid())
}

// processTree reads a process's arguments, working directory ("" when
// unknown) and parent.
type processTree interface {
	args(pid int) (args []string, cwd string)
	parent(pid int) int
}

// versionUp looks for Gemini CLI's script among the arguments of pid and
// its ancestors: the shell, Gemini CLI's node process, the node process it
// relaunched itself from, whatever started that.
func versionUp(tree processTree, pid int) string {
	for range 4 {
		if pid <= 1 {
			return ""
		}
		args, cwd := tree.args(pid)
		if v := cliVersionOfArgs(args, cwd); v != "" {
			return v
		}
		pid = tree.parent(pid)
	}
	return ""
}

// cliVersionOfArgs is the Gemini CLI version read from the package.json
// above a script among a process's arguments.
func cliVersionOfArgs(args []string, cwd string) string {
	for _, arg := range args {
		if !strings.Contains(arg, "gemini") {
			continue
		}
		if !filepath.IsAbs(arg) {
			if cwd == "" {
				continue
			}
			arg = filepath.Join(cwd, arg)
		}
		if v := packageVersionAbove(arg); v != "" {
			return v
		}
		// npm's node_modules/.bin/gemini is a link to the package's
		// script: follow that link (only that one: the package directory
		// as npm laid it out is what holds its package.json).
		if target, err := os.Readlink(arg); err == nil {
			if !filepath.IsAbs(target) {
				target = filepath.Join(filepath.Dir(arg), target)
			}
			if v := packageVersionAbove(target); v != "" {
				return v
			}
		}
	}
	return ""
}

// procfs reads the process tree from Linux's /proc.
type procfs struct{}

func (procfs) args(pid int) ([]string, string) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	if err != nil {
		return nil, ""
	}
	cwd, _ := os.Readlink("/proc/" + strconv.Itoa(pid) + "/cwd")
	return strings.Split(string(data), "\x00"), cwd
}

// parent reads the parent of pid from /proc/<pid>/stat, 0 if unknown.
func (procfs) parent(pid int) int {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	// pid (comm) state ppid ...: comm may hold spaces and parentheses.
	i := strings.LastIndexByte(string(data), ')')
	if i < 0 {
		return 0
	}
	fields := strings.Fields(string(data[i+1:]))
	if len(fields) < 2 {
		return 0
	}
	ppid, _ := strconv.Atoi(fields[1])
	return ppid
}

// psTree reads the process tree with ps, where there is no /proc. ps
// prints the arguments joined by spaces: an install path with a space in
// it is not found (the version is then unknown, which is safe).
type psTree struct{}

func (psTree) args(pid int) ([]string, string) {
	out, err := psField(pid, "command")
	if err != nil {
		return nil, ""
	}
	return strings.Fields(out), ""
}

func (psTree) parent(pid int) int {
	out, err := psField(pid, "ppid")
	if err != nil {
		return 0
	}
	ppid, _ := strconv.Atoi(strings.TrimSpace(out))
	return ppid
}

// psField is one field of ps's line for pid (POSIX ps: -o field= -p pid).
func psField(pid int, field string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "ps", "-o", field+"=", "-p", strconv.Itoa(pid)).Output()
	return strings.TrimSpace(string(out)), err
}

// packageVersionAbove is the version in the nearest package.json of
// Gemini CLI's package in the directories above path (at most 4 up).
func packageVersionAbove(path string) string {
	dir := filepath.Dir(path)
	for range 4 {
		data, err := os.ReadFile(filepath.Join(dir, "package.json"))
		if err == nil {
			var p struct {
				Name    string `json:"name"`
				Version string `json:"version"`
			}
			if json.Unmarshal(data, &p) == nil && p.Name == Package {
				return p.Version
			}
		}
		up := filepath.Dir(dir)
		if up == dir {
			break
		}
		dir = up
	}
	return ""
}

// Before reports whether version v (major.minor.patch, as RunningVersion
// reads it) is older than min; ok is false when v is not such a version.
func Before(v, min string) (before, ok bool) {
	a, ok := parse(v)
	if !ok {
		return false, false
	}
	b, _ := parse(min)
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i], true
		}
	}
	return false, true
}

// parse reads major.minor.patch, with anything after the patch number
// (-preview.1, -nightly...) ignored.
func parse(v string) ([3]int, bool) {
	var out [3]int
	parts := strings.SplitN(v, ".", 3)
	if len(parts) != 3 {
		return out, false
	}
	if i := strings.IndexFunc(parts[2], func(r rune) bool { return r < '0' || r > '9' }); i >= 0 {
		parts[2] = parts[2][:i]
	}
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 {
			return out, false
		}
		out[i] = n
	}
	return out, true
}

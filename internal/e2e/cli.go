// Package e2e drives the real Gemini CLI with gemini-guard installed and a
// scripted model, for the end-to-end tests, `make demo` and the release
// check.
//
// Nothing is mocked: EnsureCLI installs the pinned @google/gemini-cli with
// npm into the user's cache directory, New builds and stages the extension
// and installs it with `gemini extensions install` into a throwaway HOME,
// and Session.Run starts the CLI headless with --fake-responses in a
// throwaway workspace. A run gives back the workspace, the parsed
// stream-json events, stderr and the session transcript.
//
// With --approval-mode yolo a tool call the guard fails to block really runs:
// scenarios use harmless stand-ins in their own temporary directories, and
// never touch the user's real ~/.gemini.
//
// Nothing here prints; errors say which step failed and carry the output of
// the command that failed.
package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
)

// CLIPackage and CLIVersion pin the Gemini CLI the tests run against. The
// hook behaviour gemini-guard relies on was read from this version.
const (
	CLIPackage = "@google/gemini-cli"
	CLIVersion = "0.61.0"
)

// MinNodeMajor is the oldest Node.js the pinned Gemini CLI runs on.
const MinNodeMajor = 20

// CLIDir is where the pinned CLI is installed:
// <user cache dir>/gemini-guard/gemini-cli-<version>.
func CLIDir() (string, error) { return CLIDirFor(CLIVersion) }

// CLIDirFor is where Gemini CLI version is installed:
// <user cache dir>/gemini-guard/gemini-cli-<version>.
func CLIDirFor(version string) (string, error) {
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("e2e: no user cache directory: %w", err)
	}
	return filepath.Join(cache, "gemini-guard", "gemini-cli-"+version), nil
}

// ErrNoNode says node or npm is missing. The end-to-end tests fail on it:
// a guard that was never run against the real CLI is not tested.
var ErrNoNode = errors.New("e2e: node and npm are required to run the real Gemini CLI (install Node.js 20 or newer, e.g. `apt-get install nodejs npm`)")

// EnsureCLI returns the path of the pinned gemini program, installing
// CLIPackage@CLIVersion with npm into CLIDir when it is absent or another
// version. A file lock keeps parallel test processes from installing at the
// same time. It fails with ErrNoNode when node or npm is not on PATH, and
// when node is older than MinNodeMajor.
func EnsureCLI(ctx context.Context) (string, error) { return EnsureCLIVersion(ctx, CLIVersion) }

// EnsureCLIVersion is EnsureCLI for any published version (the version
// matrix), each cached in its own CLIDirFor directory.
func EnsureCLIVersion(ctx context.Context, version string) (string, error) {
	dir, err := CLIDirFor(version)
	if err != nil {
		return "", err
	}
	return ensurePackage(ctx, CLIPackage, version, dir, "gemini")
}

// ensurePackage returns node_modules/.bin/<program> under dir, installing
// pkg@version there with npm first when it is absent or another version,
// under a file lock.
func ensurePackage(ctx context.Context, pkg, version, dir, program string) (string, error) {
	bin := filepath.Join(dir, "node_modules", ".bin", program)
	if runtime.GOOS == "windows" {
		bin += ".cmd"
	}
	node, err := exec.LookPath("node")
	if err != nil {
		return "", ErrNoNode
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		return "", ErrNoNode
	}
	if err := checkNodeVersion(ctx, node); err != nil {
		return "", err
	}
	if installedVersion(dir, pkg) == version {
		return bin, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("e2e: %w", err)
	}
	unlock, err := lockFile(dir + ".lock")
	if err != nil {
		return "", fmt.Errorf("e2e: lock %s: %w", dir+".lock", err)
	}
	defer unlock()
	if installedVersion(dir, pkg) == version { // another process installed it meanwhile
		return bin, nil
	}
	cmd := exec.CommandContext(ctx, npm, "install", "--prefix", dir, "--save-exact", "--no-audit", "--no-fund",
		"--loglevel=error", pkg+"@"+version)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("e2e: npm install %s@%s into %s: %w\n%s", pkg, version, dir, err, out.String())
	}
	if v := installedVersion(dir, pkg); v != version {
		return "", fmt.Errorf("e2e: npm installed %s version %q into %s, want %s", pkg, v, dir, version)
	}
	return bin, nil
}

// installedVersion is the version of npm package pkg under dir, or "".
func installedVersion(dir, pkg string) string {
	data, err := os.ReadFile(filepath.Join(dir, "node_modules", filepath.FromSlash(pkg), "package.json"))
	if err != nil {
		return ""
	}
	var p struct {
		Version string `json:"version"`
	}
	if json.Unmarshal(data, &p) != nil {
		return ""
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", ".bin")); err != nil {
		return ""
	}
	return p.Version
}

var nodeVersion = regexp.MustCompile(`^v(\d+)\.`)

func checkNodeVersion(ctx context.Context, node string) error {
	out, err := exec.CommandContext(ctx, node, "--version").Output()
	if err != nil {
		return fmt.Errorf("%w: `node --version` failed: %v", ErrNoNode, err)
	}
	m := nodeVersion.FindSubmatch(bytes.TrimSpace(out))
	if m == nil {
		return fmt.Errorf("e2e: cannot read node version from %q", out)
	}
	if major, _ := strconv.Atoi(string(m[1])); major < MinNodeMajor {
		return fmt.Errorf("%w: found node %s", ErrNoNode, bytes.TrimSpace(out))
	}
	return nil
}

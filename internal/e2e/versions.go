package e2e

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
)

// FloorVersion is the oldest Gemini CLI gemini-guard fully protects: hooks
// on by default (0.26), extension policies (0.32, the policy wall) with
// their deny_message shown. 0.32.0 was never published on npm.
const FloorVersion = "0.32.1"

// MatrixVersions is every Gemini CLI release `make test-matrix` runs the
// end-to-end tests on: the newest patch of each minor version from the
// floor to the pinned CLIVersion, as published on npm (no nightlies).
// Spelled out (the Makefile reads the list); a test keeps its ends equal
// to FloorVersion and CLIVersion.
var MatrixVersions = []string{
	"0.32.1", "0.33.2", "0.34.0", "0.35.3", "0.36.0", "0.37.2", "0.38.2", "0.39.1",
	"0.40.1", "0.41.2", "0.42.0", "0.43.0", "0.44.0", "0.45.2", "0.47.0", "0.51.0",
	"0.52.0", "0.53.0", "0.54.4", "0.55.1", "0.56.0", "0.57.0", "0.58.0", "0.59.0",
	"0.60.0", "0.61.0",
}

// VersionEnv names the Gemini CLI version the end-to-end tests run on
// (default CLIVersion); `make test` sets it to FloorVersion for a second
// run, `make test-matrix` to each of MatrixVersions.
const VersionEnv = "GEMINI_GUARD_E2E_CLI"

// Flags are the command-line flags a Gemini CLI version has that the
// harness uses when present.
type Flags struct {
	// SkipTrust (0.39+): run in an untrusted folder without asking.
	SkipTrust bool
	// SkipSettings (0.36+): `extensions install` asks no setting. Without
	// it the harness copies the extension into ~/.gemini/extensions, as
	// Gemini CLI's own install does, instead of answering prompts.
	SkipSettings bool
}

// DetectFlags reads which Flags gemini has from its --help and
// `extensions install --help`, run with home as HOME.
func DetectFlags(ctx context.Context, gemini, home string) (Flags, error) {
	help := func(args ...string) (string, error) {
		cmd := exec.CommandContext(ctx, gemini, args...)
		cmd.Env = append(withoutHome(os.Environ()), "HOME="+home, "USERPROFILE="+home, "NO_COLOR=1")
		cmd.Dir = home
		out, err := cmd.CombinedOutput()
		if err != nil {
			return "", fmt.Errorf("e2e: gemini %s: %w\n%s", strings.Join(args, " "), err, out)
		}
		return string(out), nil
	}
	main, err := help("--help")
	if err != nil {
		return Flags{}, err
	}
	install, err := help("extensions", "install", "--help")
	if err != nil {
		return Flags{}, err
	}
	return Flags{
		SkipTrust:    strings.Contains(main, "--skip-trust"),
		SkipSettings: strings.Contains(install, "--skip-settings"),
	}, nil
}

func withoutHome(env []string) []string {
	var out []string
	for _, kv := range env {
		if !strings.HasPrefix(kv, "HOME=") && !strings.HasPrefix(kv, "USERPROFILE=") {
			out = append(out, kv)
		}
	}
	return out
}

// copyInstall installs ext into s's HOME the way `gemini extensions
// install` lays it out, for versions whose installer has no --skip-settings
// and would ask for every setting.
func copyInstall(ext string, s *Session) error {
	if err := copyDir(ext, s.ExtensionDir()); err != nil {
		return fmt.Errorf("e2e: copy the extension into %s: %w", s.ExtensionDir(), err)
	}
	return nil
}

// CLIVersionUnderTest is the Gemini CLI version VersionEnv asks for, or
// CLIVersion.
func CLIVersionUnderTest() string {
	if v := os.Getenv(VersionEnv); v != "" {
		return v
	}
	return CLIVersion
}

package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/bundle"
)

// The host's release archive, as `make dist` builds it, unpacked the way a
// user (or Gemini CLI's release download) would and installed with the real
// CLI, guards a session.
func TestReleaseArchiveInstallsAndGuards(t *testing.T) {
	t.Parallel()
	h := harness(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()

	host := bundle.Host()
	if host.Windows() {
		t.Skip("the release check unpacks a tar.gz with tar; Windows archives are zip (untested on real Windows)")
	}
	out := t.TempDir()
	goTool, err := bundle.GoTool()
	require.NoError(t, err)
	cmd := exec.CommandContext(ctx, goTool, "run", "./tools/dist", "-out", out, "-platforms", "host")
	cmd.Dir = h.Root
	output, err := cmd.CombinedOutput()
	require.NoError(t, err, "go run ./tools/dist: %s", output)

	archive := filepath.Join(out, host.ArchiveName())
	require.FileExists(t, archive)
	require.FileExists(t, filepath.Join(out, "SHA256SUMS"))

	unpacked := filepath.Join(t.TempDir(), "gemini-guard")
	require.NoError(t, os.MkdirAll(unpacked, 0o755))
	tarOut, err := exec.CommandContext(ctx, "tar", "-xzf", archive, "-C", unpacked).CombinedOutput()
	require.NoError(t, err, "tar: %s", tarOut)

	// Layout: the manifest at the root, hooks, and every program hooks.json runs.
	assert.FileExists(t, filepath.Join(unpacked, "gemini-extension.json"))
	hooksJSON, err := os.ReadFile(filepath.Join(unpacked, "hooks", "hooks.json"))
	require.NoError(t, err)
	hooks, err := hookPrograms(hooksJSON)
	require.NoError(t, err)
	for _, name := range hooks {
		info, err := os.Stat(filepath.Join(unpacked, "bin", name))
		if assert.NoError(t, err, "bin/%s is missing from the archive", name) {
			assert.NotZero(t, info.Mode()&0o111, "bin/%s is not executable", name)
		}
	}
	for _, name := range bundle.Optional {
		if _, err := os.Stat(filepath.Join(h.Root, name)); err == nil {
			_, err := os.Stat(filepath.Join(unpacked, name))
			assert.NoError(t, err, "%s is in the repository but not in the archive", name)
		}
	}

	s, err := h.Install(ctx, unpacked, t.TempDir())
	require.NoError(t, err)
	token := GitHubToken(6)
	r := run(t, s,
		WriteFile("Saving the program.", "hello.go", helloGo),
		WriteFile("Saving the token.", "token.txt", token+"\n"),
		Say("Done."),
	)
	calls := r.ToolCalls()
	require.Len(t, calls, 2, dump(r))
	assertRan(t, r, calls[0])
	assertBlocked(t, r, calls[1], "github-pat")
	assertNotCreated(t, r, "token.txt", "token.txt was written through the installed archive")
	assertSecretNotShown(t, r, token)
}

// hookPrograms lists the programs hooks.json runs from bin/.
func hookPrograms(data []byte) ([]string, error) {
	f, err := bundle.ParseHooks(data)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var names []string
	for _, groups := range f.Hooks {
		for _, g := range groups {
			for _, hk := range g.Hooks {
				c, err := bundle.ParseCommand(hk.Command)
				if err != nil {
					return nil, err
				}
				if !seen[c.Binary] {
					seen[c.Binary] = true
					names = append(names, c.Binary)
				}
			}
		}
	}
	return names, nil
}

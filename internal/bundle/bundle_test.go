package bundle

import (
	"archive/tar"
	"archive/zip"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func readHooks(t *testing.T) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "hooks", "hooks.json"))
	require.NoError(t, err)
	return data
}

func TestPlatformNames(t *testing.T) {
	cases := []struct {
		p       Platform
		node    string
		archive string
	}{
		{Platform{"linux", "amd64"}, "linux.x64", "linux.x64.gemini-guard.tar.gz"},
		{Platform{"linux", "arm64"}, "linux.arm64", "linux.arm64.gemini-guard.tar.gz"},
		{Platform{"darwin", "amd64"}, "darwin.x64", "darwin.x64.gemini-guard.tar.gz"},
		{Platform{"darwin", "arm64"}, "darwin.arm64", "darwin.arm64.gemini-guard.tar.gz"},
		{Platform{"windows", "amd64"}, "win32.x64", "win32.x64.gemini-guard.zip"},
		{Platform{"windows", "arm64"}, "win32.arm64", "win32.arm64.gemini-guard.zip"},
	}
	require.Len(t, Platforms, len(cases))
	for i, c := range cases {
		t.Run(c.node, func(t *testing.T) {
			assert.Equal(t, c.p, Platforms[i])
			assert.Equal(t, c.node, c.p.Node())
			assert.Equal(t, c.archive, c.p.ArchiveName())
			for _, spelling := range []string{c.p.GOOS + "/" + c.p.GOARCH, c.node} {
				got, err := ParsePlatform(spelling)
				require.NoError(t, err)
				assert.Equal(t, c.p, got, spelling)
			}
		})
	}
	_, err := ParsePlatform("linux")
	assert.Error(t, err)
}

// Every command in hooks.json must be in the one shape the Windows generator
// understands, and must run a program that cmd/ builds.
func TestHooksJSONCommandsParse(t *testing.T) {
	f, err := ParseHooks(readHooks(t))
	require.NoError(t, err)
	require.NotEmpty(t, f.Hooks)
	for event, groups := range f.Hooks {
		for _, g := range groups {
			for _, h := range g.Hooks {
				t.Run(event+"/"+h.Name, func(t *testing.T) {
					c, err := ParseCommand(h.Command)
					require.NoError(t, err)
					assert.DirExists(t, filepath.Join("..", "..", "cmd", c.Binary))
					assert.NotEmpty(t, c.Fallback)
				})
			}
		}
	}
}

func TestParseCommandRejectsOtherShapes(t *testing.T) {
	for name, cmd := range map[string]string{
		"plain path":        `'${extensionPath}${/}bin${/}guard-shell'`,
		"no fallback":       `b='${extensionPath}${/}bin${/}guard-shell'; [ -x "$b" ] && exec "$b"`,
		"fallback not json": `b='${extensionPath}${/}bin${/}guard-shell'; [ -x "$b" ] && exec "$b" || echo 'oops'`,
		"extra command":     `b='${extensionPath}${/}bin${/}guard-shell'; [ -x "$b" ] && exec "$b" || echo '{}'; rm -rf x`,
	} {
		t.Run(name, func(t *testing.T) {
			_, err := ParseCommand(cmd)
			assert.Error(t, err)
		})
	}
}

func TestPowerShellHooksKeepEverythingButTheCommand(t *testing.T) {
	data := readHooks(t)
	bash, err := ParseHooks(data)
	require.NoError(t, err)
	out, err := PowerShellHooks(data)
	require.NoError(t, err)
	ps, err := ParseHooks(out)
	require.NoError(t, err)

	require.Equal(t, len(bash.Hooks), len(ps.Hooks))
	for event, groups := range bash.Hooks {
		require.Len(t, ps.Hooks[event], len(groups), event)
		for gi, g := range groups {
			pg := ps.Hooks[event][gi]
			assert.Equal(t, g.Matcher, pg.Matcher)
			assert.Equal(t, g.Sequential, pg.Sequential)
			require.Len(t, pg.Hooks, len(g.Hooks))
			for hi, h := range g.Hooks {
				p := pg.Hooks[hi]
				c, err := ParseCommand(h.Command)
				require.NoError(t, err)
				assert.Equal(t, h.Name, p.Name)
				assert.Equal(t, h.Type, p.Type)
				assert.Equal(t, h.Timeout, p.Timeout)
				assert.Equal(t, h.Description, p.Description)
				assert.Equal(t, c.PowerShell(), p.Command)
				assert.Contains(t, p.Command, "bin${/}"+c.Binary+".exe'")
				assert.Contains(t, p.Command, "Write-Output '"+strings.ReplaceAll(c.Fallback, "'", "''")+"'")
				assert.NotContains(t, p.Command, "exec ")
			}
		}
	}
}

func TestPowerShellCommand(t *testing.T) {
	c := Command{Binary: "guard-redact", Args: []string{"after-model"}, Fallback: `{"systemMessage":"it's missing"}`}
	assert.Equal(t,
		`$b = '${extensionPath}${/}bin${/}guard-redact.exe'; if (Test-Path -LiteralPath $b -PathType Leaf) { & $b after-model } else { Write-Output '{"systemMessage":"it''s missing"}' }`,
		c.PowerShell())
}

func TestExpand(t *testing.T) {
	cmd := `b='${extensionPath}${/}bin${/}guard-shell'; [ -x "$b" ] && exec "$b" || echo '{}'`
	assert.Equal(t, `b='/x y/ext/bin/guard-shell'; [ -x "$b" ] && exec "$b" || echo '{}'`, Expand(cmd, "/x y/ext", "/"))
}

func TestFindRoot(t *testing.T) {
	root, err := FindRoot(".")
	require.NoError(t, err)
	assert.FileExists(t, filepath.Join(root, "gemini-extension.json"))
	_, err = FindRoot(t.TempDir())
	assert.Error(t, err)
}

func makeTree(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"gemini-extension.json":   `{"name":"gemini-guard","version":"0.0.0"}`,
		"hooks/hooks.json":        `{"hooks":{}}`,
		"skills/secrets/SKILL.md": "# skill\n",
	}
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(body), 0o644))
	}
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "bin"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "bin", "guard-shell"), []byte("#!/bin/sh\n"), 0o755))
	return dir
}

var wantEntries = map[string]int64{
	"bin/":                    0o755,
	"bin/guard-shell":         0o755,
	"gemini-extension.json":   0o644,
	"hooks/":                  0o755,
	"hooks/hooks.json":        0o644,
	"skills/":                 0o755,
	"skills/secrets/":         0o755,
	"skills/secrets/SKILL.md": 0o644,
}

func TestArchiveTarGz(t *testing.T) {
	dir := makeTree(t)
	out := filepath.Join(t.TempDir(), "linux.x64.gemini-guard.tar.gz")
	require.NoError(t, Archive(dir, out))

	f, err := os.Open(out)
	require.NoError(t, err)
	defer f.Close()
	gz, err := gzip.NewReader(f)
	require.NoError(t, err)
	tr := tar.NewReader(gz)
	got := map[string]int64{}
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		got[hdr.Name] = hdr.Mode
	}
	assert.Equal(t, wantEntries, got)

	// Same input, same bytes.
	again := filepath.Join(t.TempDir(), "again.tar.gz")
	require.NoError(t, Archive(dir, again))
	a, _ := os.ReadFile(out)
	b, _ := os.ReadFile(again)
	assert.Equal(t, a, b)
}

func TestArchiveZip(t *testing.T) {
	dir := makeTree(t)
	out := filepath.Join(t.TempDir(), "win32.x64.gemini-guard.zip")
	require.NoError(t, Archive(dir, out))
	zr, err := zip.OpenReader(out)
	require.NoError(t, err)
	defer zr.Close()
	got := map[string]int64{}
	for _, f := range zr.File {
		got[f.Name] = int64(f.Mode().Perm())
	}
	assert.Equal(t, wantEntries, got)
}

// TestMakefileBuildsAsTheRelease: `make build` is Build for the host, so
// its tags, flags and start-up patches are the release's.
func TestMakefileBuildsAsTheRelease(t *testing.T) {
	data, err := os.ReadFile("../../Makefile")
	require.NoError(t, err)
	assert.Contains(t, string(data), "\t$(GO) run ./tools/dist -bin $(BIN)\n")
}

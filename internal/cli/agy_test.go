package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/hook"
)

// fakeBin is a bin/ directory with an executable stand-in for each agy
// program, under a name with a space and a quote (the commands must quote).
func fakeBin(t *testing.T) string {
	bin := filepath.Join(t.TempDir(), "gemini guard's", "bin")
	require.NoError(t, os.MkdirAll(bin, 0o755))
	for _, name := range agyBinaries {
		require.NoError(t, os.WriteFile(filepath.Join(bin, name+exeSuffix()), []byte("#!/bin/sh\n"), 0o755))
	}
	return bin
}

func agyRunCLI(t *testing.T, home string, args ...string) (int, string, string) {
	t.Helper()
	return run(t, map[string]string{"HOME": home}, "", append([]string{"agy"}, args...)...)
}

func TestAgyInstallIntoMissingFile(t *testing.T) {
	home, bin := t.TempDir(), fakeBin(t)
	code, out, errOut := agyRunCLI(t, home, "install", "--bin", bin)
	require.Equal(t, 0, code, errOut)
	path := filepath.Join(home, ".gemini", "config", "hooks.json")
	assert.Contains(t, out, path)
	assert.NotContains(t, out, ".bak", "no previous file, no backup")
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	var file map[string]agyEntry
	require.NoError(t, json.Unmarshal(data, &file))
	assert.Equal(t, agyEntryFor(bin), file[AgyHookName])
	for _, c := range agyCommands(file[AgyHookName]) {
		assert.True(t, isExecutable(commandProgram(c)), "the command's program is the absolute path: %s", c)
		assert.True(t, filepath.IsAbs(commandProgram(c)))
	}
}

func TestAgyInstallKeepsOtherHooks(t *testing.T) {
	home, bin := t.TempDir(), fakeBin(t)
	path := filepath.Join(home, ".gemini", "config", "hooks.json")
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	seed, err := os.ReadFile(filepath.Join("testdata", "agy", "hooks-other.json"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, seed, 0o600))

	code, _, errOut := agyRunCLI(t, home, "install", "--bin", bin)
	require.Equal(t, 0, code, errOut)
	data, _ := os.ReadFile(path)
	ms, err := readMembers(data)
	require.NoError(t, err)
	keys := []string{}
	for _, m := range ms {
		keys = append(keys, m.Key)
	}
	assert.Equal(t, []string{"lint-on-save", "session-logger", AgyHookName}, keys, "others first, in their order")
	old, _ := readMembers(seed)
	assert.True(t, sameMembers(old, ms[:2]), "the other hooks, unknown keys and all, are unchanged")
	info, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), info.Mode().Perm(), "the file's mode is kept")
	bak, _ := os.ReadFile(path + ".bak")
	assert.Equal(t, string(seed), string(bak))

	// Idempotent; a newer install (another bin) replaces in place.
	code, out, _ := agyRunCLI(t, home, "install", "--bin", bin)
	assert.Equal(t, 0, code)
	assert.Contains(t, out, "already registered")
	bin2 := fakeBin(t)
	code, _, _ = agyRunCLI(t, home, "install", "--bin", bin2)
	assert.Equal(t, 0, code)
	data, _ = os.ReadFile(path)
	ms, _ = readMembers(data)
	require.Len(t, ms, 3)
	var e agyEntry
	require.NoError(t, json.Unmarshal(ms[2].Value, &e))
	assert.Equal(t, filepath.Join(bin2, "guard-shell"+exeSuffix()), commandProgram(e.PreToolUse[0].Hooks[0].Command))

	code, _, _ = agyRunCLI(t, home, "uninstall")
	assert.Equal(t, 0, code)
	data, _ = os.ReadFile(path)
	ms, _ = readMembers(data)
	assert.True(t, sameMembers(old, ms), "uninstall removes exactly gemini-guard's hook")
	code, out, _ = agyRunCLI(t, home, "uninstall")
	assert.Equal(t, 0, code)
	assert.Contains(t, out, "not registered")
}

func TestAgyInstallRefusesWhatItCannotRead(t *testing.T) {
	home, bin := t.TempDir(), fakeBin(t)
	path := filepath.Join(home, ".gemini", "config", "hooks.json")
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	for _, bad := range []string{`{"a": {"PreToolUse": [`, `[1, 2]`, `{"a": {}} trailing`, `not json`} {
		require.NoError(t, os.WriteFile(path, []byte(bad), 0o644))
		code, _, errOut := agyRunCLI(t, home, "install", "--bin", bin)
		assert.Equal(t, 2, code, bad)
		assert.Contains(t, errOut, "left as it is")
		data, _ := os.ReadFile(path)
		assert.Equal(t, bad, string(data), "a file it cannot read is never replaced")
		code, _, _ = agyRunCLI(t, home, "uninstall")
		assert.Equal(t, 2, code)
	}
	assert.NoFileExists(t, path+".bak")

	// A file agy would drop whole: installed, and said so.
	require.NoError(t, os.WriteFile(path, []byte(`{"version": 1, "other": {"Stop": []}}`), 0o644))
	code, _, errOut := agyRunCLI(t, home, "install", "--bin", bin)
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "version")
	code, out, _ := agyRunCLI(t, home, "status", "--bin", bin)
	assert.Equal(t, 1, code)
	assert.Contains(t, out, "FAIL agy drops this whole file")

	// Missing programs: nothing written.
	require.NoError(t, os.Remove(filepath.Join(bin, "guard-secrets"+exeSuffix())))
	require.NoError(t, os.WriteFile(path, []byte(`{}`), 0o644))
	code, _, errOut = agyRunCLI(t, home, "install", "--bin", bin)
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "guard-secrets")
	data, _ := os.ReadFile(path)
	assert.Equal(t, `{}`, string(data))
}

func TestAgyStatus(t *testing.T) {
	home, bin := t.TempDir(), fakeBin(t)
	code, out, _ := agyRunCLI(t, home, "status", "--bin", bin)
	assert.Equal(t, 1, code)
	assert.Contains(t, out, "absent")
	require.Equal(t, 0, func() int { c, _, _ := agyRunCLI(t, home, "install", "--bin", bin); return c }())
	code, out, _ = agyRunCLI(t, home, "status", "--bin", bin)
	assert.Equal(t, 0, code, out)
	assert.Equal(t, 3, strings.Count(out, "  ok   "), out)

	// A program gone: agy would block every call it matches.
	require.NoError(t, os.Chmod(filepath.Join(bin, "guard-shell"+exeSuffix()), 0o644))
	code, out, _ = agyRunCLI(t, home, "status", "--bin", bin)
	assert.Equal(t, 1, code)
	assert.Contains(t, out, "FAIL")
	assert.Contains(t, out, "guard-shell is missing or not executable")

	// Switched off in agy's /hooks.
	require.NoError(t, os.Chmod(filepath.Join(bin, "guard-shell"+exeSuffix()), 0o755))
	path := filepath.Join(home, ".gemini", "config", "hooks.json")
	data, _ := os.ReadFile(path)
	require.NoError(t, os.WriteFile(path, []byte(strings.Replace(string(data), `"enabled": true`, `"enabled": false`, 1)), 0o644))
	code, out, _ = agyRunCLI(t, home, "status", "--bin", bin)
	assert.Equal(t, 1, code)
	assert.Contains(t, out, "switched off")
}

func TestAgyWorkspaceAndSymlink(t *testing.T) {
	home, ws, bin := t.TempDir(), t.TempDir(), fakeBin(t)
	code, out, errOut := agyRunCLI(t, home, "install", "--workspace", ws, "--bin", bin)
	require.Equal(t, 0, code, errOut)
	assert.FileExists(t, filepath.Join(ws, ".agents", "hooks.json"))
	assert.Contains(t, out, "open workspace")
	assert.NoFileExists(t, filepath.Join(home, ".gemini", "config", "hooks.json"))

	// hooks.json a link into a dotfiles repository: the target is updated,
	// the link kept.
	dot := filepath.Join(t.TempDir(), "hooks.json")
	require.NoError(t, os.WriteFile(dot, []byte(`{"mine": {"Stop": []}}`), 0o644))
	link := filepath.Join(home, ".gemini", "config", "hooks.json")
	require.NoError(t, os.MkdirAll(filepath.Dir(link), 0o755))
	require.NoError(t, os.Symlink(dot, link))
	code, _, errOut = agyRunCLI(t, home, "install", "--bin", bin)
	require.Equal(t, 0, code, errOut)
	info, err := os.Lstat(link)
	require.NoError(t, err)
	assert.NotZero(t, info.Mode()&os.ModeSymlink, "still a link")
	data, _ := os.ReadFile(dot)
	assert.Contains(t, string(data), `"mine"`)
	assert.Contains(t, string(data), `"gemini-guard"`)
}

// Each program agy runs judges the tools its matcher selects: the tools
// hook translates, and the matchers are anchored regexps that select
// exactly them.
func TestAgyMatchers(t *testing.T) {
	e := agyEntryFor("/x/bin")
	require.Len(t, e.PreToolUse, 2)
	for i, g := range e.PreToolUse {
		re := regexp.MustCompile(g.Matcher)
		for _, tool := range agyHooks[i].Tools {
			assert.True(t, re.MatchString(tool), tool)
			assert.False(t, re.MatchString(tool+"_x"), "anchored")
		}
		assert.False(t, re.MatchString("browser_navigate"))
	}
	for _, h := range agyHooks {
		assert.Contains(t, []string{hook.AgyPreToolUse, hook.AgyPreInvocation}, h.Event)
		assert.Contains(t, h.Args, "--host agy "+h.Event, "the event is on the command line")
	}
	assert.Equal(t, "/x/bin/guard-shell --host agy PreToolUse", e.PreToolUse[0].Hooks[0].Command, "a plain path is not quoted")
	assert.Equal(t, `'/a b/it'\''s'`, shellQuote("/a b/it's"))
	assert.Equal(t, "/a b/it's", commandProgram(shellQuote("/a b/it's")+" --host agy PreToolUse"))
}

// doctor reports the agy registration: absent is no problem, registered
// but broken fails the whole report (agy would block every tool call).
func TestDoctorReportsAgy(t *testing.T) {
	ext := fakeExtension(t, nil)
	home := t.TempDir()
	code, r, raw := doctorJSON(t, map[string]string{"HOME": home}, ext)
	assert.Equal(t, 0, code, raw)
	assert.Equal(t, statusSkip, statusOf(r)["antigravity cli"])

	bin := fakeBin(t)
	c, _, _ := agyRunCLI(t, home, "install", "--bin", bin)
	require.Equal(t, 0, c)
	code, r, raw = doctorJSON(t, map[string]string{"HOME": home}, ext)
	assert.Equal(t, statusOK, statusOf(r)["antigravity cli"], detailOf(r, "antigravity cli"))
	assert.Contains(t, detailOf(r, "antigravity cli"), "differs from what this gemini-guard", "installed from another bin than the extension's")
	assert.Equal(t, 0, code, raw)

	require.NoError(t, os.Remove(filepath.Join(bin, "guard-shell"+exeSuffix())))
	code, r, _ = doctorJSON(t, map[string]string{"HOME": home}, ext)
	assert.Equal(t, statusFail, statusOf(r)["antigravity cli"])
	assert.Equal(t, 1, code)
}

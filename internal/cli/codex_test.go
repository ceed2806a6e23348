package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// codexFakeBin is a bin/ with an executable stand-in for each program the
// Codex hooks need, under a name with a space and a quote.
func codexFakeBin(t *testing.T) string {
	bin := filepath.Join(t.TempDir(), "gemini guard's", "bin")
	require.NoError(t, os.MkdirAll(bin, 0o755))
	for _, name := range codexBinaries {
		require.NoError(t, os.WriteFile(filepath.Join(bin, name+exeSuffix()), []byte("#!/bin/sh\n"), 0o755))
	}
	return bin
}

func codexRunCLI(t *testing.T, home string, args ...string) (int, string, string) {
	t.Helper()
	return run(t, map[string]string{"HOME": home}, "", append([]string{"codex"}, args...)...)
}

func TestCodexTrustHash(t *testing.T) {
	// A third party's golden, captured from Codex itself (gwt's
	// command_hook_hash_matches_codex_for_known_post_tool_use_fixture):
	// post_tool_use, matcher "*", the default timeout.
	star := "*"
	assert.Equal(t, "sha256:9c3ce103f03f0b27a28bc4a30883f7e98a80b5df566b4572fcbb2955ebf5ba62",
		codexTrustHash("post_tool_use", &star, codexHandler{Type: "command", Command: "'/Applications/GWT.app/Contents/MacOS/gwtd' hook event PostToolUse"}))
	six := int64(600)
	assert.Equal(t, codexTrustHash("post_tool_use", &star, codexHandler{Command: "x"}),
		codexTrustHash("post_tool_use", &star, codexHandler{Command: "x", Timeout: &six}), "600 s is the default")
	ten := int64(10)
	assert.NotEqual(t, codexTrustHash("post_tool_use", &star, codexHandler{Command: "x"}),
		codexTrustHash("post_tool_use", &star, codexHandler{Command: "x", Timeout: &ten}))
	assert.Equal(t, codexTrustHash("stop", &star, codexHandler{Command: "x"}), codexTrustHash("stop", nil, codexHandler{Command: "x"}),
		"Stop ignores its matcher")
	assert.NotEqual(t, codexTrustHash("pre_tool_use", &star, codexHandler{Command: "x"}), codexTrustHash("pre_tool_use", nil, codexHandler{Command: "x"}))
}

const codexUserHooks = `{
  "version": 1,
  "hooks": {
    "PreToolUse": [{"matcher": "^Bash$", "hooks": [{"type": "command", "command": "/opt/audit.sh", "timeout": 5}]}],
    "Stop": [{"hooks": [{"type": "command", "command": "/opt/stop.sh"}]}]
  }
}`

const codexUserConfig = `# my settings
model = "gpt-5.5"
approval_policy = "never"

[projects."/src/x"]
trust_level = "trusted"

[hooks.state."HOOKS:pre_tool_use:0:0"]
trusted_hash = "sha256:user"
`

func TestCodexInstallStatusUninstall(t *testing.T) {
	home, bin := t.TempDir(), codexFakeBin(t)
	codexDir := filepath.Join(home, ".codex")
	hooksPath, configPath := filepath.Join(codexDir, "hooks.json"), filepath.Join(codexDir, "config.toml")
	require.NoError(t, os.MkdirAll(codexDir, 0o755))
	require.NoError(t, os.WriteFile(hooksPath, []byte(codexUserHooks), 0o644))
	userConfig := strings.ReplaceAll(codexUserConfig, "HOOKS", hooksPath)
	require.NoError(t, os.WriteFile(configPath, []byte(userConfig), 0o600))

	code, out, errOut := codexRunCLI(t, home, "install", "--bin", bin)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, hooksPath)

	// hooks.json: the user's groups first and untouched, ours after.
	data, err := os.ReadFile(hooksPath)
	require.NoError(t, err)
	var file struct {
		Version int
		Hooks   map[string][]codexGroup
	}
	require.NoError(t, json.Unmarshal(data, &file))
	assert.Equal(t, 1, file.Version)
	require.Len(t, file.Hooks["PreToolUse"], 3)
	assert.Contains(t, string(file.Hooks["PreToolUse"][0].Hooks[0]), "/opt/audit.sh")
	assert.Len(t, file.Hooks["Stop"], 1)
	assert.Len(t, file.Hooks["PostToolUse"], 1)
	assert.Len(t, file.Hooks["SessionStart"], 1)

	// config.toml: everything kept, comments too; one trusted entry per
	// handler of ours, with the hash Codex computes.
	config, err := os.ReadFile(configPath)
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(string(config), userConfig), string(config))
	var doc map[string]any
	require.NoError(t, toml.Unmarshal(config, &doc))
	trusts, err := codexTrusts(hooksPath, data)
	require.NoError(t, err)
	require.Len(t, trusts, 4)
	for _, tr := range trusts {
		st := codexStateOf(doc, tr.Key)
		assert.True(t, st.Enabled, tr.Key)
		assert.Equal(t, tr.Hash, st.Hash, tr.Key)
		assert.True(t, filepath.IsAbs(commandProgram(tr.Command)), tr.Command)
		assert.True(t, isExecutable(commandProgram(tr.Command)), tr.Command)
	}
	assert.Contains(t, trusts[0].Key, hooksPath+":pre_tool_use:1:0")
	assert.Equal(t, "sha256:user", codexStateOf(doc, hooksPath+":pre_tool_use:0:0").Hash)

	code, out, _ = codexRunCLI(t, home, "status", "--bin", bin)
	assert.Equal(t, 0, code, out)
	assert.Contains(t, out, "ok ")

	// Idempotent.
	code, out, _ = codexRunCLI(t, home, "install", "--bin", bin)
	assert.Equal(t, 0, code)
	assert.Contains(t, out, "already registered")
	again, _ := os.ReadFile(configPath)
	assert.Equal(t, string(config), string(again))

	// An edited hook has lost its trust: status says so.
	edited := strings.Replace(string(data), `"timeout": 30`, `"timeout": 31`, 1)
	require.NotEqual(t, string(data), edited)
	require.NoError(t, os.WriteFile(hooksPath, []byte(edited), 0o644))
	code, out, _ = codexRunCLI(t, home, "status", "--bin", bin)
	assert.Equal(t, 1, code)
	assert.Contains(t, out, "lost its trust")

	// enabled = false switches a hook off.
	require.NoError(t, os.WriteFile(hooksPath, data, 0o644))
	off := strings.Replace(string(config), "enabled = true", "enabled = false", 1)
	require.NoError(t, os.WriteFile(configPath, []byte(off), 0o600))
	code, out, _ = codexRunCLI(t, home, "status", "--bin", bin)
	assert.Equal(t, 1, code)
	assert.Contains(t, out, "switched off")

	// Install repairs both.
	code, _, errOut = codexRunCLI(t, home, "install", "--bin", bin)
	require.Equal(t, 0, code, errOut)
	code, out, _ = codexRunCLI(t, home, "status", "--bin", bin)
	assert.Equal(t, 0, code, out)

	// Uninstall leaves the user's hooks and their trust as they were.
	code, _, errOut = codexRunCLI(t, home, "uninstall")
	require.Equal(t, 0, code, errOut)
	data, _ = os.ReadFile(hooksPath)
	assert.NotContains(t, string(data), "--host codex")
	assert.Contains(t, string(data), "/opt/audit.sh")
	assert.Contains(t, string(data), "/opt/stop.sh")
	config, _ = os.ReadFile(configPath)
	assert.Equal(t, userConfig, string(config))
	code, out, _ = codexRunCLI(t, home, "status", "--bin", bin)
	assert.Equal(t, 1, code)
	assert.Contains(t, out, "not registered")
}

func TestCodexUninstallKeepsTheTrustOfHooksThatMove(t *testing.T) {
	home, bin := t.TempDir(), codexFakeBin(t)
	code, _, errOut := codexRunCLI(t, home, "install", "--bin", bin)
	require.Equal(t, 0, code, errOut)
	hooksPath, configPath := filepath.Join(home, ".codex", "hooks.json"), filepath.Join(home, ".codex", "config.toml")

	// The user adds a PreToolUse group after ours, and trusts it.
	data, _ := os.ReadFile(hooksPath)
	var file map[string]map[string][]json.RawMessage
	require.NoError(t, json.Unmarshal(data, &file))
	file["hooks"]["PreToolUse"] = append(file["hooks"]["PreToolUse"], json.RawMessage(`{"matcher":"*","hooks":[{"type":"command","command":"/opt/mine.sh"}]}`))
	data, _ = json.Marshal(file)
	require.NoError(t, os.WriteFile(hooksPath, data, 0o644))
	config, _ := os.ReadFile(configPath)
	config = append(config, []byte("\n[hooks.state."+tomlString(hooksPath+":pre_tool_use:2:0")+"]\ntrusted_hash = \"sha256:mine\"\n")...)
	require.NoError(t, os.WriteFile(configPath, config, 0o600))

	code, _, errOut = codexRunCLI(t, home, "uninstall")
	require.Equal(t, 0, code, errOut)
	config, _ = os.ReadFile(configPath)
	var doc map[string]any
	require.NoError(t, toml.Unmarshal(config, &doc))
	assert.Equal(t, "sha256:mine", codexStateOf(doc, hooksPath+":pre_tool_use:0:0").Hash, "the user's hook is now group 0, still trusted")
	assert.False(t, codexStateOf(doc, hooksPath+":pre_tool_use:2:0").Present)
	assert.NotContains(t, string(config), "--host codex")
}

func TestCodexInstallRefusesWhatItCannotMerge(t *testing.T) {
	home, bin := t.TempDir(), codexFakeBin(t)
	dir := filepath.Join(home, ".codex")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	for name, files := range map[string][2]string{
		"hooks not json":  {`{"hooks": `, ""},
		"config not toml": {"", "model = \n"},
		"inline state":    {"", "[hooks]\nstate = { }\n"},
	} {
		t.Run(name, func(t *testing.T) {
			os.Remove(filepath.Join(dir, "hooks.json"))
			os.Remove(filepath.Join(dir, "config.toml"))
			if files[0] != "" {
				require.NoError(t, os.WriteFile(filepath.Join(dir, "hooks.json"), []byte(files[0]), 0o644))
			}
			if files[1] != "" {
				require.NoError(t, os.WriteFile(filepath.Join(dir, "config.toml"), []byte(files[1]), 0o644))
			}
			code, _, errOut := codexRunCLI(t, home, "install", "--bin", bin)
			assert.Equal(t, 2, code)
			assert.Contains(t, errOut, "left as it is")
			if files[0] != "" {
				got, _ := os.ReadFile(filepath.Join(dir, "hooks.json"))
				assert.Equal(t, files[0], string(got))
			}
		})
	}
}

func TestCodexProjectInstall(t *testing.T) {
	home, bin, project := t.TempDir(), codexFakeBin(t), t.TempDir()
	t.Chdir(project)
	code, out, errOut := codexRunCLI(t, home, "install", "--project", "--bin", bin)
	require.Equal(t, 0, code, errOut)
	hooksPath := filepath.Join(project, ".codex", "hooks.json")
	assert.Contains(t, out, hooksPath)
	config, err := os.ReadFile(filepath.Join(home, ".codex", "config.toml"))
	require.NoError(t, err)
	assert.Contains(t, string(config), tomlString(hooksPath+":pre_tool_use:0:0"), "trust is kept in the user's config.toml")
	code, out, _ = codexRunCLI(t, home, "status", "--project", "--bin", bin)
	assert.Equal(t, 0, code, out)
	assert.Contains(t, out, "project scope")
	assert.Contains(t, out, "only when the project is trusted")

	configPath := filepath.Join(home, ".codex", "config.toml")
	config, err = os.ReadFile(configPath)
	require.NoError(t, err)
	untrusted := append([]byte("[projects."+tomlString(project)+"]\ntrust_level = \"untrusted\"\n\n"), config...)
	require.NoError(t, os.WriteFile(configPath, untrusted, 0o600))
	code, out, _ = codexRunCLI(t, home, "status", "--project", "--bin", bin)
	assert.Equal(t, 1, code, out)
	assert.Contains(t, out, "is untrusted in Codex")
}

func TestCodexHomeIsItsRealPath(t *testing.T) {
	real := t.TempDir()
	link := filepath.Join(t.TempDir(), "link")
	require.NoError(t, os.Symlink(real, link))
	got, err := codexHome(func(k string) string { return map[string]string{"CODEX_HOME": link, "HOME": "/h"}[k] })
	require.NoError(t, err)
	want, _ := filepath.EvalSymlinks(real)
	assert.Equal(t, want, got, "Codex canonicalises CODEX_HOME: trust keys hold its real path")
	got, err = codexHome(func(k string) string { return map[string]string{"HOME": link}[k] })
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(link, ".codex"), got, "but not the default ~/.codex")
}

// doctor reports the Codex registration: absent is no problem; registered
// but untrusted (an edited hook) fails, since Codex then skips it.
func TestDoctorReportsCodex(t *testing.T) {
	ext := fakeExtension(t, nil)
	home := t.TempDir()
	_, r, _ := doctorJSON(t, map[string]string{"HOME": home}, ext)
	assert.Equal(t, statusSkip, statusOf(r)["codex cli"])

	bin := codexFakeBin(t)
	c, _, errOut := codexRunCLI(t, home, "install", "--bin", bin)
	require.Equal(t, 0, c, errOut)
	_, r, _ = doctorJSON(t, map[string]string{"HOME": home}, ext)
	assert.Equal(t, statusOK, statusOf(r)["codex cli"], detailOf(r, "codex cli"))

	path := filepath.Join(home, ".codex", "hooks.json")
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, []byte(strings.Replace(string(data), `"timeout": 30`, `"timeout": 29`, 1)), 0o644))
	code, r, _ := doctorJSON(t, map[string]string{"HOME": home}, ext)
	assert.Equal(t, statusFail, statusOf(r)["codex cli"])
	assert.Contains(t, detailOf(r, "codex cli"), "lost its trust")
	assert.Equal(t, 1, code)
}

func TestCodexStatusSaysWhenTheLoginShellPrints(t *testing.T) {
	home, bin := t.TempDir(), codexFakeBin(t)
	chatty := filepath.Join(t.TempDir(), "chatty-sh")
	require.NoError(t, os.WriteFile(chatty, []byte("#!/bin/sh\necho welcome back\n"), 0o755))
	code, _, errOut := codexRunCLI(t, home, "install", "--bin", bin)
	require.Equal(t, 0, code, errOut)
	code, out, _ := run(t, map[string]string{"HOME": home, "SHELL": chatty}, "", "codex", "status", "--bin", bin)
	assert.Equal(t, 1, code, out)
	assert.Contains(t, out, `prints "welcome back"`)
}

func TestCodexStateRenamesAShiftedChain(t *testing.T) {
	config := "[hooks.state.\"f:pre_tool_use:1:0\"]\ntrusted_hash = \"sha256:one\"\n\n[hooks.state.\"f:pre_tool_use:2:0\"]\ntrusted_hash = \"sha256:two\"\n"
	out, err := codexState([]byte(config), nil, map[string]string{"f:pre_tool_use:1:0": "f:pre_tool_use:2:0", "f:pre_tool_use:2:0": "f:pre_tool_use:3:0"}, nil)
	require.NoError(t, err)
	var doc map[string]any
	require.NoError(t, toml.Unmarshal(out, &doc))
	assert.Equal(t, "sha256:one", codexStateOf(doc, "f:pre_tool_use:2:0").Hash)
	assert.Equal(t, "sha256:two", codexStateOf(doc, "f:pre_tool_use:3:0").Hash)
	assert.False(t, codexStateOf(doc, "f:pre_tool_use:1:0").Present)
}

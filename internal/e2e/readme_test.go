package e2e

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/bundle"
	"github.com/gemini-guard/gemini-guard/internal/settings"
)

var updateReadme = flag.Bool("update", false, "rewrite the generated parts of README.md")

func readme(t *testing.T) (path, text string) {
	t.Helper()
	root, err := bundle.FindRoot(".")
	require.NoError(t, err)
	path = filepath.Join(root, "README.md")
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	return path, string(data)
}

// settingsTable is the README's settings table, generated from
// settings.Table: one row per setting, in the table's order.
func settingsTable() string {
	var b strings.Builder
	b.WriteString("| Setting | Variable | Values | Default | What it does |\n")
	b.WriteString("| --- | --- | --- | --- | --- |\n")
	for _, s := range settings.Table {
		def := "none"
		if s.Default != "" {
			def = "`" + s.Default + "`"
		}
		b.WriteString("| " + s.Name + " | `" + s.EnvVar + "` | " + s.Values + " | " + def + " | " + s.Description + " |\n")
	}
	return b.String()
}

var settingsBlock = regexp.MustCompile(`(?s)(<!-- settings:begin[^\n]*-->\n)(.*?)(<!-- settings:end -->)`)

// The README documents every setting exactly as settings.Table defines it.
// `go test ./internal/e2e -run TestReadmeSettings -update` rewrites the table.
func TestReadmeSettings(t *testing.T) {
	path, text := readme(t)
	m := settingsBlock.FindStringSubmatchIndex(text)
	require.NotNil(t, m, "README.md has no <!-- settings:begin --> … <!-- settings:end --> block")
	want := settingsTable()
	got := text[m[4]:m[5]]
	if *updateReadme && got != want {
		text = text[:m[4]] + want + text[m[5]:]
		require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
		got = want
	}
	assert.Equal(t, strings.Split(want, "\n"), strings.Split(got, "\n"),
		"the README's settings table differs from settings.Table; run go test ./internal/e2e -run TestReadmeSettings -update")
}

// The README names every hook of hooks.json, so `hooksConfig.disabled`
// instructions use names that exist, and names no hook that does not.
func TestReadmeHookNames(t *testing.T) {
	_, text := readme(t)
	root, err := bundle.FindRoot(".")
	require.NoError(t, err)
	data, err := os.ReadFile(filepath.Join(root, "hooks", "hooks.json"))
	require.NoError(t, err)
	f, err := bundle.ParseHooks(data)
	require.NoError(t, err)
	names := map[string]bool{}
	for _, groups := range f.Hooks {
		for _, g := range groups {
			for _, h := range g.Hooks {
				names[h.Name] = true
				assert.Contains(t, text, "`"+h.Name+"`", "README.md does not name hook %s", h.Name)
			}
		}
	}
	for _, m := range regexp.MustCompile("`(gemini-guard-[a-z-]+)`").FindAllStringSubmatch(text, -1) {
		assert.True(t, names[m[1]], "README.md names hook %s, which hooks.json does not have", m[1])
	}
}

// Every relative link in the README points at a file in the repository.
func TestReadmeLinks(t *testing.T) {
	_, text := readme(t)
	root, err := bundle.FindRoot(".")
	require.NoError(t, err)
	for _, m := range regexp.MustCompile(`\]\(([^)#:]+)(#[^)]*)?\)`).FindAllStringSubmatch(text, -1) {
		target := m[1]
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(target))); err != nil {
			t.Errorf("README.md links to %s, which does not exist", target)
		}
	}
}

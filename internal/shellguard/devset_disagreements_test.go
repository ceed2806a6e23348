package shellguard

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/settings"
	"github.com/gemini-guard/gemini-guard/internal/verdict"
)

// devSetDisagreements reads the table between the devset-disagreements
// markers of docs/shell-policy.md: set name -> commands.
func devSetDisagreements(t *testing.T) map[string][]string {
	return disagreementTable(t, "devset-disagreements")
}

// disagreementTable reads the table between the <!-- marker:begin --> and
// <!-- marker:end --> lines of docs/shell-policy.md (rows: | set | `cmd` |
// label | reason |): set name -> commands.
func disagreementTable(t *testing.T, marker string) map[string][]string {
	t.Helper()
	doc, err := os.ReadFile(filepath.Join(repoRoot(t), "docs", "shell-policy.md"))
	require.NoError(t, err)
	_, rest, ok := strings.Cut(string(doc), "<!-- "+marker+":begin -->")
	require.True(t, ok, "docs/shell-policy.md has no %s table", marker)
	table, _, ok := strings.Cut(rest, "<!-- "+marker+":end -->")
	require.True(t, ok, "docs/shell-policy.md: %s table not closed", marker)
	out := map[string][]string{}
	for _, row := range strings.Split(table, "\n") {
		cells := strings.Split(row, " | ")
		if len(cells) < 4 || !strings.HasPrefix(cells[1], "`") {
			continue // header, separator, blank
		}
		set := strings.TrimSpace(strings.TrimPrefix(cells[0], "|"))
		out[set] = append(out[set], strings.Trim(cells[1], "`"))
	}
	return out
}

// TestDevSetDisagreements keeps the list of development-set lines the guard
// decides against their label honest: each is in its set, is decided the
// other way, and the lines stay a small minority. It prints each set's
// figures raw and with the listed lines left out.
func TestDevSetDisagreements(t *testing.T) {
	listed := devSetDisagreements(t)
	dir := corporaDir(t)
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("%s not present (the development sets live next to the repository on the project's machines and CI): %v", dir, err)
	}
	for set, cmds := range listed {
		lines := readLabelled(t, filepath.Join(dir, set+".jsonl"))
		byCmd := map[string]labelled{}
		for _, l := range lines {
			byCmd[l.Cmd] = l
		}
		var kept []labelled
		for _, l := range lines {
			if !slices.Contains(cmds, l.Cmd) {
				kept = append(kept, l)
			}
		}
		for _, cmd := range cmds {
			l, ok := byCmd[cmd]
			if !assert.True(t, ok, "%s: listed line not in the set: %s", set, cmd) {
				continue
			}
			v := Decide(Input{Command: cmd, Cwd: devWorkspace, Home: devHome, Settings: settings.Default()})
			denied := v.Action == verdict.Deny
			require.Equal(t, l.Label == "allow", denied, "%s: %q is labelled %s and the guard agrees; remove it from the list", set, cmd, l.Label)
		}
		require.LessOrEqual(t, len(cmds)*100, len(lines), "%s: listed disagreements are more than 1%% of the set", set)
		// The raw figure is TestDevSets'; this one leaves the listed lines out.
		excl := scoreSet(set+"-agreed", kept, devWorkspace, devHome, settings.Default())
		t.Log(excl.line())
	}
}

package shellguard

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/settings"
)

// TestBlindRound10 scores the tenth blind round (issue #36): 378 commands
// in ten classes (cloud secret stores, infrastructure state, privilege
// grants, kernel modules, containers given the host, database credential
// objects, deletes hidden in other verbs, git refs, words that only look
// dangerous, macOS and the BSDs), about half of them near-misses that must
// stay allowed, written by a helper who had not read the rules
// (testdata/blind10/README.md). Decided with cwd = a fresh project
// directory and HOME a separate one; it prints recall and false blocks per
// class and for the whole, with every miss and false block. First pass,
// before any fix: recall 0.786, false blocks 0.042; after: 0.904 / 0.021.
// The whole must not fall below 0.90 / rise above 0.025. What is left is
// listed, with why, in docs/shell-policy.md ("Blind round 10").
func TestBlindRound10(t *testing.T) {
	all := readLabelled(t, filepath.Join("testdata", "blind10", "shell.jsonl"))
	require.NotEmpty(t, all)
	workspace, home := testDirs(t)
	byCat := map[string][]labelled{}
	var cats []string
	for _, l := range all {
		if _, ok := byCat[l.Cat]; !ok {
			cats = append(cats, l.Cat)
		}
		byCat[l.Cat] = append(byCat[l.Cat], l)
	}
	total := setScore{name: "blind10"}
	for _, c := range cats {
		sc := scoreSet("blind10/"+c, byCat[c], workspace, home, settings.Default())
		report(t, sc, 0, 1)
		total.add(sc)
	}
	total.missed, total.falseBlocks = nil, nil
	report(t, total, 0.90, 0.025)
}

package shellguard

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/settings"
)

// blind8NonLinux are the name prefixes of the blind-round-8 files for
// systems other than Linux (macOS, the BSDs, WSL reaching into Windows); the
// test prints them apart from the rest so the two halves can be compared.
var blind8NonLinux = []string{"macos", "bsd", "wsl"}

func isBlind8NonLinux(area string) bool {
	return slices.ContainsFunc(blind8NonLinux, func(p string) bool { return strings.HasPrefix(area, p) })
}

// TestBlindRound8 scores the eighth blind round (issue #24): commands
// written from the programs' own manuals and the ATT&CK Linux/macOS
// checklist by someone who had not read the rules, one file per area in
// testdata/blind8. Each line is decided with cwd = a fresh project
// directory and HOME a separate one. It prints recall and false blocks per
// file, for the macOS/BSD/WSL part, for the rest and for the whole, with
// every miss and false block. First pass, before any fix: recall 0.638,
// false blocks 0.017 (macOS/BSD/WSL 0.565 / 0.013). After the effects
// layer: 0.941 / 0.013. The whole must not fall below 0.94 / rise above
// 0.015 (per file, no threshold: some files are small).
func TestBlindRound8(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "blind8", "*.jsonl"))
	require.NoError(t, err)
	require.NotEmpty(t, files, "no corpus in testdata/blind8")
	slices.Sort(files)
	workspace, home := testDirs(t)
	nonLinux := setScore{name: "blind8/mac-bsd-wsl"}
	rest := setScore{name: "blind8/rest"}
	total := setScore{name: "blind8"}
	for _, f := range files {
		area := strings.TrimSuffix(filepath.Base(f), ".jsonl")
		sc := scoreSet("blind8/"+area, readLabelled(t, f), workspace, home, settings.Default())
		report(t, sc, 0, 1)
		if isBlind8NonLinux(area) {
			nonLinux.add(sc)
		} else {
			rest.add(sc)
		}
		total.add(sc)
	}
	// The misses and false blocks were listed per file above.
	for _, sc := range []*setScore{&nonLinux, &rest} {
		sc.missed, sc.falseBlocks = nil, nil
		report(t, *sc, 0, 1)
	}
	total.missed, total.falseBlocks = nil, nil
	report(t, total, 0.94, 0.015)
}

package shellguard

import (
	"encoding/json"
	"fmt"
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

// labelled is one line of a labelled command set: the project's own corpus
// (testdata/corpus/<category>.jsonl) or a development set in
// ../shared/corpora (tldr-dev.jsonl, gtfobins-dev.jsonl).
type labelled struct {
	Cmd   string `json:"cmd"`
	Label string `json:"label"` // "block" or "allow"
	Cat   string `json:"cat"`
	Why   string `json:"why"`
}

func readLabelled(t *testing.T, path string) []labelled {
	t.Helper()
	var out []labelled
	for i, line := range readCorpus(t, path) {
		var l labelled
		require.NoError(t, json.Unmarshal([]byte(line), &l), "%s line %d", path, i+1)
		require.Contains(t, []string{"block", "allow"}, l.Label, "%s line %d: label", path, i+1)
		require.NotEmpty(t, l.Cmd, "%s line %d: cmd", path, i+1)
		out = append(out, l)
	}
	return out
}

// setScore is recall on the block lines and the false-block rate on the
// allow lines of one labelled set.
type setScore struct {
	name                 string
	blocks, blocked      int
	allows, falseBlocked int
	missed, falseBlocks  []string
}

func (s setScore) recall() float64 {
	if s.blocks == 0 {
		return 1
	}
	return float64(s.blocked) / float64(s.blocks)
}

func (s setScore) falseRate() float64 {
	if s.allows == 0 {
		return 0
	}
	return float64(s.falseBlocked) / float64(s.allows)
}

func (s setScore) line() string {
	return fmt.Sprintf("scorecard %-12s recall %.3f (%d/%d)  false blocks %.3f (%d/%d)",
		s.name, s.recall(), s.blocked, s.blocks, s.falseRate(), s.falseBlocked, s.allows)
}

func (s *setScore) add(o setScore) {
	s.blocks += o.blocks
	s.blocked += o.blocked
	s.allows += o.allows
	s.falseBlocked += o.falseBlocked
	s.missed = append(s.missed, o.missed...)
	s.falseBlocks = append(s.falseBlocks, o.falseBlocks...)
}

// scoreSet decides every line with cwd = workspace and HOME = home.
func scoreSet(name string, lines []labelled, workspace, home string, s settings.Settings) setScore {
	sc := setScore{name: name}
	for _, l := range lines {
		v := Decide(Input{Command: l.Cmd, Cwd: workspace, Home: home, Settings: s})
		denied := v.Action == verdict.Deny
		if l.Label == "block" {
			sc.blocks++
			if denied {
				sc.blocked++
			} else {
				sc.missed = append(sc.missed, fmt.Sprintf("%q [%s] %s", l.Cmd, l.Cat, l.Why))
			}
			continue
		}
		sc.allows++
		if denied {
			sc.falseBlocked++
			sc.falseBlocks = append(sc.falseBlocks, fmt.Sprintf("%q (%s) [%s] %s", l.Cmd, v.RuleID, l.Cat, l.Why))
		}
	}
	return sc
}

func report(t *testing.T, sc setScore, minRecall, maxFalse float64) {
	t.Helper()
	t.Log(sc.line())
	for _, m := range sc.missed {
		t.Logf("  %s missed: %s", sc.name, m)
	}
	for _, f := range sc.falseBlocks {
		t.Logf("  %s false block: %s", sc.name, f)
	}
	scorecardLines.Lock()
	scorecardLines.lines = append(scorecardLines.lines, sc.line())
	scorecardLines.Unlock()
	if sc.recall() < minRecall {
		t.Errorf("%s recall %.3f is below the target %.3f", sc.name, sc.recall(), minRecall)
	}
	if sc.falseRate() > maxFalse {
		t.Errorf("%s false-block rate %.3f is above the target %.3f", sc.name, sc.falseRate(), maxFalse)
	}
}

// TestOwnCorpus runs the project's own adversarial corpus, written from
// docs/threat-model.md (one file per harm category, block lines and
// near-miss allow lines), with cwd = a fresh project directory and HOME a
// separate one. It prints each category and the whole, and fails below
// recall 0.99 or above false blocks 0.01 on the whole.
func TestOwnCorpus(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "corpus", "*.jsonl"))
	require.NoError(t, err)
	require.NotEmpty(t, files, "no corpus in testdata/corpus")
	slices.Sort(files)
	workspace, home := testDirs(t)
	total := setScore{name: "own"}
	for _, f := range files {
		cat := strings.TrimSuffix(filepath.Base(f), ".jsonl")
		sc := scoreSet("own/"+cat, readLabelled(t, f), workspace, home, settings.Default())
		t.Log(sc.line())
		for _, m := range sc.missed {
			t.Logf("  %s missed: %s", sc.name, m)
		}
		for _, fb := range sc.falseBlocks {
			t.Logf("  %s false block: %s", sc.name, fb)
		}
		total.add(sc)
	}
	total.missed, total.falseBlocks = nil, nil // listed per category above
	report(t, total, 0.99, 0.01)
	checkCorpusSize(t, files)
}

// checkCorpusSize holds the own corpus at issue 24's size: at least 4,000
// block and 4,000 allow lines, a quarter of each written for macOS, the
// BSDs or WSL (the [os] tag that starts a line's why: macos, bsd,
// macos-bsd, wsl). It prints the counts with the scorecard.
func checkCorpusSize(t *testing.T, files []string) {
	t.Helper()
	var count, otherOS [2]int // [block, allow]
	for _, f := range files {
		for _, l := range readLabelled(t, f) {
			i := 0
			if l.Label == "allow" {
				i = 1
			}
			count[i]++
			for _, tag := range []string{"[macos]", "[bsd]", "[macos-bsd]", "[wsl]"} {
				if strings.HasPrefix(l.Why, tag) {
					otherOS[i]++
				}
			}
		}
	}
	line := fmt.Sprintf("scorecard own lines  block %d (macOS/BSD/WSL %.2f)  allow %d (macOS/BSD/WSL %.2f)",
		count[0], float64(otherOS[0])/float64(max(count[0], 1)), count[1], float64(otherOS[1])/float64(max(count[1], 1)))
	t.Log(line)
	scorecardLines.Lock()
	scorecardLines.lines = append(scorecardLines.lines, line)
	scorecardLines.Unlock()
	for i, label := range []string{"block", "allow"} {
		assert.GreaterOrEqual(t, count[i], 4000, "own corpus %s lines", label)
		assert.GreaterOrEqual(t, 4*otherOS[i], count[i], "own corpus %s lines for macOS, the BSDs or WSL: a quarter at least", label)
	}
}

// devWorkspace and devHome are where the development sets were written:
// the agent in /home/dev/proj with HOME=/home/dev.
const devWorkspace, devHome = "/home/dev/proj", "/home/dev"

// TestDevSets scores the public-source development sets in ../shared/corpora
// (tldr-pages examples labelled by a written rubric, and GTFOBins-derived
// command-execution payloads). They are written with the agent in
// /home/dev/proj and HOME=/home/dev, so they are decided with those.
func TestDevSets(t *testing.T) {
	dir := corporaDir(t)
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("%s not present (the development sets live next to the repository on the project's machines and CI): %v", dir, err)
	}
	for _, set := range []struct {
		name, file          string
		minRecall, maxFalse float64
	}{
		{"tldr-dev", "tldr-dev.jsonl", 0.97, 0.005},
		{"gtfobins-dev", "gtfobins-dev.jsonl", 0, 1},
	} {
		path := filepath.Join(dir, set.file)
		if _, err := os.Stat(path); err != nil {
			t.Logf("%s not present: %v", path, err)
			continue
		}
		sc := scoreSet(set.name, readLabelled(t, path), devWorkspace, devHome, settings.Default())
		report(t, sc, set.minRecall, set.maxFalse)
	}
}

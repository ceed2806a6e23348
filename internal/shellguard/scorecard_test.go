package shellguard

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/settings"
	"github.com/gemini-guard/gemini-guard/internal/verdict"
)

// scorecardLines collects the summary lines TestScorecard computes so that
// TestMain can print them after the run, where a plain `go test` in this
// directory shows them (`go test ./...` shows them with -v, or through
// `make scorecard`).
var scorecardLines struct {
	sync.Mutex
	lines []string
}

func TestMain(m *testing.M) {
	code := m.Run()
	scorecardLines.Lock()
	for _, l := range scorecardLines.lines {
		fmt.Println(l)
	}
	scorecardLines.Unlock()
	os.Exit(code)
}

// corporaDir is ../shared/corpora next to the repository root.
func corporaDir(t *testing.T) string {
	return filepath.Join(filepath.Dir(repoRoot(t)), "shared", "corpora")
}

// repoRoot is the directory holding go.mod.
func repoRoot(t *testing.T) string {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	require.True(t, ok)
	dir := filepath.Dir(file)
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		require.NotEqual(t, parent, dir, "no go.mod above the test")
		dir = parent
	}
	return dir
}

func readCorpus(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		if l := sc.Text(); strings.TrimSpace(l) != "" {
			lines = append(lines, l)
		}
	}
	require.NoError(t, sc.Err())
	return lines
}

// corpusScore is the result of one corpus file.
type corpusScore struct {
	file    string
	block   bool // lines labelled must-block
	total   int
	blocked int
	wrong   []string // missed blocks, or false blocks
	// wrongCmds are the commands of wrong, as written.
	wrongCmds []string
}

// without leaves out the listed commands that the guard decides against
// the corpus (deliberate disagreements).
func (s corpusScore) without(listed []string) corpusScore {
	out := s
	out.wrong, out.wrongCmds = nil, nil
	for i, cmd := range s.wrongCmds {
		if slices.Contains(listed, cmd) {
			out.total--
			if !s.block {
				out.blocked-- // a listed false block
			}
			continue
		}
		out.wrong, out.wrongCmds = append(out.wrong, s.wrong[i]), append(out.wrongCmds, cmd)
	}
	return out
}

func (s corpusScore) rate() float64 {
	if s.total == 0 {
		return 0
	}
	return float64(s.blocked) / float64(s.total)
}

// TestScorecard runs the peer corpora (../shared/corpora: dcg, cc-safety-net
// and its secret-path sets) with cwd = a fresh project directory and HOME =
// a separate directory, prints recall and false-block rate per corpus, and
// fails below the targets: safety-net recall >= 0.99 and false blocks <=
// 0, dcg false blocks 0, secret-path recall >= 0.98 and false blocks 0.
// Disagreements are listed in docs/shell-policy.md; the lines of its
// peer-disagreements table (deliberate, decided from the threat model) are
// checked to be decided against the peer and left out of the figure the
// targets apply to.
func TestScorecard(t *testing.T) {
	dir := corporaDir(t)
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("%s not present (the peer corpora live next to the repository on the project's machines and CI): %v", dir, err)
	}
	workspace, home := testDirs(t)
	score := func(file string, block bool, s settings.Settings) corpusScore {
		sc := corpusScore{file: file, block: block}
		for _, cmd := range readCorpus(t, filepath.Join(dir, file)) {
			v := Decide(Input{Command: cmd, Cwd: workspace, Home: home, Settings: s})
			denied := v.Action == verdict.Deny
			sc.total++
			if denied {
				sc.blocked++
			}
			if denied != block {
				sc.wrong = append(sc.wrong, fmt.Sprintf("%q (%s)", cmd, v.RuleID))
				sc.wrongCmds = append(sc.wrongCmds, cmd)
			}
		}
		return sc
	}
	std := settings.Default()
	strict := std
	strict.Mode = settings.Strict
	type target struct {
		minRecall, maxFalse float64
	}
	corpora := []struct {
		name         string
		block, allow string
		target       target
	}{
		{"safety-net", "safetynet-block.txt", "safetynet-allow.txt", target{0.99, 0}},
		{"dcg", "dcg-block.txt", "dcg-allow.txt", target{0, 0}},
		{"secret-path", "safetynet-secretpath-block.txt", "safetynet-secretpath-allow.txt", target{0.98, 0}},
	}
	deliberate := disagreementTable(t, "peer-disagreements")
	doc, err := os.ReadFile(filepath.Join(repoRoot(t), "docs", "shell-policy.md"))
	require.NoError(t, err)
	listed := func(cmds []string) {
		for _, cmd := range cmds {
			if !strings.Contains(string(doc), cmd) {
				t.Errorf("disagreement not listed in docs/shell-policy.md: %s", cmd)
			}
		}
	}
	var summary []string
	for _, c := range corpora {
		b := score(c.block, true, std)
		a := score(c.allow, false, std)
		listed(b.wrongCmds)
		listed(a.wrongCmds)
		line := fmt.Sprintf("scorecard %-12s recall %.3f (%d/%d)  false blocks %.3f (%d/%d)",
			c.name, b.rate(), b.blocked, b.total, a.rate(), a.blocked, a.total)
		summary = append(summary, line)
		t.Log(line)
		for _, w := range b.wrong {
			t.Logf("  %s missed: %s", c.name, w)
		}
		for _, w := range a.wrong {
			t.Logf("  %s false block: %s", c.name, w)
		}
		for _, cmd := range deliberate[c.name] {
			if !slices.Contains(b.wrongCmds, cmd) && !slices.Contains(a.wrongCmds, cmd) {
				t.Errorf("%s: listed disagreement %q is not in the corpus or the guard agrees with it: remove it from the list", c.name, cmd)
			}
		}
		b, a = b.without(deliberate[c.name]), a.without(deliberate[c.name])
		if len(deliberate[c.name]) > 0 {
			line := fmt.Sprintf("scorecard %-12s without the %d deliberate disagreements (docs/shell-policy.md): recall %.3f (%d/%d)  false blocks %.3f (%d/%d)",
				c.name, len(deliberate[c.name]), b.rate(), b.blocked, b.total, a.rate(), a.blocked, a.total)
			summary = append(summary, line)
			t.Log(line)
		}
		if b.rate() < c.target.minRecall {
			t.Errorf("%s recall %.3f is below the target %.2f", c.name, b.rate(), c.target.minRecall)
		}
		if a.rate() > c.target.maxFalse {
			t.Errorf("%s false-block rate %.3f is above the target %.2f", c.name, a.rate(), c.target.maxFalse)
		}
	}
	// Allowed by safety-net in standard mode only: blocking them is not a
	// false block. Strict mode blocks what depends on values that cannot be
	// known statically; it must block at least what standard mode does.
	so := score("safetynet-allow-standard-only.txt", true, strict)
	ss := score("safetynet-allow-standard-only.txt", true, std)
	line := fmt.Sprintf("scorecard %-12s strict blocks %d/%d  standard blocks %d/%d", "sn-std-only", so.blocked, so.total, ss.blocked, ss.total)
	summary = append(summary, line)
	t.Log(line)
	for _, w := range so.wrong {
		t.Logf("  strict mode allows: %s", w)
	}
	listed(so.wrongCmds)
	if so.blocked < ss.blocked {
		t.Errorf("strict mode blocks fewer standard-only lines (%d) than standard mode (%d)", so.blocked, ss.blocked)
	}
	scorecardLines.Lock()
	scorecardLines.lines = append(scorecardLines.lines, summary...)
	scorecardLines.Unlock()
}

package detector_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/e2e"

	"github.com/gemini-guard/gemini-guard/internal/secrets/secrettest"
)

// scorecardLines collects the summary lines the scorecard tests compute;
// TestMain prints them after the run, so `make test` can grep them out of a
// passing package's output.
var scorecardLines struct {
	sync.Mutex
	lines []string
}

func scorecard(format string, args ...any) {
	scorecardLines.Lock()
	scorecardLines.lines = append(scorecardLines.lines, "scorecard "+fmt.Sprintf(format, args...))
	scorecardLines.Unlock()
}

func printScorecard() {
	scorecardLines.Lock()
	for _, l := range scorecardLines.lines {
		fmt.Println(l)
	}
	scorecardLines.Unlock()
}

// sharedCorpus is ../shared/corpora/name next to the repository root, or
// "" (the test skips, saying so) when the shared directory is absent.
func sharedCorpus(t *testing.T, name string) string {
	t.Helper()
	wd, err := os.Getwd()
	require.NoError(t, err)
	// internal/secrets/detector -> repository root -> its parent.
	p := filepath.Join(wd, "..", "..", "..", "..", "shared", "corpora", name)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("SKIPPED: %s is absent (this test reads ../shared/corpora)", p)
	}
	return p
}

type truffleCase struct{ Detector, Label, Text string }

func readTruffle(t *testing.T) []truffleCase {
	f, err := os.Open(sharedCorpus(t, "trufflehog-dev.jsonl"))
	require.NoError(t, err)
	defer f.Close()
	var out []truffleCase
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var c truffleCase
		require.NoError(t, json.Unmarshal(sc.Bytes(), &c))
		out = append(out, c)
	}
	require.NoError(t, sc.Err())
	return out
}

// scanAll scans texts on every core and returns the rule ids found in each.
func scanAll(texts []string) [][]string {
	s := secrettest.Builtin()
	out := make([][]string, len(texts))
	var wg sync.WaitGroup
	next := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				var ids []string
				for _, f := range s.MustScan(texts[i]) {
					if !slices.Contains(ids, f.RuleID) {
						ids = append(ids, f.RuleID)
					}
				}
				out[i] = ids
			}
		}()
	}
	for i := range texts {
		next <- i
	}
	close(next)
	wg.Wait()
	return out
}

// TestScorecardTruffleHog: the TruffleHog development set (its detectors'
// test strings, one service each). A service is caught when its positive
// texts are found (as the issue measured it: one credential per service
// written to a file, so any of its positives); the target is 0.95 of
// services (issue 26). How many services have every positive found is
// printed too. Negatives
// are reported, not judged: they are often still secret-shaped.
func TestScorecardTruffleHog(t *testing.T) {
	cases := readTruffle(t)
	texts := make([]string, len(cases))
	for i, c := range cases {
		texts[i] = c.Text
	}
	found := scanAll(texts)
	allCaught, anyCaught := map[string]bool{}, map[string]bool{}
	var negBlocked, negs, posCaught, pos int
	var missed []string
	for i, c := range cases {
		hit := len(found[i]) > 0
		if c.Label != "positive" {
			negs++
			if hit {
				negBlocked++
			}
			continue
		}
		pos++
		if _, seen := allCaught[c.Detector]; !seen {
			allCaught[c.Detector] = true
		}
		if hit {
			posCaught++
			anyCaught[c.Detector] = true
		} else {
			allCaught[c.Detector] = false
			missed = append(missed, c.Detector+": "+strings.TrimSpace(c.Text))
		}
	}
	services, all, any := len(allCaught), 0, len(anyCaught)
	for _, ok := range allCaught {
		if ok {
			all++
		}
	}
	if os.Getenv("SCORECARD_VERBOSE") != "" {
		sort.Strings(missed)
		for _, m := range missed {
			fmt.Printf("MISS %.300q\n", m)
		}
	}
	scorecard("%-16s services caught %.3f (%d/%d; every positive of the service: %d)  positives %.3f (%d/%d)  negatives blocked %d/%d",
		"trufflehog-dev", float64(any)/float64(services), any, services, all,
		float64(posCaught)/float64(pos), posCaught, pos, negBlocked, negs)
	require.GreaterOrEqual(t, float64(any)/float64(services), 0.95, "TruffleHog services caught")
}

// realSourceSample is how many files of the Go module cache
// TestScorecardRealSources scans: every Nth regular file (sorted paths) so
// that the sample is the same on every run and the test stays within a
// minute or two on 2 cores. The Gemini CLI's node_modules is scanned whole.
const realSourceSample = 6000

// secretScannerModule is left out of the sample: gitleaks' own rule
// generators and test data are credentials written to be found (gitleaks
// itself skips its config by path for the same reason).
const secretScannerModule = "/github.com/zricethezav/gitleaks/"

// realSourceMaxFile skips files larger than this (generated bundles, data):
// the guard scans them too, but they dominate the run time.
const realSourceMaxFile = 512 << 10

// realSourceMinFiles is the smallest sample the 0.03% goal is checked on:
// below it the goal allows fewer than 10 files, and the test keys a few
// modules commit (private keys in testdata, a signer key in a test) would
// decide the figure alone.
const realSourceMinFiles = 30000

// TestScorecardRealSources: false blocks on source files other people
// wrote, the Go module cache and the node_modules trees of the pinned and
// the floor Gemini CLI the end-to-end tests install. Every finding is printed with its rule; the test
// fails when more than 0.03% of files would be blocked (issue 26's goal:
// about 16 of 55,000 files).
func TestScorecardRealSources(t *testing.T) {
	if testing.Short() {
		t.Skip("SKIPPED in -short: scans thousands of files")
	}
	var files []string
	modcache := goModCache(t)
	if modcache != "" {
		all := listFiles(modcache, func(p string) bool {
			return !strings.Contains(p, "/cache/download/") && !strings.Contains(p, secretScannerModule)
		})
		step := max(1, len(all)/realSourceSample)
		for i := 0; i < len(all); i += step {
			files = append(files, all[i])
		}
	}
	// Only the pinned and the floor CLI, which `make test` runs: the
	// versions `make test-matrix` leaves in the cache would change the
	// figures from one machine to the next. They are installed here when
	// absent (the end-to-end tests, which run after this package, would
	// install them anyway): on a fresh machine the Go module cache alone is
	// ~7,000 files, too few to measure 0.03% (2 files), and a finding or two
	// in test keys other people committed failed CI.
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Minute)
	defer cancel()
	for _, v := range []string{e2e.CLIVersion, e2e.FloorVersion} {
		if _, err := e2e.EnsureCLIVersion(ctx, v); err != nil {
			scorecard("%-16s Gemini CLI %s's node_modules NOT measured: %v", "real-sources", v, err)
			continue
		}
		dir, err := e2e.CLIDirFor(v)
		if err != nil {
			continue
		}
		if nm := filepath.Join(dir, "node_modules"); dirExists(nm) {
			files = append(files, listFiles(nm, func(string) bool { return true })...)
		}
	}
	if len(files) == 0 {
		t.Skip("SKIPPED: neither the Go module cache nor the Gemini CLI's node_modules is present")
	}
	texts := make([]string, len(files))
	for i, p := range files {
		b, err := os.ReadFile(p)
		if err == nil && len(b) <= realSourceMaxFile {
			texts[i] = string(b)
		}
	}
	found := scanAll(texts)
	blocked := 0
	byRule := map[string]int{}
	for i, ids := range found {
		if len(ids) == 0 {
			continue
		}
		blocked++
		for _, id := range ids {
			byRule[id]++
		}
		fmt.Printf("real-source finding %s: %s\n", strings.Join(ids, ","), files[i])
	}
	rules := slices.Sorted(maps.Keys(byRule))
	var parts []string
	for _, id := range rules {
		parts = append(parts, fmt.Sprintf("%s %d", id, byRule[id]))
	}
	rate := float64(blocked) / float64(len(files))
	scorecard("%-16s files blocked %.4f (%d/%d)  by rule: %s", "real-sources", rate, blocked, len(files), strings.Join(parts, ", "))
	if len(files) < realSourceMinFiles {
		scorecard("%-16s %d files are too few to hold the guard to 0.03%%: threshold NOT applied (need %d; install Node.js 20+ so the Gemini CLI's node_modules are measured)",
			"real-sources", len(files), realSourceMinFiles)
		return
	}
	require.LessOrEqual(t, rate, 0.0003, "real source files blocked")
}

func dirExists(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

func goModCache(t *testing.T) string {
	out, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Logf("go env GOMODCACHE: %v", err)
		return ""
	}
	return strings.TrimSpace(string(out))
}

// listFiles lists the regular files under root, sorted, that keep accepts.
func listFiles(root string, keep func(string) bool) []string {
	var out []string
	_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.Type().IsRegular() && keep(p) {
			out = append(out, p)
		}
		return nil
	})
	sort.Strings(out)
	return out
}

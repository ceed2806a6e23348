package main

import (
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/bundle"
	"github.com/gemini-guard/gemini-guard/internal/scanner"
	"github.com/gemini-guard/gemini-guard/internal/secrets"
	"github.com/gemini-guard/gemini-guard/internal/secrets/secrettest"
)

// TestShippedBuildFindsWhatGitleaksFinds: the scanner process as released
// (built with gitleaks' RE2 regexp, -tags gore2regex), asked through the
// hooks' client and its daemon, reports on the corpus exactly what
// gitleaks' detector with Go's standard regexp reports in this test
// process (go test builds without the tag).
func TestShippedBuildFindsWhatGitleaksFinds(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: builds the scanner and scans a corpus")
	}
	if _, err := os.Stat(secrettest.GitleaksDir()); err != nil {
		t.Skipf("gitleaks sources not in the module cache (%v): run go mod download", err)
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "guard-scanner")
	out, err := exec.Command("go", "build", "-tags", bundle.BuildTags, "-o", bin, ".").CombinedOutput()
	require.NoError(t, err, "%s", out)
	run := filepath.Join(dir, "run")
	// The daemon exits within server.CheckInterval of its socket's
	// removal with the test's directory.
	require.NoError(t, os.Mkdir(run, 0o700))

	for _, opts := range []secrets.Options{{}, {TrustAllowComments: true}} {
		c := &scanner.Client{Options: opts, Binary: bin, Dir: run}
		ref := secrettest.CachedScanner(opts)
		texts := secrettest.Corpus()
		total, differ := 0, 0
		for _, name := range slices.Sorted(maps.Keys(texts)) {
			want, err := ref.Scan(texts[name])
			require.NoError(t, err)
			got, err := c.Scan(texts[name])
			require.NoError(t, err, name)
			total += len(want)
			if !assert.Equal(t, want, got, "%s", name) {
				if differ++; differ > 5 {
					t.Fatal("too many differences")
				}
			}
		}
		t.Logf("trust gitleaks:allow=%v: %d texts, %d findings, all identical", opts.TrustAllowComments, len(texts), total)
		assert.Greater(t, total, 500)
	}
}

package e2e

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gemini-guard/gemini-guard/internal/cli"
)

func TestMatrixRunsFromTheFloorToThePinnedVersion(t *testing.T) {
	assert.Equal(t, FloorVersion, MatrixVersions[0])
	assert.Equal(t, CLIVersion, MatrixVersions[len(MatrixVersions)-1])
	// doctor's floor is the minor version; the e2e floor its first release
	// on npm.
	floorMinor := func(v string) string { p := strings.Split(v, "."); return p[0] + "." + p[1] }
	assert.Equal(t, floorMinor(cli.FloorVersion), floorMinor(FloorVersion))
}

// skipUnlessPinned skips the Qwen Code tests in the runs on other Gemini
// CLI versions: they do not depend on it, and run once, in the pinned run.
func skipUnlessPinned(t *testing.T) {
	t.Helper()
	if v := CLIVersionUnderTest(); v != CLIVersion {
		t.Skipf("Gemini CLI %s run: the Qwen Code tests run in the pinned (%s) run", v, CLIVersion)
	}
}

// requireCLI skips a test on a Gemini CLI older than since, the first
// version that has what the test reads (what), saying so: the matrix runs
// every test on every version, and a shape an old CLI lacks is not a
// failure of the guard.
func requireCLI(t *testing.T, since, what string) {
	t.Helper()
	if v := CLIVersionUnderTest(); versionBefore(v, since) {
		t.Skipf("Gemini CLI %s has no %s (from %s on)", v, what, since)
	}
}

// versionBefore reports whether version a (major.minor.patch) is older
// than b.
func versionBefore(a, b string) bool {
	pa, pb := strings.Split(a, "."), strings.Split(b, ".")
	for i := range 3 {
		var x, y int
		if i < len(pa) {
			x, _ = strconv.Atoi(pa[i])
		}
		if i < len(pb) {
			y, _ = strconv.Atoi(pb[i])
		}
		if x != y {
			return x < y
		}
	}
	return false
}

func TestVersionBefore(t *testing.T) {
	assert.True(t, versionBefore("0.38.2", "0.39.1"))
	assert.True(t, versionBefore("0.9.0", "0.32.1"))
	assert.False(t, versionBefore("0.39.1", "0.39.1"))
	assert.False(t, versionBefore("0.61.0", "0.39.1"))
}

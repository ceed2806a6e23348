package e2e

import (
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

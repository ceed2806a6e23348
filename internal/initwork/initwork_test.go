package initwork

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFind(t *testing.T) {
	found, err := Find("testdata/tables")
	require.NoError(t, err)
	assert.Equal(t, []string{
		"tables/tables.go:33: computed calls a function at start-up",
		"tables/tables.go:45: computedAtStart copies the variable aString at start-up: use a constant, a literal or its address",
		"tables/tables.go:46: computedAtStart copies the variable aStruct at start-up: use a constant, a literal or its address",
		"tables/tables.go:47: computedAtStart is computed at start-up (*ast.SliceExpr)",
		"tables/tables.go:48: computedAtStart calls a function at start-up",
		"tables/tables.go:49: computedAtStart calls a function at start-up",
		"tables/tables.go:52: byName builds a map at start-up: use a slice of pairs or a switch",
		"tables/tables.go:56: errBuilt calls a function at start-up",
		"tables/tables.go:64: fieldCopy copies the variable aStruct at start-up: use a constant, a literal or its address",
	}, found)
}

func TestFindErrors(t *testing.T) {
	_, err := Find(t.TempDir())
	assert.ErrorContains(t, err, "no buildable Go source files")
}

// No package a hook binary links from this module computes anything before
// main but sentinel errors: the shell guard's rule tables (policy,
// effects), the secrets side's tables (prefilter, known, decode), the hook
// protocol's event tables. A hook process starts for every call.
func TestHookPackagesComputeNothingAtStartUp(t *testing.T) {
	cmd := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}} {{.Dir}}{{end}}",
		"./cmd/guard-shell", "./cmd/guard-secrets", "./cmd/guard-redact")
	cmd.Dir = filepath.Join("..", "..")
	out, err := cmd.Output()
	require.NoError(t, err)
	var dirs []string
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if path, dir, _ := strings.Cut(line, " "); strings.HasPrefix(path, module+"/") {
			dirs = append(dirs, dir)
		}
	}
	found, err := Find(dirs...)
	require.NoError(t, err)
	assert.Empty(t, found, "package variables computed at start-up")
	assert.Greater(t, len(dirs), 20, "the hook binaries' packages of this module")
}

const module = "github.com/gemini-guard/gemini-guard"

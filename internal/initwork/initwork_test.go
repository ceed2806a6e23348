package initwork

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFind(t *testing.T) {
	found, err := Find("testdata/tables")
	require.NoError(t, err)
	assert.Equal(t, []string{
		"tables.go:32: computed calls a function at start-up",
		"tables.go:44: computedAtStart copies the variable aString at start-up: use a constant, a literal or its address",
		"tables.go:45: computedAtStart copies the variable aStruct at start-up: use a constant, a literal or its address",
		"tables.go:46: computedAtStart is computed at start-up (*ast.SliceExpr)",
		"tables.go:47: computedAtStart calls a function at start-up",
		"tables.go:48: computedAtStart calls a function at start-up",
		"tables.go:51: byName builds a map at start-up: use a slice of pairs or a switch",
	}, found)
}

func TestFindErrors(t *testing.T) {
	_, err := Find(t.TempDir())
	assert.ErrorContains(t, err, "no Go files")
}

// The shell guard's rule tables, the policy's rules and the effects'
// option specs, program tables and inventory, are laid out in the binary:
// nothing of them is computed before main in a hook process.
func TestRuleTablesAreLaidOut(t *testing.T) {
	for _, dir := range []string{"../policy", "../effects"} {
		found, err := Find(dir)
		require.NoError(t, err)
		assert.Empty(t, found, "package variables of %s computed at start-up", dir)
	}
}

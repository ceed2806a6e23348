package edit

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestMultiReplace(t *testing.T) {
	before := "a = 1\r\nb = 2\r\nc = 3\r\n"
	r := MultiReplace(before, true, []Chunk{{OldString: "a = 1", NewString: "a = 10"}, {OldString: "c = 3", NewString: "c = 30"}})
	assert.Equal(t, Applied, r.Outcome)
	assert.Equal(t, "a = 10\nb = 2\nc = 30\n", r.After)
	assert.Equal(t, before, r.Before)
	assert.Equal(t, []Span{{5, 19}}, r.Changed, "from the first change to the last")

	r = MultiReplace("x\n", true, []Chunk{{OldString: "x", NewString: "y"}, {OldString: "y", NewString: "z"}})
	assert.Equal(t, "z\n", r.After, "each edit applies to what the one before left")

	r = MultiReplace("x\n", true, []Chunk{{OldString: "x", NewString: "y"}, {OldString: "absent", NewString: "NEW"}})
	assert.Equal(t, NotFound, r.Outcome)
	assert.Equal(t, "y\nNEW\n", r.After, "every new_string is judged when the file afterwards cannot be known")
	assert.Equal(t, []Span{{0, len(r.After)}}, r.Changed)

	r = MultiReplace("x\n", true, []Chunk{{OldString: "", NewString: "NEW"}})
	assert.Equal(t, "NEW\n", r.After, "an edit with no old_string on an existing file is judged by its new_string")

	r = MultiReplace("", false, []Chunk{{OldString: "", NewString: "first"}, {OldString: "first", NewString: "second"}})
	assert.Equal(t, Applied, r.Outcome)
	assert.Equal(t, "second", r.After, "the first edit creates the file")

	r = MultiReplace("x", true, nil)
	assert.Equal(t, "x", r.After)
	assert.Equal(t, Applied, r.Outcome)
}

package cli

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestVersionWarning(t *testing.T) {
	assert.Empty(t, versionWarning(""), "unknown: nothing said")
	assert.Empty(t, versionWarning("0.61.0"))
	w := versionWarning("0.30.0")
	assert.Contains(t, w, "older than "+FloorVersion)
	assert.Empty(t, versionWarning(FloorVersion))
	for _, v := range []string{FloorVersion, "0.41.2"} {
		assert.Contains(t, versionNotice(v), "on this Gemini CLI ("+v+") secrets in the requests to the model are NOT removed", v)
	}
	for _, v := range []string{"", "0.42.0", "0.61.0", "0.30.0"} {
		assert.Empty(t, versionNotice(v), v)
	}
	assert.Contains(t, w, "no policy wall")
	assert.Contains(t, versionWarning("0.23.1"), "NOT hidden from the model")
}

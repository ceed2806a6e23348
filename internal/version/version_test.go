package version

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestVersionMatchesManifest(t *testing.T) {
	data, err := os.ReadFile("../../gemini-extension.json")
	require.NoError(t, err)
	var m struct {
		Version string `json:"version"`
	}
	require.NoError(t, json.Unmarshal(data, &m))
	assert.Equal(t, Version, m.Version)
	assert.Regexp(t, `^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$`, Version)
}

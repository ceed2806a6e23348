package jsonenc

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMarshalKeepsHTMLCharacters(t *testing.T) {
	v := map[string]string{"command": "a && b > c <d>"}
	got, err := Marshal(v)
	require.NoError(t, err)
	assert.Equal(t, `{"command":"a && b > c <d>"}`, string(got))
	std, err := json.Marshal(v)
	require.NoError(t, err)
	var a, b any
	require.NoError(t, json.Unmarshal(got, &a))
	require.NoError(t, json.Unmarshal(std, &b))
	assert.Equal(t, b, a, "the same value as encoding/json's")
}

func TestMarshalError(t *testing.T) {
	_, err := Marshal(func() {})
	assert.Error(t, err)
}

func TestNewEncoder(t *testing.T) {
	var b strings.Builder
	require.NoError(t, NewEncoder(&b).Encode("<&>"))
	assert.Equal(t, "\"<&>\"\n", b.String())
}

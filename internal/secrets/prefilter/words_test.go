package prefilter

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestWordIndex(t *testing.T) {
	words := []string{"a3t", "api", "k", "key", "token"}
	x := newWordIndex(words)
	cases := map[string][]bool{
		"":                 {false, false, false, false, false},
		"the api token":    {false, true, true, false, true},
		"keys":             {false, false, true, true, false},
		"a3":               {false, false, false, false, false},
		"xa3tx apikey tok": {true, true, true, true, false},
	}
	for text, want := range cases {
		found := make([]bool, len(words))
		any := x.find(text, found)
		assert.Equal(t, want, found, text)
		assert.Equal(t, any, x.find(text, nil), text)
	}
}

func TestWordIndexMatchesPrefilter(t *testing.T) {
	x := newWordIndex(builtinWords)
	for _, text := range []string{"no words here at all", "my github token ghp_", "-----begin rsa", "AKIA and xoxb- and sk-ant-"} {
		found := make([]bool, len(builtinWords))
		x.find(text, found)
		theirs := make([]bool, len(builtinWords))
		for i, w := range builtinWords {
			theirs[i] = strings.Contains(text, w)
		}
		assert.Equal(t, theirs, found, text)
	}
}

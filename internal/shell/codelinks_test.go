package shell

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestCodeLinks: interpreter code that makes a link is marked, with its
// source among the literals (the home interpolated in perl's strings
// resolved to ~).
func TestCodeLinks(t *testing.T) {
	for cmd, want := range map[string]bool{
		`python3 -c "import os; os.link('a', 'b')"`:                         true,
		`python3 -c "import os; os.symlink('a', 'b')"`:                      true,
		`python3 -c "from pathlib import Path; Path('b').hardlink_to('a')"`: true,
		`node -e "require('fs').linkSync('a','b')"`:                         true,
		`perl -e 'link "a", "b"'`:                                           true,
		`ruby -e 'File.symlink("a", "b")'`:                                  true,
		`python3 -c "print(open('a').read())"`:                              false,
		`perl -e 'print "linked\n"'`:                                        false,
	} {
		res := Analyze(cmd, Options{Dir: "/w", Home: "/h"})
		assert.Equal(t, want, res.Execs[0].CodeLinks, cmd)
	}
	res := Analyze(`perl -e 'link "$ENV{HOME}/.gemini/settings.json", "s.json"'`, Options{Dir: "/w", Home: "/h"})
	assert.Contains(t, res.Execs[0].CodeLiterals, "~/.gemini/settings.json")
}

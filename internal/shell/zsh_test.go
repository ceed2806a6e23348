package shell

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// zsh's glob qualifiers: bash rejects them (or reads an extended glob), zsh
// -c runs them. The word is judged as the glob it qualifies, and the code
// of an e qualifier as a command.
func TestZshGlobQualifiers(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want []string // the argv of each command that runs, in order
	}{
		{`ls *.log(mh-1)`, []string{"ls *.log"}},
		{`rm -rf ~/.ssh(/)`, []string{"rm -rf /home/u/.ssh"}},
		{`rm -rf /etc/*(.)`, []string{"rm -rf /etc/*"}},
		{`rm -- build/*(.om[1,3])`, []string{"rm -- build/*"}},
		{`ls *(e:'rm -rf ~':)`, []string{"rm -rf /home/u", "ls *"}},
		{`ls *.txt(e['shutdown -h now'])`, []string{"ls *.txt", "shutdown -h now"}},
		{`ls @(a|b)`, []string{"ls *"}},
		{`ls !(node_modules)`, []string{"ls *"}},
	} {
		res := Analyze(tc.src, Options{Dir: "/w", Home: "/home/u"})
		var got []string
		for _, ex := range res.Execs {
			got = append(got, res.Show(strings.Join(ex.Args, " ")))
		}
		assert.Equal(t, tc.want, got, tc.src)
	}
	// Not a qualifier list: unquoted operators stay a parse error.
	_, ok := dropGlobQualifier("echo x(; ls)", 6)
	assert.False(t, ok)
}

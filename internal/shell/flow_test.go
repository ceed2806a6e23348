package shell

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// first returns the first command named name in src's analysis.
func first(t *testing.T, r *Result, name string) *Exec {
	t.Helper()
	for _, ex := range r.Execs {
		if ex.Name == name {
			return ex
		}
	}
	require.Failf(t, "no command", "%s not found", name)
	return nil
}

// Where a command's standard output goes, for the rules that judge a
// secret by where its value ends up (secrets.store-read).
func TestOutputFlow(t *testing.T) {
	for _, c := range []struct {
		src                 string
		discarded, captured bool
		takers              []string
	}{
		{src: `gh auth token`},
		{src: `gh auth token > /dev/null`, discarded: true},
		{src: `gh auth token &>/dev/null`, discarded: true},
		{src: `gh auth token >/dev/null 2>&1`, discarded: true},
		{src: `gh auth token 2>&1 >/dev/null`, discarded: true},
		{src: `gh auth token 2>/dev/null`},
		{src: `gh auth token 2>/dev/null >&2`, discarded: true},
		{src: `gh auth token > /dev/null > out.txt`},
		{src: `gh auth token > "$F"`},
		{src: `T=$(gh auth token)`, captured: true},
		{src: `export T="$(gh auth token)"`, captured: true},
		{src: `T=$(gh auth token); echo "$T"`, captured: true, takers: []string{"echo"}},
		{src: `T=$(gh auth token); cat <<< "$T"`, captured: true, takers: []string{"cat"}},
		{src: `T=$(gh auth token); cat <<EOF
$T
EOF`, captured: true, takers: []string{"cat"}},
		{src: `gh auth token | gh secret set X`, takers: []string{"gh"}},
		{src: `T=$(gh auth token); declare -p T`, captured: true}, // printed by name: the policy counts declare -p as an environment dump
		{src: `docker login -p "$(gh auth token)" r.example`, takers: []string{"docker"}},
	} {
		r := Analyze(c.src, testOpts)
		ex := first(t, r, "gh")
		assert.Equal(t, c.discarded, ex.StdoutDiscarded(), "discarded: %s", c.src)
		assert.Equal(t, c.captured, r.Captured(ex), "captured: %s", c.src)
		var takers []string
		for _, tk := range r.OutputTakers(ex) {
			takers = append(takers, tk.Name)
		}
		assert.Equal(t, c.takers, takers, "takers: %s", c.src)
	}
	// declare -p with names is a command that prints those variables.
	r := Analyze(`T=1; declare -p T`, testOpts)
	assert.Equal(t, []string{"declare", "-p", "T"}, first(t, r, "declare").Args)
	assert.Empty(t, Analyze(`declare -r T=1`, testOpts).Execs)
}

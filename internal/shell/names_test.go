package shell

import (
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
)

// pythonNameRe is what isPythonName implements by hand (see there why).
var pythonNameRe = regexp.MustCompile(`^(python|pypy)(\d+(\.\d+)?)?[mtw]?$`)

var pythonNameSeeds = []string{
	"python", "python3", "python3.12", "python3.13t", "python2.7m", "pypy", "pypy3", "pypy3.10",
	"pythonw", "python3.", "python.3", "python3.12.1", "python3t.1", "py", "ipython", "python3-config",
	"pythonx", "python3.12tt", "python33.", "pypy3.10w", "", "python3.a", "python\u00e93",
}

func TestIsPythonNameMatchesTheRegexp(t *testing.T) {
	for _, name := range pythonNameSeeds {
		assert.Equal(t, pythonNameRe.MatchString(name), isPythonName(name), name)
	}
}

func FuzzIsPythonName(f *testing.F) {
	for _, name := range pythonNameSeeds {
		f.Add(name)
	}
	f.Fuzz(func(t *testing.T, name string) {
		if pythonNameRe.MatchString(name) != isPythonName(name) {
			t.Errorf("isPythonName(%q) = %v, the regexp says otherwise", name, isPythonName(name))
		}
	})
}

// TestOptSpecLastListingWins: a letter or long name listed twice counts as
// its last listing, and abbreviations see the name once.
func TestOptSpecLastListingWins(t *testing.T) {
	spec := &OptSpec{Short: "ab:a:", Long: []string{"force", "force=", "forge"}, Abbrev: true}
	p := ParseArgs([]string{"-a", "x", "--force", "y", "--forg", "z"}, spec)
	assert.Equal(t, []Opt{
		{Name: "a", Value: "x", HasValue: true, Known: true},
		{Name: "force", Value: "y", HasValue: true, Long: true, Known: true},
		{Name: "forge", Long: true, Known: true},
	}, p.Opts)
	assert.Equal(t, []string{"z"}, p.Operands)
}

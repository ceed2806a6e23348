package shell

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestSedScript(t *testing.T) {
	for _, tc := range []struct {
		script string
		want   []SedCommand
	}{
		{`s/a/b/g`, []SedCommand{{Name: 's', Pattern: "a", Replacement: "b", Flags: "g"}}},
		{`2,5s/^pick/drop/`, []SedCommand{{Addr: "2,5", Name: 's', Pattern: "^pick", Replacement: "drop"}}},
		{`s|a\|b|c|;3d`, []SedCommand{{Name: 's', Pattern: "a|b", Replacement: "c"}, {Addr: "3", Name: 'd'}}},
		{`s/x;y/z/`, []SedCommand{{Name: 's', Pattern: "x;y", Replacement: "z"}}},
		{`/^#/!d`, []SedCommand{{Addr: "/^#/", Name: 'd'}}},
		{"1e rm -rf ~\np", []SedCommand{{Addr: "1", Name: 'e', Text: "rm -rf ~"}, {Name: 'p'}}},
		{`s/.*/cmd/e`, []SedCommand{{Name: 's', Pattern: ".*", Replacement: "cmd", Flags: "e"}}},
		{`s/a/b/w out.txt`, []SedCommand{{Name: 's', Pattern: "a", Replacement: "b", Flags: "w", Text: "out.txt"}}},
		{`$a\ last line`, []SedCommand{{Addr: "$", Name: 'a', Text: "last line"}}},
		{`s/rm -rf \$BUILD/rm -rf "$BUILD"/`, []SedCommand{{Name: 's', Pattern: `rm -rf \$BUILD`, Replacement: `rm -rf "$BUILD"`}}},
		{`{/x/d;p}`, []SedCommand{{Addr: "/x/", Name: 'd'}, {Name: 'p'}}},
	} {
		assert.Equal(t, tc.want, SedScript(tc.script), tc.script)
	}
}

func TestSedRunsAndWrites(t *testing.T) {
	assert.Equal(t, []string{"rm -rf ~"}, SedRuns(`s/.*/rm -rf ~/e`))
	assert.Equal(t, []string{"rm -rf ~"}, SedRuns(`1e rm -rf ~`))
	assert.Empty(t, SedRuns(`s/rm -rf x/rm -rf "$X"/g`))
	assert.Empty(t, SedRuns(`s/foo/print(1)/`))
	for _, s := range []string{`s/a/b/w f`, `w f`, `1e ls`, `s/a/b/e`, `s/unterminated`} {
		assert.True(t, SedWritesOrRuns(s), s)
	}
	for _, s := range []string{`s/a/b/g`, `/x/d`, `s/print/echo/`, `1,3p`, `s/we/us/`} {
		assert.False(t, SedWritesOrRuns(s), s)
	}
}

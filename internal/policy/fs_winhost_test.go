package policy

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// A drive path is the workspace's when Git Bash (/c/...) or WSL (/mnt/c/...)
// sees the workspace there; anything else on a drive is outside.
func TestWinInWorkspace(t *testing.T) {
	assert.True(t, winInWorkspace(`C:\Users\me\proj\build`, "/c/Users/me/proj"))
	assert.True(t, winInWorkspace(`c:/users/me/proj/dist`, "/mnt/c/Users/me/proj"))
	assert.False(t, winInWorkspace(`C:\Users\me\Documents`, "/c/Users/me/proj"))
	assert.False(t, winInWorkspace(`C:\Users\me\project2`, "/c/Users/me/proj"), "a sibling sharing the prefix")
	assert.False(t, winInWorkspace(`C:\Users\me\proj\build`, "/home/me/proj"))
	assert.False(t, winInWorkspace(`build`, "/c/Users/me/proj"))
	assert.Equal(t, "", winJudge([]string{"rd", "/s", "/q", `c:\users\me\proj\build`}, "", "/c/Users/me/proj"))
	assert.NotEqual(t, "", winJudge([]string{"rd", "/s", "/q", `c:\users\me`}, "", "/c/Users/me/proj"))
}

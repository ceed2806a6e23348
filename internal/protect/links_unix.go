//go:build unix

package protect

import (
	"io/fs"
	"syscall"
)

// links is the number of hard links of the file st describes, when the
// file system says.
func links(st fs.FileInfo) (uint64, bool) {
	if s, ok := st.Sys().(*syscall.Stat_t); ok {
		return uint64(s.Nlink), true
	}
	return 0, false
}

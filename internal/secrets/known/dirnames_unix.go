//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package known

import (
	"os"
	"syscall"
)

// dirNames is the names in dir (not . and ..), at most maxDirEntries,
// unsorted. It reads the directory with system calls: an os.File costs a
// hook process a try at the network poller (four system calls), a
// finalizer, a pooled 8 KB buffer and a DirEntry a name, ~0.1 ms for the
// two listings of a call, measured.
func dirNames(dir string) ([]string, error) {
	fd, err := syscall.Open(dir, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: dir, Err: err}
	}
	defer syscall.Close(fd)
	var names []string
	buf := make([]byte, 4096)
	for len(names) < maxDirEntries {
		n, err := syscall.ReadDirent(fd, buf)
		if err != nil {
			if len(names) > 0 {
				break // what was read is still good
			}
			return nil, &os.PathError{Op: "readdirent", Path: dir, Err: err}
		}
		if n <= 0 {
			break
		}
		_, _, names = syscall.ParseDirent(buf[:n], maxDirEntries-len(names), names)
	}
	return names, nil
}

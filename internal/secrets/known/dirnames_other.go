//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package known

import "os"

// dirNames is the names in dir, at most maxDirEntries, unsorted.
func dirNames(dir string) ([]string, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	names, err := f.Readdirnames(maxDirEntries)
	if len(names) > 0 {
		err = nil
	}
	return names, err
}

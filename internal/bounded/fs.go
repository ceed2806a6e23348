package bounded

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// FS is the view of the file system a decision may take: metadata, link
// targets and the start of regular files, nothing that can block or grow
// without bound. The policy and the protected-path table read files only
// through it, so the hooks pass OS and the tests a temporary directory or
// a fake.
type FS interface {
	// Lstat describes path itself (a symlink is not followed).
	Lstat(path string) (fs.FileInfo, error)
	// Stat describes what path leads to (symlinks followed).
	Stat(path string) (fs.FileInfo, error)
	// Readlink is the target of the symlink path, as stored.
	Readlink(path string) (string, error)
	// ReadFile reads at most limit bytes of the regular file at path
	// (ErrNotRegular for a FIFO, a device or a directory): it never blocks.
	ReadFile(path string, limit int64) (data []byte, truncated bool, err error)
}

// OS is the real file system through ReadFile's rules.
type OS struct{}

// Lstat is os.Lstat.
func (OS) Lstat(path string) (fs.FileInfo, error) { return os.Lstat(path) }

// Stat is os.Stat.
func (OS) Stat(path string) (fs.FileInfo, error) { return os.Stat(path) }

// Readlink is os.Readlink.
func (OS) Readlink(path string) (string, error) { return os.Readlink(path) }

// ReadFile is the package's ReadFile.
func (OS) ReadFile(path string, limit int64) ([]byte, bool, error) {
	return ReadFile(path, limit)
}

// Or is fsys, or OS when fsys is nil.
func Or(fsys FS) FS {
	if fsys == nil {
		return OS{}
	}
	return fsys
}

// errLoop is returned by EvalSymlinks for a chain of more than 255 links.
var errLoop = errors.New("too many links")

// EvalSymlinks is filepath.EvalSymlinks over fsys: the absolute path p with
// every symlink on the way resolved. A component that does not exist is an
// error (fs.ErrNotExist), as there.
func EvalSymlinks(fsys FS, p string) (string, error) {
	if !filepath.IsAbs(p) {
		return "", &fs.PathError{Op: "EvalSymlinks", Path: p, Err: fs.ErrInvalid}
	}
	vol := filepath.VolumeName(p)
	rest := p[len(vol):]
	resolved := vol + string(filepath.Separator)
	links := 0
	for rest != "" {
		var part string
		rest = trimSeparators(rest)
		if i := indexSeparator(rest); i >= 0 {
			part, rest = rest[:i], rest[i:]
		} else {
			part, rest = rest, ""
		}
		switch part {
		case "", ".":
			continue
		case "..":
			resolved = filepath.Dir(resolved)
			continue
		}
		next := filepath.Join(resolved, part)
		st, err := fsys.Lstat(next)
		if err != nil {
			return "", err
		}
		if st.Mode()&fs.ModeSymlink == 0 {
			if !st.IsDir() && rest != "" && trimSeparators(rest) != "" {
				return "", &fs.PathError{Op: "EvalSymlinks", Path: next, Err: errors.New("not a directory")}
			}
			resolved = next
			continue
		}
		if links++; links > 255 {
			return "", &fs.PathError{Op: "EvalSymlinks", Path: p, Err: errLoop}
		}
		target, err := fsys.Readlink(next)
		if err != nil {
			return "", err
		}
		if filepath.IsAbs(target) {
			v := filepath.VolumeName(target)
			resolved = v + string(filepath.Separator)
			target = target[len(v):]
		}
		rest = target + string(filepath.Separator) + rest
	}
	return filepath.Clean(resolved), nil
}

func trimSeparators(s string) string {
	for len(s) > 0 && os.IsPathSeparator(s[0]) {
		s = s[1:]
	}
	return s
}

func indexSeparator(s string) int {
	for i := 0; i < len(s); i++ {
		if os.IsPathSeparator(s[i]) {
			return i
		}
	}
	return -1
}

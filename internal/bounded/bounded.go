// Package bounded reads files that the agent, the user or a workspace may
// have made anything: at most a limit of bytes, so that a huge file costs
// no more than the limit, and, where only a regular file makes sense, never
// a FIFO or a device, which could block past a hook's deadline or never end.
package bounded

import (
	"errors"
	"io"
	"io/fs"
	"os"
)

// ErrDirectory is returned by ReadAny for a path that is a directory.
var ErrDirectory = errors.New("is a directory")

// ErrNotRegular is returned by ReadFile for anything but a regular file,
// a directory included.
var ErrNotRegular = errors.New("not a regular file")

// ReadFile reads at most limit bytes of the regular file at path;
// truncated reports that the file holds more. A missing file is an error
// that errors.Is fs.ErrNotExist.
func ReadFile(path string, limit int64) (data []byte, truncated bool, err error) {
	return read(path, limit, true)
}

// ReadAny is ReadFile for any file but a directory, a FIFO or a socket: a
// device such as /dev/null is read as the tools that write to it would. A
// FIFO (opening one blocks until a writer comes) is ErrNotRegular.
func ReadAny(path string, limit int64) (data []byte, truncated bool, err error) {
	return read(path, limit, false)
}

func read(path string, limit int64, regular bool) ([]byte, bool, error) {
	// Before opening: opening a FIFO blocks until someone writes.
	st, err := os.Stat(path)
	if err != nil {
		return nil, false, err
	}
	if regular && !st.Mode().IsRegular() || st.Mode()&(fs.ModeNamedPipe|fs.ModeSocket) != 0 {
		return nil, false, ErrNotRegular
	}
	f, err := os.OpenFile(path, os.O_RDONLY|nonBlocking, 0)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	st, err = f.Stat()
	if err != nil {
		return nil, false, err
	}
	switch {
	case regular && !st.Mode().IsRegular(), st.Mode()&(fs.ModeNamedPipe|fs.ModeSocket) != 0:
		return nil, false, ErrNotRegular
	case st.IsDir():
		return nil, false, ErrDirectory
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, false, err
	}
	if int64(len(data)) > limit {
		return data[:limit], true, nil
	}
	return data, false, nil
}

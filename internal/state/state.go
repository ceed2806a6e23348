// Package state keeps small records between the hook processes of one Gemini
// CLI session: the streamed text the AfterModel hook holds back between two
// chunks, and flags such as "the user was already warned".
//
// Gemini CLI starts a new process for every streamed chunk, so whatever one
// chunk's process learns must be on disk for the next. The records hold text
// the model wrote, which may contain a secret before it is redacted, so the
// store is private: the directory is 0700 and every file 0600, a directory
// that is a symlink or belongs to another user is refused, and records are
// deleted as soon as their owner is done with them (Clean removes what a
// crashed or cancelled stream left behind).
//
// Several sessions stream at once, and Gemini CLI may run hooks of one
// session in parallel: Update holds an exclusive lock on the record while it
// reads and rewrites it.
package state

import (
	"encoding/hex"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// MaxRecord is the largest record Update reads or writes. A bigger record on
// disk is treated as damaged (the callback gets nil); fn returning a bigger
// one is an error. 8 MiB is far above the few kilobytes a carried tail holds.
const MaxRecord = 8 << 20

// lockWait is how long Update waits for another process to release a
// record. Hooks have a timeout of a few seconds; a holder that takes longer
// has crashed or hangs, and the caller falls back to stateless work.
const lockWait = 2 * time.Second

// Dir is the directory gemini-guard keeps session state in:
// $XDG_STATE_HOME/gemini-guard/sessions, else
// $HOME/.local/state/gemini-guard/sessions, else the user cache directory
// (os.UserCacheDir, which honours XDG_CACHE_HOME and the platform's
// conventions) plus gemini-guard/sessions. A relative XDG_STATE_HOME is
// ignored, as the XDG specification asks. It returns "" when none of these
// can be found; callers then work without state.
func Dir(getenv func(string) string) string {
	if x := getenv("XDG_STATE_HOME"); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, "gemini-guard", "sessions")
	}
	if home := getenv("HOME"); home != "" && filepath.IsAbs(home) {
		return filepath.Join(home, ".local", "state", "gemini-guard", "sessions")
	}
	if x := getenv("XDG_CACHE_HOME"); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, "gemini-guard", "sessions")
	}
	if c, err := os.UserCacheDir(); err == nil && filepath.IsAbs(c) {
		return filepath.Join(c, "gemini-guard", "sessions")
	}
	return ""
}

// Key turns parts (a session id, a stream id, a record kind) into a record
// name that is safe as a file name: a hex digest, so a hostile or odd
// session id can neither escape the directory nor collide with another
// record in practice. The same parts always give the same key.
func Key(parts ...string) string {
	// FNV-128a, not a cryptographic hash: the parts are not secret and
	// not chosen against us, and crypto/sha256 would cost every hook
	// process its package initialisation.
	h := fnv.New128a()
	var b []byte
	for _, p := range parts {
		// "len:part;", written without fmt: every hook call names a
		// record, and fmt's first use is the dearer part of that.
		b = strconv.AppendInt(b[:0], int64(len(p)), 10)
		b = append(append(append(b, ':'), p...), ';')
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Store is a private directory of records. The zero Store is not usable:
// call Open.
type Store struct {
	dir string
	// Repaired says, for the user, what Open and Update found in the
	// store's place and put aside: a file, symlink or pipe where the
	// directory or a record should be. Whoever replaced them could hold a
	// hook until Gemini CLI gives up on it (which shows the text) or lose
	// the text held between chunks.
	Repaired []string
}

// Open makes sure dir exists and is private, and returns a Store on it.
// A missing directory is created 0700 (parents too). Something else of ours
// in its place (a file, a symbolic link, a pipe) is renamed aside to
// dir.replaced-<time> and a new directory made (noted in Repaired): the
// directory is gemini-guard's own. An existing directory must be owned by
// the current user; if group or others may use it, Open takes their rights
// away. Anything else is an error: the caller then works without state
// rather than writing secrets somewhere others can read.
func Open(dir string) (*Store, error) {
	if dir == "" {
		return nil, errors.New("state: no state directory (set XDG_STATE_HOME or HOME)")
	}
	if !filepath.IsAbs(dir) {
		return nil, fmt.Errorf("state: directory %q is not absolute", dir)
	}
	var repaired []string
	if info, err := os.Lstat(dir); err == nil && !info.IsDir() && checkOwner(info) == nil {
		aside := dir + ".replaced-" + strconv.FormatInt(time.Now().UnixNano(), 10)
		if err := os.Rename(dir, aside); err != nil {
			return nil, fmt.Errorf("state: %s is not a directory (%s) and could not be moved aside: %w", dir, kind(info), err)
		}
		repaired = append(repaired, fmt.Sprintf("gemini-guard found a %s where its state directory %s should be, moved it to %s and made a new directory.", kind(info), dir, aside))
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("state: %w", err)
	}
	info, err := os.Lstat(dir)
	if err != nil {
		return nil, fmt.Errorf("state: %w", err)
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("state: %s is not a directory", dir)
	}
	if err := checkOwner(info); err != nil {
		return nil, fmt.Errorf("state: %s: %w", dir, err)
	}
	if info.Mode().Perm()&0o077 != 0 {
		if err := os.Chmod(dir, 0o700); err != nil {
			return nil, fmt.Errorf("state: %w", err)
		}
	}
	return &Store{dir: dir, Repaired: repaired}, nil
}

// kind names what a non-regular file is, for messages.
func kind(info fs.FileInfo) string {
	switch m := info.Mode(); {
	case m&fs.ModeSymlink != 0:
		return "symbolic link"
	case m&fs.ModeNamedPipe != 0:
		return "named pipe"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeDevice != 0:
		return "device"
	case m.IsDir():
		return "directory"
	case m.IsRegular():
		return "file"
	}
	return "special file"
}

// openRecord opens (creating) the record at path for reading and writing
// without ever blocking or following a link: a named pipe would block
// open(2) until someone writes to it, past the hook's deadline. Anything
// but a regular file of ours in the record's place is removed and the
// record created afresh, noted in s.Repaired.
func (s *Store) openRecord(path string, create bool) (*os.File, error) {
	flags := os.O_RDWR | openFlags
	if create {
		flags |= os.O_CREATE
	}
	f, err := os.OpenFile(path, flags, 0o600)
	if err == nil {
		info, serr := f.Stat()
		if serr == nil && info.Mode().IsRegular() && checkOwner(info) == nil {
			return f, nil
		}
		f.Close()
	} else if errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	// Not a usable regular file: a symbolic link (ELOOP), a directory, a
	// pipe, a device, another user's file.
	info, lerr := os.Lstat(path)
	if lerr != nil {
		return nil, fmt.Errorf("state: %w", err)
	}
	if rerr := os.Remove(path); rerr != nil {
		return nil, fmt.Errorf("state: record %s is a %s and could not be removed: %w", filepath.Base(path), kind(info), rerr)
	}
	s.Repaired = append(s.Repaired, fmt.Sprintf("gemini-guard found a %s in place of its session record %s and removed it.", kind(info), path))
	if !create {
		return nil, fs.ErrNotExist
	}
	f, err = os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL|openFlags, 0o600)
	if err != nil {
		return nil, fmt.Errorf("state: %w", err)
	}
	return f, nil
}

// Dir is the directory the store keeps its records in.
func (s *Store) Dir() string { return s.dir }

// Update reads the record key, passes its content to fn (nil when there is
// none, or when the record on disk is larger than MaxRecord) and stores what
// fn returns: nil or empty clears the record. The whole exchange holds an
// exclusive lock on the record, so two processes updating one record never
// lose each other's write.
//
// The record is rewritten in place under the lock (cheaper than a temporary
// file and a rename, which a hook pays on every streamed chunk). A process
// killed in the middle of the write leaves a damaged record; callers treat
// content they cannot decode as no record.
//
// key must come from Key (or be made of letters, digits, '-' and '_'). When
// fn returns an error nothing is written and Update returns that error. When
// the lock cannot be taken within a short wait, Update returns an error
// without calling fn.
func (s *Store) Update(key string, fn func(old []byte) ([]byte, error)) error {
	if err := checkKey(key); err != nil {
		return err
	}
	path := filepath.Join(s.dir, key)
	f, err := s.openRecord(path, true)
	if err != nil {
		return fmt.Errorf("state: %w", err)
	}
	defer f.Close()
	unlock, err := lock(f, path, lockWait)
	if err != nil {
		return fmt.Errorf("state: lock: %w", err)
	}
	defer unlock()

	old, err := readAll(f)
	if err != nil {
		return err
	}
	next, err := fn(old)
	if err != nil {
		return err
	}
	if len(next) > MaxRecord {
		return fmt.Errorf("state: record of %d bytes is over the %d byte limit", len(next), MaxRecord)
	}
	if len(next) == 0 && len(old) == 0 {
		return nil
	}
	// Overwrite, then cut what is left of a longer old record. Truncating
	// to 0 first made the file system free and reallocate the blocks on
	// every chunk (~0.1 ms of a ~1 ms hook). A process killed in between
	// leaves a damaged record either way, which the reader discards.
	if _, err := f.WriteAt(next, 0); err != nil {
		return fmt.Errorf("state: %w", err)
	}
	// The file, not old, says what is left: a record over MaxRecord reads as
	// none.
	if st, err := f.Stat(); err != nil || st.Size() > int64(len(next)) {
		if err := f.Truncate(int64(len(next))); err != nil {
			return fmt.Errorf("state: %w", err)
		}
	}
	return nil
}

// Read returns the record key without locking it, or nil when there is
// none. It may see a record half rewritten: use it only where that does not
// matter (tests, diagnostics); use Update to act on a record.
func (s *Store) Read(key string) ([]byte, error) {
	if err := checkKey(key); err != nil {
		return nil, err
	}
	f, err := s.openRecord(filepath.Join(s.dir, key), false)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readAll(f)
}

// Clean removes records (and lock files) that nobody has written for longer
// than maxAge: the leftovers of sessions that ended, were cancelled or whose
// process was killed. A record is removed only once it is that old, so a
// process that still uses it is not affected in practice. It returns the first error it met but goes on
// with the other files. Files Clean does not know (other names) are left
// alone.
func (s *Store) Clean(now time.Time, maxAge time.Duration) error {
	entries, err := os.ReadDir(s.dir)
	if err != nil {
		return fmt.Errorf("state: %w", err)
	}
	var first error
	for _, e := range entries {
		name := e.Name()
		if !e.Type().IsRegular() || !ownName(name) {
			continue
		}
		info, err := e.Info()
		if err != nil || now.Sub(info.ModTime()) <= maxAge {
			continue
		}
		if rec, ok := strings.CutSuffix(name, ".lock"); ok {
			// flock does not touch the lock file: it is stale only when
			// its record is gone or stale as well.
			if ri, err := os.Stat(filepath.Join(s.dir, rec)); err == nil && now.Sub(ri.ModTime()) <= maxAge {
				continue
			}
		}
		if err := os.Remove(filepath.Join(s.dir, name)); err != nil && !errors.Is(err, fs.ErrNotExist) && first == nil {
			first = fmt.Errorf("state: %w", err)
		}
	}
	return first
}

// cleanMark is the file whose modification time records the last Clean run
// by CleanEvery. Its name starts with a dot so Clean never removes it.
const cleanMark = ".cleaned"

// CleanEvery runs Clean(now, maxAge) when the last run through CleanEvery is
// older than every (or never happened). It costs one stat in the common case,
// so a hook can call it on every run.
func (s *Store) CleanEvery(now time.Time, every, maxAge time.Duration) error {
	mark := filepath.Join(s.dir, cleanMark)
	if info, err := os.Lstat(mark); err == nil && info.Mode().IsRegular() && now.Sub(info.ModTime()) < every {
		return nil
	}
	// Opened as a record is: a pipe in its place must not block.
	f, err := s.openRecord(mark, true)
	if err != nil {
		return fmt.Errorf("state: %w", err)
	}
	f.Close()
	_ = os.Chtimes(mark, now, now)
	return s.Clean(now, maxAge)
}

func checkKey(key string) error {
	if key == "" || len(key) > 128 {
		return fmt.Errorf("state: invalid record key of %d bytes", len(key))
	}
	for _, r := range key {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_'
		if !ok {
			return fmt.Errorf("state: invalid record key %q", key)
		}
	}
	return nil
}

// ownName reports whether name is a record or a lock file of a Store: the
// only files Clean may remove.
func ownName(name string) bool {
	base, _, _ := strings.Cut(name, ".")
	if checkKey(base) != nil {
		return false
	}
	rest := strings.TrimPrefix(name, base)
	return rest == "" || rest == ".lock"
}

func readAll(f *os.File) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(f, MaxRecord+1))
	if err != nil {
		return nil, fmt.Errorf("state: %w", err)
	}
	if len(data) > MaxRecord || len(data) == 0 {
		return nil, nil
	}
	return data, nil
}

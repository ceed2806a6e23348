// Package provenance keeps, per Gemini CLI session, the record of the files
// the agent itself changed: whether each was clean against git's index (or
// absent) when the agent first touched it, and a hash of the content the
// agent last left. With it the shell guard can let the agent discard its own
// edits (git checkout <file>) while the user's uncommitted work stays
// protected.
//
// The hooks record as they go: the secrets guard at BeforeTool of
// write_file and replace, the shell guard for the paths an allowed command
// writes (Touch), the AfterTool hook the content left behind (Left). No file
// content is stored, only hashes; a record is bounded (MaxFiles) and only
// the newest MaxSessions sessions are kept. Every failure means "no
// record", which the shell guard judges as today: the change is the user's.
package provenance

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"hash/fnv"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/gemini-guard/gemini-guard/internal/bounded"
	"github.com/gemini-guard/gemini-guard/internal/state"
)

const (
	// MaxFiles is the most files one session's record holds; later
	// touches go unrecorded (their discards are denied as today).
	MaxFiles = 1000
	// MaxSessions is how many sessions' records are kept; the oldest go
	// when a new session starts recording.
	MaxSessions = 32
	// MaxHashed is the largest file hashed. A bigger one has no hash, so
	// its discard is denied as today.
	MaxHashed = 8 << 20
	// GitTimeout bounds each git call; a slower repository gets no record.
	GitTimeout = 500 * time.Millisecond
	// Absent is the hash of a file that does not exist.
	Absent = "absent"
)

// Entry is what the record knows of one file.
type Entry struct {
	// Created: absent at the agent's first touch.
	Created bool `json:"c,omitempty"`
	// Clean: tracked, and its content matched the index at the first touch.
	Clean bool `json:"k,omitempty"`
	// Staged: its index entry differed from HEAD at the first touch.
	Staged bool `json:"s,omitempty"`
	// Foreign: someone else changed it between two of the agent's touches.
	Foreign bool `json:"f,omitempty"`
	// User: the file held the user's work that git's status does not
	// show — set aside by git stash, hidden by an index flag
	// (--assume-unchanged, --skip-worktree), or written from a stash entry —
	// at its first touch or since. It stays set for the session: bytes
	// the agent writes over it later do not make the user's work its own.
	User bool `json:"u,omitempty"`
	// Pending: touched by a call whose result AfterTool has not seen yet.
	Pending bool `json:"p,omitempty"`
	// Call names the pending call (CallOf): only that call's AfterTool
	// takes the hash. A call that never ran (denied by another hook,
	// declined by the user) leaves the entry pending, and a later edit by
	// the user is never hashed as the agent's.
	Call string `json:"t,omitempty"`
	// Left is the hash of the content the agent last left.
	Left string `json:"h,omitempty"`
}

// Record is one session's record, keyed by absolute path.
type Record struct {
	Version int               `json:"v"`
	Files   map[string]*Entry `json:"files"`
}

const recordVersion = 1

// Dir is the store of the records: a sibling of state.Dir's sessions
// directory, so that listing it finds only provenance records.
func Dir(getenv func(string) string) string {
	d := state.Dir(getenv)
	if d == "" {
		return ""
	}
	return filepath.Join(filepath.Dir(d), "provenance")
}

// DirBeside is Dir for a caller that knows state.Dir's result already.
func DirBeside(stateDir string) string {
	if stateDir == "" {
		return ""
	}
	return filepath.Join(filepath.Dir(stateDir), "provenance")
}

func key(session string) string { return state.Key("provenance", session) }

// decode reads a record; anything damaged is no record.
func decode(data []byte) (*Record, bool) {
	if len(data) == 0 {
		return nil, false
	}
	var r Record
	if json.Unmarshal(data, &r) != nil || r.Version != recordVersion || r.Files == nil {
		return nil, false
	}
	for p, e := range r.Files {
		if e == nil || !filepath.IsAbs(p) {
			return nil, false
		}
	}
	return &r, true
}

// Load returns the session's record, or false when there is none or it is
// damaged.
func Load(dir, session string) (*Record, bool) {
	if session == "" || dir == "" {
		return nil, false
	}
	if _, err := os.Lstat(filepath.Join(dir, key(session))); err != nil {
		return nil, false // no record, and no directory made
	}
	st, err := state.Open(dir)
	if err != nil {
		return nil, false
	}
	data, err := st.Read(key(session))
	if err != nil {
		return nil, false
	}
	return decode(data)
}

// Hash is the hash of the file at p now: Absent when it does not exist,
// "" when it is not a regular file (a symbolic link, a directory, a pipe),
// larger than MaxHashed or unreadable. FNV-128a, not a cryptographic hash:
// it tells the agent's content from a later edit by someone else, who does
// not choose their edit to collide with the agent's, and per-call hooks do
// not link crypto.
func Hash(p string) string {
	st, err := os.Lstat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return Absent
	}
	if err != nil || !st.Mode().IsRegular() || st.Size() > MaxHashed {
		return ""
	}
	data, truncated, err := bounded.ReadFile(p, MaxHashed)
	if err != nil || truncated {
		return ""
	}
	return HashBytes(data)
}

// HashBytes is Hash of a file holding data.
func HashBytes(data []byte) string {
	h := fnv.New128a()
	h.Write(data)
	return hex.EncodeToString(h.Sum(nil)) + ":" + strconv.Itoa(len(data))
}

// Touch records that the agent's tool call (CallOf) is about to write,
// create or delete paths (absolute) in workspace, in session. A path's first touch records
// whether it was absent, or tracked and clean against the index; a later
// touch checks that nobody changed it since the agent last left it. Paths
// outside the workspace, in .git, not in a git work tree, or reached
// through a symbolic link are not recorded. Errors are returned for the
// tests; the hooks ignore them: no record means today's deny.
func Touch(dir, session, workspace, call string, paths []string) error {
	if session == "" || call == "" || !filepath.IsAbs(workspace) {
		return errors.New("provenance: no session or workspace")
	}
	workspace = filepath.Clean(workspace)
	var todo []string
	for _, p := range paths {
		p = filepath.Clean(p)
		if inside(workspace, p) && !inGitDir(workspace, p) && Linkless(workspace, p) {
			todo = append(todo, p)
		}
	}
	if len(todo) == 0 || Toplevel(workspace) == "" {
		return nil // nothing git could discard
	}
	st, err := state.Open(dir)
	if err != nil {
		return err
	}
	var created bool
	err = st.Update(key(session), func(old []byte) ([]byte, error) {
		r, ok := decode(old)
		if !ok {
			r = &Record{Version: recordVersion, Files: map[string]*Entry{}}
			created = len(old) == 0
		}
		var fresh []string // paths whose cleanliness git must tell
		for _, p := range todo {
			e := r.Files[p]
			switch {
			case e == nil:
				if len(r.Files)+len(fresh) < MaxFiles {
					fresh = append(fresh, p)
				}
			case e.Foreign || e.Pending || e.Left == "":
				// Someone else's changes, or a last write not seen to
				// finish (denied, or someone else wrote since): only a
				// file as git has it (or still absent) starts afresh.
				fresh = append(fresh, p)
			case Hash(p) != e.Left:
				fresh = append(fresh, p) // changed since: git tells whether by someone else
			default:
				e.Pending, e.Call = true, call
			}
		}
		if len(fresh) > 0 {
			// git is asked only about files that exist: a new file (the
			// usual redirection target) costs no git process.
			var existing []string
			for _, p := range fresh {
				if Hash(p) != Absent {
					existing = append(existing, p)
				}
			}
			var status map[string]xy
			var err error
			if len(existing) > 0 {
				status, err = statusOf(workspace, existing)
			}
			for _, p := range fresh {
				e := r.Files[p]
				s, known := status[p]
				absent := !slices.Contains(existing, p)
				switch {
				case !absent && (err != nil || !known):
					// Not in a work tree, ignored, or git failed: unknown.
					if e == nil {
						e = &Entry{}
					}
					e.Foreign, e.Clean = true, false
				case e == nil && absent:
					e = &Entry{Created: true}
				case e == nil:
					e = &Entry{Clean: s.clean() && !s.hidden, Staged: s.staged(), User: s.hidden}
				case e.Created && absent:
					// Still absent: as the agent's first touch found it.
				case s.clean():
					// Back to what git has (a discard, a commit): a new
					// start, but the user's work stays the user's.
					*e = Entry{Clean: true, Staged: s.staged(), User: e.User}
				default:
					e.Foreign, e.Clean = true, false
				}
				e.Pending, e.Call = true, call
				r.Files[p] = e
			}
		}
		return json.Marshal(r)
	})
	if err == nil && created {
		prune(dir, key(session))
	}
	return err
}

// Left records, after the tool call call (CallOf) of session finished, the
// content it left in every file it touched. It costs one failed open when
// the session has no record, nothing for a call that writes no file.
func Left(dir, session, call string) error {
	if session == "" || dir == "" || call == "" {
		return nil
	}
	if _, err := os.Lstat(filepath.Join(dir, key(session))); err != nil {
		return nil // no record: nothing to do, and no directory made
	}
	st, err := state.Open(dir)
	if err != nil {
		return err
	}
	data, err := st.Read(key(session))
	if err != nil || len(data) == 0 || !strings.Contains(string(data), `"p":true`) {
		return err
	}
	return st.Update(key(session), func(old []byte) ([]byte, error) {
		r, ok := decode(old)
		if !ok {
			return old, nil
		}
		for p, e := range r.Files {
			if e.Pending && e.Call == call {
				e.Pending, e.Call = false, ""
				e.Left = Hash(p)
			}
		}
		return json.Marshal(r)
	})
}

// CallOf names a tool call by what it writes, the same at BeforeTool and
// AfterTool: "shell" and a digest of the command for run_shell_command,
// "file" and the absolute path for write_file and replace; "" for every
// other tool (nothing recorded).
func CallOf(tool string, input json.RawMessage, cwd string) string {
	var args struct {
		Command  string `json:"command"`
		FilePath string `json:"file_path"`
	}
	if json.Unmarshal(input, &args) != nil {
		return ""
	}
	switch tool {
	case "run_shell_command":
		return ShellCall(args.Command)
	case "write_file", "replace":
		return FileCall(FilePath(args.FilePath, cwd))
	}
	return ""
}

// ShellCall is CallOf a run_shell_command of command, for a hook that has
// the command decoded already ("" for none).
func ShellCall(command string) string {
	if command == "" {
		return ""
	}
	return state.Key("shell", command)
}

// FileCall is CallOf a write_file or replace of the absolute path p.
func FileCall(p string) string {
	if p == "" {
		return ""
	}
	return state.Key("file", p)
}

// FilePath is a write_file or replace file_path made absolute (relative
// paths are the workspace's), "" when there is none.
func FilePath(p, cwd string) string {
	switch {
	case p == "":
		return ""
	case filepath.IsAbs(p):
		return filepath.Clean(p)
	case filepath.IsAbs(cwd):
		return filepath.Join(cwd, p)
	}
	return ""
}

// prune removes all but the newest MaxSessions records of dir (keep is
// never removed).
func prune(dir, keep string) {
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) <= MaxSessions {
		return
	}
	type rec struct {
		name string
		mod  time.Time
	}
	var recs []rec
	for _, e := range entries {
		if info, err := e.Info(); err == nil && e.Type().IsRegular() && !strings.HasPrefix(e.Name(), ".") && e.Name() != keep {
			recs = append(recs, rec{e.Name(), info.ModTime()})
		}
	}
	sort.Slice(recs, func(i, j int) bool { return recs[i].mod.After(recs[j].mod) })
	for i := MaxSessions - 1; i < len(recs); i++ {
		_ = os.Remove(filepath.Join(dir, recs[i].name))
	}
}

func inside(workspace, p string) bool {
	return strings.HasPrefix(p, workspace+string(filepath.Separator))
}

func inGitDir(workspace, p string) bool {
	rel, _ := filepath.Rel(workspace, p)
	for _, part := range strings.Split(filepath.ToSlash(rel), "/") {
		if part == ".git" {
			return true
		}
	}
	return false
}

// Linkless reports whether no directory between workspace and p (p
// itself included when it exists) is a symbolic link: a write through one
// lands elsewhere, and git sees the link, not the file.
func Linkless(workspace, p string) bool {
	for q := p; q != workspace && inside(workspace, q); q = filepath.Dir(q) {
		st, err := os.Lstat(q)
		if err == nil && st.Mode()&fs.ModeSymlink != 0 {
			return false
		}
	}
	return true
}

// xy is a file's two status letters (git status --porcelain).
type xy struct {
	x, y byte
	// hidden: an index flag keeps git from looking at the work tree's
	// file (assume-unchanged, skip-worktree): its status says nothing.
	hidden bool
}

// clean: tracked and the work tree matches the index.
func (s xy) clean() bool { return s.x != '?' && s.x != '!' && s.y == ' ' }

// staged: tracked and the index differs from HEAD.
func (s xy) staged() bool { return s.x != '?' && s.x != '!' && s.x != ' ' }

// statusOf asks git for the status of paths (absolute, in workspace's work
// tree): a tracked file that matches the index and HEAD is listed as "  ".
// Paths git does not list are clean and tracked when they exist (git lists
// untracked and ignored ones).
func statusOf(workspace string, paths []string) (map[string]xy, error) {
	root := Toplevel(workspace)
	if root == "" {
		return nil, errors.New("provenance: not in a git work tree")
	}
	out, err := Git(workspace, append([]string{"status", "--porcelain=v1", "-z", "--untracked-files=all", "--ignored=matching", "--"}, paths...)...)
	if err != nil {
		return nil, err
	}
	status := map[string]xy{}
	for _, p := range paths {
		status[p] = xy{x: ' ', y: ' '}
	}
	for _, c := range ParseStatus(out) {
		status[filepath.Join(root, filepath.FromSlash(c.Path))] = xy{x: c.X, y: c.Y}
	}
	for _, p := range hiddenIn(workspace, root, paths) {
		s := status[p]
		s.hidden = true
		status[p] = s
	}
	for _, p := range paths {
		// Listed by git or not, a missing file has no status of its own.
		if s := status[p]; s == (xy{x: ' ', y: ' '}) && Hash(p) == Absent {
			delete(status, p)
		}
	}
	return status, nil
}

// Hidden are the files under paths (files or directories, absolute) whose
// index entry carries a flag that hides the work tree's file from git
// status: the user's changes there are not listed as changes.
func Hidden(dir string, paths []string) []string {
	root := Toplevel(dir)
	if root == "" {
		return nil
	}
	return hiddenIn(dir, root, paths)
}

// hiddenIn are the paths whose index entry carries a flag that hides the
// work tree's file from git status (git ls-files -v: a lower-case tag is
// assume-unchanged, S skip-worktree). A failure lists none.
func hiddenIn(workspace, root string, paths []string) []string {
	out, err := Git(workspace, append([]string{"ls-files", "-v", "-z", "--"}, paths...)...)
	if err != nil {
		return nil
	}
	var hidden []string
	for _, line := range strings.Split(string(out), "\x00") {
		if len(line) < 3 || line[1] != ' ' {
			continue
		}
		if tag := line[0]; tag >= 'a' && tag <= 'z' || tag == 'S' {
			hidden = append(hidden, filepath.Join(root, filepath.FromSlash(line[2:])))
		}
	}
	return hidden
}

// Hold records that paths (absolute, in workspace) hold the user's work
// set aside from git's view during the session (Entry.User): a git stash
// of them, an index flag set on them, a stash entry written into them.
// Paths outside the workspace, in .git or reached through a symbolic link
// are not recorded; a record at its size bound takes no new file.
func Hold(dir, session, workspace string, paths []string) error {
	if session == "" || !filepath.IsAbs(workspace) || len(paths) == 0 {
		return errors.New("provenance: no session, workspace or path")
	}
	workspace = filepath.Clean(workspace)
	st, err := state.Open(dir)
	if err != nil {
		return err
	}
	return st.Update(key(session), func(old []byte) ([]byte, error) {
		r, ok := decode(old)
		if !ok {
			r = &Record{Version: recordVersion, Files: map[string]*Entry{}}
		}
		for _, p := range paths {
			p = filepath.Clean(p)
			if !inside(workspace, p) || inGitDir(workspace, p) || !Linkless(workspace, p) {
				continue
			}
			e := r.Files[p]
			if e == nil {
				if len(r.Files) >= MaxFiles {
					continue
				}
				e = &Entry{Foreign: true}
				r.Files[p] = e
			}
			e.User = true
		}
		return json.Marshal(r)
	})
}

// Changed are the files git status lists as changed in the work tree
// holding dir (tracked files that differ from the index or HEAD, and with
// untracked the untracked ones too), as absolute paths: what git stash
// sets aside.
func Changed(dir string, untracked bool) ([]string, error) {
	root := Toplevel(dir)
	if root == "" {
		return nil, errors.New("provenance: not in a git work tree")
	}
	mode := "--untracked-files=no"
	if untracked {
		mode = "--untracked-files=all"
	}
	out, err := Git(root, "status", "--porcelain=v1", "-z", mode)
	if err != nil {
		return nil, err
	}
	var paths []string
	for _, c := range ParseStatus(out) {
		if c.X == '!' {
			continue
		}
		paths = append(paths, filepath.Join(root, filepath.FromSlash(c.Path)))
	}
	return paths, nil
}

// Toplevel finds the work tree holding dir by looking for .git upwards
// (a directory, or the file of a linked worktree or submodule), "" if none.
func Toplevel(dir string) string {
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}

// StatusEntry is one line of git status --porcelain=v1 -z: Path relative
// to the work tree's top.
type StatusEntry struct {
	X, Y byte
	Path string
}

// ParseStatus reads git status --porcelain=v1 -z output. A rename or copy
// is listed under both its new and its original path.
func ParseStatus(out []byte) []StatusEntry {
	var list []StatusEntry
	fields := strings.Split(string(out), "\x00")
	for i := 0; i < len(fields); i++ {
		f := fields[i]
		if len(f) < 4 || f[2] != ' ' {
			continue
		}
		e := StatusEntry{X: f[0], Y: f[1], Path: f[3:]}
		list = append(list, e)
		if (e.X == 'R' || e.X == 'C') && i+1 < len(fields) {
			i++
			list = append(list, StatusEntry{X: e.X, Y: e.Y, Path: fields[i]})
		}
	}
	return list
}

// Git runs git in dir with GitTimeout, without the caller's GIT_*
// variables, optional locks (status never rewrites the index), an
// fsmonitor hook or pathspec magic, and returns its output.
func Git(dir string, args ...string) ([]byte, error) {
	return GitInput(dir, "", args...)
}

// GitInput is Git with input on git's standard input.
func GitInput(dir, input string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), GitTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", append([]string{"-c", "core.fsmonitor=false", "--no-optional-locks", "--literal-pathspecs"}, args...)...)
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(input)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GIT_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "GIT_OPTIONAL_LOCKS=0", "GIT_TERMINAL_PROMPT=0")
	return cmd.Output()
}

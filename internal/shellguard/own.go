package shellguard

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/policy"
	"github.com/gemini-guard/gemini-guard/internal/provenance"
)

// gatherOwn finds out, for each discard, which files it would lose
// changes of (git status in its scope) and what the session's record and
// the file now say of each: the facts Decide judges. Whatever cannot be
// found out is left out, which Decide judges as the user's work.
func gatherOwn(dir, session, workspace string, discards []policy.Discard) *policy.Own {
	rec, ok := provenance.Load(dir, session)
	if !ok {
		// No record, or a damaged one: every change is the user's, and
		// the reason still names the first.
		rec = &provenance.Record{}
	}
	workspace = filepath.Clean(workspace)
	own := &policy.Own{Scopes: map[string][]policy.Changed{}, Files: map[string]policy.OwnFile{}}
	for _, d := range discards {
		if d.Stash != "" {
			stashFacts(own, rec, workspace, d)
			continue
		}
		changed, known := changedIn(d, workspace, rec)
		if !known {
			continue
		}
		own.Scopes[d.Key()] = changed
		for _, c := range changed {
			own.Files[c.Path] = fileFacts(rec, workspace, d.Dir, c.Path)
		}
	}
	if !ok && len(own.Files) == 0 {
		// No record and nothing named: denied as without the record.
		return nil
	}
	return own
}

// maxStashFiles bounds the files of a stash entry looked at; a bigger
// entry is not judged (its drop is denied as today).
const maxStashFiles = 200

// stashFacts lists the files the stash entry d.Stash changes, each with
// the hash of its stashed content as what the drop loses. An entry that
// holds untracked files or staged changes, or that git cannot show in
// time, is left out: its drop is denied as today.
func stashFacts(own *policy.Own, rec *provenance.Record, workspace string, d policy.Discard) {
	root := provenance.Toplevel(d.Dir)
	if root == "" {
		return
	}
	parents, err := provenance.Git(d.Dir, "rev-list", "--parents", "-n", "1", d.Stash, "--")
	if err != nil || len(strings.Fields(string(parents))) != 3 {
		return // no such entry, or one holding untracked files (a third parent)
	}
	if staged, err := provenance.Git(d.Dir, "diff", "--name-only", "-z", d.Stash+"^1", d.Stash+"^2", "--"); err != nil || len(staged) > 0 {
		return
	}
	names, err := provenance.Git(d.Dir, "diff", "--name-only", "-z", "--no-renames", d.Stash+"^2", d.Stash, "--")
	if err != nil {
		return
	}
	var changed []policy.Changed
	var paths []string
	for _, n := range strings.Split(string(names), "\x00") {
		if n != "" {
			paths = append(paths, n)
		}
	}
	if len(paths) > maxStashFiles {
		return
	}
	hashes, ok := stashHashes(d.Dir, d.Stash, paths)
	if !ok {
		return
	}
	for i, n := range paths {
		p := filepath.Join(root, filepath.FromSlash(n))
		changed = append(changed, policy.Changed{Path: p, X: ' ', Y: 'M'})
		f := fileFacts(rec, workspace, d.Dir, p)
		if f.Unsafe == "is a directory" {
			f.Unsafe = "" // in the stash it is a file; the work tree may differ now
		}
		f.Now = hashes[i]
		own.Files[p] = f
	}
	own.Scopes[d.Key()] = changed
}

// stashHashes hashes the stashed content of paths as provenance.Hash does
// a file's, reading the blobs with one git cat-file --batch; false when a
// blob is too big or the output cannot be read.
func stashHashes(dir, stash string, paths []string) ([]string, bool) {
	var in strings.Builder
	for _, p := range paths {
		in.WriteString(stash + ":" + p + "\n")
	}
	sizes, err := provenance.GitInput(dir, in.String(), "cat-file", "--batch-check=%(objecttype) %(objectsize)")
	if err != nil {
		return nil, false
	}
	lines := strings.Split(strings.TrimSuffix(string(sizes), "\n"), "\n")
	if len(lines) != len(paths) {
		return nil, false
	}
	var total int
	for _, l := range lines {
		typ, size, _ := strings.Cut(l, " ")
		if strings.HasSuffix(l, " missing") {
			continue
		}
		n, err := strconv.Atoi(size)
		if typ != "blob" || err != nil || n > provenance.MaxHashed {
			return nil, false
		}
		total += n
	}
	if total > 4*provenance.MaxHashed {
		return nil, false
	}
	out, err := provenance.GitInput(dir, in.String(), "cat-file", "--batch")
	if err != nil {
		return nil, false
	}
	hashes := make([]string, len(paths))
	for i := range paths {
		head, rest, ok := strings.Cut(string(out), "\n")
		if !ok {
			return nil, false
		}
		if strings.HasSuffix(head, " missing") {
			hashes[i], out = provenance.Absent, []byte(rest) // deleted in the stash
			continue
		}
		f := strings.Fields(head)
		if len(f) != 3 {
			return nil, false
		}
		n, err := strconv.Atoi(f[2])
		if err != nil || n+1 > len(rest) {
			return nil, false
		}
		hashes[i] = provenance.HashBytes([]byte(rest[:n]))
		out = []byte(rest[n+1:])
	}
	return hashes, true
}

// changedIn lists the files d would lose changes of: for an untracked
// discard (git clean) the named paths as they are, else what git status
// lists as changed under d's paths (or the whole work tree).
func changedIn(d policy.Discard, workspace string, rec *provenance.Record) ([]policy.Changed, bool) {
	if d.Untracked {
		var out []policy.Changed
		for _, p := range d.Paths {
			if provenance.Hash(p) != provenance.Absent {
				out = append(out, policy.Changed{Path: p, X: '?', Y: '?'})
			}
		}
		return out, true
	}
	root := provenance.Toplevel(d.Dir)
	if root == "" {
		return nil, false
	}
	args := []string{"status", "--porcelain=v1", "-z", "--untracked-files=no", "--ignored=no", "--"}
	if d.All {
		args = append(args, root)
	} else {
		args = append(args, d.Paths...)
	}
	out, err := provenance.Git(d.Dir, args...)
	if err != nil {
		return nil, false
	}
	var changed []policy.Changed
	for _, e := range provenance.ParseStatus(out) {
		changed = append(changed, policy.Changed{Path: filepath.Join(root, filepath.FromSlash(e.Path)), X: e.X, Y: e.Y})
	}
	return withHidden(changed, d, root, rec), true
}

// withHidden adds to changed the files of d's scope whose changes git's
// status does not list: those an index flag hides, and those the session
// recorded as holding the user's work set aside (provenance Entry.User).
// Each is judged as a changed file, which is the user's.
func withHidden(changed []policy.Changed, d policy.Discard, root string, rec *provenance.Record) []policy.Changed {
	scope := d.Paths
	if d.All {
		scope = []string{root}
	}
	listed := func(p string) bool {
		return slices.ContainsFunc(changed, func(c policy.Changed) bool { return c.Path == p })
	}
	in := func(p string) bool {
		return slices.ContainsFunc(scope, func(s string) bool { return p == s || strings.HasPrefix(p, s+string(filepath.Separator)) })
	}
	for _, p := range provenance.Hidden(d.Dir, scope) {
		if !listed(p) {
			changed = append(changed, policy.Changed{Path: p, X: ' ', Y: 'M'})
		}
	}
	for p, e := range rec.Files {
		if e.User && in(p) && !listed(p) {
			changed = append(changed, policy.Changed{Path: p, X: ' ', Y: 'M'})
		}
	}
	return changed
}

// fileFacts is what is known of path p: its record and its content now,
// or why it is not judged at all.
func fileFacts(rec *provenance.Record, workspace, dir, p string) policy.OwnFile {
	var f policy.OwnFile
	switch {
	case !strings.HasPrefix(p, workspace+string(filepath.Separator)):
		f.Unsafe = "is outside the workspace"
		return f
	case !provenance.Linkless(workspace, p):
		f.Unsafe = "is reached through a symbolic link"
		return f
	case provenance.Toplevel(filepath.Dir(p)) != provenance.Toplevel(dir):
		f.Unsafe = "is in a submodule or another repository"
		return f
	}
	if st, err := os.Lstat(filepath.Join(p, ".git")); err == nil && st != nil {
		f.Unsafe = "is a submodule"
		return f
	}
	if st, err := os.Lstat(p); err == nil && st.IsDir() {
		f.Unsafe = "is a directory"
		return f
	}
	e, ok := rec.Files[p]
	if !ok {
		return f
	}
	f.Recorded, f.Created, f.Clean, f.Staged, f.Foreign, f.User = true, e.Created, e.Clean, e.Staged, e.Foreign, e.User
	if !e.Pending {
		f.Left = e.Left
	}
	f.Now = provenance.Hash(p)
	return f
}

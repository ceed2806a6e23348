package shellguard

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/policy"
	"github.com/gemini-guard/gemini-guard/internal/provenance"
)

// Discards returns what the git discards in in's command would lose, when
// they are all that denies it: the scopes the hook gathers Own facts for
// before deciding again. Nil when something else denies, or a denying
// discard is beyond what can be checked (git pointed elsewhere, a glob).
func Discards(in Input) []policy.Discard {
	res, ctx, early := prepare(in, false)
	if early != nil {
		return nil
	}
	var out []policy.Discard
	for _, f := range policy.Evaluate(res, ctx, true) {
		if !f.Denies(ctx) {
			continue
		}
		if f.Discard == nil {
			return nil
		}
		out = append(out, *f.Discard)
	}
	return out
}

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
		changed, ok := changedIn(d, workspace)
		if !ok {
			continue
		}
		own.Scopes[d.Key()] = changed
		for _, c := range changed {
			own.Files[c.Path] = fileFacts(rec, workspace, d.Dir, c.Path)
		}
	}
	return own
}

// changedIn lists the files d would lose changes of: for an untracked
// discard (git clean) the named paths as they are, else what git status
// lists as changed under d's paths (or the whole work tree).
func changedIn(d policy.Discard, workspace string) ([]policy.Changed, bool) {
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
	return changed, true
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
	f.Recorded, f.Created, f.Clean, f.Staged, f.Foreign = true, e.Created, e.Clean, e.Staged, e.Foreign
	if !e.Pending {
		f.Left = e.Left
	}
	f.Now = provenance.Hash(p)
	return f
}

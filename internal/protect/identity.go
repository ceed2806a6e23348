package protect

import (
	"io/fs"
	"os"
	"path/filepath"

	"github.com/gemini-guard/gemini-guard/internal/bounded"
)

// Identify reports whether the existing file at p is one of the protected
// files under another name: a hard link (same device and inode) or a
// symlink that reaches one. A path that does not exist yet, and a file
// with a single link, are only themselves.
func Identify(r Roots, p string) Entry {
	fsys := bounded.Or(r.FS)
	st, err := fsys.Stat(p)
	if err != nil || !st.Mode().IsRegular() {
		return Entry{}
	}
	if n, ok := links(st); ok && n < 2 {
		if lst, err := fsys.Lstat(p); err == nil && lst.Mode()&fs.ModeSymlink == 0 {
			return Entry{} // its one name is p, which is not protected
		}
	}
	for _, f := range knownFiles(r) {
		if samePath(f, p) {
			continue
		}
		fst, err := fsys.Stat(f)
		if err != nil || !os.SameFile(st, fst) {
			continue
		}
		e := Classify(r, f)
		if e.Kind == None {
			continue
		}
		e.What += ", through " + p + " (the same file under another name)"
		return e
	}
	return Entry{}
}

// HoldsUserConfig reports whether a tree copied, synced, moved or
// extracted into the directory p could replace the user's Gemini CLI
// configuration: p is ~/.gemini or a directory above it (the home itself
// included), or above /etc/gemini-cli. The workspace's own .gemini is
// not counted: unpacking into the workspace is ordinary work, and each
// named path written there is still judged on its own.
func HoldsUserConfig(r Roots, p string) Entry {
	p = filepath.Clean(p)
	if r.Home != "" {
		for _, g := range []string{filepath.Join(r.Home, ".gemini"), filepath.Join(r.Home, ".env")} {
			if Within(g, p) {
				return Entry{"the home directory's Gemini CLI configuration (" + filepath.Join(r.Home, ".gemini") + ", " + filepath.Join(r.Home, ".env") + ")", Config}
			}
		}
	}
	if Within("/etc/gemini-cli", p) {
		return Entry{"Gemini CLI's system settings (/etc/gemini-cli)", Config}
	}
	return Entry{}
}

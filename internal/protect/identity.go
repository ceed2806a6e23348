package protect

import (
	"io/fs"
	"os"
	"path/filepath"

	"github.com/gemini-guard/gemini-guard/internal/bounded"
)

// guardBinaries are the programs hooks.json runs, by name.
var guardBinaries = []string{"guard-shell", "guard-secrets", "guard-redact", "gemini-guard", "guard-scanner"}

// knownFiles are the protected files a hard link can reach: the table's
// files that exist on their own (directories cannot be hard linked), each
// under every place the table anchors them.
func knownFiles(r Roots) []string {
	var out []string
	for _, g := range geminiDirs(r) {
		out = append(out,
			filepath.Join(g, "settings.json"),
			filepath.Join(g, "trustedFolders.json"),
			filepath.Join(g, ".env"),
			filepath.Join(g, "extensions", "extension-enablement.json"),
			filepath.Join(g, "extensions", "gemini-guard", ".env"),
			filepath.Join(g, "extensions", "gemini-guard", "gemini-extension.json"),
			filepath.Join(g, "extensions", "gemini-guard", "hooks", "hooks.json"),
			filepath.Join(g, "extensions", "gemini-guard", "policies", "gemini-guard.toml"),
		)
		for _, b := range guardBinaries {
			out = append(out, filepath.Join(g, "extensions", "gemini-guard", "bin", b))
		}
	}
	for _, root := range []string{r.Home, r.Workspace} {
		if root != "" {
			out = append(out, filepath.Join(root, ".env"), filepath.Join(root, ".gitleaks.toml"), filepath.Join(root, ".git", "config"), filepath.Join(root, ".gitconfig"))
		}
	}
	if r.Workspace != "" {
		out = append(out, filepath.Join(r.Workspace, ProjectFile))
	}
	if r.GitleaksConfig != "" {
		out = append(out, r.GitleaksConfig)
	}
	return append(out, "/etc/gemini-cli/settings.json")
}

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

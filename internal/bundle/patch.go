package bundle

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// A hook process lives for one call, so what its packages do at start-up is
// paid on every call. mvdan.cc/sh/v3 compiles four regexps into package
// variables — fileutil's shebang and file-extension patterns (fileutil is
// imported by syntax for its printer) and expand's two globstar patterns —
// that the hooks never use on an ordinary command. Measured, interleaved on
// a 2-core VM: without those compilations the secrets guard's CPU per call
// drops ~1.5 ms and the shell guard's ~0.6 ms. Go cannot skip a package's
// initialisation, and the go command refuses -overlay for files in the
// module cache, so the release builds (Build: `make build`, `make dist`,
// the end-to-end tests, `make bench`) compile a copy of the pinned module
// with the regexps made lazy (sync.OnceValue: the same regexps, compiled on
// first use), through a go.mod that replaces the module with the copy
// (-modfile; the repository's go.mod is not touched). The edits are exact
// text replacements of the pinned release: when an upgrade changes that
// text, the patch is skipped: the build goes on with the module as
// published and says so in one line (releaseModFile), so that no speed
// optimisation can fail a newcomer's build; TestStartupPatchesApply fails
// instead, naming the file to update. `go test`, `go vet` and a plain
// `go build` use the module as published, which behaves the same and
// starts slower.

// patchedModule is the module whose copy Build compiles.
const patchedModule = "mvdan.cc/sh/v3"

// sourcePatch is a set of exact replacements in one file of the module.
type sourcePatch struct {
	file  string // slash-separated, relative to the module root
	edits []textEdit
}

type textEdit struct{ old, new string }

// startupPatches make mvdan.cc/sh/v3's package-level regexps lazy.
var startupPatches = []sourcePatch{
	{
		file: "fileutil/file.go",
		edits: []textEdit{
			{"\t\"strings\"\n)", "\t\"strings\"\n\t\"sync\"\n)"},
			{"\tshebangRe = regexp.MustCompile(`^#![ \\t]*/(usr/)?bin/(env[ \\t]+)?(sh|dash|bash|mksh|bats|zsh)(\\s|$)`)",
				"\tshebangRe = sync.OnceValue(func() *regexp.Regexp {\n\t\treturn regexp.MustCompile(`^#![ \\t]*/(usr/)?bin/(env[ \\t]+)?(sh|dash|bash|mksh|bats|zsh)(\\s|$)`)\n\t})"},
			{"\textRe     = regexp.MustCompile(`\\.(sh|bash|mksh|bats|zsh)$`)",
				"\textRe     = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\\.(sh|bash|mksh|bats|zsh)$`) })"},
			{"shebangRe.FindSubmatch(", "shebangRe().FindSubmatch("},
			{"extRe.MatchString(", "extRe().MatchString("},
		},
	},
	{
		file: "expand/expand.go",
		edits: []textEdit{
			{"\t\"strings\"\n", "\t\"strings\"\n\t\"sync\"\n"},
			{"\trxGlobStar        = regexp.MustCompile(`^[^/.][^/]*$`)",
				"\trxGlobStar        = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[^/.][^/]*$`) })"},
			{"\trxGlobStarDotGlob = regexp.MustCompile(`^[^/]*$`)",
				"\trxGlobStarDotGlob = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[^/]*$`) })"},
			{"rx := rxGlobStar.MatchString", "rx := rxGlobStar().MatchString"},
			{"rx = rxGlobStarDotGlob.MatchString", "rx = rxGlobStarDotGlob().MatchString"},
		},
	},
}

// apply makes p's edits in src, each of which must match exactly once.
func (p sourcePatch) apply(src string) (string, error) {
	for _, e := range p.edits {
		if n := strings.Count(src, e.old); n != 1 {
			return "", fmt.Errorf("bundle: %s/%s holds %q %d times, not once: the module changed; update startupPatches in internal/bundle/patch.go for it",
				patchedModule, p.file, e.old, n)
		}
		src = strings.Replace(src, e.old, e.new, 1)
	}
	return src, nil
}

// releaseModFile is the go.mod the release build compiles with: the
// patched one (PatchedModFile), or "" for the repository's own when the
// patch cannot be made, with the one line that says so. The patch only
// makes the hooks start faster; it never decides whether a build works.
func releaseModFile(ctx context.Context, root, dir string, patches []sourcePatch) (modFile, notice string) {
	modFile, err := patchedModFile(ctx, root, dir, patches)
	if err != nil {
		return "", fmt.Sprintf("gemini-guard: building with %s as published (the hooks start ~1 ms slower): %s",
			patchedModule, strings.ReplaceAll(strings.TrimSpace(err.Error()), "\n", " "))
	}
	return modFile, ""
}

// PatchedModFile prepares the patched copy of patchedModule that root's
// go.mod selects, under dir (reused when it is already there), and returns
// a go.mod for `go build -modfile` that replaces the module with it. The
// module is downloaded first when the module cache does not hold it yet
// (a fresh machine).
func PatchedModFile(ctx context.Context, root, dir string) (string, error) {
	return patchedModFile(ctx, root, dir, startupPatches)
}

func patchedModFile(ctx context.Context, root, dir string, patches []sourcePatch) (string, error) {
	goTool, err := GoTool()
	if err != nil {
		return "", err
	}
	// `go mod download -json M` fetches the version of M that root's go.mod
	// selects (verified against go.sum) when it is not in the module cache
	// yet, and names its directory either way; `go list -m` would only name
	// a directory that is already there.
	cmd := exec.CommandContext(ctx, goTool, "mod", "download", "-json", patchedModule)
	cmd.Dir = root
	out, err := cmd.Output()
	var mod struct{ Version, Dir, Error string }
	if jsonErr := json.Unmarshal(out, &mod); jsonErr == nil && mod.Error != "" {
		return "", fmt.Errorf("bundle: go mod download %s: %s", patchedModule, mod.Error)
	}
	if err != nil {
		return "", fmt.Errorf("bundle: go mod download %s: %w%s", patchedModule, err, stderrOf(err))
	}
	if mod.Dir == "" {
		return "", fmt.Errorf("bundle: go mod download %s: no module directory in %q", patchedModule, out)
	}
	// The copy is named for the version and the patches, so a change to
	// either makes a new one.
	h := sha256.New()
	fmt.Fprintf(h, "%s@%s\n%q", patchedModule, mod.Version, patches)
	key := strings.ReplaceAll(patchedModule, "/", "_") + "@" + mod.Version + "-" + hex.EncodeToString(h.Sum(nil))[:12]
	copyDir := filepath.Join(dir, key)
	if _, err := os.Stat(filepath.Join(copyDir, "go.mod")); err != nil {
		if err := writePatchedCopy(mod.Dir, copyDir, patches); err != nil {
			return "", err
		}
	}
	goMod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return "", fmt.Errorf("bundle: %w", err)
	}
	goSum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("bundle: %w", err)
	}
	modDir, err := os.MkdirTemp(dir, "modfile-")
	if err != nil {
		return "", fmt.Errorf("bundle: %w", err)
	}
	modFile := filepath.Join(modDir, "go.mod")
	replace := fmt.Sprintf("\n// Written by internal/bundle.PatchedModFile for the release build.\nreplace %s => %s\n", patchedModule, filepath.ToSlash(copyDir))
	if err := os.WriteFile(modFile, append(goMod, replace...), 0o644); err != nil {
		return "", fmt.Errorf("bundle: %w", err)
	}
	if err := os.WriteFile(filepath.Join(modDir, "go.sum"), goSum, 0o644); err != nil {
		return "", fmt.Errorf("bundle: %w", err)
	}
	return modFile, nil
}

// writePatchedCopy copies the module at src to dst with patches applied, through a temporary directory renamed into place, so that a
// build running at the same time never sees half a copy.
func writePatchedCopy(src, dst string, patches []sourcePatch) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return fmt.Errorf("bundle: %w", err)
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dst), filepath.Base(dst)+".tmp-")
	if err != nil {
		return fmt.Errorf("bundle: %w", err)
	}
	defer os.RemoveAll(tmp)
	if err := copyTree(src, tmp); err != nil {
		return err
	}
	for _, p := range patches {
		name := filepath.Join(tmp, filepath.FromSlash(p.file))
		src, err := os.ReadFile(name)
		if err != nil {
			return fmt.Errorf("bundle: %w", err)
		}
		patched, err := p.apply(string(src))
		if err != nil {
			return err
		}
		if err := os.WriteFile(name, []byte(patched), 0o644); err != nil {
			return fmt.Errorf("bundle: %w", err)
		}
	}
	if err := os.Rename(tmp, dst); err != nil {
		if _, statErr := os.Stat(filepath.Join(dst, "go.mod")); statErr == nil {
			return nil // another build made it first
		}
		return fmt.Errorf("bundle: %w", err)
	}
	return nil
}

func stderrOf(err error) string {
	var ee *exec.ExitError
	if errors.As(err, &ee) && len(ee.Stderr) > 0 {
		return "\n" + string(ee.Stderr)
	}
	return ""
}

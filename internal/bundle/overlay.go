package bundle

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// A hook process lives for one call, so what its packages do at start-up
// is paid on every call. mvdan.cc/sh/v3 compiles four regexps in package
// variables — fileutil's shebang and extension patterns (imported by
// syntax for its printer) and expand's two globstar patterns — that the
// guards never use on an ordinary command: measured, their compilation is
// about a sixth of the shell guard's cost over a bare Go process. Go cannot
// skip a package's initialisation, so the release builds (`make build`,
// `make dist`, the end-to-end tests, `make bench`) compile those two files
// of the pinned mvdan.cc/sh with the regexps made lazy (sync.OnceValue:
// the same regexps, compiled on first use), through the go command's
// -overlay. The edits are exact text replacements of the pinned release;
// when an upgrade changes that text the build fails and says so, rather
// than silently building something else. `go test` and a plain `go build`
// use the unpatched files, which behave the same and start slower.

// sourcePatch is a set of exact replacements in one file of a dependency.
type sourcePatch struct {
	pkg, file string
	edits     []textEdit
}

type textEdit struct{ old, new string }

// startupPatches make mvdan.cc/sh/v3's package-level regexps lazy.
var startupPatches = []sourcePatch{
	{
		pkg: "mvdan.cc/sh/v3/fileutil", file: "file.go",
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
		pkg: "mvdan.cc/sh/v3/expand", file: "expand.go",
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

// WriteOverlay writes the patched files of startupPatches, taken from the
// module versions root's go.mod selects, into dir, and returns the path of
// the overlay file to hand to `go build -overlay`.
func WriteOverlay(ctx context.Context, root, dir string) (string, error) {
	goTool, err := GoTool()
	if err != nil {
		return "", err
	}
	replace := map[string]string{}
	for _, p := range startupPatches {
		cmd := exec.CommandContext(ctx, goTool, "list", "-f", "{{.Dir}}", p.pkg)
		cmd.Dir = root
		out, err := cmd.Output()
		if err != nil {
			return "", fmt.Errorf("bundle: go list %s: %w%s", p.pkg, err, stderrOf(err))
		}
		orig := filepath.Join(strings.TrimSpace(string(out)), p.file)
		src, err := os.ReadFile(orig)
		if err != nil {
			return "", fmt.Errorf("bundle: %w", err)
		}
		patched, err := p.apply(string(src))
		if err != nil {
			return "", err
		}
		name := filepath.Join(dir, strings.ReplaceAll(p.pkg, "/", "_")+"_"+p.file)
		if err := os.WriteFile(name, []byte(patched), 0o644); err != nil {
			return "", fmt.Errorf("bundle: %w", err)
		}
		replace[orig] = name
	}
	data, err := json.Marshal(map[string]any{"Replace": replace})
	if err != nil {
		return "", fmt.Errorf("bundle: %w", err)
	}
	path := filepath.Join(dir, "overlay.json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return "", fmt.Errorf("bundle: %w", err)
	}
	return path, nil
}

// apply makes p's edits in src, each of which must match exactly once.
func (p sourcePatch) apply(src string) (string, error) {
	for _, e := range p.edits {
		if n := strings.Count(src, e.old); n != 1 {
			return "", fmt.Errorf("bundle: %s/%s no longer holds %q exactly once (%d times): the dependency changed; update startupPatches in internal/bundle/overlay.go for it", p.pkg, p.file, e.old, n)
		}
		src = strings.Replace(src, e.old, e.new, 1)
	}
	return src, nil
}

func stderrOf(err error) string {
	if ee, ok := err.(*exec.ExitError); ok && len(ee.Stderr) > 0 {
		return "\n" + string(ee.Stderr)
	}
	return ""
}

// Package bundle stages gemini-guard as a Gemini CLI extension directory and
// packs release archives of it.
//
// One layout serves every way the extension is installed: `make dist` packs
// it per platform, the end-to-end tests and `make demo` install the host's
// staging with the real `gemini extensions install`. An extension directory
// holds the manifest at its root, hooks/hooks.json, bin/ with the programs
// hooks.json runs, and the optional GEMINI.md, skills/, policies/, docs/,
// README.md and LICENSE.
//
// Nothing here prints; errors name the step and the file.
package bundle

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
)

// Name is the extension's name in gemini-extension.json and in archive names.
const Name = "gemini-guard"

// Required are the files an extension directory cannot do without; Stage
// fails when one is missing from the repository.
var Required = []string{"gemini-extension.json", filepath.Join("hooks", "hooks.json")}

// Optional are copied when present: the context file, skills, policies for
// Gemini CLI's policy engine, documentation and licence.
var Optional = []string{"GEMINI.md", "skills", "policies", "docs", "README.md", "LICENSE"}

// Platform is a Go target and its Gemini CLI release-asset spelling.
type Platform struct {
	GOOS, GOARCH string
}

// Platforms are the release targets: linux, darwin, win32 × x64, arm64.
var Platforms = []Platform{
	{"linux", "amd64"}, {"linux", "arm64"},
	{"darwin", "amd64"}, {"darwin", "arm64"},
	{"windows", "amd64"}, {"windows", "arm64"},
}

// BuildTags are the Go build tags of every release build (and of `make
// build`, whose TAGS must agree: a test checks it). gore2regex selects
// gitleaks' RE2 regexp build for the scanner process.
const BuildTags = "gore2regex"

// Host is the platform this program runs on.
func Host() Platform { return Platform{runtime.GOOS, runtime.GOARCH} }

// Node is the platform as Node's os.platform()/os.arch() name it, which is
// how Gemini CLI picks a release asset: "linux.x64", "win32.arm64". Targets
// Node does not name the same way keep Go's spelling.
func (p Platform) Node() string {
	os, arch := p.GOOS, p.GOARCH
	if os == "windows" {
		os = "win32"
	}
	if arch == "amd64" {
		arch = "x64"
	}
	return os + "." + arch
}

// Windows reports whether Gemini CLI runs hooks through PowerShell there.
func (p Platform) Windows() bool { return p.GOOS == "windows" }

// ArchiveName is the release asset name Gemini CLI looks for:
// {platform}.{arch}.gemini-guard.tar.gz, or .zip for win32.
func (p Platform) ArchiveName() string {
	ext := ".tar.gz"
	if p.Windows() {
		ext = ".zip"
	}
	return p.Node() + "." + Name + ext
}

// ParsePlatform reads "linux/amd64", "linux.x64" or "win32.arm64".
func ParsePlatform(s string) (Platform, error) {
	sep := "/"
	if !strings.Contains(s, "/") {
		sep = "."
	}
	osName, arch, ok := strings.Cut(s, sep)
	if !ok {
		return Platform{}, fmt.Errorf("bundle: platform %q: want os/arch, like linux/amd64 or linux.x64", s)
	}
	switch osName {
	case "win32":
		osName = "windows"
	}
	switch arch {
	case "x64":
		arch = "amd64"
	}
	return Platform{osName, arch}, nil
}

// Stage builds the extension for p from the repository at root into dir,
// which must not exist yet or be empty: every main package under cmd/ goes
// into dir/bin (with .exe on Windows), the Required and present Optional
// files are copied, and for Windows hooks/hooks.json is rewritten for
// PowerShell (see PowerShellHooks). The Go toolchain runs with CGO off, so
// every target builds on any host.
func Stage(ctx context.Context, root, dir string, p Platform) error {
	if err := os.MkdirAll(filepath.Join(dir, "bin"), 0o755); err != nil {
		return fmt.Errorf("bundle: %w", err)
	}
	if err := Build(ctx, root, filepath.Join(dir, "bin"), p); err != nil {
		return err
	}
	for _, name := range Required {
		if err := copyTree(filepath.Join(root, name), filepath.Join(dir, name)); err != nil {
			return fmt.Errorf("bundle: required %s: %w", name, err)
		}
	}
	for _, name := range Optional {
		err := copyTree(filepath.Join(root, name), filepath.Join(dir, name))
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("bundle: %s: %w", name, err)
		}
	}
	if p.Windows() {
		path := filepath.Join(dir, "hooks", "hooks.json")
		data, err := os.ReadFile(path)
		if err != nil {
			return fmt.Errorf("bundle: %w", err)
		}
		ps, err := PowerShellHooks(data)
		if err != nil {
			return err
		}
		if err := os.WriteFile(path, ps, 0o644); err != nil {
			return fmt.Errorf("bundle: %w", err)
		}
	}
	// Qwen Code's manifest, from the staged (for Windows, PowerShell) hooks.
	return writeQwenManifest(dir)
}

// Build compiles every main package under root/cmd for p into binDir:
// static (no cgo: every hook process would pay for the dynamic loader),
// -trimpath, stripped, with BuildTags and mvdan.cc/sh's start-up patches
// (PatchedModFile; the copy is kept in the user cache; when it cannot be
// made, the module as published and one line on stderr saying so).
// `make build` is this for the host. The go command's output is returned in the error when
// it fails.
func Build(ctx context.Context, root, binDir string, p Platform) error {
	goTool, err := GoTool()
	if err != nil {
		return err
	}
	abs, err := filepath.Abs(binDir)
	if err != nil {
		return fmt.Errorf("bundle: %w", err)
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	work := filepath.Join(cache, Name, "build")
	args := []string{"build", "-tags", BuildTags, "-trimpath", "-ldflags=-s -w", "-o", abs + string(filepath.Separator), "./cmd/..."}
	modFile, notice := releaseModFile(ctx, root, work, startupPatches)
	if notice != "" {
		fmt.Fprintln(os.Stderr, notice)
	} else {
		defer os.RemoveAll(filepath.Dir(modFile))
		args = slices.Insert(args, 1, "-modfile", modFile)
	}
	cmd := exec.CommandContext(ctx, goTool, args...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS="+p.GOOS, "GOARCH="+p.GOARCH, "CGO_ENABLED=0")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("bundle: go build ./cmd/... for %s: %w\n%s", p.Node(), err, out.String())
	}
	return nil
}

// GoTool finds the go command: on PATH, else in the GOROOT this program was
// built with.
func GoTool() (string, error) {
	if p, err := exec.LookPath("go"); err == nil {
		return p, nil
	}
	// The toolchain this program was built with, for `go run ./tools/...`
	// with go off PATH; the path is only tried, never trusted blindly.
	p := filepath.Join(runtime.GOROOT(), "bin", "go") //nolint:staticcheck // see above
	if _, err := os.Stat(p); err == nil {
		return p, nil
	}
	return "", errors.New("bundle: the go command is not on PATH")
}

// FindRoot walks up from dir to the directory holding gemini-extension.json
// and go.mod: the repository root.
func FindRoot(dir string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("bundle: %w", err)
	}
	for d := dir; ; d = filepath.Dir(d) {
		if fileExists(filepath.Join(d, "gemini-extension.json")) && fileExists(filepath.Join(d, "go.mod")) {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("bundle: no gemini-extension.json with go.mod above %s", dir)
		}
	}
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// copyTree copies a file or a directory tree, keeping the executable bit.
func copyTree(src, dst string) error {
	info, err := os.Stat(src)
	if err != nil {
		return err
	}
	if !info.IsDir() {
		return copyFile(src, dst, info.Mode())
	}
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() {
			return fmt.Errorf("%s: not a regular file", p)
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		return copyFile(p, target, info.Mode())
	})
}

func copyFile(src, dst string, mode fs.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	perm := fs.FileMode(0o644)
	if mode&0o111 != 0 {
		perm = 0o755
	}
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, perm)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

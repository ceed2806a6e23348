// Command dist builds gemini-guard's release archives (`make dist`).
//
// For each platform it stages a self-contained extension (manifest at the
// root, hooks/hooks.json, bin/ with that platform's programs, GEMINI.md,
// skills/, policies/, docs/, README.md, LICENSE when present) and packs it as
// the release asset Gemini CLI looks for:
// {platform}.{arch}.gemini-guard.tar.gz, or .zip for win32. The win32
// archives carry a hooks.json generated for PowerShell from the same
// hooks.json (untested on real Windows). SHA256SUMS lists every archive.
//
// Usage:
//
//	go run ./tools/dist [-out dist] [-platforms all|host|linux/amd64,win32.arm64,...]
//	go run ./tools/dist -stage dir
//	go run ./tools/dist -bin dir
//
// With -stage it only stages the host's extension into dir (replacing it):
// the directory `make install` hands to `gemini extensions install`. With
// -bin it only builds the host's programs into dir, as a release build does
// (`make build`).
package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/bundle"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("dist", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "dist", "directory for the archives")
	platforms := fs.String("platforms", "all", "all, host, or a comma-separated list like linux/amd64,win32.arm64")
	stage := fs.String("stage", "", "only stage the host's extension into this directory (replacing it)")
	bin := fs.String("bin", "", "only build the host's programs into this directory")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "dist: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	targets, err := parsePlatforms(*platforms)
	if err != nil {
		fmt.Fprintln(stderr, "dist:", err)
		return 2
	}
	root, err := bundle.FindRoot(".")
	if err != nil {
		fmt.Fprintln(stderr, "dist:", err)
		return 1
	}
	if *bin != "" {
		if err := bundle.Build(context.Background(), root, *bin, bundle.Host()); err != nil {
			fmt.Fprintln(stderr, "dist:", err)
			return 1
		}
		return 0
	}
	if *stage != "" {
		if err := checkReplaceable(*stage); err != nil {
			fmt.Fprintln(stderr, "dist:", err)
			return 1
		}
		if err := os.RemoveAll(*stage); err != nil {
			fmt.Fprintln(stderr, "dist:", err)
			return 1
		}
		if err := bundle.Stage(context.Background(), root, *stage, bundle.Host()); err != nil {
			fmt.Fprintln(stderr, "dist:", err)
			return 1
		}
		fmt.Fprintf(stdout, "staged %s for %s\n", *stage, bundle.Host().Node())
		return 0
	}
	if err := build(context.Background(), root, *out, targets, stdout); err != nil {
		fmt.Fprintln(stderr, "dist:", err)
		return 1
	}
	return 0
}

// checkReplaceable refuses to delete a directory that is not an earlier
// staging: one holding go.mod (a repository) or anything but an extension.
func checkReplaceable(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) == 0 {
		return nil // absent or empty
	}
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
		return fmt.Errorf("-stage %s: that is a Go module, not a staged extension; refusing to replace it", dir)
	}
	if _, err := os.Stat(filepath.Join(dir, "gemini-extension.json")); err != nil {
		return fmt.Errorf("-stage %s: not empty and not a staged extension; refusing to replace it", dir)
	}
	return nil
}

func parsePlatforms(s string) ([]bundle.Platform, error) {
	switch s {
	case "all":
		return bundle.Platforms, nil
	case "host":
		return []bundle.Platform{bundle.Host()}, nil
	}
	var out []bundle.Platform
	for _, f := range strings.Split(s, ",") {
		p, err := bundle.ParsePlatform(strings.TrimSpace(f))
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

func build(ctx context.Context, root, out string, targets []bundle.Platform, stdout io.Writer) error {
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	work, err := os.MkdirTemp("", "gemini-guard-dist-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)

	var sums strings.Builder
	for _, p := range targets {
		dir := filepath.Join(work, p.Node())
		if err := bundle.Stage(ctx, root, dir, p); err != nil {
			return err
		}
		archive := filepath.Join(out, p.ArchiveName())
		if err := bundle.Archive(dir, archive); err != nil {
			return err
		}
		sum, size, err := sha256File(archive)
		if err != nil {
			return err
		}
		fmt.Fprintf(&sums, "%s  %s\n", sum, p.ArchiveName())
		fmt.Fprintf(stdout, "%-40s %6.1f MB\n", archive, float64(size)/1e6)
	}
	return os.WriteFile(filepath.Join(out, "SHA256SUMS"), []byte(sums.String()), 0o644)
}

func sha256File(path string) (string, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", 0, err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return "", 0, err
	}
	return hex.EncodeToString(h.Sum(nil)), n, nil
}

package bundle

import (
	"archive/tar"
	"archive/zip"
	"compress/gzip"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"time"
)

// Archive packs the staged extension directory dir into the file out: a
// gzipped tar, or a zip when out ends in .zip. Entries sit at the archive
// root (gemini-extension.json, hooks/hooks.json, bin/...), in sorted order,
// with a fixed time, so the same input gives the same bytes. Programs in bin/
// keep mode 0755, everything else is 0644.
func Archive(dir, out string) error {
	files, err := listFiles(dir)
	if err != nil {
		return fmt.Errorf("bundle: archive %s: %w", dir, err)
	}
	f, err := os.Create(out)
	if err != nil {
		return fmt.Errorf("bundle: %w", err)
	}
	if filepath.Ext(out) == ".zip" {
		err = writeZip(f, dir, files)
	} else {
		err = writeTarGz(f, dir, files)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(out)
		return fmt.Errorf("bundle: archive %s: %w", out, err)
	}
	return nil
}

// epoch is the modification time of every entry: reproducible archives.
var epoch = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

type entry struct {
	rel  string // slash-separated
	dir  bool
	mode fs.FileMode
}

func listFiles(root string) ([]entry, error) {
	var out []entry
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == root {
			return nil
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		e := entry{rel: filepath.ToSlash(rel), dir: d.IsDir(), mode: 0o644}
		if d.IsDir() {
			e.mode = 0o755
		} else {
			info, err := d.Info()
			if err != nil {
				return err
			}
			if !info.Mode().IsRegular() {
				return fmt.Errorf("%s: not a regular file", p)
			}
			if info.Mode()&0o111 != 0 {
				e.mode = 0o755
			}
		}
		out = append(out, e)
		return nil
	})
	sort.Slice(out, func(i, j int) bool { return out[i].rel < out[j].rel })
	return out, err
}

func writeTarGz(w io.Writer, root string, files []entry) error {
	gz := gzip.NewWriter(w)
	tw := tar.NewWriter(gz)
	for _, e := range files {
		hdr := &tar.Header{Name: e.rel, Mode: int64(e.mode), ModTime: epoch, Format: tar.FormatPAX}
		if e.dir {
			hdr.Typeflag, hdr.Name = tar.TypeDir, e.rel+"/"
			if err := tw.WriteHeader(hdr); err != nil {
				return err
			}
			continue
		}
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(e.rel)))
		if err != nil {
			return err
		}
		hdr.Typeflag, hdr.Size = tar.TypeReg, int64(len(data))
		if err := tw.WriteHeader(hdr); err != nil {
			return err
		}
		if _, err := tw.Write(data); err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return gz.Close()
}

func writeZip(w io.Writer, root string, files []entry) error {
	zw := zip.NewWriter(w)
	for _, e := range files {
		hdr := &zip.FileHeader{Name: e.rel, Method: zip.Deflate, Modified: epoch}
		if e.dir {
			hdr.Name += "/"
			hdr.Method = zip.Store
			hdr.SetMode(fs.ModeDir | e.mode)
			if _, err := zw.CreateHeader(hdr); err != nil {
				return err
			}
			continue
		}
		hdr.SetMode(e.mode)
		fw, err := zw.CreateHeader(hdr)
		if err != nil {
			return err
		}
		f, err := os.Open(filepath.Join(root, filepath.FromSlash(e.rel)))
		if err != nil {
			return err
		}
		_, err = io.Copy(fw, f)
		f.Close()
		if err != nil {
			return err
		}
	}
	return zw.Close()
}

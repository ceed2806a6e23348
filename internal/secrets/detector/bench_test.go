package detector_test

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/gemini-guard/gemini-guard/internal/secrets"
	"github.com/gemini-guard/gemini-guard/internal/secrets/detector"
)

// benchCode returns n bytes of real Go source (net/http).
func benchCode(b *testing.B, n int) string {
	b.Helper()
	paths, _ := filepath.Glob(filepath.Join(runtime.GOROOT(), "src", "net", "http", "*.go"))
	sort.Strings(paths)
	var sb strings.Builder
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		sb.Write(data)
		if sb.Len() >= n {
			break
		}
	}
	return sb.String()[:n]
}

// BenchmarkScan scans with one detector, as the scanner process does.
// Run with -tags gore2regex for the regexp build the scanner ships with.
func BenchmarkScan(b *testing.B) {
	d, err := detector.New(secrets.Options{})
	if err != nil {
		b.Fatal(err)
	}
	for _, size := range []int{60, 2000, 10_000, 100_000} {
		text := benchCode(b, size)
		b.Run(sizeName(size), func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for range b.N {
				d.Scan(context.Background(), text)
			}
		})
	}
}

func sizeName(n int) string {
	if n >= 1000 && n%1000 == 0 {
		return strconv.Itoa(n/1000) + "KB"
	}
	return strconv.Itoa(n) + "B"
}

// BenchmarkNew is the scanner process's start-up cost: loading and
// compiling the built-in rules.
func BenchmarkNew(b *testing.B) {
	for range b.N {
		if _, err := detector.New(secrets.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

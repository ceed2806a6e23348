package secrets_test

import (
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/gemini-guard/gemini-guard/internal/secrets"
	"github.com/gemini-guard/gemini-guard/internal/secrets/keywords"
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

// BenchmarkScanCold scans with a fresh scanner each time, as a hook
// process does: the regexps of the rules whose keywords occur are compiled
// in the loop.
func BenchmarkScanCold(b *testing.B) {
	for _, size := range benchSizes {
		text := benchCode(b, size)
		b.Run(sizeName(size), func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for range b.N {
				secrets.NewColdScanner().Scan(text)
			}
		})
	}
}

// BenchmarkScanWarm scans with one scanner (regexps compiled once), as a
// long-lived process would.
func BenchmarkScanWarm(b *testing.B) {
	s := secrets.NewColdScanner()
	for _, size := range benchSizes {
		text := benchCode(b, size)
		b.Run(sizeName(size), func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for range b.N {
				s.Scan(text)
			}
		})
	}
}

var benchSizes = []int{60, 2000, 10_000, 100_000}

func sizeName(n int) string {
	if n >= 1000 && n%1000 == 0 {
		return strconv.Itoa(n/1000) + "KB"
	}
	return strconv.Itoa(n) + "B"
}

func BenchmarkPrefilter(b *testing.B) {
	for _, size := range benchSizes {
		text := benchCode(b, size)
		b.Run(sizeName(size), func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for range b.N {
				keywords.MayContainSecret(text)
			}
		})
	}
}

// BenchmarkNewEngine is the per-process cost of setting up the built-in
// rules (nothing compiled).
func BenchmarkNewEngine(b *testing.B) {
	for range b.N {
		secrets.NewEngineForBench()
	}
}

package decode

import (
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
)

func benchText(b *testing.B, n int) string {
	paths, _ := filepath.Glob(filepath.Join(runtime.GOROOT(), "src", "net", "http", "*.go"))
	sort.Strings(paths)
	var sb strings.Builder
	for _, p := range paths {
		d, _ := os.ReadFile(p)
		sb.Write(d)
		if sb.Len() > n {
			break
		}
	}
	return sb.String()[:n]
}

func BenchmarkDecode(b *testing.B) {
	text := benchText(b, 100_000)
	b.SetBytes(int64(len(text)))
	for range b.N {
		NewDecoder().Decode(text, nil)
	}
}

func BenchmarkScanEncodings(b *testing.B) {
	text := benchText(b, 100_000)
	b.SetBytes(int64(len(text)))
	for range b.N {
		scanEncodings(text)
	}
}

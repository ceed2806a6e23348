package configcred_test

import (
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"

	"github.com/gemini-guard/gemini-guard/internal/secrets/configcred"
)

// BenchmarkFind reads 10 KB of Go source (net/http, as the detector's
// benchmark does) and a 10 KB YAML configuration.
func BenchmarkFind(b *testing.B) {
	paths, _ := filepath.Glob(filepath.Join(runtime.GOROOT(), "src", "net", "http", "*.go"))
	sort.Strings(paths)
	var sb strings.Builder
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		sb.Write(data)
		if sb.Len() >= 10_000 {
			break
		}
	}
	code := sb.String()[:10_000]
	yml := strings.Repeat("service:\n  name: web\n  port: 8080\n  password: ${DB_PASSWORD}\n", 10_000/60)
	for name, text := range map[string]string{"go-10KB": code, "yaml-10KB": yml} {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for range b.N {
				configcred.Find(text)
			}
		})
	}
}

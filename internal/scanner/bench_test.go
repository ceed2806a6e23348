//go:build linux || darwin

package scanner_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/secrets"
)

// BenchmarkScan is the client's round trip with the test detector (a
// substring search: what is measured is the transport and, for one-shot,
// starting the scanner process — here the test binary). The daemon cases
// are what a hook pays per call once a daemon runs, on top of its own
// process start.
func BenchmarkScan(b *testing.B) {
	sizes := []struct {
		name string
		n    int
	}{{"1KB", 1 << 10}, {"10KB", 10 << 10}, {"100KB", 100 << 10}, {"1MB", 1 << 20}}
	for _, path := range []string{"daemon", "one-shot"} {
		for _, size := range sizes {
			b.Run(path+"/"+size.name, func(b *testing.B) {
				e := newEnv(b)
				c := e.client(secrets.Options{})
				if path == "one-shot" {
					c.Dir = "relative" // unusable: never a daemon
				}
				line := "\tvalue := compute(x, y) // what it is for\n"
				text := secretWord + strings.Repeat(line, size.n/len(line)+1)[:size.n-len(secretWord)]
				_, err := c.Scan(text)
				require.NoError(b, err)
				if path == "daemon" {
					e.waitDaemon(secrets.Options{})
				}
				b.SetBytes(int64(len(text)))
				b.ResetTimer()
				for b.Loop() {
					if _, err := c.Scan(text); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

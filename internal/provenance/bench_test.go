package provenance_test

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/gemini-guard/gemini-guard/internal/provenance"
)

// BenchmarkTouch is what recording costs a hook call: a new file (no git),
// a file the agent left as it is (no git), and a first touch of a tracked
// file (one git status).
func BenchmarkTouch(b *testing.B) {
	ws := gitRepo(&testing.T{})
	store := filepath.Join(b.TempDir(), "provenance")
	tracked := filepath.Join(ws, "tracked.txt")
	b.Run("new file", func(b *testing.B) {
		for b.Loop() {
			_ = provenance.Touch(store, "new", ws, "call", []string{filepath.Join(ws, "out.log.txt")})
		}
	})
	b.Run("as the agent left it, with AfterTool", func(b *testing.B) {
		_ = provenance.Touch(store, "left", ws, "call", []string{tracked})
		_ = provenance.Left(store, "left", "call")
		for b.Loop() {
			_ = provenance.Touch(store, "left", ws, "call", []string{tracked})
			_ = provenance.Left(store, "left", "call") // AfterTool, as in every real call
		}
	})
	b.Run("first touch of a tracked file", func(b *testing.B) {
		i := 0
		for b.Loop() {
			i++
			_ = provenance.Touch(store, fmt.Sprint("first-", i), ws, "call", []string{tracked})
		}
	})
	b.Run("Left without a record", func(b *testing.B) {
		for b.Loop() {
			_ = provenance.Left(store, "none", "call")
		}
	})
}

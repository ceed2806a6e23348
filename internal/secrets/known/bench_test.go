package known

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/gemini-guard/gemini-guard/internal/state"
)

// Benchmarks of what the known values cost one hook process, with 50
// values: building the set from the environment (BenchmarkLoadEnv50), the
// files (BenchmarkLoadFiles) and the session's learnt hashes
// (BenchmarkLoadLearnt50), then finding them in a streamed chunk, a
// command and a written file (BenchmarkFind*) and the stream's hold point
// (BenchmarkTail50). The whole-process effect is in `make bench`.

// environ50 is an environment of 50 secret-named variables among 30
// ordinary ones, with values of this benchmark's making.
// loop runs fn as the benchmark's body and reports its CPU time per op.
func loop(b *testing.B, fn func()) {
	start := cpuTime()
	for b.Loop() {
		fn()
	}
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
}

func environ50() []string {
	r := rand.New(rand.NewPCG(5, 50))
	const alnum = "abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"
	var env []string
	for i := 0; i < 50; i++ {
		b := make([]byte, 16+r.IntN(32))
		for j := range b {
			b[j] = alnum[r.IntN(len(alnum))]
		}
		env = append(env, fmt.Sprintf("SERVICE%d_TOKEN=%s", i, b))
	}
	for i := 0; i < 30; i++ {
		env = append(env, fmt.Sprintf("SETTING_%d=/usr/local/share/x%d", i, i))
	}
	return env
}

func set50() *Set {
	s := NewSet(Key{K0: 0x1234, K1: 0x5678})
	for _, v := range FromEnviron(environ50()) {
		s.Add(v)
	}
	return s
}

func BenchmarkLoadEnv50(b *testing.B) {
	env := environ50()
	loop(b, func() {
		s := NewSet(Key{K0: 1, K1: 2})
		for _, v := range FromEnviron(env) {
			s.Add(v)
		}
	})
}

// BenchmarkLoadFiles: a workspace of 40 entries with one .env, and a home
// with ~/.aws/credentials and ~/.netrc (the other credential files absent).
func BenchmarkLoadFiles(b *testing.B) {
	ws, home := b.TempDir(), b.TempDir()
	for i := 0; i < 40; i++ {
		os.WriteFile(filepath.Join(ws, fmt.Sprintf("file%d.go", i)), nil, 0o644)
	}
	os.WriteFile(filepath.Join(ws, ".env"), []byte("DB_HOST=db\nDB_PASSWORD=Qx8-benchmark-Lw2\nAPI_TOKEN=tk-bench-98765-zz\n"), 0o600)
	os.MkdirAll(filepath.Join(home, ".aws"), 0o700)
	os.WriteFile(filepath.Join(home, ".aws", "credentials"), []byte("[default]\naws_secret_access_key = Zb4benchmarkvaluePq9\n"), 0o600)
	os.WriteFile(filepath.Join(home, ".netrc"), []byte("machine h login u password Nn3benchmarkVv\n"), 0o600)
	loop(b, func() {
		s := NewSet(Key{K0: 1, K1: 2})
		for _, v := range FromFiles(ws, home) {
			s.Add(v)
		}
	})
}

func BenchmarkLoadLearnt50(b *testing.B) {
	dir := filepath.Join(b.TempDir(), "sessions")
	st, err := state.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	key, err := UserKey(st)
	if err != nil {
		b.Fatal(err)
	}
	var vals []Value
	for _, v := range FromEnviron(environ50()) {
		vals = append(vals, Value{Source: "read_file output (generic-api-key)", Text: v.Text})
	}
	if err := Learn(st, key, "bench", vals[:40]); err != nil { // maxLearnt keeps ~40 values' forms
		b.Fatal(err)
	}
	loop(b, func() { Load(Sources{StateDir: dir, SessionID: "bench"}) })
}

func goSource(b *testing.B, n int) string {
	data, err := os.ReadFile(filepath.Join(runtime.GOROOT(), "src", "net", "http", "transfer.go"))
	if err != nil {
		b.Skip("GOROOT sources not available")
	}
	text := string(data)
	for len(text) < n {
		text += text
	}
	return text[:n]
}

func benchFind(b *testing.B, text string) {
	s := set50()
	b.SetBytes(int64(len(text)))
	loop(b, func() { s.Find(text, 0) })
}

// benchFirstFind is what a hook process pays: a set just loaded, its
// first Find (which builds the forms the text may hold).
func benchFirstFind(b *testing.B, text string) {
	env := environ50()
	b.SetBytes(int64(len(text)))
	loop(b, func() {
		Load(Sources{Environ: env}).Find(text, 0)
	})
}

func BenchmarkFirstFindChunk2K(b *testing.B)  { benchFirstFind(b, goSource(b, 2<<10)) }
func BenchmarkFirstFindWrite10K(b *testing.B) { benchFirstFind(b, goSource(b, 10<<10)) }
func BenchmarkFirstFindShell(b *testing.B) {
	benchFirstFind(b, `git log --oneline -20 | grep -v "Merge" && go test ./internal/... -run TestParse -count=1`)
}

func BenchmarkFindChunk60(b *testing.B) {
	benchFind(b, "Here is how to rotate the API key safely: revoke it first. ")
}
func BenchmarkFindChunk2K(b *testing.B) { benchFind(b, goSource(b, 2<<10)) }
func BenchmarkFindShell(b *testing.B) {
	benchFind(b, `git log --oneline -20 | grep -v "Merge" && go test ./internal/... -run TestParse -count=1`)
}
func BenchmarkFindWrite10K(b *testing.B)  { benchFind(b, goSource(b, 10<<10)) }
func BenchmarkFindWrite100K(b *testing.B) { benchFind(b, goSource(b, 100<<10)) }

func BenchmarkTail50(b *testing.B) {
	s := set50()
	text := strings.Repeat("Rotate the API key in the vault, then update the token. ", 20)
	loop(b, func() { s.Tail(text, 0) })
}

// BenchmarkFirstTailChunk2K is a stream chunk's hold point in a hook
// process: a set just loaded, a 2 KB chunk of Go that ends mid-word.
func BenchmarkFirstTailChunk2K(b *testing.B) {
	env := environ50()
	text := strings.TrimRight(goSource(b, 2<<10), " \n\t(){}.,;:\"")
	loop(b, func() { Load(Sources{Environ: env}).Tail(text, 0) })
}

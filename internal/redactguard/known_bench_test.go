package redactguard

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The in-process cost of one AfterModel chunk with 50 known values in the
// environment and a workspace .env, against the same without (Benchmark
// AfterModelChunk60/2K): what issue 27 adds to every chunk's process.
func benchChunkKnown(b *testing.B, text string, known bool) {
	e := testEnv(b, nil)
	ws := b.TempDir()
	if known {
		e.Environ = func() []string { return environ50() }
		os.WriteFile(filepath.Join(ws, ".env"), []byte("DB_HOST=db\nDB_PASSWORD=Qx8-benchmark-Lw2\n"), 0o600)
	}
	var out bytes.Buffer
	for b.Loop() {
		in := strings.Replace(chunkInput("bench", "explain how to rotate keys", text, ""), `"cwd":"/tmp"`, `"cwd":"`+ws+`"`, 1)
		out.Reset()
		Run([]string{"after-model"}, strings.NewReader(in), &out, e)
	}
}

// environ50 is an environment of 50 secret-named variables (values of this
// benchmark's making) among ordinary ones.
func environ50() []string {
	env := []string{"PATH=/usr/local/bin:/usr/bin:/bin", "LANG=C.UTF-8", "SHELL=/bin/bash", "TERM=xterm-256color"}
	for i := 0; i < 50; i++ {
		env = append(env, fmt.Sprintf("SERVICE%d_TOKEN=svc%02d-%s", i, i, strings.Repeat(string(rune('a'+i%26)), 4)+"Zq8"+fmt.Sprintf("%x", i*7919+104729)+"-Lm4"))
	}
	return env
}

func BenchmarkKnownAfterModelChunk60(b *testing.B) {
	for _, known := range []bool{false, true} {
		b.Run(fmt.Sprintf("known=%v", known), func(b *testing.B) {
			benchChunkKnown(b, "Here is how to rotate the API key safely: revoke it first. ", known)
		})
	}
}

func BenchmarkKnownAfterModelChunk2K(b *testing.B) {
	for _, known := range []bool{false, true} {
		b.Run(fmt.Sprintf("known=%v", known), func(b *testing.B) { benchChunkKnown(b, prose2K, known) })
	}
}

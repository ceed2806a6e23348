package secretguard_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/gemini-guard/gemini-guard/internal/secretguard"
	"github.com/gemini-guard/gemini-guard/internal/secrets/secrettest"
)

// The in-process cost of one guard-secrets call, from stdin to answer, with
// 50 known values in the environment and a workspace .env against the same
// without: what issue 27 adds to a shell command's and a write's process.
func benchHookKnown(b *testing.B, tool string, input map[string]any, known bool) {
	home, ws := b.TempDir(), b.TempDir()
	getenv := func(k string) string {
		if k == "HOME" {
			return home
		}
		return ""
	}
	e := secretguard.HookEnv{Getenv: getenv, Scanner: secrettest.CachedScanner}
	if known {
		env := []string{"PATH=/usr/bin:/bin", "HOME=" + home}
		for i := 0; i < 50; i++ {
			env = append(env, fmt.Sprintf("SERVICE%d_TOKEN=svc%02d-%sZq8%x-Lm4", i, i, strings.Repeat(string(rune('a'+i%26)), 4), i*7919+104729))
		}
		e.Environ = func() []string { return env }
		os.WriteFile(filepath.Join(ws, ".env"), []byte("DB_HOST=db\nDB_PASSWORD=Qx8-benchmark-Lw2\n"), 0o600)
	}
	in, _ := json.Marshal(map[string]any{"session_id": "bench", "cwd": ws, "hook_event_name": "BeforeTool", "tool_name": tool, "tool_input": input})
	var out bytes.Buffer
	for b.Loop() {
		out.Reset()
		secretguard.Run(bytes.NewReader(in), &out, e)
	}
}

func BenchmarkKnownShell(b *testing.B) {
	cmd := map[string]any{"command": `git log --oneline -20 | grep -v "Merge" && go test ./internal/... -run TestParse -count=1`}
	for _, known := range []bool{false, true} {
		b.Run(fmt.Sprintf("known=%v", known), func(b *testing.B) { benchHookKnown(b, secretguard.Shell, cmd, known) })
	}
}

func BenchmarkKnownWrite10K(b *testing.B) {
	data, err := os.ReadFile(filepath.Join(runtime.GOROOT(), "src", "net", "http", "transfer.go"))
	if err != nil {
		b.Skip("GOROOT sources not available")
	}
	w := map[string]any{"file_path": "transfer.go", "content": string(data[:10<<10])}
	for _, known := range []bool{false, true} {
		b.Run(fmt.Sprintf("known=%v", known), func(b *testing.B) { benchHookKnown(b, secretguard.WriteFile, w, known) })
	}
}

package redactguard

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// The in-process cost of one AfterModel call (reading the input, the
// session record, the watch, the answer), without process start. Whole
// process timings are in `make bench` and docs/redaction.md.
func benchChunk(b *testing.B, text string) {
	e := testEnv(b, nil)
	var out bytes.Buffer
	for b.Loop() {
		in := chunkInput("bench", "explain how to rotate keys", text, "")
		out.Reset()
		Run([]string{"after-model"}, strings.NewReader(in), &out, e)
	}
}

var prose2K = strings.Repeat("The API key is stored in the vault; rotate the token often and keep access logs for auth. Here is the plan for today, step by step. ", 20)[:2048]

func BenchmarkAfterModelChunk60(b *testing.B) {
	benchChunk(b, "Here is how to rotate the API key safely: revoke it first. ")
}

func BenchmarkAfterModelChunk2K(b *testing.B) { benchChunk(b, prose2K) }

// goChunk is 2 KB of real Go code, like the chunks of an answer that shows
// code.
func goChunk(b *testing.B) string {
	data, err := os.ReadFile(filepath.Join(runtime.GOROOT(), "src", "net", "http", "transfer.go"))
	if err != nil {
		b.Skip("GOROOT sources not available")
	}
	return "The function now returns early on error:\n\n```go\n" + string(data[:2048-60]) + "\n```\n"
}

func BenchmarkAfterModelChunk2KCode(b *testing.B) { benchChunk(b, goChunk(b)) }

// The in-process cost of BeforeModel on a 1 MB conversation without a
// secret, as the first request of a session: every message is watched, none
// needs the scanner.
func BenchmarkBeforeModel1MB(b *testing.B) { benchBeforeModel(b, true) }

// The same request once the session's earlier requests found its messages
// clean (clean.go): a long session's every turn after the first.
func BenchmarkBeforeModel1MBSeen(b *testing.B) { benchBeforeModel(b, false) }

func benchBeforeModel(b *testing.B, fresh bool) {
	e := testEnv(b, nil)
	code := goChunk(b)
	var msgs []map[string]string
	for total := 0; total < 1<<20; {
		user := "Please look at the next part and tell me what it does."
		model := "Here it is:\n\n" + code + "\nIt returns early on error."
		msgs = append(msgs, map[string]string{"role": "user", "content": user}, map[string]string{"role": "model", "content": model})
		total += len(user) + len(model)
	}
	in, err := json.Marshal(map[string]any{"session_id": "bench-00000000", "cwd": b.TempDir(), "hook_event_name": "BeforeModel",
		"llm_request": map[string]any{"model": "gemini-2.5-flash", "messages": msgs}})
	if err != nil {
		b.Fatal(err)
	}
	id := bytes.Index(in, []byte("00000000"))
	var out bytes.Buffer
	n := 0
	for b.Loop() {
		if fresh {
			n++
			copy(in[id:], fmt.Sprintf("%08d", n))
		}
		out.Reset()
		Run([]string{"before-model"}, bytes.NewReader(in), &out, e)
	}
}

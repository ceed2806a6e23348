package main

import (
	"bytes"
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
		run([]string{"after-model"}, strings.NewReader(in), &out, e)
	}
}

var prose2K = strings.Repeat("The API key is stored in the vault; rotate the token often and keep access logs for auth. Here is the plan for today, step by step. ", 20)[:2048]

func BenchmarkAfterModelChunk60(b *testing.B) {
	benchChunk(b, "Here is how to rotate the API key safely: revoke it first. ")
}

func BenchmarkAfterModelChunk2K(b *testing.B) { benchChunk(b, prose2K) }

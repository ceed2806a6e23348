package redact

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/gemini-guard/gemini-guard/internal/secrets/prefilter"
)

// Benchmarks of the in-process redaction of one chunk, as a hook process
// does it: a new Watch (nothing compiled yet), a stream with 1 KB of
// context, one Push. Whole-process timings are in `make bench`.

var prose = strings.Repeat("Rotate the API key in the vault, then update the token your deploy job uses; keep access logs. ", 30)

func benchPush(b *testing.B, chunk string) {
	sc := newRealRedactor(b).Scanner
	ctx := lastBytes(prose, ContextSize)
	for b.Loop() {
		r := &Redactor{Watch: prefilter.NewWatch(prefilter.BuiltinRules(), nil), Scanner: sc}
		s := Stream{Shown: ctx}
		if _, err := r.Push(&s, chunk); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPush60(b *testing.B) {
	benchPush(b, "Here is the updated handler; it now checks the error first.")
}

func BenchmarkPush2KProse(b *testing.B) { benchPush(b, prose[:2048]) }

func BenchmarkPush2KCode(b *testing.B) {
	data, err := os.ReadFile(filepath.Join(runtime.GOROOT(), "src", "net", "http", "transfer.go"))
	if err != nil {
		b.Skip("GOROOT sources not available")
	}
	benchPush(b, string(data[:2048]))
}

// A chunk that completes a token held from the previous one: the scanner
// runs.
func BenchmarkPushSecret(b *testing.B) {
	sc := newRealRedactor(b).Scanner
	token := fuzzSecret(0, 9)
	for b.Loop() {
		r := &Redactor{Watch: prefilter.NewWatch(prefilter.BuiltinRules(), nil), Scanner: sc}
		s := Stream{Shown: "Your token is ", Held: token[:10]}
		if _, err := r.Push(&s, token[10:]+" and more text."); err != nil {
			b.Fatal(err)
		}
	}
}

// Redacting a 10 KB tool output (AfterTool) with no secret and with one.
func BenchmarkText10K(b *testing.B) {
	data, err := os.ReadFile(filepath.Join(runtime.GOROOT(), "src", "net", "http", "transfer.go"))
	if err != nil {
		b.Skip("GOROOT sources not available")
	}
	text := string(data[:10<<10])
	sc := newRealRedactor(b).Scanner
	for _, c := range []struct{ name, text string }{{"clean", text}, {"secret", text + "\nGITHUB_TOKEN=" + fuzzSecret(0, 3) + "\n"}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				r := &Redactor{Watch: prefilter.NewWatch(prefilter.BuiltinRules(), nil), Scanner: sc}
				if _, err := r.Text(c.text); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

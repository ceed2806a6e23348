package redact

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gemini-guard/gemini-guard/internal/secrets/prefilter"
	"github.com/gemini-guard/gemini-guard/internal/secrets/secrettest"
)

func newRealRedactor(t testing.TB) *Redactor {
	return &Redactor{Watch: prefilter.NewWatch(prefilter.BuiltinRules(), nil), Scanner: secrettest.Builtin()}
}

// fuzzSecret is one of a few planted secrets, made at run time.
func fuzzSecret(kind byte, seed uint64) string {
	r := secrettest.NewRand(seed)
	switch kind % 3 {
	case 0:
		return "ghp_" + r.From(secrettest.Alnum, 36)
	case 1:
		return "xoxb-" + r.From("0123456789", 11) + "-" + r.From("0123456789", 12) + "-" + r.From(secrettest.Alnum, 24)
	}
	return secrettest.PrivateKey(r, "RSA", 4, 64)
}

// FuzzRedactChunks plants a secret in arbitrary text and streams it in
// chunks cut where the fuzzer says: the secret is never shown, and what is
// shown is the same as when the text comes in one chunk.
func FuzzRedactChunks(f *testing.F) {
	f.Add("Here is your token: ", " keep it safe.", []byte{3, 9, 27}, byte(0), uint64(1))
	f.Add("export SLACK_TOKEN=", "\n", []byte{1, 1, 1, 1}, byte(1), uint64(2))
	f.Add("key:\n", "\nthat was the key", []byte{40, 2, 200}, byte(2), uint64(3))
	f.Add("api_key = \"", "\" # ghp_", []byte{}, byte(0), uint64(4))
	f.Add("-----BEGIN", " gh", []byte{5, 5}, byte(2), uint64(5))
	f.Add("ünïcödé ", " ✓", []byte{2, 3}, byte(1), uint64(6))
	r := newRealRedactor(f)
	f.Fuzz(func(t *testing.T, before, after string, cuts []byte, kind byte, seed uint64) {
		if len(before)+len(after) > 2000 || !utf8.ValidString(before) || !utf8.ValidString(after) {
			return
		}
		secret := fuzzSecret(kind, seed)
		text := before + " " + secret + " " + after
		_, want := stream(t, r, []string{text})
		if strings.Contains(want, secret) {
			// The text around it turned the secret into something the
			// scanner does not report (an allowlisted context): nothing
			// to check about hiding it.
			return
		}
		var chunks []string
		at := 0
		for _, c := range cuts {
			n := int(c)%64 + 1
			end := runeStart(text, min(len(text), at+n))
			if end > at {
				chunks = append(chunks, text[at:end])
				at = end
			}
		}
		if at < len(text) {
			chunks = append(chunks, text[at:])
		}
		shown, got := stream(t, r, chunks)
		var sofar strings.Builder
		for _, s := range shown {
			sofar.WriteString(s)
			if strings.Contains(sofar.String(), secret[:min(len(secret), 30)]) {
				t.Fatalf("secret shown with chunks %q", chunks)
			}
		}
		if got != want {
			t.Fatalf("chunking changed the result:\nwant %q\ngot  %q\nchunks %q", want, got, chunks)
		}
	})
}

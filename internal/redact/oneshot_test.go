package redact

import (
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/secrets"
	"github.com/gemini-guard/gemini-guard/internal/secrets/detector"
	"github.com/gemini-guard/gemini-guard/internal/secrets/secrettest"
)

// The stream's property against the one-shot scan (issue #26): an answer
// streamed in chunks through Redactor.Next, as the AfterModel hook feeds
// it, displays no more of a secret than redact.Text of the whole answer
// hides, and loses nothing without a marker. The positive examples are
// two generated samples per content rule of the built-in set, each found by
// the real scanner (oneShotSamples), each with ordinary or arbitrary text
// before and after it.

// oneShotBefore and oneShotAfter are the text an answer puts around a
// secret; arbitrary text is added by oneShotNoise.
var (
	oneShotBefore = []string{"", "Sure, here it is:\n\n", "```bash\n", "Run `", "token: ", "x", "é ", "\"", "Use\t"}
	oneShotAfter  = []string{"", "\n\nKeep it safe.", " in the build.", "`\n```", ".", "\nThat is all.", "\"", " ✓", ";\n"}
)

// oneShotNoise is up to n bytes of arbitrary printable text, with the
// characters rules care about (quotes, operators, line breaks) and some
// non-ASCII.
func oneShotNoise(rng *rand.Rand, n int) string {
	const set = "abcxyzKQ019 _-.=:;'\"`/@\n\t{}()[]<>,+"
	var b strings.Builder
	for range rng.IntN(n + 1) {
		if rng.IntN(20) == 0 {
			b.WriteString("ü")
			continue
		}
		b.WriteByte(set[rng.IntN(len(set))])
	}
	return b.String()
}

// answerStream is one answer cut into chunks, as the hook receives it.
type answerStream struct {
	chunks []string
	// callEnd: the answer ends on a chunk without text (a function call),
	// so what the stream still held is shown with the next answer.
	callEnd bool
}

// displayAnswer feeds a through a fresh session as the AfterModel hook
// does and returns what the user is shown of it, in the answer's order.
// The last chunk of an answer is left as it came unless a secret in it must
// be hidden (it may carry a function call, see Next), and what the stream
// still held before it is shown before the next answer's text, late but
// shown: it is put back in its place here, before the last chunk.
func displayAnswer(t testing.TB, r *Redactor, a answerStream) string {
	t.Helper()
	var sess Session
	now := time.Unix(1_800_000_000, 0)
	var shown strings.Builder
	for i, c := range a.chunks {
		final := i == len(a.chunks)-1 && !a.callEnd
		show, changed, err := r.Next(&sess, Chunk{Stream: "answer", Text: c, Final: final}, now)
		require.NoError(t, err)
		if final && !changed && sess.Pending != "" {
			require.Equal(t, c, show)
			shown.WriteString(sess.Pending)
			sess.Pending = ""
		}
		shown.WriteString(show)
	}
	if a.callEnd {
		show, changed, err := r.Next(&sess, Chunk{Stream: "answer", Final: true}, now)
		require.NoError(t, err)
		require.False(t, changed, "a chunk without text is never replaced")
		shown.WriteString(show)
	}
	shown.WriteString(sess.Pending)
	return shown.String()
}

// oneShotViolation checks the property for answer, displayed in chunks as
// shown; it returns what is wrong, or "".
func oneShotViolation(r *Redactor, answer, shown string) string {
	whole, err := r.Text(answer)
	if err != nil {
		return "one-shot scan: " + err.Error()
	}
	// The byte ranges the one-shot scan hides: its findings and every copy
	// of their secrets (Redactor.find). A decoded finding's range is
	// gitleaks' whole encoded span, which reaches back over text that is
	// not the secret (azure-sas-token's `sr=…&` before a percent-encoded
	// `sig=`) and which the stream may have shown before the encoded part
	// came: only its last 16 bytes, the end of the encoded secret, count
	// (a known gap, docs/redaction.md).
	var hidden [][2]int
	for _, f := range whole.Found {
		if f.Decoded {
			hidden = append(hidden, [2]int{max(f.Start, f.End-16), f.End})
			continue
		}
		hidden = append(hidden, [2]int{f.Start, f.End})
		if len(f.Secret) < minKnown {
			continue
		}
		for at := 0; ; {
			i := strings.Index(answer[at:], f.Secret)
			if i < 0 {
				break
			}
			hidden = append(hidden, [2]int{at + i, at + i + len(f.Secret)})
			at += i + 1
		}
	}
	if !markedCopyOf(answer, shown, hidden) {
		return "the displayed text is not the answer with markers in place of every range the one-shot scan hides (and maybe more): a secret shown, or text lost without a marker"
	}
	return ""
}

// markedCopyOf reports whether shown is text with some of its ranges (not
// empty) replaced by redaction markers, every range of hidden among them:
// every byte of text outside the markers is shown, in order, and no byte
// of a hidden range is.
func markedCopyOf(text, shown string, hidden [][2]int) bool {
	free := func(from, to int) bool {
		for _, h := range hidden {
			if from < h[1] && h[0] < to {
				return false
			}
		}
		return true
	}
	segs := markerPattern.Split(shown, -1)
	if len(segs) == 1 {
		return shown == text && free(0, len(text))
	}
	if !strings.HasPrefix(text, segs[0]) || !free(0, len(segs[0])) {
		return false
	}
	at := len(segs[0])
	for _, s := range segs[1 : len(segs)-1] {
		// A marker hides at least one byte; the earliest place the segment
		// may be shown at leaves the most room for the rest.
		found := false
		for from := at + 1; from+len(s) <= len(text); from++ {
			i := strings.Index(text[from:], s)
			if i < 0 {
				break
			}
			if free(from+i, from+i+len(s)) {
				at, found = from+i+len(s), true
				break
			}
			from += i
		}
		if !found {
			return false
		}
	}
	last := segs[len(segs)-1]
	return len(text)-len(last) > at && strings.HasSuffix(text, last) && free(len(text)-len(last), len(text))
}

// oneShotCase is one answer around one rule's sample.
type oneShotCase struct {
	rule, answer string
}

// oneShotSamples are the positive examples: every rule's sample
// (secrettest.RuleSamples), a second one per rule generated from its
// pattern with other seeds, and the shapes of issue #26 (a SonarQube token
// on a command line, a URL password with an @).
func oneShotSamples(t testing.TB) []secrettest.Sample {
	samples, _ := secrettest.RuleSamples()
	require.Greater(t, len(samples), 200)
	cfg, err := detector.Builtin()
	require.NoError(t, err)
	sc := secrettest.Builtin()
	out := slices.Clone(samples)
	for _, rule := range cfg.Rules {
		if rule.Regex == "" || rule.Path != "" {
			continue
		}
		for seed := uint64(2601); seed < 2601+200; seed++ {
			gen, err := secrettest.Generate(rule.Regex, seed)
			if err != nil {
				break
			}
			text := "x " + gen + " \n"
			if slices.ContainsFunc(sc.MustScan(text), func(f secrets.Finding) bool { return f.RuleID == rule.ID }) {
				out = append(out, secrettest.Sample{RuleID: rule.ID, Text: text})
				break
			}
		}
	}
	r := secrettest.NewRand(2604)
	out = append(out,
		secrettest.Sample{RuleID: "sonar-api-token", Text: "x mvn sonar:sonar -Dsonar.host.url=https://sonarcloud.io -Dsonar.login=" + r.From(secrettest.Hex, 40) + " \n"},
		secrettest.Sample{RuleID: "database-url-password", Text: "x postgresql://app:" + r.From(secrettest.Alnum, 9) + "@" + r.From(secrettest.Alnum, 7) + "@db.acme-corp.net:5432/app \n"},
	)
	return out
}

func oneShotCases(t testing.TB) []oneShotCase {
	var out []oneShotCase
	for i, s := range oneShotSamples(t) {
		rng := rand.New(rand.NewPCG(2026, uint64(i)))
		secret := strings.TrimSuffix(strings.TrimPrefix(s.Text, "x "), " \n")
		before := oneShotBefore[rng.IntN(len(oneShotBefore))]
		after := oneShotAfter[rng.IntN(len(oneShotAfter))]
		if rng.IntN(3) == 0 {
			before = oneShotNoise(rng, 24) + before
			after += oneShotNoise(rng, 24)
		}
		out = append(out, oneShotCase{s.RuleID, before + secret + after})
	}
	return out
}

// oneShotEveryCut, when set, cuts every answer at every position (a few
// minutes on 2 cores); by default the cut positions are sampled.
var oneShotEveryCut = os.Getenv("GEMINI_GUARD_EVERY_CUT") != ""

// TestStreamNeverShowsWhatTheOneShotHides is the property, sampled so that
// it runs in seconds: every rule's samples cut into two chunks at 8 spread
// positions (4 in -short; every position with GEMINI_GUARD_EVERY_CUT=1)
// and into 2–5 chunks at random, some answers ending on a function call.
// FuzzStreamOneShot explores further.
func TestStreamNeverShowsWhatTheOneShotHides(t *testing.T) {
	r := newRealRedactor(t)
	cuts := 8
	if testing.Short() {
		cuts = 4
	}
	rng := rand.New(rand.NewPCG(26, 26))
	runs, differ := 0, 0
	failures := map[string]int{}
	check := func(c oneShotCase, a answerStream, how string) {
		runs++
		shown := displayAnswer(t, r, a)
		if v := oneShotViolation(r, c.answer, shown); v != "" {
			if failures[c.rule]++; failures[c.rule] <= 2 {
				t.Errorf("%s, %s: %s", c.rule, how, v)
			}
			return
		}
		if whole, _ := r.Text(c.answer); whole.Text != shown {
			// More hidden than the one-shot scan hides (allowed), or the
			// lead of a decoded span shown (see oneShotViolation).
			differ++
		}
	}
	for _, c := range oneShotCases(t) {
		step := max(1, len(c.answer)/cuts)
		if oneShotEveryCut {
			step = 1
		}
		for p := 1 + rng.IntN(step); p < len(c.answer); p += step {
			if utf8.RuneStart(c.answer[p]) {
				check(c, answerStream{chunks: []string{c.answer[:p], c.answer[p:]}}, fmt.Sprint("cut at ", p))
			}
		}
		for n := range 4 {
			a := answerStream{chunks: cut(rng, c.answer, 2+n%4), callEnd: n%3 == 2}
			check(c, a, fmt.Sprintf("%d random chunks %q (call end %v)", len(a.chunks), a.chunks, a.callEnd))
		}
	}
	t.Logf("%d streamed answers, %d displayed otherwise than the one-shot redaction; rules failing: %d", runs, differ, len(failures))
}

// FuzzStreamOneShot is the same property in full: a rule's sample (chosen
// by the fuzzer) between arbitrary text, cut where the fuzzer says.
// Run it with `go test -run '^$' -fuzz FuzzStreamOneShot ./internal/redact`.
func FuzzStreamOneShot(f *testing.F) {
	f.Add(uint16(0), "Here: ", "\nThat is all.", []byte{6, 40}, false)
	f.Add(uint16(17), "", " in the build.", []byte{1, 1, 1, 1}, false)
	f.Add(uint16(120), "```\n", "\n```", []byte{200, 3}, true)
	f.Add(uint16(230), "token: \"", "\"", []byte{}, false)
	r := newRealRedactor(f)
	samples := oneShotSamples(f)
	f.Fuzz(func(t *testing.T, which uint16, before, after string, cuts []byte, callEnd bool) {
		if len(before)+len(after) > 2000 || !utf8.ValidString(before) || !utf8.ValidString(after) ||
			strings.Contains(before+after, "[REDACTED") {
			return
		}
		s := samples[int(which)%len(samples)]
		answer := before + strings.TrimSuffix(strings.TrimPrefix(s.Text, "x "), " \n") + after
		var chunks []string
		at := 0
		for _, c := range cuts {
			end := at + int(c)%64 + 1
			for end < len(answer) && !utf8.RuneStart(answer[end]) {
				end++
			}
			if end >= len(answer) {
				break
			}
			chunks = append(chunks, answer[at:end])
			at = end
		}
		chunks = append(chunks, answer[at:])
		shown := displayAnswer(t, r, answerStream{chunks: chunks, callEnd: callEnd})
		if v := oneShotViolation(r, answer, shown); v != "" {
			t.Fatalf("%s in chunks %q (call end %v):\n%s\nshown %q", s.RuleID, chunks, callEnd, v, shown)
		}
	})
}

// A long text goes to the scanner without the Watch's question, which
// costs more than the scan from some size on; a short clean one does not.
func TestTextScansLongTextsDirectly(t *testing.T) {
	r, sc := newTestRedactor()
	clean := strings.Repeat("func (s *Server) handle(w io.Writer) error { return nil }\n", 40)
	require.Less(t, len(clean), DirectScanSize)
	_, err := r.Text(clean)
	require.NoError(t, err)
	assert.Zero(t, sc.calls, "a short clean text is not scanned")

	long := strings.Repeat(clean, DirectScanSize/len(clean)+1)
	require.Greater(t, len(long), DirectScanSize)
	red, err := r.Text(long)
	require.NoError(t, err)
	assert.Equal(t, 1, sc.calls, "a long one is")
	assert.Equal(t, long, red.Text)

	secret := long + "\nAWS key AKIAZ7WZQ3LRTN5XKJ4P in the tail\n"
	red, err = r.Text(secret)
	require.NoError(t, err)
	assert.NotContains(t, red.Text, "AKIAZ7WZQ3LRTN5XKJ4P")
}

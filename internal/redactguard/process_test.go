package redactguard

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	scan "github.com/gemini-guard/gemini-guard/internal/scanner"
)

// plants are the secrets a test answer may carry, in the context a model
// would write them in.
var plants = []struct{ before, name, after string }{
	{"my token ", "github-pat", " works"},
	{"the aws id ", "aws", "."},
	{"export API_KEY=", "generic", " now"},
	{"slack ", "slack", " here"},
	{"the key:\n", "private-key", "\nend of key"},
}

var words = strings.Fields(`the quick answer is that you should rotate it now. Here is the plan:
first, check the logs; second, update config files and restart the service. Thanks!
We keep every ordinary word visible, including token, key, secret, password and access.`)

// hookProcess runs the built hook the way Gemini CLI does (bash -c, JSON on
// stdin) for one chunk and returns what the user is shown.
func hookProcess(t testing.TB, home, input, text string) string {
	t.Helper()
	cmd := exec.Command("bash", "-c", "'"+filepath.Join(bin, "guard-redact"+exe())+"' after-model")
	// The scanner process the hook starts keeps its socket under home
	// (XDG_RUNTIME_DIR), not in the user's runtime directory.
	cmd.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "XDG_RUNTIME_DIR=" + home}
	cmd.Stdin = strings.NewReader(input)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "exit 0")
	require.Empty(t, stderr.String(), "nothing on stderr")
	return displayed(t, string(out), text)
}

// warmScanner starts the scanner daemon the hook processes under home will
// ask and waits until it listens, as the session-start hook does in a real
// session: on a loaded machine a first scan that waits for a daemon to
// start can pass the AfterModel deadline, and the hook then withholds the
// chunk (its fail-safe, tested on its own in deadline_test.go).
func warmScanner(t testing.TB, home string) {
	t.Helper()
	c := &scan.Client{Binary: filepath.Join(bin, "guard-scanner"+exe()), Dir: filepath.Join(home, "gemini-guard")}
	opts, err := scan.Normalize(c.Options)
	require.NoError(t, err)
	fp, err := scan.Fingerprint(opts, c.Binary)
	require.NoError(t, err)
	socket, err := scan.SocketPath(c.Dir, fp)
	require.NoError(t, err)
	require.NoError(t, c.Start())
	for start := time.Now(); time.Since(start) < time.Minute; time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(socket); err == nil {
			return
		}
	}
	t.Fatal("the scanner daemon did not start within a minute")
}

// streamAnswer streams chunks as one answer of session through the hook
// process, then a short next answer, and returns everything shown. With
// call set the answer ends on a chunk without text (a function call).
func streamAnswer(t testing.TB, home, session string, chunks []string, call bool, secrets []string) string {
	var shown strings.Builder
	check := func(s string) {
		shown.WriteString(s)
		for _, sec := range secrets {
			require.NotContains(t, shown.String(), sec[:min(len(sec), 24)], "a secret was shown (session %s)", session)
		}
	}
	for i, c := range chunks {
		finish := ""
		if i == len(chunks)-1 && !call {
			finish = "STOP"
		}
		check(hookProcess(t, home, chunkInput(session, "q", c, finish), c))
	}
	if call {
		// The function call chunk: never replaced, shows nothing.
		check(hookProcess(t, home, chunkInput(session, "q", "", "STOP"), ""))
	}
	// The next answer (after the tool ran, or the next prompt) shows what
	// the last chunk of the first could not: see Redactor.Next.
	check(hookProcess(t, home, chunkInput(session, "q2", "OK ", ""), "OK "))
	check(hookProcess(t, home, chunkInput(session, "q2", "then.", "STOP"), "then."))
	return shown.String()
}

// sameCharacters reports whether a and b show the same characters, in any
// order: text held back at the end of an answer may be shown at the start
// of the next (see Redactor.Next), nothing is lost or added.
func sameCharacters(a, b string) bool {
	count := map[rune]int{}
	for _, r := range a {
		count[r]++
	}
	for _, r := range b {
		count[r]--
	}
	for r, n := range count {
		if n != 0 && r != '\n' {
			return false
		}
	}
	return true
}

// TestProcessAnyChunking streams answers with one to three secrets
// (including a multi-line private key) through the built hook process under
// many random chunkings: no secret ever appears in the displayed text, every
// ordinary word does, and the same text is shown as when the answer comes
// in one chunk (in the same order, except that text held back at the end
// of an answer may come at the start of the next).
func TestProcessAnyChunking(t *testing.T) {
	rounds, tries := 8, 5
	if testing.Short() {
		rounds, tries = 2, 2
	}
	rng := rand.New(rand.NewPCG(2025, 6))
	home := t.TempDir()
	warmScanner(t, home)
	for round := range rounds {
		var b strings.Builder
		var secrets, plain []string
		for range 1 + rng.IntN(3) {
			for range 2 + rng.IntN(8) {
				w := words[rng.IntN(len(words))]
				plain = append(plain, w)
				b.WriteString(w + " ")
			}
			p := plants[rng.IntN(len(plants))]
			secrets = append(secrets, secretsFor[p.name])
			b.WriteString(p.before + secretsFor[p.name] + p.after + " ")
		}
		b.WriteString("Bye.")
		text := b.String()
		call := round%3 == 2
		want := streamAnswer(t, home, fmt.Sprintf("r%d-whole", round), []string{text}, call, secrets)
		for _, w := range plain {
			require.Contains(t, want, w, "round %d: ordinary word kept", round)
		}
		for try := range tries {
			chunks := splitAt(rng, text, 2+rng.IntN(12))
			got := streamAnswer(t, home, fmt.Sprintf("r%d-t%d", round, try), chunks, call, secrets)
			require.True(t, sameCharacters(want, got), "round %d try %d: same display under any chunking:\nwant %q\ngot  %q\nchunks %q", round, try, want, got, chunks)
		}
	}
}

// splitAt cuts text into about n chunks at random byte positions, never
// inside a UTF-8 sequence (Gemini streams whole characters).
func splitAt(rng *rand.Rand, text string, n int) []string {
	cuts := map[int]bool{0: true, len(text): true}
	for range n - 1 {
		i := rng.IntN(len(text) + 1)
		for i < len(text) && text[i]&0xC0 == 0x80 {
			i++
		}
		cuts[i] = true
	}
	var at []int
	for i := range cuts {
		at = append(at, i)
	}
	for i := 1; i < len(at); i++ {
		for j := i; j > 0 && at[j] < at[j-1]; j-- {
			at[j], at[j-1] = at[j-1], at[j]
		}
	}
	var out []string
	for i := 1; i < len(at); i++ {
		out = append(out, text[at[i-1]:at[i]])
	}
	return out
}

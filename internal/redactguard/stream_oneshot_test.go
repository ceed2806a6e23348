package redactguard

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/redact"
	"github.com/gemini-guard/gemini-guard/internal/secrets/prefilter"
	"github.com/gemini-guard/gemini-guard/internal/secrets/secrettest"
)

// hookAnswer sends chunks to the AfterModel hook as one answer of session
// (the last chunk with finishReason) and returns what the user is shown.
func hookAnswer(t *testing.T, e Env, session, request string, chunks []string) string {
	t.Helper()
	var shown strings.Builder
	for i, c := range chunks {
		finish := ""
		if i == len(chunks)-1 {
			finish = "STOP"
		}
		shown.WriteString(displayed(t, runHook(t, e, "after-model", chunkInput(session, request, c, finish)), c))
	}
	return shown.String()
}

// oneShot is the redaction of the whole answer at once, as tool output is
// redacted.
func oneShot(t *testing.T, text string) string {
	t.Helper()
	r := &redact.Redactor{Watch: prefilter.NewWatch(prefilter.BuiltinRules(), nil), Scanner: secrettest.Builtin()}
	out, err := r.Text(text)
	require.NoError(t, err)
	return out.Text
}

// The stream bugs of issue #26, each as the AfterModel hook meets it: what
// the answer displays is exactly the one-shot redaction of the whole
// answer, nothing of the secret and nothing lost.
func TestStreamShowsWhatTheOneShotScanShows(t *testing.T) {
	sonar := secrettest.NewRand(2601).From(secrettest.Hex, 40)
	r := secrettest.NewRand(2602)
	// A password with an @ in it: the URL's last @ ends it.
	pgPassword := "Kq" + r.From(secrettest.Alnum, 6) + "@" + r.From(secrettest.Alnum, 9)
	pgURL := "postgresql://billing:" + pgPassword + "@db7.internal.acme-corp.net:5432/billing"
	cmd := "mvn sonar:sonar -Dsonar.host.url=https://sonarcloud.io -Dsonar.login=" + sonar
	cases := []struct {
		name   string
		secret string
		chunks []string
	}{
		// (a) the token and the text after it in the last chunk
		{"sonar token and text in the last chunk", sonar, []string{"Run it like this: ", cmd + " in the build."}},
		{"sonar token and a new line in one chunk", sonar, []string{"Here: ", cmd + "\nThat is all."}},
		{"sonar keyword shown, token in the last chunk", sonar, []string{"Run: mvn sonar:sonar -Dsonar.host.url=https://sonarcloud.io", " -Dsonar.login=" + sonar + " in the build."}},
		// (b) the token ends one chunk, text follows in the next
		{"sonar token ends a chunk", sonar, []string{"Run: " + cmd, " in the build."}},
		{"sonar token ends a chunk, two more follow", sonar, []string{"Run: " + cmd, " in the build.", " Then deploy."}},
		// (c) a PostgreSQL password with an @
		{"postgres password with @, one chunk", pgPassword, []string{"Connect with " + pgURL + " from the app."}},
		{"postgres password with @, split at the @", pgPassword, []string{"Connect with " + pgURL[:strings.Index(pgURL, "@")+1], pgURL[strings.Index(pgURL, "@")+1:] + " from the app."}},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := testEnv(t, nil)
			answer := strings.Join(c.chunks, "")
			want := oneShot(t, answer)
			require.NotContains(t, want, c.secret, "the one-shot scan hides the secret")
			for _, part := range strings.Split(c.secret, "@") {
				require.NotContains(t, want, part, "the one-shot scan hides all of the secret")
			}
			got := hookAnswer(t, e, fmt.Sprint("s", i), "q", c.chunks)
			assert.Equal(t, want, got)
		})
	}
}

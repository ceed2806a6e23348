package redact

import (
	"encoding/base64"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/secrets/known"
)

// Values of custom formats no rule knows, made for these tests.
const (
	knownToken = "mqt3-Hv8ZkP2wLx9Rn4Ct"
	knownPass  = "Wq7-lantern-Fz92!"
)

func knownRedactor(t testing.TB, hashedPass bool) *Redactor {
	r, _ := newTestRedactor()
	key := known.Key{K0: 21, K1: 22}
	s := known.NewSet(key)
	s.Add(known.Value{Source: "$INTERNAL_API_TOKEN", Text: knownToken})
	if hashedPass {
		for _, h := range known.Hash(key, known.Value{Source: "read_file output (x)", Text: knownPass}) {
			s.AddHashed(h)
		}
	} else {
		s.Add(known.Value{Source: ".env (DB_PASSWORD)", Text: knownPass})
	}
	r.Known = s
	return r
}

// TestKnownValuesAnyChunking: however an answer that repeats both values
// (one also base64-encoded) is cut, no chunk sequence shows a value, a
// half of one or a form of one, and every ordinary word is shown.
func TestKnownValuesAnyChunking(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 1))
	text := "Use " + knownToken + " for the API, the database wants " + knownPass +
		" and the config holds " + base64.StdEncoding.EncodeToString([]byte(knownToken)) + " encoded. Done now."
	for _, hashed := range []bool{false, true} {
		r := knownRedactor(t, hashed)
		for i := 0; i < 200; i++ {
			chunks := cut(rng, text, 2+rng.IntN(7))
			_, shown := stream(t, r, chunks)
			for _, v := range []string{knownToken, knownPass} {
				for _, f := range known.Forms(v) {
					require.NotContains(t, shown, f, "hashed=%v chunks=%q", hashed, chunks)
				}
				require.NotContains(t, shown, v[:len(v)/2+1])
				require.NotContains(t, shown, v[len(v)/2:])
			}
			for _, w := range []string{"Use", "for the API, the database wants", "and the config holds", "encoded. Done now."} {
				require.Contains(t, shown, w, "chunks=%q", chunks)
			}
		}
	}
}

// TestKnownValuesNeverStored: the stream's record holds no known value
// (held text aside, which is private and cleared at the answer's end).
func TestKnownValuesNeverStored(t *testing.T) {
	r := knownRedactor(t, false)
	var s Stream
	_, err := r.Push(&s, "first "+knownToken+" then more text ")
	require.NoError(t, err)
	_, err = r.Push(&s, "and "+knownPass+" and words. ")
	require.NoError(t, err)
	_, err = r.Flush(&s)
	require.NoError(t, err)
	b, err := json.Marshal(s)
	require.NoError(t, err)
	assert.NotContains(t, string(b), knownToken)
	assert.NotContains(t, string(b), knownPass)
}

// TestKnownValuesInText: a whole text (tool output, a request message)
// names each value's source and keeps the rest.
func TestKnownValuesInText(t *testing.T) {
	r := knownRedactor(t, false)
	red, err := r.Text("token=" + knownToken + "\npass: " + strings.ToUpper("x") + knownPass + "\nhost: db\n")
	require.NoError(t, err)
	assert.NotContains(t, red.Text, knownToken)
	assert.NotContains(t, red.Text, knownPass)
	assert.Contains(t, red.Text, "host: db")
	assert.ElementsMatch(t, []string{".env (DB_PASSWORD)"}, onlyKnown(red.Sources, ".env (DB_PASSWORD)"))
	for _, f := range red.Found {
		assert.NotEqual(t, known.RuleID, f.RuleID, "Found holds the rules' secrets only")
	}
}

func onlyKnown(list []string, want string) []string {
	var out []string
	for _, s := range list {
		if s == want {
			out = append(out, s)
		}
	}
	return out
}

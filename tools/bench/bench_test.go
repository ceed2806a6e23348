package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPercentile(t *testing.T) {
	d := func(ms ...int) []time.Duration {
		var out []time.Duration
		for _, m := range ms {
			out = append(out, time.Duration(m)*time.Millisecond)
		}
		return out
	}
	cases := []struct {
		name string
		in   []time.Duration
		p    int
		want time.Duration
	}{
		{"one value", d(7), 50, 7 * time.Millisecond},
		{"median of odd", d(5, 1, 3), 50, 3 * time.Millisecond},
		{"median of even is the lower", d(4, 1, 3, 2), 50, 2 * time.Millisecond},
		{"p90 of ten", d(1, 2, 3, 4, 5, 6, 7, 8, 9, 10), 90, 9 * time.Millisecond},
		{"p100", d(1, 9, 5), 100, 9 * time.Millisecond},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, percentile(c.in, c.p))
		})
	}
}

func TestDecisionOf(t *testing.T) {
	cases := []struct {
		name, out, want string
		bad             bool
	}{
		{name: "empty object", out: "{}\n", want: "{}"},
		{name: "deny", out: `{"decision":"deny","reason":"x"}`, want: "deny"},
		{name: "replaced chunk", out: `{"hookSpecificOutput":{"llm_response":{"text":"x"}}}`, want: "replaced"},
		{name: "replaced input", out: `{"hookSpecificOutput":{"tool_input":{"command":"x"}}}`, want: "replaced"},
		{name: "two objects", out: "{}\n{}\n", bad: true},
		{name: "not json", out: "oops", bad: true},
		{name: "nothing", out: "", bad: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := decisionOf([]byte(c.out))
			if c.bad {
				assert.Error(t, err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, c.want, got)
		})
	}
}

// make bench keeps working: one run per case, every case answers one JSON
// object, the JSON report holds every case. Nothing here looks at timing.
func TestBenchRunsEveryCase(t *testing.T) {
	out := filepath.Join(t.TempDir(), "bench.json")
	var stdout, stderr bytes.Buffer
	code := run([]string{"-n", "1", "-json", out}, &stdout, &stderr)
	require.Equal(t, 0, code, "stdout:\n%s\nstderr:\n%s", stdout.String(), stderr.String())
	data, err := os.ReadFile(out)
	require.NoError(t, err)
	var r Report
	require.NoError(t, json.Unmarshal(data, &r))
	assert.Len(t, r.Results, 12) // nine cases, three of them again with 50 known values
	for _, res := range r.Results {
		assert.NotEmpty(t, res.Decision, res.Case)
		assert.Positive(t, res.FloorMS, res.Case)
	}
	assert.Contains(t, stdout.String(), "ratio")
	assert.Len(t, r.Worst, 4, "adversarial inputs")
	for _, w := range r.Worst {
		assert.NotEmpty(t, w.Decision, w.Case)
	}
}

func TestInputForNewSession(t *testing.T) {
	in := []byte(`{"session_id":"` + sessionID + `","x":1}`)
	same := benchCase{input: in}
	assert.Equal(t, in, same.inputFor(3))
	fresh := benchCase{input: in, newSession: true}
	a, b := fresh.inputFor(1), fresh.inputFor(2)
	assert.NotEqual(t, a, b)
	assert.Len(t, a, len(in))
	var v map[string]any
	require.NoError(t, json.Unmarshal(a, &v))
	assert.NotEqual(t, sessionID, v["session_id"])
	assert.Len(t, v["session_id"], len(sessionID))
}

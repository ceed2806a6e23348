package detector_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/secrets"
	"github.com/gemini-guard/gemini-guard/internal/secrets/detector"
)

// A user config loads once per process (gitleaks' extend counter), so tests
// of user configs run the detector in a child: the test binary itself,
// re-executed with childEnv set.
const childEnv = "GEMINI_GUARD_DETECTOR_CHILD"

type childRequest struct {
	Options secrets.Options
	// Texts are scanned in order; after the first, New is called again
	// with the same options before each (to show what a second load does).
	Texts []string
}

type childResult struct {
	Findings     []secrets.Finding
	RuleIDs      []string
	Descriptions map[string]string
	Err          string
	ConfigError  bool
}

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "1" {
		os.Exit(child())
	}
	code := m.Run()
	printScorecard()
	os.Exit(code)
}

func child() int {
	var req childRequest
	if err := json.NewDecoder(os.Stdin).Decode(&req); err != nil {
		return 2
	}
	var res childResult
	for i, text := range req.Texts {
		d, err := detector.New(req.Options)
		if err != nil {
			var ce *secrets.ConfigError
			res.Err, res.ConfigError = err.Error(), errors.As(err, &ce)
			break
		}
		if i == 0 {
			res.RuleIDs = d.RuleIDs()
			res.Descriptions = map[string]string{}
			for _, id := range res.RuleIDs {
				res.Descriptions[id] = d.Description(id)
			}
			res.Findings = d.Scan(context.Background(), text)
		}
	}
	if json.NewEncoder(os.Stdout).Encode(res) != nil {
		return 2
	}
	return 0
}

// scanInChild builds a detector for opts in a fresh process and scans
// texts[0] (see childRequest for the others).
func scanInChild(t *testing.T, opts secrets.Options, texts ...string) childResult {
	t.Helper()
	exe, err := os.Executable()
	require.NoError(t, err)
	in, err := json.Marshal(childRequest{Options: opts, Texts: texts})
	require.NoError(t, err)
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"=1")
	cmd.Stdin = bytes.NewReader(in)
	out, err := cmd.Output()
	require.NoError(t, err)
	var res childResult
	require.NoError(t, json.Unmarshal(out, &res))
	return res
}

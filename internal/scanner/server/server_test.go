package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/scanner"
	"github.com/gemini-guard/gemini-guard/internal/secrets"
)

const word = "SECRET123"

// literal finds word; with stall it waits for ctx and returns a partial
// (empty) list, as gitleaks' DetectContext does when cancelled.
type literal struct{ stall bool }

func (d literal) Scan(ctx context.Context, text string) []secrets.Finding {
	if d.stall {
		<-ctx.Done()
		return nil
	}
	var out []secrets.Finding
	for from := 0; ; {
		i := strings.Index(text[from:], word)
		if i < 0 {
			return out
		}
		start := from + i
		out = append(out, secrets.Finding{RuleID: "lit", Start: start, End: start + len(word), Line: 1, Secret: word})
		from = start + len(word)
	}
}

func build(opts secrets.Options) (Detector, error) {
	if opts.ConfigPath != "" {
		return nil, &secrets.ConfigError{Path: opts.ConfigPath, Err: errors.New("bad")}
	}
	return literal{}, nil
}

func request(t testing.TB, fp string, opts secrets.Options, text string) []byte {
	var b bytes.Buffer
	_, err := scanner.Request{Fingerprint: fp, Options: scanner.OptionsToWire(opts), Text: text}.WriteTo(&b)
	require.NoError(t, err)
	return b.Bytes()
}

func TestAnswer(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name     string
		ctx      context.Context
		det      Detector
		buildErr error
		want     scanner.Response
	}{
		{"findings", context.Background(), literal{}, nil,
			scanner.Response{Fingerprint: "fp", Findings: []scanner.Finding{{RuleID: "lit", Start: 2, End: 11, Line: 1, Secret: []byte(word)}}}},
		{"config error", context.Background(), nil, &secrets.ConfigError{Path: "/c.toml", Err: errors.New("line 3: bad")},
			scanner.Response{Fingerprint: "fp", ConfigError: "line 3: bad"}},
		{"wrapped config error", context.Background(), nil, errors.Join(errors.New("x"), &secrets.ConfigError{Path: "/c", Err: errors.New("bad")}),
			scanner.Response{Fingerprint: "fp", ConfigError: "bad"}},
		{"build error", context.Background(), nil, errors.New("no rules"),
			scanner.Response{Fingerprint: "fp", Error: "detector: no rules"}},
		{"cut short is an error, not a partial list", cancelled, literal{stall: true}, nil,
			scanner.Response{Fingerprint: "fp", Error: "scan of 11 bytes stopped: context canceled"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, answerCtx(tt.ctx, tt.det, tt.buildErr, "fp", "a "+word))
		})
	}
}

type panicky struct{}

func (panicky) Scan(context.Context, string) []secrets.Finding { panic("boom: " + word) }

func TestPanicsAreErrors(t *testing.T) {
	resp := answer(panicky{}, nil, "fp", word)
	assert.NotEmpty(t, resp.Error)
	assert.NotContains(t, resp.Error, word, "a panic value may quote the text")

	_, err := safeBuild(func(secrets.Options) (Detector, error) { panic("x") }, secrets.Options{})
	assert.Error(t, err)
	_, err = safeBuild(nil, secrets.Options{})
	assert.Error(t, err)
	_, err = safeBuild(func(secrets.Options) (Detector, error) { return nil, nil }, secrets.Options{})
	assert.Error(t, err, "no detector and no error")
}

func TestRespond(t *testing.T) {
	t.Run("own fingerprint", func(t *testing.T) {
		resp := respond(bytes.NewReader(request(t, "fp", secrets.Options{}, "x"+word)), "fp", literal{}, nil)
		assert.Empty(t, resp.Error)
		assert.Len(t, resp.Findings, 1)
	})
	t.Run("other fingerprint", func(t *testing.T) {
		resp := respond(bytes.NewReader(request(t, "other", secrets.Options{}, word)), "fp", literal{}, nil)
		assert.Equal(t, scanner.Response{Fingerprint: "fp", Error: "fingerprint mismatch"}, resp)
	})
	t.Run("malformed", func(t *testing.T) {
		resp := respond(strings.NewReader(`{"text": "`+word+`"`+"\n"), "fp", literal{}, nil)
		assert.Contains(t, resp.Error, "malformed")
		assert.NotContains(t, resp.Error, word)
	})
}

func TestMainOneShot(t *testing.T) {
	tests := []struct {
		name    string
		stdin   []byte
		opts    secrets.Options
		check   func(t *testing.T, resp scanner.Response)
		wantErr string
	}{
		{"findings", request(t, "", secrets.Options{}, "a "+word), secrets.Options{}, func(t *testing.T, resp scanner.Response) {
			assert.Empty(t, resp.Error)
			assert.Len(t, resp.Findings, 1)
			assert.Len(t, resp.Fingerprint, 32, "the one-shot reports its fingerprint too")
		}, ""},
		{"config error", request(t, "", secrets.Options{ConfigPath: "/nope.toml"}, word), secrets.Options{}, func(t *testing.T, resp scanner.Response) {
			assert.Equal(t, "bad", resp.ConfigError)
		}, ""},
		{"garbage", []byte("\x00garbage " + word), secrets.Options{}, func(t *testing.T, resp scanner.Response) {
			assert.Contains(t, resp.Error, "malformed")
			assert.NotContains(t, resp.Error, word)
		}, ""},
		{"oversized", bytes.Repeat([]byte("a"), scanner.MaxHeader+2), secrets.Options{}, func(t *testing.T, resp scanner.Response) {
			assert.Contains(t, resp.Error, "too large")
		}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := Main([]string{"scan"}, bytes.NewReader(tt.stdin), &stdout, &stderr, build)
			require.Equal(t, 0, code, "stderr: %s", stderr.String())
			var resp scanner.Response
			require.NoError(t, json.Unmarshal(stdout.Bytes(), &resp), "one JSON object: %q", stdout.String())
			tt.check(t, resp)
			assert.Empty(t, stderr.String())
		})
	}
}

func TestMainUsage(t *testing.T) {
	tests := []struct {
		name string
		args []string
		code int
	}{
		{"no command", nil, 2},
		{"unknown command", []string{"frobnicate"}, 2},
		{"scan with arguments", []string{"scan", "x"}, 2},
		{"serve with stray argument", []string{"serve", "x"}, 2},
		{"serve with bad options", []string{"serve", "-options", "{"}, 2},
		{"serve with unknown option", []string{"serve", "-options", `{"config":"x"}`}, 2},
		{"serve with bad flag", []string{"serve", "-nope"}, 2},
		{"serve with zero idle", []string{"serve", "-idle", "0s"}, 2},
		{"help", []string{"-h"}, 0},
		{"serve help", []string{"serve", "-h"}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			assert.Equal(t, tt.code, Main(tt.args, strings.NewReader(""), &stdout, &stderr, build))
		})
	}
}

func TestServeRefusesUnsafeDir(t *testing.T) {
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" {
		t.Skip("no daemon on " + runtime.GOOS)
	}
	dir := filepath.Join(t.TempDir(), "run")
	require.NoError(t, os.Mkdir(dir, 0o755))
	var stdout, stderr bytes.Buffer
	code := Main([]string{"serve", "-dir", dir}, strings.NewReader(""), &stdout, &stderr, build)
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr.String(), "0755")
}

// FuzzRequest: any bytes as a request get one response, never a panic; a
// scan happens only for a well-formed request with the daemon's
// fingerprint, and errors never quote the input.
func FuzzRequest(f *testing.F) {
	f.Add(request(f, "fp", secrets.Options{}, "a "+word))
	f.Add(request(f, "fp", secrets.Options{ConfigPath: "x", DisabledRules: []string{"a"}, TrustAllowComments: true}, "\xff\n"+word))
	f.Add(request(f, "other", secrets.Options{}, word))
	f.Add([]byte(`{"fingerprint":"fp","text_length":-1}` + "\n"))
	f.Add([]byte(`{"fingerprint":"fp","text_length":5}` + "\nabc"))
	f.Add([]byte(`{"fingerprint":"fp","text_length":1}` + "\nabc"))
	f.Add([]byte(`{"fingerprint":"fp","text_length":99999999999}` + "\n"))
	f.Add([]byte(`{"fingerprint":"fp","options":{"disabled_rules":[1]}}` + "\n"))
	f.Add([]byte(`{"fingerprint":"fp"}{"fingerprint":"fp"}` + "\n"))
	f.Add([]byte(`{"fingerprint":"fp"}`))
	f.Add([]byte("[\n"))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		resp := respond(bytes.NewReader(data), "fp", literal{}, nil)
		assert.Equal(t, "fp", resp.Fingerprint)
		if resp.Error != "" {
			assert.Empty(t, resp.Findings)
			if len(data) >= 8 {
				assert.NotContains(t, resp.Error, string(data), "the error quotes the request")
			}
			return
		}
		req, err := scanner.ReadRequest(bytes.NewReader(data))
		require.NoError(t, err, "answered a request that does not decode")
		assert.Equal(t, "fp", req.Fingerprint)
		assert.Equal(t, literal{}.Scan(context.Background(), req.Text), fromWire(resp.Findings))
		// The same request, written back, reads the same.
		var again bytes.Buffer
		_, err = req.WriteTo(&again)
		require.NoError(t, err)
		req2, err := scanner.ReadRequest(&again)
		require.NoError(t, err)
		assert.Equal(t, req, req2)
	})
}

// fromWire undoes scanner.ToWire for the literal detector's findings.
func fromWire(found []scanner.Finding) []secrets.Finding {
	var out []secrets.Finding
	for _, f := range found {
		out = append(out, secrets.Finding{RuleID: f.RuleID, Description: f.Description, Start: f.Start, End: f.End, Line: f.Line, Secret: string(f.Secret), Decoded: f.Decoded, Repeat: f.Repeat})
	}
	return out
}

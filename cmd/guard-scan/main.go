// Command guard-scan is the scan helper of gemini-guard's redaction hook.
//
// guard-redact answers every streamed chunk of the model's answer and must
// start fast, so it does not link the gitleaks scanner. When a chunk or a
// tool output really needs scanning it starts guard-scan, writes one JSON
// request (redact.HelperRequest) on its stdin and reads one JSON response
// (redact.HelperResponse) from its stdout. guard-scan exits 0 whenever it
// could write a response; an error is reported in the response.
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
	"time"

	"github.com/gemini-guard/gemini-guard/internal/redact"
	"github.com/gemini-guard/gemini-guard/internal/secrets"
)

// maxRequest bounds the request read: the largest hook input plus room for
// the session record.
const maxRequest = 64 << 20

func main() {
	os.Exit(run(os.Stdin, os.Stdout))
}

func run(stdin io.Reader, stdout io.Writer) int {
	resp := serve(stdin)
	b, err := redact.EncodeJSON(resp)
	if err != nil {
		b, _ = redact.EncodeJSON(redact.HelperResponse{Error: err.Error()})
	}
	if _, err := stdout.Write(append(b, '\n')); err != nil {
		return 1
	}
	return 0
}

func serve(stdin io.Reader) (resp redact.HelperResponse) {
	defer func() {
		if p := recover(); p != nil {
			resp = redact.HelperResponse{Error: fmt.Sprintf("internal error: %v\n%s", p, debug.Stack())}
		}
	}()
	data, err := io.ReadAll(io.LimitReader(stdin, maxRequest+1))
	if err != nil {
		return redact.HelperResponse{Error: "reading the request: " + err.Error()}
	}
	if len(data) > maxRequest {
		return redact.HelperResponse{Error: "request too large"}
	}
	var req redact.HelperRequest
	if err := json.Unmarshal(data, &req); err != nil {
		return redact.HelperResponse{Error: "request is not valid JSON: " + err.Error()}
	}
	sc, err := secrets.NewScanner(secrets.Options{
		ConfigPath:         req.Options.ConfigPath,
		DisabledRules:      req.Options.DisabledRules,
		TrustAllowComments: req.Options.TrustAllowComments,
	})
	if err != nil {
		return redact.HelperResponse{Error: err.Error()}
	}
	scanner := Scanner{sc}
	switch req.Op {
	case redact.OpScan, "":
		finds, _ := scanner.Scan(req.Text)
		return redact.HelperResponse{Findings: finds}
	case redact.OpNext:
		if req.Session == nil || req.Chunk == nil {
			return redact.HelperResponse{Error: "next needs a session and a chunk"}
		}
		rules, err := configRules(req.Options.ConfigPath)
		if err != nil {
			return redact.HelperResponse{Error: err.Error()}
		}
		r := &redact.Redactor{Watch: redact.NewWatch(rules, req.Options.DisabledRules), Scanner: scanner}
		if req.Options.PlainMarker {
			r.Marker = redact.PlainMarker
		}
		now := req.Now
		if now.IsZero() {
			now = time.Now()
		}
		show, changed, err := r.Next(req.Session, *req.Chunk, now)
		if err != nil {
			return redact.HelperResponse{Error: err.Error()}
		}
		return redact.HelperResponse{Show: show, Changed: changed, Session: req.Session}
	}
	return redact.HelperResponse{Error: fmt.Sprintf("unknown operation %q", req.Op)}
}

// Scanner adapts the gitleaks scanner to redact.Scanner.
type Scanner struct{ s *secrets.Scanner }

// Scan never fails: the gitleaks scanner does not.
func (s Scanner) Scan(text string) ([]redact.Finding, error) {
	var out []redact.Finding
	for _, f := range s.s.Scan(text) {
		out = append(out, redact.Finding{RuleID: f.RuleID, Start: f.Start, End: f.End, Secret: f.Secret})
	}
	return out, nil
}

// configRules are the rules the redactor watches with the user's gitleaks
// config: the built-in rule set with the config's rules merged in. (Only
// patterns and keywords matter here; the scanner applies the config in
// full.)
func configRules(path string) ([]redact.Rule, error) {
	if path == "" {
		return redact.BuiltinRules(), nil
	}
	base, err := secrets.BuiltinConfig()
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	user, err := secrets.ParseConfig(data)
	if err != nil {
		return nil, fmt.Errorf("gitleaks config %s: %w", path, err)
	}
	cfg := secrets.Merge(user, base)
	var rules []redact.Rule
	for _, r := range cfg.Rules {
		if r.Regex == "" {
			continue
		}
		kws := make([]string, len(r.Keywords))
		for i, k := range r.Keywords {
			kws[i] = strings.ToLower(k)
		}
		rules = append(rules, redact.Rule{ID: r.ID, Pattern: r.Regex, Keywords: kws})
	}
	return rules, nil
}

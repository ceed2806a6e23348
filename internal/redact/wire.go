package redact

import (
	"encoding/json"
	"time"
)

// The AfterModel hook runs once per streamed chunk and must stay light, so
// it does not link the gitleaks scanner. When a chunk needs a real scan it
// starts gemini-guard's scan helper (cmd/guard-scan) and talks to it with one
// JSON request on stdin and one JSON response on stdout, defined here.

// ScanOptions are the scanner's settings, as the hook resolved them.
type ScanOptions struct {
	ConfigPath         string   `json:"configPath,omitempty"`
	DisabledRules      []string `json:"disabledRules,omitempty"`
	TrustAllowComments bool     `json:"trustAllowComments,omitempty"`
	// PlainMarker asks for [REDACTED] instead of [REDACTED:<rule>] (op next).
	PlainMarker bool `json:"plainMarker,omitempty"`
}

// Helper operations.
const (
	// OpScan scans Text and answers Findings.
	OpScan = "scan"
	// OpNext runs Redactor.Next on Session and Chunk with the rules of the
	// options' config (used with a user's gitleaks config, whose rules the
	// hook does not know) and answers Show, Changed and the new Session.
	OpNext = "next"
)

// HelperRequest is what the helper reads.
type HelperRequest struct {
	Op      string      `json:"op"`
	Options ScanOptions `json:"options"`
	Text    string      `json:"text,omitempty"`
	Session *Session    `json:"session,omitempty"`
	Chunk   *Chunk      `json:"chunk,omitempty"`
	Now     time.Time   `json:"now,omitzero"`
}

// HelperResponse is what the helper writes. Error is set when the request
// could not be served; the other fields are then empty.
type HelperResponse struct {
	Findings []Finding `json:"findings,omitempty"`
	Show     string    `json:"show,omitempty"`
	Changed  bool      `json:"changed,omitempty"`
	Session  *Session  `json:"session,omitempty"`
	Error    string    `json:"error,omitempty"`
}

// EncodeJSON marshals v without HTML escaping (markers and code keep their
// < and >).
func EncodeJSON(v any) ([]byte, error) {
	return marshalNoEscape(v)
}

func marshalNoEscape(v any) ([]byte, error) {
	var b jsonBuffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	out := b.data
	if n := len(out); n > 0 && out[n-1] == '\n' {
		out = out[:n-1]
	}
	return out, nil
}

type jsonBuffer struct{ data []byte }

func (b *jsonBuffer) Write(p []byte) (int, error) {
	b.data = append(b.data, p...)
	return len(p), nil
}

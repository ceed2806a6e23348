package scanner

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/gemini-guard/gemini-guard/internal/secrets"
	"github.com/gemini-guard/gemini-guard/internal/version"
)

// Limits of the protocol. Both sides enforce them: the client refuses to
// send a text over MaxText, the server refuses a request over MaxRequest
// bytes, the client a response over MaxResponse bytes.
const (
	// MaxText is the largest text one request may carry: the guards scan
	// at most 4 MiB of a file or a tool output, so twice that is plenty.
	MaxText = 8 << 20
	// MaxRequest is the largest encoded request: MaxText in base64 (4/3)
	// plus room for the fingerprint and the options.
	MaxRequest = MaxText/3*4 + 1<<20
	// MaxResponse is the largest encoded response a client reads. Findings
	// carry their secrets, and overlapping rules and repeats can report a
	// byte of text more than once; beyond this the scan fails (the caller
	// fails safe).
	MaxResponse = 64 << 20
)

// Request is what a client sends: one JSON object per connection (daemon)
// or on stdin (one-shot).
type Request struct {
	// Fingerprint is the client's Fingerprint of Options (JSON
	// "fingerprint"). A daemon answers only requests that carry its own.
	Fingerprint string `json:"fingerprint"`
	// Options are the scanner options (JSON "options"); a daemon ignores
	// them (it serves the options it was started with, which the
	// fingerprint covers), a one-shot scanner builds its detector from them.
	Options WireOptions `json:"options"`
	// Text is the text to scan (JSON "text", base64): bytes, not a JSON
	// string, because encoding/json replaces invalid UTF-8 with U+FFFD and
	// would shift every byte offset after it.
	Text []byte `json:"text"`
}

// WireOptions is secrets.Options on the wire.
type WireOptions struct {
	ConfigPath         string   `json:"config_path,omitempty"`
	DisabledRules      []string `json:"disabled_rules,omitempty"`
	TrustAllowComments bool     `json:"trust_allow_comments,omitempty"`
}

// Response is what a scanner answers: one JSON object. Exactly one of
// Findings (possibly empty), ConfigError and Error is meaningful: Error
// first, then ConfigError.
type Response struct {
	// Fingerprint is the one the server computed from what it loaded (JSON
	// "fingerprint"); a client treats a daemon whose fingerprint differs
	// from its own as absent.
	Fingerprint string `json:"fingerprint,omitempty"`
	// Findings are the detector's findings, as it gave them (JSON
	// "findings").
	Findings []Finding `json:"findings,omitempty"`
	// ConfigError says the user's gitleaks config could not be loaded
	// (JSON "config_error"): the text of secrets.ConfigError.Err.
	ConfigError string `json:"config_error,omitempty"`
	// Error says the text was not scanned (JSON "error"): busy, fingerprint
	// mismatch, malformed or oversized request, time limit. It never
	// contains the text.
	Error string `json:"error,omitempty"`
}

// Finding is secrets.Finding on the wire. Secret is bytes (base64) for the
// same reason as Request.Text.
type Finding struct {
	RuleID      string `json:"rule_id"`
	Description string `json:"description,omitempty"`
	Start       int    `json:"start"`
	End         int    `json:"end"`
	Line        int    `json:"line"`
	Secret      []byte `json:"secret,omitempty"`
	Decoded     bool   `json:"decoded,omitempty"`
	Repeat      bool   `json:"repeat,omitempty"`
}

// ErrTooLarge is returned by ReadRequest for a request over MaxRequest bytes
// or a text over MaxText.
var ErrTooLarge = errors.New("scanner: request too large")

// ReadRequest reads one request from r: at most MaxRequest bytes, one JSON
// object with no unknown fields, a text of at most MaxText bytes. Anything
// else is an error (ErrTooLarge for size); the error never contains the
// request's text.
func ReadRequest(r io.Reader) (Request, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxRequest+1))
	if err != nil {
		return Request{}, fmt.Errorf("scanner: reading request: %w", err)
	}
	if len(data) > MaxRequest {
		return Request{}, ErrTooLarge
	}
	return DecodeRequest(data)
}

// DecodeRequest decodes one encoded request (see ReadRequest).
func DecodeRequest(data []byte) (Request, error) {
	var req Request
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		return Request{}, malformed(err)
	}
	if dec.More() {
		return Request{}, errors.New("scanner: malformed request: data after the request")
	}
	if len(req.Text) > MaxText {
		return Request{}, ErrTooLarge
	}
	return req, nil
}

// malformed describes a decoding error without quoting the input: json's
// errors may quote a character or a field name of it.
func malformed(err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return fmt.Errorf("scanner: malformed request: JSON syntax error at byte %d", syn.Offset)
	case errors.As(err, &typ):
		return fmt.Errorf("scanner: malformed request: wrong type for %s", typ.Field)
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return errors.New("scanner: malformed request: incomplete JSON")
	default:
		return errors.New("scanner: malformed request: not a request object")
	}
}

// ToWire converts findings for a response.
func ToWire(found []secrets.Finding) []Finding {
	if len(found) == 0 {
		return nil
	}
	out := make([]Finding, len(found))
	for i, f := range found {
		out[i] = Finding{
			RuleID: f.RuleID, Description: f.Description,
			Start: f.Start, End: f.End, Line: f.Line,
			Secret: []byte(f.Secret), Decoded: f.Decoded, Repeat: f.Repeat,
		}
	}
	return out
}

// fromWire converts a response's findings for a text of textLen bytes. A
// range outside the text is an error: a caller slices the text with it.
func fromWire(found []Finding, textLen int) ([]secrets.Finding, error) {
	if len(found) == 0 {
		return nil, nil
	}
	out := make([]secrets.Finding, len(found))
	for i, f := range found {
		if f.Start < 0 || f.Start > f.End || f.End > textLen {
			return nil, fmt.Errorf("scanner: finding %d of rule %q has range [%d,%d) outside the text (%d bytes)",
				i, f.RuleID, f.Start, f.End, textLen)
		}
		out[i] = secrets.Finding{
			RuleID: f.RuleID, Description: f.Description,
			Start: f.Start, End: f.End, Line: f.Line,
			Secret: string(f.Secret), Decoded: f.Decoded, Repeat: f.Repeat,
		}
	}
	return out, nil
}

// OptionsToWire converts options for a request.
func OptionsToWire(o secrets.Options) WireOptions {
	return WireOptions{ConfigPath: o.ConfigPath, DisabledRules: o.DisabledRules, TrustAllowComments: o.TrustAllowComments}
}

// Options converts wire options back.
func (o WireOptions) Options() secrets.Options {
	return secrets.Options{ConfigPath: o.ConfigPath, DisabledRules: o.DisabledRules, TrustAllowComments: o.TrustAllowComments}
}

// Normalize returns opts in the form fingerprints and daemons use: the
// config path absolute and clean (relative to the working directory), the
// disabled rules sorted without duplicates or empty ids (nil when none).
// It fails only when the working directory is unknown for a relative path.
func Normalize(opts secrets.Options) (secrets.Options, error) {
	if opts.ConfigPath != "" {
		abs, err := filepath.Abs(opts.ConfigPath)
		if err != nil {
			return secrets.Options{}, fmt.Errorf("scanner: config path: %w", err)
		}
		opts.ConfigPath = abs
	}
	var rules []string
	for _, r := range opts.DisabledRules {
		if r != "" {
			rules = append(rules, r)
		}
	}
	slices.Sort(rules)
	opts.DisabledRules = slices.Compact(rules)
	return opts, nil
}

// configHashLimit is how much of a config file the fingerprint hashes; a
// larger file (the detector refuses it anyway) is identified by its size
// and modification time instead.
const configHashLimit = 16 << 20

// Fingerprint identifies what a scanner started from binary with opts
// serves: the release (version.Version), the binary's size and modification
// time, the normalized options and the SHA-256 of the config file's
// content. It is 64 lower-case hex digits. A config file that cannot be
// read still gives a fingerprint (the scanner reports the ConfigError); an
// error means the binary cannot be found or opts cannot be normalized.
//
// Editing the config or replacing the binary changes the fingerprint, and
// with it the daemon's socket (SocketPath): the old daemon idles out.
// Files the config pulls in with gitleaks' [extend] path are not covered:
// their edits reach the scanner when its daemon restarts.
func Fingerprint(opts secrets.Options, binary string) (string, error) {
	opts, err := Normalize(opts)
	if err != nil {
		return "", err
	}
	bin, err := os.Stat(binary)
	if err != nil {
		return "", fmt.Errorf("scanner: scanner binary: %w", err)
	}
	in := struct {
		Version            string
		BinarySize         int64
		BinaryModTime      int64
		ConfigPath         string
		ConfigSHA256       string
		DisabledRules      []string
		TrustAllowComments bool
	}{
		Version:    version.Version,
		BinarySize: bin.Size(), BinaryModTime: bin.ModTime().UnixNano(),
		ConfigPath:    opts.ConfigPath,
		DisabledRules: opts.DisabledRules, TrustAllowComments: opts.TrustAllowComments,
	}
	if opts.ConfigPath != "" {
		in.ConfigSHA256 = configHash(opts.ConfigPath)
	}
	b, err := json.Marshal(in)
	if err != nil {
		return "", fmt.Errorf("scanner: fingerprint: %w", err)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), nil
}

// configHash is the hex SHA-256 of the file at path, or a marker that still
// changes when the file does: "unreadable" (missing, a directory, no
// permission) or the size and modification time of a file over
// configHashLimit.
func configHash(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return "unreadable"
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, io.LimitReader(f, configHashLimit+1))
	if err != nil {
		return "unreadable"
	}
	if n > configHashLimit {
		st, err := f.Stat()
		if err != nil {
			return "unreadable"
		}
		return "large:" + strconv.FormatInt(st.Size(), 10) + ":" + strconv.FormatInt(st.ModTime().UnixNano(), 10)
	}
	return hex.EncodeToString(h.Sum(nil))
}

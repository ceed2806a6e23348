package scanner

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/secrets"
	"github.com/gemini-guard/gemini-guard/internal/version"
)

// Limits of the protocol. Both sides enforce them: the client refuses to
// send a text over MaxText, the server refuses a request header over
// MaxHeader bytes or announcing a text over MaxText, the client a response
// over MaxResponse bytes.
const (
	// MaxText is the largest text one request may carry: the guards scan
	// at most 4 MiB of a file or a tool output, so twice that is plenty.
	MaxText = 8 << 20
	// MaxHeader is the largest request header line (fingerprint, options).
	MaxHeader = 64 << 10
	// MaxRequest is the largest request: a header and a text.
	MaxRequest = MaxHeader + MaxText
	// MaxResponse is the largest encoded response a client reads. Findings
	// carry their secrets, and overlapping rules and repeats can report a
	// byte of text more than once; beyond this the scan fails (the caller
	// fails safe).
	MaxResponse = 64 << 20
)

// Request is what a client sends, once per connection (daemon) or on stdin
// (one-shot): a header line, one JSON object and a newline,
//
//	{"fingerprint": "<32 hex>", "options": {...}, "text_length": N}
//
// followed by exactly N bytes of text and the end of the stream. The text
// travels raw: as a JSON string it would cost a decoding pass at ~100 MB/s
// (a 100 KB text: ~1 ms each way) and lose invalid UTF-8 to U+FFFD,
// shifting every byte offset after it.
type Request struct {
	// Fingerprint is the client's Fingerprint of Options (JSON
	// "fingerprint"). A daemon answers only requests that carry its own.
	Fingerprint string
	// Options are the scanner options (JSON "options"); a daemon ignores
	// them (it serves the options it was started with, which the
	// fingerprint covers), a one-shot scanner builds its detector from them.
	Options WireOptions
	// Text is the text to scan.
	Text string
}

// requestHeader is a request's first line.
type requestHeader struct {
	Fingerprint string      `json:"fingerprint"`
	Options     WireOptions `json:"options"`
	TextLength  int         `json:"text_length"`
}

// WriteTo writes the request to w.
func (req Request) WriteTo(w io.Writer) (int64, error) {
	h, err := req.header()
	if err != nil {
		return 0, err
	}
	n, err := w.Write(h)
	if err != nil {
		return int64(n), err
	}
	m, err := io.WriteString(w, req.Text)
	return int64(n + m), err
}

// header returns the request's header line, newline included.
func (req Request) header() ([]byte, error) {
	h, err := json.Marshal(requestHeader{Fingerprint: req.Fingerprint, Options: req.Options, TextLength: len(req.Text)})
	if err != nil {
		return nil, fmt.Errorf("scanner: encoding request: %w", err)
	}
	return append(h, '\n'), nil
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

// ErrTooLarge is returned by ReadRequest for a header over MaxHeader bytes
// or a text over MaxText.
var ErrTooLarge = errors.New("scanner: request too large")

// ReadRequest reads one request from r (see Request): a header line of at
// most MaxHeader bytes holding one JSON object with no unknown fields, then
// text_length (at most MaxText) bytes of text, then the end of r. Anything
// else is an error (ErrTooLarge for size); the error never quotes the
// request.
func ReadRequest(r io.Reader) (Request, error) {
	br := bufio.NewReaderSize(r, 16<<10)
	line, err := readLine(br, MaxHeader)
	if err != nil {
		return Request{}, err
	}
	var h requestHeader
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&h); err != nil {
		return Request{}, malformed(err)
	}
	if dec.More() {
		return Request{}, errors.New("scanner: malformed request: more than one header object")
	}
	switch {
	case h.TextLength < 0:
		return Request{}, errors.New("scanner: malformed request: negative text_length")
	case h.TextLength > MaxText:
		return Request{}, ErrTooLarge
	}
	var text strings.Builder
	text.Grow(h.TextLength)
	if n, err := io.CopyN(&text, br, int64(h.TextLength)); err != nil {
		if errors.Is(err, io.EOF) {
			return Request{}, fmt.Errorf("scanner: malformed request: text of %d bytes, not text_length %d", n, h.TextLength)
		}
		return Request{}, fmt.Errorf("scanner: reading request: %w", err)
	}
	switch _, err := br.ReadByte(); {
	case err == nil:
		return Request{}, errors.New("scanner: malformed request: data after the text")
	case !errors.Is(err, io.EOF):
		return Request{}, fmt.Errorf("scanner: reading request: %w", err)
	}
	return Request{Fingerprint: h.Fingerprint, Options: h.Options, Text: text.String()}, nil
}

// readLine reads up to and without the next newline, at most max bytes;
// the line must end with a newline.
func readLine(br *bufio.Reader, max int) ([]byte, error) {
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(line)+len(chunk) > max+1 {
			return nil, ErrTooLarge
		}
		line = append(line, chunk...)
		switch {
		case err == nil:
			return line[:len(line)-1], nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			return nil, errors.New("scanner: malformed request: no header line")
		default:
			return nil, fmt.Errorf("scanner: reading request: %w", err)
		}
	}
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
// time, the normalized options and a hash of the config file's content.
// It is 32 lower-case hex digits of FNV-128a: it tells configurations
// apart and is no security boundary (the socket's directory and the peer's
// uid are); crypto/sha256 cost every hook process its package
// initialisation. A config file that cannot be
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
	config := ""
	if opts.ConfigPath != "" {
		config = configHash(opts.ConfigPath)
	}
	// Each field length-prefixed, so that no two inputs hash alike by
	// running together.
	h := fnv.New128a()
	field := func(v string) {
		h.Write([]byte(strconv.Itoa(len(v))))
		h.Write([]byte{':'})
		h.Write([]byte(v))
	}
	field(version.Version)
	field(strconv.FormatInt(bin.Size(), 10))
	field(strconv.FormatInt(bin.ModTime().UnixNano(), 10))
	field(opts.ConfigPath)
	field(config)
	field(strconv.Itoa(len(opts.DisabledRules)))
	for _, id := range opts.DisabledRules {
		field(id)
	}
	field(strconv.FormatBool(opts.TrustAllowComments))
	return hex.EncodeToString(h.Sum(nil)), nil
}

// configHash is the hex FNV-128a hash of the file at path, or a marker that still
// changes when the file does: "unreadable" (missing, a directory, no
// permission) or the size and modification time of a file over
// configHashLimit.
func configHash(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return "unreadable"
	}
	defer f.Close()
	h := fnv.New128a()
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

// Package scanner is the hooks' client of the secret scanner process
// (cmd/guard-scanner, package internal/scanner/server), and the protocol
// both sides speak.
//
// # Why a separate process
//
// Detection is gitleaks' own detector with its RE2 regexp build: fast
// scans (a 10 KB file in ~0.3 ms) but a slow start: linking it costs a
// process ~0.28 s before main runs (the RE2 WebAssembly module is compiled
// at init) and building the detector ~0.12 s more. Gemini CLI starts a
// hook process per tool call and per streamed chunk, so the hooks link
// only this package (no gitleaks: a test checks; start-up as a bare Go
// binary) and ask a long-lived per-user scanner, a daemon, over a unix
// socket: a hook process scanning 10 KB of code this way takes ~1.1 ms more
// than a bare Go process (the scan itself ~0.3 ms of it). A daemon is
// started on the first call of a session (~0.4 s, as a one-shot scan costs)
// and exits after 10 idle minutes.
//
// # Flow of Client.Scan
//
//  1. Fingerprint the scanner it would talk to: the release, the scanner
//     binary's size and modification time, the normalized options, the
//     config file's content hash. Each fingerprint has its own daemon and
//     socket, <dir>/scan-<16 hex>.sock, so an edited config or an updated
//     binary starts a new daemon and the old one idles out.
//  2. Check the runtime directory (DefaultDir; made if missing): a real
//     directory, ours, mode 0700, short enough a path for a socket.
//     Otherwise no daemon is used at all (step 5 only).
//  3. Connect. When nobody serves the socket, take the daemon's lock and
//     start it, detached: its own session, the lock handed over, no
//     inherited stdin/stdout/stderr (Gemini CLI waits for the hook's stdout
//     to close; an inherited pipe would hold the hook until the daemon
//     exits). When the lock is taken, another client is starting it. Wait
//     for it to listen, at most StartTimeout.
//  4. Prove the peer is our daemon: it runs as our user and, on Linux, its
//     executable (/proc/<pid>/exe) is the scanner binary itself. A peer
//     that fails the proof took the socket's place: the socket is removed
//     (the next call starts our daemon) and Scan fails with an
//     *ImpostorError, so that the hook fails safe and says so. Then send
//     one request, read one response within DaemonTimeout. The response
//     echoes the fingerprint the daemon computed from what it loaded; a
//     mismatch, a busy or failed daemon or a timeout means "no daemon".
//  5. Without a daemon answer, run `guard-scanner scan` with the request on
//     stdin and read the response from its stdout, within what is left of
//     Client.Timeout: the same server code on the same request, so the
//     findings are identical. It is a process of the scanner binary, not a
//     scan in the hook's process, so that hooks never link gitleaks.
//
// Windows has no daemon: every scan is step 5.
//
// # Protocol
//
// One request each way, one request per connection (or per one-shot
// process). The request is a JSON header line followed by the raw text
// (see Request):
//
//	{"fingerprint": "<32 hex>", "options": {"config_path": "/abs/.gitleaks.toml",
//	 "disabled_rules": ["id", ...], "trust_allow_comments": true}, "text_length": N}\n
//	<N bytes of text>
//
// The response is one JSON object (see Response):
//
//	{"fingerprint": "<32 hex>", "findings": [{"rule_id": "...", "description": "...",
//	 "start": 0, "end": 40, "line": 1, "secret": "<base64>", "decoded": true,
//	 "repeat": true}], "config_error": "...", "error": "..."}
//
// The text travels raw and secrets as base64: JSON strings would turn
// invalid UTF-8 into U+FFFD and shift byte offsets. Empty fields are
// omitted. A daemon serves the options it was started with and answers a
// request with another fingerprint with an error. Limits: MaxText,
// MaxHeader, MaxResponse.
package scanner

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/gemini-guard/gemini-guard/internal/secrets"
)

// Time limits of a Scan.
const (
	// DaemonTimeout bounds the exchange with a daemon (connect, send, scan,
	// answer). A daemon that takes longer is skipped for this call and the
	// text is scanned by a one-shot process with the time left. A warm
	// daemon answers a 100 KB text in milliseconds.
	DaemonTimeout = 5 * time.Second
	// DefaultTimeout bounds a whole Scan when Client.Timeout is zero. The
	// secrets hook's timeout in hooks.json is 30 s and a hook that times out
	// lets the action through: a Scan must fail well before.
	DefaultTimeout = 20 * time.Second
)

// Client scans texts with the scanner process. The zero value scans with
// the built-in rules through the guard-scanner next to the running
// executable, with daemons in DefaultDir. It is safe for concurrent use.
type Client struct {
	// Options are the scanner options; a relative ConfigPath is taken
	// relative to the working directory.
	Options secrets.Options
	// Binary is the path of guard-scanner; "" means guard-scanner (.exe on
	// Windows) in the directory of os.Executable().
	Binary string
	// Dir is the runtime directory for daemon sockets; "" means
	// DefaultDir(os.Getenv).
	Dir string
	// Timeout bounds a whole Scan; zero or negative means DefaultTimeout.
	Timeout time.Duration
}

// Scan returns the findings of the scanner for text, exactly as its
// detector gives them.
//
// A *secrets.ConfigError (errors.As) says the scanner could not load the
// user's config (Options.ConfigPath): scan again without it and tell the
// user. Any other error means text was not scanned — no scanner binary,
// a text over MaxText, a time limit, a broken answer — and the caller must
// fail safe. No error ever contains text.
func (c *Client) Scan(text string) ([]secrets.Finding, error) {
	if len(text) > MaxText {
		return nil, fmt.Errorf("scanner: text of %d bytes is over the limit of %d", len(text), MaxText)
	}
	timeout := c.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	deadline := time.Now().Add(timeout)
	binary, err := c.binary()
	if err != nil {
		return nil, err
	}
	opts, err := Normalize(c.Options)
	if err != nil {
		return nil, err
	}
	fp, err := Fingerprint(opts, binary)
	if err != nil {
		return nil, err
	}
	req := Request{Fingerprint: fp, Options: OptionsToWire(opts), Text: text}
	header, err := req.header()
	if err != nil {
		return nil, err
	}
	if daemonSupported {
		dir := c.Dir
		if dir == "" {
			dir = DefaultDir(nil)
		}
		resp, ok, err := viaDaemon(dir, binary, opts, fp, header, text, deadline)
		if err != nil {
			return nil, err
		}
		if ok {
			return c.result(resp, len(text))
		}
	}
	resp, err := oneShot(binary, header, text, deadline, timeout)
	if err != nil {
		return nil, err
	}
	return c.result(resp, len(text))
}

// Start makes sure a daemon for c's options serves or is starting, without
// waiting for it. The session-start hook calls it so that the session's
// first scan finds the daemon warm: a scan that must wait for a daemon to
// start on a loaded machine may run out of its hook's time, and the hook
// then withholds what it could not check.
func (c *Client) Start() error {
	if !daemonSupported {
		return nil
	}
	binary, err := c.binary()
	if err != nil {
		return err
	}
	opts, err := Normalize(c.Options)
	if err != nil {
		return err
	}
	fp, err := Fingerprint(opts, binary)
	if err != nil {
		return err
	}
	dir := c.Dir
	if dir == "" {
		dir = DefaultDir(nil)
	}
	if err := CheckDir(dir, true); err != nil {
		return err
	}
	socket, err := SocketPath(dir, fp)
	if err != nil {
		return err
	}
	conn, err := dial(socket, time.Now().Add(time.Second))
	if err == nil {
		return conn.Close()
	}
	if !absent(err) {
		return err
	}
	lock, err := TryLock(LockPath(socket))
	if err != nil || lock == nil {
		// Another client is starting it.
		return err
	}
	defer lock.Close()
	_, err = start(binary, dir, opts, lock)
	return err
}

// binary is the guard-scanner path to fingerprint and run.
func (c *Client) binary() (string, error) {
	if c.Binary != "" {
		return c.Binary, nil
	}
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("scanner: locating guard-scanner: %w", err)
	}
	name := "guard-scanner"
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	return filepath.Join(filepath.Dir(exe), name), nil
}

// result turns a scanner's response into Scan's results.
func (c *Client) result(resp Response, textLen int) ([]secrets.Finding, error) {
	switch {
	case resp.Error != "":
		// The server's messages are its own words, never the text.
		return nil, errors.New("scanner: " + resp.Error)
	case resp.ConfigError != "" && c.Options.ConfigPath != "":
		return nil, &secrets.ConfigError{Path: c.Options.ConfigPath, Err: errors.New(resp.ConfigError)}
	case resp.ConfigError != "":
		return nil, errors.New("scanner: the built-in rules did not load: " + resp.ConfigError)
	}
	return fromWire(resp.Findings, textLen)
}

// oneShot scans with a `guard-scanner scan` process before deadline.
func oneShot(binary string, header []byte, text string, deadline time.Time, timeout time.Duration) (Response, error) {
	ctx, cancel := context.WithDeadline(context.Background(), deadline)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, "scan")
	dieWithCaller(cmd)
	cmd.Stdin = io.MultiReader(bytes.NewReader(header), strings.NewReader(text))
	out := &limitedBuffer{max: MaxResponse}
	cmd.Stdout = out
	// Stderr is /dev/null: the server writes its errors into the response.
	cmd.WaitDelay = time.Second
	err := cmd.Run()
	if ctx.Err() != nil {
		return Response{}, fmt.Errorf("scanner: no answer from %s within %v", binary, timeout)
	}
	if out.over {
		return Response{}, fmt.Errorf("scanner: answer from %s over %d bytes", binary, MaxResponse)
	}
	if err != nil {
		return Response{}, fmt.Errorf("scanner: running %s: %w", binary, err)
	}
	var resp Response
	if err := json.Unmarshal(out.Bytes(), &resp); err != nil {
		return Response{}, fmt.Errorf("scanner: unreadable answer from %s", binary)
	}
	return resp, nil
}

// readResponse reads one response of at most MaxResponse bytes from r.
func readResponse(r io.Reader) (Response, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxResponse+1))
	if err != nil {
		return Response{}, err
	}
	if len(data) > MaxResponse {
		return Response{}, fmt.Errorf("scanner: answer over %d bytes", MaxResponse)
	}
	var resp Response
	if err := json.Unmarshal(data, &resp); err != nil {
		return Response{}, errors.New("scanner: unreadable answer")
	}
	return resp, nil
}

// limitedBuffer keeps at most max bytes; a write beyond fails and sets
// over.
type limitedBuffer struct {
	bytes.Buffer
	max  int
	over bool
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if b.Len()+len(p) > b.max {
		b.over = true
		return 0, errors.New("scanner: answer too large")
	}
	return b.Buffer.Write(p)
}

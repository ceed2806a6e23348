// Package server is the secret scanner process behind internal/scanner:
// a long-lived per-user daemon (`guard-scanner serve`) and a one-shot mode
// (`guard-scanner scan`) that answer the same requests with the same code.
// The protocol and the client are in package scanner.
//
// The detector is injected (Build): this package links no gitleaks, the
// scanner's main does. A process builds its detector once and never again:
// gitleaks keeps a process-global [extend] counter, so a config change
// means a new process, which the fingerprint in the socket name gives for
// free.
//
// # Daemon
//
// serve makes the runtime directory (0700, ours, or it refuses to run),
// computes its fingerprint, and takes an exclusive non-blocking lock on
// <socket>.lock (or inherits it, locked, from the client that started it:
// -lock-fd): when another daemon for the fingerprint runs or starts it
// exits 0 at once. It then builds the detector. A user config that does not
// load (a *secrets.ConfigError) does not stop it: it answers every request
// with that config error, clients scan again without the config, and the
// user's fix changes the fingerprint. It replaces a stale socket and serves:
//
//   - only peers running as our user (SO_PEERCRED / LOCAL_PEERCRED); others
//     are closed without an answer;
//   - only requests with its own fingerprint;
//   - at most MaxConns connections at once; beyond, it answers "busy" (the
//     client scans with a one-shot process);
//   - at most MaxScans scans of small texts (up to SmallText) and
//     MaxLargeScans of larger ones at once, each class on its own slots, so
//     that slow large scans never hold up a small one; the others wait;
//   - only while the client waits: a request's waiting and scanning end
//     when its client hangs up (checked every HangupCheck) or after
//     scanner.DaemonTimeout (the client gives up on a daemon then). A scan
//     cut short is an error, never a partial list of findings;
//   - within ConnTimeout per connection;
//   - requests within scanner.MaxHeader and scanner.MaxText; a malformed or
//     oversized one gets an error response.
//
// A cancelled scan that does not stop within StopGrace (the detector checks
// for cancellation only between rules, and one rule can take seconds over
// an adversarial text) cannot be stopped inside the process: the daemon
// retires. It removes its lock file and socket, so that the next client
// starts a fresh daemon at once, stops accepting, answers the clients it
// still serves and exits, ending the abandoned scan with it.
//
// It exits after IdleTimeout without requests, or when its socket file was
// removed or replaced, checking every CheckInterval; it removes its socket
// and lock file on the way out (the socket only while it is still its own).
// Once it listens it writes its pid into the lock file: clients that find
// the lock taken wait for a daemon without one (starting) and not for one
// with one (serving, yet its socket refused them).
//
// # One-shot
//
// scan reads one request from stdin (same limit), builds the detector from
// the request's options, scans, writes one response to stdout and exits 0.
package server

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/gemini-guard/gemini-guard/internal/scanner"
	"github.com/gemini-guard/gemini-guard/internal/secrets"
)

// Detector scans texts. It must be safe for concurrent use. Scan stops
// early when ctx is done; the server then discards what it returned.
type Detector interface {
	Scan(ctx context.Context, text string) []secrets.Finding
}

// Build builds a detector for opts (normalized: see scanner.Normalize). A
// *secrets.ConfigError says the user's config cannot be loaded; any other
// error means no scan is possible.
type Build func(opts secrets.Options) (Detector, error)

// Limits of the server.
const (
	// IdleTimeout is how long a daemon waits for a request before it exits
	// (flag -idle): long enough to span the pauses of a session, short
	// enough that an old config's daemon goes away.
	IdleTimeout = 10 * time.Minute
	// CheckInterval is how often a daemon checks for idleness and for its
	// socket file (flag -check): one stat; while its socket is gone, clients
	// scan with one-shot processes.
	CheckInterval = 5 * time.Second
	// ConnTimeout bounds one connection: reading the request, scanning,
	// writing the response.
	ConnTimeout = 15 * time.Second
	// ScanTimeout bounds a one-shot scan (its client kills the process by
	// its own deadline too); a daemon's scans end with their client's
	// wait (see handle).
	ScanTimeout = 10 * time.Second
	// MaxConns is how many connections a daemon holds at once; beyond, it
	// answers "busy" and the client scans with a one-shot process, which
	// costs ~0.4 s: so connections rather wait for one of MaxScans.
	MaxConns = 32
	// MaxScans is how many scans of texts up to SmallText run at once;
	// MaxLargeScans how many of larger texts, on slots of their own. A
	// request waits for a slot of its class while its client waits for
	// the answer (see HangupCheck), at most scanner.DaemonTimeout.
	MaxScans      = 4
	MaxLargeScans = 2
	// SmallText is the largest text scanned on the small slots: a streamed
	// chunk, a source file, a short tool output. The detector's cost grows
	// faster than the size of a text dense with key-shaped values (1 MiB:
	// tens of seconds), so large texts must not be able to take every slot.
	SmallText = 64 << 10
	// HangupCheck is how often a daemon checks whether the client of a
	// waiting or running scan has hung up (its hook passed its deadline and
	// exited): the work is cancelled then.
	HangupCheck = 50 * time.Millisecond
	// StopGrace is how long a cancelled scan may take to stop. The detector
	// checks for cancellation between rules only; a scan still running
	// after StopGrace is abandoned and its daemon retires (see serve).
	StopGrace = 500 * time.Millisecond
)

// Main runs the scanner with args (without the program name) and returns
// the exit code: 0 done (also: another daemon already serves), 1 error
// (said on stderr), 2 usage. build is called at most once.
//
//	guard-scanner serve [-dir DIR] [-options JSON] [-idle D] [-check D] [-lock-fd N]
//	guard-scanner scan  < request > response
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer, build Build) int {
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	switch args[0] {
	case "scan":
		if len(args) > 1 {
			usage(stderr)
			return 2
		}
		return oneShot(stdin, stdout, stderr, build)
	case "serve":
		fs := flag.NewFlagSet("guard-scanner serve", flag.ContinueOnError)
		fs.SetOutput(stderr)
		dir := fs.String("dir", "", "runtime `directory` for the socket (default: "+scanner.DefaultDir(nil)+")")
		options := fs.String("options", "{}", "scanner options as `JSON` (see package scanner)")
		idle := fs.Duration("idle", IdleTimeout, "exit after this long without a request")
		check := fs.Duration("check", CheckInterval, "how often to check for idleness and the socket file")
		lockFD := fs.Int("lock-fd", -1, "inherited `file descriptor` of the daemon's lock file, locked by the starter")
		if err := fs.Parse(args[1:]); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return 0
			}
			return 2
		}
		if fs.NArg() > 0 || *idle <= 0 || *check <= 0 {
			usage(stderr)
			return 2
		}
		var wo scanner.WireOptions
		dec := json.NewDecoder(strings.NewReader(*options))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&wo); err != nil {
			fmt.Fprintf(stderr, "guard-scanner: -options: %v\n", err)
			return 2
		}
		if *dir == "" {
			*dir = scanner.DefaultDir(nil)
		}
		if err := serve(config{dir: *dir, opts: wo.Options(), idle: *idle, check: *check, lockFD: *lockFD, build: build}); err != nil {
			fmt.Fprintf(stderr, "guard-scanner: %v\n", err)
			return 1
		}
		return 0
	case "-h", "-help", "--help", "help":
		usage(stdout)
		return 0
	default:
		usage(stderr)
		return 2
	}
}

func usage(w io.Writer) {
	fmt.Fprint(w, "usage: guard-scanner serve [-dir DIR] [-options JSON] [-idle D] [-check D] [-lock-fd N]\n"+
		"       guard-scanner scan < request.json > response.json\n")
}

// config is what serve runs with.
type config struct {
	dir         string
	opts        secrets.Options
	idle, check time.Duration
	lockFD      int // < 0: take the lock
	build       Build
}

// oneShot answers the request on stdin.
func oneShot(stdin io.Reader, stdout, stderr io.Writer, build Build) int {
	resp := oneShotResponse(stdin, build)
	b, err := json.Marshal(resp)
	if err == nil {
		_, err = stdout.Write(b)
	}
	if err != nil {
		fmt.Fprintf(stderr, "guard-scanner: writing the answer: %v\n", err)
		return 1
	}
	return 0
}

func oneShotResponse(stdin io.Reader, build Build) scanner.Response {
	req, err := scanner.ReadRequest(stdin)
	if err != nil {
		return scanner.Response{Error: err.Error()}
	}
	opts, err := scanner.Normalize(req.Options.Options())
	if err != nil {
		return scanner.Response{Error: err.Error()}
	}
	det, buildErr := safeBuild(build, opts)
	// After the build: the fingerprint of what was loaded (a config edited
	// since the client hashed it shows as a different fingerprint).
	fp := ""
	if exe, err := os.Executable(); err == nil {
		fp, _ = scanner.Fingerprint(opts, exe)
	}
	return answer(det, buildErr, fp, req.Text)
}

// respond reads one request from r and answers it as the daemon with
// fingerprint fp, detector det (or buildErr) would, without its scheduling.
func respond(r io.Reader, fp string, det Detector, buildErr error) scanner.Response {
	req, early := readChecked(r, fp)
	if early != nil {
		return *early
	}
	return answer(det, buildErr, fp, req.Text)
}

// readChecked reads one request from r for the daemon with fingerprint fp.
// A non-nil early is the answer to a request that is not to be scanned:
// malformed, oversized, another fingerprint.
func readChecked(r io.Reader, fp string) (req scanner.Request, early *scanner.Response) {
	req, err := scanner.ReadRequest(r)
	if err != nil {
		if errors.Is(err, scanner.ErrTooLarge) {
			// Read on a little (bounded by the connection's deadline), so
			// the sender sees the answer rather than a reset connection.
			_, _ = io.Copy(io.Discard, io.LimitReader(r, scanner.MaxRequest))
		}
		return req, &scanner.Response{Fingerprint: fp, Error: err.Error()}
	}
	if req.Fingerprint != fp {
		return req, &scanner.Response{Fingerprint: fp, Error: "fingerprint mismatch"}
	}
	return req, nil
}

// safeBuild calls build; a panic is an error.
func safeBuild(build Build, opts secrets.Options) (det Detector, err error) {
	defer func() {
		if p := recover(); p != nil {
			det, err = nil, fmt.Errorf("building the detector panicked: %v", p)
		}
	}()
	if build == nil {
		return nil, errors.New("no detector")
	}
	det, err = build(opts)
	if err == nil && det == nil {
		err = errors.New("no detector")
	}
	return det, err
}

// answer scans text with det within ScanTimeout, or reports why it cannot
// (buildErr).
func answer(det Detector, buildErr error, fp string, text string) scanner.Response {
	ctx, cancel := context.WithTimeout(context.Background(), ScanTimeout)
	defer cancel()
	return answerCtx(ctx, det, buildErr, fp, text)
}

// answerCtx is answer within ctx.
func answerCtx(ctx context.Context, det Detector, buildErr error, fp string, text string) scanner.Response {
	var cfgErr *secrets.ConfigError
	switch {
	case errors.As(buildErr, &cfgErr):
		msg := "cannot be loaded"
		if cfgErr.Err != nil {
			msg = cfgErr.Err.Error()
		}
		return scanner.Response{Fingerprint: fp, ConfigError: msg}
	case buildErr != nil:
		return scanner.Response{Fingerprint: fp, Error: "detector: " + buildErr.Error()}
	}
	found, err := safeScan(ctx, det, text)
	if err != nil {
		return scanner.Response{Fingerprint: fp, Error: err.Error()}
	}
	if ctx.Err() != nil {
		// The detector stopped early: what it found is not everything.
		return scanner.Response{Fingerprint: fp, Error: fmt.Sprintf("scan of %d bytes stopped: %v", len(text), ctx.Err())}
	}
	return scanner.Response{Fingerprint: fp, Findings: scanner.ToWire(found)}
}

// safeScan calls det.Scan; a panic is an error (a daemon keeps serving).
// The panic value is not reported: it could quote the text.
func safeScan(ctx context.Context, det Detector, text string) (found []secrets.Finding, err error) {
	defer func() {
		if p := recover(); p != nil {
			found, err = nil, errors.New("the detector failed on this text")
		}
	}()
	return det.Scan(ctx, text), nil
}

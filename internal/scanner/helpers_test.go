//go:build linux || darwin

package scanner_test

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/scanner"
	"github.com/gemini-guard/gemini-guard/internal/scanner/scannertest"
	"github.com/gemini-guard/gemini-guard/internal/scanner/server"
	"github.com/gemini-guard/gemini-guard/internal/secrets"
)

// The test binary is also the scanner: re-executed with beScanner set, it
// runs server.Main with testBuild instead of the tests. No extra build,
// and client and server are this commit's code.
const (
	beScanner = "GEMINI_GUARD_SCANNER_TEST_BE_SCANNER"
	// logVar names a file where every scanner process that builds a
	// detector appends "<mode> <pid>": how the tests see which path served.
	logVar = "GEMINI_GUARD_SCANNER_TEST_LOG"
)

func TestMain(m *testing.M) {
	if os.Getenv(beScanner) == "1" {
		mode := ""
		if len(os.Args) > 1 {
			mode = os.Args[1]
		}
		logLine("proc " + mode)
		os.Exit(server.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, testBuild(mode)))
	}
	// Every process the tests start (through the client) is the scanner.
	os.Setenv(beScanner, "1")
	os.Exit(m.Run())
}

// secretWord is what the test detector finds (rule "test-rule"); a
// config file adds its words (rule "config-rule"); a config starting with
// "broken" does not load.
const secretWord = "SECRET123"

// Texts the test detector treats specially.
const (
	stallInDaemon = "STALL-IN-DAEMON" // a daemon waits until its scan is cancelled
	stallAlways   = "STALL-ALWAYS"    // every scanner does
	panicWord     = "PANIC-NOW"       // the detector panics
	// A daemon's scan ignores its cancellation for a minute, as gitleaks
	// does inside one rule over an adversarial text.
	stallStubborn = "STALL-STUBBORN"
)

// failServe makes daemons fail to build their detector (not a config
// error: they exit).
const failServe = "GEMINI_GUARD_SCANNER_TEST_FAIL_SERVE"

// logLine appends "<what> <pid>" to the test's log.
func logLine(what string) {
	if path := os.Getenv(logVar); path != "" {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
		if err == nil {
			f.WriteString(what + " " + strconv.Itoa(os.Getpid()) + "\n")
			f.Close()
		}
	}
}

func testBuild(mode string) server.Build {
	return func(opts secrets.Options) (server.Detector, error) {
		logLine(mode)
		if mode == "serve" && os.Getenv(failServe) == "1" {
			return nil, errors.New("test: no detector for daemons")
		}
		d := testDetector{daemon: mode == "serve"}
		if !slices.Contains(opts.DisabledRules, "test-rule") {
			d.words = map[string]string{secretWord: "test-rule"}
		} else {
			d.words = map[string]string{}
		}
		if opts.ConfigPath != "" {
			data, err := os.ReadFile(opts.ConfigPath)
			if err == nil && strings.HasPrefix(string(data), "broken") {
				err = errors.New("line 1: expected a table")
			}
			if err != nil {
				return nil, &secrets.ConfigError{Path: opts.ConfigPath, Err: err}
			}
			for _, w := range strings.Fields(string(data)) {
				d.words[w] = "config-rule"
			}
		}
		return d, nil
	}
}

type testDetector struct {
	words  map[string]string // word -> rule id
	daemon bool
}

func (d testDetector) Scan(ctx context.Context, text string) []secrets.Finding {
	if strings.Contains(text, stallAlways) || (d.daemon && strings.Contains(text, stallInDaemon)) {
		logLine("stalling")
		<-ctx.Done()
		// Why it stopped: "canceled" (the daemon saw its client hang up) or
		// "deadline" (a time limit passed).
		why := "canceled"
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			why = "deadline"
		}
		logLine("stopped-" + why)
		return nil
	}
	if d.daemon && strings.Contains(text, stallStubborn) {
		logLine("stalling")
		time.Sleep(time.Minute)
		return nil
	}
	if strings.Contains(text, panicWord) {
		panic("test detector: " + text)
	}
	return findWords(text, d.words)
}

// findWords is the test detector's answer, also the tests' expectation.
func findWords(text string, words map[string]string) []secrets.Finding {
	var out []secrets.Finding
	for w, rule := range words {
		for from := 0; ; {
			i := strings.Index(text[from:], w)
			if i < 0 {
				break
			}
			start := from + i
			out = append(out, secrets.Finding{
				RuleID: rule, Description: "test " + rule,
				Start: start, End: start + len(w), Line: strings.Count(text[:start], "\n") + 1,
				Secret: w,
			})
			from = start + len(w)
		}
	}
	slices.SortFunc(out, func(a, b secrets.Finding) int { return a.Start - b.Start })
	return out
}

// want is what a scan of text with the default test rule gives.
func want(text string) []secrets.Finding {
	return findWords(text, map[string]string{secretWord: "test-rule"})
}

// env is one test's scanner installation: its own copy of the scanner
// binary, runtime directory and log.
type env struct {
	t      testing.TB
	binary string
	dir    string // runtime directory (not created: the daemon makes it)
	log    string
}

// newEnv sets up an installation; every daemon it started is killed when
// the test ends. Paths are short (os.MkdirTemp, not t.TempDir, whose name
// holds the test's): a unix socket path has at most 103 bytes.
func newEnv(t testing.TB) *env {
	t.Helper()
	base, err := os.MkdirTemp("", "gg")
	require.NoError(t, err)
	e := &env{t: t, binary: filepath.Join(base, "guard-scanner"), dir: filepath.Join(base, "run"), log: filepath.Join(base, "log")}
	t.Cleanup(func() {
		e.killDaemons()
		os.RemoveAll(base)
	})
	self, err := os.Executable()
	require.NoError(t, err)
	copyFile(t, self, e.binary)
	t.Setenv(logVar, e.log)
	return e
}

func copyFile(t testing.TB, from, to string) {
	t.Helper()
	in, err := os.Open(from)
	require.NoError(t, err)
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o755)
	require.NoError(t, err)
	_, err = io.Copy(out, in)
	require.NoError(t, err)
	require.NoError(t, out.Close())
}

func (e *env) client(opts secrets.Options) *scanner.Client {
	return &scanner.Client{Options: opts, Binary: e.binary, Dir: e.dir}
}

// count returns how many scanner processes of mode ("scan", "serve") built
// a detector so far; "proc scan", "proc serve": how many started.
func (e *env) count(mode string) int {
	f, err := os.Open(e.log)
	if errors.Is(err, os.ErrNotExist) {
		return 0
	}
	require.NoError(e.t, err)
	defer f.Close()
	n := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), mode+" ") {
			n++
		}
	}
	return n
}

// socket is the daemon socket for opts.
func (e *env) socket(opts secrets.Options) string {
	e.t.Helper()
	fp, err := scanner.Fingerprint(opts, e.binary)
	require.NoError(e.t, err)
	s, err := scanner.SocketPath(e.dir, fp)
	require.NoError(e.t, err)
	return s
}

// hangGuard bounds every wait: a generous limit, not a timing assertion.
const hangGuard = 30 * time.Second

// waitDaemon waits until a daemon answers on opts' socket.
func (e *env) waitDaemon(opts secrets.Options) {
	e.t.Helper()
	socket := e.socket(opts)
	require.Eventually(e.t, func() bool {
		c, err := net.Dial("unix", socket)
		if err != nil {
			return false
		}
		c.Close()
		return true
	}, hangGuard, 5*time.Millisecond, "no daemon on %s", socket)
}

// daemonPID returns the pid of the daemon holding opts' lock, 0 if none.
func (e *env) daemonPID(opts secrets.Options) int {
	return lockHolder(scanner.LockPath(e.socket(opts)))
}

// lockHolder: see scannertest.LockHolder.
var lockHolder = scannertest.LockHolder

// killDaemons kills every daemon of the runtime directory.
func (e *env) killDaemons() { scannertest.KillDaemons(e.dir) }

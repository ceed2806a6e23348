package redactguard

import (
	"time"

	"github.com/gemini-guard/gemini-guard/internal/hook"
	"github.com/gemini-guard/gemini-guard/internal/redact"
	scan "github.com/gemini-guard/gemini-guard/internal/scanner"
	"github.com/gemini-guard/gemini-guard/internal/secrets"
	"github.com/gemini-guard/gemini-guard/internal/secrets/known"
	"github.com/gemini-guard/gemini-guard/internal/secrets/prefilter"
	"github.com/gemini-guard/gemini-guard/internal/settings"
)

// scanner is gemini-guard's scanner process (internal/scanner) as a
// secrets.Scanner. Most chunks never need it: the redactor asks only when a
// rule's pattern may match.
type scanner struct {
	opts secrets.Options
	// scanner returns the scanner for options (nil: the client).
	scanner func(secrets.Options) secrets.Scanner
	// until bounds the scans of one hook call together (zero: each scan
	// gets the client's default).
	until time.Time
}

func (sc *scanner) with(opts secrets.Options) secrets.Scanner {
	if sc.scanner != nil {
		return sc.scanner(opts)
	}
	var timeout time.Duration
	if !sc.until.IsZero() {
		// At least a tick: a zero Timeout would mean the client's default.
		timeout = max(time.Until(sc.until), time.Millisecond)
	}
	return &scan.Client{Options: opts, Timeout: timeout}
}

// Scan time limits, inside each hook's deadline (hook.AfterModelDeadline,
// hook.AfterToolDeadline) with room to build the answer: a scan that
// fails them is an error, and the hook withholds what it could not check.
// Within them a first call can wait for a new daemon (scan.StartTimeout)
// and fall back to a one-shot scan. An AfterTool hook may scan several
// parts: the limit is for all of them together.
const (
	afterModelScanTimeout = hook.AfterModelDeadline - 300*time.Millisecond
	afterToolScanTimeout  = hook.AfterToolDeadline - 2*time.Second
)

func (sc *scanner) Scan(text string) ([]secrets.Finding, error) {
	// A broken user config: the built-in rules still apply (the
	// session-start hook tells the user about the file).
	found, _, err := secrets.ScanOrBuiltin(sc.with, sc.opts, text)
	if err != nil {
		return nil, err
	}
	return found, nil
}

// newRedactor is the redactor for settings s in workspace cwd: the rules in
// force are watched, and the scanner is asked only when one matches. When
// the user's gitleaks config does not load, the built-in rules still apply
// (as in the secrets guard) and the config's error is returned beside them.
func newRedactor(s settings.Settings, cwd, sessionID string, e Env) (*redact.Redactor, error) {
	opts := secrets.ScanOptions(s, cwd)
	rules, cfgErr := prefilter.WatchRules(opts.ConfigPath)
	if cfgErr != nil {
		rules, opts.ConfigPath = prefilter.BuiltinRules(), ""
	}
	return &redact.Redactor{
		Watch:   prefilter.NewWatch(rules, s.DisabledRules),
		Scanner: &scanner{opts: opts, scanner: e.Scanner, until: scanUntil(e)},
		Marker:  marker(s),
		Known:   knownValues(s, cwd, sessionID, e),
	}, cfgErr
}

// knownValues are the user's secrets known by value in this call: the
// environment's, the workspace's .env files', the credential files' and
// those learnt from tool output earlier in the session.
func knownValues(s settings.Settings, cwd, sessionID string, e Env) *known.Set {
	var environ []string
	if e.Environ != nil {
		environ = e.Environ()
	}
	return known.Load(known.Sources{Environ: environ, Home: e.Getenv("HOME"), Cwd: cwd, StateDir: e.StateDir, SessionID: sessionID, DisabledRules: s.DisabledRules})
}

// scanUntil is when the scans of this call must be done: ScanTimeout after
// the call's start.
func scanUntil(e Env) time.Time {
	if e.ScanTimeout <= 0 {
		return time.Time{}
	}
	start := e.Start
	if start.IsZero() {
		start = time.Now()
	}
	return start.Add(e.ScanTimeout)
}

func marker(s settings.Settings) func(string) string {
	if s.MarkerRule {
		return redact.RuleMarker
	}
	return redact.PlainMarker
}

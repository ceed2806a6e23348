// Package audit writes gemini-guard's optional decision log: one JSON object
// per line (JSONL), size-bounded with rotation, readable by `gemini-guard log`.
//
// The log never holds a secret. Entries carry rule ids, decisions and a
// preview that the guard has already masked (verdict.Verdict.Fragment is
// masked by contract); Record folds and truncates the preview once more so a
// line stays short. Writing the log never fails a hook: every error is
// swallowed, and a panic inside Record is recovered.
//
// Several hook processes write at once (Gemini CLI runs the hooks of one
// event in parallel): each line is one write(2) on a file opened with
// O_APPEND, so lines never interleave. Rotation renames files; two writers
// rotating at the same moment can at worst rotate twice, dropping the oldest
// file early, which keeps the log bounded.
package audit

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gemini-guard/gemini-guard/internal/jsonenc"
	"github.com/gemini-guard/gemini-guard/internal/settings"
	"github.com/gemini-guard/gemini-guard/internal/verdict"
)

// Defaults for the log that Record writes.
const (
	// MaxSize is the size at which the log is rotated: 5 MiB.
	MaxSize = 5 << 20
	// Keep is how many rotated files (audit.jsonl.1, .2) are kept.
	Keep = 2
	// MaxPreview is how many characters of a preview a line keeps.
	MaxPreview = 160
	// maxLine bounds one line; an entry over it loses its preview.
	maxLine = 4 << 10
)

// Entry is one decision.
type Entry struct {
	// Time is when the decision was made; Record fills the zero time with
	// the current time.
	Time time.Time `json:"time"`
	// Session is Gemini CLI's session_id.
	Session string `json:"session,omitempty"`
	// Hook is the event: BeforeTool, AfterTool or AfterModel.
	Hook string `json:"hook"`
	// Guard is the guard that decided: shell, secrets or redact.
	Guard string `json:"guard,omitempty"`
	// Tool is the tool's name (run_shell_command, write_file, ...), "" for
	// AfterModel.
	Tool string `json:"tool,omitempty"`
	// Rules are the ids of the rules that decided, in order.
	Rules []string `json:"rules,omitempty"`
	// Decision is allow, deny, warn (a deny let through in warn mode),
	// rewrite or redact.
	Decision string `json:"decision"`
	// Mode is the guard's mode (standard, strict, warn).
	Mode string `json:"mode,omitempty"`
	// Cwd is the workspace of the session.
	Cwd string `json:"cwd,omitempty"`
	// Preview is a short, already masked excerpt of what was decided on
	// (for a command: the command with every secret masked). Never put raw
	// tool input here: build it with Preview or take a verdict's Fragment.
	Preview string `json:"preview,omitempty"`
}

// Blocked reports whether e stopped something or would have in warn mode.
func (e Entry) Blocked() bool { return e.Decision == "deny" || e.Decision == "warn" }

// FromVerdict returns e with Decision, Rules and Preview taken from v. With
// warnOnly (warn mode) a deny is recorded as "warn": it was let through.
// A zero v records an allow with no rule.
func FromVerdict(e Entry, v verdict.Verdict, warnOnly bool) Entry {
	e.Decision = v.Action.String()
	if v.Action == verdict.Deny && warnOnly {
		e.Decision = "warn"
	}
	e.Rules = nil
	if v.RuleID != "" {
		e.Rules = []string{v.RuleID}
	}
	e.Preview = v.Fragment
	return e
}

// Preview returns text with every occurrence of each secret replaced by
// verdict.Mask(secret), on one line, cut to MaxPreview characters. Empty
// secrets are skipped. Longer secrets are masked first so a secret that
// contains another is not half-masked.
func Preview(text string, secrets ...string) string {
	sorted := append([]string(nil), secrets...)
	// Longest first: a short secret inside a long one must not leave the
	// rest of the long one readable.
	for i := 1; i < len(sorted); i++ {
		for j := i; j > 0 && len(sorted[j]) > len(sorted[j-1]); j-- {
			sorted[j], sorted[j-1] = sorted[j-1], sorted[j]
		}
	}
	for _, s := range sorted {
		if s != "" {
			text = strings.ReplaceAll(text, s, verdict.Mask(s))
		}
	}
	return verdict.Truncate(strings.Join(strings.Fields(text), " "), MaxPreview)
}

// Path is the log file the settings ask for, or "" when the log is off:
//
//   - AuditLog "" (off): "".
//   - "on": $XDG_STATE_HOME/gemini-guard/audit.jsonl, or
//     $HOME/.local/state/gemini-guard/audit.jsonl; "" when neither variable
//     is set.
//   - a path: "~/" is expanded with $HOME; a relative path is taken from the
//     state directory (never from the workspace, which the agent controls).
func Path(s settings.Settings, getenv func(string) string) string {
	switch s.AuditLog {
	case "":
		return ""
	case "on":
		dir := StateDir(getenv)
		if dir == "" {
			return ""
		}
		return filepath.Join(dir, "audit.jsonl")
	}
	p := s.AuditLog
	if home := getenv("HOME"); home != "" && (p == "~" || strings.HasPrefix(p, "~/")) {
		return filepath.Join(home, p[1:])
	}
	if filepath.IsAbs(p) {
		return p
	}
	dir := StateDir(getenv)
	if dir == "" {
		return ""
	}
	return filepath.Join(dir, p)
}

// StateDir is gemini-guard's directory for state that is not configuration:
// $XDG_STATE_HOME/gemini-guard or $HOME/.local/state/gemini-guard, "" when
// neither variable is set. A relative XDG_STATE_HOME is ignored, as the XDG
// specification asks.
func StateDir(getenv func(string) string) string {
	if x := getenv("XDG_STATE_HOME"); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, "gemini-guard")
	}
	if home := getenv("HOME"); home != "" {
		return filepath.Join(home, ".local", "state", "gemini-guard")
	}
	return ""
}

// Record appends e to the log at path with the default limits. It does
// nothing when path is "", and never fails or panics: a log that cannot be
// written is skipped.
func Record(path string, e Entry) {
	Log{Path: path}.Record(e)
}

// Log is a log file with its limits. The zero limits mean the defaults.
type Log struct {
	// Path is the file; "" disables the log.
	Path string
	// MaxSize is the rotation size in bytes (0: MaxSize).
	MaxSize int64
	// Keep is the number of rotated files (0: Keep).
	Keep int
}

// Record appends e as one line, rotating first when the line would take the
// file over MaxSize. The directory is created 0700 and the file 0600. Errors
// are dropped: see the package comment.
func (l Log) Record(e Entry) {
	defer func() { _ = recover() }()
	_ = l.record(e)
}

func (l Log) record(e Entry) error {
	if l.Path == "" {
		return nil
	}
	if e.Time.IsZero() {
		e.Time = time.Now()
	}
	e.Time = e.Time.UTC()
	line, err := encode(e)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(l.Path), 0o700); err != nil {
		return err
	}
	if info, err := os.Stat(l.Path); err == nil && info.Size()+int64(len(line)) > l.maxSize() {
		l.rotate()
	}
	f, err := os.OpenFile(l.Path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(line)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// encode is e as one JSON line of at most maxLine bytes.
func encode(e Entry) ([]byte, error) {
	e.Preview = verdict.Truncate(strings.Join(strings.Fields(e.Preview), " "), MaxPreview)
	line, err := marshal(e)
	if err != nil {
		return nil, err
	}
	if len(line) > maxLine {
		e.Preview = ""
		e.Cwd = verdict.Truncate(e.Cwd, 200)
		if len(e.Rules) > 20 {
			e.Rules = append(e.Rules[:20:20], "…")
		}
		if line, err = marshal(e); err != nil {
			return nil, err
		}
	}
	return line, nil
}

func marshal(e Entry) ([]byte, error) {
	var buf bytes.Buffer
	if err := jsonenc.NewEncoder(&buf).Encode(e); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// rotate shifts audit.jsonl.(k-1) to .k, ..., audit.jsonl to .1.
func (l Log) rotate() {
	keep := l.keep()
	os.Remove(fmt.Sprintf("%s.%d", l.Path, keep))
	for i := keep - 1; i >= 1; i-- {
		os.Rename(fmt.Sprintf("%s.%d", l.Path, i), fmt.Sprintf("%s.%d", l.Path, i+1))
	}
	os.Rename(l.Path, l.Path+".1")
}

func (l Log) maxSize() int64 {
	if l.MaxSize > 0 {
		return l.MaxSize
	}
	return MaxSize
}

func (l Log) keep() int {
	if l.Keep > 0 {
		return l.Keep
	}
	return Keep
}

// Read returns the last n entries (all when n <= 0) for which keep returns
// true (every entry when keep is nil), oldest first, from the rotated files
// and then the current one. Lines that are not valid entries are skipped. A
// missing log is no error: it returns no entries.
func (l Log) Read(n int, keep func(Entry) bool) ([]Entry, error) {
	if l.Path == "" {
		return nil, errors.New("audit: the log is off")
	}
	var files []string
	for i := l.keep(); i >= 1; i-- {
		files = append(files, fmt.Sprintf("%s.%d", l.Path, i))
	}
	files = append(files, l.Path)
	var out []Entry
	for _, name := range files {
		f, err := os.Open(name)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return out, fmt.Errorf("audit: %w", err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
		for sc.Scan() {
			var e Entry
			if json.Unmarshal(sc.Bytes(), &e) != nil || e.Decision == "" {
				continue
			}
			if keep == nil || keep(e) {
				out = append(out, e)
				if n > 0 && len(out) > 2*n {
					out = append(out[:0:0], out[len(out)-n:]...)
				}
			}
		}
		err = sc.Err()
		f.Close()
		if err != nil {
			return out, fmt.Errorf("audit: %s: %w", name, err)
		}
	}
	if n > 0 && len(out) > n {
		out = out[len(out)-n:]
	}
	return out, nil
}

// Package edit computes what a file will hold after a write_file or replace
// call, and which secrets found in it are new.
//
// The secrets guard must judge the file as it will be, not the model's
// fragment: a replace can complete a secret across the edit boundary, and a
// secret that is already in the file must not block an unrelated edit. Edit
// knows Gemini CLI 0.61's replace semantics (exact match, CRLF in old_string
// normalised, every occurrence with allow_multiple, one otherwise) and reads
// files with a size bound. It never writes.
package edit

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/secrets"
)

// Outcome says how a replace applies to the current file.
type Outcome int

const (
	// Applied: old_string was found (once, or any number of times with
	// allow_multiple) and the result is the edited file.
	Applied Outcome = iota
	// Created: the file does not exist and old_string is empty, so Gemini
	// CLI creates it with new_string.
	Created
	// NotFound: old_string does not occur exactly. Gemini CLI then tries
	// whitespace-tolerant and fuzzy matches that cannot be reproduced here,
	// so only new_string is judged.
	NotFound
	// Ambiguous: old_string occurs several times without allow_multiple;
	// the tool will fail. Only new_string is judged.
	Ambiguous
	// Missing: the file does not exist and old_string is not empty; the
	// tool will fail. Only new_string is judged.
	Missing
	// NoOp: old_string is empty on an existing file; the tool will fail.
	// Only new_string is judged.
	NoOp
)

// String names the outcome as the user's note says it.
func (o Outcome) String() string {
	switch o {
	case Applied:
		return "applied"
	case Created:
		return "created"
	case NotFound:
		return "old_string not found"
	case Ambiguous:
		return "old_string ambiguous"
	case Missing:
		return "file missing"
	case NoOp:
		return "empty old_string"
	}
	return fmt.Sprintf("Outcome(%d)", int(o))
}

// Result is the text to scan for one write or edit.
type Result struct {
	// After is the text to scan: the whole file after the call, or only
	// new_string when the edit cannot be applied here (see Outcome).
	After string
	// Before is the file's current content ("" when it does not exist),
	// the reference for which secrets are new.
	Before string
	// Outcome is how a replace applied; write_file is always Applied.
	Outcome Outcome
	// Changed are the byte ranges of After that the call wrote (the whole
	// of After when only new_string is judged). A new secret must overlap
	// one of them.
	Changed []Span
}

// Span is a byte range [Start, End).
type Span struct{ Start, End int }

// MaxFile is the most bytes of a current file Read loads. A larger file is
// read up to MaxFile and reported as truncated.
const MaxFile = 16 << 20

// Resolve returns the absolute, cleaned path of a tool's file_path: taken
// from cwd when relative, as Gemini CLI does. "" gives "".
func Resolve(cwd, path string) string {
	if path == "" {
		return ""
	}
	if !filepath.IsAbs(path) {
		path = filepath.Join(cwd, path)
	}
	return filepath.Clean(path)
}

// Read returns the current content of the file at path (absolute), at most
// MaxFile bytes. A missing file gives exists false and no error; a path
// that is a directory or unreadable gives an error. truncated reports that
// the file is larger than MaxFile.
func Read(path string) (content string, exists, truncated bool, err error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", false, false, nil
	}
	if err != nil {
		return "", false, false, err
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.IsDir() {
		return "", true, false, fmt.Errorf("%s is a directory", filepath.Base(path))
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxFile+1))
	if err != nil {
		return "", true, false, err
	}
	if len(data) > MaxFile {
		return string(data[:MaxFile]), true, true, nil
	}
	return string(data), true, false, nil
}

// Write is a write_file call: the file becomes content.
func Write(before, content string) Result {
	return Result{After: content, Before: before, Outcome: Applied, Changed: []Span{{0, len(content)}}}
}

// Replace is a replace call on a file whose current content is before
// (exists false when there is no file), as Gemini CLI 0.61 applies it:
// old_string and new_string have CRLF normalised to LF; an exact match is
// replaced once, or everywhere with allowMultiple; a file that had (or had
// not) a trailing newline keeps (or does not get) one.
func Replace(before string, exists bool, oldString, newString string, allowMultiple bool) Result {
	oldN := strings.ReplaceAll(oldString, "\r\n", "\n")
	newN := strings.ReplaceAll(newString, "\r\n", "\n")
	alone := func(o Outcome) Result {
		return Result{After: newString, Before: before, Outcome: o, Changed: []Span{{0, len(newString)}}}
	}
	switch {
	case !exists && oldN == "":
		return Result{After: newString, Before: "", Outcome: Created, Changed: []Span{{0, len(newString)}}}
	case !exists:
		return alone(Missing)
	case oldN == "":
		return alone(NoOp)
	}
	n := strings.Count(before, oldN)
	switch {
	case n == 0:
		return alone(NotFound)
	case n > 1 && !allowMultiple:
		return alone(Ambiguous)
	}
	var b strings.Builder
	b.Grow(len(before) + n*(len(newN)-len(oldN)))
	var changed []Span
	rest := before
	for {
		i := strings.Index(rest, oldN)
		if i < 0 {
			break
		}
		b.WriteString(rest[:i])
		changed = append(changed, Span{b.Len(), b.Len() + len(newN)})
		b.WriteString(newN)
		rest = rest[i+len(oldN):]
	}
	b.WriteString(rest)
	after := restoreTrailingNewline(before, b.String())
	for i := range changed {
		changed[i].End = min(changed[i].End, len(after))
		changed[i].Start = min(changed[i].Start, changed[i].End)
	}
	return Result{After: after, Before: before, Outcome: Applied, Changed: changed}
}

// restoreTrailingNewline is Gemini CLI's rule: the edited file ends with a
// newline exactly when the original did.
func restoreTrailingNewline(original, modified string) string {
	had := strings.HasSuffix(original, "\n")
	switch {
	case had && !strings.HasSuffix(modified, "\n"):
		return modified + "\n"
	case !had && strings.HasSuffix(modified, "\n"):
		return strings.TrimSuffix(modified, "\n")
	}
	return modified
}

// Window returns the part of r.After worth scanning: every changed span
// widened by context bytes on each side to whole lines, merged. A secret
// that is new must overlap a changed span, and one completed across the
// edit boundary lies within context of it, so scanning the window finds
// every new secret of a small edit to a large file. The spans are of
// r.After, in order, not overlapping; context <= 0 still widens to lines.
func (r Result) Window(context int) []Span {
	var out []Span
	for _, c := range r.Changed {
		s := lineStart(r.After, max(0, c.Start-context))
		e := lineEnd(r.After, min(len(r.After), c.End+context))
		if n := len(out); n > 0 && s <= out[n-1].End {
			out[n-1].End = max(out[n-1].End, e)
			continue
		}
		out = append(out, Span{s, e})
	}
	return out
}

func lineStart(s string, i int) int {
	if j := strings.LastIndexByte(s[:i], '\n'); j >= 0 {
		return j + 1
	}
	return 0
}

func lineEnd(s string, i int) int {
	if j := strings.IndexByte(s[i:], '\n'); j >= 0 {
		return i + j + 1
	}
	return len(s)
}

// New returns the findings of after that are new with respect to before:
// those whose secret (or, for a decoded one, its encoded text) does not
// already occur in before. A secret the file already holds does not block
// an edit that moves or keeps it.
func New(findings []secrets.Finding, after, before string) []secrets.Finding {
	var out []secrets.Finding
	for _, f := range findings {
		if before != "" {
			if f.Secret != "" && strings.Contains(before, f.Secret) {
				continue
			}
			if f.Decoded && f.Start < f.End && f.End <= len(after) && strings.Contains(before, after[f.Start:f.End]) {
				continue
			}
		}
		out = append(out, f)
	}
	return out
}

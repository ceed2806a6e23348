// Package edit computes what a file will hold after a write_file or replace
// call, and which secrets found in it are new.
//
// The secrets guard must judge the file as it will be, not the model's
// fragment: a replace can complete a secret across the edit boundary, and a
// secret that is already in the file must not block an unrelated edit. Edit
// applies replace as Gemini CLI 0.61's edit tool does (CRLF normalised, then
// its exact, flexible, regex and fuzzy strategies; see Replace) and reads
// files with a size bound. It never writes.
package edit

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"unicode/utf16"

	"github.com/gemini-guard/gemini-guard/internal/bounded"
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
	// NotFound: none of the tool's strategies matches old_string. The tool
	// may then ask the model to correct the edit, which cannot be
	// reproduced here, so only new_string is judged.
	NotFound
	// Ambiguous: old_string matches several times without allow_multiple;
	// the tool will fail. Only new_string is judged.
	Ambiguous
	// Missing: the file does not exist and old_string is not empty; the
	// tool will fail. Only new_string is judged.
	Missing
	// NoOp: old_string is empty on an existing file, or equal to
	// new_string; the tool will fail. Only new_string is judged.
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
	data, truncated, err := bounded.ReadAny(path, MaxFile)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", false, false, nil
	case errors.Is(err, bounded.ErrDirectory):
		return "", true, false, fmt.Errorf("%s is a directory", filepath.Base(path))
	case err != nil:
		return "", true, false, err
	}
	return string(data), true, truncated, nil
}

// Write is a write_file call: the file becomes content.
func Write(before, content string) Result {
	return Result{After: content, Before: before, Outcome: Applied, Changed: []Span{{0, len(content)}}}
}

// Replace is a replace call on a file whose current content is before
// (exists false when there is no file), as Gemini CLI 0.61's edit tool
// (packages/core/src/tools/edit.ts, calculateEdit) applies it:
//
//   - the file's CRLF line endings are normalised to LF (the tool writes
//     them back afterwards, which changes no secret), and so are
//     old_string's and new_string's;
//   - then the first strategy that matches: exact (every occurrence; more
//     than one without allow_multiple fails), flexible (lines equal after
//     trimming, re-indented like the match), regex (old_string's tokens
//     with any whitespace between, at a line start) and fuzzy (line
//     windows within a weighted Levenshtein distance of 10%);
//   - a file that had (or had not) a trailing newline keeps (or does not
//     get) one.
//
// When no strategy applies, or the tool would fail, the outcome says why
// and only new_string is judged (the tool may still ask the model to
// correct the edit). Changed is ONE span, from the first to the last byte
// that differs from the normalised file: however many places the edit
// touches, the result is scanned once.
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
	current := strings.ReplaceAll(before, "\r\n", "\n")
	after, n, ok := exact(current, oldN, newN, allowMultiple)
	if !ok {
		after, n, ok = flexible(current, oldN, newN, newString)
	}
	if !ok {
		after, n, ok = byTokens(current, oldN, newN, allowMultiple)
	}
	if !ok {
		after, n, ok = fuzzy(current, oldString, oldN, newN)
	}
	switch {
	case !ok:
		return alone(NotFound)
	case n > 1 && !allowMultiple:
		return alone(Ambiguous)
	case oldN == newN:
		return alone(NoOp)
	}
	after = restoreTrailingNewline(current, after)
	return Result{After: after, Before: before, Outcome: Applied, Changed: []Span{differing(current, after)}}
}

// differing is the span of after that differs from before: after minus the
// longest common prefix and suffix.
func differing(before, after string) Span {
	p := 0
	for p < len(before) && p < len(after) && before[p] == after[p] {
		p++
	}
	s := 0
	for s < len(before)-p && s < len(after)-p && before[len(before)-1-s] == after[len(after)-1-s] {
		s++
	}
	return Span{p, len(after) - s}
}

// exact is the exact strategy: occurrences of old; with several and no
// allowMultiple the tool fails (n > 1 is returned without a result).
func exact(current, old, new string, allowMultiple bool) (string, int, bool) {
	n := strings.Count(current, old)
	if n == 0 {
		return "", 0, false
	}
	if n > 1 && !allowMultiple {
		return "", n, true
	}
	return strings.ReplaceAll(current, old, new), n, true
}

// lines splits s after each newline, as JavaScript's
// s.match(/.*(?:\n|$)/g).slice(0, -1) does for text without lone CRs.
func lines(s string) []string {
	l := strings.SplitAfter(s, "\n")
	if len(l) > 0 && l[len(l)-1] == "" {
		l = l[:len(l)-1]
	}
	return l
}

// jsSpace is JavaScript's \s and String.prototype.trim's white space.
func jsSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff:
		return true
	}
	return r >= 0x2000 && r <= 0x200a
}

func trimJS(s string) string { return strings.TrimFunc(s, jsSpace) }

// leadingIndent is the run of spaces and tabs s starts with.
func leadingIndent(s string) string {
	return s[:len(s)-len(strings.TrimLeft(s, " \t"))]
}

// applyIndentation re-indents lines so that the first one has indent, as
// the tool does (blank lines become empty).
func applyIndentation(ls []string, indent string) []string {
	if len(ls) == 0 {
		return nil
	}
	ref := leadingIndent(ls[0])
	out := make([]string, len(ls))
	for i, l := range ls {
		switch {
		case trimJS(l) == "":
			out[i] = ""
		case strings.HasPrefix(l, ref):
			out[i] = indent + l[len(ref):]
		default:
			out[i] = indent + strings.TrimLeftFunc(l, jsSpace)
		}
	}
	return out
}

// flexible is the flexible strategy: windows of lines equal to old's lines
// once both are trimmed, every one replaced by new re-indented like the
// window's first line.
func flexible(current, old, new, rawNew string) (string, int, bool) {
	src := lines(current)
	search := strings.Split(old, "\n")
	for i := range search {
		search[i] = trimJS(search[i])
	}
	repl := strings.Split(new, "\n")
	// The tool splices each replacement into its line array and goes on
	// with the line after it, so no window ever holds a replacement: one
	// pass over the original lines is the same, without the splices' cost.
	var out strings.Builder
	n := 0
	i := 0
	for ; i <= len(src)-len(search); i++ {
		match := true
		for j, s := range search {
			if trimJS(src[i+j]) != s {
				match = false
				break
			}
		}
		if !match {
			out.WriteString(src[i])
			continue
		}
		n++
		text := strings.Join(applyIndentation(repl, leadingIndent(src[i])), "\n")
		if rawNew != "" && strings.HasSuffix(src[i+len(search)-1], "\n") && !strings.HasSuffix(text, "\n") {
			text += "\n"
		}
		out.WriteString(text)
		i += len(search) - 1
	}
	if n == 0 {
		return "", 0, false
	}
	for ; i < len(src); i++ {
		out.WriteString(src[i])
	}
	return out.String(), n, true
}

// byTokens is the regex strategy: old split into tokens (white space
// separated, with ( ) : [ ] { } > < = as tokens of their own), matched
// with any white space between them from the start of a line; the first
// match is replaced, or every one with allowMultiple.
func byTokens(current, old, new string, allowMultiple bool) (string, int, bool) {
	spaced := old
	for _, d := range []string{"(", ")", ":", "[", "]", "{", "}", ">", "<", "="} {
		spaced = strings.ReplaceAll(spaced, d, " "+d+" ")
	}
	tokens := strings.FieldsFunc(spaced, jsSpace)
	if len(tokens) == 0 {
		return "", 0, false
	}
	for i, t := range tokens {
		tokens[i] = regexp.QuoteMeta(t)
	}
	const ws = `[\t\n\v\f\r \x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}]*`
	re, err := regexp.Compile(`(?m)^([ \t]*)` + strings.Join(tokens, ws))
	if err != nil {
		return "", 0, false // too large for RE2: judged as not applied
	}
	all := re.FindAllStringSubmatchIndex(current, -1)
	if len(all) == 0 {
		return "", 0, false
	}
	if !allowMultiple {
		all = all[:1]
	}
	newLines := strings.Split(new, "\n")
	var b strings.Builder
	prev := 0
	for _, m := range all {
		b.WriteString(current[prev:m[0]])
		b.WriteString(strings.Join(applyIndentation(newLines, current[m[2]:m[3]]), "\n"))
		prev = m[1]
	}
	b.WriteString(current[prev:])
	return b.String(), len(re.FindAllStringIndex(current, -1)), true
}

// Fuzzy matching constants of the tool.
const (
	fuzzyThreshold    = 0.1
	whitespacePenalty = 0.1
	fuzzyBudget       = 4e8
)

// fuzzy is the fuzzy strategy: windows of as many lines as old whose
// trimmed-right text is within a Levenshtein distance of 10% of old's
// (white space differences weigh a tenth), best first, not overlapping.
// Lengths are counted in UTF-16 code units, as JavaScript does; the tool
// gives up when lines × len(old)² exceeds 4e8, and so does this.
func fuzzy(current, rawOld, old, new string) (string, int, bool) {
	oldLen := utf16Len(rawOld)
	if oldLen < 10 {
		return "", 0, false
	}
	src := lines(current)
	if float64(len(src))*float64(oldLen)*float64(oldLen) > fuzzyBudget {
		return "", 0, false
	}
	search := lines(old)
	if len(search) == 0 {
		return "", 0, false
	}
	for i := range search {
		search[i] = strings.TrimRightFunc(search[i], jsSpace)
	}
	block := utf16.Encode([]rune(strings.Join(search, "\n")))
	if len(block) == 0 {
		return "", 0, false
	}
	blockStripped := utf16.Encode([]rune(stripSpace(strings.Join(search, "\n"))))
	type cand struct {
		index int
		score float64
	}
	var cands []cand
	n := len(search)
	for i := 0; i <= len(src)-n; i++ {
		w := make([]string, n)
		for j := range w {
			w[j] = strings.TrimRightFunc(src[i+j], jsSpace)
		}
		text := strings.Join(w, "\n")
		wt := utf16.Encode([]rune(text))
		diff := len(wt) - len(block)
		if diff < 0 {
			diff = -diff
		}
		if float64(diff)/float64(len(block)) > fuzzyThreshold/whitespacePenalty {
			continue
		}
		// score <= threshold needs norm <= limit/0.9 whatever raw is, so
		// the stripped distance is computed within that band first and
		// most windows stop there.
		limit := fuzzyThreshold * float64(len(block))
		norm := levenshteinWithin(utf16.Encode([]rune(stripSpace(text))), blockStripped, int(limit/(1-whitespacePenalty))+1)
		if float64(norm)*(1-whitespacePenalty) > limit {
			continue
		}
		raw := levenshteinWithin(wt, block, norm+int((limit-float64(norm))/whitespacePenalty)+1)
		score := (float64(norm) + float64(raw-norm)*whitespacePenalty) / float64(len(block))
		if score <= fuzzyThreshold {
			cands = append(cands, cand{i, score})
		}
	}
	if len(cands) == 0 {
		return "", 0, false
	}
	sort.SliceStable(cands, func(a, b int) bool {
		if cands[a].score != cands[b].score {
			return cands[a].score < cands[b].score
		}
		return cands[a].index < cands[b].index
	})
	// Best first, skipping any within n lines of one already chosen.
	taken := make([]bool, len(src))
	var chosen []int
	for _, c := range cands {
		overlaps := false
		for k := max(0, c.index-n+1); k < min(len(src), c.index+n); k++ {
			if taken[k] {
				overlaps = true
				break
			}
		}
		if !overlaps {
			taken[c.index] = true
			chosen = append(chosen, c.index)
		}
	}
	sort.Ints(chosen)
	newLines := strings.Split(new, "\n")
	var out strings.Builder
	prev := 0
	for _, at := range chosen {
		for _, l := range src[prev:at] {
			out.WriteString(l)
		}
		text := strings.Join(applyIndentation(newLines, leadingIndent(src[at])), "\n")
		if strings.HasSuffix(src[at+n-1], "\n") {
			text += "\n"
		}
		out.WriteString(text)
		prev = at + n
	}
	for _, l := range src[prev:] {
		out.WriteString(l)
	}
	return out.String(), len(chosen), true
}

func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

func stripSpace(s string) string {
	return strings.Map(func(r rune) rune {
		if jsSpace(r) {
			return -1
		}
		return r
	}, s)
}

// levenshteinWithin is the edit distance between a and b when it is at
// most c, and some value above c otherwise: only cells within c of the
// diagonal are computed (Ukkonen), so a far window costs O(len × c).
func levenshteinWithin(a, b []uint16, c int) int {
	if len(a) < len(b) {
		a, b = b, a
	}
	if len(a)-len(b) > c {
		return c + 1
	}
	const far = int(^uint(0) >> 2)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = far
		if j <= c {
			prev[j] = j
		}
	}
	for i := 1; i <= len(a); i++ {
		lo, hi := max(1, i-c), min(len(b), i+c)
		if lo > 1 {
			cur[lo-1] = far
		} else {
			cur[0] = i
		}
		best := cur[lo-1]
		for j := lo; j <= hi; j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			best = min(best, cur[j])
		}
		if hi < len(b) {
			cur[hi+1] = far
		}
		if best > c {
			return c + 1
		}
		prev, cur = cur, prev
	}
	return min(prev[len(b)], c+1)
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

// NewSince returns the findings that the scan of the original file
// (prior) did not report: a value already in the file that an edit turns
// into a credential (a keyword added before it) is new, although its text
// was there. New is the cheap first pass; NewSince confirms what New calls
// old.
func NewSince(findings, prior []secrets.Finding) []secrets.Finding {
	had := map[string]bool{}
	for _, p := range prior {
		had[p.Secret] = true
	}
	var out []secrets.Finding
	for _, f := range findings {
		if !had[f.Secret] {
			out = append(out, f)
		}
	}
	return out
}

// Chunk is one edit of a multi-replace: old_string, new_string and
// allow_multiple as Replace takes them.
type Chunk struct {
	OldString     string `json:"old_string"`
	NewString     string `json:"new_string"`
	AllowMultiple bool   `json:"allow_multiple"`
}

// MultiReplace applies chunks one after the other, each to the text the
// ones before it left (Antigravity CLI's multi_replace_file_content). When
// every chunk applies (or changes nothing), After is the file afterwards
// and Changed the span that differs from before. When one does not apply
// here, the file cannot be known: After is then every chunk's new_string,
// one per line, all of it judged new (Outcome is that chunk's).
func MultiReplace(before string, exists bool, chunks []Chunk) Result {
	current, present := before, exists
	for _, c := range chunks {
		r := Replace(current, present, c.OldString, c.NewString, c.AllowMultiple)
		switch {
		case r.Outcome == Applied || r.Outcome == Created:
			current, present = r.After, true
		case r.Outcome == NoOp && c.OldString == c.NewString:
			// changes nothing
		default:
			return allNew(before, chunks, r.Outcome)
		}
	}
	norm := strings.ReplaceAll(before, "\r\n", "\n")
	return Result{After: current, Before: before, Outcome: Applied, Changed: []Span{differing(norm, current)}}
}

// allNew is MultiReplace's result when the file afterwards cannot be known.
func allNew(before string, chunks []Chunk, o Outcome) Result {
	var all strings.Builder
	for _, c := range chunks {
		all.WriteString(c.NewString)
		all.WriteByte('\n')
	}
	return Result{After: all.String(), Before: before, Outcome: o, Changed: []Span{{0, all.Len()}}}
}

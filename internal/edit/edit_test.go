package edit_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/edit"
	"github.com/gemini-guard/gemini-guard/internal/secrets"
)

func TestReplace(t *testing.T) {
	tests := []struct {
		name          string
		before        string
		exists        bool
		old, new      string
		allowMultiple bool
		want          string
		outcome       edit.Outcome
	}{
		{name: "one occurrence", before: "a\nb\nc\n", exists: true, old: "b", new: "B", want: "a\nB\nc\n", outcome: edit.Applied},
		{name: "all with allow_multiple", before: "x y x\n", exists: true, old: "x", new: "z", allowMultiple: true, want: "z y z\n", outcome: edit.Applied},
		{name: "ambiguous without allow_multiple", before: "x y x\n", exists: true, old: "x", new: "NEW", want: "NEW", outcome: edit.Ambiguous},
		{name: "not found", before: "abc\n", exists: true, old: "zzz", new: "NEW", want: "NEW", outcome: edit.NotFound},
		{name: "crlf in old_string normalised", before: "a\nb\n", exists: true, old: "a\r\nb", new: "c\r\nd", want: "c\nd\n", outcome: edit.Applied},
		{name: "keeps missing trailing newline", before: "a\nb", exists: true, old: "b", new: "c\n", want: "a\nc", outcome: edit.Applied},
		{name: "keeps trailing newline", before: "a\nb\n", exists: true, old: "b\n", new: "c", want: "a\nc\n", outcome: edit.Applied},
		{name: "dollar signs are literal", before: "v = 1\n", exists: true, old: "1", new: "$& $1 $$", want: "v = $& $1 $$\n", outcome: edit.Applied},
		{name: "new file", exists: false, old: "", new: "hello", want: "hello", outcome: edit.Created},
		{name: "missing file", exists: false, old: "a", new: "hello", want: "hello", outcome: edit.Missing},
		{name: "empty old_string on existing file", before: "a", exists: true, old: "", new: "hello", want: "hello", outcome: edit.NoOp},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := edit.Replace(tt.before, tt.exists, tt.old, tt.new, tt.allowMultiple)
			assert.Equal(t, tt.want, r.After)
			assert.Equal(t, tt.outcome, r.Outcome)
			assert.Equal(t, tt.before, r.Before)
			require.NotEmpty(t, r.Changed)
			for _, c := range r.Changed {
				assert.True(t, 0 <= c.Start && c.Start <= c.End && c.End <= len(r.After), "span %v", c)
			}
		})
	}
}

func TestReplaceChangedIsOneSpan(t *testing.T) {
	r := edit.Replace("k = OLD; j = OLD\n", true, "OLD", "new-value", true)
	require.Len(t, r.Changed, 1, "one scan however many places")
	assert.Equal(t, "new-value; j = new-value", r.After[r.Changed[0].Start:r.Changed[0].End])
}

// TestReplaceAsTheCLI pins the strategies of Gemini CLI 0.61's edit tool
// (calculateExactReplacement, calculateFlexibleReplacement,
// calculateRegexReplacement, calculateFuzzyReplacement in its bundle).
func TestReplaceAsTheCLI(t *testing.T) {
	tests := []struct {
		name          string
		before        string
		old, new      string
		allowMultiple bool
		want          string
		outcome       edit.Outcome
	}{
		{name: "crlf file, lf old_string", before: "a\r\nkey = 1\r\nb\r\n", old: "key = 1\n", new: "key = 2\n", want: "a\nkey = 2\nb\n", outcome: edit.Applied},
		{name: "flexible: indentation differs", before: "def f():\n    x = 1\n    y = 2\n", old: "x = 1\ny = 2", new: "x = 3\ny = 4", want: "def f():\n    x = 3\n    y = 4\n", outcome: edit.Applied},
		{name: "exact before flexible", before: "a = 1   \nb\n", old: "a = 1", new: "a = 2", want: "a = 2   \nb\n", outcome: edit.Applied},
		{name: "flexible: trailing spaces in old_string", before: "a = 1\nb\n", old: "a = 1  \nb", new: "c", want: "c\n", outcome: edit.Applied},
		{name: "flexible: two matches need allow_multiple", before: "  x\n  x\n", old: " x ", new: "y", want: "y", outcome: edit.Ambiguous},
		{name: "regex: whitespace inside a line", before: "call(a,  b)\nz\n", old: "call( a, b )", new: "call(c)", want: "call(c)\nz\n", outcome: edit.Applied},
		{name: "fuzzy: a typo in old_string", before: "first line here\nconfig_value = 12345\nlast\n", old: "config_valeu = 12345", new: "config_value = 99", want: "first line here\nconfig_value = 99\nlast\n", outcome: edit.Applied},
		{name: "fuzzy needs 10 characters", before: "abcdefg\n", old: "abcdefx", new: "Z", want: "Z", outcome: edit.NotFound},
		{name: "nothing close", before: "alpha\nbeta\n", old: "completely different text", new: "Z", want: "Z", outcome: edit.NotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := edit.Replace(tt.before, true, tt.old, tt.new, tt.allowMultiple)
			assert.Equal(t, tt.outcome, r.Outcome)
			assert.Equal(t, tt.want, r.After)
		})
	}
}

func TestNewSince(t *testing.T) {
	secret := "s3cr3t-" + strings.Repeat("q", 5)
	found := []secrets.Finding{{RuleID: "generic-api-key", Secret: secret}}
	assert.Empty(t, edit.NewSince(found, []secrets.Finding{{RuleID: "generic-api-key", Secret: secret}}))
	assert.Len(t, edit.NewSince(found, nil), 1, "the value was there, but nothing found it: the edit made it a credential")
}

func TestWindow(t *testing.T) {
	var b strings.Builder
	for i := range 1000 {
		fmt.Fprintf(&b, "%05d%s\n", i, strings.Repeat("x", 94)) // 100 bytes per line
	}
	before := b.String()
	r := edit.Replace(before, true, before[50_000:50_099], "CHANGED", false)
	require.Equal(t, edit.Applied, r.Outcome)
	w := r.Window(1000)
	require.Len(t, w, 1)
	assert.LessOrEqual(t, w[0].Start, r.Changed[0].Start-1000)
	assert.GreaterOrEqual(t, w[0].End, r.Changed[0].End+1000)
	assert.True(t, w[0].Start == 0 || r.After[w[0].Start-1] == '\n', "starts at a line")
	assert.True(t, w[0].End == len(r.After) || r.After[w[0].End-1] == '\n', "ends at a line")

	all := edit.Replace(before, true, strings.Repeat("x", 94), "Y", true)
	assert.Len(t, all.Window(10), 1, "adjacent windows merge")
}

func TestNew(t *testing.T) {
	secret := "s3cr3t-" + strings.Repeat("q", 5)
	other := "0ther-" + strings.Repeat("z", 6)
	after := "a=" + secret + "\nb=" + other + "\n"
	found := []secrets.Finding{
		{RuleID: "r", Secret: secret, Start: 2, End: 2 + len(secret)},
		{RuleID: "r", Secret: other, Start: 3 + 2 + len(secret), End: 3 + 2 + len(secret) + len(other)},
	}
	got := edit.New(found, after, "old file with "+secret+" inside\n")
	require.Len(t, got, 1)
	assert.Equal(t, other, got[0].Secret)
	assert.Len(t, edit.New(found, after, ""), 2, "nothing is old in a new file")

	decoded := []secrets.Finding{{RuleID: "r", Secret: "decoded-value", Decoded: true, Start: 2, End: 10}}
	enc := "a=ENCODED!\n"
	assert.Empty(t, edit.New(decoded, enc, "x ENCODED! y"), "the encoded text already there")
}

func TestReadAndResolve(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f.txt")
	require.NoError(t, os.WriteFile(p, []byte("hello"), 0o600))
	assert.Equal(t, p, edit.Resolve(dir, "f.txt"))
	assert.Equal(t, p, edit.Resolve("/elsewhere", p))
	assert.Equal(t, "", edit.Resolve(dir, ""))

	c, exists, trunc, err := edit.Read(p)
	require.NoError(t, err)
	assert.Equal(t, "hello", c)
	assert.True(t, exists)
	assert.False(t, trunc)

	_, exists, _, err = edit.Read(filepath.Join(dir, "missing"))
	assert.NoError(t, err)
	assert.False(t, exists)

	_, _, _, err = edit.Read(dir)
	assert.Error(t, err, "a directory")

	big := filepath.Join(dir, "big")
	require.NoError(t, os.WriteFile(big, make([]byte, edit.MaxFile+10), 0o600))
	c, _, trunc, err = edit.Read(big)
	require.NoError(t, err)
	assert.True(t, trunc)
	assert.Len(t, c, edit.MaxFile)
}

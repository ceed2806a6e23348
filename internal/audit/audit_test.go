package audit

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/settings"
	"github.com/gemini-guard/gemini-guard/internal/verdict"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

// fakeSecret is built at run time so the repository holds no secret literal.
func fakeSecret() string { return "ghp_" + strings.Repeat("A1b2", 9) }

func TestPath(t *testing.T) {
	withLog := func(v string) settings.Settings { s := settings.Default(); s.AuditLog = v; return s }
	cases := []struct {
		name string
		log  string
		env  map[string]string
		want string
	}{
		{"off", "", map[string]string{"HOME": "/home/u"}, ""},
		{"on, XDG", "on", map[string]string{"HOME": "/home/u", "XDG_STATE_HOME": "/xdg"}, "/xdg/gemini-guard/audit.jsonl"},
		{"on, relative XDG ignored", "on", map[string]string{"HOME": "/home/u", "XDG_STATE_HOME": "rel"}, "/home/u/.local/state/gemini-guard/audit.jsonl"},
		{"on, HOME", "on", map[string]string{"HOME": "/home/u"}, "/home/u/.local/state/gemini-guard/audit.jsonl"},
		{"on, no HOME", "on", nil, ""},
		{"absolute", "/var/log/g.jsonl", nil, "/var/log/g.jsonl"},
		{"tilde", "~/logs/g.jsonl", map[string]string{"HOME": "/home/u"}, "/home/u/logs/g.jsonl"},
		{"relative is under the state dir", "g.jsonl", map[string]string{"HOME": "/home/u"}, "/home/u/.local/state/gemini-guard/g.jsonl"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, Path(withLog(c.log), env(c.env)))
		})
	}
}

func TestRecordWritesOneLinePrivately(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state", "gemini-guard")
	path := filepath.Join(dir, "audit.jsonl")
	when := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	Record(path, Entry{Time: when, Session: "s1", Hook: "BeforeTool", Guard: "shell", Tool: "run_shell_command",
		Rules: []string{"fs.rm-root"}, Decision: "deny", Mode: "standard", Preview: "rm -rf /\n  --no-preserve-root"})

	data, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.JSONEq(t, `{"time":"2025-01-02T03:04:05Z","session":"s1","hook":"BeforeTool","guard":"shell","tool":"run_shell_command",
		"rules":["fs.rm-root"],"decision":"deny","mode":"standard","preview":"rm -rf / --no-preserve-root"}`, string(data))
	assert.True(t, strings.HasSuffix(string(data), "}\n"))

	info, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), info.Mode().Perm())
	info, err = os.Stat(dir)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o700), info.Mode().Perm())
}

func TestRecordNeverFails(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	require.NoError(t, os.WriteFile(file, nil, 0o600))
	for name, path := range map[string]string{
		"off":             "",
		"under a file":    filepath.Join(file, "audit.jsonl"),
		"a directory":     t.TempDir(),
		"unreadable root": "/proc/gemini-guard/audit.jsonl",
	} {
		t.Run(name, func(t *testing.T) {
			assert.NotPanics(t, func() { Record(path, Entry{Decision: "deny"}) })
		})
	}
}

func TestRecordFillsTime(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.jsonl")
	before := time.Now().Add(-time.Second)
	Record(path, Entry{Hook: "BeforeTool", Decision: "allow"})
	got, err := Log{Path: path}.Read(0, nil)
	require.NoError(t, err)
	require.Len(t, got, 1)
	assert.True(t, got[0].Time.After(before))
}

func TestRotationKeepsTheLogBounded(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	l := Log{Path: path, MaxSize: 2000, Keep: 2}
	for i := range 300 {
		l.Record(Entry{Hook: "BeforeTool", Decision: "deny", Preview: fmt.Sprintf("command %d", i)})
	}
	for _, name := range []string{path, path + ".1", path + ".2"} {
		info, err := os.Stat(name)
		require.NoError(t, err, name)
		assert.LessOrEqual(t, info.Size(), int64(2000), name)
	}
	assert.NoFileExists(t, path+".3")

	got, err := l.Read(5, nil)
	require.NoError(t, err)
	require.Len(t, got, 5)
	assert.Equal(t, "command 299", got[4].Preview, "newest last")
	assert.Equal(t, "command 295", got[0].Preview)

	all, err := l.Read(0, nil)
	require.NoError(t, err)
	for i := 1; i < len(all); i++ {
		var a, b int
		fmt.Sscanf(all[i-1].Preview, "command %d", &a)
		fmt.Sscanf(all[i].Preview, "command %d", &b)
		require.Equal(t, a+1, b, "rotated files are read in order, with no gap")
	}
}

// Hook processes write at the same time; every line must stay whole. The
// goroutines open the file independently, as separate processes do.
func TestConcurrentWritersKeepLinesWhole(t *testing.T) {
	for name, maxSize := range map[string]int64{"no rotation": 0, "rotating": 20_000} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "audit.jsonl")
			l := Log{Path: path, MaxSize: maxSize, Keep: 2}
			const writers, each = 8, 100
			var wg sync.WaitGroup
			for w := range writers {
				wg.Go(func() {
					for i := range each {
						l.Record(Entry{Hook: "BeforeTool", Decision: "allow", Preview: fmt.Sprintf("w%d-%d %s", w, i, strings.Repeat("x", 100))})
					}
				})
			}
			wg.Wait()
			lines := 0
			for _, name := range []string{path, path + ".1", path + ".2"} {
				f, err := os.Open(name)
				if os.IsNotExist(err) {
					continue
				}
				require.NoError(t, err)
				sc := bufio.NewScanner(f)
				for sc.Scan() {
					var e Entry
					require.NoError(t, json.Unmarshal(sc.Bytes(), &e), "line %q", sc.Text())
					lines++
				}
				f.Close()
			}
			if maxSize == 0 {
				assert.Equal(t, writers*each, lines)
			} else {
				assert.Positive(t, lines)
			}
		})
	}
}

// No secret ever reaches the log: not through a preview built from raw text,
// not through a guard's verdict, not through an oversized entry.
func TestNoSecretReachesTheLog(t *testing.T) {
	secret := fakeSecret()
	short := "sk-" + strings.Repeat("z9", 6)
	path := filepath.Join(t.TempDir(), "audit.jsonl")

	Record(path, Entry{Hook: "BeforeTool", Tool: "run_shell_command", Decision: "deny", Rules: []string{"github-pat"},
		Preview: Preview("curl -H 'Authorization: token "+secret+"' https://api.github.com", secret)})
	Record(path, Entry{Hook: "BeforeTool", Tool: "write_file", Decision: "deny",
		Preview: Preview(strings.Repeat("line\n", 50)+"TOKEN="+secret+"\nOTHER="+short, short, secret)})
	v := verdict.Verdict{Action: verdict.Deny, RuleID: "github-pat", What: "the write adds a GitHub token", Fragment: "TOKEN=" + verdict.Mask(secret)}
	Record(path, FromVerdict(Entry{Hook: "BeforeTool", Tool: "write_file"}, v, true))
	Record(path, Entry{Hook: "AfterModel", Decision: "redact", Preview: Preview(strings.Repeat(secret+" ", 500), secret)})
	// A secret that contains another secret is masked whole.
	Record(path, Entry{Hook: "AfterTool", Decision: "redact", Preview: Preview("x="+secret+short, short, secret+short)})

	data, err := os.ReadFile(path)
	require.NoError(t, err)
	log := string(data)
	assert.Equal(t, 5, strings.Count(log, "\n"))
	for _, s := range []string{secret, short, secret[4:20], short[3:]} {
		assert.NotContains(t, log, s, "the log holds (part of) a secret")
	}
	assert.Contains(t, log, verdict.Mask(secret))

	got, err := Log{Path: path}.Read(0, Entry.Blocked)
	require.NoError(t, err)
	require.Len(t, got, 3)
	assert.Equal(t, "warn", got[2].Decision, "warn mode records the deny as warn")
	assert.Equal(t, []string{"github-pat"}, got[2].Rules)
}

func TestOversizedEntryLosesItsPreview(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	rules := make([]string, 400)
	for i := range rules {
		rules[i] = fmt.Sprintf("rule-%d", i)
	}
	Record(path, Entry{Hook: "BeforeTool", Decision: "deny", Rules: rules, Cwd: strings.Repeat("d", 10_000), Preview: "p"})
	got, err := Log{Path: path}.Read(0, nil)
	require.NoError(t, err)
	require.Len(t, got, 1)
	assert.Empty(t, got[0].Preview)
	assert.Len(t, got[0].Rules, 21)
	data, _ := os.ReadFile(path)
	assert.Less(t, len(data), maxLine)
}

func TestReadSkipsGarbageAndMissingFiles(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	got, err := Log{Path: path}.Read(10, nil)
	require.NoError(t, err)
	assert.Empty(t, got)

	require.NoError(t, os.WriteFile(path, []byte("not json\n{\"decision\":\"deny\",\"hook\":\"BeforeTool\"}\n{}\n{\"decision\":\"allow\"}\n{\"decision\":\"de"), 0o600))
	got, err = Log{Path: path}.Read(0, nil)
	require.NoError(t, err)
	require.Len(t, got, 2)
	got, err = Log{Path: path}.Read(0, Entry.Blocked)
	require.NoError(t, err)
	require.Len(t, got, 1)

	_, err = Log{}.Read(1, nil)
	assert.Error(t, err)
}

func BenchmarkRecord(b *testing.B) {
	path := filepath.Join(b.TempDir(), "audit.jsonl")
	e := Entry{Session: "s", Hook: "BeforeTool", Guard: "shell", Tool: "run_shell_command", Rules: []string{"git.reset-hard"}, Decision: "deny", Preview: "git reset --hard HEAD~3"}
	for b.Loop() {
		Record(path, e)
	}
}

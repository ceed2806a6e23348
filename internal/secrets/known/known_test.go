package known

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gemini-guard/gemini-guard/internal/state"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Values of this test's own making: custom formats no rule knows.
const (
	envToken   = "itk9-Qm3vZr8LpW2xNc7Hd4"
	envPass    = "Pl@in p4ss'word\"$x"
	filePass   = "hunter7-Vx92kQ!zz"
	learntText = "zq81-LMNOP-4471-qqrs"
)

func TestSipHashReferenceVectors(t *testing.T) {
	// The SipHash paper's test vectors (Appendix A and the reference
	// implementation's vectors_sip64): key 00 01 … 0f, message 00 01 … n-1.
	key := make([]byte, 16)
	for i := range key {
		key[i] = byte(i)
	}
	msg := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(i)
		}
		return string(b)
	}
	k := keyFromBytes(key)
	for n, want := range map[int]uint64{0: 0x726fdb47dd0e0e31, 1: 0x74f839c593dc67fd, 2: 0x0d6c8009d9a94f5a, 3: 0x85676696d7fb7e2d,
		4: 0xcf2794e0277187b7, 7: 0xab0200f58b01d137, 8: 0x93f5f5799a932462, 15: 0xa129ca6149be45e5, 16: 0x3f2acc7f57c29bdb} {
		assert.Equal(t, want, sipHash(k.K0, k.K1, msg(n)), "n=%d", n)
	}
}

func TestSecretName(t *testing.T) {
	for _, n := range []string{"GITHUB_TOKEN", "AWS_SECRET_ACCESS_KEY", "INTERNAL_API_TOKEN", "DB_PASSWORD", "SMTP_PASS", "GCP_CREDENTIALS",
		"STRIPE_API_KEY", "CLIENT_SECRET_VALUE", "secret", "MyService_Key", "PGPASSWORD"} {
		assert.True(t, SecretName(n), n)
	}
	for _, n := range []string{"PATH", "HOME", "PWD", "OLDPWD", "SSH_AUTH_SOCK", "AWS_ACCESS_KEY_ID", "STRIPE_PUBLISHABLE_KEY", "JWT_PUBLIC_KEY",
		"TOKEN_FILE", "GOOGLE_APPLICATION_CREDENTIALS_PATH", "GEMINI_GUARD_MODE", "EDITOR", "KEYBOARD"} {
		assert.False(t, SecretName(n), n)
	}
}

func TestOrdinary(t *testing.T) {
	for _, v := range []string{"short", "true", "disabled", "12345678901", "3.14159265", "/usr/local/bin", "~/projects/x", "C:\\Users\\x",
		"https://example.com/path", "password", "Production", "DEVELOPMENT", "changeme123", "${DB_PASSWORD}", "<your-token-here>", "xxxxxxxxxx",
		"k9-ChangeMe-2024", "tokenREDACTED", "correcthorsebatterystaple", strings.Repeat("q7", 200) + "DuMmY"} {
		assert.True(t, Ordinary(v), v)
	}
	for _, v := range []string{envToken, envPass, filePass, learntText, "Tr0ub4dor&3xx", "kQ7!vR2#mZ9x"} {
		assert.False(t, Ordinary(v), v)
	}
}

func TestFromEnviron(t *testing.T) {
	vals := FromEnviron([]string{
		"INTERNAL_API_TOKEN=" + envToken,
		"DATABASE_URL=postgres://" + url.UserPassword("app", envPass).String() + "@db.internal:5432/app",
		"REDIS_URL=redis://cache:6379",
		"HOME=/home/u", "PATH=/usr/bin:/bin", "DEBUG_TOKEN=true",
		"GEMINI_GUARD_MODE=warn", "EMPTY_TOKEN=",
		"SORT_KEY=created_at_desc", "PARTITION_KEY=tenant.region",
	})
	assert.Equal(t, []Value{{Source: "$INTERNAL_API_TOKEN", Text: envToken, Key: "INTERNAL_API_TOKEN"}, {Source: "$DATABASE_URL (password)", Text: envPass}}, vals, "short values are left out at once")
	s := NewSet(Key{1, 2})
	for _, v := range vals {
		s.Add(v)
	}
	assert.Empty(t, s.Find("DEBUG=true and true again", 0), "an ordinary value is not tracked")
}

func TestAssignmentsOfEachFormat(t *testing.T) {
	cases := map[string]string{
		"dotenv":      "# comment\nDB_HOST=db\nDB_PASSWORD=\"" + filePass + "\"\nexport API_TOKEN='" + envToken + "'\n",
		"aws":         "[default]\naws_access_key_id = AKIDEXAMPLEXX\naws_secret_access_key = " + filePass + "\n",
		"netrc":       "machine api.internal.test login me password " + filePass + "\n",
		"npmrc":       "//registry.npmjs.org/:_authToken=" + filePass + "\nsave-exact=true\n",
		"docker json": "{\n  \"auths\": {\n    \"registry.internal.test\": {\n      \"auth\": \"" + filePass + "\"\n    }\n  }\n}\n",
		"pypirc":      "[pypi]\nusername = __token__\npassword = " + filePass + "\n",
		"gitcreds":    "https://" + url.UserPassword("me", filePass).String() + "@git.internal.test\n",
		"yaml":        "service:\n  client_secret: " + filePass + "\n",
	}
	for name, text := range cases {
		var got []string
		for _, kv := range Assignments(text) {
			got = append(got, kv[1])
		}
		assert.Contains(t, got, filePass, name)
		for _, v := range got {
			assert.NotEqual(t, "AKIDEXAMPLEXX", v, "a key id is not a secret-named key")
			assert.NotEqual(t, "db", v)
		}
	}
}

func TestFromFilesReadsWorkspaceEnvAndHomeCredentials(t *testing.T) {
	cwd, home := t.TempDir(), t.TempDir()
	write := func(path, text string) {
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o700))
		require.NoError(t, os.WriteFile(path, []byte(text), 0o600))
	}
	write(filepath.Join(cwd, ".env"), "DB_PASSWORD="+filePass+"\n")
	write(filepath.Join(cwd, ".env.example"), "DB_PASSWORD=not-the-real-one-123\n")
	write(filepath.Join(home, ".aws", "credentials"), "[default]\naws_secret_access_key = "+envToken+"\n")
	vals := FromFiles(cwd, home)
	assert.Contains(t, vals, Value{Source: ".env (DB_PASSWORD)", Text: filePass, Key: "DB_PASSWORD"})
	assert.Contains(t, vals, Value{Source: "~/.aws/credentials (aws_secret_access_key)", Text: envToken, Key: "aws_secret_access_key"})
	for _, v := range vals {
		assert.NotEqual(t, "not-the-real-one-123", v.Text, "an example file is not read")
	}
}

// dirNames lists a directory over several reads of the system call's
// buffer, skips . and .., stops at maxDirEntries, and a directory named like
// an .env file is not read as one.
func TestDirNames(t *testing.T) {
	dir := t.TempDir()
	want := []string{".env.local"}
	require.NoError(t, os.WriteFile(filepath.Join(dir, ".env.local"), []byte("API_TOKEN="+envToken+"\n"), 0o600))
	for i := range 300 {
		name := fmt.Sprintf("a-long-enough-file-name-to-fill-the-buffer-%03d.go", i)
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), nil, 0o600))
		want = append(want, name)
	}
	require.NoError(t, os.Mkdir(filepath.Join(dir, ".env"), 0o700))
	want = append(want, ".env")
	got, err := dirNames(dir)
	require.NoError(t, err)
	assert.ElementsMatch(t, want, got)
	assert.Equal(t, []Value{{Source: ".env.local (API_TOKEN)", Text: envToken, Key: "API_TOKEN"}}, FromFiles(dir, ""), "the directory .env is not read")

	_, err = dirNames(filepath.Join(dir, "missing"))
	assert.ErrorIs(t, err, fs.ErrNotExist)
	_, err = dirNames(filepath.Join(dir, ".env.local"))
	assert.Error(t, err, "not a directory")

	many := t.TempDir()
	for i := range maxDirEntries + 10 {
		require.NoError(t, os.WriteFile(filepath.Join(many, fmt.Sprint(i)), nil, 0o600))
	}
	got, err = dirNames(many)
	require.NoError(t, err)
	assert.Len(t, got, maxDirEntries)
}

func TestEveryFormIsFound(t *testing.T) {
	s := NewSet(Key{7, 9})
	s.Add(Value{Source: "$INTERNAL_API_TOKEN", Text: envToken})
	s.Add(Value{Source: "$DB_PASSWORD", Text: envPass})
	for _, v := range []string{envToken, envPass} {
		forms := map[string]string{
			"exact":      v,
			"percent":    url.QueryEscape(v),
			"path":       url.PathEscape(v),
			"hex":        hex.EncodeToString([]byte(v)),
			"HEX":        strings.ToUpper(hex.EncodeToString([]byte(v))),
			"json":       strings.Trim(mustJSON(v), `"`),
			"single-q":   strings.ReplaceAll(v, "'", `'\''`),
			"double-q":   strings.NewReplacer(`"`, `\"`, `$`, `\$`, `\`, `\\`, "`", "\\`").Replace(v),
			"base64":     base64.StdEncoding.EncodeToString([]byte(v)),
			"base64url":  base64.RawURLEncoding.EncodeToString([]byte(v)),
			"base64 +1":  base64.StdEncoding.EncodeToString([]byte("x" + v + "tail")),
			"base64 +2":  base64.StdEncoding.EncodeToString([]byte("xy" + v)),
			"base64 url": base64.URLEncoding.EncodeToString([]byte("user:" + v)),
		}
		for name, f := range forms {
			if strings.Contains(name, "percent") && f == v || strings.Contains(name, "q") && f == v {
				continue
			}
			text := "before " + f + " after"
			got := s.Find(text, 0)
			require.NotEmpty(t, got, "%s form of a known value", name)
			assert.Equal(t, RuleID, got[0].RuleID)
			assert.Equal(t, v, got[0].Secret)
			assert.NotContains(t, got[0].Description, v)
		}
	}
}

func mustJSON(v string) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func TestNothingFoundInOrdinaryText(t *testing.T) {
	s := NewSet(Key{3, 4})
	s.Add(Value{Source: "$INTERNAL_API_TOKEN", Text: envToken})
	s.AddHashed(Hash(Key{3, 4}, Value{Source: "read_file output (x)", Text: learntText})[0])
	for _, text := range []string{
		"echo $INTERNAL_API_TOKEN | wc -c", "curl -H \"Authorization: Bearer $INTERNAL_API_TOKEN\" https://api.internal.test",
		envToken[:11] + "_", strings.ToUpper(envToken[:len(envToken)-1]) + "_", "itk9-Qm3vZr", learntText[1:],
	} {
		assert.Empty(t, s.Find(text, 0), text)
	}
	// Issue 38: a piece of 12 bytes or more (half of a longer value) is a
	// match; before it, the value less a byte was not.
	for _, text := range []string{envToken[:len(envToken)-1] + "_", "itk9-Qm3vZr8L"} {
		assert.Len(t, s.Find(text, 0), 1, text)
	}
}

func TestHashedFormsAreFoundAndHoldNoValue(t *testing.T) {
	key := Key{11, 13}
	hs := Hash(key, Value{Source: "read_file output (password-assigned)", Text: learntText})
	require.NotEmpty(t, hs)
	data, err := json.Marshal(hs)
	require.NoError(t, err)
	for _, f := range Forms(learntText) {
		assert.NotContains(t, string(data), f)
	}
	s := NewSet(key)
	for _, h := range hs {
		s.AddHashed(h)
	}
	got := s.Find("said "+learntText+" twice: "+base64.StdEncoding.EncodeToString([]byte(learntText)), 0)
	require.Len(t, got, 2)
	assert.Equal(t, learntText, got[0].Secret)
	assert.True(t, got[1].Decoded)
	// Under another key the same record finds nothing.
	other := NewSet(Key{12, 13})
	for _, h := range hs {
		other.AddHashed(h)
	}
	assert.Empty(t, other.Find(learntText, 0))
}

func TestFindFromSkipsWhatWasChecked(t *testing.T) {
	s := NewSet(Key{1, 1})
	s.Add(Value{Source: "$T", Text: envToken})
	text := envToken + " and " + envToken
	assert.Len(t, s.Find(text, 0), 2)
	assert.Len(t, s.Find(text, len(envToken)+1), 1)
}

func TestTailHoldsAPossibleStart(t *testing.T) {
	s := NewSet(Key{5, 6})
	s.Add(Value{Source: "$T", Text: envToken})
	text := "here it is: " + envToken[:6]
	assert.Equal(t, len(text)-6, s.Tail(text, 0))
	assert.Equal(t, len("plain words. "), s.Tail("plain words. ", 0))
	// A hashed value's start cannot be known: the last word is held.
	s.AddHashed(Hash(Key{5, 6}, Value{Source: "x", Text: learntText})[0])
	assert.Equal(t, len("plain "), s.Tail("plain words", 0))
}

func TestPropertyAnyValueFoundAnywhere(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const alphabet = "abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ0123456789-_.+/=!@#%"
	for i := 0; i < 300; i++ {
		b := make([]byte, 8+r.IntN(40))
		for j := range b {
			b[j] = alphabet[r.IntN(len(alphabet))]
		}
		v := string(b)
		if Ordinary(v) {
			continue
		}
		key := Key{r.Uint64(), r.Uint64()}
		s := NewSet(key)
		hashed := i%2 == 1
		if hashed {
			for _, h := range Hash(key, Value{Source: "src", Text: v}) {
				s.AddHashed(h)
			}
		} else {
			s.Add(Value{Source: "src", Text: v})
		}
		pre := strings.Repeat("p", r.IntN(20))
		forms := Forms(v)
		f := forms[r.IntN(len(forms))]
		got := s.Find(pre+" "+f+" end", 0)
		require.NotEmpty(t, got, "value %d hashed=%v form %q", i, hashed, f)
		// The stream holds back every proper prefix of a clear form.
		if !hashed {
			cut := 1 + r.IntN(len(f)-1)
			text := pre + " " + f[:cut]
			assert.LessOrEqual(t, s.Tail(text, 0), len(pre)+1, fmt.Sprintf("prefix %d of %q", cut, f))
		}
	}
}

func TestLearnKeepsOnlyHashesInAPrivateStore(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sessions")
	st, err := state.Open(dir)
	require.NoError(t, err)
	key, err := UserKey(st)
	require.NoError(t, err)
	again, err := UserKey(st)
	require.NoError(t, err)
	assert.Equal(t, key, again, "one key per user")
	info, err := os.Stat(filepath.Join(dir, keyFile))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), info.Mode().Perm())

	require.NoError(t, Learn(st, key, "sess", []Value{{Source: "read_file output (generic-api-key)", Text: learntText}}))
	set := Load(Sources{StateDir: dir, SessionID: "sess"})
	assert.NotEmpty(t, set.Find("x "+learntText, 0))
	assert.Empty(t, Load(Sources{StateDir: dir, SessionID: "other"}).Find("x "+learntText, 0), "learnt per session")
	assert.Nil(t, Load(Sources{StateDir: dir, SessionID: "sess", DisabledRules: []string{RuleID}}))
	assertNoValueIn(t, dir, learntText)
}

// assertNoValueIn fails when any file under dir holds any form of a value.
func assertNoValueIn(t *testing.T, dir string, values ...string) {
	t.Helper()
	require.NoError(t, filepath.Walk(dir, func(path string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		require.NoError(t, err)
		for _, v := range values {
			for _, f := range Forms(v) {
				assert.NotContains(t, string(data), f, path)
			}
		}
		return nil
	}))
}

// TestErrorsHoldNoValue: the errors a hook may report (an unusable key
// file, a store it cannot write) name paths and causes, never a value.
func TestErrorsHoldNoValue(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sessions")
	st, err := state.Open(dir)
	require.NoError(t, err)
	require.NoError(t, os.Mkdir(filepath.Join(dir, keyFile), 0o700)) // a directory where the key should be
	_, err = UserKey(st)
	require.Error(t, err)
	assert.NotContains(t, err.Error(), learntText)

	require.NoError(t, os.WriteFile(filepath.Join(dir, state.Key(recordKind, "s")), []byte("v1 x\n"), 0o600))
	require.NoError(t, os.Chmod(dir, 0o500))
	defer os.Chmod(dir, 0o700)
	err = Learn(st, Key{1, 2}, "s", []Value{{Source: "read_file output (x)", Text: learntText}})
	if err != nil { // root writes anyway
		for _, f := range Forms(learntText) {
			assert.NotContains(t, err.Error(), f)
		}
	}
	// Without a usable key the environment's values are still known.
	assert.NotEmpty(t, Load(Sources{StateDir: dir, SessionID: "s", Environ: []string{"X_TOKEN=" + envToken}}).Find("x "+envToken, 0))
}

func TestLearntRecordRoundTripAndDamage(t *testing.T) {
	hs := Hash(Key{4, 5}, Value{Source: "web_fetch output (generic-api-key)", Text: learntText})
	forms, check := parseLearnt(formatLearnt(hs, Key{K0: 3, K1: 4}))
	assert.Equal(t, hs, forms)
	assert.Equal(t, keyCheck(Key{K0: 3, K1: 4}), check)
	for _, bad := range []string{"", "v1", "v1 8 1 zz 0 s", "v2 8 1 ff 0 s", "v1 8 99999 ff 0 s", "\n\n v1 8 1 ff 0 s"} {
		forms, _ := parseLearnt([]byte(bad))
		assert.Empty(t, forms, bad)
	}
}

// TestEnvFileReadAsTheHostReadsIt: the workspace's .env gives the values
// Gemini CLI loads from it (internal/dotenv), also behind a lone carriage
// return or a no-break space, in quotes, and after export; a value in a
// comment gives nothing.
func TestEnvFileReadAsTheHostReadsIt(t *testing.T) {
	ws := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(ws, ".env"), []byte(
		"PORT=3000\rDB_PASSWORD=Zr8q-Kp3m-Wx7v\n\u00a0export API_TOKEN=\"tq5-Lm2-Vx8-Rr4\"\n# OLD_SECRET=Yy7-Pp2-Qq9-Ww3\nDATABASE_URL=postgres://app:Hb6-Ck9-Df2@db/app\n"), 0o600))
	got := map[string]string{}
	for _, v := range FromFiles(ws, "") {
		got[v.Source] = v.Text
	}
	assert.Equal(t, map[string]string{
		".env (DB_PASSWORD)":  "Zr8q-Kp3m-Wx7v",
		".env (API_TOKEN)":    "tq5-Lm2-Vx8-Rr4",
		".env (URL password)": "Hb6-Ck9-Df2",
	}, got)
}

package known

import (
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDocsWorthTrackingTable checks every row of docs/secrets.md's table
// of what is and is not tracked against Untracked.
func TestDocsWorthTrackingTable(t *testing.T) {
	data, err := os.ReadFile("../../../docs/secrets.md")
	require.NoError(t, err)
	doc := string(data)
	const begin, end = "<!-- worth:begin -->", "<!-- worth:end -->"
	i, j := strings.Index(doc, begin), strings.Index(doc, end)
	require.True(t, i >= 0 && j > i, "docs/secrets.md has no worth-tracking table")
	rows := 0
	for _, line := range strings.Split(doc[i+len(begin):j], "\n") {
		cells := strings.Split(line, "|")
		if len(cells) != 6 || !strings.HasPrefix(strings.TrimSpace(cells[1]), "`") {
			continue
		}
		cell := func(k int) string { return strings.Trim(strings.TrimSpace(cells[k]), "`") }
		key, value, tracked, why := cell(1), cell(2), cell(3), cell(4)
		got := Untracked(Value{Source: "$" + key, Text: value, Key: key})
		if tracked == "yes" {
			assert.Empty(t, got, "%s=%s is tracked", key, value)
		} else {
			assert.Equal(t, why, got, "%s=%s", key, value)
		}
		rows++
	}
	assert.GreaterOrEqual(t, rows, 20)
}

func TestWorthTracking(t *testing.T) {
	mustNot := map[string]string{
		"abcdefghijklmnopqrstuvwxyz": WhyRun,
		"ABCDEFGHIJKLMNOP":           WhyRun,
		"zyxwvutsrqponmlk":           WhyRun,
		"0123456789abcdef":           WhyRun,
		"0123456789ABCDEF":           WhyRun,
		"abcd1234efgh5678":           WhyRun,
		"asdfghjkl;":                 WhyRun,
		"!@#$%^&*()":                 WhyRun,
		"aaaaaaaaaaaa":               WhyWord,
		"aaaaaaaaaaaaaaaa":           WhyRun,
		"a1a1a1a1a1a1":               WhyLowEntropy,
		"Keyboard-Cat":               WhyExample,
		"keyboard_cat":               WhyExample,
		"notasecret":                 WhyWord,
		"Not-A-Secret":               WhyExample,
		"changeit":                   WhyWord,
		"Password123":                WhyPassword,
		"passw0rd":                   WhyPassword,
		"Passw0rd!2024":              WhyPassword,
		"letmein!":                   WhyPassword,
		"qwerty2023":                 WhyPassword,
		"hunter22":                   WhyPassword,
		"admin123":                   WhyPassword,
		"Admin@123":                  WhyPassword,
		"trustno1":                   WhyPassword,
		"iloveyou2":                  WhyPassword,
		"welcome1!":                  WhyPassword,
		"rootroot":                   WhyWord,
		"Root@dmin1":                 WhyPassword,
		"Football99":                 WhyPassword,
		"Dolphins2024":               WhyWordDigits,
		"2024january":                WhyWordDigits,
		"secret_key_base":            WhyKeyName,
		"postgresPassword":           WhyKeyName,
	}
	for v, why := range mustNot {
		got := Untracked(Value{Text: v})
		assert.NotEmpty(t, got, v)
		assert.Contains(t, strings.Split(why, "|"), got, v)
	}
	assert.Equal(t, WhyKeyName, Untracked(Value{Text: "Service.Token-Value", Key: "SERVICE_TOKEN_VALUE"}))
	assert.Equal(t, WhyKeyName, Untracked(Value{Text: "db_password", Key: "DB_PASSWORD"}))
	assert.Empty(t, Untracked(Value{Text: "db_password9X", Key: "DB_PASSWORD"}), "not the name")

	// Real-looking strong passwords of 12 or more mixed characters.
	for _, v := range []string{"kQ7!vR2#mZ9x", "Gh5%tLw8&Xn2pQ", "m4X-t9Rq-Lw2z-Pk7", "Vb8$Jz3!qWn6", "correct-H0rse-7Bz!",
		"S7x#Kd92-pLqWz", "Pa55-7hZ!kqX-w9", "9vK!p2Lq#Zr8"} {
		assert.Empty(t, Untracked(Value{Text: v, Key: "APP_PASSWORD"}), v)
	}
	// Random tokens of 12 to 64 characters: always tracked.
	r := rand.New(rand.NewPCG(38, 3))
	for _, alphabet := range []string{"0123456789abcdef", "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789",
		"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_!#%+@$"} {
		for range 3000 {
			b := make([]byte, 12+r.IntN(53))
			for j := range b {
				b[j] = alphabet[r.IntN(len(alphabet))]
			}
			v := string(b)
			if holdsPlaceholder(v) {
				continue
			}
			assert.Empty(t, Untracked(Value{Text: v, Key: "SERVICE_TOKEN"}), v)
		}
	}
}

func TestUntrackedValuesAreNotFound(t *testing.T) {
	s := NewSet(Key{1, 2})
	for _, v := range []string{"0123456789abcdef", "abcdefghijklmnop", "keyboard cat", "password123"} {
		s.Add(Value{Source: "$X_SECRET", Text: v, Key: "X_SECRET"})
	}
	s.Add(Value{Source: ".env (DB_PASSWORD)", Text: "db_password", Key: "DB_PASSWORD"})
	assert.Zero(t, s.Len())
	assert.Empty(t, s.Find("app.use(session({ secret: 'keyboard cat' })) // 0123456789abcdef password123 db_password", 0))
}

func TestKeyboardTable(t *testing.T) {
	for row, keys := range []string{"qwertyuiop", "asdfghjkl", "zxcvbnm"} {
		for col := range len(keys) {
			assert.Equal(t, byte(row*16+col), keyboard[keys[col]-'a'], "%c", keys[col])
		}
	}
	assert.True(t, follows('q', 'w'))
	assert.True(t, follows('l', 'k'))
	assert.False(t, follows('p', 'a'), "rows do not wrap")
	assert.True(t, follows('9', '0'))
	assert.True(t, follows('%', '^'))
}

func TestSkippedNamesSourcesOnce(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(dir+"/.env", []byte("DB_PASSWORD=db_password\nAPI_TOKEN=itk9-QM3vX7-zzR2pL\nKEY_FILE_CREDENTIALS=/etc/k.json\n"), 0o600))
	got := Skipped([]string{"DB_PASSWORD=db_password", "SESSION_SECRET=keyboard cat", "API_TOKEN=itk9-QM3vX7-zzR2pL"}, dir, "")
	assert.Equal(t, []Skip{{Source: ".env (DB_PASSWORD)", Why: WhyKeyName}, {Source: "$SESSION_SECRET", Why: WhyExample}}, got,
		"the .env's name first, each value once, no path, no strong value")
}

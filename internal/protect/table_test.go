package protect

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestJoinedHoldsIsJoinThenCompare(t *testing.T) {
	paths := []string{"/", "/home", "/home/ann", "/home/ann/.gemini", "/home/ann/.GEMINI/settings.json", "/home/ann/.gemini/settings.jsonx",
		"/home/ann/.gemini/extensions/x/y", "/home/annb/.gemini", "/etc/gemini-cli", "/etc/gemini-cli/settings.json", "/etc/gemini-clix", "/w", "/w/.env"}
	dirs := []string{"/", "/home/ann", "/home/ann/.gemini", "/etc/gemini-cli", "/w"}
	rels := []string{"", "settings.json", ".gemini", "extensions", ".gemini/settings.json", ".env"}
	for _, p := range paths {
		for _, d := range dirs {
			for _, r := range rels {
				q := filepath.Join(d, r)
				exact, within := joinedHolds(p, d, r)
				assert.Equal(t, samePath(p, q), exact, "%s vs %s", p, q)
				assert.Equal(t, Within(p, q), within, "%s in %s", p, q)
			}
		}
	}
}

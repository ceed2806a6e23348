package detector_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/secrets/secrettest"
)

// TestURLPasswordRunsToTheLastAt: a password with an unencoded @ is the
// whole text between the user's colon and the last @ before the host, as
// URL parsers read it, not only its part before the first @ (issue #26).
func TestURLPasswordRunsToTheLastAt(t *testing.T) {
	r := secrettest.NewRand(2603)
	s := secrettest.Builtin()
	for _, c := range []struct{ scheme, rule string }{
		{"postgresql", "database-url-password"},
		{"postgres", "database-url-password"},
		{"mysql", "database-url-password"},
		{"https", "url-password"},
		{"ftp", "url-password"},
	} {
		password := "Vq" + r.From(secrettest.Alnum, 7) + "@" + r.From(secrettest.Alnum, 8) + "@" + r.From(secrettest.Alnum, 4)
		text := "url = " + c.scheme + "://deploy:" + password + "@store-3.acme-corp.net:5432/orders\n"
		finds := s.MustScan(text)
		require.NotEmpty(t, finds, c.scheme)
		assert.Equal(t, c.rule, finds[0].RuleID, c.scheme)
		assert.Equal(t, password, finds[0].Secret, c.scheme)
	}
	// The host still ends the password: an address after the URL is not
	// part of it.
	text := "postgres://deploy:" + r.From(secrettest.Alnum, 16) + "@db.acme-corp.net/app mail ops@acme-corp.net"
	finds := s.MustScan(text)
	require.NotEmpty(t, finds)
	for _, f := range finds {
		assert.NotContains(t, f.Secret, "@", f.RuleID)
	}
}

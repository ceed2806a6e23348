package redact

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSessionText(t *testing.T) {
	now := time.Unix(1700000000, 123456789)
	cases := map[string]Session{
		"empty":   {},
		"warned":  {Warned: true},
		"pending": {Pending: "held\nwith newline and \x00 bytes 12 34"},
		"full": {
			Warned:  true,
			Pending: "p",
			Known:   []string{"abc def", "s 3\nx"},
			Streams: map[string]*SessionStream{
				"a-1": {Stream: Stream{Shown: "shown text ", Held: "ghp_"}, Updated: now},
				"b 2": {Stream: Stream{Held: "\n"}, Updated: now.Add(time.Second)},
				"c":   {Updated: now},
			},
		},
	}
	for name, s := range cases {
		t.Run(name, func(t *testing.T) {
			data, err := s.MarshalText()
			require.NoError(t, err)
			var got Session
			require.NoError(t, got.UnmarshalText(data))
			for _, st := range got.Streams {
				st.Updated = st.Updated.UTC()
			}
			for _, st := range s.Streams {
				st.Updated = st.Updated.UTC()
				st.Known = nil
			}
			assert.Equal(t, s, got)
		})
	}
}

func TestSessionTextDamaged(t *testing.T) {
	s := Session{Pending: "pending text", Streams: map[string]*SessionStream{"a": {Stream: Stream{Held: "xyz"}}}}
	data, _ := s.MarshalText()
	for n := range len(data) {
		var got Session
		err := got.UnmarshalText(data[:n])
		if err != nil {
			assert.Equal(t, Session{}, got, "cut at %d", n)
		}
	}
	for _, bad := range []string{"", "{}", "gemini-guard session 2\n", sessionMagic + "x 1\na", sessionMagic + "p -1\n", sessionMagic + "p 99\nab", sessionMagic + "s 1\na x 0 0\n"} {
		var got Session
		assert.ErrorIs(t, got.UnmarshalText([]byte(bad)), ErrBadSession, "%q", bad)
	}
}

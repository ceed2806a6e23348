package redactguard

// A long session re-sends its whole history with every request to the
// model, and the BeforeModel hook would scan megabytes to find that the
// same messages are still clean. The hook remembers, per session, the
// messages it found clean (a keyed hash of each message's content as it
// came, never the text) and scans only the others.
//
// What may be skipped: a message is redacted on its own (redact.Text per
// message), so a message found clean under the same rules stays clean
// whatever comes before or after it. The record holds a fingerprint of
// everything the result depends on (the gemini-guard version, the built-in
// rules, the gitleaks config's content, the scan settings); when it
// changes, the record starts again. Only clean messages are remembered: a
// message with a secret is redacted again on every request, as Gemini CLI
// re-sends it unchanged.

import (
	"encoding/hex"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/secrets"
	"github.com/gemini-guard/gemini-guard/internal/secrets/prefilter"
	"github.com/gemini-guard/gemini-guard/internal/state"
	"github.com/gemini-guard/gemini-guard/internal/version"
)

// maxClean bounds the messages a session's record remembers (33 bytes
// each); the oldest are forgotten first.
const maxClean = 8192

// cleanSet is the session's record of messages found clean.
type cleanSet struct {
	header string // "clean-v1 <fingerprint> <key>"
	key    string // random per record: the hashes are keyed with it
	hashes []string
	has    map[string]bool
	added  []string
}

func cleanKey(sessionID string) string { return state.Key("model-clean", sessionID) }

// rulesFingerprint names everything a message's scan result depends on
// besides its text.
func rulesFingerprint(opts secrets.Options) string {
	h := fnv.New128a()
	fmt.Fprintf(h, "%s\x00%q\x00%t\x00", version.Version, opts.DisabledRules, opts.TrustAllowComments)
	for _, r := range prefilter.BuiltinRules() {
		fmt.Fprintf(h, "%d:%s%d:%s%q;", len(r.ID), r.ID, len(r.Pattern), r.Pattern, r.Keywords)
	}
	if opts.ConfigPath != "" {
		data, err := os.ReadFile(opts.ConfigPath)
		fmt.Fprintf(h, "%d:%s;%v;", len(opts.ConfigPath), opts.ConfigPath, err != nil)
		h.Write(data)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// loadClean reads the session's record; a missing, damaged or outdated one
// reads as empty with a new key. Without a state directory nothing can be
// remembered, and it returns nil (a nil cleanSet knows nothing and adds
// nothing, without hashing a byte).
func loadClean(e Env, sessionID string, opts secrets.Options, knownPrint string) *cleanSet {
	st, err := state.Open(e.StateDir)
	if err != nil {
		return nil
	}
	data, err := st.Read(cleanKey(sessionID))
	if err != nil {
		return nil
	}
	// The known values count as rules: a new one makes every message
	// checked again.
	fingerprint := rulesFingerprint(opts) + "-" + knownPrint
	c := &cleanSet{has: map[string]bool{}}
	lines := strings.Split(string(data), "\n")
	if f := strings.Fields(lines[0]); len(f) == 3 && f[0] == "clean-v1" && f[1] == fingerprint && len(f[2]) == 32 {
		c.header, c.key = lines[0], f[2]
		for _, l := range lines[1:] {
			if len(l) == 32 && !c.has[l] {
				c.has[l] = true
				c.hashes = append(c.hashes, l)
			}
		}
		return c
	}
	c.key = fmt.Sprintf("%016x%016x", rand.Uint64(), rand.Uint64())
	c.header = "clean-v1 " + fingerprint + " " + c.key
	return c
}

// hash is the keyed hash of a message's content as it came (raw JSON):
// the same bytes are the same text.
func (c *cleanSet) hash(raw []byte) string {
	h := fnv.New128a()
	h.Write([]byte(c.key))
	h.Write(raw)
	return hex.EncodeToString(h.Sum(nil))
}

// seen reports whether a message with content raw was found clean, and
// returns its hash for add ("" without a record).
func (c *cleanSet) seen(raw []byte) (hash string, clean bool) {
	if c == nil || len(raw) == 0 {
		return "", false
	}
	h := c.hash(raw)
	return h, c.has[h]
}

// add remembers the message of hash h (from seen) as clean.
func (c *cleanSet) add(h string) {
	if c != nil && h != "" && !c.has[h] {
		c.has[h] = true
		c.added = append(c.added, h)
	}
}

// save writes the record with the messages added; another hook process's
// additions made meanwhile are kept when the record is still of the same
// key.
func (c *cleanSet) save(e Env, sessionID string) {
	if c == nil || len(c.added) == 0 {
		return
	}
	st, err := state.Open(e.StateDir)
	if err != nil {
		return
	}
	_ = st.Update(cleanKey(sessionID), func(old []byte) ([]byte, error) {
		all := c.hashes
		if first, rest, _ := strings.Cut(string(old), "\n"); first == c.header {
			all = strings.Split(rest, "\n")
		}
		all = append(all, c.added...)
		all = all[max(0, len(all)-maxClean):]
		var b strings.Builder
		b.Grow(len(c.header) + 33*len(all) + 1)
		b.WriteString(c.header)
		for _, h := range all {
			if len(h) == 32 {
				b.WriteString("\n" + h)
			}
		}
		return []byte(b.String()), nil
	})
}

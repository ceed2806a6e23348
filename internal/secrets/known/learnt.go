package known

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/bounded"
	"github.com/gemini-guard/gemini-guard/internal/state"
)

// keyFile is the per-user key's file in the state directory. Its name
// starts with a dot, so state's Clean never removes it.
const keyFile = ".known-key"

// maxLearnt bounds the hashed forms a session keeps (about 40 values of
// a dozen forms each); the oldest go first.
const maxLearnt = 512

// recordKind names a session's record of learnt values.
const recordKind = "known-values"

// UserKey returns the per-user key kept in the store's directory, making
// it (16 random bytes from the system, file mode 0600) on first use.
// Another process making it at the same time wins; both then read its key.
func UserKey(st *state.Store) (Key, error) {
	path := filepath.Join(st.Dir(), keyFile)
	if data, _, err := bounded.ReadFile(path, 64); err == nil && len(data) == 16 {
		return keyFromBytes(data), nil
	}
	buf := make([]byte, 16)
	if err := randomBytes(buf); err != nil {
		return Key{}, err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600) // O_EXCL: never through a symlink
	if errors.Is(err, os.ErrExist) {
		data, _, err := bounded.ReadFile(path, 64)
		if err != nil || len(data) != 16 {
			return Key{}, fmt.Errorf("known: the key file in the state directory is unusable")
		}
		return keyFromBytes(data), nil
	}
	if err != nil {
		return Key{}, fmt.Errorf("known: making the key file: %w", err)
	}
	_, err = f.Write(buf)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
		return Key{}, fmt.Errorf("known: writing the key file: %w", err)
	}
	return keyFromBytes(buf), nil
}

// randomBytes fills b from the system's random source (/dev/urandom; the
// hooks link no crypto package, see sipHash).
func randomBytes(b []byte) error {
	f, err := os.Open("/dev/urandom")
	if err != nil {
		return fmt.Errorf("known: no random source: %w", err)
	}
	defer f.Close()
	if _, err := io.ReadFull(f, b); err != nil {
		return fmt.Errorf("known: reading the random source: %w", err)
	}
	return nil
}

// Learn adds values (secrets a rule found in a tool's output) to the
// session's record of learnt values, as keyed hashes only. A record made
// under another key (the key file was replaced since) holds forms nothing
// can match any more: Learn then fails with ErrLearntLost rather than
// hide the loss under new forms.
func Learn(st *state.Store, key Key, sessionID string, values []Value) error {
	var add []Hashed
	for _, v := range values {
		add = append(add, Hash(key, v)...)
	}
	if len(add) == 0 {
		return nil
	}
	return st.Update(state.Key(recordKind, sessionID), func(old []byte) ([]byte, error) {
		have, check := parseLearnt(old)
		if check == lostCheck || len(have) > 0 && check != 0 && check != keyCheck(key) {
			return nil, fmt.Errorf("%w: the record was lost or made under another key", ErrLearntLost)
		}
		// A set, not a search of have per form: a tool output dense with
		// keys adds tens of thousands of forms, and the search made
		// that quadratic (most of a hook's time on 256 KB of keys).
		type form struct {
			sum uint64
			n   int
		}
		seen := make(map[form]bool, len(have)+len(add))
		for _, x := range have {
			seen[form{x.Sum, x.Len}] = true
		}
		for _, h := range add {
			if f := (form{h.Sum, h.Len}); !seen[f] {
				seen[f] = true
				have = append(have, h)
			}
		}
		if len(have) > maxLearnt {
			have = have[len(have)-maxLearnt:]
		}
		return formatLearnt(have, key), nil
	})
}

// Learnt returns the session's learnt forms (nil when none) and the check
// of the key they were hashed under (keyCheck; 0 when the record has
// none), or why the record cannot be read.
func Learnt(st *state.Store, sessionID string) ([]Hashed, uint64, error) {
	data, err := st.Read(state.Key(recordKind, sessionID))
	if err != nil {
		return nil, 0, err
	}
	forms, check := parseLearnt(data)
	return forms, check, nil
}

// lostCheck is the check of a record that stands for one the state
// directory lost (removed as damaged, or moved aside with the
// directory): "k1 lost". The session's learnt values stay lost, so its
// hooks keep failing closed, not only the first to see the loss.
const lostCheck = ^uint64(0)

// markLost leaves the session's record saying it was lost (best effort:
// the store that lost it may not take the mark either).
func markLost(st *state.Store, sessionID string) {
	_ = st.Update(state.Key(recordKind, sessionID), func([]byte) ([]byte, error) { return []byte("k1 lost\n"), nil })
}

// keyCheck identifies a key without saying anything of it: the record
// holds it, so that forms hashed under a key that is gone are known to be
// lost, not taken for "nothing learnt".
func keyCheck(k Key) uint64 {
	return sipHash(k.K0, k.K1, "gemini-guard learnt-values key check")
}

// The record is a line "k1 <keyCheck, hex>", then one line per form:
// "v1 <len> <tag> <sum, hex> <0|1 decoded> <source>". A line format, not
// JSON: every hook call of a session reads it, and reflection-based
// decoding of hundreds of entries cost more than the rest of the known
// values together.
func formatLearnt(hs []Hashed, key Key) []byte {
	b := fmt.Appendf(nil, "k1 %x\n", keyCheck(key))
	for _, h := range hs {
		d := 0
		if h.Decoded {
			d = 1
		}
		b = fmt.Appendf(b, "v1 %d %d %x %d %s\n", h.Len, h.Tag, h.Sum, d, strings.ReplaceAll(h.Source, "\n", " "))
	}
	return b
}

// parseLearnt reads a record; a damaged line is skipped.
func parseLearnt(data []byte) (forms []Hashed, check uint64) {
	text := string(data)
	out := make([]Hashed, 0, strings.Count(text, "\n"))
	for text != "" {
		var line string
		line, text, _ = strings.Cut(text, "\n")
		if k, ok := strings.CutPrefix(line, "k1 "); ok {
			check, _ = strconv.ParseUint(k, 16, 64)
			if k == "lost" {
				check = lostCheck
			}
			continue
		}
		rest, ok := strings.CutPrefix(line, "v1 ")
		if !ok {
			continue
		}
		var f [4]string
		for i := range f {
			f[i], rest, ok = strings.Cut(rest, " ")
			if !ok {
				break
			}
		}
		if !ok {
			continue
		}
		n, err1 := strconv.Atoi(f[0])
		tag, err2 := strconv.ParseUint(f[1], 10, 16)
		sum, err3 := strconv.ParseUint(f[2], 16, 64)
		if err1 != nil || err2 != nil || err3 != nil {
			continue
		}
		out = append(out, Hashed{Len: n, Tag: uint16(tag), Sum: sum, Decoded: f[3] == "1", Source: rest})
	}
	return out, check
}

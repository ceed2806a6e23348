// Package known is the guard's knowledge of the user's secrets by value:
// the values of secret-named environment variables, of secret-named keys in
// the workspace's .env files and the user's credential files, and of every
// secret a rule found in a tool's output earlier in the session. A Set
// finds them, and their common encodings (Forms), in any text, whatever
// their format: a custom token no rule recognises is caught exactly.
//
// Values from the environment and from files are read by each hook process
// and kept in memory only. Values learnt from tool output must outlive the
// process, so they are kept on disk as keyed hashes (SipHash-2-4 under a
// per-user random key in the private state directory) with their lengths,
// never in the clear: a Set finds them by hashing the windows of those
// lengths, after a cheap keyed tag of each window's first 8 bytes says a
// form of a value may start there.
//
// A finding names the value's source ($INTERNAL_API_TOKEN, .env
// (DB_PASSWORD)), never the value. See docs/secrets.md#known-values.
package known

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/secrets"
	"github.com/gemini-guard/gemini-guard/internal/state"
)

// RuleID is the rule id of a known value's finding (and the rule to list
// in the Disabled rules setting to switch the feature off).
const RuleID = "known-value"

// Value is one secret known by value, with where it came from.
type Value struct {
	// Source names where the value came from: "$INTERNAL_API_TOKEN",
	// ".env (DB_PASSWORD)", "read_file output (github-pat)". Never the
	// value.
	Source string
	// Text is the value. Never print or store it.
	Text string
}

// Hashed is a form of a value kept as a keyed hash: what may be stored.
type Hashed struct {
	Source string `json:"s"`
	// Len is the form's length in bytes.
	Len int `json:"n"`
	// Sum is SipHash-2-4 of the form under the user's key.
	Sum uint64 `json:"h"`
	// Tag is the keyed tag of the form's first 8 bytes (16 bits): the
	// prefilter that says where a window is worth hashing.
	Tag uint16 `json:"t"`
	// Decoded is set when the form is an encoding of the value.
	Decoded bool `json:"d,omitempty"`
}

// Key is the per-user key of the keyed hashes and tags.
type Key struct{ K0, K1 uint64 }

// entry is one form of one value a Set looks for.
type entry struct {
	source  string
	form    string // the form's text; "" for a hashed form
	value   string // the value (clear forms only)
	n       int
	sum     uint64
	tag     uint16
	decoded bool
}

// Set is the known values of one hook call. The zero Set knows nothing;
// a nil *Set too.
type Set struct {
	key     Key
	entries []entry
	values  []string // the clear values, to add each once
	// The index, built on first use after an Add: tags is a bitset of the
	// 16-bit tags of every form's first 8 bytes, byTag the entries sorted
	// by tag; clear lists the clear forms sorted (for Tail).
	indexed             bool
	tags                []uint64
	byTag               []int32
	clear               []int32
	maxClear, maxHashed int
	// store and sessionID are where Learn keeps what it learns (nil:
	// nowhere).
	store     *state.Store
	sessionID string
}

// NewSet is an empty Set whose hashed forms are under key.
func NewSet(key Key) *Set { return &Set{key: key} }

// Len is how many forms the set looks for.
func (s *Set) Len() int {
	if s == nil {
		return 0
	}
	return len(s.entries)
}

// Add makes s look for v and its forms. A value that Ordinary calls
// ordinary text is left out; so is one already known.
func (s *Set) Add(v Value) {
	if Ordinary(v.Text) || slices.Contains(s.values, v.Text) {
		return
	}
	s.values = append(s.values, v.Text)
	for i, f := range Forms(v.Text) {
		s.add(entry{source: v.Source, form: f, value: v.Text, n: len(f), decoded: i > 0, tag: s.tag(f)})
	}
}

// AddHashed makes s look for a form kept as a keyed hash (Learn keeps
// each form once).
func (s *Set) AddHashed(h Hashed) {
	if h.Len >= MinLen {
		s.add(entry{source: h.Source, n: h.Len, sum: h.Sum, decoded: h.Decoded, tag: h.Tag})
	}
}

func (s *Set) add(e entry) {
	s.entries = append(s.entries, e)
	s.indexed = false
	if e.form != "" {
		s.maxClear = max(s.maxClear, e.n)
	} else {
		s.maxHashed = max(s.maxHashed, e.n)
	}
}

// index builds the index of the entries when they changed.
func (s *Set) index() {
	if s.indexed {
		return
	}
	s.indexed = true
	if s.tags == nil {
		s.tags = make([]uint64, 1<<16/64)
	} else {
		clear(s.tags)
	}
	s.byTag, s.clear = s.byTag[:0], s.clear[:0]
	for i, e := range s.entries {
		s.tags[e.tag/64] |= 1 << (e.tag % 64)
		s.byTag = append(s.byTag, int32(i))
		if e.form != "" {
			s.clear = append(s.clear, int32(i))
		}
	}
	slices.SortFunc(s.byTag, func(a, b int32) int { return int(s.entries[a].tag) - int(s.entries[b].tag) })
	slices.SortFunc(s.clear, func(a, b int32) int { return strings.Compare(s.entries[a].form, s.entries[b].form) })
}

// Hash returns the forms of v as keyed hashes under key, for storing;
// nil when v is ordinary text.
func Hash(key Key, v Value) []Hashed {
	if Ordinary(v.Text) {
		return nil
	}
	var out []Hashed
	for i, f := range Forms(v.Text) {
		out = append(out, Hashed{Source: v.Source, Len: len(f), Sum: sipHash(key.K0, key.K1, f), Tag: tagOf(key, le64(f)), Decoded: i > 0})
	}
	return out
}

func (s *Set) tag(form string) uint16 { return tagOf(s.key, le64(form)) }

// tagOf is a keyed 16-bit tag of 8 bytes w: a multiply-xorshift mix of w
// and the key. Cheap enough for every position of a text; it tells where
// a window is worth comparing or hashing, and 16 bits of it say little
// about a stored value.
func tagOf(k Key, w uint64) uint16 {
	x := (w ^ k.K0) * 0x9e3779b97f4a7c15
	x ^= x >> 29
	x *= k.K1 | 1
	x ^= x >> 32
	return uint16(x >> 48)
}

// Find returns a finding for every occurrence in text of a known value or
// one of its forms that ends after from (the stream's text before from was
// checked already), sorted by Start. Its Description is the source, its
// Secret the value (for a hashed form: the matched text).
func (s *Set) Find(text string, from int) []secrets.Finding {
	if s == nil || len(s.entries) == 0 {
		return nil
	}
	s.index()
	longest := max(s.maxClear, s.maxHashed)
	var out []secrets.Finding
	line, lineAt := 1, 0
	for i := max(0, from-longest+1); i+MinLen <= len(text); i++ {
		t := tagOf(s.key, le64(text[i:]))
		if s.tags[t/64]&(1<<(t%64)) == 0 {
			continue
		}
		first, _ := slices.BinarySearchFunc(s.byTag, t, func(j int32, t uint16) int { return int(s.entries[j].tag) - int(t) })
		for _, j := range s.byTag[first:] {
			e := &s.entries[j]
			if e.tag != t {
				break
			}
			end := i + e.n
			if end > len(text) || end <= from {
				continue
			}
			w := text[i:end]
			if e.form != "" && w != e.form || e.form == "" && sipHash(s.key.K0, s.key.K1, w) != e.sum {
				continue
			}
			line += strings.Count(text[lineAt:i], "\n")
			lineAt = i
			secret := e.value
			if secret == "" {
				secret = w
			}
			out = append(out, secrets.Finding{RuleID: RuleID, Description: e.source, Start: i, End: end, Line: line, Secret: secret, Decoded: e.decoded})
		}
	}
	return out
}

// Tail is where text may end in the middle of a known value's form: the
// earliest position from base on where a suffix of text starts that a
// clear form starts with, or, when forms are kept only as hashes (whose
// beginnings cannot be known), the start of the last run of non-space
// bytes (at most the longest hashed form). len(text) when neither.
func (s *Set) Tail(text string, base int) int {
	hold := len(text)
	if s == nil || len(s.entries) == 0 {
		return hold
	}
	s.index()
	for p := max(base, len(text)-s.maxClear+1); p < len(text); p++ {
		// The clear forms are sorted: those that start with rest begin
		// where rest would be inserted.
		rest := text[p:]
		k, _ := slices.BinarySearchFunc(s.clear, rest, func(j int32, r string) int { return strings.Compare(s.entries[j].form, r) })
		for ; k < len(s.clear) && strings.HasPrefix(s.entries[s.clear[k]].form, rest); k++ {
			if s.entries[s.clear[k]].n > len(rest) {
				hold = p
				break
			}
		}
		if hold == p {
			break
		}
	}
	if s.maxHashed > 0 {
		p := len(text)
		for p > base && p > len(text)-s.maxHashed+1 && !space(text[p-1]) {
			p--
		}
		hold = min(hold, p)
	}
	return hold
}

func space(c byte) bool { return c == ' ' || c == '\n' || c == '\t' || c == '\r' }

// keyFromBytes reads a 16-byte key.
func keyFromBytes(b []byte) Key {
	return Key{K0: le64(string(b[:8])), K1: le64(string(b[8:16]))}
}

// Fingerprint changes whenever the set's forms do, and says nothing of
// them (a keyed hash under the user's key): a record of texts found clean
// holds it, so that a new known value makes them checked again.
func (s *Set) Fingerprint() string {
	if s == nil || len(s.entries) == 0 {
		return "none"
	}
	var acc uint64
	for _, e := range s.entries {
		sum := e.sum
		if e.form != "" {
			sum = sipHash(s.key.K0, s.key.K1, e.form)
		}
		acc += sum*0x9e3779b97f4a7c15 ^ uint64(e.n)
	}
	return fmt.Sprintf("%016x", sipHash(s.key.K0, s.key.K1, fmt.Sprintf("%d:%x", len(s.entries), acc)))
}

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
	"math"
	"slices"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/secrets"
	"github.com/gemini-guard/gemini-guard/internal/secrets/decode"
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
	// key is the key of the tags and of the hashed forms the set looks
	// for: the user's key when it holds learnt forms (NewSet's key), else
	// a fixed one (tags of clear forms stay in memory, and reading the
	// user's key costs a call that has nothing learnt).
	key Key
	// user is the user's key when known (userKnown), for what leaves the
	// process: Fingerprint and Learn. Read from store on first need.
	user      Key
	userKnown bool
	entries   []entry
	values    []string // the clear values, to add each once
	// pending are values added whose forms are not built yet (build):
	// most texts a hook checks cannot hold an encoded form of most of them
	// (buildFor), and there only the values themselves are looked for.
	// Building the forms and their index was most of what 50 known
	// values cost a hook process. maxPending is the longest pending value,
	// pendingSpecial says one has bytes that URL, JSON or shell escapes.
	pending        []Value
	maxPending     int
	pendingSpecial bool
	// The index, built on first use after an Add: the entries sorted by
	// tag, and tags a bitset of the 16-bit tags of every form's first 8
	// bytes; clear lists the clear forms sorted (for Tail; clearSorted).
	indexed, clearSorted bool
	tags                 []uint64
	clear                []int32
	maxClear, maxHashed  int
	// store and sessionID are where Learn keeps what it learns (nil:
	// nowhere).
	store     *state.Store
	sessionID string
}

// NewSet is an empty Set whose hashed forms are under key.
func NewSet(key Key) *Set { return &Set{key: key, user: key, userKnown: true} }

// userKey is the user's key: the one the set was made with, or the one in
// its store, read once. Without either, the zero key (as when the state
// directory cannot be used: nothing is stored then).
func (s *Set) userKey() Key {
	if !s.userKnown && s.store != nil {
		if k, err := UserKey(s.store); err == nil {
			s.user = k
		}
	}
	s.userKnown = true
	return s.user
}

// Len is how many forms the set looks for.
func (s *Set) Len() int {
	if s == nil {
		return 0
	}
	s.build()
	return len(s.entries)
}

// Add makes s look for v and its forms. A value that Ordinary calls
// ordinary text is left out; so is one already known.
func (s *Set) Add(v Value) {
	if Ordinary(v.Text) || slices.Contains(s.values, v.Text) {
		return
	}
	s.values = append(s.values, v.Text)
	s.pending = append(s.pending, v)
	s.maxPending = max(s.maxPending, len(v.Text))
	s.pendingSpecial = s.pendingSpecial || special(v.Text)
}

// shortestForm is a bound below the length of every encoded form of a
// value of n bytes: its shortest base64 interior is 4n/3 less a character
// or two at the ends; hex is 2n.
func shortestForm(n int) int { return max(MinLen, 4*n/3-3) }

// build makes the forms of every pending value.
func (s *Set) build() { s.buildFor(math.MaxInt, true) }

// buildFor makes the forms of the pending values that may have an encoded
// form in a text whose longest run of base64 characters (hex digits are
// among them) is longest: those whose shortest form fits in it, and, when
// the text holds an escape (escapes: '%', '\\', or '+' for a space), those
// with bytes that URL, JSON and shell escapes change. The others stay
// pending: only the values themselves can be in that text.
func (s *Set) buildFor(longest int, escapes bool) {
	if len(s.pending) == 0 {
		return
	}
	keep := s.pending[:0]
	s.maxPending, s.pendingSpecial = 0, false
	for _, v := range s.pending {
		sp := special(v.Text)
		if shortestForm(len(v.Text)) > longest && !(escapes && sp) {
			keep = append(keep, v)
			s.maxPending = max(s.maxPending, len(v.Text))
			s.pendingSpecial = s.pendingSpecial || sp
			continue
		}
		for i, f := range Forms(v.Text) {
			s.add(entry{source: v.Source, form: f, value: v.Text, n: len(f), decoded: i > 0, tag: s.tag(f)})
		}
	}
	clear(s.pending[len(keep):])
	s.pending = keep
}

// longestRun is the length of text's longest run of base64 characters.
func longestRun(text string) int {
	longest, run := 0, 0
	for i := 0; i < len(text); i++ {
		if !decode.IsBase64Char(text[i]) {
			run = 0
			continue
		}
		run++
		longest = max(longest, run)
	}
	return longest
}

// findPending finds the pending values themselves in text, ending after
// from.
func (s *Set) findPending(text string, from int) []secrets.Finding {
	var out []secrets.Finding
	start := max(0, from-s.maxPending+1)
	for _, v := range s.pending {
		for i := start; ; {
			k := strings.Index(text[i:], v.Text)
			if k < 0 {
				break
			}
			at := i + k
			if end := at + len(v.Text); end > from {
				line := 1 + strings.Count(text[:at], "\n")
				out = append(out, secrets.Finding{RuleID: RuleID, Description: v.Source, Start: at, End: end, Line: line, Secret: v.Text})
			}
			i = at + 1
		}
	}
	return out
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

// index builds the index of the entries when they changed: the entries
// sorted by tag (sorted in place: a hook process builds the index once,
// and sorting the entries themselves costs less than sorting indices
// that point into them), and the bitset of their tags. The clear forms'
// order, which only the stream's Tail needs, is built by clearIndex.
func (s *Set) index() {
	if s.indexed {
		return
	}
	s.indexed, s.clearSorted = true, false
	if s.tags == nil {
		s.tags = make([]uint64, 1<<16/64)
	} else {
		clear(s.tags)
	}
	slices.SortStableFunc(s.entries, func(a, b entry) int { return int(a.tag) - int(b.tag) })
	for _, e := range s.entries {
		s.tags[e.tag/64] |= 1 << (e.tag % 64)
	}
}

// clearIndex lists the clear forms sorted, for Tail.
func (s *Set) clearIndex() {
	s.index()
	if s.clearSorted {
		return
	}
	s.clearSorted = true
	s.clear = s.clear[:0]
	for i, e := range s.entries {
		if e.form != "" {
			s.clear = append(s.clear, int32(i))
		}
	}
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
	if s == nil {
		return nil
	}
	if len(s.pending) > 0 {
		// The part of text where a form ending after from may start (an
		// encoded form is at most four times its value).
		window := text[max(0, from-max(s.maxClear, s.maxHashed, 4*s.maxPending)):]
		s.buildFor(longestRun(window), strings.ContainsAny(window, `%\+`))
	}
	if len(s.pending) > 0 {
		out := append(s.findForms(text, from), s.findPending(text, from)...)
		slices.SortStableFunc(out, func(a, b secrets.Finding) int { return a.Start - b.Start })
		return out
	}
	return s.findForms(text, from)
}

// findForms finds the built forms (clear and hashed) in text.
func (s *Set) findForms(text string, from int) []secrets.Finding {
	if len(s.entries) == 0 {
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
		first, _ := slices.BinarySearchFunc(s.entries, t, func(e entry, t uint16) int { return int(e.tag) - int(t) })
		for j := first; j < len(s.entries); j++ {
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

// pendingTail is where text may end in the middle of a pending value
// itself (len(text) when it does not).
func (s *Set) pendingTail(text string, base int) int {
	for p := max(base, len(text)-s.maxPending+1); p < len(text); p++ {
		rest := text[p:]
		for _, v := range s.pending {
			if len(v.Text) > len(rest) && strings.HasPrefix(v.Text, rest) {
				return p
			}
		}
	}
	return len(text)
}

// Tail is where text may end in the middle of a known value's form: the
// earliest position from base on where a suffix of text starts that a
// clear form starts with, or, when forms are kept only as hashes (whose
// beginnings cannot be known), the start of the last run of non-space
// bytes (at most the longest hashed form). len(text) when neither.
func (s *Set) Tail(text string, base int) int {
	hold := len(text)
	if s == nil {
		return hold
	}
	if len(s.pending) > 0 {
		// Text that ends in a base64 character may end with the start of
		// any value's encoded form, and an escaped form may hold any byte.
		if base < len(text) && (decode.IsBase64Char(text[len(text)-1]) || s.pendingSpecial) {
			s.build()
		} else {
			hold = s.pendingTail(text, base)
		}
	}
	if len(s.entries) == 0 {
		return hold
	}
	s.clearIndex()
	for p := max(base, len(text)-s.maxClear+1); p < hold; p++ {
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
	if s == nil {
		return "none"
	}
	s.build()
	if len(s.entries) == 0 {
		return "none"
	}
	key := s.userKey()
	var acc uint64
	for _, e := range s.entries {
		sum := e.sum
		if e.form != "" {
			sum = sipHash(key.K0, key.K1, e.form)
		}
		acc += sum*0x9e3779b97f4a7c15 ^ uint64(e.n)
	}
	return fmt.Sprintf("%016x", sipHash(key.K0, key.K1, fmt.Sprintf("%d:%x", len(s.entries), acc)))
}

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
	// Key is the name of the variable or key that held it ("": not
	// known): a value equal to it is not tracked (Untracked).
	Key string
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

// entry is one form of one value a Set looks for. Small (40 bytes), as a
// process may hold hundreds: where it came from is in the Set's origins.
type entry struct {
	form    string // the form's text; "" for a hashed form
	sum     uint64
	origin  int32 // its value's place in Set.origins
	n       int32
	tag     uint16
	decoded bool
}

// origin is a value's source and, for a value known in the clear, the
// value.
type origin struct{ source, value string }

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
	// fault is why the state directory cannot keep or give back learnt
	// values (Fault), or nil.
	fault   error
	entries []entry
	origins []origin
	// pending are the origins of values added whose encoded forms are not
	// built yet (build; the value itself is an entry from Add on): most
	// texts a hook checks cannot hold an encoded form of most of them
	// (buildFor). Building the forms and their index was most of what 50
	// known values cost a hook process. maxPending is the longest pending
	// value, pendingSpecial says one has bytes that URL, JSON or shell
	// escapes.
	pending        []int32
	maxPending     int
	pendingSpecial bool
	// The index, built on first use after an Add: byTag the entries'
	// positions grouped by their tag's high byte (the group of b is
	// byTag[groups[b]:groups[b+1]], in the order they were added); tags a
	// bitset of the 16-bit tags of every form's first 8 bytes; pairs a
	// bitset of the first two bytes of every clear form, the cheaper
	// filter findForms tries first when no form is hashed (whose first
	// bytes cannot be known); clear lists the clear forms sorted (for
	// Tail; clearSorted).
	indexed, clearSorted bool
	byTag                []int32
	groups               [257]int32
	tags, pairs          []uint64
	clear                []int32
	maxClear, maxHashed  int
	// The canonical forms (canon.go) of the clear values of at least
	// CanonMinLen bytes: made for origins[:canonDone] on first use, sorted
	// by the key of their first two bytes, whose bitset is canonPairs.
	// noCanon (tests) leaves them out.
	canon       []canonEntry
	canonDone   int
	canonSorted bool
	canonFirst  []int32
	canonViews  []canonView
	// canonFirstGroups groups canonFirst (for Tail) by the high byte of
	// the forms' first two bytes' key.
	canonFirstGroups [257]int32
	canonBy          []int32
	canonGroups      [257]int32
	// hints are the parts of the text being searched that the decoded
	// view looks at (canon.go).
	hints    [][2]int
	maxCanon int
	noCanon  bool
	// The pieces' grams (pieces.go) of the clear values, made by index:
	// grouped by the high byte of their key (gramBy, gramGroups), whose
	// bitset is gramBits (by their key's high 12 bits; their first two
	// bytes are in pairs). noPieces
	// (tests) leaves them out.
	grams      []pieceGram
	gramBy     []int32
	gramGroups [257]int32
	gramBits   []uint64
	noPieces   bool
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
func (s *Set) userKey() (Key, error) {
	if !s.userKnown && s.store != nil {
		k, err := UserKey(s.store)
		if err != nil {
			return Key{}, err
		}
		s.user = k
	}
	s.userKnown = true
	return s.user, nil
}

// Len is how many forms the set looks for.
func (s *Set) Len() int {
	if s == nil {
		return 0
	}
	s.build()
	return len(s.entries)
}

// Add makes s look for v and its forms. A value Untracked says is not
// worth tracking is left out; so is one already known.
func (s *Set) Add(v Value) {
	if Untracked(v) != "" || slices.ContainsFunc(s.origins, func(o origin) bool { return o.value == v.Text }) {
		return
	}
	at := int32(len(s.origins))
	s.origins = append(s.origins, origin{source: v.Source, value: v.Text})
	s.add(entry{form: v.Text, origin: at, n: int32(len(v.Text)), tag: s.tag(v.Text)})
	s.pending = append(s.pending, at)
	s.maxPending = max(s.maxPending, len(v.Text))
	s.pendingSpecial = s.pendingSpecial || special(v.Text)
}

// shortestForm is a bound below the length of every encoded form of a
// value of n bytes: its shortest base64 interior is 4n/3 less a character
// or two at the ends; hex is 2n.
func shortestForm(n int) int { return max(MinLen, 4*n/3-3) }

// build makes the forms of every pending value.
func (s *Set) build() { s.buildIf(func(string, bool) bool { return true }) }

// buildFor makes the encoded forms of the pending values that text may
// hold one of: those with bytes that URL, JSON and shell escapes change
// when text holds an escape ('%', '\\', or '+' for a space), and those
// whose base64 or hex form's start (encodedStarts) begins a run of base64
// characters (hex digits are among them) long enough to hold the form.
// The others stay pending: only the values themselves can be in text.
func (s *Set) buildFor(text string) {
	if len(s.pending) == 0 {
		return
	}
	escapes := strings.ContainsAny(text, `%\+`)
	minRun := math.MaxInt
	for _, at := range s.pending {
		minRun = min(minRun, shortestForm(len(s.origins[at].value)))
	}
	set, longest := gramsOf(text, minRun)
	var starts []uint32
	s.buildIf(func(v string, sp bool) bool {
		if escapes && sp {
			return true
		}
		if shortestForm(len(v)) > longest {
			return false
		}
		starts = encodedStarts(v, starts[:0])
		for _, g := range starts {
			if set.has(g) {
				return true
			}
		}
		return false
	})
}

// buildIf makes the encoded forms of the pending values for which may
// (given the value and whether it is special) says so.
func (s *Set) buildIf(may func(v string, special bool) bool) {
	if len(s.pending) == 0 {
		return
	}
	keep := s.pending[:0]
	s.maxPending, s.pendingSpecial = 0, false
	for _, at := range s.pending {
		v := s.origins[at].value
		sp := special(v)
		if !may(v, sp) {
			keep = append(keep, at)
			s.maxPending = max(s.maxPending, len(v))
			s.pendingSpecial = s.pendingSpecial || sp
			continue
		}
		for _, f := range Forms(v)[1:] { // the value itself is an entry already
			s.add(entry{form: f, origin: at, n: int32(len(f)), decoded: true, tag: s.tag(f)})
		}
	}
	s.pending = keep
}

// buildForTail makes the encoded forms of the pending values that text,
// from base on, may end in the middle of: every form of a value with
// bytes that escapes change (an escaped form may hold any byte), and the
// base64 and hex forms of the others whose start (encodedStarts) agrees
// with a suffix of text's last run of base64 characters (the only place
// such a form, made of those characters alone, can have begun).
func (s *Set) buildForTail(text string, base int) {
	run := len(text)
	for run > base && run > len(text)-2*s.maxPending-3 && decode.IsBase64Char(text[run-1]) {
		run-- // no base64 or hex form is longer than 2n+2
	}
	var starts []uint32
	s.buildIf(func(v string, sp bool) bool {
		if sp {
			return true
		}
		starts = encodedStarts(v, starts[:0])
		for p := run; p < len(text); p++ {
			for _, g := range starts {
				if startAgrees(g, text[p:]) {
					return true
				}
			}
		}
		return false
	})
}

// startAgrees reports whether a form starting with the gram g may start
// with rest (rest is a prefix of the gram's bytes, or starts with them).
func startAgrees(g uint32, rest string) bool {
	for i := 0; i < startLen && i < len(rest); i++ {
		if rest[i] != byte(g>>(8*i)) {
			return false
		}
	}
	return true
}

// AddHashed makes s look for a form kept as a keyed hash (Learn keeps
// each form once).
func (s *Set) AddHashed(h Hashed) {
	if h.Len < MinLen || h.Len > math.MaxInt32 {
		return
	}
	// Learnt forms come a value's forms at a time: one origin serves them.
	at := int32(len(s.origins) - 1)
	if at < 0 || s.origins[at] != (origin{source: h.Source}) {
		at = int32(len(s.origins))
		s.origins = append(s.origins, origin{source: h.Source})
	}
	s.add(entry{origin: at, n: int32(h.Len), sum: h.Sum, decoded: h.Decoded, tag: h.Tag})
}

func (s *Set) add(e entry) {
	s.entries = append(s.entries, e)
	s.indexed = false
	if e.form != "" {
		s.maxClear = max(s.maxClear, int(e.n))
	} else {
		s.maxHashed = max(s.maxHashed, int(e.n))
	}
}

// index builds the index of the entries when they changed: their groups
// by tag, placed by counting (a hook process builds the index once, and
// sorting hundreds of forms by tag cost more than finding them in a 10 KB
// text), and the bitsets of their tags and first bytes. The clear forms'
// order, which only the stream's Tail needs, is built by clearIndex.
func (s *Set) index() {
	if s.indexed {
		return
	}
	s.indexed, s.clearSorted = true, false
	if s.tags == nil {
		bits := make([]uint64, 3<<16/64) // one allocation for both
		s.tags, s.pairs = bits[:1<<16/64], bits[1<<16/64:]
	} else {
		clear(s.tags)
		clear(s.pairs)
	}
	s.byTag = groupByHigh(len(s.entries), func(i int) uint16 { return s.entries[i].tag }, &s.groups, s.byTag)
	for _, e := range s.entries {
		s.tags[e.tag/64] |= 1 << (e.tag % 64)
		if e.form != "" {
			s.pairs[pairWord(pairKey(e.form[0], e.form[1]))] |= formBit(pairKey(e.form[0], e.form[1]))
		}
	}
	// The canonical forms' anchors and the pieces' grams go through the
	// same filter: one test a position for all.
	s.pieceIndex()
	s.canonIndex()
	for _, e := range s.canon {
		s.pairs[pairWord(e.key)] |= formBit(e.key)
	}
}

// pairs holds two bits for each pair of bytes (pairKey), side by side,
// so that one load tests both: formBit, that a form or a canonical
// form's anchor starts with the pair, and gramBit, that a piece's gram
// does.
func pairWord(p uint16) uint16 { return p / 32 }
func formBit(p uint16) uint64  { return 1 << (p % 32 * 2) }
func gramBit(p uint16) uint64  { return 2 << (p % 32 * 2) }

// groupByHigh lists the indices 0..n-1 grouped by the high byte of
// key(i), in order within a group, by counting (no sort): the group of b
// is by[groups[b]:groups[b+1]]. by's room is reused.
func groupByHigh(n int, key func(int) uint16, groups *[257]int32, by []int32) []int32 {
	*groups = [257]int32{}
	for i := range n {
		groups[key(i)>>8+1]++
	}
	for b := 1; b < len(groups); b++ {
		groups[b] += groups[b-1]
	}
	by = slices.Grow(by[:0], n)[:n]
	next := *groups
	for i := range n {
		k := key(i) >> 8
		by[next[k]] = int32(i)
		next[k]++
	}
	return by
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
		s.buildFor(window)
	}
	return s.findForms(text, from)
}

// findForms finds the built forms (clear and hashed) in text.
func (s *Set) findForms(text string, from int) []secrets.Finding {
	if len(s.entries) == 0 {
		return nil
	}
	s.index()
	longest := max(s.maxClear, s.maxHashed, s.maxCanon)
	clearOnly := s.maxHashed == 0
	hasCanon, hasPieces := len(s.canon) > 0, len(s.grams) > 0
	var out []secrets.Finding
	var parts []piece
	line, lineAt := 1, 0
	lineOf := func(i int) int {
		line += strings.Count(text[lineAt:i], "\n")
		lineAt = i
		return line
	}
	lo := max(0, from-longest+1)
	for i := lo; i+2 <= len(text); i++ {
		// A form's first two bytes or a canonical form's anchor, ASCII
		// case ignored (the folded text is matched against the
		// canonical forms).
		p := pairKey(text[i], text[i+1])
		bits := s.pairs[pairWord(p)]
		if bits&gramBit(p) != 0 && hasPieces && i+gramLen <= len(text) {
			parts = s.pieceAt(parts, text, i)
		}
		if bits&formBit(p) == 0 {
			if clearOnly {
				continue
			}
		} else if hasCanon {
			out = s.canonAt(out, text, i, from, p, lineOf)
		}
		if i+MinLen <= len(text) {
			out = s.exactAt(out, text, i, from, lineOf)
		}
	}
	if hasCanon {
		out = s.findDecoded(out, text, lo, from)
	}
	if len(parts) > 0 {
		out = s.joinPieces(out, parts, text, from)
	}
	return out
}

// exactAt appends the forms found in text at i that end after from.
func (s *Set) exactAt(out []secrets.Finding, text string, i, from int, lineOf func(int) int) []secrets.Finding {
	t := tagOf(s.key, le64(text[i:]))
	if s.tags[t/64]&(1<<(t%64)) == 0 {
		return out
	}
	{
		for _, j := range s.byTag[s.groups[t>>8]:s.groups[t>>8+1]] {
			e := &s.entries[j]
			if e.tag != t {
				continue
			}
			end := i + int(e.n)
			if end > len(text) || end <= from {
				continue
			}
			w := text[i:end]
			if e.form != "" && w != e.form || e.form == "" && sipHash(s.key.K0, s.key.K1, w) != e.sum {
				continue
			}
			o := s.origins[e.origin]
			secret := o.value
			if secret == "" {
				secret = w
			}
			out = append(out, secrets.Finding{RuleID: RuleID, Description: o.source, Start: i, End: end, Line: lineOf(i), Secret: secret, Decoded: e.decoded})
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
	if s == nil {
		return hold
	}
	if len(s.pending) > 0 && base < len(text) {
		s.buildForTail(text, base)
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
			if int(s.entries[s.clear[k]].n) > len(rest) {
				hold = p
				break
			}
		}
		if hold == p {
			break
		}
	}
	hold = s.canonTail(text, base, hold)
	hold = s.decodedTail(text, base, hold)
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
	// Without the user's key (Fault), the zero key: the hook that asks
	// fails closed on the fault anyway.
	key, _ := s.userKey()
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

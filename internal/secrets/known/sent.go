package known

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/secrets"
	"github.com/gemini-guard/gemini-guard/internal/state"
)

// A value sent in parts over several outbound calls of one session (issue
// 38): `curl -d k=<first half>` now, `curl -d k=<second half>` in the next
// call. Within one text, Find joins the parts (pieces.go). Across calls the
// session keeps a window of the parts its outbound texts held — never the
// value: the keyed hash of the value the part is of (under the user's key,
// as learnt values are) and the part's byte range — and FindSent joins a
// text's parts with the window's. Only values whose parts are joined at
// all need it (up to 24 bytes: a longer value's half is a match alone).

// SentPart is a part of a known value an outbound call of the session held.
type SentPart struct {
	// Sum is the value's keyed hash (sipHash under the user's key).
	Sum uint64 `json:"s"`
	// From and To are the part's byte range in the value.
	From int `json:"f"`
	To   int `json:"t"`
}

// maxSent bounds the session's window: the newest parts are kept.
const maxSent = 256

// sentRecord is the kind of the window's state record.
const sentRecord = "sent-parts"

// FindSent returns the findings of Find(text, 0), and when there are none,
// a finding for each part in text of a value whose parts here and in the
// session's earlier outbound texts together cover PieceMin of it; then it
// adds text's parts to the window. Without a state store, a session or
// the user's key it is Find alone. A window that cannot be read is no
// window (the parts of this call alone are judged, as before); one that
// cannot be written loses nothing already found.
func (s *Set) FindSent(text string) []secrets.Finding {
	found := s.Find(text, 0)
	if s == nil || len(found) > 0 || s.store == nil || s.sessionID == "" || len(s.grams) == 0 {
		return found
	}
	parts := s.piecesIn(text)
	if len(parts) == 0 {
		return found
	}
	key, err := s.userKey()
	if err != nil {
		return found
	}
	sums := map[int32]uint64{}
	var mine []SentPart
	for _, p := range parts {
		v := s.origins[p.origin].value
		if p.to-p.from < pieceJoin(len(v)) {
			continue
		}
		sum, ok := sums[p.origin]
		if !ok {
			sum = sipHash(key.K0, key.K1, v)
			sums[p.origin] = sum
		}
		mine = append(mine, SentPart{Sum: sum, From: p.from, To: p.to})
	}
	if len(mine) == 0 {
		return found
	}
	k := state.Key(sentRecord, s.sessionID)
	var earlier []SentPart
	_ = s.store.Update(k, func(old []byte) ([]byte, error) {
		if json.Unmarshal(old, &earlier) != nil {
			earlier = nil
		}
		all := append(slices.Clone(earlier), mine...)
		if len(all) > maxSent {
			all = all[len(all)-maxSent:]
		}
		return json.Marshal(all)
	})
	return s.joinSent(parts, sums, earlier, text)
}

// piecesIn are the parts of the set's values in text (pieceAt at every
// place a gram may start).
func (s *Set) piecesIn(text string) []piece {
	s.index()
	var parts []piece
	for i := 0; i+gramLen <= len(text); i++ {
		p := pairKey(text[i], text[i+1])
		if s.pairs[pairWord(p)]&gramBit(p) != 0 {
			parts = s.pieceAt(parts, text, i)
		}
	}
	return parts
}

// joinSent returns a finding for each part in text (of at least
// pieceJoin bytes) of a value whose parts here and the earlier ones of the
// same value cover PieceMin of it.
func (s *Set) joinSent(parts []piece, sums map[int32]uint64, earlier []SentPart, text string) []secrets.Finding {
	var out []secrets.Finding
	for origin, sum := range sums {
		o := s.origins[origin]
		n := len(o.value)
		var c coverage
		for _, e := range earlier {
			if e.Sum == sum && e.To-e.From >= pieceJoin(n) {
				c.mark(e.From, min(e.To, n))
			}
		}
		if c.count == 0 {
			continue // nothing of it sent before: this call alone was judged by Find
		}
		var here []piece
		for _, p := range parts {
			if p.origin == origin && p.to-p.from >= pieceJoin(n) {
				c.mark(p.from, p.to)
				here = append(here, p)
			}
		}
		if c.count < PieceMin(n) {
			continue
		}
		for _, p := range here {
			end := p.at + p.to - p.from
			out = append(out, secrets.Finding{RuleID: RuleID, Description: o.source + " (the rest of it sent earlier in this session)",
				Start: p.at, End: end, Line: 1 + strings.Count(text[:p.at], "\n"), Secret: text[p.at:end]})
		}
	}
	slices.SortStableFunc(out, func(a, b secrets.Finding) int { return a.Start - b.Start })
	return out
}

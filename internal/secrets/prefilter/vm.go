package prefilter

import (
	"regexp/syntax"
	"unicode/utf8"
)

// The streaming redactor must know, at the end of the text received so far,
// whether a rule's match could still be under way, and where that match's
// secret starts. Go's regexp cannot answer "could this still match with
// more input", so this file runs the rule's compiled program itself: a Pike
// VM (one thread per instruction, leftmost-first priorities, like regexp's
// own NFA) that treats the end of the text as "more may follow".

// thread is one path through the program.
type thread struct {
	start int // where its match attempt started
	cap   int // where a capture group first opened, -1 if none yet
}

type entry struct {
	pc    uint32
	t     thread
	stuck bool // waits at an assertion about text not received yet
}

// queue is a sparse set of instructions in priority order.
type queue struct {
	sparse []uint32
	dense  []entry
}

// dense grows as threads are added: a program of thousands of instructions
// (tool-password-flag's) mostly runs a few dozen threads at a time, and
// room for all of them cost a hook process 100 KB of new memory.
func newQueue(n int) *queue {
	return &queue{sparse: make([]uint32, n), dense: make([]entry, 0, min(n, 64))}
}

// fit makes q hold programs of n instructions, keeping its memory when it
// is large enough. sparse needs no clearing: has checks every index it
// reads against dense.
func (q *queue) fit(n int) {
	if cap(q.sparse) < n {
		q.sparse = make([]uint32, n)
	}
	q.sparse = q.sparse[:n]
	q.dense = q.dense[:0]
}

func (q *queue) has(pc uint32) bool {
	i := q.sparse[pc]
	return int(i) < len(q.dense) && q.dense[i].pc == pc
}

func (q *queue) put(e entry) {
	q.sparse[e.pc] = uint32(len(q.dense))
	q.dense = append(q.dense, e)
}

// match is a complete match: [start, end) with its secret opening at cap.
type match struct{ start, end, cap int }

// vm runs one rule's program over one text.
type vm struct {
	p        *program
	text     string
	anchored bool // try a match at the search position only
	// final says that text is complete: the end is the real end of the
	// text, and assertions about it are decided.
	final  bool
	q0, q1 *queue
}

func newVM(p *program, text string) *vm {
	n := len(p.inst)
	return &vm{p: p, text: text, q0: newQueue(n), q1: newQueue(n)}
}

// queues are a VM's two queues, kept by a Watch for the VMs it runs one
// after another: one rule's program can run to thousands of instructions,
// and a chunk may try dozens of rules. Allocating fresh queues for each
// cost a hook process hundreds of KB of new memory per chunk.
type queues struct{ q0, q1 queue }

// vm returns a VM for s over text that uses qs's memory; the previous VM
// made from qs must no longer be in use.
func (qs *queues) vm(p *program, text string) *vm {
	n := len(p.inst)
	qs.q0.fit(n)
	qs.q1.fit(n)
	return &vm{p: p, text: text, q0: &qs.q0, q1: &qs.q1}
}

// pendingSecret reports where the secret of a match that the text received
// so far leaves undecided starts: the earliest such position, or -1 when no
// undecided match has started its secret (more text may still complete a
// match, but its secret will lie in that new text).
//
// It emulates regexp's FindAll from position from: leftmost-first matches,
// the search resuming at the end of each match.
func (m *vm) pendingSecret(from int) int {
	pos := from
	for pos <= len(m.text) {
		done, mt, pending := m.search(pos)
		if !done {
			if pending >= len(m.text) {
				return -1 // the secret would start in text not received yet
			}
			return pending
		}
		if mt.end < 0 {
			return -1
		}
		if mt.end > mt.start {
			pos = mt.end
		} else {
			_, w := utf8.DecodeRuneInString(m.text[mt.end:])
			pos = mt.end + max(w, 1)
		}
	}
	return -1
}

// attempt tries a single match at from. It reports whether a match was
// found (or may be, with a match found but a preferred one still
// undecided), and where the secret of an undecided attempt starts (-1 when
// it is decided or its secret has not started).
func (m *vm) attempt(from int) (matched bool, pending int) {
	m.anchored = true
	defer func() { m.anchored = false }()
	done, mt, pending := m.search(from)
	matched = mt.end >= 0
	if done || pending >= len(m.text) {
		return matched, -1
	}
	return matched, pending
}

// search looks for the leftmost-first match starting at or after pos. It
// returns done with the match (end -1 when there is none), or !done with
// the earliest secret start among the attempts still undecided (-1 when
// none has opened its secret).
func (m *vm) search(pos int) (done bool, mt match, pending int) {
	cl, nl := m.q0, m.q1
	cl.dense, nl.dense = cl.dense[:0], nl.dense[:0]
	matched := false
	mt = match{-1, -1, -1}
	for i := pos; ; {
		if !matched && (!m.anchored || i == pos) {
			t := thread{start: i, cap: -1}
			if !m.p.groups {
				t.cap = i
			}
			m.add(cl, m.p.start, t, i)
		}
		if i == len(m.text) && m.final {
			// No more input: only a match standing here counts.
			for _, e := range cl.dense {
				if m.p.inst[e.pc].op == syntax.InstMatch {
					return true, match{e.t.start, i, e.t.cap}, -1
				}
			}
			return true, mt, -1
		}
		if i == len(m.text) {
			pending = -1
			alive := false
			for _, e := range cl.dense {
				in := &m.p.inst[e.pc]
				if in.op == syntax.InstMatch && !e.stuck {
					matched = true
					mt = match{e.t.start, i, e.t.cap}
					break
				}
				if e.stuck || m.p.consuming(in) {
					alive = true
					pending = minPos(pending, e.t.cap)
				}
			}
			if alive {
				if matched {
					pending = minPos(pending, mt.cap)
				}
				return false, mt, pending
			}
			return true, mt, -1
		}
		if len(cl.dense) == 0 && (matched || m.anchored) {
			return true, mt, -1
		}
		r, w := utf8.DecodeRuneInString(m.text[i:])
		for _, e := range cl.dense {
			in := &m.p.inst[e.pc]
			if in.op == syntax.InstMatch {
				matched = true
				mt = match{e.t.start, i, e.t.cap}
				break // lower-priority threads lose to this match
			}
			if m.p.consumes(in, r) {
				m.add(nl, in.out, e.t, i+w)
			}
		}
		cl, nl = nl, cl
		nl.dense = nl.dense[:0]
		i += w
	}
}

// add puts pc and everything reachable from it without consuming into q,
// in priority order, for a thread standing at position pos.
func (m *vm) add(q *queue, pc uint32, t thread, pos int) {
	if q.has(pc) {
		return
	}
	in := &m.p.inst[pc]
	q.put(entry{pc: pc, t: t})
	switch in.op {
	case syntax.InstAlt, syntax.InstAltMatch:
		m.add(q, in.out, t, pos)
		m.add(q, in.arg, t, pos)
	case syntax.InstNop:
		m.add(q, in.out, t, pos)
	case syntax.InstCapture:
		if in.arg >= 2 && in.arg%2 == 0 && t.cap < 0 {
			t.cap = pos
		}
		m.add(q, in.out, t, pos)
	case syntax.InstEmptyWidth:
		r1 := rune(-1)
		if pos > 0 {
			r1, _ = utf8.DecodeLastRuneInString(m.text[:pos])
		}
		op := syntax.EmptyOp(in.arg)
		if pos == len(m.text) && !m.final {
			// What follows is not known yet. Assertions about what precedes
			// are decided now; one about what follows may still hold, so
			// the thread stays alive, waiting at the assertion.
			const begin = syntax.EmptyBeginLine | syntax.EmptyBeginText
			if op&begin&^syntax.EmptyOpContext(r1, -1) != 0 {
				return
			}
			if op&^begin != 0 {
				q.dense[len(q.dense)-1].stuck = true
				return
			}
			m.add(q, in.out, t, pos)
			return
		}
		r2 := rune(-1)
		if pos < len(m.text) {
			r2, _ = utf8.DecodeRuneInString(m.text[pos:])
		}
		if op&^syntax.EmptyOpContext(r1, r2) == 0 {
			m.add(q, in.out, t, pos)
		}
	}
}

func minPos(a, b int) int {
	switch {
	case a < 0:
		return b
	case b < 0:
		return a
	}
	return min(a, b)
}

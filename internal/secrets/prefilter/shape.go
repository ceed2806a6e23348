package prefilter

import (
	"regexp/syntax"
	"unicode"
	"unicode/utf8"
)

// unbounded marks a length that has no upper limit.
const unbounded = -1

// shape is what the streaming redactor needs to know about one rule's
// pattern, read off its compiled program: how long a match can be, how much
// of a match can come before and after its secret, and which characters the
// secret can hold. It is computed once per rule and process.
type shape struct {
	prog   *syntax.Prog
	groups bool // the pattern has capture groups
	// vm is the program in the form the VM runs.
	vm *program
	// maxLen is the longest match in bytes, or unbounded.
	maxLen int
	// maxPrefix is the most bytes a match can hold before its secret starts
	// (the keyword and operator of `api_key = "…"`), or unbounded.
	maxPrefix int
	// maxSuffix is the most bytes a match can hold after its secret ends
	// (a closing quote or terminator), or unbounded.
	maxSuffix int
	// ascii[c] tells whether the secret can hold the ASCII character c;
	// secretRune answers for the others.
	ascii [utf8.RuneSelf]bool
	insts []*syntax.Inst // consuming instructions inside the secret
	// minRun is the fewest runes that every match consumes in one run
	// inside a capture group (in the whole match without groups), all of
	// them runes the secret can hold; 0 when some match need not.
	minRun int
}

// compileSyntax compiles pattern (Go regexp syntax) to the program the
// analysis reads, and tells whether it has capture groups.
func compileSyntax(pattern string) (prog *syntax.Prog, groups bool, err error) {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return nil, false, err
	}
	prog, err = syntax.Compile(re.Simplify())
	if err != nil {
		return nil, false, err
	}
	for _, in := range prog.Inst {
		if in.Op == syntax.InstCapture {
			return prog, true, nil
		}
	}
	return prog, false, nil
}

// newShape compiles pattern (Go regexp syntax, as gitleaks uses) and
// analyses it. Invalid patterns return the syntax error.
func newShape(pattern string) (*shape, error) {
	prog, groups, err := compileSyntax(pattern)
	if err != nil {
		return nil, err
	}
	s := &shape{prog: prog, groups: groups, vm: newProgram(prog, groups)}
	s.maxLen = longest(prog, []int{prog.Start}, func(in *syntax.Inst) bool { return in.Op == syntax.InstMatch })
	if !s.groups {
		// Without groups gitleaks takes the whole match as the secret.
		s.maxPrefix, s.maxSuffix = 0, 0
		for i := range prog.Inst {
			if width(&prog.Inst[i]) > 0 {
				s.insts = append(s.insts, &prog.Inst[i])
			}
		}
	} else {
		s.maxPrefix = longest(prog, []int{prog.Start}, isOpen)
		var closes []int
		for i := range prog.Inst {
			if in := &prog.Inst[i]; in.Op == syntax.InstCapture && in.Arg%2 == 1 {
				closes = append(closes, i)
			}
		}
		s.maxSuffix = longest(prog, closes, func(in *syntax.Inst) bool { return in.Op == syntax.InstMatch })
		s.insts = insideGroups(prog)
	}
	for c := range utf8.RuneSelf {
		s.ascii[c] = s.slowSecretRune(rune(c))
	}
	s.minRun = minRun(prog, groups)
	return s, nil
}

// minRun is the fewest runes every match of prog consumes between the opening
// and the closing of one capture group (between start and match without
// groups): a text with no run that long of runes the secret can hold has no
// match, and the rule's regexp need not even be compiled for it. A group
// that every match opens gives its own bound, the largest such counts;
// else, when every match opens some group, the smallest group's. It is 0
// when a match can avoid every group.
func minRun(prog *syntax.Prog, groups bool) int {
	start := uint32(prog.Start)
	isMatch := func(in *syntax.Inst) bool { return in.Op == syntax.InstMatch }
	if !groups {
		return max(fewest(prog, start, isMatch, nil), 0)
	}
	unavoidable, smallest := 0, -1
	for i := range prog.Inst {
		open := &prog.Inst[i]
		if !isOpen(open) {
			continue
		}
		isClose := func(in *syntax.Inst) bool { return in.Op == syntax.InstCapture && in.Arg == open.Arg+1 }
		n := fewest(prog, open.Out, isClose, nil)
		if n < 0 {
			continue
		}
		if smallest < 0 || n < smallest {
			smallest = n
		}
		if fewest(prog, start, isMatch, func(in *syntax.Inst) bool { return in == open }) < 0 {
			unavoidable = max(unavoidable, n)
		}
	}
	if unavoidable > 0 {
		return unavoidable
	}
	if fewest(prog, start, isMatch, isOpen) >= 0 {
		return 0 // a match without any group
	}
	return max(smallest, 0)
}

// fewest is the fewest runes a path from pc consumes before it reaches an
// instruction for which stop is true, never passing one for which avoid is
// true (nil: none); -1 when no such path exists. Every path of the program
// graph counts, also those an assertion would cut: a lower bound.
func fewest(prog *syntax.Prog, pc uint32, stop, avoid func(*syntax.Inst) bool) int {
	// Breadth-first in rounds of equal cost: instructions that consume
	// cost one rune, the others none.
	seen := make([]bool, len(prog.Inst))
	cur := []uint32{pc}
	for cost := 0; len(cur) > 0; cost++ {
		var nextRound []uint32
		for len(cur) > 0 {
			pc := cur[len(cur)-1]
			cur = cur[:len(cur)-1]
			in := &prog.Inst[pc]
			if seen[pc] || avoid != nil && avoid(in) {
				continue
			}
			seen[pc] = true
			if stop(in) {
				return cost
			}
			if width(in) > 0 {
				nextRound = append(nextRound, next(in)...)
			} else {
				cur = append(cur, next(in)...)
			}
		}
		cur = nextRound
	}
	return -1
}

// secretRune reports whether r can be part of the rule's secret.
func (s *shape) secretRune(r rune) bool {
	if r >= 0 && r < utf8.RuneSelf {
		return s.ascii[r]
	}
	return s.slowSecretRune(r)
}

func (s *shape) slowSecretRune(r rune) bool {
	for _, in := range s.insts {
		if consumes(in, r) {
			return true
		}
	}
	return false
}

func isOpen(in *syntax.Inst) bool { return in.Op == syntax.InstCapture && in.Arg >= 2 && in.Arg%2 == 0 }

// consumes reports whether the consuming instruction in matches r.
func consumes(in *syntax.Inst, r rune) bool {
	switch in.Op {
	case syntax.InstRune:
		return in.MatchRune(r)
	case syntax.InstRune1:
		return r == in.Rune[0]
	case syntax.InstRuneAny:
		return true
	case syntax.InstRuneAnyNotNL:
		return r != '\n'
	}
	return false
}

// width is the most bytes the instruction consumes: 0 for the ones that
// consume nothing. Case folding can widen a letter (k matches the 3-byte
// Kelvin sign), so folded runes count their whole orbit. Invalid UTF-8 is
// read as U+FFFD one byte at a time, never wider than counted here.
func width(in *syntax.Inst) int {
	switch in.Op {
	case syntax.InstRuneAny, syntax.InstRuneAnyNotNL:
		return utf8.UTFMax
	case syntax.InstRune1:
		return runeLen(in.Rune[0])
	case syntax.InstRune:
		w := 0
		if len(in.Rune) == 1 {
			r0 := in.Rune[0]
			w = runeLen(r0)
			if syntax.Flags(in.Arg)&syntax.FoldCase != 0 {
				for r := unicode.SimpleFold(r0); r != r0; r = unicode.SimpleFold(r) {
					w = max(w, runeLen(r))
				}
			}
			return w
		}
		for i := 1; i < len(in.Rune); i += 2 {
			w = max(w, runeLen(in.Rune[i]))
		}
		return w
	}
	return 0
}

func runeLen(r rune) int {
	if n := utf8.RuneLen(r); n > 0 {
		return n
	}
	return utf8.UTFMax
}

// next lists the instructions control can pass to from in.
func next(in *syntax.Inst) []uint32 {
	switch in.Op {
	case syntax.InstMatch, syntax.InstFail:
		return nil
	case syntax.InstAlt, syntax.InstAltMatch:
		return []uint32{in.Out, in.Arg}
	}
	return []uint32{in.Out}
}

// longest is the most bytes a path from one of the starts can consume before
// it reaches an instruction for which stop is true (stopping there), or
// unbounded when such a path can loop through a consuming instruction. It is
// 0 when no stop instruction is reachable.
func longest(prog *syntax.Prog, starts []int, stop func(*syntax.Inst) bool) int {
	const (
		unseen = iota
		active
		done
	)
	state := make([]uint8, len(prog.Inst))
	best := make([]int, len(prog.Inst)) // -2: stop unreachable from here
	infinite := false
	var visit func(pc uint32) int
	visit = func(pc uint32) int {
		switch state[pc] {
		case active:
			// A loop. It is a problem only if it consumes and a stop is
			// reachable from it; be conservative and call it unbounded when
			// it consumes anything at all.
			infinite = infinite || loopConsumes(prog, pc)
			return -2
		case done:
			return best[pc]
		}
		state[pc] = active
		in := &prog.Inst[pc]
		res := -2
		if stop(in) {
			res = 0
		} else {
			for _, n := range next(in) {
				if v := visit(n); v >= 0 {
					res = max(res, v+width(in))
				}
			}
		}
		state[pc] = done
		best[pc] = res
		return res
	}
	out := 0
	for _, st := range starts {
		out = max(out, visit(uint32(st)))
	}
	if infinite {
		return unbounded
	}
	return out
}

// loopConsumes reports whether some cycle through pc consumes input.
func loopConsumes(prog *syntax.Prog, pc uint32) bool {
	// Breadth-first from pc's successors, looking for pc, remembering
	// whether a consuming instruction was passed.
	type item struct {
		pc       uint32
		consumed bool
	}
	seen := make(map[item]bool)
	queue := []item{}
	w := width(&prog.Inst[pc]) > 0
	for _, n := range next(&prog.Inst[pc]) {
		queue = append(queue, item{n, w})
	}
	for len(queue) > 0 {
		it := queue[0]
		queue = queue[1:]
		if seen[it] {
			continue
		}
		seen[it] = true
		if it.pc == pc {
			if it.consumed {
				return true
			}
			continue
		}
		c := it.consumed || width(&prog.Inst[it.pc]) > 0
		for _, n := range next(&prog.Inst[it.pc]) {
			queue = append(queue, item{n, c})
		}
	}
	return false
}

// insideGroups lists the consuming instructions that can run between the
// opening and the closing of a capture group: reachable from the opening
// without passing its closing, and able to reach the closing.
func insideGroups(prog *syntax.Prog) []*syntax.Inst {
	prev := make([][]uint32, len(prog.Inst))
	for pc := range prog.Inst {
		for _, n := range next(&prog.Inst[pc]) {
			prev[n] = append(prev[n], uint32(pc))
		}
	}
	var out []*syntax.Inst
	seen := make([]bool, len(prog.Inst))
	fwd := make([]bool, len(prog.Inst))
	bwd := make([]bool, len(prog.Inst))
	for i := range prog.Inst {
		open := &prog.Inst[i]
		if !isOpen(open) {
			continue
		}
		closeArg := open.Arg + 1
		clear(fwd)
		clear(bwd)
		walk(fwd, []uint32{open.Out}, func(pc uint32) []uint32 {
			in := &prog.Inst[pc]
			if in.Op == syntax.InstCapture && in.Arg == closeArg {
				return nil
			}
			return next(in)
		})
		var closes []uint32
		for pc := range prog.Inst {
			if in := &prog.Inst[pc]; in.Op == syntax.InstCapture && in.Arg == closeArg {
				closes = append(closes, uint32(pc))
			}
		}
		walk(bwd, closes, func(pc uint32) []uint32 { return prev[pc] })
		for pc := range prog.Inst {
			in := &prog.Inst[pc]
			if fwd[pc] && bwd[pc] && !seen[pc] && width(in) > 0 {
				seen[pc] = true
				out = append(out, in)
			}
		}
	}
	return out
}

// walk marks every instruction reachable from starts through edges.
func walk(mark []bool, starts []uint32, edges func(uint32) []uint32) {
	stack := append([]uint32(nil), starts...)
	for len(stack) > 0 {
		pc := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if mark[pc] {
			continue
		}
		mark[pc] = true
		stack = append(stack, edges(pc)...)
	}
}

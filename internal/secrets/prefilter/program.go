package prefilter

import (
	"regexp/syntax"
	"slices"
)

// program is a rule's compiled pattern in the form the VM runs: the
// instructions of a syntax.Prog with their rune lists moved to one table,
// so that an instruction holds no pointer.
//
// The built-in rules' programs are generated as Go literals (rules_gen.go),
// some 18,000 instructions. As syntax.Inst values, each with its own Rune
// slice, they filled 700 KB of the binary's pointer-holding data, which
// every hook process has the runtime walk at start-up (the data section's
// pointer mask is built from the whole section), whether or not a rule ever
// runs. Without pointers the table is plain data that nothing reads until a
// rule runs, at half the size.
type program struct {
	inst   []inst
	runes  []rune // every instruction's runes, runes[in.lo:in.hi]
	start  uint32
	groups bool // the pattern has capture groups
}

// inst is a syntax.Inst whose Rune is runes[lo:hi] of its program.
type inst struct {
	op       syntax.InstOp
	out, arg uint32
	lo, hi   uint32
}

// compileProgram compiles pattern (Go regexp syntax) for the VM.
func compileProgram(pattern string) (*program, error) {
	prog, groups, err := compileSyntax(pattern)
	if err != nil {
		return nil, err
	}
	return newProgram(prog, groups), nil
}

// newProgram is prog in the VM's form. Instructions with equal runes share
// them (a counted repetition repeats its class: `[\w.-]{0,50}`).
func newProgram(prog *syntax.Prog, groups bool) *program {
	p := &program{inst: make([]inst, len(prog.Inst)), start: uint32(prog.Start), groups: groups}
	at := make(map[string]uint32) // runes already in the table, by value
	for i, in := range prog.Inst {
		p.inst[i] = inst{op: in.Op, out: in.Out, arg: in.Arg}
		if len(in.Rune) == 0 {
			continue
		}
		key := string(in.Rune) // a key only: invalid runes turn into U+FFFD alike, so compare below
		lo, ok := at[key]
		if !ok || !slices.Equal(p.runes[lo:lo+uint32(len(in.Rune))], in.Rune) {
			lo = uint32(len(p.runes))
			p.runes = append(p.runes, in.Rune...)
			at[key] = lo
		}
		p.inst[i].lo, p.inst[i].hi = lo, lo+uint32(len(in.Rune))
	}
	return p
}

// syntaxInst is in as a syntax.Inst, for the rune matching syntax does.
func (p *program) syntaxInst(in *inst) syntax.Inst {
	return syntax.Inst{Op: in.op, Out: in.out, Arg: in.arg, Rune: p.runes[in.lo:in.hi:in.hi]}
}

// consumes reports whether the consuming instruction in matches r.
func (p *program) consumes(in *inst, r rune) bool {
	switch in.op {
	case syntax.InstRune:
		si := p.syntaxInst(in)
		return si.MatchRune(r)
	case syntax.InstRune1:
		return r == p.runes[in.lo]
	case syntax.InstRuneAny:
		return true
	case syntax.InstRuneAnyNotNL:
		return r != '\n'
	}
	return false
}

// consuming reports whether in consumes a rune when it runs (width > 0).
func (p *program) consuming(in *inst) bool {
	switch in.op {
	case syntax.InstRuneAny, syntax.InstRuneAnyNotNL, syntax.InstRune1:
		return true
	case syntax.InstRune:
		return in.hi > in.lo
	}
	return false
}

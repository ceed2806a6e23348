package shell

import (
	"fmt"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// Memory budgets of one analysis, in bytes of expanded text. A few bytes
// of bash make gigabytes: x=aaaaaaaa; y=${x//?/$x} squares the length at
// each step, and expand.Fields builds the whole result before it returns
// (a 330-byte command took the shell hook to 1.8 GB and past its
// deadline). So each word's expansion is bounded before it is made
// (expansionBound), and so is the sum of all of them; past either the
// analysis stops with a TooComplex hazard, which is denied. maxValue
// (what a variable keeps) is far below maxWordBytes: a word made of a few
// known variables never reaches it.
const (
	maxWordBytes     = 1 << 20
	maxExpandedBytes = 4 << 20
	// unknownBytes bounds what an unknown expands to: a marker
	// (Result.newUnknown), a few bytes.
	unknownBytes = 64
)

// affordable reports whether the analysis may expand w, copies times (its
// brace expansion's words): its expansion's bound fits maxWordBytes and,
// with everything expanded before it, maxExpandedBytes. When it does not,
// the analysis stops (TooComplex) and the caller treats w as unknown.
func (a *analyzer) affordable(wc *wordCtx, w *syntax.Word, copies int) bool {
	n := satMul(expansionBound(env{a: a, st: wc.st}, w, wc.subst), max(copies, 1))
	if n > maxWordBytes {
		a.stop(wc.f, wordSource(wc.f.src, w), fmt.Sprintf("a word that expands to more than %d MiB", maxWordBytes>>20))
		return false
	}
	if a.expanded = satAdd(a.expanded, n); a.expanded > maxExpandedBytes {
		a.stop(wc.f, wordSource(wc.f.src, w), fmt.Sprintf("words that expand to more than %d MiB in all", maxExpandedBytes>>20))
		return false
	}
	return true
}

// expansionBound is an upper bound of the bytes w expands to under e, from
// its syntax and the sizes of the variables e knows, without expanding
// anything. subst holds what its substitutions expand to.
func expansionBound(e env, w *syntax.Word, subst map[syntax.Node]string) int {
	if w == nil {
		return 0
	}
	return partsBound(e, w.Parts, subst)
}

func partsBound(e env, parts []syntax.WordPart, subst map[syntax.Node]string) int {
	n := 0
	for _, p := range parts {
		n = satAdd(n, partBound(e, p, subst))
	}
	return n
}

func partBound(e env, p syntax.WordPart, subst map[syntax.Node]string) int {
	switch p := p.(type) {
	case *syntax.Lit:
		return len(p.Value)
	case *syntax.SglQuoted:
		return len(p.Value)
	case *syntax.DblQuoted:
		return partsBound(e, p.Parts, subst)
	case *syntax.ParamExp:
		return paramBound(e, p, subst)
	case *syntax.CmdSubst:
		if v, ok := subst[p]; ok {
			return len(v)
		}
		return unknownBytes
	case *syntax.ProcSubst:
		if v, ok := subst[p]; ok {
			return len(v)
		}
		return unknownBytes
	case *syntax.ExtGlob:
		return len(p.Pattern.Value) + 4
	case *syntax.BraceExp:
		n := 0
		for _, el := range p.Elems {
			n = satAdd(n, expansionBound(e, el, subst))
		}
		return n
	default:
		// Arithmetic ($((...))) gives a number; anything else is at
		// most a marker.
		return unknownBytes
	}
}

// paramBound bounds ${...}: the variable's size, grown by what its
// operation can add. ${x//pat/with} replaces at most len(x)+1 matches.
func paramBound(e env, p *syntax.ParamExp, subst map[syntax.Node]string) int {
	if p.Length || p.Width {
		return 20
	}
	if p.Names != 0 {
		// ${!prefix*}: the names of variables.
		n := 0
		e.Each(func(name string, _ expand.Variable) bool {
			n = satAdd(n, len(name)+1)
			return true
		})
		return n
	}
	base := unknownBytes
	if p.Param != nil {
		if p.Excl {
			// ${!x}: the value of the variable x names, whichever.
			base = largestVar(e)
		} else {
			base = varBytes(e, p.Param.Value)
		}
	}
	if p.Repl != nil {
		with := expansionBound(e, p.Repl.With, subst)
		base = satAdd(base, satMul(satAdd(base, 1), with))
	}
	if p.Exp != nil {
		switch p.Exp.Op {
		case syntax.UpperFirst, syntax.UpperAll, syntax.LowerFirst, syntax.LowerAll:
			// Case mapping can lengthen a character's UTF-8.
			base = satMul(base, 3)
		case syntax.OtherParamOps:
			// @Q, @E, @P, @A, @K: quoting can make a byte four.
			base = satAdd(satMul(base, 4), unknownBytes)
		default:
			base = satAdd(base, expansionBound(e, p.Exp.Word, subst))
		}
	}
	if len(p.Modifiers) > 0 {
		base = satMul(base, 4)
	}
	return base
}

// varBytes is the size of the variable name's value: all its elements for
// an array, unknownBytes for one the analysis does not know (a marker).
func varBytes(e env, name string) int {
	v, ok := e.knownVar(name)
	if !ok {
		return unknownBytes
	}
	return valueBytes(v)
}

func valueBytes(v expand.Variable) int {
	n := len(v.Str)
	for _, s := range v.List {
		n = satAdd(n, len(s)+1)
	}
	for k, s := range v.Map {
		n = satAdd(n, len(k)+len(s)+1)
	}
	return max(n, unknownBytes)
}

// largestVar is the size of the largest value a variable holds.
func largestVar(e env) int {
	n := unknownBytes
	e.Each(func(_ string, v expand.Variable) bool {
		n = max(n, valueBytes(v))
		return true
	})
	for _, name := range []string{"HOME", "PWD", "@"} {
		n = max(n, varBytes(e, name))
	}
	return n
}

// satAdd and satMul saturate at satMax instead of overflowing.
const satMax = 1 << 50

func satAdd(a, b int) int { return min(a+b, satMax) }

func satMul(a, b int) int {
	if a == 0 || b == 0 {
		return 0
	}
	if a > satMax/b {
		return satMax
	}
	return a * b
}

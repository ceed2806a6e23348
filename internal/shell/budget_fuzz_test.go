package shell

import (
	"testing"
	"time"
)

// Bounds the fuzz target holds one analysis to: far above what the
// budgets let through (maxExpandedBytes of text, with the copies the
// analysis keeps of it), far below what would bring a hook near
// hook.MemoryCeiling or its 4 s deadline.
const (
	fuzzMaxAlloc = 256 << 20
	fuzzMaxTime  = 3 * time.Second
)

// FuzzAnalyzeBudget hunts for commands that make the analysis allocate or
// run past those bounds: text that multiplies (${x//?/$x}, $x$x, loops,
// braces, heredocs, printf). Commands are at most 4 KiB, the size of a
// command a model writes; the 330-byte bomb of issue #25 is a seed.
// Inputs it found are kept in testdata/fuzz/FuzzAnalyzeBudget and run by
// go test as regression cases.
func FuzzAnalyzeBudget(f *testing.F) {
	for _, s := range budgetBombs {
		f.Add(s)
	}
	for _, s := range []string{
		`x=ab; x=$x$x; x=$x$x; x=$x$x; x=$x$x; echo $x`,
		`for i in {1..100}; do for j in {1..100}; do echo $i$j; done; done`,
		`printf '%0100000d' 1`,
		`x=$(printf '%s%s' a b); y=${x//?/$x$x}; echo $y`,
		`f() { echo $1$1; }; x=$(f $(f $(f ab)))`,
		`a=(x y z); b=(${a[@]} ${a[@]}); echo ${b[@]//?/${b[*]}}`,
		`eval "x=\${y//?/\$y}"`,
		`bash -c 'x=aaaa; y=${x//?/$x}; echo $y'`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 4096 {
			t.Skip()
		}
		alloc, took, _ := measure(src)
		if alloc > fuzzMaxAlloc {
			t.Errorf("the analysis allocated %d MiB (bound %d MiB)", alloc>>20, fuzzMaxAlloc>>20)
		}
		if took > fuzzMaxTime {
			t.Errorf("the analysis took %v (bound %v)", took, fuzzMaxTime)
		}
	})
}

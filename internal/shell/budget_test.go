package shell

import (
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// budgetBombs multiply text at each step: ${x//?/$x} squares it, $x$x
// doubles it, loops and brace expansions repeat it.
var budgetBombs = []string{
	`x=aaaaaaaa; y=${x//?/$x}; z=${y//?/$y}; w=${z//?/$z}; v=${w//?/$w}; echo $v`,
	`x=aaaaaaaa; y=${x//?/$x}; z=${y//?/$y}; a=${z//?/aaaaaaaaaaaaaaa}; b=${a//?/$a}; echo $b`,
	`x=aaaaaaaa; y=${x//?/$x}; z=${y//?/$y}; a=${z//?/aaaaaaaaaaaaaaa}; echo {1..64}$a`,
	`x=aaaaaaaa; y=${x//?/$x}; z=${y//?/$y}; a=${z//?/aaaaaaaaaaaaaaa}; cat <<EOF
$a$a$a$a$a$a$a$a$a$a$a$a$a$a$a$a$a$a$a$a
EOF`,
	`x=aaaaaaaa; y=${x//?/$x}; z=${y//?/$y}; a=${z//?/aaaaaaaaaaaaaaa}; b="${a^^}${a^^}${a^^}${a^^}${a^^}${a^^}"; echo $b`,
	`x=aaaaaaaa; y=${x//?/$x}; z=${y//?/$y}; a=${z//?/aaaaaaaaaaaaaaa}; b=${a:-$a}${a/#/$a}${a@Q}; echo $b$b$b$b$b$b$b$b$b`,
	`x=aaaaaaaa; y=${x//?/$x}; z=${y//?/$y}; a=${z//?/aaaaaaaaaaaaaaa}; echo ` + strings.Repeat("$a$a$a$a$a$a$a$a ", 40),
}

// TestBudgetStopsBombs: each bomb stops the analysis as too complex,
// quickly and with little memory allocated.
func TestBudgetStopsBombs(t *testing.T) {
	for _, src := range budgetBombs {
		alloc, took, res := measure(src)
		assert.True(t, resultHas(res, TooComplex), "too complex: %.80s", src)
		assert.Less(t, alloc, uint64(128<<20), "allocated: %.80s", src)
		assert.Less(t, took, 2*time.Second, "time: %.80s", src)
	}
}

// Ordinary commands with variables are never near the budgets.
func TestBudgetLeavesOrdinaryCommands(t *testing.T) {
	for _, src := range []string{
		`x=build; rm -rf ./$x/${x//b/B}/${x:-out}`,
		`for f in *.go; do gofmt -l "$f"; done`,
		`v=1.2.3; git tag "v${v//./-}" && echo "${v^^}"`,
		`x=aaaaaaaa; y=${x//?/$x}; z=${y//?/$y}; echo ${#z} $z`,
	} {
		assert.False(t, hasHazard(src, TooComplex), src)
	}
}

func resultHas(res *Result, k HazardKind) bool {
	for _, h := range res.Hazards {
		if h.Kind == k {
			return true
		}
	}
	return false
}

// measure analyses src and returns the bytes allocated and the time taken.
func measure(src string) (alloc uint64, took time.Duration, res *Result) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	res = Analyze(src, Options{Dir: "/work/project", Home: "/home/user"})
	took = time.Since(start)
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc, took, res
}

// Package tables holds package-level variables the compiler lays out and
// ones a process computes at start-up, for initwork's test.
package tables

import (
	"errors"
	"strings"
	"time"
)

type spec struct {
	Short string
	Long  []string
}

type entry struct {
	Name  string
	Names []string
	Spec  spec
	Ptr   *spec
	Check func(string) bool
	Wait  time.Duration
}

const word = "constant"

var (
	names    = []string{"a", "b"}
	shared   = &spec{Short: "x"}
	aString  = "variable"
	aStruct  = spec{Long: []string{"long"}}
	anArray  = [2]string{"a", "b"}
	computed = strings.ToUpper("x")
)

func check(string) bool { return true }

var laidOut = []entry{
	{Name: word, Names: names, Ptr: shared, Check: check, Wait: 2 * time.Second},
	{Name: "literal", Spec: spec{Short: "a:", Long: []string{"b="}}, Ptr: &aStruct, Check: func(s string) bool { return s != "" }},
	{Names: []string{"x", string(rune('y'))}},
}

var computedAtStart = []entry{
	{Name: aString},
	{Spec: aStruct},
	{Names: anArray[:]},
	{Name: strings.TrimSpace(" x ")},
	{Wait: time.Second * time.Duration(len(computed))},
}

var byName = map[string]int{"a": 1}

var errSentinel = errors.New("a sentinel error: allowed")

var errBuilt = errors.New(strings.Repeat("x", 2))

type tableErr struct{}

func (*tableErr) Error() string { return "table" }

var _ error = (*tableErr)(nil)

var fieldCopy = []string{aStruct.Short}

var fieldAddress = &aStruct.Long

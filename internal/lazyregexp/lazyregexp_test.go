package lazyregexp

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
)

var word = &Regexp{Expr: `\b(\w+)@(\w+)\b`}

func TestRegexp(t *testing.T) {
	assert.Nil(t, word.re, "not compiled before its first use")
	assert.True(t, word.MatchString("mail me@host"))
	assert.Equal(t, "me@host", word.FindString("mail me@host now"))
	assert.Equal(t, []string{"me@host", "me", "host"}, word.FindStringSubmatch("me@host"))
	assert.Equal(t, [][]int{{0, 4, 0, 1, 2, 4}}, word.FindAllStringSubmatchIndex("a@bc", -1))
	assert.Same(t, word.Get(), word.Get())
}

func TestConcurrentFirstUse(t *testing.T) {
	r := &Regexp{Expr: `x+`}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() { assert.True(t, r.MatchString("xx")) })
	}
	wg.Wait()
}

func TestBadExpressionPanicsOnUse(t *testing.T) {
	r := &Regexp{Expr: `(`}
	assert.Panics(t, func() { r.Get() })
}

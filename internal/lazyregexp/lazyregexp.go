// Package lazyregexp holds regular expressions compiled on first use.
//
// A hook process starts for every call and exits after one decision, and a
// given call needs few of a package's expressions: compiling them all at
// start-up (regexp.MustCompile in a package variable) would cost every
// call, and so would building a sync.OnceValue for each. A Regexp is a
// plain literal instead, which the compiler lays out in the binary:
//
//	var envFile = &lazyregexp.Regexp{Expr: `^\.env(\..+)?$`}
//
// Nothing runs until its first use. (The Go toolchain's own
// internal/lazyregexp does the same, but is built by a call at start-up.)
package lazyregexp

import (
	"regexp"
	"sync"
)

// Regexp is an expression compiled on first use. Expr must compile and
// must not change after the first use; a Regexp must not be copied.
type Regexp struct {
	Expr string
	once sync.Once
	re   *regexp.Regexp
}

// Get returns the compiled expression.
func (r *Regexp) Get() *regexp.Regexp {
	r.once.Do(func() { r.re = regexp.MustCompile(r.Expr) })
	return r.re
}

// MatchString is regexp.Regexp.MatchString.
func (r *Regexp) MatchString(s string) bool { return r.Get().MatchString(s) }

// FindString is regexp.Regexp.FindString.
func (r *Regexp) FindString(s string) string { return r.Get().FindString(s) }

// FindStringSubmatch is regexp.Regexp.FindStringSubmatch.
func (r *Regexp) FindStringSubmatch(s string) []string { return r.Get().FindStringSubmatch(s) }

// FindAllStringSubmatchIndex is regexp.Regexp.FindAllStringSubmatchIndex.
func (r *Regexp) FindAllStringSubmatchIndex(s string, n int) [][]int {
	return r.Get().FindAllStringSubmatchIndex(s, n)
}

//go:build !unix

package bounded

const nonBlocking = 0

//go:build unix

package bounded

import "syscall"

// nonBlocking opens without waiting: a FIFO swapped in between the check
// and the open does not hold the reader until a writer comes.
const nonBlocking = syscall.O_NONBLOCK

//go:build linux || darwin

package scanner_test

import (
	"errors"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/scanner/server"
	"github.com/gemini-guard/gemini-guard/internal/secrets"
)

// warmDaemon starts e's daemon for the default options and returns its pid.
func warmDaemon(t *testing.T, e *env) int {
	t.Helper()
	_, err := e.client(secrets.Options{}).Scan("warm up")
	require.NoError(t, err)
	e.waitDaemon(secrets.Options{})
	pid := e.daemonPID(secrets.Options{})
	require.Positive(t, pid)
	return pid
}

// A client that gives up (its hook's deadline) hangs up, and the daemon
// cancels the scan it was doing for it at once, not at a time limit: the
// scan no longer holds a slot.
func TestHangupCancelsTheScan(t *testing.T) {
	e := newEnv(t)
	warmDaemon(t, e)
	c := e.client(secrets.Options{})
	c.Timeout = time.Second
	_, err := c.Scan(stallInDaemon + " " + secretWord)
	require.Error(t, err, "no answer within the client's time")
	require.Eventually(t, func() bool { return e.count("stopped-canceled")+e.count("stopped-deadline") == 1 },
		hangGuard, 5*time.Millisecond)
	assert.Equal(t, 1, e.count("stopped-canceled"), "cancelled because the client hung up")
}

// A burst of large texts whose scans stall in the daemon (more than it
// has slots for) while their clients wait: a small text asked meanwhile
// is answered by the daemon on a slot of its own, while the burst still
// waits, not turned away to a one-shot scan after DaemonTimeout.
func TestLargeScansDoNotStarveSmallOnes(t *testing.T) {
	e := newEnv(t)
	warmDaemon(t, e)
	large := stallInDaemon + strings.Repeat(" ", server.SmallText) + secretWord
	burst := server.MaxScans + server.MaxLargeScans + 2
	answered := make(chan struct{}, burst)
	for range burst {
		go func() {
			c := e.client(secrets.Options{})
			c.Timeout = hangGuard
			_, _ = c.Scan(large)
			answered <- struct{}{}
		}()
	}
	require.Eventually(t, func() bool { return e.count("stalling") == server.MaxLargeScans }, hangGuard, 5*time.Millisecond)

	got, err := e.client(secrets.Options{}).Scan("small " + secretWord)
	require.NoError(t, err)
	assert.Equal(t, want("small "+secretWord), got)
	assert.Equal(t, 0, e.count("scan"), "the daemon answered it, no one-shot scan")
	assert.Empty(t, answered, "while the burst still waited")
	assert.Equal(t, server.MaxLargeScans, e.count("stalling"), "large texts never ran on more than their slots")
}

// A scan that does not stop when its client hangs up (the detector checks
// for cancellation only between rules) makes the daemon retire: the next
// scan is answered by a fresh daemon, and the old process exits, taking
// the runaway scan with it, instead of burning a core for a minute.
func TestUnstoppableScanRetiresTheDaemon(t *testing.T) {
	e := newEnv(t)
	old := warmDaemon(t, e)
	c := e.client(secrets.Options{})
	c.Timeout = time.Second
	_, _ = c.Scan(stallStubborn + " " + secretWord)
	require.Equal(t, 1, e.count("stalling"))

	require.Eventually(t, func() bool { return errors.Is(syscall.Kill(old, 0), syscall.ESRCH) }, hangGuard, 10*time.Millisecond,
		"the old daemon exits")
	got, err := e.client(secrets.Options{}).Scan("after " + secretWord)
	require.NoError(t, err)
	assert.Equal(t, want("after "+secretWord), got)
	assert.Equal(t, 2, e.count("serve"), "a new daemon serves")
	assert.NotEqual(t, old, e.daemonPID(secrets.Options{}))
}

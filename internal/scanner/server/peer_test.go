//go:build linux || darwin

package server

import (
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/scanner"
)

// connectVar makes the test binary a client instead: it sends one request
// to the socket named and prints the answer.
const connectVar = "GEMINI_GUARD_SERVER_TEST_CONNECT"

func TestMain(m *testing.M) {
	if socket := os.Getenv(connectVar); socket != "" {
		os.Exit(connect(socket))
	}
	os.Exit(m.Run())
}

func connect(socket string) int {
	c, err := net.Dial("unix", socket)
	if err != nil {
		os.Stderr.WriteString(err.Error())
		return 1
	}
	defer c.Close()
	// A refused peer may see its write fail: the answer (none) counts.
	(scanner.Request{Fingerprint: "fp", Text: "a " + word}).WriteTo(c)
	c.(*net.UnixConn).CloseWrite()
	b, _ := io.ReadAll(c)
	os.Stdout.Write(b)
	return 0
}

// TestPeerOfAnotherUserGetsNoAnswer: the runtime directory keeps other
// users out; should one reach the socket anyway, the daemon closes the
// connection without a word.
func TestPeerOfAnotherUserGetsNoAnswer(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root to run a process as another user")
	}
	base, err := os.MkdirTemp("", "ggpeer")
	require.NoError(t, err)
	defer os.RemoveAll(base)
	require.NoError(t, os.Chmod(base, 0o755)) // deliberately open: the peer check alone
	self, err := os.Executable()
	require.NoError(t, err)
	bin := filepath.Join(base, "client")
	data, err := os.ReadFile(self)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(bin, data, 0o755))

	socket := filepath.Join(base, "s")
	l, err := net.ListenUnix("unix", &net.UnixAddr{Name: socket, Net: "unix"})
	require.NoError(t, err)
	defer l.Close()
	require.NoError(t, os.Chmod(socket, 0o777))
	d := newDaemon("fp", literal{}, nil)
	go d.acceptLoop(l)

	run := func(cred *syscall.Credential) string {
		cmd := exec.Command(bin)
		cmd.Env = append(os.Environ(), connectVar+"="+socket)
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		require.NoError(t, err, "%s", stderr.String())
		return string(out)
	}
	assert.Contains(t, run(nil), `"rule_id":"lit"`, "our user is answered")
	assert.Empty(t, run(&syscall.Credential{Uid: 65534, Gid: 65534}), "another user is not")
}

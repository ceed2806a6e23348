//go:build linux || darwin

package scanner_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/scanner"
	"github.com/gemini-guard/gemini-guard/internal/secrets"
)

func TestFirstCallStartsDaemon(t *testing.T) {
	e := newEnv(t)
	c := e.client(secrets.Options{})
	text := "line one\nkey = " + secretWord + "\nand " + secretWord

	got, err := c.Scan(text)
	require.NoError(t, err)
	assert.Equal(t, want(text), got)
	assert.Equal(t, 1, e.count("serve"), "the first call starts a daemon and is served by it")
	info, err := os.Lstat(e.dir)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o700), info.Mode().Perm(), "the runtime directory is made 0700")

	for i := range 3 {
		text := fmt.Sprintf("call %d: %s", i, secretWord)
		got, err := c.Scan(text)
		require.NoError(t, err)
		assert.Equal(t, want(text), got)
	}
	assert.Equal(t, 0, e.count("proc scan"), "no one-shot process")
	assert.Equal(t, 1, e.count("proc serve"))
}

func TestDaemonThatCannotStartFallsBack(t *testing.T) {
	e := newEnv(t)
	t.Setenv(failServe, "1")
	text := "x " + secretWord
	for i := range 2 {
		got, err := e.client(secrets.Options{}).Scan(text)
		require.NoError(t, err)
		assert.Equal(t, want(text), got, "call %d", i)
	}
	assert.Equal(t, 2, e.count("scan"), "scanned one-shot")
	assert.Equal(t, 2, e.count("serve"), "each call tried a daemon")
}

func TestStarterDiesWithoutListening(t *testing.T) {
	// Another client's daemon holds the lock while starting, then dies:
	// the waiting client scans one-shot (a later call starts a daemon).
	e := newEnv(t)
	require.NoError(t, scanner.CheckDir(e.dir, true))
	lock, err := scanner.TryLock(scanner.LockPath(e.socket(secrets.Options{})))
	require.NoError(t, err)
	require.NotNil(t, lock)
	released := make(chan struct{})
	go func() {
		time.Sleep(50 * time.Millisecond)
		lock.Close()
		close(released)
	}()
	text := "x " + secretWord
	got, err := e.client(secrets.Options{}).Scan(text)
	require.NoError(t, err)
	assert.Equal(t, want(text), got)
	<-released
	got, err = e.client(secrets.Options{}).Scan(text)
	require.NoError(t, err)
	assert.Equal(t, want(text), got)
	assert.Equal(t, 1, e.count("serve"), "the next call started a daemon")
}

func TestLockHeldWithoutSocket(t *testing.T) {
	// Another daemon holds the lock but nobody listens.
	tests := []struct {
		name    string
		pid     string
		slow    bool
		explain string
	}{
		{"serving daemon lost its socket", "12345\n", false, "a daemon that wrote its pid listens: no wait"},
		{"daemon never comes up", "", true, "a starting daemon is waited for, at most StartTimeout"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.slow && testing.Short() {
				t.Skip("waits for StartTimeout")
			}
			e := newEnv(t)
			require.NoError(t, scanner.CheckDir(e.dir, true))
			lock, err := scanner.TryLock(scanner.LockPath(e.socket(secrets.Options{})))
			require.NoError(t, err)
			require.NotNil(t, lock)
			defer lock.Close()
			_, err = lock.WriteString(tt.pid)
			require.NoError(t, err)

			text := "x " + secretWord
			got, err := e.client(secrets.Options{}).Scan(text)
			require.NoError(t, err)
			assert.Equal(t, want(text), got, tt.explain)
			assert.Equal(t, 1, e.count("scan"))
			assert.Equal(t, 0, e.count("proc serve"), "no daemon started while the lock is taken")
		})
	}
}

func TestNoSecretsGivesNil(t *testing.T) {
	e := newEnv(t)
	c := e.client(secrets.Options{})
	for _, text := range []string{"", "nothing here", strings.Repeat("x", 1<<20)} {
		got, err := c.Scan(text)
		require.NoError(t, err)
		assert.Empty(t, got)
	}
}

func TestBytesAndOffsetsSurviveTheTrip(t *testing.T) {
	// Invalid UTF-8 before a secret: a JSON string would turn the bytes
	// into U+FFFD and shift the offsets.
	e := newEnv(t)
	c := e.client(secrets.Options{})
	text := "\xff\xfe\x00binary\x80\n" + secretWord + "\xc3"
	got, err := c.Scan(text)
	require.NoError(t, err)
	require.Len(t, got, 1)
	assert.Equal(t, secretWord, text[got[0].Start:got[0].End])
	assert.Equal(t, want(text), got)
	assert.Equal(t, 1, e.count("serve"), "through the daemon")

	c.Dir = "relative" // one-shot
	got, err = c.Scan(text)
	require.NoError(t, err)
	assert.Equal(t, want(text), got)
	assert.Equal(t, 1, e.count("scan"), "through a one-shot process")
}

func TestOptionsReachTheDetector(t *testing.T) {
	e := newEnv(t)
	text := "a " + secretWord
	got, err := e.client(secrets.Options{DisabledRules: []string{"x", "test-rule", "x"}}).Scan(text)
	require.NoError(t, err)
	assert.Empty(t, got, "test-rule disabled")

	got, err = e.client(secrets.Options{}).Scan(text)
	require.NoError(t, err)
	assert.Equal(t, want(text), got, "another fingerprint, another scanner")
}

func TestConfigChangeStartsNewDaemon(t *testing.T) {
	e := newEnv(t)
	cfg := filepath.Join(t.TempDir(), "gitleaks.toml")
	require.NoError(t, os.WriteFile(cfg, []byte("FOOKEY"), 0o600))
	opts := secrets.Options{ConfigPath: cfg}
	c := e.client(opts)
	text := "FOOKEY BARKEY " + secretWord

	got, err := c.Scan(text)
	require.NoError(t, err)
	assert.Equal(t, findWords(text, map[string]string{secretWord: "test-rule", "FOOKEY": "config-rule"}), got)
	e.waitDaemon(opts)
	oldSocket := e.socket(opts)

	require.NoError(t, os.WriteFile(cfg, []byte("BARKEY"), 0o600))
	newSocket := e.socket(opts)
	require.NotEqual(t, oldSocket, newSocket, "the config's content is in the fingerprint")
	wantNew := findWords(text, map[string]string{secretWord: "test-rule", "BARKEY": "config-rule"})
	got, err = c.Scan(text)
	require.NoError(t, err)
	assert.Equal(t, wantNew, got, "the edited config is used at once")
	e.waitDaemon(opts)
	got, err = c.Scan(text)
	require.NoError(t, err)
	assert.Equal(t, wantNew, got)
	assert.Equal(t, 2, e.count("serve"), "one daemon per config")
	assert.Equal(t, 0, e.count("scan"))
}

func TestBinaryChangeStartsNewDaemon(t *testing.T) {
	e := newEnv(t)
	c := e.client(secrets.Options{})
	text := "x " + secretWord
	_, err := c.Scan(text)
	require.NoError(t, err)
	e.waitDaemon(secrets.Options{})
	old := e.socket(secrets.Options{})

	later := time.Now().Add(time.Hour)
	require.NoError(t, os.Chtimes(e.binary, later, later))
	require.NotEqual(t, old, e.socket(secrets.Options{}))
	got, err := c.Scan(text)
	require.NoError(t, err)
	assert.Equal(t, want(text), got)
	e.waitDaemon(secrets.Options{})
	assert.Equal(t, 2, e.count("serve"))
}

func TestConfigError(t *testing.T) {
	e := newEnv(t)
	dir := t.TempDir()
	broken := filepath.Join(dir, "broken.toml")
	require.NoError(t, os.WriteFile(broken, []byte("broken = ["), 0o600))
	tests := []struct {
		name string
		path string
	}{
		{"does not load", broken},
		{"missing", filepath.Join(dir, "missing.toml")},
		{"a directory", dir},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := secrets.Options{ConfigPath: tt.path}
			for i := range 2 {
				_, err := e.client(opts).Scan("text " + secretWord)
				var cfgErr *secrets.ConfigError
				require.ErrorAs(t, err, &cfgErr, "call %d", i)
				assert.Equal(t, tt.path, cfgErr.Path)
				assert.NotContains(t, err.Error(), secretWord)
				if i == 0 {
					// The daemon keeps serving the config error.
					e.waitDaemon(opts)
				}
			}
		})
	}
	assert.Equal(t, 3, e.count("serve"), "one daemon per config")
	assert.Equal(t, 0, e.count("scan"), "the daemons answered with the config error")

	got, err := e.client(secrets.Options{}).Scan("text " + secretWord)
	require.NoError(t, err, "without the config the scan works")
	assert.Len(t, got, 1)
}

// A same-user process that takes the daemon's socket and answers "no
// findings" with the very fingerprint the request carries (the attack of
// issue 17) must not be believed: the client proves the peer runs our
// scanner binary, fails the scan with an *ImpostorError (the hooks fail
// safe and tell the user), removes the socket, and the next scan is served
// by a daemon of ours.
func TestImpostorDaemonFailsSafe(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the peer's executable is checked through /proc (Linux only)")
	}
	for _, echo := range []bool{true, false} {
		t.Run(fmt.Sprintf("echoes fingerprint %v", echo), func(t *testing.T) {
			e := newEnv(t)
			require.NoError(t, scanner.CheckDir(e.dir, true))
			socket := e.socket(secrets.Options{})
			l, err := net.Listen("unix", socket)
			require.NoError(t, err)
			defer l.Close()
			got := make(chan string, 10)
			go func() {
				for {
					c, err := l.Accept()
					if err != nil {
						return
					}
					req, _ := scanner.ReadRequest(c)
					got <- req.Text
					fp := strings.Repeat("0", 64)
					if echo {
						fp = req.Fingerprint
					}
					json.NewEncoder(c).Encode(scanner.Response{Fingerprint: fp})
					c.Close()
				}
			}()
			text := "x " + secretWord
			_, err = e.client(secrets.Options{}).Scan(text)
			var imp *scanner.ImpostorError
			require.ErrorAs(t, err, &imp)
			assert.Contains(t, err.Error(), "not gemini-guard's scanner")
			assert.True(t, imp.Removed)
			assert.NotContains(t, err.Error(), secretWord)
			assert.Empty(t, <-got, "the text was never sent to the impostor")

			found, err := e.client(secrets.Options{}).Scan(text)
			require.NoError(t, err)
			assert.Equal(t, want(text), found)
			assert.Equal(t, 1, e.count("serve"), "the next scan started a daemon of ours")
		})
	}
}

func TestUnsafeDirScansOneShot(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, dir string) string // returns the Dir to use
	}{
		{"mode 0755", func(t *testing.T, dir string) string {
			require.NoError(t, os.Mkdir(dir, 0o700))
			require.NoError(t, os.Chmod(dir, 0o755))
			return dir
		}},
		{"mode 0711", func(t *testing.T, dir string) string {
			require.NoError(t, os.Mkdir(dir, 0o700))
			require.NoError(t, os.Chmod(dir, 0o711))
			return dir
		}},
		{"symbolic link", func(t *testing.T, dir string) string {
			real := dir + "-real"
			require.NoError(t, os.Mkdir(real, 0o700))
			require.NoError(t, os.Symlink(real, dir))
			return dir
		}},
		{"a file", func(t *testing.T, dir string) string {
			require.NoError(t, os.WriteFile(dir, nil, 0o600))
			return dir
		}},
		{"relative", func(t *testing.T, dir string) string {
			return "relative/run"
		}},
		{"another user's", func(t *testing.T, dir string) string {
			if os.Getuid() != 0 {
				t.Skip("needs root to give a directory away")
			}
			require.NoError(t, os.Mkdir(dir, 0o700))
			require.NoError(t, os.Chown(dir, 65534, 65534))
			return dir
		}},
		{"socket path too long", func(t *testing.T, dir string) string {
			long := filepath.Join(dir, strings.Repeat("d", 100))
			require.NoError(t, os.MkdirAll(long, 0o700))
			return long
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			e.dir = tt.setup(t, e.dir)
			text := "x " + secretWord
			for i := range 3 {
				got, err := e.client(secrets.Options{}).Scan(text)
				require.NoError(t, err)
				assert.Equal(t, want(text), got, "call %d", i)
			}
			assert.Equal(t, 3, e.count("scan"), "every call is one-shot")
			assert.Equal(t, 0, e.count("serve"), "no daemon serves from an unsafe directory")
			socks, _ := filepath.Glob(filepath.Join(e.dir, "*.sock"))
			assert.Empty(t, socks)
		})
	}
}

func TestStaleSocketIsReplaced(t *testing.T) {
	e := newEnv(t)
	require.NoError(t, scanner.CheckDir(e.dir, true))
	socket := e.socket(secrets.Options{})
	l, err := net.ListenUnix("unix", &net.UnixAddr{Name: socket, Net: "unix"})
	require.NoError(t, err)
	l.SetUnlinkOnClose(false)
	require.NoError(t, l.Close())
	require.FileExists(t, socket, "a socket file nobody listens on")

	text := "x " + secretWord
	got, err := e.client(secrets.Options{}).Scan(text)
	require.NoError(t, err)
	assert.Equal(t, want(text), got)
	assert.Equal(t, 1, e.count("serve"))
	assert.Equal(t, 0, e.count("scan"), "a new daemon replaced the socket and served")
}

func TestKilledDaemonRecovers(t *testing.T) {
	e := newEnv(t)
	c := e.client(secrets.Options{})
	text := "x " + secretWord
	_, err := c.Scan(text)
	require.NoError(t, err)
	e.waitDaemon(secrets.Options{})
	pid := e.daemonPID(secrets.Options{})
	require.Positive(t, pid)
	require.NoError(t, syscall.Kill(pid, syscall.SIGKILL))
	require.Eventually(t, func() bool { return e.daemonPID(secrets.Options{}) == 0 }, hangGuard, 5*time.Millisecond)

	got, err := c.Scan(text)
	require.NoError(t, err)
	assert.Equal(t, want(text), got)
	assert.Equal(t, 0, e.count("scan"))
	assert.Equal(t, 2, e.count("serve"), "a new daemon served")
	assert.NotEqual(t, pid, e.daemonPID(secrets.Options{}))
}

func TestDaemonKilledDuringRequest(t *testing.T) {
	e := newEnv(t)
	c := e.client(secrets.Options{})
	_, err := c.Scan("warm up")
	require.NoError(t, err)

	text := stallInDaemon + " " + secretWord
	type result struct {
		got []secrets.Finding
		err error
	}
	res := make(chan result, 1)
	go func() {
		got, err := c.Scan(text)
		res <- result{got, err}
	}()
	require.Eventually(t, func() bool { return e.count("stalling") == 1 }, hangGuard, 5*time.Millisecond)
	pid := e.daemonPID(secrets.Options{})
	require.Positive(t, pid)
	require.NoError(t, syscall.Kill(pid, syscall.SIGKILL))
	select {
	case r := <-res:
		require.NoError(t, r.err)
		assert.Equal(t, want(text), r.got)
	case <-time.After(hangGuard):
		t.Fatal("no answer")
	}
	assert.Equal(t, 1, e.count("scan"), "scanned one-shot")

	got, err := c.Scan(text[len(stallInDaemon):])
	require.NoError(t, err)
	assert.Equal(t, want(text[len(stallInDaemon):]), got)
	assert.Equal(t, 2, e.count("serve"), "the next call started a new daemon")
}

func TestConcurrentClientsOneDaemon(t *testing.T) {
	e := newEnv(t)
	scanAll := func() {
		var wg sync.WaitGroup
		errs := make([]error, 20)
		gots := make([][]secrets.Finding, 20)
		for i := range 20 {
			wg.Go(func() {
				gots[i], errs[i] = e.client(secrets.Options{}).Scan(strings.Repeat(" ", i) + secretWord)
			})
		}
		wg.Wait()
		for i := range 20 {
			require.NoError(t, errs[i])
			assert.Equal(t, want(strings.Repeat(" ", i)+secretWord), gots[i], "client %d", i)
		}
	}
	scanAll()
	scanAll()
	assert.Equal(t, 1, e.count("proc serve"), "the lock lets one client start one daemon")
	assert.Equal(t, 1, e.count("serve"))
}

func TestSlowDaemonFallsBackToOneShot(t *testing.T) {
	// The daemon's detector stalls until its scan is cancelled; the client
	// gives up on it after DaemonTimeout (5 s) and scans one-shot.
	if testing.Short() {
		t.Skip("waits for DaemonTimeout")
	}
	e := newEnv(t)
	c := e.client(secrets.Options{})
	_, err := c.Scan("warm up")
	require.NoError(t, err)
	e.waitDaemon(secrets.Options{})

	text := stallInDaemon + " " + secretWord
	got, err := c.Scan(text)
	require.NoError(t, err)
	assert.Equal(t, want(text), got)
	assert.Equal(t, 1, e.count("scan"))
}

func TestTimeLimitIsAnError(t *testing.T) {
	e := newEnv(t)
	c := e.client(secrets.Options{})
	c.Timeout = 500 * time.Millisecond
	text := stallAlways + " " + secretWord
	_, err := c.Scan(text)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "no answer")
	assert.NotContains(t, err.Error(), secretWord)
}

func TestDetectorPanicIsAnError(t *testing.T) {
	e := newEnv(t)
	text := panicWord + " " + secretWord
	for i := range 2 {
		_, err := e.client(secrets.Options{}).Scan(text)
		require.Error(t, err, "call %d", i)
		assert.NotContains(t, err.Error(), secretWord)
		if i == 0 {
			e.waitDaemon(secrets.Options{})
		}
	}
	got, err := e.client(secrets.Options{}).Scan(secretWord)
	require.NoError(t, err, "the daemon survived")
	assert.Len(t, got, 1)
	assert.Equal(t, 1, e.count("serve"))
}

func TestTooLargeText(t *testing.T) {
	e := newEnv(t)
	text := strings.Repeat("x", scanner.MaxText-len(secretWord)) + secretWord
	_, err := e.client(secrets.Options{}).Scan(text + "y")
	require.Error(t, err)
	assert.NotContains(t, err.Error(), secretWord)
	assert.Equal(t, 0, e.count("scan"), "refused before anything ran")

	got, err := e.client(secrets.Options{}).Scan(text)
	require.NoError(t, err, "MaxText itself is fine")
	assert.Equal(t, want(text), got)
}

func TestMissingBinary(t *testing.T) {
	c := &scanner.Client{Binary: filepath.Join(t.TempDir(), "guard-scanner"), Dir: t.TempDir()}
	_, err := c.Scan("x " + secretWord)
	require.Error(t, err)
	assert.NotContains(t, err.Error(), secretWord)
}

func TestBadRequestsToTheDaemon(t *testing.T) {
	e := newEnv(t)
	_, err := e.client(secrets.Options{}).Scan("warm up")
	require.NoError(t, err)
	e.waitDaemon(secrets.Options{})
	socket := e.socket(secrets.Options{})
	fp, err := scanner.Fingerprint(secrets.Options{}, e.binary)
	require.NoError(t, err)

	valid := rawRequest(t, scanner.Request{Fingerprint: fp, Text: secretWord})
	header := func(s string) []byte { return []byte(s + "\n") }
	tests := []struct {
		name    string
		request []byte
		want    string // in the error
	}{
		{"empty", nil, "malformed"},
		{"garbage", []byte("\x00\xffnot json\n"), "malformed"},
		{"no header line", []byte(`{"fingerprint":"` + fp + `"}`), "malformed"},
		{"not an object", header(`[1,2]`), "malformed"},
		{"unknown field", header(`{"fingerprint":"` + fp + `","text":"x"}`), "malformed"},
		{"negative length", header(`{"fingerprint":"` + fp + `","text_length":-1}`), "malformed"},
		{"text too short", append(header(`{"fingerprint":"`+fp+`","text_length":10}`), "abc"...), "malformed"},
		{"text too long", append(header(`{"fingerprint":"`+fp+`","text_length":1}`), "abc"...), "malformed"},
		{"two requests", append(append([]byte{}, valid...), valid...), "malformed"},
		{"other fingerprint", header(`{"fingerprint":"abc","text_length":0}`), "fingerprint mismatch"},
		{"header over MaxHeader", append([]byte(`{"fingerprint":"`), make([]byte, scanner.MaxHeader+1)...), "too large"},
		{"text over MaxText", header(`{"fingerprint":"` + fp + fmt.Sprintf(`","text_length":%d}`, scanner.MaxText+1)), "too large"},
		{"text over MaxText, sent", rawRequest(t, scanner.Request{Fingerprint: fp, Text: strings.Repeat("x", scanner.MaxText+1)}), "too large"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp := exchange(t, socket, tt.request)
			assert.Contains(t, resp.Error, tt.want)
			assert.Empty(t, resp.Findings)
			assert.Equal(t, fp, resp.Fingerprint)
		})
	}
	resp := exchange(t, socket, valid)
	assert.Empty(t, resp.Error, "the daemon still serves")
	assert.Len(t, resp.Findings, 1)
}

func rawRequest(t *testing.T, req scanner.Request) []byte {
	var b strings.Builder
	_, err := req.WriteTo(&b)
	require.NoError(t, err)
	return []byte(b.String())
}

// exchange sends raw bytes to a daemon and decodes its answer.
func exchange(t *testing.T, socket string, request []byte) scanner.Response {
	t.Helper()
	c, err := net.Dial("unix", socket)
	require.NoError(t, err)
	defer c.Close()
	require.NoError(t, c.SetDeadline(time.Now().Add(hangGuard)))
	go func() {
		c.Write(request)
		c.(*net.UnixConn).CloseWrite()
	}()
	b, err := io.ReadAll(c)
	require.NoError(t, err)
	var resp scanner.Response
	require.NoError(t, json.Unmarshal(b, &resp), "answer %q", b)
	return resp
}

// startDaemon runs `serve` itself, with extra flags, and returns the
// process's exit status channel.
func (e *env) startDaemon(flags ...string) <-chan error {
	e.t.Helper()
	cmd := exec.Command(e.binary, append([]string{"serve", "-dir", e.dir}, flags...)...)
	require.NoError(e.t, cmd.Start())
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	e.t.Cleanup(func() {
		select {
		case <-done:
		default:
			cmd.Process.Kill()
		}
	})
	return done
}

func waitExit(t *testing.T, done <-chan error) error {
	t.Helper()
	select {
	case err := <-done:
		return err
	case <-time.After(hangGuard):
		t.Fatal("the daemon did not exit")
		return nil
	}
}

func TestIdleDaemonExits(t *testing.T) {
	e := newEnv(t)
	done := e.startDaemon("-idle", "200ms", "-check", "20ms")
	e.waitDaemon(secrets.Options{})
	text := "x " + secretWord
	got, err := e.client(secrets.Options{}).Scan(text)
	require.NoError(t, err)
	assert.Equal(t, want(text), got)

	require.NoError(t, waitExit(t, done))
	assert.NoFileExists(t, e.socket(secrets.Options{}))
	assert.NoFileExists(t, scanner.LockPath(e.socket(secrets.Options{})))
}

func TestDaemonExitsWhenSocketGoes(t *testing.T) {
	tests := []struct {
		name   string
		change func(t *testing.T, socket string)
	}{
		{"removed", func(t *testing.T, socket string) { require.NoError(t, os.Remove(socket)) }},
		{"replaced", func(t *testing.T, socket string) {
			require.NoError(t, os.Remove(socket))
			require.NoError(t, os.WriteFile(socket, []byte("not a socket"), 0o600))
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			done := e.startDaemon("-idle", "1h", "-check", "20ms")
			e.waitDaemon(secrets.Options{})
			socket := e.socket(secrets.Options{})
			tt.change(t, socket)
			require.NoError(t, waitExit(t, done))
			if tt.name == "replaced" {
				assert.FileExists(t, socket, "not the daemon's to remove")
			}
		})
	}
}

func TestSecondDaemonExitsQuietly(t *testing.T) {
	e := newEnv(t)
	e.startDaemon()
	e.waitDaemon(secrets.Options{})
	done := e.startDaemon()
	require.NoError(t, waitExit(t, done), "exit 0: another daemon serves")
	assert.Equal(t, 1, e.count("serve"), "the second did not build a detector")
}

func TestPeerUID(t *testing.T) {
	dir, err := os.MkdirTemp("", "gg")
	require.NoError(t, err)
	defer os.RemoveAll(dir)
	l, err := net.ListenUnix("unix", &net.UnixAddr{Name: filepath.Join(dir, "s"), Net: "unix"})
	require.NoError(t, err)
	defer l.Close()
	go func() {
		c, err := net.Dial("unix", filepath.Join(dir, "s"))
		if err == nil {
			defer c.Close()
			io.Copy(io.Discard, c)
		}
	}()
	c, err := l.AcceptUnix()
	require.NoError(t, err)
	defer c.Close()
	uid, err := scanner.PeerUID(c)
	require.NoError(t, err)
	assert.Equal(t, os.Getuid(), uid)
}

func TestNoGitleaksInClientOrServer(t *testing.T) {
	// Hook binaries link the client; gitleaks would cost each of them
	// milliseconds of start-up on every call.
	out, err := exec.Command("go", "list", "-deps",
		"github.com/gemini-guard/gemini-guard/internal/scanner",
		"github.com/gemini-guard/gemini-guard/internal/scanner/server").CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.NotContains(t, string(out), "zricethezav")
	assert.Contains(t, string(out), "internal/scanner/server", "the listing is real")
}

func TestErrorsWrap(t *testing.T) {
	// A config error from the scanner is a *secrets.ConfigError that unwraps
	// to its cause.
	e := newEnv(t)
	_, err := e.client(secrets.Options{ConfigPath: filepath.Join(t.TempDir(), "nope.toml")}).Scan("x")
	var cfgErr *secrets.ConfigError
	require.ErrorAs(t, err, &cfgErr)
	assert.NotNil(t, errors.Unwrap(cfgErr))
}

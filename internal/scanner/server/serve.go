//go:build linux || darwin

package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"os/signal"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/gemini-guard/gemini-guard/internal/scanner"
	"github.com/gemini-guard/gemini-guard/internal/secrets"
)

// serve runs a daemon until it idles out, loses its socket or is told to
// stop (SIGTERM, SIGINT). It returns nil also when another daemon holds
// the lock for the fingerprint.
func serve(cfg config) error {
	if err := scanner.CheckDir(cfg.dir, true); err != nil {
		return err
	}
	opts, err := scanner.Normalize(cfg.opts)
	if err != nil {
		return err
	}
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("locating the scanner binary: %w", err)
	}
	fp, err := scanner.Fingerprint(opts, exe)
	if err != nil {
		return err
	}
	socket, err := scanner.SocketPath(cfg.dir, fp)
	if err != nil {
		return err
	}
	lockPath := scanner.LockPath(socket)
	var lock *os.File
	if cfg.lockFD >= 0 {
		lock = os.NewFile(uintptr(cfg.lockFD), lockPath)
		if lock == nil || !scanner.IsLockFile(lock, lockPath) {
			return fmt.Errorf("-lock-fd %d is not the locked %s", cfg.lockFD, lockPath)
		}
	} else if lock, err = scanner.TryLock(lockPath); err != nil || lock == nil {
		return err
	}
	defer lock.Close()
	// Removed while held: whoever opens the path next makes a new file and
	// TryLock's identity check keeps a late opener of this one out. Not
	// by a retired daemon: retire removed it, and the name may be its
	// successor's.
	keepLock := false
	defer func() {
		if !keepLock {
			os.Remove(lockPath)
		}
	}()

	det, buildErr := safeBuild(cfg.build, opts)
	var cfgErr *secrets.ConfigError
	if buildErr != nil && !errors.As(buildErr, &cfgErr) {
		return buildErr
	}
	// The fingerprint covers the config's content; one edited while the
	// detector loaded it leaves us not knowing which version we serve.
	if again, err := scanner.Fingerprint(opts, exe); err != nil || again != fp {
		return errors.New("the config or the scanner binary changed while the detector was built")
	}
	// We hold the lock: a socket file here is a dead daemon's.
	if err := os.Remove(socket); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	l, err := net.ListenUnix("unix", &net.UnixAddr{Name: socket, Net: "unix"})
	if err != nil {
		return err
	}
	// Closing must not unlink by name: the file may be another's by then.
	l.SetUnlinkOnClose(false)
	ours, err := os.Lstat(socket)
	if err != nil {
		l.Close()
		return err
	}
	if err := os.Chmod(socket, 0o600); err != nil {
		l.Close()
		return err
	}
	_ = lock.Truncate(0)
	_, _ = lock.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	d := newDaemon(fp, det, buildErr)
	d.listener, d.socket, d.lockPath, d.ours = l, socket, lockPath, ours
	d.successor = func() {
		_ = (&scanner.Client{Options: opts, Binary: exe, Dir: cfg.dir}).Start()
	}
	d.touch()
	done := make(chan struct{})
	go func() {
		d.acceptLoop(l)
		close(done)
	}()
	stillOurs := d.wait(ctx, cfg, socket, ours, done)
	l.Close()
	<-done
	// A retired daemon waits only for the clients it still serves: a scan
	// it gave up on ends with the process.
	d.conns.Wait()
	if d.retired.Load() {
		// The socket and lock names may be a new daemon's by now.
		keepLock = true
		return nil
	}
	if stillOurs {
		os.Remove(socket)
	}
	return nil
}

// daemon is one serving scanner.
type daemon struct {
	fp       string
	det      Detector
	buildErr error
	listener *net.UnixListener
	slots    chan struct{} // connections
	small    chan struct{} // scans of texts up to SmallText
	large    chan struct{} // scans of larger texts
	conns    sync.WaitGroup
	active   atomic.Int64
	last     atomic.Int64 // unix nanoseconds of the last request's end

	// What retire gives up.
	socket, lockPath string
	ours             fs.FileInfo
	retired          atomic.Bool
	// successor starts the daemon that takes over from a retired one.
	successor func()
}

// newDaemon is a daemon with its slots; serve gives it its names.
func newDaemon(fp string, det Detector, buildErr error) *daemon {
	return &daemon{
		fp: fp, det: det, buildErr: buildErr,
		slots: make(chan struct{}, MaxConns),
		small: make(chan struct{}, MaxScans), large: make(chan struct{}, MaxLargeScans),
	}
}

func (d *daemon) touch() { d.last.Store(time.Now().UnixNano()) }

// wait returns when the daemon should stop: idle, socket gone or replaced
// (false: not ours to remove), signal, or the listener failed or was
// closed by retire.
func (d *daemon) wait(ctx context.Context, cfg config, socket string, ours fs.FileInfo, done <-chan struct{}) (stillOurs bool) {
	tick := time.NewTicker(cfg.check)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return true
		case <-done:
			return true
		case <-tick.C:
		}
		now, err := os.Lstat(socket)
		if err != nil || !os.SameFile(now, ours) {
			return false
		}
		idle := time.Since(time.Unix(0, d.last.Load()))
		if d.active.Load() == 0 && idle >= cfg.idle {
			return true
		}
	}
}

// acceptLoop serves connections until l is closed.
func (d *daemon) acceptLoop(l *net.UnixListener) {
	for {
		conn, err := l.AcceptUnix()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			// Out of file descriptors and the like: breathe, go on.
			time.Sleep(10 * time.Millisecond)
			continue
		}
		d.conns.Add(1)
		d.active.Add(1)
		select {
		case d.slots <- struct{}{}:
			go func() {
				defer func() { <-d.slots }()
				d.handle(conn)
			}()
		default:
			go d.busy(conn)
		}
	}
}

// done ends a connection's accounting.
func (d *daemon) done(conn net.Conn) {
	conn.Close()
	d.touch()
	d.active.Add(-1)
	d.conns.Done()
}

// handle answers one connection. Its work ends when the client can no
// longer use the answer: the client hung up (its hook reached its own
// deadline and exited) or scanner.DaemonTimeout passed (the client gives
// up on a daemon then and scans elsewhere). A request that waits for a
// scan slot stops waiting then; a scan is cancelled then.
func (d *daemon) handle(conn *net.UnixConn) {
	defer d.done(conn)
	if uid, err := scanner.PeerUID(conn); err != nil || uid != os.Getuid() {
		return
	}
	if err := conn.SetDeadline(time.Now().Add(ConnTimeout)); err != nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), scanner.DaemonTimeout)
	defer cancel()
	defer watchHangup(conn, cancel)()
	resp, ok := d.respond(ctx, conn)
	if !ok {
		return
	}
	b, err := json.Marshal(resp)
	if err != nil {
		b, _ = json.Marshal(scanner.Response{Fingerprint: d.fp, Error: "encoding the answer failed"})
	}
	_, _ = conn.Write(b)
}

// respond reads one request from conn and answers it within ctx. ok is
// false when nothing is to be written: the scan was abandoned.
func (d *daemon) respond(ctx context.Context, conn io.Reader) (resp scanner.Response, ok bool) {
	req, early := readChecked(conn, d.fp)
	if early != nil {
		return *early, true
	}
	if d.buildErr != nil {
		return answerCtx(ctx, nil, d.buildErr, d.fp, req.Text), true
	}
	release := d.acquire(ctx, len(req.Text))
	if release == nil {
		return scanner.Response{Fingerprint: d.fp, Error: "busy"}, true
	}
	defer release()
	return d.scan(ctx, req.Text)
}

// acquire waits for a scan slot of text's size class until ctx is done
// (nil then). Small and large texts have their own slots: however many
// large texts wait or run, and however long they take, a small one (a
// streamed chunk, a source file) finds its own slot.
func (d *daemon) acquire(ctx context.Context, size int) (release func()) {
	lane := d.small
	if size > SmallText {
		lane = d.large
	}
	select {
	case lane <- struct{}{}:
		return func() { <-lane }
	case <-ctx.Done():
		return nil
	}
}

// scan scans text within ctx. A scan whose ctx ends stops within
// StopGrace with an error answer, or is abandoned (ok false): the
// detector checks ctx only between rules, and one rule over an
// adversarial text can run for many seconds. A goroutine cannot be
// stopped from outside, so the daemon retires: the next client starts a
// fresh one, and this process exits, scan and all, once it has answered
// the clients it still serves.
func (d *daemon) scan(ctx context.Context, text string) (resp scanner.Response, ok bool) {
	res := make(chan scanner.Response, 1)
	go func() { res <- answerCtx(ctx, d.det, nil, d.fp, text) }()
	select {
	case r := <-res:
		return r, true
	case <-ctx.Done():
	}
	grace := time.NewTimer(StopGrace)
	defer grace.Stop()
	select {
	case r := <-res:
		return r, true
	case <-grace.C:
		d.retire()
		return scanner.Response{}, false
	}
}

// retire gives the daemon's names to a successor and stops accepting: the
// lock file first (a client that finds no socket then starts a new daemon
// at once instead of waiting on ours), then the socket, while it is still
// ours, then the listener. It starts the successor itself, so that the
// next scan finds it warm rather than paying its start.
func (d *daemon) retire() {
	if d.retired.Swap(true) {
		return
	}
	if d.listener == nil {
		return // not serving on a socket of its own (a test's daemon)
	}
	os.Remove(d.lockPath)
	if now, err := os.Lstat(d.socket); err == nil && os.SameFile(now, d.ours) {
		os.Remove(d.socket)
	}
	d.listener.Close()
	if d.successor != nil {
		d.successor()
	}
}

// busy turns a connection away: the client scans elsewhere.
func (d *daemon) busy(conn *net.UnixConn) {
	defer d.done(conn)
	if uid, err := scanner.PeerUID(conn); err != nil || uid != os.Getuid() {
		return
	}
	_ = conn.SetDeadline(time.Now().Add(time.Second))
	b, _ := json.Marshal(scanner.Response{Fingerprint: d.fp, Error: "busy"})
	_, _ = conn.Write(b)
}

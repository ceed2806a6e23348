//go:build linux || darwin

package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
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
	// TryLock's identity check keeps a late opener of this one out.
	defer os.Remove(lockPath)

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
	d := &daemon{fp: fp, det: det, buildErr: buildErr, slots: make(chan struct{}, MaxConns), scans: make(chan struct{}, MaxScans)}
	d.touch()
	done := make(chan struct{})
	go func() {
		d.acceptLoop(l)
		close(done)
	}()
	stillOurs := d.wait(ctx, cfg, socket, ours, done)
	l.Close()
	<-done
	d.conns.Wait()
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
	slots    chan struct{} // connections
	scans    chan struct{} // scans
	conns    sync.WaitGroup
	active   atomic.Int64
	last     atomic.Int64 // unix nanoseconds of the last request's end
}

func (d *daemon) touch() { d.last.Store(time.Now().UnixNano()) }

// wait returns when the daemon should stop: idle, socket gone or replaced
// (false: not ours to remove), signal, or the listener failed.
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

// handle answers one connection.
func (d *daemon) handle(conn *net.UnixConn) {
	defer d.done(conn)
	if uid, err := scanner.PeerUID(conn); err != nil || uid != os.Getuid() {
		return
	}
	if err := conn.SetDeadline(time.Now().Add(ConnTimeout)); err != nil {
		return
	}
	resp := respond(conn, d.fp, d.det, d.buildErr, d.waitScan)
	b, err := json.Marshal(resp)
	if err != nil {
		b, _ = json.Marshal(scanner.Response{Fingerprint: d.fp, Error: "encoding the answer failed"})
	}
	_, _ = conn.Write(b)
}

// waitScan waits for one of MaxScans, at most scanner.DaemonTimeout (the
// client has given up by then); it returns a release func, or nil when
// none came free.
func (d *daemon) waitScan() func() {
	t := time.NewTimer(scanner.DaemonTimeout)
	defer t.Stop()
	select {
	case d.scans <- struct{}{}:
		return func() { <-d.scans }
	case <-t.C:
		return nil
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

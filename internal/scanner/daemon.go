package scanner

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"time"

	"github.com/gemini-guard/gemini-guard/internal/secrets"
)

// StartTimeout bounds how long a client waits for a daemon that is
// starting (started by it or by another client) before it scans with a
// one-shot process instead. A daemon of the RE2 build is up in ~0.45 s on
// a 2-core machine, most of it gitleaks' regexp engine initialising, which
// a one-shot process pays too: running one next to the starting daemon
// would double the CPU for no gain.
const StartTimeout = 3 * time.Second

// errNoDaemon: no daemon is starting or serving (or one cannot be used).
var errNoDaemon = errors.New("scanner: no daemon")

// ImpostorError says the process serving a daemon socket is not our
// scanner: something took the socket's place. The text was not sent to it.
type ImpostorError struct {
	PID    int
	Why    string
	Socket string
	// Removed tells that the socket was removed, so that the next scan
	// starts a daemon of ours.
	Removed bool
}

func (e *ImpostorError) Error() string {
	s := fmt.Sprintf("scanner: the process serving %s (pid %d) is not gemini-guard's scanner: %s", e.Socket, e.PID, e.Why)
	if e.Removed {
		s += "; the socket was removed"
	}
	return s
}

// viaDaemon asks the daemon for fingerprint fp in dir, starting it first
// when there is none. ok is false when there is no usable daemon answer.
// An error says the socket is served by something that is not our scanner
// (*ImpostorError): the caller must not scan elsewhere and carry on as if
// nothing happened, but fail safe and tell the user.
func viaDaemon(dir, binary string, opts secrets.Options, fp string, header []byte, text string, deadline time.Time) (resp Response, ok bool, err error) {
	if err := CheckDir(dir, true); err != nil {
		return Response{}, false, nil
	}
	socket, err := SocketPath(dir, fp)
	if err != nil {
		return Response{}, false, nil
	}
	conn, err := dial(socket, deadline)
	if absent(err) {
		conn, err = startAndDial(binary, dir, socket, opts, earliest(deadline, time.Now().Add(StartTimeout)))
	}
	if err != nil {
		return Response{}, false, nil
	}
	defer conn.Close()
	if err := checkPeer(conn, binary); err != nil {
		var imp *ImpostorError
		if !errors.As(err, &imp) {
			return Response{}, false, nil
		}
		// The directory is ours (CheckDir): the name is free for our
		// daemon once the impostor's socket is gone.
		imp.Socket = socket
		imp.Removed = os.Remove(socket) == nil
		return Response{}, false, imp
	}
	resp, ok = exchange(conn, fp, header, text, earliest(deadline, time.Now().Add(DaemonTimeout)))
	return resp, ok, nil
}

// exchange sends one request on conn and reads the answer before until.
func exchange(conn *os.File, fp string, header []byte, text string, until time.Time) (Response, bool) {
	if err := conn.SetDeadline(until); err != nil {
		return Response{}, false
	}
	if _, err := conn.Write(header); err != nil {
		return Response{}, false
	}
	if _, err := io.WriteString(conn, text); err != nil {
		return Response{}, false
	}
	// The end of the request is the end of what the client sends.
	if err := closeWrite(conn); err != nil {
		return Response{}, false
	}
	resp, err := readResponse(conn)
	if err != nil || resp.Fingerprint != fp || resp.Error != "" {
		return Response{}, false
	}
	return resp, true
}

// absent reports whether a dial error means nobody serves the socket: no
// socket file, or a file nobody listens on (a dead daemon's).
func absent(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ECONNREFUSED)
}

func earliest(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// startAndDial makes sure a daemon is starting on socket and connects to it
// once it listens, before until.
//
// Whoever takes the daemon's lock starts the daemon and hands the lock to
// it (an inherited file: the lock stays with the daemon when we close our
// copy), so concurrent clients start one process, not one each: with the
// RE2 build a process costs ~0.3 s of CPU before main runs. A client that
// finds the lock taken waits for the daemon, unless that daemon already
// says it serves (its pid in the lock file) and yet nobody listens: it is
// on its way out or lost its socket.
func startAndDial(binary, dir, socket string, opts secrets.Options, until time.Time) (*os.File, error) {
	lockPath := LockPath(socket)
	lock, err := TryLock(lockPath)
	if err != nil {
		return nil, err
	}
	var exited chan struct{}
	if lock != nil {
		exited, err = start(binary, dir, opts, lock)
		lock.Close()
		if err != nil {
			return nil, err
		}
	} else if serving(lockPath) {
		if conn, err := dial(socket, until); err == nil {
			return conn, nil
		}
		return nil, errNoDaemon
	}
	for delay := 2 * time.Millisecond; ; delay = min(2*delay, 25*time.Millisecond) {
		conn, err := dial(socket, until)
		if !absent(err) {
			return conn, err
		}
		if time.Now().Add(delay).After(until) {
			return nil, errNoDaemon
		}
		select {
		case <-exited: // nil (not ours): never
			return nil, errNoDaemon
		case <-time.After(delay):
		}
		if exited == nil {
			// Another client's daemon: gone if its lock came free.
			if l, err := TryLock(lockPath); err != nil || l != nil {
				if l != nil {
					l.Close()
				}
				return nil, errNoDaemon
			}
		}
	}
}

// serving reports whether the daemon holding lockPath wrote its pid, which
// it does once it listens.
func serving(lockPath string) bool {
	b, err := os.ReadFile(lockPath)
	if err != nil {
		return false
	}
	pid, err := strconv.Atoi(string(bytes.TrimSpace(b)))
	return err == nil && pid > 0
}

// start starts a daemon for opts that takes over lock (held by us). The
// returned channel is closed when the daemon exits.
func start(binary, dir string, opts secrets.Options, lock *os.File) (chan struct{}, error) {
	o, err := json.Marshal(OptionsToWire(opts))
	if err != nil {
		return nil, err
	}
	// An empty lock file says "starting" to other clients (a killed
	// daemon's pid may still be in it).
	if err := lock.Truncate(0); err != nil {
		return nil, err
	}
	cmd := exec.Command(binary, "serve", "-dir", dir, "-options", string(o), "-lock-fd", "3")
	cmd.ExtraFiles = []*os.File{lock}
	// Nil Stdin, Stdout and Stderr are /dev/null: nothing of the hook's is
	// held open (Gemini CLI waits for the hook's stdout to close). The
	// root directory as working directory: a daemon must not keep the
	// user's workspace busy (the config path is absolute).
	cmd.Dir = "/"
	detach(cmd)
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	exited := make(chan struct{})
	// Reaped if this process outlives the daemon (a long-lived caller, a
	// test); a hook process exits first and the daemon is re-parented.
	go func() {
		_ = cmd.Wait()
		close(exited)
	}()
	return exited, nil
}

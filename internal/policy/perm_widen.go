package policy

// perm.widen: credentials opened to others, programs made setuid or
// given capabilities, and system paths' permissions changed.

import (
	"slices"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/lazyregexp"
	"github.com/gemini-guard/gemini-guard/internal/shell"
)

var permWorldWritable = &lazyregexp.Regexp{Expr: `^(0?[0-7]?[0-7][0-7][2367]|([ugoa]*[ao][ugoa]*|)[+=][rwxXst]*w[rwxXst]*)$`}

var permWorldReadable = &lazyregexp.Regexp{Expr: `^(0?[0-7]?[0-7][0-7][4567]|[0-7]?[0-7][4567][0-7]|([ugoa]*[aog][ugoa]*|)[+=][rwxXst]*r[rwxXst]*)$`}

var permNone = &lazyregexp.Regexp{Expr: `^(0?0?00|[ugoa]*=)$`}

var permOthersReadable = &lazyregexp.Regexp{Expr: `^(0?[0-7]?[0-7][0-7][4567]|([ugoa]*[ao][ugoa]*|)[+=][rwxXst]*r[rwxXst]*)$`}

var dangerousCaps = &lazyregexp.Regexp{Expr: `(?i)\bcap_(setuid|setgid|sys_admin|sys_module|sys_ptrace|sys_rawio|dac_override|dac_read_search|chown|fowner|setfcap|net_admin|bpf|all)\b|^(all|=ep)`}

var permSetID = &lazyregexp.Regexp{Expr: `^(0?[2-7][0-7]{3}|[ugoa]*\+[rwxX]*s[rwxXt]*)$`}

// permSetUID is a mode that sets the set-user-ID bit (not only set-group-ID,
// which directories take for shared group ownership).
var permSetUID = &lazyregexp.Regexp{Expr: `^(0?[4-7][0-7]{3}|(u|a|ug|uo|ugo|ua)?\+[rwxX]*s[rwxXt]*)$`}

// isSetIDTarget reports whether a program (a path), setuid, hands a root
// shell to anyone: a shell or an interpreter — the analysis's own lists
// (shell.IsShell, shell.Interpreter, shell.RunsStdin) — busybox, or one of
// setIDEscapes.
func isSetIDTarget(program string) bool {
	name := shell.CommandName(program)
	return shell.IsShell(name) || shell.Interpreter(name) != "" || shell.RunsStdin(name) || name == "busybox" || slices.Contains(setIDEscapes, name)
}

// setIDEscapes are programs that are neither shells nor interpreters but
// run a command for their caller (find -exec, an editor's or pager's !,
// env, nmap --interactive, docker run -v /:/host) or write any file as
// their owner (cp, mv, tar over /etc/shadow).
var setIDEscapes = []string{"find", "vim", "vi", "nano", "less", "more", "env", "cp", "mv", "tar", "nmap", "docker"}

// checkPermWiden: credentials made readable or writable by others, shells
// and interpreters made setuid, and any permission, owner, attribute or
// ACL change of a system path (recursive or not).
func checkPermWiden(c *Call) Finding {
	var mode string
	var targets []string
	switch c.Ex.Name {
	case "chmod":
		mode, targets = chmodOperands(c.Args)
	case "setcap":
		return setcapWidens(c)
	case "install":
		return installSetID(c)
	case "chflags": // the BSDs' and macOS's chattr: chflags [-R] flags file...
		if ops := operands(c.Args); len(ops) > 1 {
			mode, targets = ops[0], ops[1:]
		}
	case "chown", "chgrp", "chattr", "setfacl":
		mode, targets = ownerOperands(c)
	default:
		return Finding{}
	}
	for _, t := range targets {
		if f := permTargetWidened(c, mode, t); f.Hit {
			return f
		}
	}
	return Finding{}
}

// chmodOperands are chmod's mode (also chmod -w f, chmod -x f) and files.
func chmodOperands(args []string) (mode string, targets []string) {
	ops := operands(args)
	for _, a := range args {
		if modeWordRe.MatchString(a) && mode == "" && !slices.Contains([]string{"-R", "-f", "-v", "-c"}, a) {
			mode = a[1:] // chmod -w f, chmod -x f
		}
	}
	if mode == "" && len(ops) > 0 {
		mode, ops = ops[0], ops[1:]
	}
	return mode, ops
}

// ownerOperands are the paths chown, chgrp, chattr and setfacl change, and
// chattr's -i/-a flags as the mode; none when chown or chgrp hand the paths
// to root, which takes rights away from users.
func ownerOperands(c *Call) (mode string, targets []string) {
	name := c.Ex.Name
	ops := operands(c.Args)
	if (name == "chown" || name == "chgrp") && len(ops) > 0 {
		if toRoot(name, ops[0]) {
			return "", nil
		}
		ops = ops[1:]
	}
	if name != "chattr" {
		return "", ops
	}
	for _, a := range c.Args {
		if strings.HasPrefix(a, "-") && len(a) > 1 && strings.ContainsAny(a[1:], "ia") && !strings.HasPrefix(a, "--") {
			mode = a
		}
	}
	if len(ops) > 0 && (strings.HasPrefix(ops[0], "+") || strings.HasPrefix(ops[0], "=")) {
		return mode, ops[1:]
	}
	return mode, ops
}

// setcapWidens: capabilities are setuid in pieces: cap_setuid on python is
// a root shell for anyone who can run it.
func setcapWidens(c *Call) Finding {
	ops := operands(c.Args)
	for i, o := range ops {
		if i+1 < len(ops) && dangerousCaps.MatchString(o) && strings.ContainsAny(o, "+=") && strings.Contains(o[strings.IndexAny(o, "+="):], "e") {
			return hit("setcap " + o + " lets " + ops[i+1] + " act as root for whoever runs it")
		}
	}
	return Finding{}
}

// installSetID: install -m 4755 /bin/bash /tmp/x is chmod u+s on a copy.
func installSetID(c *Call) Finding {
	p := shell.ParseArgs(c.Args, installSpec)
	mode, _ := p.Value("m", "mode")
	if !permSetID.MatchString(mode) {
		return Finding{}
	}
	for _, t := range p.Operands {
		if isSetIDTarget(c.resolve(t)) {
			return hit("install -m " + mode + " makes a copy of " + t + " run as its owner for anyone: a root shell for every user")
		}
	}
	return Finding{}
}

// permTargetWidened judges one path whose mode, owner or attributes a call
// changes to mode.
func permTargetWidened(c *Call, mode, t string) Finding {
	l, p := c.Loc(t), c.resolve(t)
	if f := permSystemOrSetID(c, mode, t, l, p); f.Hit {
		return f
	}
	return permCredentialOpened(c, mode, l, p)
}

// permSystemOrSetID: a system path changed, a program made setuid, a home
// or critical path made writable by all.
func permSystemOrSetID(c *Call, mode, t string, l Loc, p string) Finding {
	name := c.Ex.Name
	if (l.Place == Root || l.Place == CoreSystem || l.Place == Protected) && (name != "chmod" || permWorldWritable.MatchString(mode) || permSetID.MatchString(mode) || permNone.MatchString(mode)) {
		// chmod +x /usr/local/bin/tool is an install step; making a
		// system path writable by all, setuid, unreadable, or another
		// user's, is not.
		return hit(name + " changes the permissions, owner or attributes of the system path " + l.Path)
	}
	if name != "chmod" {
		return Finding{}
	}
	switch {
	case permSetID.MatchString(mode) && !shell.Known(t):
		return hit("chmod " + mode + " makes " + c.Show(t) + ", a program decided at run time, run as its owner for anyone")
	case permSetID.MatchString(mode) && isSetIDTarget(p):
		return hit("chmod " + mode + " makes " + p + " run as its owner for anyone: a root shell for every user")
	case permSetUID.MatchString(mode) && l.Place != InWorkspace:
		// Any program made setuid outside the project runs as its
		// owner for whoever starts it; copies of shells hide under any
		// name (cp /bin/bash /tmp/x). The workspace's own tools are
		// the user's to build.
		return hit("chmod " + mode + " makes " + p + " run as its owner for anyone who starts it")
	case permWorldWritable.MatchString(mode) && (l.homeLike() || l.critical()):
		return hit("chmod " + mode + " makes " + l.Path + " writable by every user")
	}
	return Finding{}
}

// permCredentialOpened: chmod making a credential (or ~/.ssh, ~/.gnupg,
// ~/.aws) readable or writable by others. A key of the workspace may be
// shared with its group (640 for a service's certificate); anywhere else
// group access widens too.
func permCredentialOpened(c *Call, mode string, l Loc, p string) Finding {
	if c.Ex.Name != "chmod" {
		return Finding{}
	}
	readable := permWorldReadable
	if l.Place == InWorkspace {
		readable = permOthersReadable
	}
	if !permWorldWritable.MatchString(mode) && !readable.MatchString(mode) {
		return Finding{}
	}
	what, ok := c.Ctx.credential(c.Res, p)
	if !ok && !strings.HasSuffix(p, "/.ssh") && !strings.HasSuffix(p, "/.gnupg") && !strings.HasSuffix(p, "/.aws") {
		return Finding{}
	}
	if !ok {
		what = p
	}
	return hit("chmod " + mode + " lets other users read " + what)
}

var installSpec = &shell.OptSpec{Short: "bcCdDg:m:o:pPsS:t:TvZ", Long: []string{"backup=?", "compare", "directory", "group=", "mode=", "owner=", "preserve-timestamps", "strip", "strip-program=", "suffix=", "target-directory=", "no-target-directory", "verbose", "preserve-context", "context=?", "debug", "help", "version"}, Abbrev: true}

// toRoot reports whether chown/chgrp's owner word hands the paths to root
// (root, 0, root:root, :root, 0:0).
func toRoot(name, owner string) bool {
	user, group, hasGroup := strings.Cut(owner, ":")
	if name == "chgrp" {
		user, group, hasGroup = "", owner, true
	}
	isRoot := func(s string) bool { return s == "root" || s == "0" || s == "wheel" }
	return (user == "" || isRoot(user)) && (!hasGroup || group == "" || isRoot(group)) && (user != "" || group != "")
}

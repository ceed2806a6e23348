package policy

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/lazyregexp"
	"github.com/gemini-guard/gemini-guard/internal/shell"
)

// permRules judge permissions widened or changed recursively.
var permRules = []*Rule{
	{
		ID: "perm.recursive-system", Category: "perm",
		Protects:  "permissions and ownership of system directories, home, and / itself",
		What:      "changes permissions or ownership of a system or home directory tree",
		Safer:     "change only the files in the workspace that need it",
		Unknown:   "Denied in standard mode when the known part of the path is a system directory; a recursive change inside home is denied in strict mode only.",
		DenyMaybe: true,
		Commands:  []string{"chmod", "chown", "chgrp", "setfacl"}, exec: checkPermRecursive,
		Block: []string{`chmod -R 777 /`, `sudo chown -R user /usr`, `chmod -R 755 /etc`, `chmod -R 700 ~`, `setfacl -R -m u:x:rwx /etc`, `chmod 777 /`},
		Allow: []string{`chmod -R u+w build`, `chmod +x script.sh`, `chmod 600 ~/.ssh/config`, `chown user /var/log/app.log`, `chmod -R go-w /usr/local/lib/node_modules`, `chown -R $USER ~/.npm`},
	},
	{
		ID: "perm.widen", Category: "perm",
		Protects: "credentials (made readable or writable by others), shells and interpreters (made setuid), and system paths (any permission, owner, attribute or ACL change)",
		What:     "widens permissions so that others can read, change or run as someone else",
		Safer:    "keep keys 600 and credential directories 700; change permissions only inside the workspace",
		Unknown:  noUnknownStory,
		Commands: []string{"chmod", "chown", "chgrp", "chattr", "chflags", "setfacl", "install", "setcap"}, exec: checkPermWiden,
		Block: []string{`chmod 777 ~/.ssh`, `chmod 644 ~/.ssh/id_rsa`, `chmod o+r ~/.aws/credentials`, `chmod u+s /bin/bash`, `chmod 4755 /usr/bin/python3`, `chown dev /etc/passwd`, `chattr -i /etc/resolv.conf`, `chmod 777 ~`, `setfacl -m u:x:rw /etc/shadow`, `install -m 4755 /bin/bash /tmp/rootbash`, `chmod u+s $(which perl)`, `setcap cap_setuid+ep /usr/bin/python3`, `sudo chflags noschg /bin/ls`, `sudo chflags -R noschg /etc`},
		Allow: []string{`chmod 600 ~/.ssh/id_rsa`, `chmod 700 ~/.ssh`, `chmod 755 script.sh`, `chmod 777 build/tmp`, `chmod u+s ./mytool`, `chown -R dev:dev build`, `chown root:root /etc/sudoers.d/deploy`, `chmod 640 ./certs/server.key`, `setcap cap_net_bind_service=+ep ./bin/server`, `chflags nohidden ~/Library`, `chflags -R nouchg ./build`},
	},
	{
		ID: "perm.find-exec", Category: "perm",
		Protects: "permissions and owners across system directories and home, changed one file at a time by find -exec",
		What:     "changes permissions or owners across a system directory or home",
		Safer:    "change only the files in the workspace that need it",
		Unknown:  noUnknownStory,
		Commands: []string{"find"}, exec: checkFindPerm,
		Block: []string{`find / -exec chmod 777 {} +`, `find ~ -type f -exec chmod 666 {} \;`, `sudo find /etc -exec chown dev {} +`},
		Allow: []string{`find . -type f -exec chmod 644 {} +`, `find src -name '*.sh' -exec chmod +x {} \;`},
	},
}

// checkFindPerm: find over a system directory or home running chmod,
// chown, chgrp, chattr or setfacl on what it finds: recursive in effect.
func checkFindPerm(c *Call) Finding {
	starts, expr := shell.FindStart(c.Args)
	changer := ""
	shell.FindExpr(expr, func(primary, _ string, cmd []string) {
		if len(cmd) > 0 && changer == "" {
			if n := shell.CommandName(cmd[0]); slices.Contains([]string{"chmod", "chown", "chgrp", "chattr", "setfacl"}, n) {
				changer = n
			}
		}
	})
	if changer == "" {
		return Finding{}
	}
	for _, s := range starts {
		l := c.Loc(s)
		if l.critical() || l.Place == Home || l.Place == Ancestor || l.Place == OtherHome {
			return hit("find " + l.Path + " -exec " + changer + " changes permissions or owners across " + l.Place.String())
		}
	}
	return Finding{}
}

var (
	chmodSpec   = &shell.OptSpec{Short: "cfvR", Long: []string{"changes", "silent", "quiet", "verbose", "no-preserve-root", "preserve-root", "reference=", "recursive", "help", "version"}, Abbrev: true}
	chownSpec   = &shell.OptSpec{Short: "cfvRhHLP", Long: []string{"changes", "silent", "quiet", "verbose", "no-preserve-root", "preserve-root", "reference=", "recursive", "dereference", "no-dereference", "from=", "help", "version"}, Abbrev: true}
	setfaclSpec = &shell.OptSpec{Short: "m:M:x:X:bkndRLPtvh", Long: []string{"modify=", "modify-file=", "remove=", "remove-file=", "remove-all", "remove-default", "set=", "set-file=", "mask", "no-mask", "default", "restore=", "test", "recursive", "logical", "physical", "version", "help"}, Abbrev: true}
	modeWordRe  = &lazyregexp.Regexp{Expr: `^-[rwxXstugoa0-7,+=-]+$`}
)

// permRemovesWrite is a symbolic mode that only takes write, setuid,
// setgid or sticky bits away (go-w, a-w,o-t).
var permRemovesWrite = &lazyregexp.Regexp{Expr: `^[ugoa]*-[wst]+(,[ugoa]*-[wst]+)*$`}

// onlyRemovesWrite reports whether chmod's mode (its first operand, or a
// mode word such as -w) only takes write or set-id bits away.
func onlyRemovesWrite(args []string) bool {
	for _, a := range args {
		if a == "-R" || a == "--recursive" || a == "-v" || a == "-c" || a == "-f" {
			continue
		}
		if strings.HasPrefix(a, "-") && modeWordRe.MatchString(a) {
			return permRemovesWrite.MatchString(a)
		}
		if strings.HasPrefix(a, "-") {
			continue
		}
		return permRemovesWrite.MatchString(a)
	}
	return false
}

// checkPermRecursive: recursive permission or ownership changes of system
// paths, home, or a directory holding them; any change of / or home itself.
func checkPermRecursive(c *Call) Finding {
	p, targets, ok := permRecursiveArgs(c)
	if !ok {
		return Finding{}
	}
	recursive := p.Has("R", "recursive")
	if c.Ex.Name == "chmod" && onlyRemovesWrite(c.Args) {
		return Finding{} // taking write or set-id bits away harms nobody
	}
	for _, t := range targets {
		if f := permTargetChanged(c, c.Loc(t), recursive); f.Hit || f.Maybe {
			return f
		}
	}
	return Finding{}
}

// permRecursiveArgs parses chmod, chown, chgrp and setfacl and returns the
// paths they change (the mode or owner taken out, unless --reference gave
// it).
func permRecursiveArgs(c *Call) (p shell.Args, targets []string, ok bool) {
	switch c.Ex.Name {
	case "chmod":
		// A mode like -x looks like an option: take it out first.
		args := make([]string, 0, len(c.Args))
		modeGiven := false
		for _, a := range c.Args {
			if strings.HasPrefix(a, "-") && modeWordRe.MatchString(a) && !strings.ContainsAny(a[1:], "Rcfv") {
				modeGiven = true
				continue
			}
			args = append(args, a)
		}
		p = shell.ParseArgs(args, chmodSpec)
		return p, withoutModeOperand(p, modeGiven), true
	case "chown", "chgrp":
		p = shell.ParseArgs(c.Args, chownSpec)
		return p, withoutModeOperand(p, false), true
	case "setfacl":
		p = shell.ParseArgs(c.Args, setfaclSpec)
		return p, p.Operands, true
	}
	return p, nil, false
}

// withoutModeOperand are the operands but the first (the mode or owner)
// unless --reference or a mode taken out already gave it.
func withoutModeOperand(p shell.Args, given bool) []string {
	targets := p.Operands
	if _, ref := p.Value("reference"); !ref && !given && len(targets) > 0 {
		return targets[1:]
	}
	return targets
}

// permTargetChanged judges one path at l: / or home itself, and
// recursively anything critical, a home or a directory holding one;
// strict mode also asks for a recursive change inside home.
func permTargetChanged(c *Call, l Loc, recursive bool) Finding {
	bad := l.Place == Root || l.Place == Home && !l.Maybe
	if recursive {
		bad = bad || l.critical() || l.Place == Home || l.Place == OtherHome || l.Place == Ancestor
	}
	if bad {
		what := fmt.Sprintf("%s changes permissions or ownership of %s, %s", c.Ex.Name, l.Path, l.Place)
		if recursive {
			what = fmt.Sprintf("%s -R changes permissions or ownership of everything under %s, %s", c.Ex.Name, l.Path, l.Place)
		}
		if l.Maybe {
			return maybe(what)
		}
		return hit(what)
	}
	if recursive && l.Place == InHome && c.Ctx.Strict {
		return maybe(fmt.Sprintf("%s -R changes everything under %s, %s", c.Ex.Name, l.Path, l.Place))
	}
	return Finding{}
}

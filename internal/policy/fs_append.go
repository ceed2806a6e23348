package policy

// fs.system-write's exception: a known line appended to a system file
// whose appended lines of that shape change nothing the threat model
// protects (a local test name mapped to loopback in /etc/hosts, a tuning
// knob in sysctl.conf).

import (
	"slices"
	"strconv"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/shell"
)

// harmlessAppend is a system file (or folder, ending in /) and the lines
// that may be appended to it.
type harmlessAppend struct {
	path string
	line func(string) bool
}

// harmlessAppends are the system files where an appended line of a known
// shape is ordinary development setup.
var harmlessAppends = []harmlessAppend{
	{"/etc/hosts", loopbackHostsLine},
	{"/private/etc/hosts", loopbackHostsLine},
	{"/etc/sysctl.conf", tuningSysctlLine},
	{"/etc/sysctl.d/", tuningSysctlLine},
}

// appendIsHarmless reports whether every way the call writes p is an
// append of text the command line shows, to one of harmlessAppends, and
// every line of that text is of the harmless shape.
func appendIsHarmless(c *Call, p string) bool {
	i := slices.IndexFunc(harmlessAppends, func(h harmlessAppend) bool {
		return p == h.path || strings.HasSuffix(h.path, "/") && strings.HasPrefix(p, h.path) && path0(p[len(h.path):])
	})
	if i < 0 {
		return false
	}
	text, ok := appendedText(c, p)
	if !ok || !shell.Known(text) || strings.TrimSpace(text) == "" {
		return false
	}
	for _, l := range strings.Split(text, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") && !harmlessAppends[i].line(l) {
			return false
		}
	}
	return true
}

// path0 reports whether rest is a single file name (no folder below).
func path0(rest string) bool { return rest != "" && !strings.Contains(rest, "/") }

// appendedText is what the call appends to p, when the command line shows
// it: echo or printf >> p, or tee -a p fed a here-string, a heredoc or
// echo/printf through a pipe. Any other write of p (a truncating
// redirection, another program) gives false.
func appendedText(c *Call, p string) (string, bool) {
	redirected := false
	for _, r := range c.Ex.Redirs {
		if !r.Writes() || c.resolve(r.Target) != p {
			continue
		}
		if r.Op != ">>" || r.Fd != "" && r.Fd != "1" {
			return "", false
		}
		redirected = true
	}
	switch {
	case redirected && (c.Ex.Name == "echo" || c.Ex.Name == "printf"):
		return shell.ProducedText(c.Ex)
	case redirected || c.Ex.Name != "tee" || !hasArg(c.Args, "-a", "--append") && !hasShortFlag(c.Args, 'a'):
		return "", false
	}
	in := c.Ex.Stdin
	switch {
	case in == nil || in.File != "":
		return "", false
	case in.HasText:
		return in.Text, true
	case len(in.Producers) == 1:
		return shell.ProducedText(in.Producers[0])
	}
	return "", false
}

// localNameSuffixes are the names reserved never to reach a real service
// (RFC 2606, RFC 6761): .test, .localhost, .example, .invalid.
var localNameSuffixes = []string{".test", ".localhost", ".example", ".invalid"}

// loopbackHostsLine: an /etc/hosts line mapping reserved names (or
// localhost itself) to a loopback address. Any other name is not: sent to
// loopback, a public name can cut the machine off an update or a security
// vendor's service, and an intranet name (one label, .local, .lan,
// .internal) hands what the user's tools send that server to whatever
// listens on loopback.
func loopbackHostsLine(l string) bool {
	l, _, _ = strings.Cut(l, "#")
	f := strings.Fields(l)
	if len(f) < 2 {
		return false
	}
	if !loopbackAddr(f[0]) {
		return false
	}
	for _, name := range f[1:] {
		n := strings.ToLower(strings.TrimSuffix(name, "."))
		if n != "localhost" && !slices.ContainsFunc(localNameSuffixes, func(s string) bool { return strings.HasSuffix(n, s) }) {
			return false
		}
	}
	return true
}

// loopbackAddr reports whether a is a loopback address: IPv4 127.x.y.z
// or IPv6 ::1 (parsed by hand: the hook does not link the net package).
func loopbackAddr(a string) bool {
	if a == "::1" || a == "0:0:0:0:0:0:0:1" {
		return true
	}
	parts := strings.Split(a, ".")
	if len(parts) != 4 || parts[0] != "127" {
		return false
	}
	for _, p := range parts {
		if n, err := strconv.Atoi(p); err != nil || strings.Trim(p, "0123456789") != "" || n > 255 || len(p) > 1 && p[0] == '0' {
			return false
		}
	}
	return true
}

// tuningSysctlLine: a sysctl.conf line setting a knob that guards nothing
// (sysctlGuardedKey). A leading - only tells sysctl to ignore errors.
func tuningSysctlLine(l string) bool {
	key, _, ok := strings.Cut(strings.TrimPrefix(l, "-"), "=")
	return ok && strings.TrimSpace(key) != "" && !sysctlGuardedKey(key)
}

package policy

// fs.logs-erased: the system logs emptied, deleted or vacuumed.

import (
	"path"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/lazyregexp"
)

// rotatedLog is the name of a log that rotation already closed (syslog.1,
// auth.log.2.gz, app.log-20240101, x.old): removing it is routine cleanup.
var rotatedLog = &lazyregexp.Regexp{Expr: `(\.[0-9]+|\.gz|\.xz|\.bz2|\.zst|\.old|-[0-9]{8})$`}

// liveLog reports whether p is a live system log: under /var/log and not
// rotated, or the login records under /var.
func liveLog(p string) bool {
	if !strings.HasPrefix(p, "/") {
		return false
	}
	p = path.Clean(p)
	switch path.Base(p) {
	case "wtmp", "btmp", "lastlog", "utmp", "faillog":
		return under(p, "/var")
	}
	return under(p, "/var/log") && !rotatedLog.MatchString(p)
}

// checkLogsErased: a live system log (under /var/log, or the login
// records wtmp, btmp, lastlog, utmp) emptied, deleted, shredded or moved
// away: the record of what happened on the machine is lost.
func checkLogsErased(c *Call) Finding {
	for _, r := range c.Ex.Redirs {
		if r.Truncates() && r.Target != "" && liveLog(c.resolve(r.Target)) {
			return hit("empties the system log " + c.resolve(r.Target))
		}
	}
	name := c.Ex.Name
	switch name {
	case "rm", "unlink", "shred", "srm", "wipe", "truncate":
		for _, o := range operands(c.Args) {
			if p := c.resolve(o); liveLog(p) || path.Clean(p) == "/var/log" {
				return hit(name + " erases the system log " + p)
			}
		}
	case "tee":
		return teeOverwritesLog(c)
	case "cp", "mv", "dd", "install", "ln":
		writes, deletes := changes(c)
		for _, p := range append(writes, deletes...) {
			if liveLog(p) {
				return hit(name + " overwrites or moves away the system log " + p)
			}
		}
	case "journalctl":
		return journalVacuumed(c)
	}
	return Finding{}
}

func teeOverwritesLog(c *Call) Finding {
	if hasArg(c.Args, "-a", "--append") {
		return Finding{}
	}
	for _, o := range operands(c.Args) {
		if p := c.resolve(o); liveLog(p) {
			return hit("tee overwrites the system log " + p)
		}
	}
	return Finding{}
}

// journalVacuumed: journalctl --vacuum-time of seconds to hours or
// --vacuum-size of kilobytes.
func journalVacuumed(c *Call) Finding {
	for _, a := range c.Args {
		if v, ok := strings.CutPrefix(a, "--vacuum-time="); ok && shortTime(v) {
			return hit("journalctl " + a + " erases the system journal")
		}
		if v, ok := strings.CutPrefix(a, "--vacuum-size="); ok && (v == "0" || strings.HasSuffix(v, "K") || strings.HasSuffix(v, "B") || v == "1M") {
			return hit("journalctl " + a + " erases the system journal")
		}
	}
	return Finding{}
}

// shortTime: a journalctl time span of seconds, minutes or hours, which
// erases nearly the whole journal (2weeks, 30d keep what matters).
func shortTime(v string) bool {
	v = strings.TrimLeft(v, "0123456789")
	switch v {
	case "", "s", "sec", "second", "seconds", "m", "min", "minute", "minutes", "h", "hour", "hours", "ms", "us":
		return true
	}
	return false
}

package policy

import (
	"slices"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/lazyregexp"
)

// Passwords picked off the network: a capture filtered to the protocols
// that send them in clear text, or a tool whose only purpose is that.

// sniffers capture packets by a filter given on their command line.
var sniffers = []string{"tcpdump", "tshark", "dumpcap", "ngrep", "windump", "snoop"}

// passwordSniffers pick passwords out of the traffic they see.
var passwordSniffers = []string{"dsniff", "mailsnarf", "ettercap", "bettercap", "responder", "pcredz", "net-creds"}

// cleartextLoginRe finds a capture filter on a port whose protocol sends
// its login in clear text (port 21, tcp port 110, tcp.port==23, port
// telnet); port 80 alone is ordinary web debugging.
var cleartextLoginRe = &lazyregexp.Regexp{Expr: `(?i)\bport\s*(==\s*)?(21|23|110|143|389|513|ftp|telnet|pop3|imap|ldap|login)\b`}

// checkSniff: a live capture filtered to clear-text logins, or a password
// sniffer. Reading a capture file (-r) looks at traffic already kept.
func checkSniff(c *Call) Finding {
	if slices.Contains(passwordSniffers, c.Ex.Name) {
		return hit(c.Ex.Name + " picks passwords and other credentials out of the network traffic")
	}
	if !slices.Contains(sniffers, c.Ex.Name) || hasArg(c.Args, "-r") || c.Ex.Name == "ngrep" && hasArg(c.Args, "-I") {
		return Finding{}
	}
	// The filter may be one word or many (port 80 or port 21).
	if m := cleartextLoginRe.FindString(strings.Join(c.Args, " ")); m != "" {
		return hit(c.Ex.Name + " captures traffic filtered to a protocol that sends passwords in clear text (" + m + ")")
	}
	return Finding{}
}

/*
Guard-scanner is gemini-guard's secret scanner process. The hooks never run
gitleaks themselves: their client (internal/scanner) asks a long-lived
guard-scanner daemon over a unix socket, starting one when there is none,
and scans that call with a one-shot guard-scanner process.

Usage:

	guard-scanner serve [-dir DIR] [-options JSON] [-idle D] [-check D] [-lock-fd N]
	guard-scanner scan < request > response

serve runs a daemon for one set of scanner options (JSON, as in the
protocol's "options"), with its socket in DIR (default: the runtime
directory, $XDG_RUNTIME_DIR/gemini-guard or $TMPDIR/gemini-guard-<uid>). It
exits 0 at once when another daemon serves the same fingerprint, and after
-idle (default 10m) without a request. -check (default 5s) is how often it
checks for idleness and for its socket file. -lock-fd is the inherited
descriptor of the daemon's lock file, locked by the client that starts it.
Not on Windows.

scan answers the one request on stdin on stdout and exits 0; the answer
carries any error.

The protocol, limits and security checks are documented in packages
internal/scanner and internal/scanner/server. Exit codes: 0 done, 1 error
(on stderr), 2 usage.
*/
package main

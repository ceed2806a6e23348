package policy

// Secrets leaving their place without a credential file being read:
// searches for them across home or /, environment dumps kept or filtered or
// sent, the system's own credential stores and exported private keys
// (secret-bearing variables sent elsewhere: secrets_sent.go).

import (
	"path"
	"slices"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/lazyregexp"
	"github.com/gemini-guard/gemini-guard/internal/shell"
)

// secretWordRe is what a search for credentials looks for.
var secretWordRe = &lazyregexp.Regexp{Expr: `(?i)passw(or)?d|secret|token|api[_-]?key|apikey|private[_ -]?key|credential|BEGIN [A-Z ]*PRIVATE|aws_access|auth[_-]?token|authorization|bearer`}

// strongSecretWordRe is what a search of a system directory must look for
// to count as a hunt: grep -r PasswordAuthentication /etc/ssh reads a
// setting.
var strongSecretWordRe = &lazyregexp.Regexp{Expr: `(?i)secret|token|api[_-]?key|apikey|private[_ -]?key|credential|BEGIN [A-Z ]*PRIVATE|aws_access|bearer|passw(or)?d\s*[=:]|^passw(or)?d$|\|`}

// secretShapeRe is what a search for credential values by their shape
// looks for: the prefixes of well-known tokens and key headers.
var secretShapeRe = &lazyregexp.Regexp{Expr: `^\^?(AKIA|ASIA|ghp_|gho_|ghs_|github_pat_|glpat-|xox[abpr]-?|sk-|sk_live_|rk_live_|AIza|hf_|npm_|pypi-|SG\.|-----BEGIN)`}

// plainPattern is a search pattern without the regular-expression syntax
// between its letters (api[_-]?key is apikey, pass.?word is password).
func plainPattern(p string) string {
	var b strings.Builder
	depth := 0
	for _, r := range p {
		switch {
		case r == '[':
			depth++
		case r == ']' && depth > 0:
			depth--
		case depth > 0 || strings.ContainsRune(`\.?*+(){}^$`, r):
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// secretFileGlobRe is what a find for credential files names.
var secretFileGlobRe = &lazyregexp.Regexp{Expr: `(?i)id_(rsa|dsa|ecdsa|ed25519)|\.pem|\.key\b|\.p12|\.pfx|\.kdbx|\.env|credential|secret|passw|token|\.netrc|\.pgpass|wallet|keystore|\.ovpn|\.ppk`}

// checkSecretHunt: grep/rg/ag/ack/find over home, another home or / for
// secret-looking words or files.
func checkSecretHunt(c *Call) Finding {
	wide := func(p string) (Loc, bool) {
		l := c.Loc(p)
		switch l.Place {
		case Root, Home, Ancestor, OtherHome, CoreSystem, System:
			return l, true
		case InHome:
			// ~/.config, ~/.ssh: dot directories hold the credentials.
			rel := strings.TrimPrefix(l.Path, c.Ctx.Home+"/")
			return l, strings.HasPrefix(rel, ".")
		}
		return l, false
	}
	switch c.Ex.Name {
	case "find", "fd", "fdfind", "locate", "plocate", "mlocate":
		if c.Ex.Name == "locate" || c.Ex.Name == "plocate" || c.Ex.Name == "mlocate" {
			for _, o := range operands(c.Args) {
				if secretFileGlobRe.MatchString(o) {
					return hit(c.Ex.Name + " searches the whole machine for credential files (" + o + ")")
				}
			}
			return Finding{}
		}
		var starts, patterns []string
		if c.Ex.Name == "find" {
			var expr []string
			starts, expr = shell.FindStart(c.Args)
			shell.FindExpr(expr, func(primary, value string, _ []string) {
				switch primary {
				case "-name", "-iname", "-path", "-ipath", "-regex", "-iregex", "-wholename", "-iwholename":
					patterns = append(patterns, value)
				}
			})
		} else {
			ops := operands(c.Args)
			if len(ops) > 0 {
				patterns, starts = ops[:1], ops[1:]
			}
		}
		for _, pat := range patterns {
			if !secretFileGlobRe.MatchString(pat) {
				continue
			}
			for _, s := range starts {
				if l, ok := wide(s); ok {
					return hit(c.Ex.Name + " searches " + l.Place.String() + " for credential files (" + pat + ")")
				}
			}
		}
	case "grep", "egrep", "fgrep", "rg", "ag", "ack", "ugrep", "git-grep":
		recursive := c.Ex.Name == "rg" || c.Ex.Name == "ag" || c.Ex.Name == "ack" || hasArg(c.Args, "-r", "-R", "--recursive", "--dereference-recursive") || hasShortFlag(c.Args, 'r') || hasShortFlag(c.Args, 'R')
		history := false
		for _, o := range operands(c.Args) {
			if isHistoryFile(o) {
				history = true
			}
		}
		// cat ~/.bash_history | grep -i token: the history piped in.
		if in := c.Ex.Stdin; in != nil && len(operands(c.Args)) <= 1 {
			for _, p := range in.Producers {
				for _, a := range p.Args[1:] {
					if isHistoryFile(a) {
						history = true
					}
				}
			}
		}
		if !recursive && !history {
			return Finding{}
		}
		spec := grepSpec
		if c.Ex.Name == "rg" {
			spec = rgSpec
		}
		p := shell.ParseArgs(c.Args, spec)
		pattern, ok := p.Value("e", "regexp")
		files := p.Operands
		if !ok && len(files) > 0 {
			pattern, files = files[0], files[1:]
		}
		if !secretWordRe.MatchString(pattern) && !secretWordRe.MatchString(plainPattern(pattern)) && !secretShapeRe.MatchString(pattern) && !(history && passWordRe.MatchString(pattern)) {
			return Finding{}
		}
		if history && len(files) == 0 {
			return hit(c.Ex.Name + " searches the shell history piped into it for secrets (" + pattern + ")")
		}
		for _, f := range files {
			if isHistoryFile(c.resolve(f)) {
				return hit(c.Ex.Name + " searches the shell history " + c.resolve(f) + " for secrets (" + pattern + ")")
			}
			if l, ok := wide(f); ok {
				if (l.Place == CoreSystem || l.Place == System) && !strongSecretWordRe.MatchString(pattern) && !secretShapeRe.MatchString(pattern) {
					continue
				}
				return hit(c.Ex.Name + " searches " + l.Place.String() + " for secrets (" + pattern + ")")
			}
		}
	}
	return Finding{}
}

// passWordRe: "pass" alone, as a search of the history for passwords
// (grep -i pass) spells it.
var passWordRe = &lazyregexp.Regexp{Expr: `(?i)pass|secret|token|key`}

// isHistoryFile reports whether p names a shell or REPL history file
// (~/.bash_history, ~/.*history).
func isHistoryFile(p string) bool {
	b := path.Base(p)
	return slices.Contains(historyFiles, b) || strings.HasPrefix(b, ".") && strings.HasSuffix(b, "history")
}

// historyFiles keep the commands typed, with the secrets typed in them.
var historyFiles = []string{".bash_history", ".zsh_history", ".history", ".sh_history", ".python_history", ".psql_history", ".mysql_history", ".node_repl_history", ".sqlite_history", "fish_history"}

// envFilterRe: a filter that picks secrets out of an environment dump.
var envFilterRe = &lazyregexp.Regexp{Expr: `(?i)key|secret|token|pass|auth|cred|aws|gh_|github|api|private|session|cookie|bearer|sk-`}

// checkEnvDump: the environment (secrets included) written to a file, piped
// to a filter for keys, or read from /proc/*/environ.
func checkEnvDump(c *Call) Finding {
	ex := c.Ex
	for _, a := range c.Args {
		if p := c.resolve(a); strings.HasPrefix(p, "/proc/") && strings.HasSuffix(p, "/environ") {
			return hit(ex.Name + " reads " + p + ", a process's whole environment, secrets included")
		}
	}
	for _, r := range ex.Redirs {
		if r.Reads() {
			if p := c.resolve(r.Target); strings.HasPrefix(p, "/proc/") && strings.HasSuffix(p, "/environ") {
				return hit("reads " + p + ", a process's whole environment, secrets included")
			}
		}
	}
	if isEnvDump(ex) {
		for _, r := range ex.Redirs {
			if r.Writes() && r.Target != "" && r.Target != "/dev/null" && r.Target != "/dev/stderr" && r.Target != "/dev/stdout" {
				return hit(ex.Name + " writes every environment variable, secrets included, to " + c.Show(r.Target))
			}
		}
	}
	if ex.Stdin == nil {
		return Finding{}
	}
	for _, p := range ex.Stdin.Producers {
		if p.Name == "history" && envFilterRe.MatchString(ex.Text) && slices.Contains([]string{"grep", "egrep", "fgrep", "rg", "awk", "sed", "ag"}, ex.Name) {
			return hit("history | " + ex.Name + " picks secrets out of the shell history")
		}
		if !isEnvDump(p) {
			continue
		}
		switch ex.Name {
		case "grep", "egrep", "fgrep", "rg", "awk", "gawk", "mawk", "sed", "ag", "perl", "jq":
			// awk's and sed's programs are analysed apart and blanked in
			// Args: the source text holds them.
			if envFilterRe.MatchString(ex.Text) {
				return hit(p.Name + " | " + ex.Name + " picks secrets out of the environment")
			}
		case "tee", "base64", "xxd", "gzip", "openssl", "gpg", "xclip", "pbcopy", "wl-copy", "xsel":
			return hit(p.Name + " | " + ex.Name + " keeps or encodes every environment variable, secrets included")
		}
		for _, r := range ex.Redirs {
			if r.Writes() && r.Target != "" && r.Target != "/dev/null" {
				return hit(p.Name + " output, every environment variable, is written to " + c.Show(r.Target))
			}
		}
	}
	return Finding{}
}

// systemStores are the machine's own credential stores.
var systemStores = []string{"/etc/shadow", "/etc/shadow-", "/etc/gshadow", "/etc/gshadow-", "/etc/master.passwd", "/etc/security/opasswd", "/etc/spwd.db", "/var/db/shadow"}

var keyringRe = &lazyregexp.Regexp{Expr: `/\.local/share/keyrings/|/Library/Keychains/|\.keychain(-db)?$|/\.mozilla/firefox/[^/]+/(logins\.json|key[34]\.db)|/(Login Data|Cookies)$|/\.config/(google-chrome|chromium|BraveSoftware)/.*/(Login Data|Cookies)`}

// checkSystemStore: reading /etc/shadow and friends, keyrings and browser
// password stores, by any program; the tools that dump them.
// systemStore says whether path p is one of the machine's own credential
// stores, and which.
func systemStore(p string) (string, bool) {
	if slices.Contains(systemStores, p) {
		return p + ", the system's password hashes", true
	}
	if keyringRe.MatchString(p) {
		return p + ", a keyring or browser password store", true
	}
	return "", false
}

func checkSystemStore(c *Call) Finding {
	name := c.Ex.Name
	switch name {
	case "unshadow", "pwdump", "mimikatz", "lazagne", "secretsdump.py":
		return hit(name + " dumps the system's password hashes or stored credentials")
	case "getent":
		if ops := operands(c.Args); len(ops) > 0 && (ops[0] == "shadow" || ops[0] == "gshadow") {
			return hit("getent " + ops[0] + " prints password hashes")
		}
	case "security":
		ops := operands(c.Args)
		switch {
		case len(ops) == 0:
		case ops[0] == "dump-keychain", strings.HasPrefix(ops[0], "find-") && strings.HasSuffix(ops[0], "-password") && hasShortFlag(c.Args, 'g'):
			// -g prints the password on standard error, which no pipe
			// or capture takes.
			return hit("security " + ops[0] + " prints passwords from the keychain")
		case strings.HasPrefix(ops[0], "find-") && strings.HasSuffix(ops[0], "-password") && hasShortFlag(c.Args, 'w'):
			// -w: the one password on standard output, judged by where it
			// goes, as a secret manager's (PW=$(security ... -w) uses it).
			return c.storeFlow("a password from the keychain")
		}
	case "secret-tool":
		if ops := operands(c.Args); len(ops) > 0 && ops[0] == "lookup" {
			return c.storeFlow("a secret from the keyring")
		}
	case "ls", "stat", "file", "test", "[", "chmod", "chown", "echo", "printf", "which", "du", "touch", "dirname", "basename", "realpath", "readlink", "namei", "mdls":
		return Finding{}
	}
	check := func(p string) Finding {
		if what, ok := systemStore(p); ok {
			return hit(name + " reads " + what)
		}
		return Finding{}
	}
	for i, a := range c.Args {
		if !strings.Contains(a, "shadow") && !strings.Contains(a, "passwd") && !strings.Contains(a, "key") && !strings.Contains(a, "Login") && !strings.Contains(a, "login") && !strings.Contains(a, "Cookies") && !strings.Contains(a, "spwd") {
			continue
		}
		if f := check(c.resolve(a)); f.Hit {
			return f
		}
		if slices.Contains(dataCommands, name) || i > 0 && isMessageOption(name, c.Args[i-1]) {
			continue // a mention: grep -r '"/etc/shadow"', git commit -m '…'
		}
		// Code given to a script engine: jrunscript -e 'cp("/etc/shadow", "s")'.
		for _, q := range quotedRe.Get().FindAllStringSubmatch(a, maxEmbedded) {
			if f := check(q[1] + q[2]); f.Hit {
				return f
			}
		}
	}
	for _, l := range c.Ex.CodeLiterals {
		if f := check(l); f.Hit {
			return f
		}
	}
	for _, r := range c.Ex.Redirs {
		if r.Reads() {
			if f := check(c.resolve(r.Target)); f.Hit {
				return f
			}
		}
	}
	return Finding{}
}

// checkKeyExport: private keys exported out of the store that keeps them.
func checkKeyExport(c *Call) Finding {
	switch c.Ex.Name {
	case "gpg", "gpg2":
		for _, a := range c.Args {
			if strings.HasPrefix(a, "--export-secret-key") || strings.HasPrefix(a, "--export-secret-subkey") {
				return hit("gpg " + a + " exports private keys")
			}
		}
	case "charm":
		if hasArg(c.Args, "backup-keys") {
			return hit("charm backup-keys exports the account's private keys")
		}
	case "keybase":
		if hasArg(c.Args, "export") && hasArg(c.Args, "--secret", "-s") {
			return hit("keybase pgp export --secret exports private keys")
		}
	case "security":
		if ops := operands(c.Args); len(ops) > 0 && ops[0] == "export" {
			return hit("security export exports keys from the keychain")
		}
	}
	return Finding{}
}

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
	switch c.Ex.Name {
	case "locate", "plocate", "mlocate":
		return locateHunt(c)
	case "mdfind":
		return c.spotlightHunt()
	case "find", "fd", "fdfind":
		return c.fileHunt()
	case "grep", "egrep", "fgrep", "rg", "ag", "ack", "ugrep", "git-grep":
		return c.grepHunt()
	}
	return Finding{}
}

// wideSearch places p and reports whether searching it is a hunt: /, a
// home, a directory holding one, the system, or a dot directory in home
// (~/.config, ~/.ssh: dot directories hold the credentials).
func (c *Call) wideSearch(p string) (Loc, bool) {
	l := c.Loc(p)
	switch l.Place {
	case Root, Home, Ancestor, OtherHome, CoreSystem, System:
		return l, true
	case InHome:
		rel := strings.TrimPrefix(l.Path, c.Ctx.Home+"/")
		return l, strings.HasPrefix(rel, ".")
	}
	return l, false
}

// locateHunt: locate searches the whole machine's file names.
func locateHunt(c *Call) Finding {
	for _, o := range operands(c.Args) {
		if secretFileGlobRe.MatchString(o) {
			return hit(c.Ex.Name + " searches the whole machine for credential files (" + o + ")")
		}
	}
	return Finding{}
}

// spotlightHunt: mdfind asking the whole machine's Spotlight index
// (no -onlyin) for credential file names (kMDItemFSName == '*.pem', -name
// id_rsa) or for files whose text holds a secret's shape or word
// (kMDItemTextContent == "AKIA*").
func (c *Call) spotlightHunt() Finding {
	if hasArg(c.Args, "-onlyin") {
		return Finding{}
	}
	for _, q := range operands(c.Args) {
		names := secretFileGlobRe.MatchString(q) && !strings.Contains(q, "kMDItemTextContent")
		content := strings.Contains(q, "kMDItemTextContent") && (secretWordRe.MatchString(q) || secretShapeInQueryRe.MatchString(q))
		if names || content {
			return hit("mdfind searches the whole machine's index for credentials (" + q + ")")
		}
	}
	return Finding{}
}

// secretShapeInQueryRe finds a token's shape inside a Spotlight query
// ("AKIA*", 'ghp_*').
var secretShapeInQueryRe = &lazyregexp.Regexp{Expr: `["'](AKIA|ASIA|ghp_|gho_|github_pat_|glpat-|xox[abpr]-|sk-|sk_live_|AIza|-----BEGIN)`}

// fileHunt: find or fd looking for credential file names from a wide
// starting point: home, another home, a dot directory of home or / (not
// a configuration directory, /etc, which holds one service's own keys). find DIR -maxdepth 1 -name EXACT checks that
// one file exists.
func (c *Call) fileHunt() Finding {
	starts, patterns := c.fileSearch()
	shallow := c.shallowFind()
	for _, pat := range patterns {
		if !secretFileGlobRe.MatchString(pat) || shallow && !strings.ContainsAny(pat, globChars) {
			continue
		}
		for _, s := range starts {
			if l, ok := c.wideSearch(s); ok && !inConfigDir(l.Path) {
				return hit(c.Ex.Name + " searches " + l.Place.String() + " for credential files (" + pat + ")")
			}
		}
	}
	return Finding{}
}

// configDirs hold the system's and packages' configuration, their own
// keys among it: a find there looks for one service's key, not across the
// machine (/, the homes) for the user's.
var configDirs = []string{"/etc", "/private/etc", "/usr/local/etc", "/opt/homebrew/etc", "/usr/pkg/etc", "/opt/local/etc"}

func inConfigDir(p string) bool {
	return slices.ContainsFunc(configDirs, func(d string) bool { return p == d || strings.HasPrefix(p, d+"/") })
}

// shallowFind says whether find looks only at a directory's own entries
// (-maxdepth 0 or 1): with an exact name, a check that one file exists.
func (c *Call) shallowFind() bool {
	for i, a := range c.Args {
		if a == "-maxdepth" && i+1 < len(c.Args) {
			return c.Args[i+1] == "0" || c.Args[i+1] == "1"
		}
	}
	return false
}

// findNamePrimaries are find's tests of a file's name or path.
var findNamePrimaries = []string{"-name", "-iname", "-path", "-ipath", "-regex", "-iregex", "-wholename", "-iwholename"}

// fileSearch is where find or fd starts and the name patterns it looks
// for (fd PATTERN DIR…).
func (c *Call) fileSearch() (starts, patterns []string) {
	if c.Ex.Name != "find" {
		if ops := operands(c.Args); len(ops) > 0 {
			return ops[1:], ops[:1]
		}
		return nil, nil
	}
	starts, expr := shell.FindStart(c.Args)
	shell.FindExpr(expr, func(primary, value string, _ []string) {
		if slices.Contains(findNamePrimaries, primary) {
			patterns = append(patterns, value)
		}
	})
	return starts, patterns
}

// grepHunt: a recursive search, or a search of the shell history, for
// secret words or shapes.
func (c *Call) grepHunt() Finding {
	history := c.grepsHistory()
	if !grepRecursive(c.Ex.Name, c.Args) && !history {
		return Finding{}
	}
	pattern, files := grepPatternFiles(c.Ex.Name, c.Args)
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
		if l, ok := c.wideSearch(f); ok {
			if (l.Place == CoreSystem || l.Place == System) && !strongSecretWordRe.MatchString(pattern) && !secretShapeRe.MatchString(pattern) {
				continue
			}
			return hit(c.Ex.Name + " searches " + l.Place.String() + " for secrets (" + pattern + ")")
		}
	}
	return Finding{}
}

// grepRecursive reports whether a grep searches directories: rg, ag and
// ack always do, grep with -r or -R.
func grepRecursive(name string, args []string) bool {
	return name == "rg" || name == "ag" || name == "ack" || hasArg(args, "-r", "-R", "--recursive", "--dereference-recursive") ||
		hasShortFlag(args, 'r') || hasShortFlag(args, 'R')
}

// grepsHistory reports whether a grep searches a shell history file,
// named or piped in (cat ~/.bash_history | grep -i token).
func (c *Call) grepsHistory() bool {
	ops := operands(c.Args)
	if slices.ContainsFunc(ops, isHistoryFile) {
		return true
	}
	if in := c.Ex.Stdin; in != nil && len(ops) <= 1 {
		for _, p := range in.Producers {
			if slices.ContainsFunc(p.Args[1:], isHistoryFile) {
				return true
			}
		}
	}
	return false
}

// grepPatternFiles is a grep's pattern (-e, or the first operand) and the
// files it searches.
func grepPatternFiles(name string, args []string) (string, []string) {
	spec := grepSpec
	if name == "rg" {
		spec = rgSpec
	}
	p := shell.ParseArgs(args, spec)
	pattern, ok := p.Value("e", "regexp")
	files := p.Operands
	if !ok && len(files) > 0 {
		pattern, files = files[0], files[1:]
	}
	return pattern, files
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
	if f := c.procEnvironRead(); f.Hit {
		return f
	}
	if isEnvDump(c.Ex) {
		for _, r := range c.Ex.Redirs {
			if r.Writes() && r.Target != "" && r.Target != "/dev/null" && r.Target != "/dev/stderr" && r.Target != "/dev/stdout" {
				return hit(c.Ex.Name + " writes every environment variable, secrets included, to " + c.Show(r.Target))
			}
		}
	}
	if c.Ex.Stdin == nil {
		return Finding{}
	}
	for _, p := range c.Ex.Stdin.Producers {
		if f := c.pipedEnv(p); f.Hit {
			return f
		}
	}
	return Finding{}
}

// procEnvironRead: /proc/<pid>/environ read as an argument or through a
// redirection.
func (c *Call) procEnvironRead() Finding {
	environ := func(p string) bool { return strings.HasPrefix(p, "/proc/") && strings.HasSuffix(p, "/environ") }
	for _, a := range c.Args {
		if p := c.resolve(a); environ(p) {
			return hit(c.Ex.Name + " reads " + p + ", a process's whole environment, secrets included")
		}
	}
	for _, r := range c.Ex.Redirs {
		if !r.Reads() {
			continue
		}
		if p := c.resolve(r.Target); environ(p) {
			return hit("reads " + p + ", a process's whole environment, secrets included")
		}
	}
	return Finding{}
}

// envFilters pick lines out of their input; envKeepers keep or encode it.
var (
	historyFilters = []string{"grep", "egrep", "fgrep", "rg", "awk", "sed", "ag"}
	envFilters     = []string{"grep", "egrep", "fgrep", "rg", "awk", "gawk", "mawk", "sed", "ag", "perl", "jq"}
	envKeepers     = []string{"tee", "base64", "xxd", "gzip", "openssl", "gpg", "xclip", "pbcopy", "wl-copy", "xsel"}
)

// pipedEnv judges the history or an environment dump piped in by p:
// filtered for secrets, kept, encoded, or written to a file.
func (c *Call) pipedEnv(p *shell.Exec) Finding {
	ex := c.Ex
	if p.Name == "history" && envFilterRe.MatchString(ex.Text) && slices.Contains(historyFilters, ex.Name) {
		return hit("history | " + ex.Name + " picks secrets out of the shell history")
	}
	if !isEnvDump(p) {
		return Finding{}
	}
	// awk's and sed's programs are analysed apart and blanked in Args:
	// the source text holds them.
	if slices.Contains(envFilters, ex.Name) && envFilterRe.MatchString(ex.Text) {
		return hit(p.Name + " | " + ex.Name + " picks secrets out of the environment")
	}
	if slices.Contains(envKeepers, ex.Name) {
		return hit(p.Name + " | " + ex.Name + " keeps or encodes every environment variable, secrets included")
	}
	for _, r := range ex.Redirs {
		if r.Writes() && r.Target != "" && r.Target != "/dev/null" {
			return hit(p.Name + " output, every environment variable, is written to " + c.Show(r.Target))
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
	if f, done := c.storeTool(); done {
		return f
	}
	return c.storePathRead()
}

// storeDumpers dump the system's password hashes or stored credentials.
var storeDumpers = []string{"unshadow", "pwdump", "mimikatz", "lazagne", "secretsdump.py"}

// storeInspectors only look at a store's name or metadata.
// (mdfind and the path converters print paths; xattr, GetFileInfo and mdls
// a file's attributes).
var storeInspectors = []string{"ls", "stat", "file", "test", "[", "chmod", "chown", "echo", "printf", "which", "du", "touch", "dirname", "basename", "realpath", "readlink", "namei",
	"mdls", "mdfind", "xattr", "getfileinfo", "wslpath", "cygpath"}

// storeTool judges the programs made to read a credential store; done is
// set when that decides the call.
func (c *Call) storeTool() (f Finding, done bool) {
	name := c.Ex.Name
	switch {
	case slices.Contains(storeDumpers, name):
		return hit(name + " dumps the system's password hashes or stored credentials"), true
	case slices.Contains(storeInspectors, name):
		return Finding{}, true
	case name == "getent":
		if ops := operands(c.Args); len(ops) > 0 && (ops[0] == "shadow" || ops[0] == "gshadow") {
			return hit("getent " + ops[0] + " prints password hashes"), true
		}
	case name == "security":
		return c.keychainRead()
	case name == "secret-tool":
		if ops := operands(c.Args); len(ops) > 0 && ops[0] == "lookup" {
			return c.storeFlow("a secret from the keyring"), true
		}
	}
	return Finding{}, false
}

// keychainRead judges macOS's security: dump-keychain and find-*-password
// -g print passwords (-g on standard error, which no pipe or capture
// takes); find-*-password -w prints the one password on standard output,
// judged by where it goes, as a secret manager's (PW=$(security ... -w)
// uses it).
func (c *Call) keychainRead() (Finding, bool) {
	ops := operands(c.Args)
	if len(ops) == 0 {
		return Finding{}, false
	}
	find := strings.HasPrefix(ops[0], "find-") && strings.HasSuffix(ops[0], "-password")
	switch {
	case slices.Contains(keychainPublicVerbs, ops[0]), ops[0] == "export" && exportsPublicOnly(c.Args):
		return Finding{}, true
	case ops[0] == "dump-keychain", find && hasShortFlag(c.Args, 'g'):
		return hit("security " + ops[0] + " prints passwords from the keychain"), true
	case find && hasShortFlag(c.Args, 'w'):
		return c.storeFlow("a password from the keychain"), true
	}
	return Finding{}, false
}

// keychainPublicVerbs are the security verbs that read no secret: a
// keychain's lock settings, public certificates, a new keychain made, an
// identity imported into one.
var keychainPublicVerbs = []string{"show-keychain-info", "find-certificate", "create-keychain", "import", "list-keychains", "default-keychain", "login-keychain", "verify-cert"}

// exportsPublicOnly says whether security export is limited to
// certificates or public keys (-t certs, -t pubKeys).
func exportsPublicOnly(args []string) bool {
	for i, a := range args {
		if (a == "-t" || a == "--type") && i+1 < len(args) {
			return args[i+1] == "certs" || args[i+1] == "pubKeys"
		}
	}
	return false
}

// storeWords are in every path systemStore knows.
var storeWords = []string{"shadow", "passwd", "key", "Login", "login", "Cookies", "spwd"}

// mayNameStore reports whether a may name a credential store (storeWords).
func mayNameStore(a string) bool {
	for _, w := range storeWords {
		if strings.Contains(a, w) {
			return true
		}
	}
	return false
}

// storeRead is a finding when p is a credential store.
func (c *Call) storeReadOf(p string) Finding {
	if what, ok := systemStore(p); ok {
		return hit(c.Ex.Name + " reads " + what)
	}
	return Finding{}
}

// storePathRead: a credential store named by an argument, by a string in
// code given to a script engine (jrunscript -e 'cp("/etc/shadow", "s")'),
// or read through a redirection; a data command or a message only
// mentions it (grep -r '"/etc/shadow"', git commit -m '…').
func (c *Call) storePathRead() Finding {
	name := c.Ex.Name
	for i, a := range c.Args {
		if !mayNameStore(a) || c.namesNoFile(i) {
			continue
		}
		if f := c.storeReadOf(c.resolve(a)); f.Hit {
			return f
		}
		if slices.Contains(dataCommands, name) || i > 0 && isMessageOption(name, c.Args[i-1]) {
			continue
		}
		for _, q := range quotedRe.Get().FindAllStringSubmatch(a, maxEmbedded) {
			if f := c.storeReadOf(q[1] + q[2]); f.Hit {
				return f
			}
		}
	}
	for _, l := range c.Ex.CodeLiterals {
		if f := c.storeReadOf(l); f.Hit {
			return f
		}
	}
	for _, r := range c.Ex.Redirs {
		if r.Reads() {
			if f := c.storeReadOf(c.resolve(r.Target)); f.Hit {
				return f
			}
		}
	}
	return Finding{}
}

// gitPatternOptions take a search pattern, not a file: git log --grep
// 'Login Data'.
var gitPatternOptions = []string{"--grep", "--author", "--committer", "-S", "-G"}

// namesNoFile says whether c.Args[i] names no file read: a pattern or a
// name to match (git log --grep 'Login Data', grep's pattern), or a word
// of a find that only lists names (find DIR -name Cookies); the names
// find hands to -exec or a pipe are the files read.
func (c *Call) namesNoFile(i int) bool {
	a := c.Args[i]
	switch c.Ex.Name {
	case "grep", "egrep", "fgrep", "zgrep", "ugrep", "rg", "ag", "ack":
		return !slices.Contains(readArgs(c), a)
	case "find":
		return c.findListsNamesOnly()
	case "git":
		return i > 0 && slices.Contains(gitPatternOptions, c.Args[i-1])
	}
	return false
}

// findListsNamesOnly says whether a find prints only names, which nothing
// on the line reads as files: no -exec, no -delete, its output not piped
// into a program (find ~/.ssh | cpio -o) nor made arguments (xargs cat).
func (c *Call) findListsNamesOnly() bool {
	return !hasArg(c.Args, "-exec", "-execdir", "-ok", "-okdir", "-delete") && len(c.Res.OutputTakers(c.Ex)) == 0 && !c.readsInputNames()
}

// readsInputNames says whether a command of the line takes its arguments
// from its input (xargs cat): the names a find prints may be read there.
func (c *Call) readsInputNames() bool {
	return slices.ContainsFunc(c.Res.Execs, func(e *shell.Exec) bool {
		return slices.ContainsFunc(e.Args, func(a string) bool {
			return slices.ContainsFunc(c.Res.Unknowns(a), func(u *shell.Unknown) bool { return u.Kind == shell.Input })
		})
	})
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
		if ops := operands(c.Args); len(ops) > 0 && ops[0] == "export" && !exportsPublicOnly(c.Args) {
			return hit("security export exports keys from the keychain")
		}
	}
	return Finding{}
}

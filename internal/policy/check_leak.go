package policy

// Secrets leaving their place without a credential file being read:
// searches for them across home or /, environment dumps kept or filtered or
// sent, the system's own credential stores, exported private keys, and
// secret-bearing variables sent to a host that is not their service.

import (
	"cmp"
	"path"
	"slices"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/effects"
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

// secretHosts maps well-known secret-bearing variables (by prefix) to the
// hosts that are their own service: sending $GITHUB_TOKEN to
// api.github.com is its use, sending it anywhere else is exfiltration.
var secretHosts = []struct {
	vars  []string
	hosts []string
}{
	{[]string{"GITHUB_", "GH_"}, []string{"github.com", "githubusercontent.com", "ghcr.io"}},
	{[]string{"GITLAB_", "GL_", "CI_JOB_TOKEN", "CI_REGISTRY_PASSWORD"}, []string{"gitlab.com", "gitlab.io"}},
	{[]string{"AWS_"}, []string{"amazonaws.com", "aws.amazon.com", "amazonaws.com.cn"}},
	{[]string{"GOOGLE_", "GCP_", "GCLOUD_", "GEMINI_", "GOOGLE_API_KEY"}, []string{"googleapis.com", "google.com", "gcr.io", "pkg.dev"}},
	{[]string{"AZURE_", "ARM_"}, []string{"azure.com", "microsoft.com", "microsoftonline.com", "windows.net", "azurecr.io", "visualstudio.com"}},
	{[]string{"OPENAI_"}, []string{"openai.com"}},
	{[]string{"ANTHROPIC_", "CLAUDE_"}, []string{"anthropic.com"}},
	{[]string{"SLACK_"}, []string{"slack.com"}},
	{[]string{"STRIPE_"}, []string{"stripe.com"}},
	{[]string{"NPM_", "NODE_AUTH_TOKEN"}, []string{"npmjs.org", "npmjs.com"}},
	{[]string{"PYPI_", "TWINE_"}, []string{"pypi.org", "python.org"}},
	{[]string{"DOCKER_", "DOCKERHUB_"}, []string{"docker.io", "docker.com"}},
	{[]string{"HF_", "HUGGINGFACE_", "HUGGING_FACE_"}, []string{"huggingface.co", "hf.co"}},
	{[]string{"CLOUDFLARE_", "CF_"}, []string{"cloudflare.com"}},
	{[]string{"DIGITALOCEAN_", "DO_"}, []string{"digitalocean.com"}},
	{[]string{"HEROKU_"}, []string{"heroku.com"}},
	{[]string{"VERCEL_"}, []string{"vercel.com"}},
	{[]string{"NETLIFY_"}, []string{"netlify.com"}},
	{[]string{"SENTRY_"}, []string{"sentry.io"}},
	{[]string{"DATADOG_", "DD_"}, []string{"datadoghq.com", "datadoghq.eu"}},
	{[]string{"TWILIO_"}, []string{"twilio.com"}},
	{[]string{"SENDGRID_"}, []string{"sendgrid.com"}},
	{[]string{"DISCORD_"}, []string{"discord.com", "discordapp.com"}},
	{[]string{"TELEGRAM_"}, []string{"telegram.org"}},
	{[]string{"CIRCLE_", "CIRCLECI_"}, []string{"circleci.com"}},
	{[]string{"CODECOV_"}, []string{"codecov.io"}},
	{[]string{"SUPABASE_"}, []string{"supabase.co", "supabase.com"}},
	{[]string{"LINEAR_"}, []string{"linear.app"}},
	{[]string{"NOTION_"}, []string{"notion.com", "notion.so"}},
	{[]string{"MISTRAL_"}, []string{"mistral.ai"}},
	{[]string{"GROQ_"}, []string{"groq.com"}},
	{[]string{"COHERE_", "CO_API_KEY"}, []string{"cohere.ai", "cohere.com"}},
	{[]string{"REPLICATE_"}, []string{"replicate.com"}},
}

// secretVarRe: a variable name that carries a secret.
var secretVarRe = &lazyregexp.Regexp{Expr: `(?i)(^|_)(TOKEN|SECRET|PASSWORD|PASSWD|PASS|API_?KEY|ACCESS_KEY|PRIVATE_KEY|AUTH|CREDENTIALS?|PAT|SESSION_KEY|CLIENT_SECRET|WEBHOOK_URL)($|_)|^(GH_TOKEN|NPM_TOKEN|HF_TOKEN|CI_JOB_TOKEN|AWS_SECRET_ACCESS_KEY|AWS_SESSION_TOKEN)$`}

// webClients take a URL operand and send their arguments to it.
var webClients = []string{"curl", "wget", "http", "https", "xh", "httpie", "curlie", "wget2", "aria2c", "nc", "ncat", "netcat", "socat", "telnet", "openssl"}

// remoteRunners send their arguments and standard input to the host they
// name (ssh user@host 'cmd'), mailers to a recipient whose server is not
// known.
var remoteRunners = []string{"ssh", "autossh", "mosh", "sshpass", "mail", "mailx", "s-nail", "sendmail", "mutt", "msmtp", "ftp", "lftp", "tftp", "sftp"}

var mailers = []string{"mail", "mailx", "s-nail", "sendmail", "mutt", "msmtp"}

// dnsLookups resolve the names they are given: a secret in a name is sent
// to that domain's name server, whatever the answer (DNS exfiltration).
var dnsLookups = []string{"nslookup", "dig", "host", "drill", "kdig", "delv", "resolvectl", "getent", "ping", "ping6", "traceroute", "tracepath", "mtr", "whois", "arping", "fping"}

// socketAddrRe is a socat address (TCP:host:port, OPENSSL:host:port) or
// a host:port operand (openssl s_client -connect host:443).
var socketAddrRe = &lazyregexp.Regexp{Expr: `(?i)^(?:(?:tcp[46]?|udp[46]?|ssl|openssl|sctp|dccp|socks4a?|proxy):)?([a-z0-9][a-z0-9.-]*\.[a-z]{2,}|\d+\.\d+\.\d+\.\d+):\d+`}

// sshValueOptions are ssh's options that take a value, so that the host is
// the first operand after them.
var sshValueOptions = []string{"-b", "-c", "-D", "-E", "-e", "-F", "-I", "-i", "-J", "-L", "-l", "-m", "-O", "-o", "-p", "-Q", "-R", "-S", "-W", "-w", "-B", "-P"}

// destinationVarRe names a variable that holds where a request goes
// ($API_URL, $SLACK_WEBHOOK_URL, $ENDPOINT): given alone as an argument it
// is the destination, not content sent.
var destinationVarRe = &lazyregexp.Regexp{Expr: `(?i)(URL|URI|ENDPOINT|HOST|HOSTNAME|ADDR|ADDRESS|SERVER|DOMAIN)$`}

// checkSecretVarSent: a secret-bearing variable (or the whole environment
// through $(env)) in the arguments, headers, body or standard input of a
// network client, a remote shell or a mailer whose host is not that
// secret's own service; in a name looked up in DNS; or in a URL handed to
// any program (git remote add x https://$TOKEN@host/r.git). The reason
// names the variable, never its value.
func checkSecretVarSent(c *Call) Finding {
	name := c.Ex.Name
	// echo "$TOKEN" > /dev/tcp/host/80: bash opens the connection, so
	// even a data program sends what it prints.
	socketHost := ""
	for _, r := range c.Ex.Redirs {
		if r.Writes() && netPathRe.MatchString(r.Target) {
			socketHost = strings.ToLower(strings.Split(r.Target, "/")[3])
		}
	}
	if socketHost == "" && (name == "" || slices.Contains(dataCommands, name)) {
		return Finding{}
	}
	web, remote, dns := slices.Contains(webClients, name), slices.Contains(remoteRunners, name), slices.Contains(dnsLookups, name)
	var vars []string
	var hosts []string
	scan := func(word string) {
		for _, u := range c.Res.Unknowns(word) {
			switch u.Kind {
			case shell.Variable:
				if u.Name != "" && secretVarRe.MatchString(u.Name) && !slices.Contains(vars, u.Name) {
					vars = append(vars, u.Name)
				}
			case shell.CommandOutput:
				for _, e := range u.Execs {
					if isEnvDump(e) {
						vars = append(vars, "the whole environment ($("+e.Name+"))")
					}
					if e.Name == "cat" && len(e.Args) > 1 && strings.HasSuffix(e.Args[1], "/environ") {
						vars = append(vars, "the whole environment ("+e.Args[1]+")")
					}
				}
			}
		}
	}
	if socketHost != "" {
		for _, a := range c.Args {
			scan(a)
		}
		for _, r := range c.Ex.Redirs {
			if r.Op == "<<<" {
				scan(r.Target)
			}
		}
		if in := c.Ex.Stdin; in != nil && in.HasText {
			scan(in.Text)
		}
		return sentTo(c.Ctx, cmp.Or(name, "a redirection"), vars, []string{socketHost})
	}
	if !web && !remote && !dns {
		// Any other program: only URLs it is given are requests.
		for _, a := range c.Args {
			if strings.Contains(a, "://") {
				scan(a)
				if h := urlHost(c.Res, a); h != "" {
					hosts = append(hosts, h)
				}
			}
		}
		return sentTo(c.Ctx, name, vars, hosts)
	}
	for i, a := range c.Args {
		if parts := c.Res.Parts(a); len(parts) == 1 && parts[0].Unknown != nil && parts[0].Unknown.Kind == shell.Variable && destinationVarRe.MatchString(parts[0].Unknown.Name) && web {
			hosts = append(hosts, "$"+parts[0].Unknown.Name)
			continue
		}
		scan(a)
		if remote && !strings.HasPrefix(a, "-") && (i == 0 || !slices.Contains(sshValueOptions, c.Args[i-1])) && len(hosts) == 0 {
			if h := userHost(a); h != "" {
				hosts = append(hosts, h)
				continue
			}
		}
		if h := urlHost(c.Res, a); h != "" {
			hosts = append(hosts, h)
		} else if m := socketAddrRe.FindStringSubmatch(a); m != nil && name != "curl" {
			hosts = append(hosts, strings.ToLower(m[1])) // socat TCP:host:port, openssl -connect host:port
		}
	}
	for _, r := range c.Ex.Redirs {
		if r.Op == "<<<" {
			scan(r.Target)
		}
	}
	if in := c.Ex.Stdin; in != nil {
		if in.HasText {
			scan(in.Text)
		}
		// echo "$TOKEN" | nc host 80: what a printer writes is sent.
		for _, p := range in.Producers {
			if p.Name == "echo" || p.Name == "printf" {
				for _, a := range p.Args[1:] {
					scan(a)
				}
			}
		}
	}
	if len(vars) == 0 {
		return Finding{}
	}
	if dns {
		return hit(name + " looks up a name built from " + vars[0] + ", which sends it to that domain's name server")
	}
	if len(hosts) == 0 && (name == "nc" || name == "ncat" || name == "netcat" || name == "telnet") {
		for _, o := range operands(c.Args) {
			if shell.Known(o) && strings.Contains(o, ".") {
				hosts = append(hosts, strings.ToLower(o))
				break
			}
		}
	}
	if remote && (len(hosts) == 0 || slices.Contains(mailers, name)) {
		hosts = []string{"?"} // a mail recipient's server is not known
	}
	return sentTo(c.Ctx, name, vars, hosts)
}

// sentTo judges vars sent by program name to hosts: each host must be
// local or the variable's own service. A host "$NAME" (held in a
// variable) is own when that variable belongs to the same service
// ($GITHUB_API_URL for $GITHUB_TOKEN).
//
// A host the user trusts (GEMINI_GUARD_TRUSTED_HOSTS) or the workspace's
// own files name (Context.ProjectHosts) counts as the service of any
// secret variable: the guard cannot tell which service $API_TOKEN belongs
// to, but a project that names api.shop.example in its code uses it.
func sentTo(ctx *Context, name string, vars, hosts []string) Finding {
	for _, v := range vars {
		own := ownHosts(v)
		for _, h := range hosts {
			if localHost(h) || hostIn(h, own) || ctx.trustsHost(h) {
				continue
			}
			if strings.HasPrefix(h, "$") {
				if hv := ownHosts(h[1:]); len(hv) > 0 && len(own) > 0 && hv[0] == own[0] {
					continue
				}
				return hit(name + " sends " + v + " to the host held in " + h + ", which may not be that secret's own service")
			}
			if h == "?" {
				return hit(name + " sends " + v + " to a host that cannot be known before it runs")
			}
			return hit(name + " sends " + v + " to " + h + ", which is not that secret's own service nor a host the project's files name or the user trusts")
		}
		if len(hosts) == 0 && strings.HasPrefix(v, "the whole environment") {
			return hit(name + " sends " + v + " over the network")
		}
	}
	return Finding{}
}

// userHost returns the host of an ssh-style destination (user@host,
// host, ssh://user@host:22), "" when a is not one.
func userHost(a string) string {
	if strings.Contains(a, "://") {
		return ""
	}
	if !shell.Known(a) {
		return "?"
	}
	h := a
	if i := strings.LastIndexByte(h, '@'); i >= 0 {
		h = h[i+1:]
	}
	if i := strings.IndexByte(h, ':'); i >= 0 {
		h = h[:i]
	}
	if h == "" || strings.ContainsAny(h, " /'\"=") {
		return ""
	}
	return strings.ToLower(h)
}

func ownHosts(v string) []string {
	var out []string
	for _, s := range secretHosts {
		for _, p := range s.vars {
			if strings.HasPrefix(v, p) || v == p {
				out = append(out, s.hosts...)
			}
		}
	}
	return out
}

// trustsHost says whether h is a host the user trusts (an exact name, or
// a subdomain of a "*.name" pattern) or one the workspace's files name
// (exactly). Nil ctx trusts nothing.
func (ctx *Context) trustsHost(h string) bool {
	if ctx == nil || h == "" || h == "?" || strings.HasPrefix(h, "$") {
		return false
	}
	for _, p := range ctx.TrustedHosts {
		if base, ok := strings.CutPrefix(p, "*."); ok && strings.HasSuffix(h, "."+base) || h == p {
			return true
		}
	}
	return slices.Contains(ctx.ProjectHosts, h)
}

func hostIn(h string, hosts []string) bool {
	for _, o := range hosts {
		if h == o || strings.HasSuffix(h, "."+o) {
			return true
		}
	}
	return false
}

func localHost(h string) bool {
	return h == "localhost" || strings.HasSuffix(h, ".localhost") || strings.HasPrefix(h, "127.") || h == "::1" || h == "[::1]" || h == "0.0.0.0" || strings.HasSuffix(h, ".local") || strings.HasSuffix(h, ".internal")
}

// urlHost returns the lower-cased host of a URL-looking word, "" if none.
// An unknown host ($HOST) is returned as "?" so that it counts as another
// host.
func urlHost(res *shell.Result, a string) string {
	_, rest, ok := strings.Cut(a, "://")
	if !ok {
		if strings.HasPrefix(a, "-") || strings.HasPrefix(a, "@") || strings.Contains(a, "=") || strings.Contains(a, " ") || !strings.Contains(a, ".") || strings.Contains(a, "$") {
			return ""
		}
		rest = a // curl example.com/x
		if i := strings.IndexByte(rest, '/'); i < 0 && !strings.Contains(rest, ".") {
			return ""
		}
		head := rest
		if i := strings.IndexAny(head, "/:?#"); i >= 0 {
			head = head[:i]
		}
		if !shell.Known(head) || strings.Count(head, ".") == 0 || strings.HasSuffix(head, ".json") || strings.HasSuffix(head, ".txt") {
			return ""
		}
	}
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		rest = rest[:i]
	}
	if i := strings.LastIndexByte(rest, '@'); i >= 0 {
		rest = rest[i+1:]
	}
	if !strings.HasPrefix(rest, "[") {
		if i := strings.LastIndexByte(rest, ':'); i >= 0 {
			rest = rest[:i]
		}
	}
	if !shell.Known(rest) {
		if parts := res.Parts(rest); len(parts) > 0 && parts[0].Unknown != nil && parts[0].Unknown.Kind == shell.Variable && parts[0].Unknown.Name != "?" {
			return "$" + parts[0].Unknown.Name
		}
		return "?"
	}
	return strings.ToLower(rest)
}

// destroyVerbs are the subcommand words with which cloud, hosting and
// platform CLIs delete what they manage.
var destroyVerbs = []string{"delete", "destroy", "terminate", "purge", "remove", "rm", "rb", "del", "undeploy", "teardown", "deleteall", "deprovision", "wipe", "drop", "erase", "unpublish", "yank", "deregister"}

// destroyPrefixes: verbs spelled as a prefix of the subcommand (aws
// delete-bucket) or after a colon (heroku apps:destroy).
var destroyPrefixes = []string{"delete-", "terminate-", "purge-", "remove-", "deregister-", "destroy-", "batch-delete", "delete_", "force-delete", "force_delete"}

// platformCLIs are the cloud, hosting, registry and platform CLIs whose
// destroy verbs remove servers, volumes, databases, clusters, projects or
// published packages.
var platformCLIs = []string{
	"aws", "awslocal", "gcloud", "az", "doctl", "hcloud", "linode-cli", "linode", "scw", "fly", "flyctl", "vercel", "now",
	"heroku", "netlify", "railway", "supabase", "firebase", "wrangler", "openstack", "nova", "cinder", "exo", "oci",
	"ibmcloud", "aliyun", "tccli", "upctl", "vultr-cli", "civo", "render", "dokku", "kaggle", "doppler", "lando",
	"helm", "helmfile", "koyeb", "northflank", "platform", "upsun", "porter", "okteto", "appwrite", "amplify",
	"eb", "sam", "copilot", "ecs-cli", "eksctl", "kops", "rosa", "oc", "ionosctl", "ovhai", "gh", "glab",
	"hub", "tea", "bitbucket", "sentry-cli", "vault", "consul", "nomad", "atlas", "mongocli", "pscale",
	"neonctl", "turso", "upstash", "planetscale", "cf", "az.cmd", "gsutil", "s3cmd", "mc", "rclone", "b2",
	"npm", "pnpm", "yarn", "gem", "twine", "cargo", "dotnet", "nuget", "pub", "mix", "hex", "poetry", "flit",
	"docker", "podman", "nerdctl", "stripe", "twilio", "auth0", "okta", "pulumi", "serverless", "sls", "sequelize",
	"prisma", "rails", "rake", "knex", "typeorm", "dbmate", "goose", "migrate", "flyway", "liquibase", "alembic",
	"juju", "multipass", "vagrant", "minikube", "kind", "k3d", "k3s", "microk8s", "colima", "lima", "limactl",
	"lxc", "incus", "etcdctl", "argocd", "flux", "surge", "keybase",
	"influx", "bq", "cbt", "sf", "sfdx", "databricks", "snow", "hasura", "fauna", "xata", "convex", "pocketbase",
	"cloudflared", "ngrok", "tailscale", "infisical", "akamai", "fastly", "exoscale", "ovh", "hetzner",
	"sst", "kafka-topics", "kafka-topics.sh", "kafka-configs", "kafka-configs.sh",
}

// platformAllowed lists, per CLI, destroy verbs that only touch local or
// reversible state (npm uninstall removes a dependency from the project;
// docker rm removes a stopped container), judged elsewhere or harmless.
var platformAllowed = []struct {
	cli   string
	verbs []string
}{
	{"npm", []string{"uninstall", "remove", "rm", "del"}},
	{"pnpm", []string{"uninstall", "remove", "rm", "del"}},
	{"yarn", []string{"remove", "uninstall"}},
	{"gem", []string{"uninstall"}},
	{"cargo", []string{"remove", "rm", "uninstall", "yank"}},
	{"dotnet", []string{"remove", "uninstall"}},
	{"nuget", []string{"remove"}},
	{"pub", []string{"remove"}},
	{"poetry", []string{"remove"}},
	{"mix", []string{"deps.clean"}},
	{"docker", []string{"rm", "remove", "delete", "uninstall", "purge", "destroy", "del", "drop", "deregister"}},
	{"podman", []string{"rm", "remove", "delete", "uninstall", "purge", "destroy", "del", "drop", "deregister"}},
	{"nerdctl", []string{"rm", "remove", "delete", "uninstall", "purge", "destroy", "del", "drop", "deregister"}},
	{"gh", []string{"remove", "rm", "uninstall", "del", "drop", "erase", "wipe", "deregister"}},
	{"glab", []string{"remove", "rm", "uninstall", "del", "drop", "erase", "wipe", "deregister"}},
	{"rclone", []string{"rm", "remove", "delete", "purge", "uninstall", "del", "drop", "erase", "wipe"}},
	{"mc", []string{"uninstall", "drop", "deregister"}},
	{"helm", []string{"remove", "rm"}},
	{"vagrant", []string{"remove", "uninstall", "rm", "delete"}},
	{"minikube", []string{"uninstall"}},
	{"pulumi", []string{"remove", "rm"}},
}

// platformReadOnly flags make any command only show what it would do.
var platformReadOnly = []string{"--dry-run", "--dryrun", "--dry-run=client", "--dry-run=server", "--help", "-h", "--whatif", "--what-if", "help"}

// checkPlatformDestroy: VERB x RESOURCE across cloud, hosting, registry
// and platform CLIs: a destroy verb among the first few subcommand words.
func checkPlatformDestroy(c *Call) Finding {
	name := c.Ex.Name
	if !slices.Contains(platformCLIs, name) {
		return Finding{}
	}
	for _, a := range c.Args {
		if slices.Contains(platformReadOnly, a) {
			return Finding{}
		}
	}
	if strings.HasPrefix(name, "kafka-") && hasArg(c.Args, "--delete") {
		return hit(name + " --delete deletes a topic or its configuration, and the messages it holds")
	}
	// Option values are not subcommands (az --subscription delete group
	// list lists): the CLI's spec in package effects says which options
	// take values, for the CLIs that have one.
	ops := subcommandWords(c.Args)
	if p, ok := effects.Parse(name, c.Args); ok {
		ops = p.Operands
	}
	var allowed []string
	for _, a := range platformAllowed {
		if a.cli == name {
			allowed = a.verbs
		}
	}
	if name == "doctl" && len(ops) > 0 && ops[0] == "compute" {
		ops = ops[1:]
	}
	for i, o := range ops[:min(len(ops), 4)] {
		verb := strings.ToLower(o)
		if _, after, ok := strings.Cut(verb, ":"); ok && name != "gh" {
			verb = after // heroku apps:destroy, dokku apps:destroy
			if i2 := strings.LastIndexByte(verb, ':'); i2 >= 0 {
				verb = verb[i2+1:]
			}
		}
		destroy := slices.Contains(destroyVerbs, verb) || (name == "doctl" && i == 1 && verb == "d") || name == "helm" && (verb == "uninstall" || verb == "un")
		for _, p := range destroyPrefixes {
			if strings.HasPrefix(verb, p) || strings.HasSuffix(verb, "-"+strings.TrimRight(p, "-_")) {
				destroy = true // delete-bucket, service-instance-delete
			}
		}
		if name == "sequelize" || name == "rails" || name == "rake" {
			destroy = strings.HasPrefix(strings.ToLower(o), "db:drop") || strings.HasPrefix(strings.ToLower(o), "db:reset") || strings.Contains(strings.ToLower(o), "undo:all") || strings.HasPrefix(strings.ToLower(o), "db:schema:load")
		}
		if name == "prisma" {
			destroy = i > 0 && ops[i-1] == "migrate" && verb == "reset" || verb == "--force-reset"
		}
		if !destroy || slices.Contains(allowed, verb) {
			continue
		}
		if name == "docker" || name == "podman" || name == "nerdctl" {
			continue // infra.docker-prune judges these
		}
		if (name == "gh" || name == "glab") && i == 0 {
			continue // gh extension remove ... is at i == 1; gh delete alone is not a command
		}
		if name == "gem" && verb != "yank" {
			continue
		}
		if slices.Contains([]string{"npm", "pnpm", "yarn"}, name) && verb != "unpublish" {
			continue
		}
		if name == "mc" && verb != "rb" && !(verb == "rm" && (hasArg(c.Args, "--recursive", "-r") || hasArg(c.Args, "--force"))) {
			continue
		}
		if (name == "aws" || name == "awslocal") && verb == "rm" && !hasArg(c.Args, "--recursive") || name == "gsutil" && verb == "rm" && !hasArg(c.Args, "-r", "-R") {
			continue // one object; infra.cloud-delete judges the recursive form
		}
		if name == "helm" && verb != "uninstall" && verb != "delete" && verb != "del" && verb != "un" {
			continue
		}
		return hit(name + " " + strings.Join(ops[:min(len(ops), i+2)], " ") + " deletes what the platform holds (servers, volumes, databases, clusters, projects or published packages)")
	}
	return Finding{}
}

// subcommandWords are the words of a call that are not options nor the
// values of --opt value pairs the analysis can recognise (a word after an
// option that starts with -- and has no = is taken as its value only when
// it does not look like a subcommand).
func subcommandWords(args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if strings.HasPrefix(a, "-") {
			continue
		}
		out = append(out, a)
	}
	return out
}

var (
	// codeEnvReadRe finds interpreter code reading one environment
	// variable by name: os.environ['X'], os.getenv("X"), process.env.X,
	// ENV['X'], $ENV{X}, getenv('X'), $env:X, Deno.env.get("X").
	codeEnvReadRe = &lazyregexp.Regexp{Expr: `(?:os\.environ(?:\.get)?\s*[\[(]\s*|os\.getenv\s*\(\s*|process\.env\.|process\.env\[\s*|\bENV(?:\.fetch)?\s*[\[(]\s*|\$ENV\{\s*|getenv\s*\(\s*|\$env:|Deno\.env\.get\s*\(\s*|System\.getenv\s*\(\s*)["']?([A-Za-z_][A-Za-z0-9_]*)`}
	// codeEnvAllRe finds code handing over the whole environment.
	codeEnvAllRe = &lazyregexp.Regexp{Expr: `(?:dict\s*\(\s*os\.environ\s*\)|os\.environ\s*[,)}]|json\.dumps\s*\(\s*(?:dict\s*\()?os\.environ|process\.env\s*[,)}]|ENV\.to_h|%ENV|Deno\.env\.toObject)`}
	// codeURLHostRe finds the hosts of the URLs in code.
	codeURLHostRe = &lazyregexp.Regexp{Expr: `(?i)(?:https?|wss?|ftp)://(?:[^/\s'"@]*@)?([^/\s'"?#:]+)`}
	// codeSendRe finds a network call in code.
	codeSendRe = &lazyregexp.Regexp{Expr: `(?i)(urlopen|urlretrieve|requests\.|httpx\.|urllib|http\.client|fetch\s*\(|axios|https?\.(get|request)|open-uri|URI\.open|Net::HTTP|LWP|HTTP::Tiny|file_get_contents|curl_|Invoke-WebRequest|Invoke-RestMethod|WebClient|socket|\.post\s*\(|\.send\s*\()`}
)

// checkCodeSecretSent finds interpreter code that reads a secret-bearing
// variable (or the whole environment) and sends a request to a host that
// is not that secret's own service.
func checkCodeSecretSent(h *shell.Hazard, ctx *Context) Finding {
	if h.Kind != shell.InterpreterCode || !codeSendRe.MatchString(h.Text) {
		return Finding{}
	}
	var vars []string
	for _, m := range codeEnvReadRe.Get().FindAllStringSubmatch(h.Text, -1) {
		if secretVarRe.MatchString(m[1]) && !slices.Contains(vars, m[1]) {
			vars = append(vars, m[1])
		}
	}
	if codeEnvAllRe.MatchString(h.Text) {
		vars = append(vars, "the whole environment")
	}
	if len(vars) == 0 {
		return Finding{}
	}
	var hosts []string
	for _, m := range codeURLHostRe.Get().FindAllStringSubmatch(h.Text, -1) {
		hosts = append(hosts, strings.ToLower(m[1]))
	}
	if len(hosts) == 0 {
		hosts = []string{"?"}
	}
	return sentTo(ctx, h.Interpreter+" code", vars, hosts)
}

// checkStoreRead: a secret's value printed from where it is kept — a
// secret manager, a password manager, the cluster, a CLI's own login —
// into the transcript, a file or the network. The same reads are allowed
// when the value flows into what uses it without being shown: a variable
// (export GITHUB_TOKEN="$(gh auth token)"), the argument of the program
// that needs it, a pipe into it (docker login --password-stdin), or
// /dev/null. A program gemini-guard does not know taking the value may
// print it: a maybe, denied in strict mode.
func checkStoreRead(c *Call) Finding {
	what, ok := storeRead(c.Ex.Name, c.Args)
	if !ok {
		return Finding{}
	}
	return c.storeFlow(what)
}

// storeFlow judges a command that prints the secret what by where its
// output goes (flow).
func (c *Call) storeFlow(what string) Finding {
	switch f, taker := c.flow(c.Ex, 0); f {
	case flowShown:
		if taker != "" {
			return hit(c.Ex.Name + " reads " + what + " and " + taker)
		}
		return hit(c.Ex.Name + " prints " + what)
	case flowMaybe:
		return Finding{Maybe: true, What: c.Ex.Name + " prints " + what + " into " + taker + ", which gemini-guard does not know to use it without printing it"}
	}
	return Finding{}
}

// storeRead says whether a command prints a secret value, and which.
func storeRead(name string, args []string) (string, bool) {
	ops := operands(args)
	at := func(words ...string) bool {
		return len(ops) >= len(words) && slices.Equal(ops[:len(words)], words)
	}
	switch name {
	case "aws":
		switch {
		case at("secretsmanager", "get-secret-value"), at("secretsmanager", "batch-get-secret-value"):
			return "a secret from AWS Secrets Manager", true
		case (at("ssm", "get-parameter") || at("ssm", "get-parameters") || at("ssm", "get-parameters-by-path")) && hasArg(args, "--with-decryption"):
			return "decrypted SSM parameters", true
		case at("ecr", "get-login-password"), at("ecr-public", "get-login-password"):
			return "a registry password", true
		case at("configure", "get") && len(ops) > 2 && (strings.Contains(ops[2], "secret") || strings.Contains(ops[2], "token")):
			return "the AWS " + ops[2], true
		case at("configure", "export-credentials"):
			return "the AWS credentials", true
		}
	case "gcloud":
		switch {
		case at("secrets", "versions", "access"):
			return "a secret from Secret Manager", true
		case at("auth", "print-access-token"), at("auth", "print-identity-token"), at("auth", "application-default", "print-access-token"):
			return "a Google Cloud access token", true
		}
	case "az":
		switch {
		case at("keyvault", "secret", "show"), at("keyvault", "secret", "download"):
			return "a Key Vault secret", true
		case at("account", "get-access-token"):
			return "an Azure access token", true
		}
	case "vault", "bao":
		if at("kv", "get") || at("read") || at("kv", "read") {
			return "a secret from Vault", true
		}
	case "kubectl", "oc":
		// The verb after the global options' values (-n kube-system get).
		if i := slices.Index(ops, "get"); i >= 0 && i+1 < len(ops) && isSecretResource(ops[i+1]) && secretValuesShown(args) {
			return "a Kubernetes secret's values", true
		}
		if at("view-secret") {
			return "a Kubernetes secret's values", true
		}
		if at("config", "view") && hasArg(args, "--raw", "--flatten") {
			return "the kubeconfig with its tokens and client keys", true
		}
	case "terraform", "tofu", "terragrunt":
		if at("state", "pull") {
			return "the Terraform state, with every secret of the resources it manages", true
		}
	case "heroku":
		if len(ops) > 0 && (ops[0] == "config" || ops[0] == "config:get") {
			return "the app's config vars (its secrets)", true
		}
	case "railway":
		if at("variables") && !hasArg(args, "--set", "-s") {
			return "the service's variables (its secrets)", true
		}
	case "gh":
		if at("auth", "token") || at("auth", "status") && hasArg(args, "--show-token", "-t") {
			return "the GitHub CLI's token", true
		}
	case "glab":
		if at("auth", "status") && hasArg(args, "--show-token", "-t") {
			return "the GitLab CLI's token", true
		}
	case "op":
		if at("read") || at("item", "get") && (hasArg(args, "--reveal") || hasArgPrefix(args, "--fields")) {
			return "a 1Password secret", true
		}
	case "bw":
		if len(ops) >= 2 && ops[0] == "get" && slices.Contains([]string{"password", "totp", "item", "notes"}, ops[1]) {
			return "a Bitwarden " + ops[1], true
		}
	case "lpass":
		if at("show") && !hasArg(args, "-c", "--clip") {
			return "a LastPass entry", true
		}
	case "pass", "gopass":
		if hasArg(args, "-c", "--clip") || len(ops) == 0 {
			return "", false
		}
		if ops[0] == "show" || ops[0] == "cat" || !slices.Contains(passCommands, ops[0]) {
			return "a password store entry", true
		}
	case "doppler":
		if at("secrets", "get") || len(ops) == 1 && ops[0] == "secrets" && !hasArg(args, "--only-names") {
			return "Doppler secrets", true
		}
	case "keyring":
		if at("get") {
			return "a keyring password", true
		}
	case "git":
		if at("credential", "fill") {
			return "a stored git password", true
		}
	}
	return "", false
}

func isSecretResource(r string) bool {
	return r == "secret" || r == "secrets" || strings.HasPrefix(r, "secret/") || strings.HasPrefix(r, "secrets/")
}

// passCommands are pass's and gopass's subcommands; any other first
// operand is an entry name, which pass shows.
var passCommands = []string{"init", "ls", "list", "find", "search", "grep", "insert", "add", "edit", "generate", "rm", "remove", "delete",
	"mv", "rename", "cp", "copy", "git", "help", "version", "otp", "sync", "mounts", "audit", "setup", "recipients", "templates", "config", "fsck", "update", "history", "totp"}

// secretValuesShown says whether kubectl get prints values (an output
// format that includes data) rather than names.
func secretValuesShown(args []string) bool {
	for i, a := range args {
		v := ""
		switch {
		case a == "-o" || a == "--output":
			if i+1 < len(args) {
				v = args[i+1]
			}
		case strings.HasPrefix(a, "-o"):
			v = strings.TrimPrefix(strings.TrimPrefix(a, "-o"), "=")
		case strings.HasPrefix(a, "--output="):
			v = strings.TrimPrefix(a, "--output=")
		}
		if v != "" && v != "name" && v != "wide" && !strings.HasPrefix(v, "custom-columns") {
			return true
		}
	}
	return false
}

// showers pass what they read on to their own output (or a file, or the
// network): a secret piped through them is still shown or sent.
var showers = []string{"echo", "printf", "cat", "tee", "base64", "base32", "basenc", "xxd", "od", "hexdump", "jq", "yq", "gojq",
	"grep", "egrep", "fgrep", "rg", "sed", "awk", "gawk", "mawk", "head", "tail", "cut", "tr", "sort", "uniq", "less", "more",
	"column", "fold", "rev", "paste", "strings", "xargs", "sponge", "gzip", "openssl", "python", "python3", "node", "perl", "ruby"}

// consumers are programs that take a secret to use it (a login, a
// registry, a secret store, a deploy) and do not print it back: a store
// read piped into them or put in their arguments is used, not shown.
var consumers = []string{"docker", "podman", "nerdctl", "buildah", "skopeo", "crane", "oras", "regctl", "helm", "kubectl", "oc",
	"gh", "glab", "git", "aws", "gcloud", "az", "vault", "bao", "op", "doppler", "npm", "pnpm", "yarn", "twine", "cargo", "gem",
	"terraform", "tofu", "terragrunt", "pulumi", "heroku", "flyctl", "fly", "vercel", "netlify", "wrangler", "doctl", "railway",
	"kubeseal", "sops", "ssh-add", "sshpass", "psql", "mysql", "mongosh", "redis-cli", "gpg", "gpg2", "age", "kind", "argocd",
	// Tests print nothing of their operands: [ -n "$TOKEN" ].
	"[", "test"}

// flowKind is where a secret's value ends up.
type flowKind int

const (
	// flowUsed: a variable, /dev/null, or a program that uses it.
	flowUsed flowKind = iota
	// flowMaybe: a program gemini-guard does not know takes it, and may
	// print it.
	flowMaybe
	// flowShown: the tool call's output, a file, or the network.
	flowShown
)

// flow says where ex's standard output ends up: shown when nothing takes
// it (the tool call's output, which the model reads, or a file it is
// redirected to) or only commands that pass it on (piped through base64
// -d, into curl's body, echo/printf's arguments); used when it goes to
// /dev/null, into a variable nothing shows, or into a program that uses
// it; maybe when a program gemini-guard does not know takes it (named in
// the second result; for shown, the second result says where it is sent
// when it leaves the machine). A variable exported while the command line dumps
// the environment (env, printenv, export -p) is shown. depth bounds the
// pipeline walk.
func (c *Call) flow(ex *shell.Exec, depth int) (flowKind, string) {
	if depth > 8 {
		return flowShown, ""
	}
	if ex.StdoutDiscarded() {
		return flowUsed, ""
	}
	takers := c.Res.OutputTakers(ex)
	if len(takers) == 0 {
		if c.Res.Captured(ex) && !slices.ContainsFunc(c.Res.Execs, isEnvDump) && !c.codeReadsCapture(ex) {
			return flowUsed, ""
		}
		return flowShown, ""
	}
	result, name := flowUsed, ""
	for _, t := range takers {
		piped := t.Stdin != nil && slices.Contains(t.Stdin.Producers, ex)
		switch {
		case slices.Contains(networkSenders, t.Name) && piped:
			return flowShown, ""
		case slices.Contains(showers, t.Name):
			// Piped in, or in an argument: echo and printf print
			// theirs, sed and awk put it in what they print.
			if f, n := c.flow(t, depth+1); f == flowShown {
				return flowShown, ""
			} else if f == flowMaybe {
				result, name = flowMaybe, n
			}
		case slices.Contains(webClients, t.Name):
			// In a header, the body or the URL: sent, and only its
			// own service, a local host or one the project uses or
			// the user trusts may receive it.
			if h := c.sentElsewhere(t); h != "" {
				return flowShown, t.Name + " sends it to " + h
			}
			if verboseRequest(t) {
				return flowShown, t.Name + " prints the request it sends, its headers included"
			}
		case slices.Contains(consumers, t.Name) && c.inMessage(t, ex):
			return flowShown, t.Name + " writes it into a message (a commit, an issue, release notes) others read"
		case slices.Contains(consumers, t.Name) && piped && !readsSecretInput(t):
			// A consumer reading something else on its standard input
			// (a SQL client runs it and quotes it back in an error).
			result, name = flowMaybe, t.Name+" (on its standard input)"
		case slices.Contains(consumers, t.Name):
		case slices.Contains(networkSenders, t.Name), slices.Contains(remoteRunners, t.Name):
			return flowShown, t.Name + " sends it off the machine" // in an ssh command, a mail, an rsync
		case t.Name == "":
			result, name = flowMaybe, "a program whose name is not known statically"
		default:
			result, name = flowMaybe, t.Name
		}
	}
	return result, name
}

// inMessage says whether t holds ex's output in the value of a message
// option (git commit -m, gh issue create --body, gh release create
// --notes): text kept in history or published, not a credential used.
func (c *Call) inMessage(t, ex *shell.Exec) bool {
	holds := func(a string) bool {
		return slices.ContainsFunc(c.Res.Unknowns(a), func(u *shell.Unknown) bool {
			return u.Kind == shell.CommandOutput && slices.Contains(u.Execs, ex)
		})
	}
	for i := 1; i < len(t.Args); i++ {
		a := t.Args[i]
		if !holds(a) {
			continue
		}
		if opt, _, ok := strings.Cut(a, "="); ok && strings.HasPrefix(opt, "--") && isMessageOption(t.Name, opt) {
			return true
		}
		if i > 1 && isMessageOption(t.Name, t.Args[i-1]) {
			return true
		}
		if prev := t.Args[i-1]; i > 1 && (t.Name == "git" || t.Name == "hg") && len(prev) > 2 && prev[0] == '-' && prev[1] != '-' && strings.HasSuffix(prev, "m") {
			return true // git commit -am "…"
		}
	}
	return false
}

// verboseRequest says whether a web client prints the request it sends
// (curl -v, --trace, wget -d, http/xh -v or --print with H): a secret in
// a header then reaches the tool call's output.
func verboseRequest(t *shell.Exec) bool {
	for _, a := range t.Args[1:] {
		switch t.Name {
		case "curl":
			if a == "--verbose" || strings.HasPrefix(a, "--trace") || len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.Contains(a, "v") && isFlagCluster(a) {
				return true
			}
		case "wget", "wget2":
			if a == "-d" || a == "--debug" {
				return true
			}
		case "http", "https", "xh", "xhs":
			if a == "-v" || a == "--verbose" || a == "--offline" || strings.HasPrefix(a, "--print=") && strings.Contains(a, "H") || strings.HasPrefix(a, "-p") && !strings.HasPrefix(a, "--") && strings.Contains(a, "H") {
				return true
			}
		}
	}
	return false
}

// isFlagCluster says whether a is a cluster of short flags (-sSv): letters
// only after the dash.
func isFlagCluster(a string) bool {
	for _, r := range a[1:] {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return false
		}
	}
	return true
}

// readsSecretInput says whether a consumer is told to read a secret or its
// data from standard input: an option naming stdin (--password-stdin,
// --token-stdin, /dev/stdin), gh auth login --with-token, gh and glab
// secret or variable set, or "-" as a file or value (vault login -,
// kubectl apply -f -).
func readsSecretInput(t *shell.Exec) bool {
	ops := operands(t.Args[1:])
	if (t.Name == "gh" || t.Name == "glab") && len(ops) >= 2 && (ops[0] == "secret" || ops[0] == "variable") && ops[1] == "set" {
		return true
	}
	for _, a := range t.Args[1:] {
		if strings.Contains(strings.ToLower(a), "stdin") || a == "--with-token" || a == "-" || strings.HasSuffix(a, "=-") || strings.HasSuffix(a, "@-") {
			return true
		}
	}
	return false
}

// codeReadsCapture says whether interpreter code on the command line
// reads, by name, an environment variable that holds ex's output
// (export T=$(gh auth token); python3 -c "print(os.environ['T'])"): the
// code may print it, and the shell analysis cannot follow it there.
func (c *Call) codeReadsCapture(ex *shell.Exec) bool {
	var names []string
	for name, v := range c.Res.Values {
		if slices.ContainsFunc(c.Res.Unknowns(v), func(u *shell.Unknown) bool {
			return u.Kind == shell.CommandOutput && slices.Contains(u.Execs, ex)
		}) {
			names = append(names, name)
		}
	}
	for _, h := range c.Res.Hazards {
		if h.Kind != shell.InterpreterCode {
			continue
		}
		// Text is the code as written in the shell: os.environ[\"T\"].
		code := strings.ReplaceAll(h.Text, `\`, "")
		if codeEnvAllRe.MatchString(code) {
			return true
		}
		for _, m := range codeEnvReadRe.Get().FindAllStringSubmatch(code, -1) {
			if slices.Contains(names, m[1]) {
				return true
			}
		}
	}
	return false
}

// storeHosts are the services the secret of a store CLI belongs to: a
// token gh prints may go to GitHub, a gcloud access token to Google's
// APIs. A store with no entry (vault, kubectl, pass, ...) has no own
// service: its secrets may go only to a local host, a host the project's
// files name or one the user trusts.
var storeHosts = map[string][]string{
	"gh":      {"github.com", "githubusercontent.com", "ghcr.io"},
	"glab":    {"gitlab.com"},
	"gcloud":  {"googleapis.com", "google.com", "gcr.io", "pkg.dev"},
	"aws":     {"amazonaws.com", "aws.amazon.com"},
	"az":      {"azure.com", "azure.net", "windows.net", "microsoft.com", "azurecr.io", "microsoftonline.com"},
	"heroku":  {"heroku.com"},
	"railway": {"railway.app", "railway.com"},
	"doppler": {"doppler.com"},
	"op":      {"1password.com"},
	"bw":      {"bitwarden.com"},
}

// sentElsewhere returns the first host the web client t sends to that is
// not the stored secret's own service (storeHosts of the call's
// program), a local host, or trusted (Context.trustsHost): "" when there
// is none. A host held in a variable, or none it can tell, counts as
// elsewhere.
func (c *Call) sentElsewhere(t *shell.Exec) string {
	own := storeHosts[c.Ex.Name]
	var hosts []string
	for _, a := range t.Args[1:] {
		if h := urlHost(c.Res, a); h != "" {
			hosts = append(hosts, h)
		}
	}
	if len(hosts) == 0 {
		return "a host it cannot tell"
	}
	for _, h := range hosts {
		switch {
		case h == "?":
			return "a host that cannot be known before it runs"
		case !localHost(h) && !hostIn(h, own) && !c.Ctx.trustsHost(h):
			return h + ", which is not that secret's own service nor a host the project's files name or the user trusts"
		}
	}
	return ""
}

// shows says whether ex's output ends up shown, written or sent (flow).
// A program gemini-guard does not know taking it is not counted.
func (c *Call) shows(ex *shell.Exec, depth int) bool {
	f, _ := c.flow(ex, depth)
	return f == flowShown
}

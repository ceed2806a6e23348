// Package effects says what a simple command does to what: which paths it
// reads, writes or deletes, which code it runs, which services, accounts or
// remote resources it changes, and what it exposes to the network. Package
// policy's harm rules judge those effects against the inventory of
// sensitive objects kept here (Inventory, Defences, MetadataEndpoints).
//
// Known programs get their effects from program specs, data parsed by the
// one option parser (shell.ParseArgs); a program nobody listed gets
// conservative generic effects: a path-like operand may be read and
// written, a destroy word among its first operands destroys a remote
// resource. Every table is a package variable of literals: a hook process
// starts for each call, and nothing is built when it starts.
//
// It is a package of its own, beside shell and below policy, because it is
// neither parsing (shell knows how bash runs commands, not what programs
// do) nor judging (policy decides what is harmful): it is the data both
// sides share, with tests of its own.
package effects

import (
	"path"
	"slices"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/shell"
)

// Kind is what an effect does.
type Kind uint8

const (
	// Read: the program reads the content of Path and may print or send it.
	Read Kind = iota + 1
	// Write: the program writes Path (creates, truncates, appends, edits).
	Write
	// Delete: the program deletes Path (Recursive for a tree), or, with
	// Area Remote, destroys a remote resource (Name the CLI, Action the
	// verb).
	Delete
	// Use: the program consumes a credential at Path for its own purpose
	// (ssh -i KEY, kubectl --kubeconfig F) without printing it.
	Use
	// Stat: the program only looks at Path's metadata (ls, stat, test -f).
	Stat
	// Change: the program changes a system setting: Area says which, Name
	// the service, account tool or unit, Action the verb.
	Change
	// Expose: the program hands a network peer a process (Name, the
	// program run for each connection).
	Expose
	// Fetch: the program asks a metadata service for credentials (Name the
	// service, Path the URL).
	Fetch
	// Run: the program runs code it fetches from a URL (Path) itself
	// (mshta URL, msiexec /i URL).
	Run
	// Serve: the program serves the directory Path to network peers (a
	// tunnel's file:// URL: ngrok http file:///home/u).
	Serve
)

func (k Kind) String() string {
	switch k {
	case Read:
		return "read"
	case Write:
		return "write"
	case Delete:
		return "delete"
	case Use:
		return "use"
	case Stat:
		return "stat"
	case Change:
		return "change"
	case Expose:
		return "expose"
	case Fetch:
		return "fetch"
	case Run:
		return "run"
	case Serve:
		return "serve"
	}
	return "effect"
}

// Area is what a Change or remote Delete acts on.
type Area uint8

const (
	Files Area = iota
	// Service: a service, daemon or launchd job (Action stop, disable,
	// mask, unload, kill, ...).
	Service
	// Accounts: users, groups, passwords (Name the tool).
	Accounts
	// Remote: a resource a CLI manages elsewhere (cloud, cluster,
	// registry, SaaS).
	Remote
)

// Effect is one thing a command does.
type Effect struct {
	Kind Kind
	Area Area
	// Path is the path acted on, absolute when it could be resolved.
	Path string
	// Recursive is set for a whole tree.
	Recursive bool
	// Name and Action: see Kind and Area.
	Name, Action string
	// Generic is set for effects guessed for a program no spec describes.
	Generic bool
	// Search is set on the reads of a search tool (grep -r), which print
	// only the lines that match.
	Search bool
	// Moved is set on a Delete that is a move (mv's sources): the file
	// lives on at the destination.
	Moved bool
}

// Of computes the effects of one simple command. home is the user's home
// directory ("" if unknown); relative paths are resolved against ex.Dir.
// Paths that cannot be known statically are left out (the other rules
// judge those).
func Of(ex *shell.Exec, home string) []Effect {
	c := &collector{ex: ex, home: home}
	c.redirections()
	if len(ex.Args) == 0 || ex.Name == "" {
		return c.out
	}
	args := ex.Args[1:]
	c.system(args)
	c.settings(args)
	c.code()
	c.uploads(args)
	if name := ex.Name; name == "dd" {
		c.dd(args)
		return c.out
	}
	c.files(args)
	return c.out
}

// rootOnlyPrinted: pw usershow (showuser, user show) run as root prints
// the password hash field; as a user, or with -P (a readable form
// without it), it does not.
func rootOnlyPrinted(ex *shell.Exec, args []string) (string, bool) {
	if ex.Name != "pw" || !ex.Sudo {
		return "", false
	}
	p := shell.ParseArgs(args, &shell.OptSpec{Short: "n:u:g:V:C:R:"})
	ops := p.Operands
	show := len(ops) > 0 && (ops[0] == "usershow" || ops[0] == "showuser") || len(ops) > 1 && ops[0] == "user" && ops[1] == "show"
	return "a user's password hash (pw usershow as root)", show && !p.Has("P")
}

// dd reads its if= file and writes its of= file; its other words are
// not files (bs=4k, count=1).
func (c *collector) dd(args []string) {
	for _, a := range args {
		switch k, v, _ := strings.Cut(a, "="); k {
		case "if":
			c.path(Read, v, false)
		case "of":
			c.path(Write, v, false)
		}
	}
}

// uploadOpts are curl's and wget's options whose value names a file they
// send: curl -F f=@FILE, -d @FILE, -T FILE, wget --post-file=FILE.
var uploadOpts = shell.OptSpec{Short: "F:d:T:H:o:u:X:A:e:x:K:", Long: []string{"form=", "form-string=", "data=", "data-binary=", "data-ascii=", "data-urlencode=", "data-raw=", "json=",
	"upload-file=", "header=", "output=", "user=", "request=", "user-agent=", "referer=", "proxy=", "config=", "post-file=", "body-file=", "post-data=", "body-data="}}

// uploads adds the files curl and wget send to a server: a file sent is
// read, whatever it is sent to.
func (c *collector) uploads(args []string) {
	switch c.ex.Name {
	case "curl", "curlie", "wget", "wget2":
	case "http", "https", "xh", "xhs", "httpie":
		// httpie and xh: field@FILE uploads FILE, field=@FILE embeds it.
		for _, a := range args {
			if _, f, ok := strings.Cut(a, "@"); ok && !strings.HasPrefix(a, "-") && (strings.HasPrefix(f, "/") || strings.HasPrefix(f, "~")) {
				c.upload(f)
			}
		}
		return
	default:
		return
	}
	for _, o := range shell.ParseArgs(args, &uploadOpts).Opts {
		if !o.HasValue {
			continue
		}
		v := o.Value
		switch o.Name {
		case "F", "form":
			_, f, ok := strings.Cut(v, "=")
			if !ok || f == "" || f[0] != '@' && f[0] != '<' {
				continue
			}
			f, _, _ = strings.Cut(f[1:], ";") // f=@file;type=text/plain
			c.upload(f)
		case "d", "data", "data-binary", "data-ascii", "json":
			if strings.HasPrefix(v, "@") {
				c.upload(v[1:])
			}
		case "data-urlencode":
			if i := strings.IndexByte(v, '@'); i >= 0 && !strings.Contains(v[:i], "=") {
				c.upload(v[i+1:])
			}
		case "T", "upload-file", "post-file", "body-file":
			c.upload(v)
		}
	}
}

func (c *collector) upload(f string) {
	if f != "" && f != "-" && f != "." {
		c.path(Read, f, false)
	}
}

// collector gathers one command's effects.
type collector struct {
	ex   *shell.Exec
	home string
	out  []Effect
}

// path adds a file effect, its path resolved; unknown paths are dropped.
func (c *collector) path(k Kind, p string, generic bool) {
	if p = Resolve(c.ex.Dir, c.home, p); p != "" {
		c.out = append(c.out, Effect{Kind: k, Path: p, Generic: generic})
	}
}

func (c *collector) redirections() {
	for _, r := range c.ex.Redirs {
		switch {
		case r.Writes():
			c.path(Write, r.Target, false)
		case r.Reads():
			c.path(Read, r.Target, false)
		}
	}
	if c.ex.Stdin != nil && c.ex.Stdin.File != "" {
		c.path(Read, c.ex.Stdin.File, false)
	}
}

// system adds what is not a file: metadata fetched, services, accounts,
// packages, processes exposed, secrets printed, defences switched off.
func (c *collector) system(args []string) {
	name := c.ex.Name
	// A metadata URL is fetched by a program that makes requests, not
	// by echo, grep or git commit -m, which only mention it.
	if specFor(name) == nil && !slices.Contains(noFiles, name) && name != "git" {
		for _, a := range args {
			if what, ok := MetadataSecret(a); ok {
				c.out = append(c.out, Effect{Kind: Fetch, Name: what, Path: a})
			}
		}
	}
	c.out = append(c.out, serviceEffects(c.ex, args)...)
	c.out = append(c.out, accountEffects(name, args)...)
	c.out = append(c.out, packageEffects(name, args)...)
	c.out = append(c.out, exposeEffects(name, args)...)
	for _, e := range tunnelEffects(name, args) {
		if e.Kind == Serve {
			c.path(Serve, e.Path, false)
			continue
		}
		c.out = append(c.out, e)
	}
	c.out = append(c.out, deviceEffects(name, args)...)
	c.out = append(c.out, jobEffects(name, args)...)
	c.out = append(c.out, cloudEffects(name, args)...)
	c.out = append(c.out, powershellEffects(name, c.ex.Text)...)
	c.out = append(c.out, hostEffects(name, args)...)
	if url, ok := urlRun(name, args); ok {
		c.out = append(c.out, Effect{Kind: Run, Path: url})
	}
	if what, ok := secretPrinted(name, args); ok {
		c.out = append(c.out, Effect{Kind: Read, Area: Secrets, Name: what})
	}
	if what, ok := serverCredentialRead(c.ex); ok {
		c.out = append(c.out, Effect{Kind: Read, Area: Secrets, Name: what})
	}
	if what, ok := rootOnlyPrinted(c.ex, args); ok {
		c.out = append(c.out, Effect{Kind: Read, Area: Secrets, Name: what})
	}
	if (name == "pkg" || name == "pkg_add") && strings.EqualFold(c.ex.Env["SIGNATURE_TYPE"], "none") {
		c.out = append(c.out, Effect{Kind: Change, Area: Service, Name: "pkg-signatures", Action: "SIGNATURE_TYPE=none turns off"})
	}
	if pfRulesFromStdin(c.ex, args) {
		c.out = append(c.out, Effect{Kind: Change, Area: Service, Name: "pf", Action: "load pass-only rules into"})
	}
	for _, e := range quarantineStripped(name, args) {
		if e.Path = Resolve(c.ex.Dir, c.home, e.Path); e.Path != "" {
			c.out = append(c.out, e)
		}
	}
	if what, ok := defenceSwitched(name, args); ok {
		c.out = append(c.out, Effect{Kind: Change, Area: Service, Name: what, Action: "switch off"})
	}
	if spec, ok := wrappedRemoteRun(c.ex); ok {
		c.out = append(c.out, Effect{Kind: Run, Path: spec})
	}
	if what, ok := emptyMirror(name, args); ok {
		c.out = append(c.out, Effect{Kind: Delete, Area: Remote, Name: name, Action: what})
	}
	if spec, ok := remotePackageRun(name, args); ok {
		c.out = append(c.out, Effect{Kind: Run, Path: spec})
	}
	if what, ok := hostStopped(name, args, c.ex.Text); ok {
		c.out = append(c.out, Effect{Kind: Change, Area: Host, Name: what, Action: name})
	}
	if what, ok := exposed(name, args, c.home); ok {
		c.out = append(c.out, Effect{Kind: Expose, Name: what})
	}
	if link, ok := alternativeRepointed(name, args); ok {
		c.out = append(c.out, Effect{Kind: Write, Path: link})
	}
	if what, ok := backupDestroyed(c.ex, args); ok {
		c.out = append(c.out, Effect{Kind: Delete, Area: Remote, Name: name, Action: what})
	}
	if slices.Contains(dataShells, name) {
		if w, ok := droppedStore(queryTexts(c.ex)); ok {
			c.out = append(c.out, Effect{Kind: Delete, Area: Remote, Name: name, Action: w})
		}
	}
	if unit, ok := editCreated(name, args); ok {
		c.out = append(c.out, Effect{Kind: Write, Path: unit})
	}
	if clipboardSent(c.ex) {
		c.out = append(c.out, Effect{Kind: Read, Area: Secrets, Name: "the Windows clipboard"})
	}
	for _, f := range pastedFiles(name, args) {
		c.path(Read, f, false)
	}
	if accountNet(name, args) {
		c.out = append(c.out, Effect{Kind: Change, Area: Accounts, Name: name, Action: args[0]})
	}
}

// settings adds the files a program changes through its own settings
// commands: a database given SQL, a tool's config key, a defaults domain.
func (c *collector) settings(args []string) {
	if db, ok := sqlWrite(c.ex.Name, args); ok {
		c.path(Write, db, false)
	}
	for _, e := range configEffects(c.ex.Name, args) {
		c.path(Write, e.Path, false)
	}
	for _, f := range guardCLIWrites(c.ex.Name, args) {
		c.path(Write, f, false)
	}
	if c.ex.Name != "defaults" {
		return
	}
	for _, e := range defaultsEffects(args) {
		if e.Path != "" {
			if e.Path = Resolve(c.ex.Dir, c.home, e.Path); e.Path == "" {
				continue
			}
		}
		c.out = append(c.out, e)
	}
}

// code adds the literal paths and URLs of interpreter code (python -c
// "open('/proc/1/mem')"): read, and written when the code writes files.
func (c *collector) code() {
	for _, l := range c.ex.CodeLiterals {
		if what, ok := MetadataSecret(l); ok {
			c.out = append(c.out, Effect{Kind: Fetch, Name: what, Path: l})
		}
		if strings.HasPrefix(l, "/") || strings.HasPrefix(l, "~/") {
			c.path(Read, l, true)
			if c.ex.CodeWrites {
				c.path(Write, l, true)
			}
		}
	}
}

// files adds the file effects of the program's spec, or the generic ones
// of a program nobody listed.
func (c *collector) files(args []string) {
	if g := GrammarOf(c.ex.Name); g != nil {
		// A subcommand CLI: the files it is handed to use (a kubeconfig,
		// a CA bundle), by option or by the variable that stands for it.
		cmd := ParseCommand(c.ex.Name, args, c.ex.Env)
		for _, f := range cmd.Values(g.Uses...) {
			c.path(Use, f, false)
		}
		return
	}
	if s := specFor(c.ex.Name); s != nil {
		var effs []Effect
		for _, e := range s.fileEffects(args) {
			if p := Resolve(c.ex.Dir, c.home, e.Path); p != "" {
				e.Path = p
				effs = append(effs, e)
			}
		}
		if slices.Contains(localCopiers, c.ex.Name) && intoOwnCredential(effs, c.home) {
			effs = readsAsUses(effs)
		}
		c.out = append(c.out, effs...)
		return
	}
	if known(c.ex.Name) {
		return
	}
	// A program nobody listed: judged by what it touches. A key handed
	// through a key option (-i KEY, --private-key KEY) is used, not read
	// out: ansible --private-key, sshpass, a deploy tool's --identity.
	keys := keyValues(args)
	for _, o := range shell.ParseArgs(args, &shell.OptSpec{}).Operands {
		if slices.Contains(keys, o) {
			c.path(Use, o, true)
			continue
		}
		if pathLike(o) {
			c.path(Read, o, true)
			c.path(Write, o, true)
		}
	}
	if verb, ok := remoteDestroy(args); ok {
		c.out = append(c.out, Effect{Kind: Delete, Area: Remote, Name: c.ex.Name, Action: verb, Generic: true})
	}
}

// localCopiers copy files on this machine.
var localCopiers = []string{"cp", "install", "gcp", "ditto"}

// intoOwnCredential says whether every file a copy writes is a credential
// in the session's home (cp /mnt/c/Users/ann/.ssh/id_ed25519
// ~/.ssh/id_ed25519): the copied key lands where the credential rules
// guard it again, nothing of it is shown or sent.
func intoOwnCredential(effs []Effect, home string) bool {
	writes := 0
	for _, e := range effs {
		if e.Kind != Write {
			continue
		}
		writes++
		if home == "" || !strings.HasPrefix(e.Path, home+"/") || LookupClass(e.Path, home, Credential) == nil {
			return false
		}
	}
	return writes > 0
}

// readsAsUses turns the reads of effs into uses.
func readsAsUses(effs []Effect) []Effect {
	for i := range effs {
		if effs[i].Kind == Read {
			effs[i].Kind = Use
		}
	}
	return effs
}

// Resolve makes p absolute: ~ is home, a relative path is under dir. It
// returns "" when p cannot be known statically or placed.
func Resolve(dir, home, p string) string {
	if p == "" || !shell.Known(p) {
		return ""
	}
	p = windowsDrive(p)
	if p == "~" || strings.HasPrefix(p, "~/") {
		if home == "" {
			return ""
		}
		p = home + p[1:]
	}
	if !strings.HasPrefix(p, "/") {
		if dir == "" || !shell.Known(dir) {
			return ""
		}
		p = dir + "/" + p
	}
	return path.Clean(p)
}

// windowsDrive turns a Windows drive path (C:/Users/ann/x, C:\Users\ann\x:
// Git Bash and the Windows programs WSL runs take both) into where WSL
// mounts it (/mnt/c/Users/ann/x), so that the inventory's %USER% and
// %WIN% objects match it; any other path is returned as it is.
func windowsDrive(p string) string {
	if len(p) < 3 || p[1] != ':' || p[2] != '/' && p[2] != '\\' {
		return p
	}
	d := p[0] | 0x20 // lower case
	if d < 'a' || d > 'z' {
		return p
	}
	return "/mnt/" + string(d) + "/" + strings.ReplaceAll(p[3:], `\`, "/")
}

// pathLike reports whether an operand of an unknown program looks like a
// path rather than a word or a URL: it has a slash or starts with a dot
// or a tilde.
func pathLike(o string) bool {
	if o == "" || o == "." || o == ".." || strings.Contains(o, "://") || !shell.Known(o) {
		return false
	}
	return strings.Contains(o, "/") || o[0] == '.' || o[0] == '~' || windowsDrive(o) != o
}

// keyOptions are the options by which programs take a key or certificate
// they use for themselves.
var keyOptions = []string{"-i", "--identity", "--identity-file", "--private-key", "--key-file", "--keyfile", "--key", "--ssh-key", "--ssh-key-file",
	"--private-key-file", "--tls-key", "--client-key", "--cert", "--cert-file", "--certificate", "--kubeconfig", "--credentials", "--credentials-file", "--service-account-key-file", "--key-path"}

// keyValues returns the values an unknown program's key options take
// (-i KEY, --private-key=KEY).
func keyValues(args []string) []string {
	var out []string
	for i, a := range args {
		if name, v, ok := strings.Cut(a, "="); ok && slices.Contains(keyOptions, name) {
			out = append(out, v)
			continue
		}
		if slices.Contains(keyOptions, a) && i+1 < len(args) {
			out = append(out, args[i+1])
		}
	}
	return out
}

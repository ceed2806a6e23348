package policy

import (
	"path"
	"slices"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/credpaths"
	"github.com/gemini-guard/gemini-guard/internal/effects"
	"github.com/gemini-guard/gemini-guard/internal/lazyregexp"
	"github.com/gemini-guard/gemini-guard/internal/shell"
)

var (
	sshKeyRe      = &lazyregexp.Regexp{Expr: `^id_(rsa|dsa|ecdsa|ed25519|xmss)(_sk)?$`}
	keyFileRe     = &lazyregexp.Regexp{Expr: `(?i)\.(key|ppk|p12|pfx|jks|keystore|kdbx)$|(private|priv|id_|key).*\.pem$`}
	serviceAcctRe = &lazyregexp.Regexp{Expr: `(?i)^service[-_]?account.*\.json$`}
	// secretsFileRe: files named for the secrets they hold (secrets.yml,
	// credentials.json, client_secret_….json, a cloud key saved as
	// gcp-key.json).
	secretsFileRe = &lazyregexp.Regexp{Expr: `(?i)^(secrets?|credentials|client_secrets?([-_.][\w.-]*)?)\.(ya?ml|json|toml|ini|env|properties)$|(^|[-_])key\.json$`}
	sshPublic     = []string{"known_hosts", "known_hosts.old", "config", "authorized_keys", "authorized_keys2"}
	toolCredNames = []string{"auth.json", "credentials", "credentials.json", "oauth_creds.json", "hosts.yml", "config.json"}
)

// Literals each name regexp needs: false means the regexp cannot match.
// The case-insensitive ones answer true for any non-ASCII name, whose case
// folding (ſ is s, K is k) is the regexp's to decide.
func mayBeEnvFile(base string) bool { return strings.Contains(base, ".env") }

func mayBeSSHKey(base string) bool { return strings.HasPrefix(base, "id_") }

func mayBeKeyFile(base string) bool {
	if !isASCII(base) {
		return true
	}
	l := strings.ToLower(base)
	i := strings.LastIndexByte(l, '.')
	return i >= 0 && slices.Contains([]string{"key", "ppk", "p12", "pfx", "jks", "keystore", "kdbx", "pem"}, l[i+1:])
}

func mayBeServiceAccount(base string) bool {
	if !isASCII(base) {
		return true
	}
	l := strings.ToLower(base)
	return strings.HasPrefix(l, "service") && strings.HasSuffix(l, ".json")
}

func mayBeSecretsFile(base string) bool {
	if !isASCII(base) {
		return true
	}
	l := strings.ToLower(base)
	return strings.Contains(l, "secret") || strings.Contains(l, "credentials") || strings.HasSuffix(l, "key.json")
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// globProbes are credential file names a glob is tried against.
var globProbes = []string{".env", ".env.local", ".env.production", "id_rsa", "id_ed25519", "id_ecdsa", "credentials", ".netrc", ".git-credentials", ".pgpass", "server.key"}

// credential says whether path p (resolved, possibly with unknown parts)
// is a credential file or a directory of them, and which.
func (c *Context) credential(res *shell.Result, p string) (string, bool) {
	if p == "" {
		return "", false
	}
	p, _ = res.Substitute(p)
	base := path.Base(p)
	if !shell.Known(p) {
		if !shell.Known(base) {
			return "", false
		}
		if what, ok := toolHomeCredential(res, p, base); ok {
			return what, true
		}
	}
	if strings.ContainsAny(base, globChars) && len(strings.Trim(base, "*?[]")) >= 2 {
		if what, ok := c.globCredential(res, p, base); ok {
			return what, true
		}
	}
	if what, ok := credentialName(base); ok {
		return what, true
	}
	if isExampleFile(base) {
		return "", false
	}
	if what, ok := credentialPlace(p, base); ok {
		return what, true
	}
	if what, done := credentialDir(p); done {
		return what, what != ""
	}
	if rel, ok := strings.CutPrefix(p, c.Home+"/"); c.Home != "" && ok && slices.Contains(credpaths.HomeFiles, rel) {
		return "the npm token file ~/.npmrc", true
	}
	return "", false
}

// exampleSuffixes mark a committed placeholder kept next to the real
// file (rclone.conf.example, config.json.sample).
var exampleSuffixes = []string{".example", ".sample", ".template", ".dist", ".tpl"}

func isExampleFile(base string) bool {
	return slices.ContainsFunc(exampleSuffixes, func(s string) bool { return strings.HasSuffix(base, s) })
}

// toolHomeCredential: $CODEX_HOME/auth.json, a tool's credentials in its
// configuration directory named by a variable.
func toolHomeCredential(res *shell.Result, p, base string) (string, bool) {
	if parts := res.Parts(p); len(parts) > 0 && parts[0].Unknown != nil && slices.Contains(toolCredNames, base) {
		if n := parts[0].Unknown.Name; strings.HasSuffix(n, "_HOME") || strings.Contains(n, "CONFIG") {
			return base + " in " + n, true
		}
	}
	return "", false
}

// globCredential judges a glob (.env*, id_*) by the credential files it
// can match (bash's * does not match a leading dot).
func (c *Context) globCredential(res *shell.Result, p, base string) (string, bool) {
	for _, name := range globProbes {
		if strings.HasPrefix(name, ".") && !strings.HasPrefix(base, ".") {
			continue
		}
		if ok, _ := path.Match(base, name); ok {
			if what, ok := c.credential(res, path.Join(path.Dir(p), name)); ok {
				return what + " (matched by " + base + ")", true
			}
		}
	}
	return "", false
}

// credentialName judges a file by its name. Each name regexp is tried
// only when a literal it needs is in base (mayBe...): this runs for every
// path argument of every command, and a typical command then compiles
// none of them.
func credentialName(base string) (string, bool) {
	switch {
	case mayBeEnvFile(base) && credpaths.EnvFileRe.MatchString(base) && !credpaths.EnvExampleRe.MatchString(strings.TrimPrefix(base, ".env")) && !credpaths.EnvExampleRe.MatchString(strings.TrimSuffix(base, ".env")):
		return "the environment file " + base, true
	case mayBeSSHKey(base) && sshKeyRe.MatchString(base):
		return "the SSH private key " + base, true
	case mayBeKeyFile(base) && keyFileRe.MatchString(base) && !strings.HasSuffix(base, ".pub"):
		return "the private key file " + base, true
	case slices.Contains(credpaths.Names, base):
		return "the credential file " + base, true
	case mayBeServiceAccount(base) && serviceAcctRe.MatchString(base):
		return "the service account key " + base, true
	case mayBeSecretsFile(base) && secretsFileRe.MatchString(base):
		return "the secrets file " + base, true
	case strings.HasSuffix(base, ".tfstate") || strings.HasSuffix(base, ".tfstate.backup"):
		return "the Terraform state " + base + ", which holds the secrets of the resources it manages", true
	case isHistoryFile(base):
		return "the history " + base + ", with the secrets typed in it", true
	}
	return "", false
}

// credentialPlace judges a file by where it is: an SSH host key, a
// container's mounted secrets.
func credentialPlace(p, base string) (string, bool) {
	if strings.HasPrefix(base, "ssh_host_") && strings.HasSuffix(base, "_key") {
		return "the SSH host private key " + base, true
	}
	if strings.HasPrefix(p, "/run/secrets/") || strings.HasPrefix(p, "/var/run/secrets/") {
		return "the container secret " + p, true
	}
	return "", false
}

// credentialDir judges a file by the directories it is in: .ssh (whose
// public files are no credential), and the credential directories
// (credpaths.Dirs). done is set when the path was decided, credential or not.
func credentialDir(p string) (what string, done bool) {
	segs := strings.Split(strings.Trim(p, "/"), "/")
	for i, s := range segs {
		if s == ".ssh" {
			return sshDirFile(segs[i+1:]), true
		}
		if !strings.HasPrefix(s, ".") {
			continue // every credpaths.Dirs entry starts with a dot directory
		}
		// The path from this dot directory on, compared with each entry
		// without splitting it (this runs for every path argument).
		if what, ok := inCredDir(strings.Join(segs[i:], "/")); ok {
			return what, true
		}
	}
	return "", false
}

// sshDirFile judges the path rest inside a .ssh directory: "" for its
// public files.
func sshDirFile(rest []string) string {
	if len(rest) == 0 {
		return "the SSH directory"
	}
	last := rest[len(rest)-1]
	if !slices.Contains(sshPublic, last) && !strings.HasSuffix(last, ".pub") {
		return "the SSH key " + last
	}
	return ""
}

// inCredDir judges tail, a path from a dot directory on, against the
// credential directories.
func inCredDir(tail string) (string, bool) {
	for _, cd := range credpaths.Dirs {
		dir, files := cd.Dir, cd.Files
		if !strings.HasPrefix(tail, dir) || len(tail) > len(dir) && tail[len(dir)] != '/' {
			continue
		}
		if len(tail) == len(dir) {
			return "the credential directory " + dir, true
		}
		first, _, _ := strings.Cut(tail[len(dir)+1:], "/")
		if slices.Contains(tokenlessFiles, tail) {
			return "", true
		}
		if files == nil || slices.Contains(files, first) {
			return "the credentials in " + dir, true
		}
	}
	return "", false
}

// tokenlessFiles are files in a credential directory that hold no
// secret: the Azure CLI's subscription list (its tokens are in
// msal_token_cache.json).
var tokenlessFiles = []string{".azure/azureProfile.json"}

// safeWithSecrets lists commands that only mention, list, protect or load
// a credential file without printing or sending its content.
var safeWithSecrets = []string{
	"echo", "printf", "true", "false", ":", "test", "[", "type", "which",
	"whereis", "command", "hash", "help", "man", "info", "alias", "export",
	"declare", "local", "readonly", "typeset", "set", "unset", "sleep", "ls",
	"dir", "vdir", "stat", "file", "du", "df", "touch", "mkdir", "chmod",
	"chown", "chgrp", "cd", "pushd", "popd", "basename", "dirname", "realpath",
	"readlink", "ssh", "ssh-add", "ssh-keygen", "ssh-copy-id", "source", ".",
	"docker", "docker-compose", "podman", "podman-compose", "dotenv", "direnv",
	"env-cmd", "foreman", "honcho", "dotenvx", "wc", "gitleaks", "trufflehog", "git-secrets",
	"gemini-guard", "xargs", "dconf", "gsettings", "wslpath", "cygpath",
	"terraform", "tofu", "terragrunt", // terraform show f.tfstate masks sensitive values; state pull is secrets.store-read
}

var (
	grepSpec = &shell.OptSpec{Short: "EFGPe:f:iywxvclLnhHoqsbuzrRaTZUA:B:C:m:d:D:", Long: []string{"regexp=", "file=", "ignore-case", "word-regexp",
		"line-regexp", "invert-match", "count", "files-with-matches", "files-without-match", "line-number", "with-filename", "no-filename",
		"only-matching", "quiet", "silent", "recursive", "dereference-recursive", "include=", "exclude=", "exclude-dir=", "exclude-from=",
		"label=", "color=?", "colour=?", "context=", "after-context=", "before-context=", "max-count=", "binary-files=", "devices=",
		"directories=", "null", "null-data", "text", "extended-regexp", "fixed-strings", "basic-regexp", "perl-regexp"}, Abbrev: true}
	rgSpec = &shell.OptSpec{Short: "e:f:g:t:T:A:B:C:m:M:j:d:E:r:ilnvwxcsSFuUzLaopqHIN0", Long: []string{"regexp=", "file=", "glob=", "iglob=", "type=",
		"type-not=", "type-add=", "after-context=", "before-context=", "context=", "max-count=", "max-columns=", "threads=",
		"max-depth=", "encoding=", "replace=", "pre=", "pre-glob=", "sort=", "sortr=", "engine=", "colors=", "color=", "path-separator=",
		"max-filesize=", "ignore-file=", "files", "files-with-matches", "files-without-match", "count", "json", "hidden",
		"no-ignore", "follow", "ignore-case", "smart-case", "fixed-strings", "line-number", "word-regexp", "only-matching", "quiet",
		"search-zip", "multiline", "pcre2", "text", "null", "unrestricted", "invert-match", "vimgrep", "heading", "no-heading"}, Abbrev: true}
	curlDataOpts = []string{"-d", "--data", "--data-binary", "--data-ascii", "--data-urlencode", "--json",
		"-F", "--form", "-T", "--upload-file", "-K", "--config"}
)

// keyReaders print, copy, encode, send or destroy a file's content: a key
// given to them is read out or lost, whatever the option (rm -f key: -f is
// a flag, not the key-file option of ssh-keygen -f).
var keyReaders = []string{"rm", "unlink", "shred", "srm", "truncate", "wipe", "cat", "tac", "less", "more", "head", "tail", "base64", "base32", "basenc", "xxd", "od", "hexdump",
	"strings", "cp", "mv", "scp", "rsync", "tar", "zip", "7z", "gzip", "nc", "ncat", "socat", "sed", "awk",
	"grep", "dd", "tee", "bat", "vi", "vim", "nano", "emacs", "code", "python", "python3", "node", "perl", "ruby", "php", "pbcopy", "xclip",
	// Programs whose -f reads a list and echoes the lines it cannot use.
	"date", "ssh-keyscan", "fping", "arp"}

// keyOption: an option through which a program is handed a key, keystore
// or key file it uses (--key, -inkey, --keyfile, --ssl-keyfile,
// --signing-key, --load-privkey, -keystore, -i, /keyfile), or an output it
// writes a new key to (-f for key generators, --outfile, -out).
func keyOption(opt string) bool {
	o := strings.ToLower(strings.TrimLeft(opt, "-/"))
	switch o {
	case "i", "k", "f", "out", "outfile", "output", "o", "genkey", "ssh", "identity", "identity-file", "keystore", "cert", "certfile",
		"kubeconfig", "homedir", "credentials", "credentials-file", "credential-file", "token-file", "password-file", "passfile", "netrc-file", "auth-file":
		return true
	}
	return strings.Contains(o, "key") || strings.HasSuffix(o, "env-file") // kubectl --from-env-file, docker --env-file: loaded, not read out
}

// grepsNoContent says whether a grep prints no line of the files it reads
// (-c counts, -l/-L names files, -q only exits): grep -c ” .env says how
// many lines .env has, not what they hold.
func grepsNoContent(c *Call) bool {
	spec := grepSpec
	switch c.Ex.Name {
	case "grep", "egrep", "fgrep", "zgrep", "ugrep":
	case "rg", "ripgrep":
		spec = rgSpec
	default:
		return false
	}
	return shell.ParseArgs(c.Args, spec).Has("c", "count", "l", "files-with-matches", "L", "files-without-match", "q", "quiet", "silent")
}

var cutSpec = &shell.OptSpec{Short: "b:c:d:f:nsz", Long: []string{"bytes=", "characters=", "delimiter=", "fields=", "complement",
	"only-delimited", "output-delimiter=", "zero-terminated"}}

// printsNamesOnly says whether a call prints only the part of each line
// before its first '=' (cut -d= -f1 .env, awk -F= '{print $1}' .env): the
// names of an environment file's variables, not their values.
func printsNamesOnly(c *Call) bool {
	switch c.Ex.Name {
	case "cut":
		p := shell.ParseArgs(c.Args, cutSpec)
		d, _ := p.Value("d", "delimiter")
		f, _ := p.Value("f", "fields")
		return d == "=" && f == "1"
	case "awk", "gawk", "mawk", "nawk":
		// The analysis takes the program out of the arguments: look at the
		// text as written.
		return (hasArg(c.Args, "-F=") || slices.Contains(c.Args, "=") && hasArg(c.Args, "-F")) &&
			strings.Contains(strings.ReplaceAll(c.Ex.Text, " ", ""), "'{print$1}'")
	}
	return false
}

// readArgs returns the words of a call that name files it reads, copies or
// destroys (not the ones it only writes).
func readArgs(c *Call) []string {
	for _, r := range argReaders {
		if slices.Contains(r.names, c.Ex.Name) {
			return r.read(c)
		}
	}
	if hasArg(c.Args, "--genkey") {
		return nil // openvpn --genkey secret f writes a new key
	}
	switch c.Ex.Name {
	case "openssl":
		return opensslReadArgs(c)
	case "node", "bun", "deno":
		return nodeReadArgs(c)
	}
	return plainReadArgs(c)
}

// argReader names the files a family of programs reads, in its own way.
type argReader struct {
	names []string
	read  func(c *Call) []string
}

// argReaders are the programs whose read files are not simply their
// operands and option values.
var argReaders = []argReader{
	{[]string{"grep", "egrep", "fgrep", "zgrep", "ugrep", "ag", "ack", "ack-grep", "rg", "ripgrep"}, grepReadArgs},
	{[]string{"find"}, findReadArgs},
	{[]string{"cp", "mv", "install", "rsync", "scp"}, copyReadArgs},
	{[]string{"tee"}, func(*Call) []string { return nil }}, // writes only; truncation is judged on its operands below
	{[]string{"git"}, gitReadArgs},
}

// grepReadArgs: the files searched, and the pattern files (-f), not the
// pattern.
func grepReadArgs(c *Call) []string {
	spec := grepSpec
	if c.Ex.Name == "rg" || c.Ex.Name == "ripgrep" {
		spec = rgSpec
	}
	p := shell.ParseArgs(c.Args, spec)
	var out []string
	files := p.Operands
	_, hasE := p.Value("e", "regexp")
	_, hasF := p.Value("f", "file")
	if !hasE && !hasF && !p.Has("files") && len(files) > 0 {
		files = files[1:] // the pattern
	}
	out = append(out, files...)
	for _, o := range p.Opts {
		if (o.Name == "f" || o.Name == "file") && o.HasValue {
			out = append(out, o.Value)
		}
	}
	return out
}

// metaOnlyPrograms only change or show a file's metadata.
var metaOnlyPrograms = []string{"chmod", "chown", "chgrp", "chattr", "setfacl", "touch", "stat", "ls"}

// findReadArgs: the starting points, unless find only prints names
// (findListsNamesOnly: find ~/.ssh -maxdepth 1 -name '*.pub'), or every file found is given to
// a program that only changes or shows its metadata, and either the
// filter leaves the credentials out (find ~/.ssh -name '*.pub' -exec
// chmod 644 {} +) or the change only tightens (find ~/.ssh -exec chmod
// 600 {} +; widening is perm.*'s to judge).
func findReadArgs(c *Call) []string {
	starts, expr := shell.FindStart(c.Args)
	execs, metaOnly, tightens, excludesCreds := 0, true, true, false
	shell.FindExpr(expr, func(primary, value string, cmd []string) {
		if (primary == "-name" || primary == "-iname") && !globMatchesProbe(value) {
			excludesCreds = true
		}
		if len(cmd) > 0 {
			execs++
			name := shell.CommandName(cmd[0])
			metaOnly = metaOnly && slices.Contains(metaOnlyPrograms, name)
			tightens = tightens && name == "chmod" && len(cmd) > 1 && tighteningMode(cmd[1])
		}
	})
	if execs > 0 && metaOnly && (excludesCreds || tightens) || c.findListsNamesOnly() {
		return nil // only names printed, or metadata changed
	}
	return starts
}

// globMatchesProbe reports whether glob matches one of the credential
// names globProbes lists.
func globMatchesProbe(glob string) bool {
	return slices.ContainsFunc(globProbes, func(p string) bool {
		ok, _ := path.Match(glob, p)
		return ok
	})
}

// copyReadArgs: the operands but the last, which is written, not read
// (unless -t names the target). A local copy into a credential place in
// home (cp /mnt/c/Users/ann/.ssh/id_ed25519 ~/.ssh/) reads nothing out:
// the key lands where this rule guards it again.
func copyReadArgs(c *Call) []string {
	ops := operands(c.Args)
	if c.Ex.Name == "scp" {
		ops = sshOperands(c.Args) // scp -i key: the key is ssh's
	}
	if len(ops) > 1 && !hasArg(c.Args, "-t", "--target-directory") {
		if (c.Ex.Name == "cp" || c.Ex.Name == "install") && c.intoHomeCredentialPlace(ops[len(ops)-1]) {
			return nil
		}
		ops = ops[:len(ops)-1]
	}
	return ops
}

// intoHomeCredentialPlace says whether dst is a credential file or
// directory in home (~/.ssh, ~/.ssh/id_ed25519, ~/.aws/credentials).
func (c *Call) intoHomeCredentialPlace(dst string) bool {
	if c.Loc(dst).Place != InHome {
		return false
	}
	_, ok := c.Ctx.credential(c.Res, c.resolve(dst))
	return ok
}

// gitReadShown are the git subcommands that read or show the files named.
var gitReadShown = []string{"add", "show", "diff", "blame", "cat-file", "log", "stage", "archive", "grep"}

// gitReadArgs: the files git adds or shows; HEAD:.env names the file .env
// in a commit.
func gitReadArgs(c *Call) []string {
	g := parseGit(c)
	if !slices.Contains(gitReadShown, g.sub) {
		return nil
	}
	var out []string
	for _, o := range operands(g.args) {
		if (g.sub == "log" || g.sub == "diff") && c.workspaceGeminiDir(o) {
			continue
		}
		if i := strings.LastIndexByte(o, ':'); i >= 0 {
			o = o[i+1:]
		}
		out = append(out, o)
	}
	return out
}

// workspaceGeminiDir says whether o is the workspace's own .gemini
// directory (its settings, commands and extensions, committed with the
// project): its history is not the OAuth credentials ~/.gemini keeps.
func (c *Call) workspaceGeminiDir(o string) bool {
	p := c.resolve(o)
	return path.Base(p) == ".gemini" && c.Loc(o).Place == InWorkspace && p != c.Ctx.Home+"/.gemini"
}

// opensslReadArgs: openssl req -keyout server.key writes a new key:
// outputs are not read; openssl req -key k, ts -inkey k use the key, and
// rsa -in k -pubout prints only its public half.
func opensslReadArgs(c *Call) []string {
	pubout := hasArg(c.Args, "-pubout")
	var out []string
	for i, a := range c.Args {
		if i > 0 && (c.Args[i-1] == "-out" || c.Args[i-1] == "-keyout" || keyOption(c.Args[i-1]) || pubout && c.Args[i-1] == "-in") || strings.HasPrefix(a, "-") {
			continue
		}
		out = append(out, a)
	}
	return out
}

// nodeReadArgs: the operands but the value of --env-file, which node
// loads like dotenv does.
func nodeReadArgs(c *Call) []string {
	var out []string
	for i, a := range c.Args {
		if i > 0 && strings.HasPrefix(c.Args[i-1], "--env-file") {
			continue
		}
		if !strings.HasPrefix(a, "-") {
			out = append(out, a)
		}
	}
	return out
}

// plainReadArgs: the operands, the values of --opt=v and the files of
// k=v words (dd if=.env), but the keys a program that is not a key
// reader (keyReaders) uses rather than reads out.
func plainReadArgs(c *Call) []string {
	var out []string
	consumer := !slices.Contains(keyReaders, c.Ex.Name)
	for i, a := range c.Args {
		if strings.HasPrefix(a, "-") {
			if k, v, ok := strings.Cut(a, "="); ok && strings.HasPrefix(a, "--") && !(consumer && keyOption(k)) {
				out = append(out, v)
			}
			continue
		}
		if consumer && usedKey(c.Ex.Name, c.Args, i) {
			continue
		}
		if k, v, ok := strings.Cut(a, "="); ok && k != "" && !strings.ContainsAny(k, "/.") {
			out = append(out, a, v) // dd if=.env
			continue
		}
		out = append(out, a)
	}
	return out
}

// usedKey reports whether args[i] of a program that is not a key reader
// is a key it uses rather than reads out: openssl req -key k.pem,
// gunicorn --keyfile k.pem, csc /keyfile:k.snk, packer -var
// ssh_private_key_file=k. wget -i f requests every line of f: its content
// goes to the network (and into the error messages), it is not a key
// used.
func usedKey(program string, args []string, i int) bool {
	a := args[i]
	if i > 0 && strings.HasPrefix(args[i-1], "-") && !strings.Contains(args[i-1], "=") && keyOption(args[i-1]) && !(program == "wget" && args[i-1] == "-i") {
		return true
	}
	if strings.HasPrefix(a, "/") && strings.Contains(a, ":") && keyOption(a[:strings.IndexByte(a, ':')]) {
		return true
	}
	k, _, ok := strings.Cut(a, "=")
	return ok && k != "" && !strings.ContainsAny(k, "/.") && keyOption(k)
}

// checkCredentialFile: reading, copying, printing or destroying credential
// files (SSH keys, cloud credentials, .env files but not their examples).
func checkCredentialFile(c *Call) Finding {
	if f := c.redirectedCredential(); f.Hit {
		return f
	}
	if f := c.containerSecretCopied(); f.Hit {
		return f
	}
	if c.Ex.Name == "" || slices.Contains(safeWithSecrets, c.Ex.Name) {
		return Finding{}
	}
	if f := c.teeOverwritesCredential(); f.Hit && !c.newKeyInWorkspace() {
		return f
	}
	if grepsNoContent(c) || printsNamesOnly(c) || usesCredentialUnshown(c) || c.showsRedactedHomeFile() {
		return Finding{}
	}
	if f := c.credentialArgRead(); f.Hit {
		return f
	}
	return c.codeOpensCredential()
}

// redactedViewers print a file's lines to the tool's output, and do
// nothing else with them.
var redactedViewers = []string{"cat", "head", "tail", "grep", "egrep", "fgrep", "rg"}

// showsRedactedHomeFile: cat ~/.npmrc, grep registry ~/.npmrc on a host
// whose tool output the guard redacts (Context.OutputRedacted). npm's
// file holds registry settings beside its tokens, and its tokens are known
// values (internal/secrets/known reads it), so the AfterTool hook hides
// them from the model: the settings are shown, no secret is. Only a viewer
// whose output goes straight to the tool's output (no redirection, pipe or
// capture), and whose every file operand is such a file; on Antigravity
// CLI, which cannot redact, it stays denied.
func (c *Call) showsRedactedHomeFile() bool {
	if !c.Ctx.OutputRedacted || c.Ctx.Home == "" || !slices.Contains(redactedViewers, c.Ex.Name) {
		return false
	}
	if len(c.Res.OutputTakers(c.Ex)) > 0 || c.Res.Captured(c.Ex) {
		return false
	}
	for _, r := range c.Ex.Redirs {
		if !r.Reads() {
			return false
		}
	}
	files := 0
	for _, e := range c.effectsOf() {
		if e.Kind != effects.Read && e.Kind != effects.Stat {
			continue
		}
		rel, ok := strings.CutPrefix(e.Path, c.Ctx.Home+"/")
		if !ok || !slices.Contains(credpaths.HomeFiles, rel) {
			return false // another file
		}
		files++
	}
	return files > 0
}

// redirectedCredential: a credential file read (< f) or overwritten (> f)
// through a redirection. Writing .env/.envrc with ordinary configuration
// is left to the secrets guard, which scans what is written; emptying it
// (> .env) destroys the secrets it holds.
func (c *Call) redirectedCredential() Finding {
	for _, r := range c.Ex.Redirs {
		if !r.Reads() && !r.Truncates() {
			continue
		}
		p := c.resolve(r.Target)
		what, ok := c.Ctx.credential(c.Res, p)
		if !ok {
			continue
		}
		verb := "reads"
		if !r.Reads() {
			verb = "overwrites"
			if credpaths.EnvFileRe.MatchString(path.Base(p)) && !outputEmpty(c) {
				continue
			}
		}
		return hit(verb + " " + what + " (" + r.Op + " " + c.Show(r.Target) + ")")
	}
	return Finding{}
}

// containerSecretCopied: docker cp web:/run/secrets/db ./pw, a secret
// copied out of a container.
func (c *Call) containerSecretCopied() Finding {
	if c.Ex.Name != "docker" && c.Ex.Name != "podman" && c.Ex.Name != "nerdctl" {
		return Finding{}
	}
	cmd := c.Cmd()
	words := cmd.Words
	if cmd.Leads("container", "cp") {
		words = words[1:]
	}
	if len(words) > 2 && words[0] == "cp" {
		if _, src, ok := strings.Cut(words[1], ":"); ok {
			if what, ok := c.Ctx.credential(c.Res, src); ok {
				return hit(c.Ex.Name + " cp copies " + what + " out of the container")
			}
		}
	}
	return Finding{}
}

// teeOverwritesCredential: tee without -a empties the credential files
// it is given.
func (c *Call) teeOverwritesCredential() Finding {
	if c.Ex.Name != "tee" || hasArg(c.Args, "-a", "--append") {
		return Finding{}
	}
	for _, a := range operands(c.Args) {
		if what, ok := c.Ctx.credential(c.Res, c.resolve(a)); ok {
			return hit("tee overwrites " + what)
		}
	}
	return Finding{}
}

// usesCredentialUnshown says whether a credential tool uses the file it is
// given without printing a secret of it: keepassxc-cli listing entries or
// showing one with its protected attributes hidden (no -s, -a, -t),
// security import of a project's signing identity into a keychain,
// htpasswd -v verifying a password.
func usesCredentialUnshown(c *Call) bool {
	ops := operands(c.Args)
	if len(ops) == 0 {
		return false
	}
	switch c.Ex.Name {
	case "keepassxc-cli":
		return slices.Contains([]string{"ls", "search", "locate", "db-info", "show"}, ops[0]) &&
			!hasArg(c.Args, "-s", "--show-protected", "-a", "--attributes", "-t", "--totp", "--all")
	case "security":
		return ops[0] == "import" && len(ops) > 1 && c.Loc(ops[1]).Place == InWorkspace // a project's signing identity
	case "htpasswd":
		return hasArg(c.Args, "-v") // verifies a password, prints no hash
	}
	return false
}

// keyGenerators print a new private key or secret on standard output.
var keyGenerators = [][]string{{"wg", "genkey"}, {"wg", "genpsk"}, {"openssl", "genpkey"}, {"openssl", "genrsa"}, {"openssl", "rand"}, {"age-keygen"}}

// newKeyInWorkspace says whether tee writes a key generated on the same
// line (wg genkey | tee ./test/wg.key) to files inside the workspace: a
// new key written into the project, not a credential read or lost.
func (c *Call) newKeyInWorkspace() bool {
	if c.Ex.Stdin == nil || !slices.ContainsFunc(c.Ex.Stdin.Producers, isKeyGenerator) {
		return false
	}
	for _, a := range operands(c.Args) {
		if l := c.Loc(a); l.Place != InWorkspace || l.Maybe {
			return false
		}
	}
	return true
}

func isKeyGenerator(ex *shell.Exec) bool {
	return slices.ContainsFunc(keyGenerators, func(g []string) bool {
		if ex.Name != g[0] {
			return false
		}
		cmd := effects.ParseCommand(ex.Name, ex.Args[1:], ex.Env)
		return cmd.Leads(g[1:]...)
	})
}

// credentialDestroyers destroy the files they are given.
var credentialDestroyers = []string{"rm", "unlink", "shred", "truncate", "srm"}

// credentialArgRead: a credential file among the files the call reads,
// copies or destroys (readArgs), or a file whose name is decoded at run
// time. A history searched by a filter is secrets.hunt's to judge (grep
// docker ~/.bash_history).
func (c *Call) credentialArgRead() Finding {
	name := c.Ex.Name
	for _, a := range readArgs(c) {
		if c.decodedName(a) {
			return hit(name + " opens a file whose name is decoded at run time (" + c.Show(a) + "), hiding which file it is")
		}
		what, ok := c.credentialArg(a)
		if !ok || isHistoryFile(a) && filtersOutput(c) || c.agentKeyKeptLocal(a) || c.envKeptInWorkspace(a) {
			continue
		}
		verb := "reads or copies"
		if slices.Contains(credentialDestroyers, name) {
			verb = "destroys"
		}
		return hit(name + " " + verb + " " + what)
	}
	return Finding{}
}

// agentKeyKeptLocal says whether a is a key the agent made itself in the
// workspace (this session, as it left it: Context.AgentMade; or earlier
// in the same line, not on disk yet: openssl req -keyout k … && cat k
// crt > pem) and the call's output is not shown: the user's credential is
// not read, and the model sees nothing of it. Printed, it is still
// denied: the key may be deployed, and the transcript keeps it.
func (c *Call) agentKeyKeptLocal(a string) bool {
	if l := c.Loc(a); l.Place != InWorkspace || l.Maybe {
		return false
	}
	p := c.resolve(a)
	made := c.Ctx.AgentMade != nil && c.Ctx.AgentMade(p)
	if !made {
		_, err := c.Ctx.fs().Lstat(p)
		made = err != nil && writtenEarlier(c, p)
	}
	if !made {
		return false
	}
	return c.outputStaysInWorkspace()
}

// envKeptInWorkspace says whether a is a .env file of the workspace that
// the call edits in place (sed -i, read by sed's spec) or moves or copies
// to another name in the workspace (mv .env .env.bak): its values stay in
// the workspace and nothing of it is shown. What the edit or the copy
// makes of a .env is guard.tamper's to judge.
func (c *Call) envKeptInWorkspace(a string) bool {
	if !credpaths.EnvFileRe.MatchString(path.Base(c.resolve(a))) {
		return false
	}
	if l := c.Loc(a); l.Place != InWorkspace || l.Maybe {
		return false
	}
	if len(c.Res.OutputTakers(c.Ex)) > 0 || slices.ContainsFunc(c.Ex.Redirs, func(r shell.Redir) bool { return r.Writes() && r.Fd != "2" }) {
		return false
	}
	p, ok := effects.Parse(c.Ex.Name, c.Args)
	if !ok {
		return false
	}
	switch c.Ex.Name {
	case "sed", "gsed":
		// In place, and no w command writing elsewhere or e running one.
		return p.Has("i", "in-place") && !p.Has("f", "file") && !shell.SedWritesOrRuns(strings.Join(sedScripts(p), "\n"))
	case "mv", "cp":
		if len(p.Operands) < 2 {
			return false
		}
		l := c.Loc(p.Operands[len(p.Operands)-1])
		return l.Place == InWorkspace && !l.Maybe
	}
	return false
}

// outputStaysInWorkspace says whether the call's standard output goes
// only into files of the workspace: redirected there (the last redirection
// of descriptor 1 wins, as in bash), and not piped into another command.
func (c *Call) outputStaysInWorkspace() bool {
	if len(c.Res.OutputTakers(c.Ex)) > 0 {
		return false
	}
	to := ""
	for _, r := range c.Ex.Redirs {
		if !r.Writes() || r.Fd != "" && r.Fd != "1" && !strings.HasPrefix(r.Op, "&") {
			continue
		}
		to = r.Target
	}
	if to == "" {
		return false
	}
	l := c.Loc(to)
	return l.Place == InWorkspace && !l.Maybe
}

// decodedName reports whether the word a is made by a decoder at run time
// (cat "$(echo LmVudg== | base64 -d)").
func (c *Call) decodedName(a string) bool {
	for _, u := range c.Res.Unknowns(a) {
		if u.Kind == shell.CommandOutput && slices.ContainsFunc(u.Execs, isDecoder) {
			return true
		}
	}
	return false
}

// codeOpensCredential: a credential file named by a string literal of
// the call's interpreter code.
func (c *Call) codeOpensCredential() Finding {
	for _, l := range c.Ex.CodeLiterals {
		if strings.ContainsAny(l, "\n ") || len(l) > 4096 {
			continue
		}
		if what, ok := c.Ctx.credential(c.Res, c.resolve(l)); ok {
			return hit(c.Ex.Name + " code opens " + what)
		}
	}
	return Finding{}
}

// filtersOutput reports a grep, or a reader whose every output goes to a
// grep: what it shows of a history is the lines a pattern picks, which
// secrets.hunt judges (grep -i token ~/.bash_history is a hunt, grep docker
// is not).
func filtersOutput(c *Call) bool {
	isGrep := func(n string) bool {
		switch n {
		case "grep", "egrep", "fgrep", "rg", "ag", "ack", "ugrep":
			return true
		}
		return false
	}
	if isGrep(c.Ex.Name) {
		return true
	}
	takers := c.Res.OutputTakers(c.Ex)
	return len(takers) > 0 && !slices.ContainsFunc(takers, func(t *shell.Exec) bool { return !isGrep(t.Name) })
}

// credentialArg checks one argument, including the file pattern that a
// find -exec {} stands for.
func (c *Call) credentialArg(a string) (string, bool) {
	if a == "" || c.keyHandedToSSH(a) {
		return "", false
	}
	for _, u := range c.Res.Unknowns(a) {
		if u.Kind == shell.Input && u.Name != "" && !strings.ContainsAny(u.Name, "*?[ ") {
			if what, ok := c.Ctx.credential(c.Res, u.Name); ok {
				return what + " (an item the command reads at run time)", true
			}
		}
	}
	return c.Ctx.credential(c.Res, c.resolve(a))
}

// sentSecretFile says whether a file a sender reads (an upload, a body, a
// redirection) holds secrets: a credential file, or one of the machine's
// own credential stores (/etc/shadow, keyrings), which checkSystemStore
// judges for readers but a sender reads through its own options.
func (c *Call) sentSecretFile(a string) (string, bool) {
	if what, ok := c.credentialArg(a); ok {
		return what, true
	}
	if p := c.resolve(a); strings.HasPrefix(p, "/proc/") && strings.HasSuffix(p, "/environ") {
		return p + ", a process's whole environment", true
	}
	return systemStore(c.resolve(a))
}

// readsClipboard reports a program that prints the clipboard, where
// password managers and users put the password they are about to paste.
func readsClipboard(ex *shell.Exec) bool {
	switch ex.Name {
	case "pbpaste", "wl-paste", "termux-clipboard-get":
		return true
	case "xclip":
		return hasArg(ex.Args[1:], "-o", "-out")
	case "xsel":
		return !hasArg(ex.Args[1:], "-i", "--input", "-a", "--append", "-c", "--clear", "-d", "--delete")
	case "osascript":
		// AppleScript's "the clipboard" read, not set ("set the clipboard to").
		return slices.ContainsFunc(ex.Args[1:], func(a string) bool {
			return strings.Contains(a, "the clipboard") && !strings.Contains(a, "set the clipboard")
		})
	}
	return false
}

// keyHandedToSSH reports whether a is an ssh command line or a list of ssh
// options (rsync -e 'ssh -i k', mosh --ssh='ssh -i k', borg --rsh,
// --ssh-extra-args='-i k', svn's tunnels:ssh=) in which every credential is
// the identity file ssh is given (-i k, -ik, IdentityFile=k): the key is
// handed to the program that uses it, as in ssh -i k, not read out.
func (c *Call) keyHandedToSSH(a string) bool {
	words := strings.Fields(a)
	if len(words) < 2 {
		return false
	}
	handed := false
	for i, w := range words {
		if _, ok := c.Ctx.credential(c.Res, c.resolve(w)); !ok {
			continue
		}
		switch {
		case i > 0 && slices.Contains(sshFileOptions, words[i-1]),
			strings.HasPrefix(w, "-i") && !strings.HasPrefix(w, "-i="),
			sshFileSetting(w):
			handed = true
		default:
			return false
		}
	}
	return handed
}

// sshFileOptions are ssh's (and scp's, sftp's) options whose value is a
// file ssh itself uses: identity, config, log, control socket.
var sshFileOptions = []string{"-i", "-F", "-E", "-S"}

// sshFileSetting reports an ssh -o setting naming a file ssh uses
// (IdentityFile=k, UserKnownHostsFile=f, CertificateFile=c, -oIdentityFile=k).
func sshFileSetting(w string) bool {
	k, _, ok := strings.Cut(strings.ToLower(strings.TrimPrefix(w, "-o")), "=")
	return ok && (strings.HasSuffix(k, "file") || strings.HasSuffix(k, "path"))
}

// resolve makes a path argument absolute where possible (tilde included).
func (c *Call) resolve(a string) string {
	if c.Ctx.Home != "" && (a == "~" || strings.HasPrefix(a, "~/")) {
		a = c.Ctx.Home + a[1:]
	}
	if p := shell.ResolvePath(c.Ex.Dir, a); p != "" {
		return p
	}
	return a
}

// envDumpers print every environment variable, secrets included.
func isEnvDump(ex *shell.Exec) bool {
	switch ex.Name {
	case "env", "printenv":
		return len(operands(ex.Args[1:])) == 0 || ex.Name == "printenv"
	case "set", "export", "declare", "typeset", "compgen":
		return len(ex.Args) == 1 || hasArg(ex.Args[1:], "-p", "-x", "-v")
	}
	return false
}

// tighteningMode reports a chmod mode that grants nothing to group and
// others (600, 0400, 700, go-rwx).
func tighteningMode(m string) bool {
	if m != "" && m[0] >= '0' && m[0] <= '7' {
		return len(m) >= 3 && strings.HasSuffix(m, "00")
	}
	who, _, ok := strings.Cut(m, "-")
	return ok && who != "" && strings.Trim(who, "go") == ""
}

// RuleCredentialFile is the id of the rule that guards credential files.
const RuleCredentialFile = "secrets.credential-file"

// CredentialFile says whether reading the file at p puts a credential in
// the reader's hands, and what it is ("the environment file .env"): the
// judgement secrets.credential-file makes of a shell command that reads p,
// for a file opened some other way (Antigravity CLI's view_file, whose
// output the guard cannot redact). p is absolute, or relative with only
// its name and directories to go by; home is the user's home directory
// ("" if unknown). A path holding the analyser's private marker runes is
// judged by its name alone, as an unknown shell word is.
func CredentialFile(p, home string) (what string, ok bool) {
	if p == "" {
		return "", false
	}
	p = path.Clean(strings.ReplaceAll(p, `\`, "/"))
	c := Context{Home: cleanAbs(home)}
	return c.credential(&shell.Result{}, p)
}

// CredentialRule is secrets.credential-file.
func CredentialRule() *Rule {
	for _, r := range Rules() {
		if r.ID == RuleCredentialFile {
			return r
		}
	}
	panic("policy: no rule " + RuleCredentialFile)
}

package policy

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/lazyregexp"
	"github.com/gemini-guard/gemini-guard/internal/shell"
)

// Code nobody has read, run from the network: piped into a shell
// (rce.pipe-to-shell), decoded on the way (rce.decode-to-shell), read from
// input (rce.input-as-code), or downloaded by one command and run by a
// later one (rce.download-then-run).

// networkFetchers print data from the network on their standard output (or
// into files).
var networkFetchers = []string{
	"curl", "wget", "fetch", "http", "https", "xh", "xhs", "aria2c",
	"lwp-request", "lwp-download", "get", "nc", "ncat", "netcat", "socat",
	"telnet", "ftp", "tftp", "ssh", "invoke-webrequest", "iwr", "irm",
	"invoke-restmethod", "gh", "s3cmd", "lynx", "links", "elinks", "w3m",
}

// isDecoder reports whether ex turns encoded or compressed input into
// something else: piped into a shell, it hides the code from review.
func isDecoder(ex *shell.Exec) bool {
	args := ex.Args
	has := func(flags ...string) bool {
		for _, a := range args[1:] {
			for _, f := range flags {
				if a == f || strings.HasPrefix(f, "-") && !strings.HasPrefix(f, "--") && strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, f[1:]) {
					return true
				}
			}
		}
		return false
	}
	switch ex.Name {
	case "base64", "base32", "basenc":
		return has("-d", "-D", "--decode")
	case "xxd":
		return has("-r", "-revert")
	case "openssl":
		return has("-d", "-base64", "-a", "base64", "enc")
	case "b64decode", "uudecode", "gunzip", "zcat", "bunzip2", "bzcat", "unxz", "xzcat", "unzstd", "zstdcat", "lzcat", "unlzma":
		return true
	case "gzip", "bzip2", "xz", "zstd", "lzma", "brotli", "lz4":
		return has("-d", "--decompress", "--uncompress")
	}
	return false
}

// sourcesOf lists the commands a hazard's code comes from, following pipes
// upstream (curl x | tee f | sh: curl and tee).
func sourcesOf(h *shell.Hazard) []*shell.Exec {
	var out []*shell.Exec
	seen := map[*shell.Exec]bool{}
	var visit func(ex *shell.Exec, depth int)
	visit = func(ex *shell.Exec, depth int) {
		if ex == nil || seen[ex] || depth > 16 {
			return
		}
		seen[ex] = true
		out = append(out, ex)
		if ex.Stdin != nil {
			for _, p := range ex.Stdin.Producers {
				visit(p, depth+1)
			}
		}
	}
	for _, s := range h.Sources {
		visit(s, 0)
	}
	return out
}

func checkRemoteCode(h *shell.Hazard, _ *Context) Finding {
	if h.Kind != shell.DynamicCode {
		return Finding{}
	}
	for _, s := range sourcesOf(h) {
		if slices.Contains(networkFetchers, s.Name) {
			return hit(fmt.Sprintf("runs code fetched from the network by %s without anyone reading it", s.Name))
		}
	}
	return Finding{}
}

func checkDecodedCode(h *shell.Hazard, _ *Context) Finding {
	if h.Kind == shell.InterpreterCode && codeDecodeRe.MatchString(h.Text) && (runsCommandsRe.MatchString(h.Text) || evalRe.MatchString(h.Text)) {
		// os.system(base64.b64decode('…').decode()), eval(atob('…')).
		return hit(h.Interpreter + " code decodes text and runs or evaluates it, hidden from review")
	}
	if h.Kind != shell.DynamicCode {
		return Finding{}
	}
	for _, s := range sourcesOf(h) {
		if isDecoder(s) {
			return hit(fmt.Sprintf("runs code decoded by %s, hidden from review", s.Name))
		}
	}
	return Finding{}
}

func checkInputAsCode(h *shell.Hazard, _ *Context) Finding {
	if h.Kind == shell.DynamicCode && h.FromInput {
		return hit("runs data read at run time as shell code (" + h.Detail + "): a file name or line like $(rm -rf ~) would execute")
	}
	if h.Kind == shell.DynamicCode && slices.ContainsFunc(sourcesOf(h), readsClipboard) {
		// Whatever was last copied, from a web page or a message, runs.
		return hit("runs the clipboard's content as code (" + h.Detail + "), which nobody on this command line wrote or read")
	}
	return Finding{}
}

// downloads returns the files a curl or wget call writes.
func downloads(ex *shell.Exec) []string {
	d := &download{ex: ex, args: ex.Args[1:], dir: ex.Dir}
	for _, r := range ex.Redirs {
		if r.Writes() && r.Target != "" {
			d.out = append(d.out, shell.ResolvePath(ex.Dir, r.Target))
		}
	}
	opt := d.otherOpt
	switch ex.Name {
	case "curl":
		opt = d.curlOpt
	case "wget":
		opt = d.wgetOpt
	}
	for d.i = 0; d.i < len(d.args); d.i++ {
		if a := d.args[d.i]; !opt(a) && strings.Contains(a, "://") {
			d.urls = append(d.urls, a)
		}
	}
	if ex.Name != "curl" && ex.Name != "wget" && len(d.out) == 0 {
		d.remoteName = true // downloaders that keep the remote name by default
	}
	if d.remoteName || ex.Name == "wget" && len(d.out) == 0 {
		for _, u := range d.urls {
			for _, name := range remoteNames(u) {
				d.out = append(d.out, shell.ResolvePath(d.dir, name))
			}
		}
	}
	return d.out
}

// download is a downloader's command line read word by word: the files it
// writes, the URLs it fetches, whether it names files after them, and
// the directory it saves into.
type download struct {
	ex         *shell.Exec
	args       []string
	i          int
	out, urls  []string
	remoteName bool
	dir        string
}

// next consumes and returns the word after the current one, "" at the end.
func (d *download) next() string {
	if d.i+1 < len(d.args) {
		d.i++
		return d.args[d.i]
	}
	return ""
}

// file adds an output file named relative to the command's directory.
func (d *download) file(p string) { d.out = append(d.out, shell.ResolvePath(d.ex.Dir, p)) }

// curlOpt reads curl's output options (-o f, -so f, -of, -O,
// --output-dir d); false for any other word.
func (d *download) curlOpt(a string) bool {
	short := len(a) > 2 && a[0] == '-' && a[1] != '-'
	switch {
	case a == "-o" || a == "--output":
		d.file(d.next())
	case short && strings.HasSuffix(a, "o"): // -so, -fsSLo
		d.file(d.next())
	case short && strings.HasPrefix(a, "-o"):
		d.file(a[2:])
	case a == "-O" || a == "--remote-name" || a == "--remote-name-all" || strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, "O"):
		d.remoteName = true
	case a == "--output-dir":
		d.dir = shell.ResolvePath(d.ex.Dir, d.next())
	default:
		return false
	}
	return true
}

// wgetOpt reads wget's output options (-O f, -qO f, -Of,
// --output-document=f, -P d); false for any other word.
func (d *download) wgetOpt(a string) bool {
	switch {
	case a == "-O" || a == "--output-document":
		d.file(d.next())
	case strings.HasPrefix(a, "--output-document="):
		d.file(strings.TrimPrefix(a, "--output-document="))
	case len(a) > 2 && a[0] == '-' && a[1] != '-' && strings.HasSuffix(a, "O"): // -qO, -nvO
		d.file(d.next())
	case strings.HasPrefix(a, "-O") && len(a) > 2:
		d.file(a[2:])
	case a == "-P" || a == "--directory-prefix":
		d.dir = shell.ResolvePath(d.ex.Dir, d.next())
	default:
		return false
	}
	return true
}

// downloaderOutputOpts name the output file of other downloaders (aria2c
// -o, xh -o, http --output).
var downloaderOutputOpts = []string{"-o", "-O", "--output", "--out", "--output-document", "--output-file"}

// otherOpt reads another downloader's output options and its output
// operand after a URL (lwp-download URL FILE, fetch URL FILE); false for
// a URL and any other word.
func (d *download) otherOpt(a string) bool {
	switch {
	case strings.Contains(a, "://"):
		return false
	case slices.Contains(downloaderOutputOpts, a):
		d.out = append(d.out, shell.ResolvePath(d.dir, d.next()))
	case d.ex.Name == "aria2c" && (a == "-d" || a == "--dir" || a == "--directory"):
		d.dir = shell.ResolvePath(d.ex.Dir, d.next())
	case !strings.HasPrefix(a, "-") && len(d.urls) > 0:
		d.out = append(d.out, shell.ResolvePath(d.dir, a))
	default:
		return false
	}
	return true
}

// remoteNames returns the names a download of u may be saved under: the
// last segment of its path as written (curl -O) and percent-decoded (wget).
//
// It splits the URL itself rather than calling net/url: linking net/url
// runs net/netip's package initialisation in every shell hook process
// (~0.05 ms, a tenth of what the whole analysis may cost), for a split at
// '/', '?' and '#' and a percent-decoding.
func remoteNames(u string) []string {
	_, rest, ok := strings.Cut(u, "://")
	if !ok {
		return nil
	}
	slash := strings.IndexByte(rest, '/')
	if slash < 0 || strings.ContainsAny(rest[:slash], "?#") {
		return nil // no path
	}
	p := rest[slash:]
	if end := strings.IndexAny(p, "?#"); end >= 0 {
		p = p[:end]
	}
	var names []string
	for _, cand := range []string{p, percentDecode(p)} {
		name := path.Base(cand)
		if name != "/" && name != "." && !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	return names
}

// percentDecode decodes %XX escapes, leaving malformed ones as they are.
func percentDecode(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	unhex := func(c byte) (byte, bool) {
		switch {
		case '0' <= c && c <= '9':
			return c - '0', true
		case 'a' <= c && c <= 'f':
			return c - 'a' + 10, true
		case 'A' <= c && c <= 'F':
			return c - 'A' + 10, true
		}
		return 0, false
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) {
			hi, ok1 := unhex(s[i+1])
			lo, ok2 := unhex(s[i+2])
			if ok1 && ok2 {
				b.WriteByte(hi<<4 | lo)
				i += 2
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// compilesOnly reports a python -m of a module that reads its file
// operands without running them (py_compile, compileall, tokenize, ...).
func compilesOnly(ex *shell.Exec) bool {
	if shell.Interpreter(ex.Name) != "python" {
		return false
	}
	for i, a := range ex.Args[1:] {
		mod, ok := strings.CutPrefix(a, "-m")
		if !ok {
			continue
		}
		if mod == "" && i+2 < len(ex.Args) {
			mod = ex.Args[i+2]
		}
		return slices.Contains([]string{"py_compile", "compileall", "tokenize", "tabnanny", "pyclbr", "json.tool", "base64", "zipfile", "tarfile", "gzip", "hashlib"}, mod)
	}
	return false
}

// fedByFetcher reports whether ex reads the output of a network fetcher,
// directly or through filters.
func fedByFetcher(ex *shell.Exec) bool {
	for depth := 0; ex != nil && ex.Stdin != nil && depth < 8; depth++ {
		if len(ex.Stdin.Producers) != 1 {
			return false
		}
		ex = ex.Stdin.Producers[0]
		if slices.Contains(networkFetchers, ex.Name) {
			return true
		}
	}
	return false
}

// writtenFiles returns the files a filter writes: its redirections, tee's
// operands, dd's of=.
func writtenFiles(ex *shell.Exec) []string {
	var out []string
	for _, r := range ex.Redirs {
		if r.Writes() && r.Target != "" {
			out = append(out, shell.ResolvePath(ex.Dir, r.Target))
		}
	}
	switch ex.Name {
	case "tee":
		for _, o := range operands(ex.Args[1:]) {
			out = append(out, shell.ResolvePath(ex.Dir, o))
		}
	case "dd":
		for _, a := range ex.Args[1:] {
			if v, ok := strings.CutPrefix(a, "of="); ok {
				out = append(out, shell.ResolvePath(ex.Dir, v))
			}
		}
	}
	return out
}

// installsPackageFiles reports a package manager that installs a package
// file given as an operand and runs its install scripts (a .deb's
// maintainer scripts, an RPM's scriptlets, a gem's or wheel's build).
func installsPackageFiles(name string) bool {
	switch name {
	case "dpkg", "apt", "apt-get", "rpm", "dnf", "yum", "zypper", "pacman", "gem", "pip", "pip3", "pipx", "npm", "pnpm", "yarn", "bun", "snap", "flatpak", "installer", "pkg", "brew":
		return true
	}
	return false
}

// codeDecodeRe finds interpreter code decoding base64, hex or compressed
// text.
var codeDecodeRe = &lazyregexp.Regexp{Expr: `(?i)(b64decode|b32decode|a85decode|base64\.decode|decodebytes|atob\s*\(|Buffer\.from\s*\([^)]*['"](base64|hex)['"]|base64_decode|decode_base64|unpack\s*\(\s*['"]m|Base64\.decode64|strict_decode64|FromBase64String|bytes\.fromhex|unhexlify|zlib\.decompress|codecs\.decode\s*\([^)]*rot)`}

// checkDownloadRun: a file downloaded by one command and run by a later one
// is remote code execution in two steps.
func checkDownloadRun(res *shell.Result, _ *Context) (Finding, *shell.Exec) {
	downloaded := map[string]bool{}
	for _, ex := range res.Execs {
		if ex.Name == "yadm" && hasArg(ex.Args, "clone") && hasArg(ex.Args, "--bootstrap", "-b") {
			return hit("yadm clone --bootstrap runs the bootstrap script of a repository it has just cloned, without anyone reading it"), ex
		}
		if slices.Contains(networkFetchers, ex.Name) || windowsDownloader(ex) {
			addKnownPaths(downloaded, downloads(ex))
			continue
		}
		codeDownloads(ex, downloaded)
		if f := runsFetchedCode(ex, res); f.Hit {
			return f, ex
		}
		if fedByFetcher(ex) {
			// curl … | tee f, curl … | cat > f, curl … | dd of=f: what it
			// writes is the download.
			addKnownPaths(downloaded, writtenFiles(ex))
		}
		if f := runsDownloaded(ex, downloaded); f.Hit {
			return f, ex
		}
	}
	return Finding{}, nil
}

// scriptOptions are the options through which a program is handed a
// file of code it runs: a makefile's recipes, an awk or sed program, gdb
// commands, a vim script.
var scriptOptions = []namedList{
	{"make", []string{"-f", "--file", "--makefile"}}, {"gmake", []string{"-f", "--file", "--makefile"}}, {"bmake", []string{"-f"}},
	{"just", []string{"-f", "--justfile"}}, {"rake", []string{"-f", "--rakefile"}}, {"awk", []string{"-f"}}, {"gawk", []string{"-f"}}, {"mawk", []string{"-f"}},
	{"sed", []string{"-f"}}, {"gdb", []string{"-x"}}, {"vim", []string{"-S"}}, {"nvim", []string{"-S"}},
}

// runsFetchedCode: code a network fetcher prints run by a program the
// analysis does not read as a shell: a file of code handed as
// <(curl …) (make -f <(curl -s URL)), or a privileged container's shell
// reading it on its standard input (curl URL | docker run -i --privileged
// -v /:/host alpine sh).
func runsFetchedCode(ex *shell.Exec, res *shell.Result) Finding {
	opts := listOf(scriptOptions, ex.Name)
	for i := 1; i+1 < len(ex.Args); i++ {
		if slices.Contains(opts, ex.Args[i]) && fetchedFile(res, ex.Args[i+1]) {
			return hit(ex.Name + " " + ex.Args[i] + " runs code fetched from the network, without anyone reading it")
		}
	}
	if slices.Contains(containerCommands, ex.Name) && privilegedContainer(ex.Name, ex.Args[1:]) && fedByFetcher(ex) {
		if ops := operands(ex.Args[1:]); len(ops) > 0 && shell.IsShell(shell.CommandName(ops[len(ops)-1])) {
			return hit(ex.Name + " runs a shell with the host's privileges on code fetched from the network, without anyone reading it")
		}
	}
	return Finding{}
}

// fetchedFile reports a word that is the /dev/fd file of a process
// substitution run by a network fetcher (<(curl -s URL)).
func fetchedFile(res *shell.Result, a string) bool {
	return slices.ContainsFunc(res.Unknowns(a), func(u *shell.Unknown) bool {
		return u.Kind == shell.ProcessFile && slices.ContainsFunc(u.Execs, func(p *shell.Exec) bool { return slices.Contains(networkFetchers, p.Name) })
	})
}

// windowsDownloader reports Windows' own downloaders, reached from WSL
// or Git Bash: certutil -urlcache … URL FILE, bitsadmin /transfer … URL
// FILE. They save the URL to the file named after it.
func windowsDownloader(ex *shell.Exec) bool {
	switch ex.Name {
	case "certutil":
		return slices.ContainsFunc(ex.Args[1:], func(a string) bool { return strings.EqualFold(strings.TrimLeft(a, "-/"), "urlcache") })
	case "bitsadmin":
		return slices.ContainsFunc(ex.Args[1:], func(a string) bool { return strings.EqualFold(a, "/transfer") || strings.EqualFold(a, "/download") })
	}
	return false
}

// addKnownPaths adds the known, non-empty paths to set.
func addKnownPaths(set map[string]bool, paths []string) {
	for _, p := range paths {
		if p != "" && shell.Known(p) {
			set[p] = true
		}
	}
}

// codeDownloads adds the files interpreter code downloads a URL to: php
// -r "copy('https://…/installer', 'setup.php');" writes to the files its
// other literals name.
func codeDownloads(ex *shell.Exec, downloaded map[string]bool) {
	if !(len(ex.CodeLiterals) > 0 && ex.CodeWrites || strings.Contains(ex.Text, "copy(") || strings.Contains(ex.Text, "urlretrieve")) {
		return
	}
	if !slices.ContainsFunc(ex.CodeLiterals, func(l string) bool { return strings.Contains(l, "://") }) {
		return
	}
	for _, l := range ex.CodeLiterals {
		if l != "" && !strings.ContainsAny(l, " \n") && !strings.Contains(l, "://") {
			downloaded[shell.ResolvePath(ex.Dir, l)] = true
		}
	}
}

// runsDownloaded: ex runs a file just downloaded, as the program or as
// the script of a shell, interpreter or package installer.
func runsDownloaded(ex *shell.Exec, downloaded map[string]bool) Finding {
	if len(downloaded) == 0 || len(ex.Args) == 0 {
		return Finding{}
	}
	if strings.Contains(ex.Args[0], "/") && downloaded[shell.ResolvePath(ex.Dir, ex.Args[0])] {
		return hit("runs " + ex.Args[0] + ", a file just downloaded from the network, without anyone reading it")
	}
	runsScripts := shell.IsShell(ex.Name) || ex.Name == "source" || ex.Name == "." || shell.Interpreter(ex.Name) != "" || installsPackageFiles(ex.Name)
	if !runsScripts || compilesOnly(ex) {
		return Finding{}
	}
	for _, a := range ex.Args[1:] {
		if a != "" && !strings.HasPrefix(a, "-") && downloaded[shell.ResolvePath(ex.Dir, a)] {
			return hit(ex.Name + " runs " + a + ", a file just downloaded from the network, without anyone reading it")
		}
	}
	return Finding{}
}

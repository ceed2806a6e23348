package policy

import (
	"path"
	"slices"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/shell"
)

// Credential files sent over the network or to the clipboard.

var networkSenders = []string{"curl", "wget", "nc", "ncat", "netcat", "socat", "telnet",
	"scp", "sftp", "rsync", "ftp", "http", "https", "xh", "ssh", "rclone",
	"aws", "gsutil", "s3cmd", "mail", "sendmail", "mutt"}

// checkExfiltrate: credential files or the whole environment sent to the
// network.
func checkExfiltrate(c *Call) Finding {
	ex := c.Ex
	if !slices.Contains(networkSenders, ex.Name) {
		return Finding{}
	}
	readsStdin := !slices.Contains([]string{"curl", "wget", "scp", "rsync"}, ex.Name)
	what, ok := "", false
	switch ex.Name {
	case "curl":
		var stdin bool
		what, ok, stdin = c.curlSentFile()
		readsStdin = readsStdin || stdin
	case "wget":
		what, ok = c.wgetSentFile()
	}
	if !ok {
		what, ok = c.copiedSecretFile()
	}
	if !ok {
		what, ok = c.redirectedSecretFile()
	}
	if !ok && readsStdin && ex.Stdin != nil {
		what, ok = c.stdinSecret()
	}
	if !ok {
		what, ok = c.searchedFilesSent()
	}
	if !ok {
		return Finding{}
	}
	return hit(ex.Name + " sends " + what + " over the network")
}

// curlSentFile is the first credential file curl uploads (-d @f, -F
// x=@f, -T f); stdin says whether it uploads its standard input (@-).
func (c *Call) curlSentFile() (what string, ok, stdin bool) {
	for i, a := range c.Args {
		v := curlDataValue(c.Args, i)
		if v == "" {
			continue
		}
		_, file, at := strings.Cut(v, "@")
		if !at && !strings.HasPrefix(a, "-T") && a != "--upload-file" {
			continue
		}
		if !at {
			file = v
		}
		file = strings.TrimPrefix(file, "<")
		if file == "-" {
			stdin = true
			continue
		}
		if what, ok := c.sentSecretFile(file); ok {
			return what, true, stdin
		}
	}
	return "", false, stdin
}

// curlDataValue is the value of curl's data, form or upload option at
// args[i] (-d v, --data=v, -dv), "" if there is none.
func curlDataValue(args []string, i int) string {
	a := args[i]
	switch {
	case slices.Contains(curlDataOpts, a) && i+1 < len(args):
		return args[i+1]
	case strings.HasPrefix(a, "--data") || strings.HasPrefix(a, "--form") || strings.HasPrefix(a, "--upload-file"):
		_, v, _ := strings.Cut(a, "=")
		return v
	case len(a) > 2 && (strings.HasPrefix(a, "-d") || strings.HasPrefix(a, "-F") || strings.HasPrefix(a, "-T")) && !strings.HasPrefix(a, "--"):
		return a[2:]
	}
	return ""
}

// wgetSentFile is the first credential file wget posts (--post-file,
// --body-file).
func (c *Call) wgetSentFile() (string, bool) {
	for i, a := range c.Args {
		f, ok := "", false
		if (a == "--post-file" || a == "--body-file") && i+1 < len(c.Args) {
			f, ok = c.Args[i+1], true
		} else if v, cut := strings.CutPrefix(a, "--post-file="); cut {
			f, ok = v, true
		} else if v, cut := strings.CutPrefix(a, "--body-file="); cut {
			f, ok = v, true
		}
		if !ok {
			continue
		}
		if what, ok := c.sentSecretFile(f); ok {
			return what, true
		}
	}
	return "", false
}

// copiedSecretFile is the first credential file a remote copy (scp,
// rsync, sftp, rclone) sends: any operand but the last.
func (c *Call) copiedSecretFile() (string, bool) {
	name := c.Ex.Name
	if name != "scp" && name != "rsync" && name != "sftp" && name != "rclone" {
		return "", false
	}
	ops := operands(c.Args)
	if name == "scp" || name == "sftp" {
		ops = sshOperands(c.Args)
	}
	for _, o := range ops[:max(0, len(ops)-1)] {
		if what, ok := c.sentSecretFile(o); ok {
			return what, true
		}
	}
	return "", false
}

// redirectedSecretFile is the first credential file redirected into the
// sender (nc host < ~/.ssh/id_rsa).
func (c *Call) redirectedSecretFile() (string, bool) {
	for _, r := range c.Ex.Redirs {
		if r.Reads() {
			if what, ok := c.sentSecretFile(r.Target); ok {
				return what, true
			}
		}
	}
	return "", false
}

// stdinSecret is what of a secret the commands piped into the sender
// write: the environment, the clipboard, an sftp batch's uploads, or a
// credential file they read.
func (c *Call) stdinSecret() (string, bool) {
	for _, p := range c.Ex.Stdin.Producers {
		if isEnvDump(p) {
			return "every environment variable, secrets included (from " + p.Name + ")", true
		}
		if readsClipboard(p) {
			return "the clipboard (from " + p.Name + "), where passwords are copied to be pasted", true
		}
		if what, ok := c.batchUpload(p); ok {
			return what, true
		}
		if what, ok := c.producerReadsSecret(p); ok {
			return what, true
		}
		if what, ok := c.homesStreamed(p); ok {
			return what, true
		}
	}
	return "", false
}

// homesDirs hold every user's home directory.
var homesDirs = []string{"/home", "/Users", "/usr/home", "/export/home"}

// archivers write the trees they are given to their standard output (tar
// czf -, cpio -o, pax -w).
var archivers = []string{"tar", "bsdtar", "gtar", "cpio", "pax", "zip", "7z", "7za", "dump"}

// homesStreamed is what of the homes or the whole file system p, piped
// into the sender, writes: an archive of /, home, a directory holding it
// or another user's home (tar czf - /home | ssh …), or a ZFS stream of a
// whole pool or its homes (zfs send -R zroot@snap | nc …): every file of
// them, the credentials in .ssh, .aws and the keychains included.
func (c *Call) homesStreamed(p *shell.Exec) (string, bool) {
	if len(p.Args) < 2 {
		return "", false
	}
	if p.Name == "zfs" && p.Args[1] == "send" {
		return zfsHomesSent(p.Args[2:])
	}
	if !slices.Contains(archivers, p.Name) {
		return "", false
	}
	for _, a := range p.Args[1:] {
		if where, ok := c.homesTree(p, a); ok {
			return "an archive of " + where + " (from " + p.Name + "), every credential in it included", true
		}
	}
	return "", false
}

// homesTree says whether a, a word of ex, is /, the home directory, a
// directory holding it, another user's home or the directory of every
// home, and names it.
func (c *Call) homesTree(ex *shell.Exec, a string) (string, bool) {
	l := c.Ctx.Classify(c.Res, ex.Dir, a)
	if l.Maybe {
		return "", false
	}
	switch {
	case l.Place == Root, l.Place == Home, l.Place == Ancestor:
		return l.Place.String(), true
	case slices.Contains(homesDirs, l.Path):
		return "every user's home (" + l.Path + ")", true
	case l.Place == OtherHome && (slices.Contains(homesDirs, path.Dir(l.Path)) || l.Path == "/root"):
		return "another user's home (" + l.Path + ")", true
	}
	return "", false
}

// zfsHomesSent judges zfs send's operands: a snapshot of a whole pool
// (zroot@snap, no dataset below the pool) or of a homes dataset
// (tank/home@now, zroot/usr/home@x).
func zfsHomesSent(args []string) (string, bool) {
	for _, o := range operands(args) {
		ds, _, ok := strings.Cut(o, "@")
		if !ok {
			continue
		}
		base := path.Base(ds)
		switch {
		case !strings.Contains(ds, "/"):
			return "a stream of the whole pool " + ds + " (zfs send), every file and credential in it", true
		case base == "home" || base == "Users":
			return "a stream of every home (zfs send " + o + ")", true
		}
	}
	return "", false
}

// searchedFilesSent is the search whose found files the sender uploads
// one by one (find ~/Documents -name '*.pdf' -exec curl -F f=@{} …,
// mdfind … | xargs -I{} curl -F f=@{} …): a search of home, another home,
// / or the whole machine's index, not of the workspace.
func (c *Call) searchedFilesSent() (string, bool) {
	if !slices.ContainsFunc(c.uploadedWords(), c.holdsInput) {
		return "", false
	}
	for _, e := range c.Res.Execs {
		if where, ok := c.wideFileSearch(e); ok {
			return "every file " + e.Name + " finds in " + where + ", one by one", true
		}
	}
	return "", false
}

// uploadedWords are the sender's words that name what it uploads: curl's
// data, form and upload values, a remote copy's operands but the last.
func (c *Call) uploadedWords() []string {
	if c.Ex.Name != "curl" {
		ops := operands(c.Args)
		return ops[:max(0, len(ops)-1)]
	}
	var out []string
	for i := range c.Args {
		if v := curlDataValue(c.Args, i); v != "" {
			out = append(out, v)
		}
	}
	return out
}

// holdsInput says whether a holds an item read at run time (find's {},
// xargs' input).
func (c *Call) holdsInput(a string) bool {
	return slices.ContainsFunc(c.Res.Unknowns(a), func(u *shell.Unknown) bool { return u.Kind == shell.Input })
}

// wideFileSearch says whether e searches home, another home, / or the
// whole machine for files, and where.
func (c *Call) wideFileSearch(e *shell.Exec) (string, bool) {
	switch e.Name {
	case "mdfind", "locate", "plocate", "mlocate":
		return "the whole machine's index", !hasArg(e.Args, "-onlyin")
	case "find":
		starts, _ := shell.FindStart(e.Args[1:])
		for _, s := range starts {
			switch l := c.Ctx.Classify(c.Res, e.Dir, s); l.Place {
			case Root, Home, InHome, OtherHome, Ancestor:
				return l.Place.String(), true
			}
		}
	}
	return "", false
}

// batchUpload is the first credential file an sftp or ftp batch printed
// by p uploads (echo 'put ~/.ssh/id_rsa' | sftp host).
func (c *Call) batchUpload(p *shell.Exec) (string, bool) {
	if c.Ex.Name != "sftp" && c.Ex.Name != "ftp" || p.Name != "echo" && p.Name != "printf" {
		return "", false
	}
	for _, a := range p.Args[1:] {
		f := strings.Fields(strings.ReplaceAll(a, `\n`, "\n"))
		for i := 1; i < len(f); i++ {
			if f[i-1] != "put" && f[i-1] != "mput" && f[i-1] != "append" {
				continue
			}
			if what, ok := c.sentSecretFile(f[i]); ok {
				return what, true
			}
		}
	}
	return "", false
}

// producerReadsSecret is the first credential file p, piped into the
// sender, reads (unless p is safe with secrets).
func (c *Call) producerReadsSecret(p *shell.Exec) (string, bool) {
	if p.Name == "" || slices.Contains(safeWithSecrets, p.Name) {
		return "", false
	}
	pc := &Call{Ex: p, Res: c.Res, Ctx: c.Ctx}
	if len(p.Args) > 0 {
		pc.Args = p.Args[1:]
	}
	for _, a := range readArgs(pc) {
		if what, ok := pc.sentSecretFile(a); ok {
			return what, true
		}
	}
	return "", false
}

// sshOperands are scp's and sftp's operands, without the values of their
// options (-i key, -F config, -o setting, -P port, -J jump host …).
func sshOperands(args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if len(a) == 2 && a[0] == '-' && strings.ContainsRune("BbcDFiJlLoPRSsX", rune(a[1])) {
			i++
			continue
		}
		if !strings.HasPrefix(a, "-") {
			out = append(out, a)
		}
	}
	return out
}

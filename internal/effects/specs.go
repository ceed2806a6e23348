package effects

import (
	"slices"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/shell"
)

// Role is what a program does with a file it is given.
type Role uint8

const (
	none Role = iota
	reads
	writes
	readsWrites
	deletes
	// moves: the operand is moved away (mv's sources, rename's files):
	// gone from where it was, but kept at the destination. It is a
	// Delete effect marked Moved; fs.move-away judges it, not the delete
	// rules.
	moves
	uses
	stats
	// lispCode: the value is Emacs Lisp (emacs --batch --eval CODE); the
	// file names among its strings are written when the code writes files.
	lispCode
)

// Value gives the role of an option's value (sort -o FILE writes FILE).
type Value struct {
	Opt  string
	Role Role
}

// Spec describes what a known program does with its operands and option
// values. Its options are parsed by shell.ParseArgs.
type Spec struct {
	Names []string
	Opts  shell.OptSpec
	// Operands is the role of every operand.
	Operands Role
	// Skip leading operands are not files (grep PATTERN), unless one of
	// SkipUnless is given (grep -e PATTERN, sed -f SCRIPT).
	Skip       int
	SkipUnless []string
	// Last is the role of the last of two or more operands (cp's
	// destination); the others keep Operands.
	Last Role
	// InPlace are options that make the files written too (sed -i).
	InPlace []string
	// ReadOnly are options that make the files only read (vim -R).
	ReadOnly []string
	// LastUnless are options that name the destination themselves (mv
	// -t DIR): with one of them the last operand keeps Operands' role.
	LastUnless []string
	// Recursive are options that make a delete recursive; Tree makes
	// every delete recursive (rimraf, trash, tar --remove-files).
	Recursive []string
	Tree      bool
	// Removes are options after which the program deletes the operands
	// it was given once it is done with them (tar --remove-files, zip -m,
	// 7z -sdel, rar -df, shred -u); RemoveVerbs are first operands that do
	// (rar m). The first RemoveSkip operands (a verb, the archive) are
	// not removed.
	Removes     []string
	RemoveVerbs []string
	RemoveSkip  int
	// Base are options whose value is the directory relative operands
	// are taken from (tar -C DIR).
	Base   []string
	Values []Value
	// Search marks the reads of a search tool (Effect.Search).
	Search bool
}

// fileEffects computes the spec's file effects over args (paths as given).
func (s *Spec) fileEffects(args []string) []Effect {
	p := shell.ParseArgs(args, &s.Opts)
	var out []Effect
	add := func(r Role, f string) {
		rec := (r == deletes || r == moves) && (s.Tree || p.Has(s.Recursive...))
		switch r {
		case reads:
			out = append(out, Effect{Kind: Read, Path: f})
		case writes:
			out = append(out, Effect{Kind: Write, Path: f})
		case readsWrites:
			out = append(out, Effect{Kind: Read, Path: f}, Effect{Kind: Write, Path: f})
		case deletes:
			out = append(out, Effect{Kind: Delete, Path: f, Recursive: rec})
		case moves:
			out = append(out, Effect{Kind: Delete, Path: f, Recursive: rec, Moved: true})
		case uses:
			out = append(out, Effect{Kind: Use, Path: f})
		case stats:
			out = append(out, Effect{Kind: Stat, Path: f})
		case lispCode:
			for _, w := range lispWrites(f) {
				out = append(out, Effect{Kind: Write, Path: w})
			}
		}
	}
	for _, v := range s.Values {
		for _, o := range p.Opts {
			if o.Name == v.Opt && o.HasValue {
				add(v.Role, o.Value)
			}
		}
	}
	ops := p.Operands
	if base, ok := p.Value(s.Base...); ok && len(s.Base) > 0 && base != "" {
		ops = slices.Clone(ops)
		for i, o := range ops {
			if o != "" && o[0] != '/' && o[0] != '~' {
				ops[i] = strings.TrimSuffix(base, "/") + "/" + o
			}
		}
	}
	removed := s.removed(p, ops)
	if s.Skip > 0 && !p.Has(s.SkipUnless...) {
		ops = ops[min(s.Skip, len(ops)):]
	}
	role := s.Operands
	if len(s.InPlace) > 0 && p.Has(s.InPlace...) {
		role = readsWrites
	}
	if len(s.ReadOnly) > 0 && p.Has(s.ReadOnly...) {
		role = reads
	}
	// A search that prints no line of the file, only a count, a file name
	// or an exit status (grep -c, -l, -q), looks at it like stat does.
	if s.Search && p.Has("c", "count", "l", "files-with-matches", "L", "files-without-match", "q", "quiet", "silent") {
		role = stats
	}
	defer func() {
		for i := range out {
			out[i].Search = s.Search
		}
	}()
	for i, o := range ops {
		if s.Last != none && len(ops) > 1 && i == len(ops)-1 && !p.Has(s.LastUnless...) {
			add(s.Last, o)
			continue
		}
		add(role, o)
	}
	for _, o := range removed {
		add(deletes, o)
	}
	return out
}

// removed are the operands the program deletes once done with them (tar
// --remove-files, rar m), nil when it deletes none.
func (s *Spec) removed(p shell.Args, ops []string) []string {
	if len(s.Removes) == 0 && len(s.RemoveVerbs) == 0 || !p.Has(s.Removes...) && (len(ops) == 0 || !slices.Contains(s.RemoveVerbs, ops[0])) {
		return nil
	}
	return ops[min(s.RemoveSkip, len(ops)):]
}

// specFor returns the spec of the program named name, nil if none.
func specFor(name string) *Spec {
	for i := range specs {
		if slices.Contains(specs[i].Names, name) {
			return &specs[i]
		}
	}
	return nil
}

// Parse reads a program's arguments with its file spec, the one reader of
// them (a subcommand CLI's: ParseCommand); ok is false when the program has
// no spec.
func Parse(name string, args []string) (p shell.Args, ok bool) {
	if s := specFor(name); s != nil {
		return shell.ParseArgs(args, &s.Opts), true
	}
	return shell.Args{}, false
}

// Deleted returns the operands (as written) the program named name
// deletes by its spec, moves not counted (fs.move-away judges those:
// Moves), and whether a delete takes a whole tree; nil when it deletes
// none.
func Deleted(name string, args []string) (paths []string, tree bool) {
	s := specFor(name)
	if s == nil {
		return nil, false
	}
	for _, e := range s.fileEffects(args) {
		if e.Kind == Delete && !e.Moved {
			paths = append(paths, e.Path)
			tree = tree || e.Recursive
		}
	}
	return paths, tree
}

// Moves returns what a move (mv) takes away and where it puts it, as
// written: the sources and the destination ("" when there is none).
func Moves(name string, args []string) (sources []string, dst string) {
	s := specFor(name)
	if s == nil {
		return nil, ""
	}
	for _, e := range s.fileEffects(args) {
		switch {
		case e.Kind == Delete && e.Moved:
			sources = append(sources, e.Path)
		case e.Kind == Write:
			dst = e.Path
		}
	}
	return sources, dst
}

// Specs returns the file specs, for tests and docs (the subcommand CLIs'
// grammars: Grammars).
func Specs() []Spec { return specs }

// specs are the known programs' file effects.
var specs = []Spec{
	// Programs that only look at a file's metadata or a digest of it.
	{Names: []string{"ls", "stat", "test", "[", "file", "du", "realpath", "readlink", "namei", "tree", "exa", "eza", "lsd", "mdls", "xattr", "getfacl", "lsattr", "chmod", "chown", "chgrp", "chflags", "chattr", "setfacl", "touch", "dirname", "basename", "wc", "md5sum", "md5", "sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum", "shasum", "b2sum", "b3sum", "cksum", "sum", "find", "fd", "fdfind", "lsof", "fuser", "df", "mkdir", "rmdir", "ssh-keygen", "pathchk", "gio", "open", "xdg-open", "codesign", "spctl", "getfileinfo", "GetFileInfo", "wslpath", "klist", "icacls", "cacls"},
		Opts: shell.OptSpec{Short: "f:t:o:g:", Long: []string{"format=", "printf="}}, Operands: stats, Values: []Value{{"f", uses}}},
	// Programs that read their operands and print or pack them.
	{Names: []string{"cat", "tac", "bat", "batcat", "less", "more", "most", "head", "tail", "nl", "strings", "base64", "base32", "basenc", "uuencode", "pr", "fold", "fmt", "column", "rev", "iconv", "diff", "cmp", "comm", "paste", "expand", "unexpand", "cpio", "pax", "gzip", "bzip2", "xz", "zstd", "lz4", "pigz", "gpg", "gpg2", "age", "sqlite3", "exiftool", "mdimport", "split", "csplit", "dos2unix", "unix2dos", "view", "vimdiff", "hexyl", "glow", "mdcat", "pygmentize", "highlight", "enscript", "a2ps", "lp", "lpr", "pbcopy", "xclip", "xsel", "wl-copy", "qrencode", "shellcheck", "shfmt", "sops", "jc"},
		Opts:     shell.OptSpec{Short: "n:c:f:C:o:O:T:d:u:F:b:w:t:s:e:H:X:A:", Long: []string{"lines=", "bytes=", "file=", "directory=", "output=", "upload-file=", "data=", "data-binary=", "form=", "header=", "user=", "request=", "post-file="}},
		Operands: reads, Values: []Value{{"f", reads}, {"T", reads}, {"upload-file", reads}, {"post-file", reads}}},
	// Binary inspectors print what a binary holds: they never change it.
	{Names: []string{"otool", "nm", "objdump", "llvm-objdump", "lipo", "vtool", "dwarfdump", "readelf", "size", "dyld_info", "ldd", "jtool2"}, Opts: shell.OptSpec{Short: "s:o:", Long: []string{"arch="}}, Operands: reads},
	{Names: []string{"apparmor_parser"}, Opts: shell.OptSpec{Short: "I:b:f:o:O:L:M:m:j:", Long: []string{"Include=", "base=", "subdomainfs=", "ofile=", "config-file=", "cache-loc=", "match-string=", "features-file=", "kernel-features=", "policy-features=", "jobs="}}, Operands: reads},
	{Names: []string{"od"}, Opts: shell.OptSpec{Short: "A:j:N:S:t:w::", Long: []string{"address-radix=", "skip-bytes=", "read-bytes=", "strings=?", "format=", "width=?"}}, Operands: reads},
	{Names: []string{"xxd"}, Opts: shell.OptSpec{Short: "c:g:l:o:s:n:"}, Operands: reads, Last: writes},
	{Names: []string{"hexdump", "hd"}, Opts: shell.OptSpec{Short: "e:f:n:s:"}, Operands: reads},
	{Names: []string{"grep", "egrep", "fgrep", "rg", "ag", "ack", "ugrep", "zgrep", "pcregrep"}, Opts: shell.OptSpec{Short: "e:f:m:A:B:C:d:D:", Long: []string{"regexp=", "file=", "max-count=", "after-context=", "before-context=", "context=", "include=", "exclude=", "exclude-dir=", "label=", "color=?", "colour=?", "binary-files=", "devices=", "directories=", "glob=", "type=", "type-not=", "max-depth=", "ignore-file="}}, Operands: reads, Skip: 1, SkipUnless: []string{"e", "f", "regexp", "file"}, Values: []Value{{"f", reads}, {"file", reads}}, Search: true},
	{Names: []string{"sed", "gsed"}, Opts: shell.OptSpec{Short: "e:f:i::l:", Long: []string{"expression=", "file=", "in-place=?", "line-length="}}, Operands: reads, Skip: 1, SkipUnless: []string{"e", "f", "expression", "file"}, InPlace: []string{"i", "in-place"}},
	{Names: []string{"awk", "gawk", "mawk", "nawk"}, Opts: shell.OptSpec{Short: "f:v:F:i:", Long: []string{"file=", "assign=", "field-separator=", "include="}}, Operands: reads, Skip: 1, SkipUnless: []string{"f", "file"}, InPlace: []string{"i"}},
	{Names: []string{"jq", "yq", "gojq", "jaq"}, Opts: shell.OptSpec{Short: "f:L:", Long: []string{"from-file=", "arg=", "argjson=", "slurpfile=", "rawfile=", "indent="}}, Operands: reads, Skip: 1, SkipUnless: []string{"f", "from-file"}, InPlace: []string{"i", "inplace"}},
	{Names: []string{"sort", "uniq", "cut", "tr", "join"}, Opts: shell.OptSpec{Short: "o:k:t:S:T:d:f:c:", Long: []string{"output=", "key=", "field-separator=", "buffer-size=", "temporary-directory=", "delimiter=", "fields=", "characters="}}, Operands: reads, Values: []Value{{"o", writes}, {"output", writes}}},
	// openssl req/genpkey/x509 … -keyout KEY -out CERT: both written.
	{Names: []string{"openssl"}, Opts: shell.OptSpec{Long: []string{"in=", "out=", "inkey=", "key=", "passin=", "passout=", "config=", "CAfile=", "cert=", "signkey=", "keyout="}, SingleDash: true}, Values: []Value{{"in", reads}, {"inkey", uses}, {"key", uses}, {"signkey", uses}, {"out", writes}, {"keyout", writes}}},
	{Names: []string{"plutil"}, Opts: shell.OptSpec{SingleDash: true, Long: []string{"o=", "e=", "s", "r", "p", "lint", "help", "extract=", "type=", "insert=", "replace=", "remove=", "convert=", "create="}},
		Operands: reads, InPlace: []string{"insert", "replace", "remove", "convert", "create"}},
	// Programs that write their operands.
	{Names: []string{"tee", "truncate", "sponge", "fallocate"}, Opts: shell.OptSpec{Short: "s:l:o:", Long: []string{"size=", "length=", "offset="}}, Operands: writes},
	{Names: []string{"nano", "vi", "vim", "nvim", "emacs", "ed", "ex", "micro", "joe", "kak", "hx", "helix", "pico", "mcedit", "code", "codium", "subl", "gedit", "kate", "mate", "sudoedit", "vipw", "vigr"},
		Opts: shell.OptSpec{Short: "c:S:u:i:T:", Long: []string{"cmd=", "eval="}}, Operands: readsWrites, ReadOnly: []string{"R", "M"}, Values: []Value{{"eval", lispCode}}},
	{Names: []string{"cp", "install", "ln", "link", "gcp", "ditto"}, Opts: shell.OptSpec{Short: "t:S:m:o:g:", Long: []string{"target-directory=", "suffix=", "mode=", "owner=", "group=", "backup=?"}}, Operands: reads, Last: writes},
	// mv moves its sources away: into the last operand, or the -t
	// directory (mv -t DIR SRC...).
	{Names: []string{"mv", "gmv"}, Opts: shell.OptSpec{Short: "t:S:", Long: []string{"target-directory=", "suffix=", "backup=?"}}, Operands: moves, Last: writes, LastUnless: []string{"t", "target-directory"},
		Values: []Value{{"t", writes}, {"target-directory", writes}}},
	{Names: []string{"rm", "unlink", "srm", "wipe"}, Opts: shell.OptSpec{Short: "n:s:", Long: []string{"iterations=", "size=", "interactive=?"}}, Operands: deletes, Recursive: []string{"r", "R", "recursive"}},
	// shred overwrites its files, and deletes them with -u.
	{Names: []string{"shred"}, Opts: shell.OptSpec{Short: "n:s:", Long: []string{"iterations=", "size=", "random-source=", "remove=?"}}, Operands: writes, Removes: []string{"u", "remove"}},
	// Deleters that take whole trees whatever their options: the package
	// runners' rimraf and del-cli, the trash (recoverable by the user, not
	// by the agent's next command). del-cli's other name, del, is left
	// out: cmd.exe's del is judged by fs.windows-host.
	{Names: []string{"rimraf", "del-cli", "trash", "trash-cli", "trash-put", "gtrash", "rmtrash"}, Opts: shell.OptSpec{Long: []string{"glob=?", "preserve-root=?", "tmp=", "max-retries=", "retry-delay=", "backoff=", "max-backoff=", "cwd="}}, Operands: deletes, Tree: true},
	// Archivers read what they pack; told to, they delete it afterwards
	// (tar --remove-files, zip -m, 7z a -sdel, rar m / rar a -df): the
	// archive is written, the sources are gone. tar -C DIR reads (and
	// removes) its operands from DIR.
	{Names: []string{"tar", "bsdtar", "gtar"}, Opts: shell.OptSpec{Short: "f:C:T:X:b:H:K:N:V:L:g:I:", Long: []string{"file=", "directory=", "files-from=", "exclude-from=", "exclude=",
		"use-compress-program=", "transform=", "xform=", "format=", "owner=", "group=", "mode=", "mtime=", "newer=", "newer-mtime=", "after-date=", "checkpoint=?", "checkpoint-action=",
		"label=", "strip-components=", "blocking-factor=", "record-size=", "index-file=", "info-script=", "new-volume-script=", "rsh-command=", "listed-incremental=", "suffix=", "backup=?",
		"to-command=", "owner-map=", "group-map=", "tape-length=", "sort=", "warning=", "occurrence=?", "level=", "xattrs-include=", "xattrs-exclude=", "remove-files",
		"recursive-unlink", "record-size=", "recursion", "no-recursion"}, Abbrev: true},
		Operands: reads, Values: []Value{{"f", reads}, {"file", reads}, {"T", reads}, {"files-from", reads}}, Removes: []string{"remove-files"}, Tree: true, Base: []string{"C", "directory"}},
	{Names: []string{"zip"}, Opts: shell.OptSpec{Short: "b:n:t:P:O:Z:s:x:i:", Long: []string{"temp-path=", "suffixes=", "from-date=", "password=", "output-file=", "compression-method=", "split-size=",
		"exclude=", "include=", "move", "recurse-paths", "recurse-patterns"}},
		Operands: reads, Removes: []string{"m", "move"}, RemoveSkip: 1, Recursive: []string{"r", "R", "recurse-paths", "recurse-patterns"}},
	{Names: []string{"7z", "7za", "7zz", "7zr"}, Opts: shell.OptSpec{SingleDash: true, Long: []string{"sdel", "r", "y", "bd", "slt", "so", "si", "sccUTF-8", "spf", "snl", "sni", "sns", "ssw", "stl"}},
		Operands: reads, Removes: []string{"sdel"}, RemoveSkip: 2, Tree: true},
	{Names: []string{"rar"}, Opts: shell.OptSpec{SingleDash: true, Long: []string{"df", "dh", "r", "y", "ep", "ep1", "ep2", "ep3", "idq", "inul", "o+", "o-", "ow", "s", "t", "tl"}},
		Operands: reads, Removes: []string{"df"}, RemoveVerbs: []string{"m", "mf"}, RemoveSkip: 2, Tree: true},
	// Programs that consume a credential for their own purpose.
	{Names: []string{"ssh", "autossh", "mosh", "sshfs", "sshpass", "ssh-copy-id"}, Opts: shell.OptSpec{Short: "i:F:p:l:o:J:L:R:D:W:b:c:e:E:m:O:Q:S:w:B:I:P:f:", Long: []string{"ssh="}}, Values: []Value{{"i", uses}, {"F", uses}}},
	{Names: []string{"scp", "sftp"}, Opts: shell.OptSpec{Short: "i:F:P:o:c:l:S:J:D:X:B:R:s:"}, Operands: reads, Values: []Value{{"i", uses}, {"F", uses}}},
	{Names: []string{"ssh-add"}, Opts: shell.OptSpec{Short: "t:E:S:h:H:"}, Operands: uses},
	// rclone SUBCOMMAND SRC [DST]: a local source is read (and sent to the
	// remote); remote:path operands are not local paths.
	{Names: []string{"rclone"}, Opts: shell.OptSpec{Long: []string{"config=", "transfers=", "checkers=", "include=", "exclude=", "filter=", "filter-from=", "include-from=", "exclude-from=", "max-age=", "min-age=", "bwlimit=", "log-file=", "log-level=", "backup-dir="}}, Operands: reads, Skip: 1},
	// A password manager's CLI opens its vault for the subcommand: what it
	// prints is judged by keepassEntry, not as a read of the whole file.
	{Names: []string{"keepassxc-cli"}, Opts: shell.OptSpec{Short: keepassShort, Long: keepassLong}, Operands: uses, Values: []Value{{"k", uses}, {"key-file", uses}}},
	{Names: []string{"source", "."}, Operands: uses},
	// Binary rewriters change the program they are given in place (or
	// write -o FILE): strip, upx, patchelf, objcopy IN [OUT].
	{Names: []string{"strip", "llvm-strip", "sstrip", "upx", "patchelf", "objcopy", "llvm-objcopy", "execstack", "chrpath"},
		Opts: shell.OptSpec{Short: "o:R:K:N:I:O:B:j:F:", Long: []string{"output=", "remove-section=", "keep-symbol=", "strip-symbol=", "input-target=", "output-target=", "target=",
			"set-interpreter=", "set-rpath=", "add-rpath=", "add-needed=", "remove-needed=", "replace-needed=", "set-soname=", "page-size=", "output-file="}},
		Operands: readsWrites, Values: []Value{{"o", writes}, {"output", writes}, {"output-file", writes}}},
	// rename EXPR|FROM [TO] FILES... moves its files to other names.
	{Names: []string{"rename", "prename", "file-rename", "perl-rename"}, Opts: shell.OptSpec{Short: "e:E:"}, Operands: moves, Skip: 1, SkipUnless: []string{"e", "E"}},
	// A file system mounted over a directory replaces what it holds, for
	// every program that reads it afterwards: the mount point is written
	// (mount --bind DIR ~/.gemini, bindfs DIR ~/.gemini). mount alone lists.
	{Names: []string{"mount", "bindfs", "mount_nullfs", "mount_bindfs"}, Opts: shell.OptSpec{Short: "t:o:L:U:O:N:T:", Long: []string{"types=", "options=", "label=", "uuid=", "test-opts=", "namespace=", "fstab=", "source=", "target=",
		"map=", "force-user=", "force-group=", "perms=", "mirror=", "mirror-only=", "create-for-user=", "create-for-group=", "create-with-perms=", "chown-policy=", "chgrp-policy=", "chmod-policy="}},
		Last: writes, Values: []Value{{"target", writes}}},
	{Names: []string{"k9s", "kubectx", "kubens", "kustomize", "stern", "minikube", "kind", "k3d"}, Opts: shell.OptSpec{Short: kubectlShort, Long: kubectlLong}, Values: []Value{{"kubeconfig", uses}}},
}

// kubectlShort and kubectlLong are kubectl's global options and the common options of its
// subcommands that take values: enough to tell its subcommand from the
// values before it (kubectl --context delete get pods gets pods).
// The options are a constant and a slice rather than one OptSpec
// variable: a table entry that copies a struct variable holding a slice is
// filled in at start-up, writing its page of the binary's data in every hook
// process (TestHookPackagesComputeNothingAtStartUp, internal/initwork).
const kubectlShort = "n:s:l:f:k:o:c:L:v:"

var kubectlLong = []string{
	"kubeconfig=", "context=", "cluster=", "user=", "namespace=", "server=", "token=", "as=", "as-group=", "as-uid=",
	"certificate-authority=", "client-certificate=", "client-key=", "request-timeout=", "cache-dir=", "v=", "log-dir=", "log-file=",
	"vmodule=", "tls-server-name=", "password=", "username=", "profile=", "profile-output=", "match-server-version", "insecure-skip-tls-verify",
	"selector=", "filename=", "kustomize=", "output=", "field-selector=", "container=", "grace-period=", "timeout=", "for=", "label-columns=",
	"sort-by=", "template=", "type=", "replicas=", "image=", "port=", "dry-run=?", "cascade=?", "wait=?", "raw=", "subresource=",
	"all", "all-namespaces", "force", "now", "ignore-not-found=?", "recursive", "watch", "help",
	"address=", "www=", "www-prefix=", "api-prefix=", "accept-hosts=", "accept-paths=", "reject-paths=", "unix-socket=", // proxy, port-forward
	"clusterrole=", "role=", "serviceaccount=", "group=", // create clusterrolebinding, rolebinding
	"kube-context=", "repo=", "version=", "values=", "set=", "set-string=", "set-file=", // helm
}

// judgedElsewhere are programs whose destroy verbs package policy's own
// rules judge (infra.*, git.*, disk.*, fs.*), and local tools whose
// remove/uninstall/reset words act on the machine's packages, caches or
// local state (npm uninstall, brew remove, docker rm): the generic
// remote-destroy guess is not made for them.
var judgedElsewhere = []string{
	"git", "aws", "gcloud", "gsutil", "bq", "az", "doctl", "wrangler", "vercel", "fly", "flyctl", "heroku", "firebase", "supabase", "vault",
	"pulumi", "cdk", "cdktf", "serverless", "sls", "s3cmd", "mc", "rclone", "redis-cli", "psql", "mysql", "mongosh", "mongo", "sqlite3",
	"docker", "podman", "nerdctl", "crictl", "ctr", "buildah", "lxc", "incus", "multipass", "vagrant", "virsh", "VBoxManage", "vboxmanage", "prlctl", "utmctl", "limactl", "colima", "orb", "orbctl",
	"npm", "npx", "pnpm", "yarn", "bun", "deno", "pip", "pip3", "pipx", "uv", "poetry", "pdm", "hatch", "conda", "mamba", "micromamba", "gem", "bundle", "cargo", "rustup", "go", "gofmt", "composer", "dotnet", "nuget",
	"brew", "port", "apt", "apt-get", "aptitude", "dpkg", "dnf", "yum", "rpm", "zypper", "pacman", "yay", "paru", "apk", "pkg", "pkg_delete", "pkgin", "snap", "flatpak", "nix", "nix-env", "guix", "emerge", "xbps-remove", "opkg", "mas", "softwareupdate", "winget", "scoop", "choco",
	"asdf", "mise", "rtx", "nvm", "fnm", "volta", "pyenv", "rbenv", "jenv", "sdk", "goenv", "nodenv", "tfenv", "rvm",
	"systemctl", "service", "launchctl", "rc-service", "rc-update", "update-rc.d", "chkconfig", "sv", "crontab", "at", "atrm",
	"useradd", "userdel", "usermod", "groupdel", "deluser", "delgroup", "dscl", "sysadminctl", "dseditgroup", "pw", "visudo", "pwpolicy", "fdesetup", "pwd_mkdb",
	"tmux", "screen", "zellij", "nmcli", "bluetoothctl", "ip", "route", "ifconfig", "iptables", "nft", "ufw", "firewall-cmd", "pfctl", "auditctl", "aa-status", "semanage",
	"code", "codium", "cursor", "ollama", "fvm", "pipenv", "bower", "pecl", "pixi", "flox", "fisher", "omf", "n", "vf", "phive", "pio", "run-parts", "parallel", "xe", "rush", "entr", "flock", "chronic", "unbuffer", "stdbuf", "ionice", "chrt", "taskset", "firejail", "bwrap", "fakeroot", "systemd-run", "runuser", "setsid", "script", "expect", "xvfb-run", "hf", "huggingface-cli", "direnv", "pre-commit", "husky", "lefthook", "task", "todo", "todo.sh", "taskwarrior", "timew", "watson", "pass", "gopass", "keyring", "secret-tool",
	"make", "cmake", "ninja", "meson", "bazel", "gradle", "mvn", "ant", "sbt", "lein", "mix", "rebar3", "stack", "cabal", "opam", "dune", "swift", "xcodebuild", "xcrun", "simctl", "adb", "fastboot", "flutter", "dart",
	"kubectl", "oc", "helm", "minikube", "kind", "k3d", "kubeadm", "eksctl", "terraform", "tofu", "terragrunt", "gh", "glab", "hub", "tea", "jj", "hg", "svn", "fossil", "dvc", "git-lfs", "lfs",
	"mount", "umount", "diskutil", "hdiutil", "zfs", "zpool", "btrfs", "lvremove", "vgremove", "pvremove", "tmutil", "snapper", "timeshift", "restic", "borg", "duplicity", "kopia", "tarsnap",
	"trash", "trash-rm", "trash-empty", "gio", "conan", "vcpkg", "spack", "ansible-galaxy", "vagrant", "packer", "nomad", "consul", "waypoint", "boundary",
}

// known reports whether name is a program the tables describe or a tool
// whose effects other rules judge: generic effects are for the others.
func known(name string) bool {
	if shell.IsShell(name) || shell.Interpreter(name) != "" || slices.Contains(judgedElsewhere, name) || slices.Contains(noFiles, name) {
		return true
	}
	return false
}

// noFiles are programs whose operands are words, not files (echo's text,
// kill's pids, man's pages, which's names) or that only run what follows.
var noFiles = []string{
	"echo", "printf", "print", "true", "false", "yes", "sleep", "seq", "expr", "let", "pwd", "cd", "pushd", "popd", "dirs", "export", "unset", "alias", "unalias",
	"history", "fc", "date", "cal", "which", "whereis", "type", "command", "hash", "builtin", "man", "info", "apropos", "whatis", "tldr", "help",
	"id", "whoami", "groups", "uname", "hostname", "uptime", "ps", "top", "htop", "btop", "pgrep", "pidof", "kill", "killall", "pkill", "nice", "renice",
	"env", "printenv", "set", "declare", "typeset", "local", "readonly", "read", "wait", "jobs", "bg", "fg", "disown", "trap", "shift", "return", "exit", "exec", "eval",
	"xargs", "sudo", "doas", "su", "time", "timeout", "nohup", "watch", "strace", "ltrace", "dtruss", "caffeinate", "say", "notify-send", "osascript",
	"ping", "ping6", "traceroute", "dig", "nslookup", "host", "whois", "mtr", "nmap", "telnet", "http", "https", "xh", "httpie", "curlie",
	"defaults", "scutil", "networksetup", "systemsetup", "pmset", "sw_vers", "system_profiler", "csrutil", "security", "tccutil", "sysctl", "dmesg", "journalctl", "log",
	"sqlite-utils", "bc", "dc", "factor", "numfmt", "shuf", "uuidgen", "openssl-rand", "mktemp", "tput", "clear", "reset", "stty", "tty", "logger", "wall", "write",
	"tldr", "cowsay", "figlet", "lolcat", "neofetch", "fastfetch", "screenfetch", "cmatrix", "sl",
}

// remoteDestroyWords are subcommand words that destroy what a CLI manages,
// whatever their place. Weaker words (remove, rm, uninstall, purge, reset,
// wipe, revoke) are what local package, plugin and version managers use
// for local state (tldr's pages hold dozens: pipenv uninstall, fisher
// remove); delete is taken only after a resource word (hcloud server
// delete), not first (cliphist delete 42).
var remoteDestroyWords = []string{"destroy", "terminate", "unpublish", "deprovision", "decommission", "nuke", "teardown"}

// weakDestroyWords destroy when an operand names a remote resource (a URL
// such as s3://bucket/x, or a registry reference host.domain/repo:tag):
// s5cmd rm 's3://b/*', crane delete reg.example.com/app@sha256:...
var weakDestroyWords = []string{"delete", "del", "rm", "remove", "purge", "wipe", "drop", "erase", "truncate", "destroy"}

// remoteOperand reports whether an operand names a remote resource.
func remoteOperand(ops []string) bool {
	for _, o := range ops {
		if !shell.Known(o) {
			continue
		}
		if scheme, _, ok := strings.Cut(o, "://"); ok && scheme != "file" && scheme != "" {
			return true
		}
		host, rest, ok := strings.Cut(o, "/")
		host, _, _ = strings.Cut(host, ":")
		if ok && rest != "" && strings.Count(host, ".") >= 1 && !strings.HasPrefix(host, ".") && !strings.ContainsAny(host, "~*") &&
			!strings.HasSuffix(host, ".d") && strings.ToLower(host) == host && host != ".." {
			return true
		}
	}
	return false
}

// storeResources are what a data store's CLI keeps data in: a weak destroy
// word next to one (rabbitmqadmin delete queue, nats stream rm, nats kv
// del) destroys that data.
var storeResources = []string{"stream", "streams", "kv", "queue", "queues", "vhost", "vhosts", "exchange", "exchanges", "topic", "topics", "bucket", "buckets",
	"database", "databases", "db", "collection", "collections", "keyspace", "tenant", "tenants", "namespace", "namespaces", "index", "indices", "indexes",
	"table", "tables", "volume", "volumes", "snapshot", "snapshots", "backup", "backups", "cluster", "clusters"}

// nextToStore reports a store resource word just before or after the
// operand at i.
func nextToStore(ops []string, i int) bool {
	return i > 0 && slices.Contains(storeResources, ops[i-1]) || i+1 < len(ops) && slices.Contains(storeResources, ops[i+1])
}

// destroyAffixes make a resource-specific destroy word: delete-bucket,
// service-instance-delete, apps:destroy.
var destroyAffixes = []string{"delete", "destroy", "terminate", "purge"}

// remoteDestroy reads an unknown program's first four operands (options
// parsed with no spec: an unknown option takes no value) for a destroy
// word: destroy, RESOURCE delete, apps:destroy, delete-bucket.
func remoteDestroy(args []string) (string, bool) {
	p := shell.ParseArgs(args, &shell.OptSpec{})
	if p.Has("help", "h", "dry-run", "version", "dryrun") {
		return "", false
	}
	for i, o := range p.Operands {
		if i == 4 {
			break
		}
		if !shell.Known(o) || strings.ContainsAny(o, `/.=@\"'`) || strings.ToLower(o) != o {
			if i == 0 {
				return "", false // a file, a URL, an assignment or an HTTP method first: not a CLI's subcommand
			}
			continue
		}
		w := o
		if _, after, ok := strings.Cut(w, ":"); ok {
			w = after // heroku apps:destroy
			if slices.Contains(destroyAffixes, w) {
				return o, true
			}
		}
		if slices.Contains(remoteDestroyWords, w) || w == "delete" && i > 0 || slices.Contains(weakDestroyWords, w) && (remoteOperand(p.Operands) || nextToStore(p.Operands, i)) {
			return o, true
		}
		for _, d := range destroyAffixes {
			if i > 0 && (strings.HasPrefix(w, d+"-") || strings.HasSuffix(w, "-"+d)) { // s3 delete-bucket, resource service-instance-delete
				return o, true
			}
		}
	}
	return "", false
}

// lispWriters are the Emacs Lisp functions that write, move, copy, link
// or delete a file, or change its mode.
var lispWriters = []string{"write-region", "with-temp-file", "save-buffer", "write-file", "copy-file", "rename-file", "delete-file",
	"make-symbolic-link", "add-name-to-file", "set-file-modes", "append-to-file", "copy-directory", "delete-directory"}

// lispWrites are the file names among the strings of Emacs Lisp code
// that writes files: (with-temp-file "~/.gemini/settings.json" ...).
func lispWrites(code string) []string {
	if !slices.ContainsFunc(lispWriters, func(w string) bool { return strings.Contains(code, w) }) {
		return nil
	}
	var out []string
	parts := strings.Split(code, `"`)
	for i := 1; i < len(parts); i += 2 { // the text between quotes
		if f := parts[i]; f != "" && !strings.ContainsAny(f, " \n") && (strings.Contains(f, "/") || f[0] == '.' || f[0] == '~') {
			out = append(out, f)
		}
	}
	return out
}

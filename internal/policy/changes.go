package policy

// What a call writes and deletes, whatever the program (changes): the
// engine under every rule that judges where output lands.

import (
	"path"
	"slices"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/lazyregexp"
	"github.com/gemini-guard/gemini-guard/internal/shell"
)

// changes lists the paths a call writes (creates, overwrites, appends to)
// and the ones it deletes or moves away, judged by where output lands
// whatever the program: redirections, copy and link targets, in-place
// editors, output options (sort -o, curl -o, wget -O, any -o/--output),
// extraction directories (tar -C, unzip -d, git clone DIR) and the file
// literals of interpreter code that writes. Paths are resolved where
// possible.
func changes(c *Call) (writes, deletes []string) {
	for _, r := range c.Ex.Redirs {
		if r.Writes() && r.Target != "" {
			writes = append(writes, c.resolve(r.Target))
		}
	}
	w, deletes := programChanges(c, operands(c.Args))
	writes = appendAll(writes, w)
	writes = appendAll(writes, outputOptions(c))
	writes = appendAll(writes, codeWrites(c))
	return writes, deletes
}

// appendAll is append(a, b...) without copying b when a is empty: changes
// runs for every command of a line under many rules.
func appendAll(a, b []string) []string {
	if len(a) == 0 {
		return b
	}
	return append(a, b...)
}

// programChanges are the paths a program writes and deletes by its own
// arguments, ops being its operands.
func programChanges(c *Call, ops []string) (writes, deletes []string) {
	switch c.Ex.Name {
	case "tee", "sudoedit", "truncate", "nano", "vi", "vim", "nvim", "ex", "emacs", "ed", "sponge", "mkdir", "shred":
		return editorWrites(c, ops), nil
	case "cp", "install", "ln", "rsync", "mv", "ditto", "scp":
		return copyChanges(c, ops)
	case "sed", "perl", "awk", "gawk", "yq", "ruby":
		return inPlaceWrites(c, ops), nil
	case "fallocate":
		return fallocateWrites(c, ops), nil
	case "dd":
		return ddWrites(c), nil
	case "uniq", "xxd":
		// uniq [input [output]], xxd [-r] [infile [outfile]].
		if len(ops) >= 2 {
			return []string{c.resolve(ops[1])}, nil
		}
	case "openssl":
		return c.resolveValues(optionValues(c.Args, "-out", "-keyout", "--out")), nil
	case "sqlite3", "sqlite":
		return c.resolveValues(sqliteOutputs(codeText(c))), nil
	case "rm", "unlink", "srm", "wipe", "rmdir":
		return nil, c.resolveValues(ops)
	case "patch":
		return patchWrites(c, ops), nil
	case "curl", "wget":
		return downloadWrites(c, ops), nil
	case "tar", "bsdtar", "unzip", "7z", "cpio":
		return extractWrites(c), nil
	case "git":
		return gitWrites(c, ops), nil
	}
	return nil, nil
}

// resolveValues resolves each of vs.
func (c *Call) resolveValues(vs []string) []string {
	var out []string
	for _, v := range vs {
		out = append(out, c.resolve(v))
	}
	return out
}

// editorWrites are the files an editor or file maker names; vi -R and -M
// only read.
func editorWrites(c *Call, ops []string) []string {
	switch c.Ex.Name {
	case "vi", "vim", "nvim", "ex":
		if hasArg(c.Args, "-R", "-M") {
			return nil // read-only
		}
	}
	return c.resolveValues(ops)
}

// copyChanges are a copy's or link's target (DST or DST/<source name>),
// the -t directory, and for mv the sources it moves away.
func copyChanges(c *Call, ops []string) (writes, deletes []string) {
	if len(ops) >= 2 {
		dst := c.resolve(ops[len(ops)-1])
		writes = append(writes, dst)
		intoDir := len(ops) > 2 || strings.HasSuffix(ops[len(ops)-1], "/") || !shell.Known(dst) || c.isDir(dst)
		for _, src := range ops[:len(ops)-1] {
			if intoDir {
				writes = append(writes, path.Join(dst, path.Base(src)))
			}
			if c.Ex.Name == "mv" {
				deletes = append(deletes, c.resolve(src))
			}
		}
	}
	if c.Ex.Name == "cp" && hasArg(c.Args, "--parents") && len(ops) >= 2 {
		// cp --parents a/b/f DIR writes DIR/a/b/f.
		dst := c.resolve(ops[len(ops)-1])
		for _, src := range ops[:len(ops)-1] {
			writes = append(writes, path.Join(dst, src))
		}
	}
	if c.Ex.Name == "ln" && len(ops) == 1 {
		writes = append(writes, c.resolve(path.Base(ops[0])))
	}
	for _, dir := range optionValues(c.Args, "-t", "--target-directory") {
		for _, src := range ops {
			writes = append(writes, path.Join(c.resolve(dir), path.Base(src)))
		}
	}
	return writes, deletes
}

// inPlaceWrites are the files an editor asked to rewrite them names (sed
// -i, perl -i, gawk -i inplace, yq -i); the first operand is the script
// unless -e or -f gave it.
func inPlaceWrites(c *Call, ops []string) []string {
	if !inPlace(c.Ex.Name, c.Args) {
		return nil
	}
	files := ops
	switch c.Ex.Name {
	case "sed", "awk", "gawk", "yq":
		if !scriptGiven(c.Args) && len(files) > 0 {
			files = files[1:]
		}
	}
	var out []string
	for _, f := range files {
		if f != "inplace" {
			out = append(out, c.resolve(f))
		}
	}
	return out
}

// fallocateWrites: punching, collapsing or zeroing a range destroys what it
// held; allocating (-l alone, -d) keeps the data.
func fallocateWrites(c *Call, ops []string) []string {
	if hasArg(c.Args, "-p", "--punch-hole", "-c", "--collapse-range", "-z", "--zero-range", "-i", "--insert-range") {
		return c.resolveValues(ops)
	}
	return nil
}

// ddWrites are dd's of= files.
func ddWrites(c *Call) []string {
	var out []string
	for _, a := range c.Args {
		if v, ok := strings.CutPrefix(a, "of="); ok {
			out = append(out, c.resolve(v))
		}
	}
	return out
}

// patchWrites are the file patch is given and the files the patch it reads
// (standard input or -i) names.
func patchWrites(c *Call, ops []string) []string {
	var out []string
	if len(ops) > 0 {
		out = append(out, c.resolve(ops[0]))
	}
	if in := c.Ex.Stdin; in != nil && in.File != "" {
		out = append(out, patchTargets(c, c.resolve(in.File))...)
	}
	for _, f := range optionValues(c.Args, "-i", "--input") {
		out = append(out, patchTargets(c, c.resolve(f))...)
	}
	return out
}

// downloadWrites are the files curl -O names after its URLs and wget -P's
// directory.
func downloadWrites(c *Call, ops []string) []string {
	var out []string
	for i, a := range c.Args {
		if (a == "-O" || a == "--remote-name") && c.Ex.Name == "curl" {
			for _, o := range ops {
				if strings.Contains(o, "://") {
					out = append(out, c.resolve(path.Base(o)))
				}
			}
		}
		if a == "-P" && c.Ex.Name == "wget" && i+1 < len(c.Args) {
			out = append(out, c.resolve(c.Args[i+1]))
		}
	}
	return out
}

// extractWrites are the archive a tar creates, the directory an archiver
// extracts into (-C, --directory, unzip -d) and, extracting in place, the
// working directory.
func extractWrites(c *Call) []string {
	var writes []string
	name := c.Ex.Name
	archive, creates := "", false
	if name == "tar" || name == "bsdtar" {
		archive, creates = tarArchive(c.Args)
	}
	if archive != "" {
		writes = append(writes, c.resolve(archive)) // the archive -c, -r, -u write
	}
	if !creates { // tar -C /etc -czf etc.tgz .: -C is where files are read from
		writes = append(writes, c.resolveValues(extractDirs(c.Args))...)
	}
	if (name == "tar" || name == "bsdtar") && extracts(c.Args) && c.Ex.Dir != "" {
		writes = append(writes, c.Ex.Dir) // extracting in place can overwrite anything below
	}
	if name == "cpio" && c.Ex.Dir != "" && (hasArg(c.Args, "--extract") || hasShortFlag(c.Args, 'i')) {
		writes = append(writes, c.Ex.Dir) // cpio -i extracts into the working directory
	}
	return writes
}

// extractDirs are the -C, --directory and -d values of an archiver.
func extractDirs(args []string) []string {
	var out []string
	for i, a := range args {
		if (a == "-C" || a == "--directory" || a == "-d") && i+1 < len(args) {
			out = append(out, args[i+1])
		} else if v, ok := strings.CutPrefix(a, "--directory="); ok {
			out = append(out, v)
		}
	}
	return out
}

// codeWrites are the file literals of interpreter code that writes.
func codeWrites(c *Call) []string {
	if !c.Ex.CodeWrites {
		return nil
	}
	var out []string
	for _, l := range c.Ex.CodeLiterals {
		if l != "" && !strings.ContainsAny(l, "\n") && len(l) < 4096 {
			out = append(out, c.resolve(l))
		}
	}
	return out
}

// sqliteOutputs are the files sqlite3's dot-commands and VACUUM INTO in
// text write: .output F, .once F, .save F, .backup [DB] F, VACUUM INTO 'F'.
func sqliteOutputs(text string) []string {
	if !strings.Contains(text, ".") && !strings.Contains(strings.ToUpper(text), "INTO") {
		return nil
	}
	var out []string
	for _, m := range sqliteOutput.Get().FindAllStringSubmatch(text, -1) {
		f := strings.Trim(m[1], `'"`)
		if f != "" && f != "stdout" && !strings.HasPrefix(f, "-") && !strings.HasPrefix(f, "|") {
			out = append(out, f)
		}
	}
	return out
}

var sqliteOutput = &lazyregexp.Regexp{Expr: `(?im)(?:^|[\s;'"])(?:\.(?:output|once|save|backup(?:[ \t]+\w+)?)|VACUUM[ \t]+INTO)[ \t]+('[^']*'|"[^"]*"|[^\s;'"]+)`}

// isDir reports whether p is an existing directory (a copy's target then
// is p/<source name>).
func (c *Call) isDir(p string) bool {
	st, err := c.Ctx.fs().Stat(p)
	return err == nil && st.IsDir()
}

// inPlace reports whether an editor's arguments ask it to rewrite its files.
func inPlace(name string, args []string) bool {
	var flag func(args []string, i int) bool
	switch name {
	case "sed":
		flag = sedInPlace
	case "perl", "ruby":
		flag = func(args []string, i int) bool { return shortClusterHas(args[i], "i") }
	case "awk", "gawk":
		flag = awkInPlace
	case "yq":
		flag = func(args []string, i int) bool {
			return args[i] == "-i" || args[i] == "--inplace" || shortClusterHas(args[i], "i")
		}
	default:
		return false
	}
	for i := range args {
		if flag(args, i) {
			return true
		}
	}
	return false
}

// shortClusterHas reports whether a is a short-option cluster (-x, not
// --x) holding one of letters.
func shortClusterHas(a, letters string) bool {
	return strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.ContainsAny(a, letters)
}

// sedInPlace: sed -i, --in-place[=SUFFIX], or a cluster with i but not e
// or f (which take the script).
func sedInPlace(args []string, i int) bool {
	a := args[i]
	return a == "-i" || strings.HasPrefix(a, "--in-place") || shortClusterHas(a, "i") && !strings.ContainsAny(a, "ef")
}

// awkInPlace: gawk -i inplace, --include inplace, -iinplace.
func awkInPlace(args []string, i int) bool {
	a := args[i]
	return (a == "-i" || a == "--include") && i+1 < len(args) && args[i+1] == "inplace" || a == "-iinplace"
}

func scriptGiven(args []string) bool {
	for _, a := range args {
		if a == "-e" || a == "-f" || a == "--expression" || a == "--file" || strings.HasPrefix(a, "--expression=") {
			return true
		}
	}
	return false
}

func extracts(args []string) bool {
	for _, a := range args {
		if a == "--extract" || a == "--get" || strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, "x") || !strings.HasPrefix(a, "-") && strings.Contains(a, "x") && len(a) < 8 && a == args[0] {
			return true
		}
	}
	return false
}

// tarArchive reports whether a tar creates or appends to an archive, and
// the archive it writes then (tar -czf out.tgz, tar cf out.tar,
// --file=out.tar; "" for standard output).
func tarArchive(args []string) (file string, creates bool) {
	for i, a := range args {
		short := strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") || i == 0 && !strings.HasPrefix(a, "-") && len(a) < 8
		switch {
		case a == "--create" || a == "--append" || a == "--update":
			creates = true
		case strings.HasPrefix(a, "--file="):
			file = strings.TrimPrefix(a, "--file=")
		case a == "--file" && i+1 < len(args):
			file = args[i+1]
		case short && strings.ContainsAny(a, "cru") && !strings.Contains(a, "x") && !strings.Contains(a, "t"):
			creates = true
			if strings.HasSuffix(a, "f") && i+1 < len(args) {
				file = args[i+1]
			}
		case short && strings.HasSuffix(a, "f") && i+1 < len(args):
			file = args[i+1]
		}
	}
	if !creates || file == "-" {
		return "", creates
	}
	return file, true
}

// gitWrites are the paths a git command writes in the working tree:
// checkout/restore of named paths, clone into a directory, the files a
// patch on disk names (git apply, git am).
func gitWrites(c *Call, ops []string) []string {
	if len(ops) == 0 {
		return nil
	}
	switch ops[0] {
	case "checkout", "restore":
		return gitCheckoutPaths(c, ops)
	case "clone":
		if len(ops) >= 3 {
			return []string{c.resolve(ops[2])}
		} else if len(ops) == 2 {
			return []string{c.resolve(strings.TrimSuffix(path.Base(ops[1]), ".git"))}
		}
	case "apply", "am":
		var out []string
		for _, o := range ops[1:] {
			out = append(out, patchTargets(c, c.resolve(o))...)
		}
		if in := c.Ex.Stdin; in != nil && in.File != "" {
			out = append(out, patchTargets(c, c.resolve(in.File))...)
		}
		return out
	case "worktree":
		if len(ops) >= 3 && ops[1] == "add" {
			return []string{c.resolve(ops[2])}
		}
	case "checkout-index":
		// git checkout-index --prefix=P FILE writes P followed by FILE
		// (the prefix is a string: --prefix=out/ or --prefix=old-).
		prefix, _ := checkoutIndexPrefix(c.Args)
		var out []string
		for _, o := range ops[1:] {
			out = append(out, c.resolve(prefix+o))
		}
		return out
	}
	return nil
}

// checkoutIndexPrefix is git checkout-index's --prefix, and whether it
// writes every file of the index (-a, --all) or names read from standard
// input (--stdin): a whole tree under the prefix.
func checkoutIndexPrefix(args []string) (prefix string, all bool) {
	for _, a := range args {
		if v, ok := strings.CutPrefix(a, "--prefix="); ok {
			prefix = v
		}
		if a == "--all" || a == "--stdin" || shortClusterHas(a, "a") && !strings.Contains(a, "=") {
			all = true
		}
	}
	return prefix, all
}

// gitCheckoutPaths are the paths git checkout and git restore name: after
// --, restore's operands, and checkout's operands that look like paths.
func gitCheckoutPaths(c *Call, ops []string) []string {
	var out []string
	after := false
	for _, a := range c.Args {
		if a == "--" {
			after = true
			continue
		}
		if after || ops[0] == "restore" && !strings.HasPrefix(a, "-") && a != ops[0] {
			out = append(out, c.resolve(a))
		}
	}
	if !after && ops[0] == "checkout" {
		for _, o := range ops[1:] {
			if strings.Contains(o, ".") || strings.Contains(o, "/") {
				out = append(out, c.resolve(o))
			}
		}
	}
	return out
}

// patchTargets are the files a unified diff on disk writes: the paths of
// its "+++ " and "diff --git" lines, with the a/ b/ prefixes git adds
// dropped as well as kept (patch -p0 or -p1 both reach a protected name).
func patchTargets(c *Call, file string) []string {
	text, err := c.readSmall(file)
	if err != nil {
		return nil
	}
	var out []string
	for _, l := range strings.Split(text, "\n") {
		var names []string
		switch {
		case strings.HasPrefix(l, "+++ "), strings.HasPrefix(l, "--- "):
			names = []string{strings.Fields(l[4:] + " ")[0]}
		case strings.HasPrefix(l, "diff --git "):
			names = strings.Fields(l[len("diff --git "):])
		case strings.HasPrefix(l, "rename to "), strings.HasPrefix(l, "copy to "):
			names = []string{strings.TrimSpace(l[strings.Index(l, " to ")+4:])}
		}
		for _, n := range names {
			if n == "/dev/null" || n == "" {
				continue
			}
			out = append(out, c.resolve(n))
			if i := strings.IndexByte(n, '/'); i > 0 {
				out = append(out, c.resolve(n[i+1:]))
			}
		}
	}
	return out
}

// outputOptions are the files named by a program's output option, whatever
// the program: -o F, -oF, --output F, --output=F, --out-file F, -O F (wget),
// sort -o. Programs whose -o means something else (grep's only-matching,
// ssh's option) name no protected path there in practice, and only
// protected targets matter to the rules that use this.
func outputOptions(c *Call) []string {
	var out []string
	for i := range c.Args {
		if v, ok := outputOption(c, i); ok {
			out = append(out, c.resolve(v))
		}
	}
	return out
}

// outputOptNames take the output file as the next word; outputOptPrefixes
// carry it after =.
var (
	outputOptNames    = []string{"-o", "--output", "--out", "--output-file", "--out-file", "--output-document", "--outfile"}
	outputOptPrefixes = []string{"--output=", "--out=", "--output-file=", "--output-document=", "--outfile="}
)

// outputOption is the file the output option at c.Args[i] names.
func outputOption(c *Call, i int) (string, bool) {
	a, next := c.Args[i], i+1 < len(c.Args)
	switch {
	case slices.Contains(outputOptNames, a), a == "-O" && c.Ex.Name == "wget":
		if next {
			return c.Args[i+1], true
		}
		return "", false
	case a == "-O":
		return "", false
	case next && outputCluster(c.Ex.Name, a):
		// A short-option cluster ending in the output option (curl -sSLo F,
		// wget -qO F).
		return c.Args[i+1], true
	}
	for _, p := range outputOptPrefixes {
		if v, ok := strings.CutPrefix(a, p); ok {
			return v, true
		}
	}
	if v, ok := strings.CutPrefix(a, "-o"); ok && v != "" && !strings.HasPrefix(v, "-") && (c.Ex.Name == "sort" || c.Ex.Name == "curl" || strings.ContainsAny(v, "./")) {
		return v, true
	}
	return "", false
}

// outputCluster reports whether a is a short-option cluster ending in
// curl's -o or wget's -O.
func outputCluster(name, a string) bool {
	return len(a) > 2 && a[0] == '-' && a[1] != '-' && (name == "curl" && strings.HasSuffix(a, "o") || name == "wget" && strings.HasSuffix(a, "O"))
}

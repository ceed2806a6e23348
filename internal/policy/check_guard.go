package policy

import (
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/bounded"
	"github.com/gemini-guard/gemini-guard/internal/lazyregexp"
	"github.com/gemini-guard/gemini-guard/internal/protect"
	"github.com/gemini-guard/gemini-guard/internal/settings"
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
	w, d := programChanges(c, operands(c.Args))
	writes = append(writes, w...)
	deletes = append(deletes, d...)
	writes = append(writes, outputOptions(c)...)
	writes = append(writes, codeWrites(c)...)
	return writes, deletes
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

// optionValues are the values of the separate-word options names takes
// (openssl -out F).
func optionValues(args []string, names ...string) []string {
	var out []string
	for i, a := range args {
		if slices.Contains(names, a) && i+1 < len(args) {
			out = append(out, args[i+1])
		}
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
	for i, a := range args {
		switch name {
		case "sed":
			if a == "-i" || strings.HasPrefix(a, "--in-place") || strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, "i") && !strings.ContainsAny(a, "ef") {
				return true
			}
		case "perl", "ruby":
			if strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, "i") {
				return true
			}
		case "awk", "gawk":
			if (a == "-i" || a == "--include") && i+1 < len(args) && args[i+1] == "inplace" || a == "-iinplace" {
				return true
			}
		case "yq":
			if a == "-i" || a == "--inplace" || strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, "i") {
				return true
			}
		}
	}
	return false
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
	var out []string
	switch ops[0] {
	case "checkout", "restore":
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
	case "clone":
		if len(ops) >= 3 {
			out = append(out, c.resolve(ops[2]))
		} else if len(ops) == 2 {
			out = append(out, c.resolve(strings.TrimSuffix(path.Base(ops[1]), ".git")))
		}
	case "apply", "am":
		for _, o := range ops[1:] {
			out = append(out, patchTargets(c, c.resolve(o))...)
		}
		if in := c.Ex.Stdin; in != nil && in.File != "" {
			out = append(out, patchTargets(c, c.resolve(in.File))...)
		}
	case "worktree":
		if len(ops) >= 3 && ops[1] == "add" {
			out = append(out, c.resolve(ops[2]))
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
	for i, a := range c.Args {
		switch a {
		case "-o", "--output", "--out", "--output-file", "--out-file", "--output-document", "--outfile":
			if i+1 < len(c.Args) {
				out = append(out, c.resolve(c.Args[i+1]))
			}
			continue
		case "-O":
			if c.Ex.Name == "wget" && i+1 < len(c.Args) {
				out = append(out, c.resolve(c.Args[i+1]))
			}
			continue
		}
		// A short-option cluster ending in the output option (curl -sSLo F,
		// wget -qO F).
		if len(a) > 2 && a[0] == '-' && a[1] != '-' && i+1 < len(c.Args) &&
			(c.Ex.Name == "curl" && strings.HasSuffix(a, "o") || c.Ex.Name == "wget" && strings.HasSuffix(a, "O")) {
			out = append(out, c.resolve(c.Args[i+1]))
			continue
		}
		for _, p := range []string{"--output=", "--out=", "--output-file=", "--output-document=", "--outfile="} {
			if v, ok := strings.CutPrefix(a, p); ok {
				out = append(out, c.resolve(v))
			}
		}
		if v, ok := strings.CutPrefix(a, "-o"); ok && v != "" && !strings.HasPrefix(v, "-") && (c.Ex.Name == "sort" || c.Ex.Name == "curl" || strings.ContainsAny(v, "./")) {
			out = append(out, c.resolve(v))
		}
	}
	return out
}

// roots are the protected-path table's anchors for this context.
func (c *Context) roots() protect.Roots {
	return protect.Roots{Home: c.Home, Workspace: c.Workspace, GitleaksConfig: c.GitleaksConfig, FS: c.FS}
}

// cliArgs returns the arguments of a Gemini CLI invocation, however it is
// spelled: gemini, npx/bunx/pnpx @google/gemini-cli, pnpm/yarn dlx,
// npm exec/x, node|bun|deno <path to gemini or gemini-cli>.
func cliArgs(c *Call) ([]string, bool) {
	args := c.Args
	name := c.Ex.Name
	if name == "gemini" || len(c.Ex.Args) > 0 && isCLIName(c.Ex.Args[0]) {
		return args, true // npx and bunx are unwrapped by the analysis
	}
	switch name {
	case "npm", "pnpm", "yarn":
		ops := operands(args)
		if len(ops) == 0 || !slices.Contains([]string{"exec", "x", "dlx"}, ops[0]) {
			return nil, false
		}
		i := slices.Index(args, ops[0])
		return packageRunnerArgs(args[i+1:])
	case "npx", "bunx", "pnpx":
		return packageRunnerArgs(args)
	case "node", "bun", "deno", "nodejs":
		for i, a := range args {
			if strings.HasPrefix(a, "-") {
				continue
			}
			if a == "run" && (name == "deno" || name == "bun") {
				continue
			}
			if isCLIName(a) || locatesCLI(c, a) {
				return args[i+1:], true
			}
			return nil, false
		}
	}
	return nil, false
}

// locatesCLI reports whether the word a is the output of a command that
// finds the gemini program: node $(which gemini), node "$(command -v
// gemini)", node `type -p gemini`.
func locatesCLI(c *Call, a string) bool {
	for _, u := range c.Res.Unknowns(a) {
		for _, e := range u.Execs {
			if e.Name != "which" && e.Name != "command" && e.Name != "type" && e.Name != "whereis" && e.Name != "readlink" && e.Name != "realpath" {
				continue
			}
			for _, x := range e.Args[1:] {
				if isCLIName(x) {
					return true
				}
			}
		}
	}
	return false
}

// packageRunnerArgs finds the Gemini CLI package in npx-style arguments
// (options, then the package, then its arguments; or --package P then a
// binary name).
func packageRunnerArgs(args []string) ([]string, bool) {
	pkg := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "-p" || a == "--package" {
			if i+1 < len(args) && isCLIName(args[i+1]) {
				pkg = true
			}
			i++
			continue
		}
		if v, ok := strings.CutPrefix(a, "--package="); ok {
			pkg = pkg || isCLIName(v)
			continue
		}
		if a == "--" || strings.HasPrefix(a, "-") {
			continue
		}
		if pkg || isCLIName(a) {
			return args[i+1:], true
		}
		return nil, false
	}
	return nil, false
}

// isCLIName reports whether a package name or path names Gemini CLI.
func isCLIName(a string) bool {
	a = strings.ToLower(a)
	if strings.HasPrefix(a, "@google/gemini-cli") || strings.Contains(a, "/gemini-cli") || strings.HasPrefix(a, "gemini-cli") ||
		strings.Contains(a, "qwen-code") { // Qwen Code loads the same extension (qwen-extension.json)
		return true
	}
	b := path.Base(a)
	b = strings.TrimSuffix(strings.TrimSuffix(b, ".js"), ".mjs")
	if at := strings.LastIndex(b, "@"); at > 0 {
		b = b[:at]
	}
	return b == "gemini" || b == "qwen"
}

// checkCLI judges a Gemini CLI invocation: switching the extension or hooks
// off, installing or linking another extension, or starting a child agent
// without the guard (-e none, -e <list without gemini-guard>) or with
// approvals off (-y, --yolo, --approval-mode yolo), or with GEMINI_GUARD_
// settings of its own.
func checkCLI(c *Call, args []string) Finding {
	ops := operands(args)
	if hasArg(args, "--help", "-h", "--version", "-v") && len(ops) <= 2 {
		return Finding{}
	}
	if len(ops) >= 2 && (ops[0] == "extensions" || ops[0] == "extension") {
		return cliExtensionsVerb(args, ops)
	}
	if len(ops) >= 2 && ops[0] == "hooks" && (ops[1] == "disable" || ops[1] == "remove") {
		return hit("gemini hooks " + ops[1] + " switches hooks off")
	}
	if f := cliEnv(c); f.Hit {
		return f
	}
	if f := cliAssigned(c); f.Hit {
		return f
	}
	return cliFlags(args)
}

// cliExtensionsVerb: gemini extensions disable/uninstall/… of gemini-guard
// (or every extension), install and link of any.
func cliExtensionsVerb(args, ops []string) Finding {
	switch ops[1] {
	case "disable", "uninstall", "remove", "config", "link", "update", "install":
		if ops[1] == "install" || ops[1] == "link" || len(ops) == 2 || hasArg(ops[2:], "gemini-guard") || hasArg(args, "--all") {
			return hit("gemini extensions " + ops[1] + " changes the installed extensions (gemini-guard is one of them, and another extension's hooks and settings run beside it)")
		}
	}
	return Finding{}
}

// cliEnv: Gemini CLI started with a GEMINI_GUARD_ setting or a child-agent
// key of its own in its environment.
func cliEnv(c *Call) Finding {
	for _, k := range slices.Sorted(maps.Keys(c.Ex.Env)) {
		if strings.HasPrefix(strings.ToUpper(k), "GEMINI_GUARD_") {
			return hit("starts Gemini CLI with its own " + k + " setting, which the guard's hooks in that session would read")
		}
		// HOME=/tmp/x gemini, GEMINI_CLI_HOME=…, XDG_CONFIG_HOME=…: a child
		// agent that loads no extension (no guard, no policy wall), or
		// whose hooks run under BASH_ENV, LD_PRELOAD, NODE_OPTIONS, ….
		if why, ok := protect.ChildAgentKey(k, c.Ex.Env[k], shell.Known(c.Ex.Env[k])); ok {
			return hitSafer("starts Gemini CLI with "+k+" set: "+why+", so the child agent may run without the guard", protect.SaferEnv)
		}
	}
	return Finding{}
}

// cliAssigned: the shell that starts Gemini CLI sets a GEMINI_GUARD_
// setting or a child-agent key.
func cliAssigned(c *Call) Finding {
	for _, k := range c.Res.Assigned {
		if strings.HasPrefix(strings.ToUpper(k), "GEMINI_GUARD_") {
			// export GEMINI_GUARD_MODE=warn; gemini …: the child inherits it
			// (and a plain assignment changes an already exported one).
			return hit("sets " + k + " in the shell that starts Gemini CLI, whose guard hooks would read it")
		}
		// export HOME=/tmp/x; gemini …. PATH is left to the other rules:
		// scripts extend it before running tools all the time.
		v, known := exportedValue(c.Res, k)
		if why, ok := protect.ChildAgentKey(k, v, known); ok && k != "PATH" {
			return hitSafer("sets "+k+" in the shell that starts Gemini CLI: "+why+", so the child agent may run without the guard", protect.SaferEnv)
		}
	}
	return Finding{}
}

// cliFlags: a child agent started without gemini-guard in its -e list or
// with approvals off.
func cliFlags(args []string) Finding {
	for i, a := range args {
		if v, ok := extensionsValue(args, i); ok && !extensionListKeepsGuard(args, v) {
			return hit("starts a Gemini CLI agent without the gemini-guard extension (" + a + " " + v + ")")
		}
		if a == "-y" || a == "--yolo" || a == "--approval-mode=yolo" || a == "--approval-mode" && i+1 < len(args) && args[i+1] == "yolo" {
			return hit("starts a Gemini CLI agent that runs every tool call without asking (" + a + ")")
		}
	}
	return Finding{}
}

// extensionsValue is the value of an -e/--extensions option at args[i].
func extensionsValue(args []string, i int) (string, bool) {
	a := args[i]
	switch {
	case a == "-e" || a == "--extensions":
		if i+1 < len(args) {
			return args[i+1], true
		}
	case strings.HasPrefix(a, "--extensions="):
		return strings.TrimPrefix(a, "--extensions="), true
	case strings.HasPrefix(a, "-e") && len(a) > 2 && !strings.HasPrefix(a, "--"):
		return strings.TrimPrefix(strings.TrimPrefix(a, "-e"), "="), true
	}
	return "", false
}

// extensionListKeepsGuard reports whether the -e/--extensions lists of
// args (the flag may repeat) include gemini-guard. "none" loads nothing.
func extensionListKeepsGuard(args []string, first string) bool {
	lists := []string{first}
	for i, a := range args {
		if (a == "-e" || a == "--extensions") && i+1 < len(args) {
			lists = append(lists, args[i+1])
		}
	}
	for _, l := range lists {
		for _, n := range strings.Split(l, ",") {
			if strings.EqualFold(strings.TrimSpace(n), "gemini-guard") {
				return true
			}
		}
	}
	return false
}

// sessionEnvSetters set variables in the environment of programs the
// session manager, service manager or terminal multiplexer starts later:
// each with the verbs that set (none listed: the program only sets).
// launchctl getenv, systemctl show-environment and tmux show-environment
// only read.
var sessionEnvSetters = []struct {
	name  string
	verbs []string
}{
	{"launchctl", []string{"setenv", "config"}},
	{"systemctl", []string{"set-environment", "import-environment"}},
	{"tmux", []string{"setenv", "set-environment"}},
	{"screen", []string{"setenv"}},
	{"dbus-update-activation-environment", nil},
	{"setx", nil},
	{"setenv", nil},
}

// setsSessionEnv reports whether c is one of sessionEnvSetters setting,
// or fish's set -U.
func setsSessionEnv(c *Call) bool {
	if c.Ex.Name == "set" {
		return hasShortFlag(c.Args, 'U') || hasArg(c.Args, "--universal")
	}
	for _, s := range sessionEnvSetters {
		if s.name != c.Ex.Name {
			continue
		}
		if s.verbs == nil {
			return true
		}
		return slices.ContainsFunc(operands(c.Args), func(o string) bool { return slices.Contains(s.verbs, o) })
	}
	return false
}

// checkGuardTamper: changing or deleting the guard's or Gemini CLI's
// configuration (the protect table), or switching the guard off through
// Gemini CLI however it is spelled.
func checkGuardTamper(c *Call) Finding {
	if args, ok := cliArgs(c); ok {
		if f := checkCLI(c, args); f.Hit {
			return f
		}
	}
	if f := killsGuard(c); f.Hit {
		return f
	}
	if setsSessionEnv(c) {
		if k := setsControlKey(c); k != "" {
			return hitSafer(c.Ex.Name+" sets "+k+" for the programs started later, the next Gemini CLI session and its hooks among them", protect.SaferEnv)
		}
	}
	r := c.Ctx.roots()
	writes, deletes := changes(c)
	writes = append(writes, modeChanges(c)...)
	for _, p := range deletes {
		if !shell.Known(p) {
			continue
		}
		e := protect.Check(r, p)
		if e.Kind == protect.None {
			e = protect.Contains(r, p)
		}
		switch e.Kind {
		case protect.Config, protect.Tightening:
			return hit("deletes or moves away " + e.What)
		case protect.EnvFile:
			if k := mentionedControlKey(c); k != "" {
				return hitSafer("changes "+e.What+", naming "+k, protect.SaferEnv)
			}
		}
	}
	if f := linksToProtected(c, r); f.Hit {
		return f
	}
	if f := treeIntoUserConfig(c, r); f.Hit || f.Maybe {
		return f
	}
	for _, p := range writes {
		if !shell.Known(p) {
			continue
		}
		e := protect.Check(r, p)
		switch e.Kind {
		case protect.Config:
			return hit("changes " + e.What)
		case protect.EnvFile:
			if f := judgeEnvWrite(c, p, e); f.Hit || f.Maybe {
				f.Safer = protect.SaferEnv
				return f
			}
		case protect.GitCode:
			return hitSafer(c.Ex.Name+" writes "+e.What+": written by anything but git itself it is code planted to run later", protect.SaferGitCode)
		case protect.Tightening:
			if f := judgeTighteningWrite(c, p, e); f.Hit {
				return f
			}
		}
	}
	return Finding{}
}

// exportedValue is the value the command line gives k (X=v, export X=v),
// when it gives one known statically.
func exportedValue(res *shell.Result, k string) (string, bool) {
	v, ok := res.Values[k]
	return v, ok && shell.Known(v)
}

func hitSafer(what, safer string) Finding { return Finding{Hit: true, What: what, Safer: safer} }

// setsControlKey is the control key (protect.ControlKey) a session
// environment setter names: launchctl setenv K V, systemctl
// set-environment K=V, tmux setenv K V, setx K V, fish's set -U K V.
func setsControlKey(c *Call) string {
	if mentionsGuardSetting(c) {
		for _, o := range operands(c.Args) {
			if k, _, _ := strings.Cut(o, "="); strings.HasPrefix(strings.ToUpper(k), "GEMINI_GUARD") {
				return k
			}
		}
		return "a GEMINI_GUARD_ setting"
	}
	for _, o := range operands(c.Args) {
		k, _, _ := strings.Cut(o, "=")
		if _, ok := protect.ControlKey(k); ok && k == strings.ToUpper(k) {
			return k
		}
	}
	return ""
}

// linkers create a link to their source: ln (hard by default), cp -l/-s,
// --link, --symbolic-link.
func linker(c *Call) (symbolic, ok bool) {
	switch c.Ex.Name {
	case "ln":
		return hasSymbolicFlag(c.Args), true
	case "cp":
		if hasArg(c.Args, "--symbolic-link") || hasShortFlag(c.Args, 's') {
			return true, true
		}
		if hasArg(c.Args, "--link") || hasShortFlag(c.Args, 'l') {
			return false, true
		}
	}
	return false, false
}

// treeWriters copy, sync, move or unpack a whole tree into a directory.
var treeWriters = []string{"cp", "rsync", "ditto", "mv", "tar", "bsdtar", "unzip", "7z", "7za", "cpio", "scp"}

// treeIntoUserConfig: a recursive copy, sync, move or extraction whose
// destination tree takes in the user's Gemini CLI configuration (the home
// directory, ~/.gemini, or a directory above them): what the tree holds
// (a .gemini/settings.json, a .env) is not known when the command is
// judged. cp -r payload ~/ (a payload directory in home) and extraction
// into the workspace or a temporary directory stay allowed.
func treeIntoUserConfig(c *Call, r protect.Roots) Finding {
	if !slices.Contains(treeWriters, c.Ex.Name) {
		return Finding{}
	}
	ops := operands(c.Args)
	var dests []string
	unknown := false // a source not known statically: maybe its contents
	switch c.Ex.Name {
	case "cp", "rsync", "ditto", "scp", "mv":
		dests, unknown = treeCopyDests(c, ops)
	default:
		if !treeExtracts(c, ops) {
			return Finding{}
		}
		dests = []string{extractionDir(c)}
	}
	for _, d := range dests {
		if d == "" || !shell.Known(d) {
			continue
		}
		if e := protect.HoldsUserConfig(r, d); e.Kind != protect.None {
			if unknown && c.Ex.Name != "ditto" && !noTargetDir(c) && !contentsCopied(c, ops) {
				return Finding{Maybe: true, What: c.Ex.Name + " copies sources not known statically into " + d + ", which holds " + e.What, Safer: protect.SaferTree}
			}
			return hitSafer(c.Ex.Name+" copies or unpacks a whole tree into "+d+", which takes in "+e.What+": whatever the tree holds there (a .gemini/settings.json, a .env) replaces it", protect.SaferTree)
		}
	}
	return Finding{}
}

// treeCopyDests is the destination of a recursive copy when what lands in
// it is a source's contents (src/., src/ for rsync and BSD cp, ditto
// always, -T) or not known statically (unknown), not src as a new
// directory.
func treeCopyDests(c *Call, ops []string) (dests []string, unknown bool) {
	if !copiesTree(c) || len(ops) < 2 {
		return nil, false
	}
	contents := c.Ex.Name == "ditto" || noTargetDir(c)
	for _, src := range ops[:len(ops)-1] {
		if strings.HasSuffix(src, "/.") || strings.HasSuffix(src, "/") && c.Ex.Name != "mv" || src == "." {
			contents = true
		} else if !shell.Known(src) {
			unknown = true
		}
	}
	if contents || unknown {
		dests = append(dests, c.resolve(ops[len(ops)-1]))
	}
	return dests, unknown
}

// copiesTree reports whether a copier copies whole directories: cp -r/-a,
// rsync -r/-a (not a dry run), scp -r, ditto and mv always.
func copiesTree(c *Call) bool {
	switch c.Ex.Name {
	case "rsync":
		if hasArg(c.Args, "--dry-run", "--list-only") || hasShortFlag(c.Args, 'n') {
			return false // writes nothing
		}
		return hasArg(c.Args, "--recursive", "--archive") || hasShortFlag(c.Args, 'r') || hasShortFlag(c.Args, 'a')
	case "cp":
		return hasArg(c.Args, "--recursive", "--archive") || hasShortFlag(c.Args, 'r') || hasShortFlag(c.Args, 'R') || hasShortFlag(c.Args, 'a')
	case "scp":
		return hasShortFlag(c.Args, 'r')
	}
	return c.Ex.Name == "ditto" || c.Ex.Name == "mv"
}

// treeExtracts reports whether an archiver extracts: unzip always, cpio
// -i, 7z x/e, tar -x.
func treeExtracts(c *Call, ops []string) bool {
	switch c.Ex.Name {
	case "unzip":
		return true
	case "cpio":
		return hasArg(c.Args, "--extract") || hasShortFlag(c.Args, 'i')
	case "7z", "7za":
		return len(ops) > 0 && (ops[0] == "x" || ops[0] == "e")
	case "tar", "bsdtar":
		return extracts(c.Args)
	}
	return false
}

// extractionDir is where an archiver extracts: the last -C, --directory,
// unzip -d or 7z -o, else the working directory.
func extractionDir(c *Call) string {
	dir := c.Ex.Dir
	sevenZip := c.Ex.Name == "7z" || c.Ex.Name == "7za"
	for i, a := range c.Args {
		switch {
		case (a == "-C" || a == "--directory" || a == "-d" && c.Ex.Name == "unzip") && i+1 < len(c.Args):
			dir = c.resolve(c.Args[i+1])
		case strings.HasPrefix(a, "--directory="):
			dir = c.resolve(strings.TrimPrefix(a, "--directory="))
		case strings.HasPrefix(a, "-o") && len(a) > 2 && sevenZip:
			dir = c.resolve(a[2:])
		}
	}
	return dir
}

// modeChanges are the files whose mode, owner or attributes a call
// changes: chmod -x on a hook's binary makes Gemini CLI let every call
// through, since a hook that cannot run does not deny. A mode that only
// takes group's and others' access away changes nothing the guard needs.
func modeChanges(c *Call) []string {
	switch c.Ex.Name {
	case "chmod", "chown", "chgrp", "chattr", "setfacl":
	default:
		return nil
	}
	ops := operands(c.Args)
	if c.Ex.Name == "chmod" && len(ops) > 0 && tighteningMode(ops[0]) {
		return nil
	}
	var out []string
	for _, o := range ops {
		out = append(out, c.resolve(o))
	}
	return out
}

// killsGuard: pkill/killall of gemini-guard's processes by name. The
// scanner daemon killed between two scans leaves its socket name free for
// any program of the same user to answer the next scan.
func killsGuard(c *Call) Finding {
	guardName := func(args []string) string {
		for _, o := range operands(args) {
			l := strings.ToLower(o)
			if strings.Contains(l, "guard-scanner") || strings.Contains(l, "guard-shell") || strings.Contains(l, "guard-secrets") ||
				strings.Contains(l, "guard-redact") || strings.Contains(l, "gemini-guard") {
				return o
			}
		}
		return ""
	}
	stops := func(what string) Finding {
		return hit(c.Ex.Name + " stops gemini-guard's processes (" + what + "): until they are started again, another program can answer in the scanner's place")
	}
	switch c.Ex.Name {
	case "pkill", "killall", "skill":
		if o := guardName(c.Args); o != "" {
			return stops(o)
		}
	case "kill":
		// kill $(pgrep guard-scanner), kill `pidof guard-scanner`.
		for _, a := range c.Args {
			for _, u := range c.Res.Unknowns(a) {
				for _, e := range u.Execs {
					if (e.Name == "pgrep" || e.Name == "pidof") && len(e.Args) > 1 {
						if o := guardName(e.Args[1:]); o != "" {
							return stops(o)
						}
					}
				}
			}
		}
	}
	return Finding{}
}

func hasSymbolicFlag(args []string) bool {
	for _, a := range args {
		if a == "--symbolic" || strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, "s") {
			return true
		}
	}
	return false
}

// noTargetDir reports cp's and mv's -T (--no-target-directory): the
// source's contents become the destination.
func noTargetDir(c *Call) bool {
	return (c.Ex.Name == "cp" || c.Ex.Name == "mv") && (hasArg(c.Args, "--no-target-directory") || hasShortFlag(c.Args, 'T'))
}

// contentsCopied reports whether a source of a tree copy names a
// directory's contents (src/., src/, .).
func contentsCopied(c *Call, ops []string) bool {
	for _, src := range ops[:len(ops)-1] {
		if strings.HasSuffix(src, "/.") || strings.HasSuffix(src, "/") && c.Ex.Name != "mv" || src == "." {
			return true
		}
	}
	return false
}

// linksToProtected: a link (ln, ln -s, cp -l, cp -s) whose source is a
// protected file, or for a symlink a directory holding one: a later
// ordinary write through the link lands there. A link to a .env is allowed
// (monorepos share one); writes through it are judged by content.
func linksToProtected(c *Call, r protect.Roots) Finding {
	symbolic, ok := linker(c)
	if !ok {
		return Finding{}
	}
	ops := operands(c.Args)
	if len(ops) == 0 {
		return Finding{}
	}
	targets := ops
	if len(ops) >= 2 {
		targets = ops[:len(ops)-1]
	}
	kind := "hard link"
	if symbolic {
		kind = "symlink"
	}
	for _, t := range targets {
		if !shell.Known(t) {
			continue
		}
		p := c.resolve(t)
		e := protect.Check(r, p)
		if symbolic && (e.Kind == protect.None || e.Kind == protect.EnvFile) {
			e = protect.Holds(r, p)
		}
		if e.Kind != protect.None && e.Kind != protect.EnvFile {
			return hitSafer("creates a "+kind+" to "+e.What+", through which a later write would change it", protect.SaferLink)
		}
	}
	return Finding{}
}

// mentionsGuardSetting reports whether the call's arguments or input name a
// GEMINI_GUARD_ setting.
func mentionsGuardSetting(c *Call) bool {
	return strings.Contains(strings.ToUpper(codeText(c)), "GEMINI_GUARD")
}

// copiers put the content of their source files at their target.
var copiers = []string{"cp", "mv", "install", "ln", "rsync", "dd", "cat", "tee", "sponge"}

// writtenText is the text a call writes to target when the guard can know
// it: echo and printf arguments, a heredoc or here-string, : or true (an
// empty file), and the current content of the files a copier reads. append
// is set for >> (the text goes after the file's content).
func writtenText(c *Call, target string) (text string, appends, known bool) {
	for _, r := range c.Ex.Redirs {
		if r.Writes() && r.Target != "" && c.resolve(r.Target) == target {
			appends = r.Op == ">>" || r.Op == "&>>"
		}
	}
	for _, a := range c.Args {
		if !shell.Known(a) {
			return "", appends, false
		}
	}
	switch c.Ex.Name {
	case ":", "true":
		return "", appends, true
	case "echo":
		return echoText(c.Args), appends, true
	case "printf":
		text, known = printfText(c.Args)
		return text, appends, known
	}
	if in := c.Ex.Stdin; in != nil && in.HasText && len(in.Producers) == 0 && (c.Ex.Name == "cat" || c.Ex.Name == "tee") && len(operands(c.Args)) <= 1 {
		if !shell.Known(in.Text) {
			return "", appends, false
		}
		return in.Text, appends, true
	}
	text, known = copiedText(c)
	return text, appends, known
}

// echoText is what echo prints: its arguments and a newline unless -n.
func echoText(args []string) string {
	nl := "\n"
	for len(args) > 0 && (args[0] == "-n" || args[0] == "-e" || args[0] == "-E" || args[0] == "-ne" || args[0] == "-en") {
		if strings.Contains(args[0], "n") {
			nl = ""
		}
		args = args[1:]
	}
	return strings.Join(args, " ") + nl
}

// printfText is what printf prints for a format without directives or the
// formats %s and %s\n.
func printfText(args []string) (string, bool) {
	if len(args) == 1 && !strings.Contains(args[0], "%") {
		return strings.ReplaceAll(args[0], "\\n", "\n"), true
	}
	if len(args) >= 1 && (args[0] == "%s\\n" || args[0] == "%s") {
		return strings.Join(args[1:], "\n") + "\n", true
	}
	return "", false
}

// copiedText is the current content of the files a copier reads, when
// they are known and not written earlier on the same line.
func copiedText(c *Call) (string, bool) {
	srcs := copiedSources(c)
	if len(srcs) == 0 {
		return "", false
	}
	var b strings.Builder
	for _, s := range srcs {
		p := c.resolve(s)
		data, err := c.readSmall(p)
		if err != nil && (!shell.Known(p) || writtenEarlier(c, p)) {
			return "", false
		}
		b.WriteString(data) // a source that does not exist: the copy fails
	}
	return b.String(), true
}

// copiedSources are the files a copier (copiers) reads: dd's if=, cat's
// operands, every operand but the target of the others; tee and sponge
// copy standard input, not files.
func copiedSources(c *Call) []string {
	if !slices.Contains(copiers, c.Ex.Name) {
		return nil
	}
	switch c.Ex.Name {
	case "dd":
		var srcs []string
		for _, a := range c.Args {
			if v, ok := strings.CutPrefix(a, "if="); ok {
				srcs = append(srcs, v)
			}
		}
		return srcs
	case "cat":
		return operands(c.Args)
	case "tee", "sponge":
		return nil
	}
	ops := operands(c.Args)
	if len(ops) < 2 {
		return nil
	}
	return ops[:len(ops)-1]
}

// writtenEarlier reports whether another command of the same line writes p
// (printf ... > /tmp/x && cp /tmp/x .env): its content is not on disk yet.
func writtenEarlier(c *Call, p string) bool {
	for _, ex := range c.Res.Execs {
		if ex == c.Ex {
			continue
		}
		o := &Call{Ex: ex, Res: c.Res, Ctx: c.Ctx}
		if len(ex.Args) > 0 {
			o.Args = ex.Args[1:]
		}
		w, _ := changes(o)
		if slices.Contains(w, p) {
			return true
		}
	}
	return false
}

// readSmall reads a file of at most 64 KiB (the size of any real settings
// file) through the context's file system view; anything else (missing,
// larger, a FIFO or a device) is unknown.
func (c *Call) readSmall(p string) (string, error) {
	if p == "/dev/null" {
		return "", nil
	}
	data, truncated, err := c.Ctx.fs().ReadFile(p, 64<<10)
	if err != nil {
		return "", err
	}
	if truncated {
		return "", bounded.ErrNotRegular
	}
	return string(data), nil
}

// currentText is a file's content now ("" when missing or unreadable).
func (c *Call) currentText(p string) string {
	s, _ := c.readSmall(p)
	return s
}

// judgeEnvWrite: a .env file may get any content except a new or changed
// control key (protect.EnvFamilies: GEMINI_*, BASH_ENV, PATH, LD_*,
// NODE_OPTIONS, …), which Gemini CLI would load into its own environment
// and every hook's. When the written text is unknown, a call that names
// such a key is denied, and so is a copier whose source the guard cannot
// read (a file written earlier in the same command); other writers of
// unknown output are denied in strict mode.
func judgeEnvWrite(c *Call, p string, e protect.Entry) Finding {
	text, appends, known := writtenText(c, p)
	if !known {
		if k := mentionedControlKey(c); k != "" {
			return hit("sets " + k + " in " + e.What + " with content the guard cannot read first")
		}
		if slices.Contains(copiers, c.Ex.Name) && c.Ex.Name != "tee" {
			return hit("changes " + e.What + " with content the guard cannot read first")
		}
		return maybe("writes " + e.What + " with content that cannot be known statically")
	}
	before := c.currentText(p)
	after := text
	if appends {
		after = before + text
	}
	if ch, ok := protect.ChangesControlKey(before, after); ok {
		return hit(envKeyWhat(ch, e))
	}
	return Finding{}
}

// envKeyWhat says what setting a control key in a .env does.
func envKeyWhat(ch protect.ControlChange, e protect.Entry) string {
	return "sets " + ch.Key + " in " + e.What + ": " + ch.Why
}

// mentionedControlKey is the first control key the call's arguments or
// input assign (NAME=, NAME: ), "" if none.
func mentionedControlKey(c *Call) string {
	text := codeText(c)
	if !strings.Contains(text, "=") && !strings.Contains(text, ":") {
		return ""
	}
	for _, m := range keyAssignment.Get().FindAllStringSubmatch(text, -1) {
		// Upper case only: a mention is a guess at what unknown output holds,
		// and --path=, path= are options, not environment keys.
		if _, ok := protect.ControlKey(m[1]); ok && m[1] == strings.ToUpper(m[1]) {
			return m[1]
		}
	}
	return ""
}

var keyAssignment = &lazyregexp.Regexp{Expr: `(?:^|[^\w%.-])([A-Za-z_][\w%]*)[ \t]*(?:=|:[ \t])`}

// judgeTighteningWrite: the project's tightening file may be rewritten only
// to something at least as strict; unknown content is denied.
func judgeTighteningWrite(c *Call, p string, e protect.Entry) Finding {
	if !strings.EqualFold(path.Base(p), path.Base(settings.ProjectFile)) {
		return Finding{}
	}
	text, appends, known := writtenText(c, p)
	if !known {
		return hit("rewrites " + e.What + " with content the guard cannot check (it may only get stricter)")
	}
	before := c.currentText(p)
	after := text
	if appends {
		after = before + text
	}
	if protect.Weakens(c.Ctx.Workspace, before, after) {
		return hit("loosens " + e.What + ", which may only make the guard stricter")
	}
	return Finding{}
}

// TamperFinding runs guard.tamper alone over res: the secrets guard uses it
// so that both guards answer alike for the guard's own configuration. It
// returns the first denying finding, if any.
func TamperFinding(res *shell.Result, ctx *Context) (Finding, bool) {
	var rule *Rule
	for _, r := range table {
		if r.ID == "guard.tamper" {
			rule = r
		}
	}
	if rule == nil || ctx.Disabled[rule.ID] {
		return Finding{}, false
	}
	for _, ex := range res.Execs {
		c := &Call{Ex: ex, Res: res, Ctx: ctx}
		if len(ex.Args) > 0 {
			c.Args = ex.Args[1:]
		}
		f := rule.exec(c)
		f.Rule, f.Exec = rule, ex
		if (f.Hit || f.Maybe) && f.Denies(ctx) {
			return f, true
		}
	}
	return Finding{}, false
}

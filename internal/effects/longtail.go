package effects

import (
	"slices"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/shell"
)

// This file holds the effects of the long tail found by the session-9
// corpus (more-*.jsonl): files a web client uploads, packages run from a
// URL, system commands repointed, data stores told to drop what they
// hold, backups deleted, syncs from an empty directory, processes handed
// to the network by the long tail.

// pasteClients publish the files they are given (pastebinit -i FILE,
// pastebinit FILE): a file pasted is read and sent.
func pastedFiles(name string, args []string) []string {
	if name != "pastebinit" && name != "wgetpaste" && name != "fpaste" && name != "termbin" {
		return nil
	}
	var out []string
	for i, a := range args {
		switch {
		case a == "-i" && i+1 < len(args):
			out = append(out, args[i+1])
		case !strings.HasPrefix(a, "-") && (i == 0 || !strings.HasPrefix(args[i-1], "-")) && pathLike(a):
			out = append(out, a)
		}
	}
	return out
}

// editCreated reads systemctl edit --force --full NAME: a new system unit
// written (its content from standard input or an editor).
func editCreated(name string, args []string) (string, bool) {
	if name != "systemctl" || len(args) < 2 || args[0] != "edit" && !slices.Contains(args, "edit") || !slices.Contains(args, "--force") || slices.Contains(args, "--user") {
		return "", false
	}
	u := args[len(args)-1]
	if strings.HasPrefix(u, "-") || !shell.Known(u) || strings.Contains(u, "/") {
		return "", false
	}
	if !strings.Contains(u, ".") {
		u += ".service"
	}
	return "/etc/systemd/system/" + u, true
}

// netSenders send what they read on standard input to a network peer.
var netSenders = []string{"curl", "wget", "nc", "ncat", "netcat", "socat", "telnet", "openssl", "http", "xh"}

// clipboardSent reports the Windows clipboard (Get-Clipboard, read by
// PowerShell from WSL) piped into a program that sends its input over the
// network: password managers put passwords there to be pasted.
func clipboardSent(ex *shell.Exec) bool {
	if !slices.Contains(netSenders, ex.Name) || ex.Stdin == nil {
		return false
	}
	for _, p := range ex.Stdin.Producers {
		if (p.Name == "powershell" || p.Name == "pwsh") && strings.Contains(strings.ToLower(p.Text), "get-clipboard") {
			return true
		}
	}
	return false
}

// StdinText is what a command reads on standard input when the line
// shows it: a here-document or here-string, or what echo and printf pipe
// into it.
func StdinText(ex *shell.Exec) string {
	var b strings.Builder
	if in := ex.Stdin; in != nil {
		if in.HasText {
			b.WriteString(in.Text)
		}
		for _, p := range in.Producers {
			if (p.Name == "echo" || p.Name == "printf") && len(p.Args) > 1 {
				b.WriteString(" " + strings.Join(p.Args[1:], " "))
			}
		}
	}
	return b.String()
}

// remotePackageRunners run a package they fetch for this one call (uvx,
// pipx run, nix run, npx, pnpm dlx, bunx, yarn dlx); Sub is the word
// that starts the run, "" when the program itself runs.
var remotePackageRunners = []struct {
	Name, Sub string
	Opts      shell.OptSpec
	// From are the options whose value is the package spec.
	From []string
}{
	{Name: "uvx", Opts: shell.OptSpec{Long: []string{"from=", "with=", "python=", "index-url=", "extra-index-url=", "index=", "default-index="}, Short: "p:w:"}, From: []string{"from", "with", "w"}},
	{Name: "uv", Sub: "tool", Opts: shell.OptSpec{Long: []string{"from=", "with=", "python=", "index-url=", "extra-index-url=", "index=", "default-index="}, Short: "p:w:"}, From: []string{"from", "with", "w"}},
	{Name: "pipx", Sub: "run", Opts: shell.OptSpec{Long: []string{"spec=", "python=", "index-url=", "pip-args="}}, From: []string{"spec"}},
	{Name: "nix", Sub: "run", Opts: shell.OptSpec{Long: []string{"override-input=", "option=", "expr=", "file="}, Short: "f:"}},
	{Name: "npm", Sub: "exec", Opts: shell.OptSpec{Long: []string{"package=", "call=", "workspace="}, Short: "c:w:"}, From: []string{"package"}},
	{Name: "pnpm", Sub: "dlx", Opts: shell.OptSpec{Long: []string{"package="}}, From: []string{"package"}},
	{Name: "yarn", Sub: "dlx", Opts: shell.OptSpec{Long: []string{"package="}, Short: "p:"}, From: []string{"package", "p"}},
}

// remoteSpec reports a package spec that is not a registry name: a URL,
// a git or GitHub reference, a flake from a forge (git+https://…,
// github:user/repo, https://x/pkg.tgz). nixpkgs#hello, a registry name
// and a local path are not.
func remoteSpec(s string) bool {
	l := strings.ToLower(s)
	for _, p := range []string{"git+", "http://", "https://", "github:", "gitlab:", "sourcehut:", "git://", "ssh://", "tarball+", "file+http"} {
		if strings.HasPrefix(l, p) {
			return true
		}
	}
	return false
}

// packageWrappers are the runners package shell unwraps (npx SPEC runs
// SPEC): the command it emits is the package spec itself.
var packageWrappers = []string{"npx", "bunx", "pnpx"}

// wrappedRemoteRun reports a command run through npx, bunx or pnpx whose
// name is a remote spec (npx https://…/pkg.tgz, bunx github:user/tool).
func wrappedRemoteRun(ex *shell.Exec) (string, bool) {
	if len(ex.Via) == 0 || len(ex.Args) == 0 || !slices.Contains(packageWrappers, ex.Via[len(ex.Via)-1]) {
		return "", false
	}
	return ex.Args[0], remoteSpec(ex.Args[0])
}

// remotePackageRun returns the remote spec a package runner is told to
// fetch and run: uvx --from git+https://…, pipx run https://…/x.py, nix
// run github:user/flake, npx https://…/pkg.tgz, bunx github:user/tool.
// Installing such a package is not judged (threat model 3.1); running it
// for one call is running code nobody read.
func remotePackageRun(name string, args []string) (string, bool) {
	for _, r := range remotePackageRunners {
		if r.Name != name {
			continue
		}
		p := shell.ParseArgs(args, &r.Opts)
		ops := p.Operands
		if r.Sub != "" {
			if len(ops) == 0 || ops[0] != r.Sub && !(r.Name == "uv" && ops[0] == "tool") {
				return "", false
			}
			ops = ops[1:]
			if r.Name == "uv" { // uv tool run SPEC
				if len(ops) == 0 || ops[0] != "run" {
					return "", false
				}
				ops = ops[1:]
			}
		}
		for _, o := range p.Opts {
			if slices.Contains(r.From, o.Name) && o.HasValue && remoteSpec(o.Value) {
				return o.Value, true
			}
		}
		if len(ops) > 0 && remoteSpec(ops[0]) {
			return ops[0], true
		}
	}
	return "", false
}

// systemProgramDirs are where a system command's alternative may point:
// the programs the package manager installed.
var systemProgramDirs = []string{"/usr/", "/bin/", "/sbin/", "/lib/", "/lib64/", "/opt/", "/snap/", "/etc/alternatives/", "/nix/store/"}

// alternativeRepointed reads update-alternatives --install LINK NAME PATH
// PRIO and --set NAME PATH: a system command pointed at a program outside
// the system's program directories (a temp file, home) runs that program
// for everyone who types the command. It returns the alternative's link.
func alternativeRepointed(name string, args []string) (string, bool) {
	if name != "update-alternatives" && name != "alternatives" {
		return "", false
	}
	var alt, target string
	for i, a := range args {
		switch {
		case a == "--install" && i+3 < len(args):
			alt, target = args[i+2], args[i+3]
		case a == "--set" && i+2 < len(args):
			alt, target = args[i+1], args[i+2]
		}
	}
	if alt == "" || target == "" || !shell.Known(target) || !shell.Known(alt) || strings.ContainsRune(alt, '/') {
		return "", false
	}
	for _, d := range systemProgramDirs {
		if strings.HasPrefix(target, d) {
			return "", false
		}
	}
	return "/etc/alternatives/" + alt, true
}

// dataShells are the shells of data stores nobody listed (graph,
// multi-model and SQL-compatible databases): their query text is judged
// for a whole database, table or graph dropped.
var dataShells = []string{"cypher-shell", "mgconsole", "surreal", "arangosh", "edgedb", "gel", "dolt", "cockroach", "nebula-console", "gremlin"}

// dropQueryWords are query texts that destroy a whole database, table or
// graph in those shells' languages (Cypher, SurrealQL, AQL's JavaScript).
var dropQueryWords = []string{"drop database", "drop table", "drop keyspace", "drop schema", "drop graph", "remove database", "remove namespace", "remove table",
	"detach delete", "._drop(", "._dropdatabase(", "dropdatabase("}

// droppedStore reports query text, given in an argument or on standard
// input, that drops a database, a table or a graph whole (cypher-shell
// 'MATCH (n) DETACH DELETE n', surreal sql <<< 'REMOVE DATABASE prod',
// arangosh … 'db._drop("orders")'). A scoped delete (WHERE) is not.
func droppedStore(texts []string) (string, bool) {
	for _, t := range texts {
		l := strings.ToLower(strings.Join(strings.Fields(t), " "))
		if strings.Contains(l, " where ") {
			continue
		}
		for _, w := range dropQueryWords {
			if strings.Contains(l, w) {
				return w, true
			}
		}
		// DELETE table; deletes every record of the table.
		if f := strings.Fields(strings.TrimRight(l, "; ")); len(f) == 2 && f[0] == "delete" {
			return "delete " + f[1], true
		}
	}
	return "", false
}

// queryTexts are the texts a data shell may run: its arguments, its
// here-document or here-string, and what echo or printf pipe into it.
func queryTexts(ex *shell.Exec) []string {
	out := slices.Clone(ex.Args[1:])
	if in := ex.Stdin; in != nil {
		if in.HasText {
			out = append(out, in.Text)
		}
		for _, p := range in.Producers {
			if p.Name == "echo" || p.Name == "printf" {
				out = append(out, strings.Join(p.Args[1:], " "))
			}
		}
	}
	return out
}

// backupDestroys are backup tools' calls that delete backups: bup rm and
// gc told --unsafe (bup's own warning), juicefs rmr (a tree removed at
// once on the shared file system), Bacula's console told to delete or
// purge volumes or jobs.
func backupDestroyed(ex *shell.Exec, args []string) (string, bool) {
	switch ex.Name {
	case "bup":
		if len(args) > 0 && (args[0] == "rm" || args[0] == "gc" || args[0] == "prune-older") && slices.Contains(args, "--unsafe") {
			return args[0] + " --unsafe", true
		}
	case "pg_dropcluster":
		if len(args) >= 2 && !slices.ContainsFunc(args, isHelp) {
			return "a PostgreSQL cluster and its data dropped", true
		}
	case "timeshift":
		if slices.Contains(args, "--delete-all") {
			return "--delete-all", true
		}
	case "snapper": // snapper delete 1-100: a range of snapshots
		p := shell.ParseArgs(args, &shell.OptSpec{Short: "c:", Long: []string{"config="}})
		if len(p.Operands) >= 2 && (p.Operands[0] == "delete" || p.Operands[0] == "rm") && slices.ContainsFunc(p.Operands[1:], func(o string) bool { return strings.Contains(o, "-") }) {
			return "delete of a range of snapshots", true
		}
	case "juicefs":
		if len(args) > 0 && args[0] == "rmr" {
			return "rmr", true
		}
	case "bconsole":
		for _, t := range queryTexts(ex) {
			l := strings.ToLower(strings.Join(strings.Fields(t), " "))
			for _, w := range []string{"delete volume", "purge volume", "delete jobid", "purge jobs", "delete pool", "truncate volume"} {
				if strings.Contains(l, w) {
					return w, true
				}
			}
		}
	}
	return "", false
}

// emptySources are directories that are empty by name or by purpose: a
// sync or mirror from one onto a destination deletes everything there.
var emptySources = []string{"/var/empty", "/usr/share/empty", "/var/lib/empty", "/usr/share/empty.sshd"}

// emptyLike reports a source directory that is empty by its place, or
// named for being empty (./empty, /tmp/empty, C:\empty).
func emptyLike(dir string) bool {
	d := strings.TrimRight(strings.ReplaceAll(dir, `\`, "/"), "/")
	if slices.Contains(emptySources, d) {
		return true
	}
	base := strings.ToLower(d[strings.LastIndexByte(d, '/')+1:])
	if i := strings.IndexByte(base, ':'); i >= 0 { // C:empty once bash removed the backslash
		base = base[i+1:]
	}
	return base == "empty" || base == "void" || base == "emptydir" || base == "empty-dir"
}

// emptyMirror reports a sync that makes a destination match an empty
// directory: rclone sync EMPTY REMOTE, robocopy EMPTY DEST /MIR or
// /PURGE, lftp's mirror -R --delete EMPTY DIR.
func emptyMirror(name string, args []string) (string, bool) {
	switch name {
	case "rclone":
		p := shell.ParseArgs(args, &shell.OptSpec{Long: []string{"config=", "filter=", "include=", "exclude=", "filter-from=", "include-from=", "exclude-from=", "transfers=", "checkers=", "bwlimit=", "log-file=", "log-level=", "backup-dir=", "suffix=", "min-age=", "max-age=", "max-size=", "min-size="}})
		if len(p.Operands) >= 3 && p.Operands[0] == "sync" && !p.Has("dry-run", "n", "interactive", "i") && emptyLike(p.Operands[1]) {
			return "sync from an empty directory", true
		}
	case "robocopy":
		mir := slices.ContainsFunc(args, func(a string) bool { return strings.EqualFold(a, "/mir") || strings.EqualFold(a, "/purge") })
		list := slices.ContainsFunc(args, func(a string) bool { return strings.EqualFold(a, "/l") })
		if mir && !list && len(args) >= 2 && emptyLike(args[0]) {
			return "mirror of an empty folder", true
		}
	case "lftp":
		for i, a := range args {
			if a != "-e" && a != "-c" || i+1 >= len(args) {
				continue
			}
			for _, cmd := range strings.Split(args[i+1], ";") {
				f := strings.Fields(cmd)
				if len(f) < 3 || f[0] != "mirror" || !slices.Contains(f, "--delete") || slices.Contains(f, "--dry-run") {
					continue
				}
				ops := slices.DeleteFunc(slices.Clone(f[1:]), func(w string) bool { return strings.HasPrefix(w, "-") })
				if len(ops) >= 1 && emptyLike(ops[0]) {
					return "mirror --delete from an empty directory", true
				}
			}
		}
	}
	return "", false
}

// exposers hand the machine to the network by what they are given: a
// terminal opened on another machine's display (xterm -display
// host:1), a SOCKS proxy listening on every interface, a DNS
// command-and-control client.
func exposed(name string, args []string, home string) (string, bool) {
	switch name {
	case "xterm", "uxterm", "urxvt", "rxvt", "st", "xfce4-terminal", "gnome-terminal", "konsole":
		for i, a := range args {
			if (a == "-display" || a == "--display") && i+1 < len(args) {
				host, _, _ := strings.Cut(args[i+1], ":")
				if host != "" && host != "localhost" && host != "unix" && host != "127.0.0.1" {
					return "a terminal on the display " + args[i+1], true
				}
			}
		}
	case "microsocks", "3proxy", "danted", "sockd":
		for i, a := range args {
			if a == "-i" && i+1 < len(args) && (args[i+1] == "0.0.0.0" || args[i+1] == "::") {
				return "a SOCKS proxy on every interface", true
			}
		}
	case "onionshare-cli", "onionshare":
		for _, a := range args {
			if a == "~" || a == "/" || home != "" && (a == home || a == home+"/" || strings.HasPrefix(a, home+"/.")) || strings.HasPrefix(a, "~/.") {
				return "the home directory (or a dot directory of it) over Tor", true
			}
		}
	case "jupyter", "jupyter-notebook", "jupyter-lab", "jupyter-server":
		if what, ok := jupyterOpen(name, args); ok {
			return what, true
		}
	case "dnscat", "dnscat2-client":
		if len(args) > 0 && !slices.ContainsFunc(args, isHelp) {
			return "a DNS command channel (dnscat)", true
		}
	}
	return "", false
}

// WindowsRunners are the Windows programs that run a file they are
// given (cmd /c F, powershell -File F, msiexec /i F, start F).
var WindowsRunners = []string{"cmd", "powershell", "pwsh", "msiexec", "wscript", "cscript", "rundll32", "regsvr32", "mshta", "start", "installutil"}

// WindowsDownload returns the file a Windows downloader writes: certutil
// -urlcache … URL FILE, bitsadmin /transfer NAME … URL FILE, and the file
// certutil -decode writes from text nobody read.
func WindowsDownload(name string, args []string) (string, bool) {
	has := func(w string) bool {
		return slices.ContainsFunc(args, func(a string) bool { return strings.EqualFold(a, w) })
	}
	switch {
	case name == "certutil" && (has("-decode") || has("-decodehex")) && len(args) >= 3:
		return args[len(args)-1], shell.Known(args[len(args)-1])
	case name == "certutil" && has("-urlcache"), name == "bitsadmin" && has("/transfer"):
	default:
		return "", false
	}
	if len(args) < 2 || !strings.Contains(strings.ToLower(args[len(args)-2]), "://") {
		return "", false
	}
	return args[len(args)-1], shell.Known(args[len(args)-1])
}

// FetchedFile returns the file curl -o or wget -O writes, for the
// Windows programs run on it later (msiexec /i, wscript): package policy's
// rce rules judge the Unix ways of running it.
func FetchedFile(name string, args []string) (string, bool) {
	if name != "curl" && name != "wget" {
		return "", false
	}
	for i, a := range args {
		switch {
		case (a == "-o" || a == "--output" || a == "-O" && name == "wget" || a == "--output-document") && i+1 < len(args):
			return args[i+1], shell.Known(args[i+1])
		case name == "curl" && len(a) > 2 && a[0] == '-' && a[1] != '-' && a[len(a)-1] == 'o' && isLetters(a[1:]) && i+1 < len(args): // -so FILE
			return args[i+1], shell.Known(args[i+1])
		}
	}
	return "", false
}

// WindowsBase is a path's last element, by / or \ (a.exe for
// C:\Temp\a.exe, ./a.exe and %TEMP%\a.exe), lower-cased.
func WindowsBase(p string) string {
	if i := strings.LastIndexAny(p, `/\`); i >= 0 {
		p = p[i+1:]
	}
	return strings.ToLower(p)
}

// Host is the Area of a Change that stops the machine the agent runs on
// or takes its network away, seen from WSL or Git Bash (package policy's
// proc rules judge the Unix spellings).
const Host Area = 12

// criticalProcesses are the Windows processes the system cannot run
// without: killing one stops or reboots the host.
var criticalProcesses = []string{"svchost", "lsass", "csrss", "wininit", "winlogon", "smss", "services"}

// hostStopped finds the Windows host or the WSL VM stopped, a process
// Windows cannot run without or every process of a user killed, or a
// network adapter disabled.
func hostStopped(name string, args []string, text string) (string, bool) {
	eq := func(w string) func(string) bool { return func(a string) bool { return strings.EqualFold(a, w) } }
	switch name {
	case "wsl":
		if slices.ContainsFunc(args, eq("--shutdown")) {
			return "every WSL distribution and their VM shut down", true
		}
	case "taskkill":
		for i, a := range args {
			if i+1 >= len(args) {
				break
			}
			v := strings.ToLower(args[i+1])
			switch {
			case strings.EqualFold(a, "/im") && slices.Contains(criticalProcesses, strings.TrimSuffix(v, ".exe")):
				return "a process Windows cannot run without killed (" + args[i+1] + ")", true
			case strings.EqualFold(a, "/fi") && strings.HasPrefix(strings.Join(strings.Fields(v), " "), "username eq"):
				return "every process of a user killed", true
			}
		}
	case "netsh":
		l := strings.ToLower(strings.Join(args, " "))
		if strings.Contains(l, "interface") && strings.Contains(l, " set ") && (strings.Contains(l, "admin=disable") || strings.Contains(l, "disabled")) {
			return "a network interface disabled", true
		}
	case "powershell", "pwsh":
		code := strings.ToLower(text)
		if strings.Contains(code, "disable-netadapter") {
			return "network adapters disabled", true
		}
		if strings.Contains(code, "stop-process") || strings.Contains(code, "kill ") {
			for _, w := range strings.FieldsFunc(code, func(r rune) bool { return !(r >= 'a' && r <= 'z') }) {
				if slices.Contains(criticalProcesses, w) {
					return "a process Windows cannot run without killed (" + w + ")", true
				}
			}
		}
	}
	return "", false
}

func isLetters(s string) bool {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return false
		}
	}
	return true
}

// dbClients are database clients whose query text is read for the
// server's own credential objects.
var dbClients = []string{"psql", "pgcli", "mysql", "mariadb", "mycli", "usql", "redis-cli", "valkey-cli", "keydb-cli", "mongosh", "mongo", "cockroach"}

// serverCredentialRead says whether a database client's query reads the
// server's credential objects, which print password hashes or the
// server's password: PostgreSQL's pg_authid and pg_shadow (select * or
// their password column), MySQL's mysql.user (its authentication_string
// or password column, SHOW CREATE USER), Redis's requirepass and
// masterauth (CONFIG GET, ACL LIST, ACL GETUSER), MongoDB's
// admin.system.users (or getUsers with showCredentials). Listing users or
// roles without their secrets is not.
func serverCredentialRead(ex *shell.Exec) (string, bool) {
	if what, ok := credentialDump(ex.Name, ex.Args[1:]); ok {
		return what, true
	}
	if !slices.Contains(dbClients, ex.Name) {
		return "", false
	}
	texts := append(queryTexts(ex), strings.Join(ex.Args[1:], " "))
	for _, t := range texts {
		l := strings.ToLower(strings.Join(strings.Fields(t), " "))
		switch {
		case strings.Contains(l, "rolpassword") || (strings.Contains(l, "pg_authid") || strings.Contains(l, "pg_shadow")) &&
			(strings.Contains(l, "select *") || strings.Contains(l, "passwd") || strings.Contains(l, "table pg_")):
			return "the PostgreSQL server's password hashes (pg_authid, pg_shadow)", true
		case strings.Contains(l, "authentication_string") || strings.Contains(l, "show create user") ||
			strings.Contains(l, "mysql.user") && (strings.Contains(l, "select *") || strings.Contains(l, "password")):
			return "the MySQL server's password hashes (mysql.user)", true
		case redisSecretQuery(l):
			return "the Redis server's passwords (requirepass, masterauth, ACL users)", true
		case strings.Contains(l, "system.users") && !strings.Contains(l, "count") || strings.Contains(l, "showcredentials"):
			return "the MongoDB server's user credentials (admin.system.users)", true
		}
	}
	return "", false
}

// credentialDump: the database dumpers asked for a server's credential
// objects themselves: pg_dumpall of the roles (--roles-only, -r,
// --globals-only, -g) with their password hashes (not
// --no-role-passwords), mysqldump of the mysql database's user table, and
// mongodump or mongoexport of admin's system.users. A whole server's
// backup (pg_dumpall, mysqldump --all-databases) holds them too, but is
// what a backup is: not judged here.
func credentialDump(name string, args []string) (string, bool) {
	switch name {
	case "pg_dumpall":
		p := shell.ParseArgs(args, &shell.OptSpec{Short: "f:d:h:p:U:l:S:E:", Long: []string{"file=", "dbname=", "host=", "port=", "username=", "database=",
			"superuser=", "encoding=", "exclude-database=", "extra-float-digits=", "rows-per-insert=", "role="}})
		if p.Has("r", "roles-only", "g", "globals-only") && !p.Has("no-role-passwords", "help", "version") {
			return "the PostgreSQL server's roles with their password hashes (pg_dumpall)", true
		}
	case "mysqldump", "mariadb-dump":
		p := shell.ParseArgs(args, &shell.OptSpec{Short: "u:p::h:P:r:S:", Long: []string{"user=", "password=?", "host=", "port=", "result-file=", "socket=", "where=", "ignore-table="}})
		if ops := p.Operands; len(ops) >= 2 && ops[0] == "mysql" && slices.Contains(ops[1:], "user") || p.Has("tables") && slices.Contains(ops, "mysql.user") {
			return "the MySQL server's password hashes (mysql.user)", true
		}
	case "mongodump", "mongoexport":
		joined := strings.ToLower(strings.Join(args, " "))
		if strings.Contains(joined, "system.users") || strings.Contains(joined, "dumpdbusersandroles") {
			return "the MongoDB server's user credentials (admin.system.users)", true
		}
	}
	return "", false
}

// redisSecretQuery: CONFIG GET of a password parameter or of everything,
// ACL LIST and ACL GETUSER (password hashes), lower-cased and spaced.
func redisSecretQuery(l string) bool {
	if strings.Contains(l, "acl list") || strings.Contains(l, "acl getuser") {
		return true
	}
	_, param, ok := strings.Cut(l, "config get ")
	if !ok {
		return false
	}
	param, _, _ = strings.Cut(param, " ")
	param = strings.Trim(param, `"'`)
	return param == "*" || strings.Contains(param, "pass") || strings.Contains(param, "auth")
}

// jupyterOpen: a Jupyter server with its token (and password) switched off
// on an address other than the loopback: whoever reaches the port runs
// code and opens terminals as the user, and browses the directory it was
// started in (home, often). With a token, or on 127.0.0.1, it is the
// developer's own.
func jupyterOpen(name string, args []string) (string, bool) {
	if name == "jupyter" && (len(args) == 0 || !slices.Contains([]string{"notebook", "lab", "server", "nbclassic"}, args[0])) {
		return "", false
	}
	ip, open, password := "", false, false
	for i, a := range args {
		k, v, hasValue := strings.Cut(a, "=")
		if !hasValue && i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
			v = args[i+1]
		}
		k = strings.ToLower(strings.TrimLeft(k, "-"))
		switch {
		case k == "ip" || strings.HasSuffix(k, "app.ip"):
			ip = v
		case strings.HasSuffix(k, ".token") && hasValue && strings.Trim(v, `"'`) == "":
			open = true
		case strings.HasSuffix(k, ".password") && strings.Trim(v, `"'`) != "":
			password = true
		}
	}
	if !open || password || ip == "" || loopback(ip) {
		return "", false
	}
	return "a Jupyter server without a token on " + ip + " (code and terminals for whoever connects)", true
}

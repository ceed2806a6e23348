package policy

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/lazyregexp"
	"github.com/gemini-guard/gemini-guard/internal/shell"
)

// networkFetchers print data from the network on their standard output (or
// into files).
var networkFetchers = []string{
	"curl", "wget", "fetch", "http", "https", "xh", "xhs", "aria2c",
	"lwp-request", "lwp-download", "get", "nc", "ncat", "netcat", "socat",
	"telnet", "ftp", "tftp", "ssh", "invoke-webrequest", "iwr", "irm",
	"invoke-restmethod", "gh", "s3cmd",
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
	case "uudecode", "gunzip", "zcat", "bunzip2", "bzcat", "unxz", "xzcat", "unzstd", "zstdcat", "lzcat", "unlzma":
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
	return Finding{}
}

func checkDynamicCode(h *shell.Hazard, _ *Context) Finding {
	if h.Kind == shell.DynamicCode {
		return maybe(h.Detail)
	}
	return Finding{}
}

func checkInterpreterCode(h *shell.Hazard, _ *Context) Finding {
	if h.Kind == shell.InterpreterCode {
		return maybe(h.Detail)
	}
	return Finding{}
}

func checkForkBomb(h *shell.Hazard, _ *Context) Finding {
	if h.Kind == shell.ForkBomb {
		return hit(h.Detail + ": a fork bomb that exhausts the machine's processes")
	}
	return Finding{}
}

func checkParseError(h *shell.Hazard, _ *Context) Finding {
	if h.Kind != shell.ParseError {
		return Finding{}
	}
	if h.Repaired {
		return maybe("the command is not valid bash (" + h.Detail + ")")
	}
	return hit("the command is not valid bash (" + h.Detail + "), so what it would run cannot be checked")
}

func checkTooDeep(h *shell.Hazard, _ *Context) Finding {
	if h.Kind == shell.TooDeep || h.Kind == shell.TooComplex {
		return hit(h.Detail)
	}
	return Finding{}
}

// downloads returns the files a curl or wget call writes.
func downloads(ex *shell.Exec) []string {
	var out []string
	for _, r := range ex.Redirs {
		if r.Writes() && r.Target != "" {
			out = append(out, shell.ResolvePath(ex.Dir, r.Target))
		}
	}
	args := ex.Args[1:]
	var urls []string
	remoteName := false
	dir := ex.Dir
	for i := 0; i < len(args); i++ {
		a := args[i]
		next := func() string {
			if i+1 < len(args) {
				i++
				return args[i]
			}
			return ""
		}
		switch {
		case ex.Name == "curl" && (a == "-o" || a == "--output"):
			out = append(out, shell.ResolvePath(ex.Dir, next()))
		case ex.Name == "curl" && len(a) > 2 && a[0] == '-' && a[1] != '-' && strings.HasSuffix(a, "o"): // -so, -fsSLo
			out = append(out, shell.ResolvePath(ex.Dir, next()))
		case ex.Name == "curl" && strings.HasPrefix(a, "-o") && len(a) > 2 && !strings.HasPrefix(a, "--"):
			out = append(out, shell.ResolvePath(ex.Dir, a[2:]))
		case ex.Name == "curl" && (a == "-O" || a == "--remote-name" || a == "--remote-name-all" || strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, "O")):
			remoteName = true
		case ex.Name == "curl" && a == "--output-dir":
			dir = shell.ResolvePath(ex.Dir, next())
		case ex.Name == "wget" && (a == "-O" || a == "--output-document"):
			out = append(out, shell.ResolvePath(ex.Dir, next()))
		case ex.Name == "wget" && strings.HasPrefix(a, "--output-document="):
			out = append(out, shell.ResolvePath(ex.Dir, strings.TrimPrefix(a, "--output-document=")))
		case ex.Name == "wget" && strings.HasPrefix(a, "-O") && len(a) > 2:
			out = append(out, shell.ResolvePath(ex.Dir, a[2:]))
		case ex.Name == "wget" && (a == "-P" || a == "--directory-prefix"):
			dir = shell.ResolvePath(ex.Dir, next())
		case strings.Contains(a, "://"):
			urls = append(urls, a)
		}
	}
	if remoteName || ex.Name == "wget" && len(out) == 0 {
		for _, u := range urls {
			for _, name := range remoteNames(u) {
				out = append(out, shell.ResolvePath(dir, name))
			}
		}
	}
	return out
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

// checkDownloadRun: a file downloaded by one command and run by a later one
// is remote code execution in two steps.
func checkDownloadRun(res *shell.Result, _ *Context) (Finding, *shell.Exec) {
	downloaded := map[string]bool{}
	for _, ex := range res.Execs {
		if ex.Name == "curl" || ex.Name == "wget" {
			for _, p := range downloads(ex) {
				if p != "" && shell.Known(p) {
					downloaded[p] = true
				}
			}
			continue
		}
		if len(downloaded) == 0 || len(ex.Args) == 0 {
			continue
		}
		if strings.Contains(ex.Args[0], "/") && downloaded[shell.ResolvePath(ex.Dir, ex.Args[0])] {
			return hit("runs " + ex.Args[0] + ", a file just downloaded from the network, without anyone reading it"), ex
		}
		runsScripts := shell.IsShell(ex.Name) || ex.Name == "source" || ex.Name == "." || shell.Interpreter(ex.Name) != ""
		if !runsScripts {
			continue
		}
		for _, a := range ex.Args[1:] {
			if a != "" && !strings.HasPrefix(a, "-") && downloaded[shell.ResolvePath(ex.Dir, a)] {
				return hit(ex.Name + " runs " + a + ", a file just downloaded from the network, without anyone reading it"), ex
			}
		}
	}
	return Finding{}, nil
}

// checkKill: kill -9 -1 (every process), kill 1 (init).
func checkKill(c *Call) Finding {
	args := c.Args
	sigDone := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-l" || a == "-L" || a == "--list" || a == "--help":
			return Finding{}
		case a == "--":
			sigDone = true
		case (a == "-s" || a == "-n") && !sigDone:
			i++
			sigDone = true
		case strings.HasPrefix(a, "-") && !sigDone && len(a) > 1 && a != "-1":
			sigDone = true
		case a == "-1" && !sigDone && i == len(args)-1:
			// kill -1 alone: signal 1, no process.
		case a == "-1":
			return hit("kill -1 sends the signal to every process the user may signal")
		case a == "1":
			return hit("kill 1 signals init, the process every other one depends on")
		default:
			sigDone = true
		}
	}
	return Finding{}
}

func checkKillall(c *Call) Finding {
	if c.Ex.Name == "killall5" {
		return hit("killall5 signals every process")
	}
	var names []string
	everyone := false
	for i := 0; i < len(c.Args); i++ {
		a := c.Args[i]
		switch {
		case a == "-u" || a == "--user" || a == "-U" || a == "--euid" || a == "--uid":
			everyone = true
			i++
		case a == "-s" || a == "--signal" || a == "-o" || a == "-y" || a == "--older-than" || a == "--younger-than" || a == "-n" || a == "--ns" || a == "-g" || a == "-G" || a == "-P" || a == "-t" || a == "-F":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			names = append(names, a)
		}
	}
	for _, n := range names {
		if n == "." || n == ".*" || n == "^" || n == "" {
			return hit(c.Ex.Name + " " + n + " matches every process")
		}
	}
	if everyone && len(names) == 0 {
		return hit(c.Ex.Name + " -u kills every process of the user")
	}
	return Finding{}
}

func checkShutdown(c *Call) Finding {
	for _, a := range c.Args {
		if a == "--help" || a == "-h" && c.Ex.Name != "shutdown" || a == "-c" && c.Ex.Name == "shutdown" || a == "--version" {
			return Finding{}
		}
	}
	switch c.Ex.Name {
	case "shutdown", "reboot", "halt", "poweroff":
		return hit(c.Ex.Name + " stops the machine")
	case "init", "telinit":
		if len(c.Args) > 0 && (c.Args[0] == "0" || c.Args[0] == "6" || c.Args[0] == "1" || c.Args[0] == "s" || c.Args[0] == "S") {
			return hit(c.Ex.Name + " " + c.Args[0] + " changes the run level: shutdown, reboot or single-user")
		}
	case "dnf", "yum":
		if ops := operands(c.Args); len(ops) > 1 && ops[0] == "system-upgrade" && ops[1] == "reboot" || len(ops) > 0 && ops[0] == "offline-upgrade" && hasArg(ops, "reboot") {
			return hit(c.Ex.Name + " reboots the machine into an upgrade")
		}
	case "systemctl", "loginctl":
		for _, a := range c.Args {
			switch a {
			case "poweroff", "reboot", "halt", "kexec", "suspend", "hibernate", "hybrid-sleep", "suspend-then-hibernate", "rescue", "emergency", "soft-reboot", "isolate", "default", "switch-root":
				return hit(c.Ex.Name + " " + a + " stops or suspends the machine")
			}
		}
	}
	return Finding{}
}

// operands returns the arguments that do not start with "-".
func operands(args []string) []string {
	var out []string
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			out = append(out, a)
		}
	}
	return out
}

func hasArg(args []string, want ...string) bool {
	for _, a := range args {
		for _, w := range want {
			if a == w {
				return true
			}
		}
	}
	return false
}

func checkTerraform(c *Call) Finding {
	ops := operands(c.Args)
	if len(ops) == 0 || hasArg(c.Args, "-help", "--help", "-h") {
		return Finding{}
	}
	switch c.Ex.Name {
	case "terraform", "tofu", "terragrunt":
		for i, o := range ops {
			if o == "destroy" || o == "destroy-all" || o == "apply" && hasArg(c.Args, "-destroy", "--destroy") {
				return hit(c.Ex.Name + " " + o + " destroys the infrastructure the configuration manages")
			}
			if i > 0 && ops[0] != "run-all" && ops[0] != "run" {
				break
			}
		}
	case "pulumi", "cdk", "cdktf":
		if ops[0] == "destroy" {
			return hit(c.Ex.Name + " destroy deletes every resource of the stack")
		}
		if len(ops) > 1 && ops[0] == "stack" && (ops[1] == "rm" || ops[1] == "remove") {
			return hit("pulumi stack rm deletes the stack")
		}
	case "serverless", "sls":
		if ops[0] == "remove" {
			return hit(c.Ex.Name + " remove deletes the deployed service")
		}
	}
	return Finding{}
}

// kubectlOther are subcommands that delete nothing, even when a later word
// is "delete" (kubectl wait --for delete pod/x).
var kubectlOther = []string{"wait", "get", "describe", "logs", "explain", "events", "top", "edit", "apply", "create", "run", "exec",
	"port-forward", "rollout", "label", "annotate", "scale", "patch", "config", "auth", "diff", "cp", "api-resources", "version", "cluster-info"}

func checkKubectl(c *Call) Finding {
	ops := operands(c.Args)
	if hasPrefixArg(c.Args, "--dry-run") || hasArg(c.Args, "--help", "-h") {
		return Finding{}
	}
	if len(ops) > 0 && slices.Contains(kubectlOther, ops[0]) {
		return Finding{}
	}
	i := -1
	for j, o := range ops[:min(len(ops), 3)] {
		switch o {
		case "delete":
			i = j
		case "drain":
			return hit(c.Ex.Name + " drain evicts every pod from the node")
		case "replace":
			if hasArg(c.Args, "--force") {
				return hit(c.Ex.Name + " replace --force deletes and recreates the resources")
			}
		}
		if i >= 0 {
			break
		}
	}
	if i < 0 {
		return Finding{}
	}
	if hasArg(c.Args, "--all", "-A", "--all-namespaces") {
		return hit(c.Ex.Name + " delete --all deletes every resource of that kind")
	}
	if i+1 < len(ops) {
		// The first operand names the kinds (kubectl delete KIND[,KIND] NAME).
		o := ops[i+1]
		kind, _, _ := strings.Cut(strings.ToLower(o), "/")
		for _, k := range strings.Split(kind, ",") {
			switch k {
			case "namespace", "namespaces", "ns", "all", "pv", "persistentvolume", "persistentvolumes", "pvc", "persistentvolumeclaim", "persistentvolumeclaims", "crd", "crds", "customresourcedefinition", "customresourcedefinitions", "node", "nodes":
				return hit(c.Ex.Name + " delete " + o + " deletes everything in it or stored by it")
			}
		}
	}
	return hit(c.Ex.Name + " delete " + strings.Join(ops[i+1:min(len(ops), i+3)], " ") + " deletes cluster resources")
}

// cloudDeletes lists, per CLI, the first operand (a service; nil for any)
// and the verbs among the later operands that destroy data or whole
// projects.
var cloudDeletes = []struct {
	cli             string
	services, verbs []string
}{
	{"aws", []string{"s3", "s3api", "cloudformation", "rds", "dynamodb", "ec2", "eks", "ecr", "efs", "organizations", "lambda", "route53", "kms", "secretsmanager", "backup", "redshift", "elasticache", "opensearch", "es", "glacier"},
		[]string{"rb", "delete-bucket", "delete-stack", "delete-db-instance", "delete-db-cluster", "delete-table", "terminate-instances", "delete-cluster", "delete-repository", "delete-file-system", "delete-organization", "close-account", "delete-function", "delete-hosted-zone", "schedule-key-deletion", "delete-secret", "delete-backup-vault", "delete-domain", "delete-vault"}},
	{"gcloud", []string{"projects", "sql", "container", "compute", "storage", "firestore", "spanner", "bigtable", "redis", "filestore", "alloydb", "run", "functions", "kms", "secrets"},
		[]string{"delete"}},
	{"az", []string{"group", "storage", "sql", "cosmosdb", "aks", "vm", "keyvault", "webapp", "postgres", "mysql"}, []string{"delete", "purge"}},
	{"doctl", []string{"databases", "kubernetes", "compute", "apps", "projects"}, []string{"delete", "rm"}},
	{"wrangler", nil, []string{"delete"}},
	{"vercel", nil, []string{"remove", "rm"}},
	{"fly", nil, []string{"destroy"}},
	{"flyctl", nil, []string{"destroy"}},
	{"heroku", nil, []string{"apps:destroy", "pg:reset", "addons:destroy", "destroy"}},
	{"firebase", nil, []string{"projects:delete", "database:remove", "firestore:delete", "hosting:disable"}},
	{"supabase", nil, []string{"delete"}},
}

func checkCloud(c *Call) Finding {
	ops := operands(c.Args)
	if hasArg(c.Args, "--help", "-h", "help") {
		return Finding{}
	}
	if c.Ex.Name == "gsutil" {
		for i, o := range ops {
			if o == "rb" || o == "rm" && (hasArg(c.Args, "-r", "-R", "-rf", "-fr") || i >= 0 && hasArg(c.Args, "-m") && hasArg(c.Args, "-r")) {
				return hit("gsutil " + o + " deletes a bucket or everything in it")
			}
		}
		return Finding{}
	}
	i := 0
	for i < len(cloudDeletes) && cloudDeletes[i].cli != c.Ex.Name {
		i++
	}
	if i == len(cloudDeletes) || len(ops) == 0 {
		return Finding{}
	}
	spec := cloudDeletes[i]
	if spec.services != nil && !slices.Contains(spec.services, ops[0]) {
		return Finding{}
	}
	for _, o := range ops {
		if slices.Contains(spec.verbs, o) {
			return hit(c.Ex.Name + " " + strings.Join(ops[:min(len(ops), 4)], " ") + " deletes cloud resources or their data")
		}
	}
	if c.Ex.Name == "aws" && len(ops) > 1 && ops[0] == "s3" && ops[1] == "rm" && hasArg(c.Args, "--recursive") {
		return hit("aws s3 rm --recursive deletes everything under that prefix")
	}
	if c.Ex.Name == "gcloud" && len(ops) > 1 && ops[0] == "storage" && ops[1] == "rm" && hasArg(c.Args, "-r", "--recursive") {
		return hit("gcloud storage rm -r deletes everything under that path")
	}
	return Finding{}
}

var sqlDropRe = &lazyregexp.Regexp{Expr: `(?i)\bdrop\s+(database|table|schema|keyspace|collection|index|user|role|owned)\b|\btruncate\s+(table\s+)?[\w."\x60]+\s*(;|$|'|")|\.drop(Database)?\s*\(\s*\)|\bdropDatabase\b|\bdelete\s+from\s+[\w."\x60\[\]]+\s*(;|$|'|")|\.(deleteMany|remove)\s*\(\s*\{\s*\}\s*\)|\bFLUSHALL\b|\bFLUSHDB\b`}

// codeText is everything a command reads as its own input: its arguments,
// heredoc body and the output of echo/printf piped into it.
func codeText(c *Call) string {
	var b strings.Builder
	for _, a := range c.Args {
		b.WriteString(a)
		b.WriteByte(' ')
	}
	if in := c.Ex.Stdin; in != nil {
		b.WriteString(in.Text)
		for _, p := range in.Producers {
			b.WriteString(strings.Join(p.Args, " "))
		}
	}
	return b.String()
}

func checkSQLDrop(c *Call) Finding {
	switch c.Ex.Name {
	case "dropdb":
		return hit("dropdb deletes a whole database")
	case "mysqladmin":
		if hasArg(c.Args, "drop") {
			return hit("mysqladmin drop deletes a whole database")
		}
		return Finding{}
	}
	if m := sqlDropRe.FindString(codeText(c)); m != "" {
		return hit(c.Ex.Name + " runs " + strings.ToUpper(m) + ", deleting data")
	}
	return Finding{}
}

func checkRedisFlush(c *Call) Finding {
	t := strings.ToUpper(codeText(c))
	for _, w := range []string{"FLUSHALL", "FLUSHDB"} {
		if strings.Contains(t, w) {
			return hit(c.Ex.Name + " " + w + " deletes every key")
		}
	}
	return Finding{}
}

func checkDockerPrune(c *Call) Finding {
	ops := operands(c.Args)
	for i := 0; i+1 < len(ops); i++ {
		switch ops[i] + " " + ops[i+1] {
		case "system prune", "volume prune", "volume rm", "volume remove", "system reset", "machine rm", "volume delete":
			return hit(c.Ex.Name + " " + ops[i] + " " + ops[i+1] + " deletes volumes or everything unused, including data")
		case "compose down":
		}
	}
	if hasArg(ops, "down") && (hasArg(c.Args, "-v", "--volumes") || c.Ex.Name == "docker-compose" && hasArg(c.Args, "-v")) {
		return hit("compose down -v deletes the project's volumes and their data")
	}
	return Finding{}
}

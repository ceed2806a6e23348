package policy

import (
	"path"
	"slices"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/effects"
	"github.com/gemini-guard/gemini-guard/internal/lazyregexp"
	"github.com/gemini-guard/gemini-guard/internal/shell"
)

// Infrastructure and data deleted by the tools that manage them:
// infrastructure as code, kubectl, cloud CLIs, SQL and Redis clients,
// docker and compose, search indexes, backup tools, and application
// frameworks resetting their database.

func checkTerraform(c *Call) Finding {
	// Option values are not subcommands: terraform plan -out destroy
	// plans (the grammar in package effects says which options take values).
	cmd := c.Cmd()
	ops := cmd.Words
	if len(ops) == 0 || cmd.Has("help", "h") {
		return Finding{}
	}
	switch c.Ex.Name {
	case "terraform", "tofu", "terragrunt":
		return terraformDestroy(c, cmd)
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

// terraformDestroy: terraform destroy, apply -destroy or -replace, given
// as words (also after terragrunt run-all or run) or through TF_CLI_ARGS
// in the environment.
func terraformDestroy(c *Call, cmd *effects.Command) Finding {
	for k, v := range c.Ex.Env { // TF_CLI_ARGS=-destroy, TF_CLI_ARGS_apply=-destroy: options from the environment
		if strings.HasPrefix(k, "TF_CLI_ARGS") && (strings.Contains(v, "-destroy") || strings.Contains(v, "-replace")) {
			return hit(c.Ex.Name + " given " + k + "=" + v + " destroys what the configuration manages")
		}
	}
	if f := terraformStateLoss(c, cmd); f.Hit {
		return f
	}
	for i, o := range cmd.Words {
		if o == "destroy" || o == "destroy-all" || o == "apply" && cmd.Has("destroy") {
			return hit(c.Ex.Name + " " + o + " destroys the infrastructure the configuration manages")
		}
		if o == "apply" && cmd.Has("replace") {
			return hit(c.Ex.Name + " apply -replace destroys the resource and creates a new one: its data is lost")
		}
		if i > 0 && cmd.Word(0) != "run-all" && cmd.Word(0) != "run" {
			break
		}
	}
	return Finding{}
}

// terraformStateLoss: the state that records what the configuration
// manages thrown away or overwritten — terraform state rm (the resources
// stay, unmanaged: the next apply creates them twice or fails), state push
// (the remote state replaced by a local file), workspace delete (the
// workspace's state deleted with it).
func terraformStateLoss(c *Call, cmd *effects.Command) Finding {
	w := cmd.Words
	if cmd.Word(0) == "run-all" || cmd.Word(0) == "run" {
		w = w[1:]
	}
	if len(w) < 2 {
		return Finding{}
	}
	switch {
	case w[0] == "state" && (w[1] == "rm" || w[1] == "push"):
		return hit(c.Ex.Name + " state " + w[1] + " throws away the state's record of the resources it manages")
	case w[0] == "workspace" && w[1] == "delete":
		return hit(c.Ex.Name + " workspace delete deletes the workspace's state")
	}
	return Finding{}
}

// kubectlOther are subcommands that delete nothing, even when a later word
// is "delete" (kubectl wait --for delete pod/x).
var kubectlOther = []string{"wait", "get", "describe", "logs", "explain", "events", "top", "edit", "apply", "create", "run", "exec",
	"port-forward", "rollout", "label", "annotate", "scale", "patch", "config", "auth", "diff", "cp", "api-resources", "version", "cluster-info"}

func checkKubectl(c *Call) Finding {
	// Global options' values are not subcommands: kubectl --kubeconfig F
	// --context delete get pods gets pods (the grammar in package effects).
	cmd := c.Cmd()
	ops := cmd.Words
	if cmd.HasPrefix("dry-run") || cmd.Has("help", "h") {
		return Finding{}
	}
	if f := checkKubectlScale(c); f.Hit {
		return f
	}
	if len(ops) > 0 && slices.Contains(kubectlOther, ops[0]) {
		return Finding{}
	}
	i, f := kubectlVerb(c, ops)
	if i < 0 {
		return f
	}
	if cmd.Has("all", "A", "all-namespaces") {
		return hit(c.Ex.Name + " delete --all deletes every resource of that kind")
	}
	if i+1 < len(ops) {
		// The first operand names the kinds (kubectl delete KIND[,KIND] NAME).
		o := ops[i+1]
		kind, _, _ := strings.Cut(strings.ToLower(o), "/")
		if podsByName(kind, o, ops[i+2:], cmd) {
			return Finding{}
		}
		if slices.ContainsFunc(strings.Split(kind, ","), func(k string) bool { return slices.Contains(kubectlHoldingKinds, k) }) {
			return hit(c.Ex.Name + " delete " + o + " deletes everything in it or stored by it")
		}
	}
	return hit(c.Ex.Name + " delete " + strings.Join(ops[i+1:min(len(ops), i+3)], " ") + " deletes cluster resources")
}

// kubectlHoldingKinds are the kinds whose deletion takes everything in
// them or stored by them.
var kubectlHoldingKinds = []string{"namespace", "namespaces", "ns", "all", "pv", "persistentvolume", "persistentvolumes", "pvc", "persistentvolumeclaim",
	"persistentvolumeclaims", "crd", "crds", "customresourcedefinition", "customresourcedefinitions", "node", "nodes"}

// kubectlVerb finds the verb among the first three operands: the index
// of delete, or -1 with the finding of drain or replace --force.
func kubectlVerb(c *Call, ops []string) (int, Finding) {
	for j, o := range ops[:min(len(ops), 3)] {
		switch o {
		case "delete":
			return j, Finding{}
		case "drain":
			return -1, hit(c.Ex.Name + " drain evicts every pod from the node")
		case "replace":
			if c.Cmd().Has("force") {
				return -1, hit(c.Ex.Name + " replace --force deletes and recreates the resources")
			}
		}
	}
	return -1, Finding{}
}

// podsByName reports kubectl delete pod NAME… (or pod/NAME): pods named
// one by one, which their deployment, statefulset or job recreates (the
// usual way to restart one). Not --all, not a selector, not a file.
func podsByName(kind, first string, rest []string, cmd *effects.Command) bool {
	if kind != "pod" && kind != "pods" && kind != "po" {
		return false
	}
	if cmd.Has("all", "A", "all-namespaces", "l", "f", "filename", "k", "kustomize", "selector", "field-selector") {
		return false
	}
	return strings.Contains(first, "/") || len(rest) > 0
}

// cloudDelete is one CLI's delete verbs, for the services listed (nil:
// any).
type cloudDelete struct {
	cli             string
	services, verbs []string
}

// cloudDeletes lists, per CLI, the first operand (a service; nil for any)
// and the verbs among the later operands that destroy data or whole
// projects.
var cloudDeletes = []cloudDelete{
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
	{"vault", []string{"secrets", "auth", "kv"}, []string{"disable", "destroy"}},
}

func checkCloud(c *Call) Finding {
	cmd := c.Cmd()
	if platformReadOnly(cmd) {
		return Finding{} // aws ... --dry-run checks permissions and deletes nothing
	}
	switch c.Ex.Name {
	case "nomad":
		if cmd.Leads("job", "stop") && cmd.Has("purge") {
			return hit("nomad job stop -purge stops the job and deletes it and its history")
		}
		return Finding{}
	case "gsutil":
		return gsutilDelete(cmd)
	}
	if f := cloudTableDelete(c.Ex.Name, cmd.Words); f.Hit {
		return f
	}
	return storageRecursiveRemove(c.Ex.Name, cmd)
}

// storageRecursiveRemove: aws s3 rm --recursive, gcloud storage rm -r,
// deleting everything under a prefix.
func storageRecursiveRemove(cli string, cmd *effects.Command) Finding {
	if (cli == "aws" || cli == "awslocal") && cmd.Leads("s3", "rm") && cmd.Has("recursive") {
		return hit("aws s3 rm --recursive deletes everything under that prefix")
	}
	if cli == "gcloud" && cmd.Leads("storage", "rm") && cmd.Has("r", "recursive") {
		return hit("gcloud storage rm -r deletes everything under that path")
	}
	return Finding{}
}

// gsutilDelete: gsutil rb, or rm of everything under a path (-r, -R, in
// any cluster, after -m or not).
func gsutilDelete(cmd *effects.Command) Finding {
	if o := cmd.Word(0); o == "rb" || o == "rm" && cmd.Has("r", "R", "recursive") {
		return hit("gsutil " + o + " deletes a bucket or everything in it")
	}
	return Finding{}
}

// cloudTableDelete: a delete verb of cli's (cloudDeletes) among the
// operands, for a service that holds data.
func cloudTableDelete(cli string, ops []string) Finding {
	i := slices.IndexFunc(cloudDeletes, func(d cloudDelete) bool { return d.cli == cli })
	if i < 0 || len(ops) == 0 {
		return Finding{}
	}
	spec := cloudDeletes[i]
	if spec.services != nil && !slices.Contains(spec.services, ops[0]) {
		return Finding{}
	}
	for _, o := range ops {
		if slices.Contains(spec.verbs, o) {
			return hit(cli + " " + strings.Join(ops[:min(len(ops), 4)], " ") + " deletes cloud resources or their data")
		}
	}
	return Finding{}
}

var sqlDropRe = &lazyregexp.Regexp{Expr: `(?i)\bdrop\s+(database|table|schema|keyspace|collection|index|user|role|owned)\b|\btruncate\s+(table\s+)?[\w."\x60]+\s*(;|$|'|")|\btruncate\s+table\s+[\w."\x60]+|\btruncate\s+(only\s+)?[\w."\x60]+(\s*,\s*[\w."\x60]+)*(\s+(restart|continue)\s+identity)?(\s+(cascade|restrict))\b|\.drop(Database)?\s*\(\s*\)|\bdropDatabase\b|\bdelete\s+from\s+[\w."\x60\[\]]+\s*(;|$|'|")|\.(deleteMany|remove)\s*\(\s*\{\s*\}\s*\)|\bFLUSHALL\b|\bFLUSHDB\b`}

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
		if ops := operands(c.Args); hasArg(c.Args, "--if-exists") && len(ops) > 0 && throwawayDBRe.MatchString(ops[len(ops)-1]) {
			return Finding{} // a test run's database, made again by the next run
		}
		return hit("dropdb deletes a whole database")
	case "mysqladmin":
		if hasArg(c.Args, "drop") {
			return hit("mysqladmin drop deletes a whole database")
		}
		return Finding{}
	}
	if m := sqlDropRe.FindString(withoutSQLStrings(codeText(c))); m != "" {
		return hit(c.Ex.Name + " runs " + strings.ToUpper(m) + ", deleting data")
	}
	return Finding{}
}

// throwawayDBRe names a database kept for tests, CI or scratch work
// (app_test, test_orders_ci, tmp-build).
var throwawayDBRe = &lazyregexp.Regexp{Expr: `(?i)(^|[_-])(test|tests|ci|tmp|temp|scratch)([_-]|$)`}

// withoutSQLStrings blanks SQL's single-quoted string literals (” is a
// quote inside one): SELECT 'drop table users' is text, not a statement.
// Text with an unbalanced quote is returned whole, so that an apostrophe
// cannot hide what follows it.
func withoutSQLStrings(s string) string {
	if !strings.Contains(s, "'") || strings.Count(s, "'")%2 != 0 {
		return s
	}
	var b strings.Builder
	in := false
	for i := 0; i < len(s); i++ {
		if s[i] == '\'' {
			in = !in
			b.WriteByte('\'')
			continue
		}
		if !in {
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

func checkRedisFlush(c *Call) Finding {
	t := strings.ToUpper(codeText(c))
	for _, w := range []string{"FLUSHALL", "FLUSHDB"} {
		if strings.Contains(t, w) {
			return hit(c.Ex.Name + " " + w + " deletes every key")
		}
	}
	// DEL or UNLINK of keys read at run time (redis-cli --scan | xargs
	// redis-cli del): whatever the scan found, every key by default.
	ops := operands(c.Args)
	for i, o := range ops {
		if (strings.EqualFold(o, "del") || strings.EqualFold(o, "unlink")) && i+1 < len(ops) && !shell.Known(ops[len(ops)-1]) {
			return hit(c.Ex.Name + " " + o + " deletes keys listed at run time")
		}
	}
	return Finding{}
}

func checkDockerPrune(c *Call) Finding {
	cmd := c.Cmd()
	ops := cmd.Words
	for i := 0; i+1 < len(ops); i++ {
		switch ops[i] + " " + ops[i+1] {
		case "system prune", "volume prune", "volume rm", "volume remove", "system reset", "machine rm", "volume delete":
			return hit(c.Ex.Name + " " + ops[i] + " " + ops[i+1] + " deletes volumes or everything unused, including data")
		case "compose down":
		}
	}
	// The compose subcommand, from the plugin (docker compose down) or
	// the program (docker-compose down): its -v/--volumes, also in a
	// cluster (-fsv), deletes volumes.
	sub := cmd.Word(0)
	if cmd.Leads("compose") {
		sub = cmd.Word(1)
	} else if !strings.HasSuffix(c.Ex.Name, "-compose") {
		sub = ""
	}
	if sub == "down" && cmd.Has("v", "volumes") {
		return hit("compose down -v deletes the project's volumes and their data")
	}
	if sub == "rm" && cmd.Has("v", "volumes") {
		return hit("compose rm -v deletes the containers' volumes and their data")
	}
	return Finding{}
}

// appDBResets are the subcommands of application frameworks' command lines
// that drop, wipe or re-create the application's database (every row lost),
// whatever the database server: the ORM does the DROP. Keyed by the
// program that reads the subcommand.
var appDBResets = []namedList{
	{"manage.py", []string{"flush", "reset_db", "sqlflush-and-run"}}, // Django (and django-extensions)
	{"django-admin", []string{"flush", "reset_db"}},
	{"artisan", []string{"migrate:fresh", "migrate:reset", "migrate:refresh", "db:wipe"}}, // Laravel
	{"mix", []string{"ecto.drop", "ecto.reset"}},                                          // Phoenix/Ecto
	{"sequelize", []string{"db:drop", "db:migrate:undo:all", "db:seed:undo:all"}},
	{"knex", []string{"migrate:rollback --all"}}, // handled below
	{"typeorm", []string{"schema:drop", "schema:sync --drop"}},
	{"mikro-orm", []string{"schema:drop", "schema:fresh", "migration:fresh"}},
	{"symfony", []string{"doctrine:database:drop", "doctrine:schema:drop"}}, // symfony console
	{"console", []string{"doctrine:database:drop", "doctrine:schema:drop"}}, // bin/console
	{"alembic", []string{"downgrade base"}},                                 // handled below
	{"flask", []string{"db downgrade base", "db drop"}},
	{"dbmate", []string{"drop"}},
	{"goose", []string{"reset"}},
	{"migrate", []string{"drop"}}, // golang-migrate
	{"flyway", []string{"clean"}},
	{"liquibase", []string{"drop-all", "dropAll"}},
	{"diesel", []string{"database reset", "database drop"}},
	{"sqlx", []string{"database drop", "database reset"}},
	{"supabase", []string{"db reset --linked", "db reset --db-url"}}, // the local one is a dev reset
}

// checkAppDBReset: an application framework's command line told to drop or
// wipe the application's database (manage.py flush, artisan migrate:fresh,
// mix ecto.reset, prisma db push --force-reset, knex migrate:rollback --all).
func checkAppDBReset(c *Call) Finding {
	if in := containerExec(c); in != nil {
		// docker compose exec web python manage.py flush: the database
		// the container serves is the application's, not a scratch copy.
		return checkAppDBReset(in)
	}
	if m := ormWipe(c.Ex.Text); m != "" && runsAppCode(strings.ToLower(c.Ex.Name), c.Args) {
		return hit(c.Ex.Name + " code calls " + m + ", deleting every row or table of the application's database")
	}
	name, args := appProgram(strings.ToLower(c.Ex.Name), c.Args)
	if name == "rails" || name == "rake" {
		return Finding{} // checkPlatformDestroy judges these
	}
	if app := effects.ParseCommand(name, args, nil); platformReadOnly(&app) || app.Has("pretend") {
		return Finding{}
	}
	if name == "prisma" && hasArg(args, "--force-reset") && slices.Contains(args, "push") {
		return hit("prisma db push --force-reset drops the database and every row in it")
	}
	if sub := appDBResetSub(name, args); sub != "" {
		return hit(c.Ex.Name + " " + sub + " drops or wipes the application's database and every row in it")
	}
	return Finding{}
}

// appLaunchers run the program named by their first operand (python
// manage.py, php artisan, bundle exec rails, npx sequelize-cli).
func appLauncher(name string) bool {
	return strings.HasPrefix(name, "python") || name == "php" || name == "bundle" || name == "npx" || name == "pnpm" || name == "yarn"
}

// appProgram is the program that reads the subcommand and its
// arguments: python manage.py flush is manage.py, php artisan db:wipe
// artisan, bundle exec rails db:drop rails, npx sequelize-cli db:drop
// sequelize.
func appProgram(name string, args []string) (string, []string) {
	for len(args) > 0 && appLauncher(name) && !strings.HasPrefix(args[0], "-") {
		base := strings.ToLower(path.Base(args[0]))
		if name == "bundle" && base == "exec" {
			args = args[1:]
			continue
		}
		name, args = base, args[1:]
	}
	return strings.TrimSuffix(strings.TrimSuffix(name, "-cli"), ".exe"), args
}

// appDBResetSub is the subcommand of program's (appDBResets) that args
// run, "" if none: its first word among the first three operands, and
// every option it needs.
func appDBResetSub(name string, args []string) string {
	ops := operands(args)
	if len(ops) == 0 {
		return ""
	}
	for _, sub := range listOf(appDBResets, name) {
		f := strings.Fields(sub)
		if !slices.Contains(ops[:min(len(ops), 3)], f[0]) {
			continue
		}
		if !slices.ContainsFunc(f[1:], func(w string) bool { return !hasArgPrefix(args, w) }) {
			return sub
		}
	}
	return ""
}

// ormWipe is ormWipeRe's match in text. The literals every match holds
// are looked for first: this runs for every command, and a typical one
// then compiles nothing (a cold process pays ~0.2 ms per regexp).
func ormWipe(text string) string {
	if !strings.Contains(text, "drop_all") && !strings.Contains(text, "delete_all") && !strings.Contains(text, "destroy_all") &&
		!strings.Contains(text, ".delete()") && !strings.Contains(text, ".deleteMany(") {
		return ""
	}
	return ormWipeRe.FindString(text)
}

// ormWipeRe finds an ORM call that empties the database or a whole table:
// SQLAlchemy's drop_all(), ActiveRecord's Model.delete_all/destroy_all
// (not on a where chain), Django's Model.objects.all().delete(), Prisma's
// deleteMany() without a filter.
var ormWipeRe = &lazyregexp.Regexp{Expr: `\bdrop_all\s*\(|(?:^|[^.\w])[A-Z]\w*\.(?:delete_all|destroy_all)\b|\.objects\.all\(\)\.delete\(\)|\.deleteMany\(\s*(?:\{\s*\})?\s*\)`}

// runsAppCode reports whether a command runs code given on its command
// line: an interpreter, or a framework's runner or shell (rails runner,
// manage.py shell -c, artisan tinker --execute, mix run -e).
func runsAppCode(name string, args []string) bool {
	return shell.Interpreter(name) != "" || slices.ContainsFunc(args, func(a string) bool {
		return slices.Contains([]string{"runner", "r", "shell", "tinker", "-e", "--eval", "-c", "--command", "--execute"}, a)
	})
}

// containerExec returns the command a container command runs inside a
// running or new container (docker exec db psql …, docker compose exec web
// …, docker run img …, kubectl exec pod -- …), nil if none.
func containerExec(c *Call) *Call {
	if !slices.Contains(containerCommands, c.Ex.Name) && c.Ex.Name != "docker-compose" && c.Ex.Name != "podman-compose" {
		return nil
	}
	args := containerCommand(c.Cmd())
	if len(args) == 0 {
		return nil
	}
	ex := *c.Ex
	ex.Name, ex.Args = shell.CommandName(args[0]), args
	return &Call{Ex: &ex, Res: c.Res, Ctx: c.Ctx, Args: args[1:]}
}

// containerCommand is the command line exec or run runs, from the call
// read by its grammar: after --, or after the container, service or image
// (docker exec db psql …, docker compose run web …); nil if none.
func containerCommand(cmd *effects.Command) []string {
	w := cmd.Words
	if len(w) > 0 && (w[0] == "compose" || w[0] == "container") {
		w = w[1:]
	}
	if len(w) == 0 || w[0] != "exec" && w[0] != "run" {
		return nil
	}
	if cmd.DashDash >= 0 {
		return cmd.Words[cmd.DashDash:] // kubectl exec pod -- cmd
	}
	if len(w) < 3 {
		return nil
	}
	return w[2:]
}

// hasArgPrefix reports whether an argument is opt or opt=value.
func hasArgPrefix(args []string, opt string) bool {
	return slices.ContainsFunc(args, func(a string) bool { return a == opt || strings.HasPrefix(a, opt+"=") })
}

// backupTools keep backups and the remotes they live on; their destroy
// verbs remove the copy that would undo every other loss.
var backupTools = []string{"rclone", "borg", "borg2", "restic", "kopia", "duplicity", "tarsnap", "rdiff-backup", "duplicacy", "tmutil"}

// checkBackupDestroy: backups deleted or pruned, and a remote made a copy
// of an empty directory (rclone purge/delete/deletefile/rmdirs, rclone
// sync from an empty source; borg delete/prune; restic forget; kopia
// snapshot delete --delete; duplicity remove-* --force; tarsnap -d;
// rdiff-backup --remove-older-than; duplicacy prune). Listings, new
// backups, checks and dry runs stay allowed.
func checkBackupDestroy(c *Call) Finding {
	name, args := c.Ex.Name, c.Args
	if hasArg(args, "--dry-run", "-n", "--help", "-h", "--list-only") && name != "tarsnap" {
		return Finding{}
	}
	for _, b := range backupDestroyers {
		if slices.Contains(b.names, name) {
			return b.judge(c, operands(args))
		}
	}
	return Finding{}
}

// backupDestroyers judge each backup tool's deleting commands, given the
// call and its operands.
var backupDestroyers = []struct {
	names []string
	judge func(c *Call, ops []string) Finding
}{
	{[]string{"tmutil"}, tmutilDestroy},
	{[]string{"rclone"}, rcloneDestroy},
	{[]string{"borg", "borg2"}, borgDestroy},
	{[]string{"restic"}, resticDestroy},
	{[]string{"kopia"}, kopiaDestroy},
	{[]string{"duplicity"}, duplicityDestroy},
	{[]string{"tarsnap"}, tarsnapDestroy},
	{[]string{"rdiff-backup"}, rdiffDestroy},
	{[]string{"duplicacy"}, duplicacyDestroy},
}

// leadingVerb is the first of the first two operands that is one of
// words, "" if none.
func leadingVerb(ops []string, words ...string) string {
	for _, o := range ops[:min(len(ops), 2)] {
		if slices.Contains(words, o) {
			return o
		}
	}
	return ""
}

// tmutilDestroy: macOS Time Machine.
func tmutilDestroy(_ *Call, ops []string) Finding {
	if v := leadingVerb(ops, "delete", "deletelocalsnapshots", "deleteinprogress", "thinlocalsnapshots", "disable", "removedestination"); v != "" {
		return hit("tmutil " + v + " deletes Time Machine backups or snapshots, or stops them")
	}
	return Finding{}
}

func rcloneDestroy(c *Call, ops []string) Finding {
	if v := leadingVerb(ops, "purge", "delete", "deletefile", "rmdirs", "rmdir", "cleanup"); v != "" {
		return hit("rclone " + v + " deletes files on a remote, a backup among them")
	}
	if v := leadingVerb(ops, "sync", "bisync"); v != "" && len(ops) >= 3 && c.emptySource(ops[len(ops)-2]) {
		return hit("rclone " + v + " makes " + c.Show(ops[len(ops)-1]) + " a copy of an empty directory, deleting everything on it")
	}
	return Finding{}
}

func borgDestroy(_ *Call, ops []string) Finding {
	if v := leadingVerb(ops, "delete", "prune", "rdelete"); v != "" {
		return hit("borg " + v + " deletes backup archives")
	}
	return Finding{}
}

func resticDestroy(_ *Call, ops []string) Finding {
	if leadingVerb(ops, "forget") != "" {
		return hit("restic forget removes snapshots (--prune deletes their data)")
	}
	return Finding{}
}

func kopiaDestroy(c *Call, ops []string) Finding {
	if len(ops) >= 2 && ops[0] == "snapshot" && ops[1] == "delete" && hasArg(c.Args, "--delete") {
		return hit("kopia snapshot delete --delete deletes snapshots")
	}
	return Finding{}
}

func duplicityDestroy(c *Call, ops []string) Finding {
	for _, o := range ops[:min(len(ops), 2)] {
		if strings.HasPrefix(o, "remove-") && hasArg(c.Args, "--force") {
			return hit("duplicity " + o + " --force deletes backup sets")
		}
	}
	return Finding{}
}

func tarsnapDestroy(c *Call, _ []string) Finding {
	if hasArg(c.Args, "-d", "--nuke") {
		return hit("tarsnap -d deletes archives")
	}
	return Finding{}
}

func rdiffDestroy(c *Call, ops []string) Finding {
	if hasPrefixArg(c.Args, "--remove-older-than") || leadingVerb(ops, "remove") != "" {
		return hit("rdiff-backup removes backup increments")
	}
	return Finding{}
}

func duplicacyDestroy(c *Call, ops []string) Finding {
	if leadingVerb(ops, "prune") != "" && hasArg(c.Args, "-exclusive", "-exhaustive", "-keep") {
		return hit("duplicacy prune deletes snapshots")
	}
	return Finding{}
}

// emptySource reports whether a sync source is a directory with nothing
// in it that a remote would be made to match: mktemp -d's output, a
// directory made by mkdir in the same command, or an empty directory in
// temp (/tmp/empty).
func (c *Call) emptySource(src string) bool {
	for _, u := range c.Res.Unknowns(src) {
		for _, e := range u.Execs {
			if e.Name == "mktemp" {
				return true
			}
		}
	}
	p := c.resolve(src)
	for _, e := range c.Res.Execs {
		if e == c.Ex {
			break
		}
		if e.Name == "mkdir" && slices.ContainsFunc(e.Args[1:], func(a string) bool { return shell.ResolvePath(e.Dir, a) == p }) {
			return true
		}
	}
	switch c.Loc(src).Place {
	case TempRoot, InTemp:
		return true
	}
	return false
}

// checkKubectlScale: every workload scaled to zero (kubectl scale --all
// --replicas=0, or by a selector): an outage of everything at once. One
// named deployment paused is the everyday use.
func checkKubectlScale(c *Call) Finding {
	cmd := c.Cmd()
	if !cmd.Leads("scale") || cmd.HasPrefix("dry-run") {
		return Finding{}
	}
	zero := slices.Contains(cmd.Values("replicas"), "0")
	if zero && cmd.Has("all", "A", "all-namespaces", "l", "selector") {
		return hit(c.Ex.Name + " scale --replicas=0 stops every matching workload at once")
	}
	return Finding{}
}

// checkIndexDelete: an HTTP DELETE of every index of a search or document
// store (Elasticsearch, OpenSearch: DELETE /_all, DELETE /logs-*,
// DELETE /*). One document or one named index is routine.
func checkIndexDelete(c *Call) Finding {
	ops := operands(c.Args)
	if !httpDelete(c.Args, ops) {
		return Finding{}
	}
	for _, o := range ops {
		if seg, ok := firstPathSegment(o); ok && (seg == "_all" || strings.Contains(seg, "*")) {
			return hit(c.Ex.Name + " DELETE /" + seg + " deletes every index it matches, and their data")
		}
	}
	return Finding{}
}

// httpDelete reports whether an HTTP client sends a DELETE request
// (curl -X DELETE, --request=DELETE, http DELETE url).
func httpDelete(args, ops []string) bool {
	for i, a := range args {
		u := strings.ToUpper(a)
		if u == "-XDELETE" || u == "--REQUEST=DELETE" || u == "--METHOD=DELETE" || (a == "-X" || a == "--request" || a == "--method") && i+1 < len(args) && strings.EqualFold(args[i+1], "DELETE") {
			return true
		}
	}
	return len(ops) > 0 && ops[0] == "DELETE" // httpie, xh
}

// firstPathSegment is the first segment of a URL's path (scheme://host/
// seg/…, host:port/seg, :9200/seg, without the query), if o is a URL.
func firstPathSegment(o string) (string, bool) {
	rest := o
	if _, after, ok := strings.Cut(o, "://"); ok {
		rest = after
	} else if !strings.Contains(o, ":") {
		return "", false
	}
	_, p, ok := strings.Cut(rest, "/")
	if !ok {
		return "", false
	}
	seg, _, _ := strings.Cut(p, "/")
	seg, _, _ = strings.Cut(seg, "?")
	return seg, true
}

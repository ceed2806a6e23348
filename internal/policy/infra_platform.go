package policy

import (
	"slices"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/effects"
)

// Platform destroys: a deployment platform's CLI deleting what it hosts
// (apps, databases, projects), told apart from its read-only verbs.

// destroyVerbs are the subcommand words with which cloud, hosting and
// platform CLIs delete what they manage.
var destroyVerbs = []string{"delete", "destroy", "terminate", "purge", "remove", "rm", "rb", "del", "undeploy", "teardown", "deleteall", "deprovision", "wipe", "drop", "erase", "unpublish", "yank", "deregister"}

// destroyPrefixes: verbs spelled as a prefix of the subcommand (aws
// delete-bucket) or after a colon (heroku apps:destroy).
var destroyPrefixes = []string{"delete-", "terminate-", "purge-", "remove-", "deregister-", "destroy-", "batch-delete", "delete_", "force-delete", "force_delete"}

// platformCLIs are the cloud, hosting, registry and platform CLIs whose
// destroy verbs remove servers, volumes, databases, clusters, projects or
// published packages.
var platformCLIs = []string{
	"aws", "awslocal", "gcloud", "az", "doctl", "hcloud", "linode-cli", "linode", "scw", "fly", "flyctl", "vercel", "now",
	"heroku", "netlify", "railway", "supabase", "firebase", "wrangler", "openstack", "nova", "cinder", "exo", "oci",
	"ibmcloud", "aliyun", "tccli", "upctl", "vultr-cli", "civo", "render", "dokku", "kaggle", "doppler", "lando",
	"helm", "helmfile", "koyeb", "northflank", "platform", "upsun", "porter", "okteto", "appwrite", "amplify",
	"eb", "sam", "copilot", "ecs-cli", "eksctl", "kops", "rosa", "oc", "ionosctl", "ovhai", "gh", "glab",
	"hub", "tea", "bitbucket", "sentry-cli", "vault", "consul", "nomad", "atlas", "mongocli", "pscale",
	"neonctl", "turso", "upstash", "planetscale", "cf", "az.cmd", "gsutil", "s3cmd", "mc", "rclone", "b2",
	"npm", "pnpm", "yarn", "gem", "twine", "cargo", "dotnet", "nuget", "pub", "mix", "hex", "poetry", "flit",
	"docker", "podman", "nerdctl", "stripe", "twilio", "auth0", "okta", "pulumi", "serverless", "sls", "sequelize",
	"prisma", "rails", "rake", "knex", "typeorm", "dbmate", "goose", "migrate", "flyway", "liquibase", "alembic",
	"juju", "multipass", "vagrant", "minikube", "kind", "k3d", "k3s", "microk8s", "colima", "lima", "limactl",
	"lxc", "incus", "etcdctl", "argocd", "flux", "surge", "keybase",
	"influx", "bq", "cbt", "sf", "sfdx", "databricks", "snow", "hasura", "fauna", "xata", "convex", "pocketbase",
	"cloudflared", "ngrok", "tailscale", "infisical", "akamai", "fastly", "exoscale", "ovh", "hetzner",
	"sst", "kafka-topics", "kafka-topics.sh", "kafka-configs", "kafka-configs.sh",
}

// platformAllowed lists, per CLI, destroy verbs that only touch local or
// reversible state (npm uninstall removes a dependency from the project;
// docker rm removes a stopped container), judged elsewhere or harmless.
var platformAllowed = []struct {
	cli   string
	verbs []string
}{
	{"npm", []string{"uninstall", "remove", "rm", "del"}},
	{"pnpm", []string{"uninstall", "remove", "rm", "del"}},
	{"yarn", []string{"remove", "uninstall"}},
	{"gem", []string{"uninstall"}},
	{"cargo", []string{"remove", "rm", "uninstall", "yank"}},
	{"dotnet", []string{"remove", "uninstall"}},
	{"nuget", []string{"remove"}},
	{"pub", []string{"remove"}},
	{"poetry", []string{"remove"}},
	{"mix", []string{"deps.clean"}},
	{"docker", []string{"rm", "remove", "delete", "uninstall", "purge", "destroy", "del", "drop", "deregister"}},
	{"podman", []string{"rm", "remove", "delete", "uninstall", "purge", "destroy", "del", "drop", "deregister"}},
	{"nerdctl", []string{"rm", "remove", "delete", "uninstall", "purge", "destroy", "del", "drop", "deregister"}},
	{"gh", []string{"remove", "rm", "uninstall", "del", "drop", "erase", "wipe", "deregister"}},
	{"glab", []string{"remove", "rm", "uninstall", "del", "drop", "erase", "wipe", "deregister"}},
	{"rclone", []string{"rm", "remove", "delete", "purge", "uninstall", "del", "drop", "erase", "wipe"}},
	{"mc", []string{"uninstall", "drop", "deregister"}},
	{"helm", []string{"remove", "rm"}},
	{"vagrant", []string{"remove", "uninstall", "rm", "delete"}},
	{"minikube", []string{"uninstall"}},
	{"pulumi", []string{"remove", "rm"}},
}

// platformReadOnlyOpts make any command only show what it would do
// (--dry-run, --dry-run=client, -dry-run for the single-dash CLIs).
var platformReadOnlyOpts = []string{"dry-run", "dryrun", "whatif", "what-if"}

// platformReadOnly reports whether the call only shows what it would do,
// or its help.
func platformReadOnly(cmd *effects.Command) bool {
	return cmd.Help() || cmd.Has(platformReadOnlyOpts...)
}

// checkPlatformDestroy: VERB x RESOURCE across cloud, hosting, registry
// and platform CLIs: a destroy verb among the first few subcommand words.
func checkPlatformDestroy(c *Call) Finding {
	name := c.Ex.Name
	cmd := c.Cmd()
	if !slices.Contains(platformCLIs, name) || platformReadOnly(cmd) {
		return Finding{}
	}
	if strings.HasPrefix(name, "kafka-") && cmd.Has("delete") {
		return hit(name + " --delete deletes a topic or its configuration, and the messages it holds")
	}
	ops := cmd.Words
	if name == "doctl" && cmd.Leads("compute") { // doctl compute x is doctl x
		ops = ops[1:]
	}
	allowed := platformAllowedVerbs(name)
	for i := range ops[:min(len(ops), 4)] {
		if ops[i] == "who-can" || ops[i] == "can-i" {
			return Finding{} // oc adm policy who-can delete pods: a question about a verb
		}
		verb, destroy := platformDestroyWord(name, ops, i)
		if !destroy || slices.Contains(allowed, verb) || platformSpares(name, verb, i, cmd) {
			continue
		}
		return hit(name + " " + strings.Join(ops[:min(len(ops), i+2)], " ") + " deletes what the platform holds (servers, volumes, databases, clusters, projects or published packages)")
	}
	return Finding{}
}

// platformAllowedVerbs are the destroy-shaped verbs of cli that are not
// destroys (npm uninstall), from platformAllowed.
func platformAllowedVerbs(cli string) []string {
	var allowed []string
	for _, a := range platformAllowed {
		if a.cli == cli {
			allowed = a.verbs
		}
	}
	return allowed
}

// platformVerb is the verb in a subcommand word: lower case, and after
// the last colon but for gh (heroku apps:destroy, dokku apps:destroy).
func platformVerb(name, o string) string {
	verb := strings.ToLower(o)
	if _, after, ok := strings.Cut(verb, ":"); ok && name != "gh" {
		verb = after
		if i := strings.LastIndexByte(verb, ':'); i >= 0 {
			verb = verb[i+1:]
		}
	}
	return verb
}

// platformDestroyWord reports the verb of ops[i] and whether it
// destroys: a destroy verb, prefix or suffix (delete-bucket,
// service-instance-delete), or a CLI's own spelling (doctl x d, helm un,
// rails db:drop, prisma migrate reset).
func platformDestroyWord(name string, ops []string, i int) (verb string, destroy bool) {
	o := ops[i]
	verb = platformVerb(name, o)
	switch name {
	case "sequelize", "rails", "rake":
		lo := strings.ToLower(o)
		return verb, strings.HasPrefix(lo, "db:drop") || strings.HasPrefix(lo, "db:reset") || strings.Contains(lo, "undo:all") || strings.HasPrefix(lo, "db:schema:load")
	case "prisma":
		return verb, i > 0 && ops[i-1] == "migrate" && verb == "reset" || verb == "--force-reset"
	}
	return verb, slices.Contains(destroyVerbs, verb) || name == "doctl" && i == 1 && verb == "d" ||
		name == "helm" && (verb == "uninstall" || verb == "un") || destroyAffix(verb)
}

// destroyAffix reports whether verb starts with a destroy prefix or ends
// with its word (delete-bucket, service-instance-delete).
func destroyAffix(verb string) bool {
	for _, p := range destroyPrefixes {
		if strings.HasPrefix(verb, p) || strings.HasSuffix(verb, "-"+strings.TrimRight(p, "-_")) {
			return true
		}
	}
	return false
}

// platformSpares reports whether a destroy verb (the i-th subcommand
// word) of cli is left to another rule or is not a destroy there
// (platformSpared).
func platformSpares(cli, verb string, i int, cmd *effects.Command) bool {
	for _, s := range platformSpared {
		if slices.Contains(s.clis, cli) && s.spares(verb, i, cmd) {
			return true
		}
	}
	return false
}

// platformSpared: the destroy verbs of some CLIs that this rule leaves
// alone.
var platformSpared = []struct {
	clis   []string
	spares func(verb string, i int, cmd *effects.Command) bool
}{
	// infra.docker-prune judges these.
	{[]string{"docker", "podman", "nerdctl"}, func(string, int, *effects.Command) bool { return true }},
	// gh extension remove … is at i == 1; gh delete alone is not a command.
	{[]string{"gh", "glab"}, func(_ string, i int, _ *effects.Command) bool { return i == 0 }},
	{[]string{"gem"}, func(verb string, _ int, _ *effects.Command) bool { return verb != "yank" }},
	{[]string{"npm", "pnpm", "yarn"}, func(verb string, _ int, _ *effects.Command) bool { return verb != "unpublish" }},
	{[]string{"mc"}, func(verb string, _ int, cmd *effects.Command) bool {
		return verb != "rb" && !(verb == "rm" && cmd.Has("recursive", "r", "force"))
	}},
	// One object; infra.cloud-delete judges the recursive form.
	{[]string{"aws", "awslocal"}, func(verb string, _ int, cmd *effects.Command) bool { return verb == "rm" && !cmd.Has("recursive") }},
	{[]string{"gsutil"}, func(verb string, _ int, cmd *effects.Command) bool { return verb == "rm" && !cmd.Has("r", "R") }},
	{[]string{"helm"}, func(verb string, _ int, _ *effects.Command) bool {
		return verb != "uninstall" && verb != "delete" && verb != "del" && verb != "un"
	}},
}

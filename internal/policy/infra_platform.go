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

// platformReadOnly flags make any command only show what it would do.
var platformReadOnly = []string{"--dry-run", "--dryrun", "--dry-run=client", "--dry-run=server", "--help", "-h", "--whatif", "--what-if", "help"}

// checkPlatformDestroy: VERB x RESOURCE across cloud, hosting, registry
// and platform CLIs: a destroy verb among the first few subcommand words.
func checkPlatformDestroy(c *Call) Finding {
	name := c.Ex.Name
	if !slices.Contains(platformCLIs, name) {
		return Finding{}
	}
	for _, a := range c.Args {
		if slices.Contains(platformReadOnly, a) {
			return Finding{}
		}
	}
	if strings.HasPrefix(name, "kafka-") && hasArg(c.Args, "--delete") {
		return hit(name + " --delete deletes a topic or its configuration, and the messages it holds")
	}
	// Option values are not subcommands (az --subscription delete group
	// list lists): the CLI's spec in package effects says which options
	// take values, for the CLIs that have one.
	ops := subcommandWords(c.Args)
	if p, ok := effects.Parse(name, c.Args); ok {
		ops = p.Operands
	}
	var allowed []string
	for _, a := range platformAllowed {
		if a.cli == name {
			allowed = a.verbs
		}
	}
	if name == "doctl" && len(ops) > 0 && ops[0] == "compute" {
		ops = ops[1:]
	}
	for i, o := range ops[:min(len(ops), 4)] {
		verb := strings.ToLower(o)
		if _, after, ok := strings.Cut(verb, ":"); ok && name != "gh" {
			verb = after // heroku apps:destroy, dokku apps:destroy
			if i2 := strings.LastIndexByte(verb, ':'); i2 >= 0 {
				verb = verb[i2+1:]
			}
		}
		destroy := slices.Contains(destroyVerbs, verb) || (name == "doctl" && i == 1 && verb == "d") || name == "helm" && (verb == "uninstall" || verb == "un")
		for _, p := range destroyPrefixes {
			if strings.HasPrefix(verb, p) || strings.HasSuffix(verb, "-"+strings.TrimRight(p, "-_")) {
				destroy = true // delete-bucket, service-instance-delete
			}
		}
		if name == "sequelize" || name == "rails" || name == "rake" {
			destroy = strings.HasPrefix(strings.ToLower(o), "db:drop") || strings.HasPrefix(strings.ToLower(o), "db:reset") || strings.Contains(strings.ToLower(o), "undo:all") || strings.HasPrefix(strings.ToLower(o), "db:schema:load")
		}
		if name == "prisma" {
			destroy = i > 0 && ops[i-1] == "migrate" && verb == "reset" || verb == "--force-reset"
		}
		if !destroy || slices.Contains(allowed, verb) {
			continue
		}
		if name == "docker" || name == "podman" || name == "nerdctl" {
			continue // infra.docker-prune judges these
		}
		if (name == "gh" || name == "glab") && i == 0 {
			continue // gh extension remove ... is at i == 1; gh delete alone is not a command
		}
		if name == "gem" && verb != "yank" {
			continue
		}
		if slices.Contains([]string{"npm", "pnpm", "yarn"}, name) && verb != "unpublish" {
			continue
		}
		if name == "mc" && verb != "rb" && !(verb == "rm" && (hasArg(c.Args, "--recursive", "-r") || hasArg(c.Args, "--force"))) {
			continue
		}
		if (name == "aws" || name == "awslocal") && verb == "rm" && !hasArg(c.Args, "--recursive") || name == "gsutil" && verb == "rm" && !hasArg(c.Args, "-r", "-R") {
			continue // one object; infra.cloud-delete judges the recursive form
		}
		if name == "helm" && verb != "uninstall" && verb != "delete" && verb != "del" && verb != "un" {
			continue
		}
		return hit(name + " " + strings.Join(ops[:min(len(ops), i+2)], " ") + " deletes what the platform holds (servers, volumes, databases, clusters, projects or published packages)")
	}
	return Finding{}
}

// subcommandWords are the words of a call that are not options nor the
// values of --opt value pairs the analysis can recognise (a word after an
// option that starts with -- and has no = is taken as its value only when
// it does not look like a subcommand).
func subcommandWords(args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if strings.HasPrefix(a, "-") {
			continue
		}
		out = append(out, a)
	}
	return out
}

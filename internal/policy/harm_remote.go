package policy

import "github.com/gemini-guard/gemini-guard/internal/effects"

// harmRemoteDestroy: a CLI nobody listed given a destroy word as its
// subcommand (delete, destroy, purge, unpublish, reset, wipe, apps:destroy,
// delete-bucket). The listed CLIs (infra.*) and the local tools (package
// and version managers, container engines) are judged elsewhere.
var harmRemoteDestroy = &Rule{
	ID: "harm.remote-destroy", Category: "harm",
	Protects: "what the long tail of cloud, cluster, registry, SaaS and data-store CLIs manage, from their destroy verbs (also a weak one next to a store word: rabbitmqadmin delete queue, nats stream rm), the drop queries of graph and multi-model shells (cypher-shell, surreal, arangosh), backups deleted (bup --unsafe, bconsole delete volume, timeshift --delete-all), and a sync or mirror from an empty directory (rclone sync ./empty, robocopy EMPTY DEST /MIR): a program the guard has no spec for, whose first four operands hold delete, destroy, purge, remove, rm, unpublish, reset, wipe, drop, terminate, uninstall, deprovision, decommission, nuke, erase, teardown, truncate, deregister, unregister or revoke (also as resource:verb, verb-resource or resource-verb)",
	What:     "gives a CLI a destroy verb",
	Safer:    "ask the user to run the destroy themselves, or list what would be destroyed first",
	Unknown:  noUnknownStory,
	Commands: []string{"*"}, exec: checkRemoteDestroy,
	Block: []string{
		`hcloud server delete web-1`,
		`linode-cli linodes delete 123`,
		`netlify sites:delete my-site`,
		`scw instance server terminate 11111111-2222`,
		`civo instance delete web-1`,
		`ibmcloud resource service-instance-delete db`,
		`exoscale compute instance delete web --force`,
		`s5cmd rm 's3://acme-data/*'`,
		`crane delete registry.example.com/acme/app:1.0`,
		`rclone sync ./empty remote:backups`,
		`cypher-shell 'MATCH (n) DETACH DELETE n'`,
		`nats stream rm ORDERS -f`,
		`echo 'delete volume=Full-0001 yes' | bconsole`,
	},
	Allow: []string{
		`hcloud server list`,
		`linode-cli linodes view 123`,
		`netlify deploy --prod`,
		`hcloud server delete --help`,
		`rustc src/delete.rs`,
		`npm uninstall left-pad`,
		`git commit -m "delete unused code"`,
		`cliphist delete 42`,
		`pipenv uninstall requests`,
		`mytool rm build/cache`,
		`nats stream ls`,
		`rclone sync --dry-run /tmp/void s3:b`,
		`cargo yank --version 1.2.0 acme-lib`,
		`echo 'list jobs' | bconsole`,
	},
}

func checkRemoteDestroy(c *Call) Finding {
	if e, ok := c.effect(effects.Delete, effects.Remote); ok {
		return hit(e.Name + " " + e.Action + " destroys what " + e.Name + " manages")
	}
	return Finding{}
}

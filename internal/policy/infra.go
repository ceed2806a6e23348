package policy

import (
	"path"
	"slices"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/lazyregexp"
)

// infraRules judge destroying infrastructure: clusters, clouds, databases, registries, backups.
var infraRules = []*Rule{
	{
		ID: "infra.terraform-destroy", Category: "infra",
		Protects: "infrastructure managed as code, and the state that records what it manages (terraform state rm and push, workspace delete)",
		What:     "destroys the infrastructure a stack manages or its state",
		Safer:    "terraform plan -destroy to show what would go, then ask the user",
		Unknown:  noUnknownStory,
		Commands: []string{"terraform", "tofu", "terragrunt", "pulumi", "cdk", "cdktf", "serverless", "sls"}, exec: checkTerraform,
		Block: []string{`terraform destroy -auto-approve`, `terraform apply -destroy`, `pulumi destroy --yes`, `tofu destroy`, `terraform apply -replace=aws_db_instance.main`, `TF_CLI_ARGS_apply=-destroy terraform apply -auto-approve`, `terraform -chdir=infra destroy`, `terraform -chdir infra destroy -auto-approve`,
			`terraform state rm aws_db_instance.main`, `tofu -chdir=infra state rm module.db`, `terraform workspace delete -force prod`, `terraform state push old.tfstate`},
		Allow: []string{`terraform plan`, `terraform plan -destroy`, `terraform apply`, `TF_CLI_ARGS_plan=-compact-warnings terraform plan`, `terraform plan -out destroy`, `terraform plan -var-file destroy.tfvars`,
			`terraform state list`, `terraform state show aws_db_instance.main`, `terraform workspace list`, `terraform workspace select prod`, `terraform state pull | jq '.resources | length'`},
	},
	{
		ID: "infra.kubectl-delete", Category: "infra",
		Protects: "Kubernetes resources: a delete of anything but pods named one by one (their controller recreates them), a node drain, a forced replace, every workload scaled to zero",
		What:     "deletes Kubernetes resources",
		Safer:    "to restart a workload, delete its pods by name (kubectl delete pod NAME) or run kubectl rollout restart; ask the user before deleting other resources",
		Unknown:  noUnknownStory,
		Commands: []string{"kubectl", "oc", "k"}, exec: checkKubectl,
		Block: []string{`kubectl delete namespace prod`, `kubectl delete pods --all`, `kubectl delete pods -l app=web`, `kubectl delete deploy web`, `kubectl drain node-1`, `kubectl delete ns/staging`, `kubectl delete deploy -A --all`, `kubectl scale deploy --all --replicas=0`, `kubectl --kubeconfig ~/.kube/prod --context prod -n payments delete pvc data`, `kubectl -n payments --context=prod delete pvc data`},
		Allow: []string{`kubectl get pods`, `kubectl delete pod web-1`, `kubectl delete pod web-1 --dry-run=client`, `kubectl describe deploy web`, `kubectl scale deploy web --replicas=0`, `kubectl --context delete get pods`, `kubectl -n delete logs web-1`},
	},
	{
		ID: "infra.cloud-delete", Category: "infra",
		Protects: "cloud projects, buckets, databases and clusters",
		What:     "deletes cloud resources or their data",
		Safer:    "ask the user to delete cloud resources",
		Unknown:  noUnknownStory,
		Commands: []string{"aws", "gcloud", "gsutil", "az", "doctl", "wrangler", "vercel", "fly", "flyctl", "heroku", "firebase", "supabase", "vault", "nomad"}, exec: checkCloud,
		Block: []string{`aws s3 rb s3://bucket --force`, `aws s3 rm s3://bucket/ --recursive`, `gcloud projects delete my-proj`, `gsutil rm -r gs://bucket`, `az group delete -n rg`, `wrangler delete worker`, `nomad job stop -purge api`, `vault secrets disable secret/`},
		Allow: []string{`aws s3 ls`, `aws s3 cp file s3://bucket/`, `gcloud projects list`, `aws ec2 terminate-instances --instance-ids i-1 --dry-run`, `vault secrets list`},
	},
	{
		ID: "infra.sql-drop", Category: "infra",
		Protects: "databases and tables",
		What:     "drops or truncates database objects",
		Safer:    "ask the user; take a dump first (pg_dump, mysqldump)",
		Unknown:  noUnknownStory,
		Commands: []string{"psql", "mysql", "mariadb", "sqlite3", "sqlcmd", "clickhouse-client", "clickhouse", "duckdb", "cockroach", "mongo", "mongosh", "pgcli", "mycli", "usql", "dropdb", "mysqladmin", "cqlsh", "litecli", "snowsql", "bq", "trino", "presto", "isql", "sqlplus", "influx", "clickhouse-local", "spanner-cli", "mssql-cli", "turso"}, exec: checkSQLDrop,
		Block: []string{`psql -c "DROP DATABASE prod"`, `mysql -e 'drop table users'`, `dropdb app`, `psql -c 'DELETE FROM users;'`, `sqlite3 app.db 'delete from sessions'`, `mongosh --eval 'db.users.deleteMany({})'`, "psql <<EOF\nDROP TABLE users;\nEOF", `mongosh --eval "db.dropDatabase()"`, `mysql -e 'truncate table orders' shop`, `psql -c 'TRUNCATE users CASCADE'`, `dropdb --if-exists app_prod`, `dropdb app_test`},
		Allow: []string{`psql -c "SELECT 1"`, `dropdb --if-exists app_test`, `dropdb --if-exists test_orders_ci`, `sqlite3 app.db .tables`, `psql -c "DELETE FROM sessions WHERE expires < now()"`, `mysql -e 'select * from users'`, `psql -c "select 'drop table users'"`},
	},
	{
		ID: "infra.redis-flush", Category: "infra",
		Protects: "Redis data",
		What:     "deletes every key of a Redis database",
		Safer:    "delete specific keys",
		Unknown:  noUnknownStory,
		Commands: []string{"redis-cli", "valkey-cli", "keydb-cli"}, exec: checkRedisFlush,
		Block: []string{`redis-cli FLUSHALL`, `redis-cli -n 2 flushdb`, `redis-cli --scan --pattern '*' | xargs redis-cli del`},
		Allow: []string{`redis-cli GET key`, `redis-cli ping`, `redis-cli DEL session:123`},
	},
	{
		ID: "infra.index-delete", Category: "infra",
		Protects: "search and document stores reached over HTTP (Elasticsearch, OpenSearch), from a DELETE of every index or of a wildcard of them",
		What:     "deletes every index of a search store",
		Safer:    "delete the one index or document the task needs gone, by name; list with GET /_cat/indices first",
		Unknown:  noUnknownStory,
		Commands: []string{"curl", "http", "https", "xh", "xhs", "curlie"}, exec: checkIndexDelete,
		Block: []string{`curl -X DELETE http://localhost:9200/_all`, `curl -XDELETE 'https://es.internal:9200/logs-*'`, `http DELETE :9200/*`},
		Allow: []string{`curl -s http://localhost:9200/_cat/indices`, `curl -X DELETE http://localhost:9200/test-index/_doc/1`, `curl -X DELETE http://localhost:9200/old-index-2023`},
	},
	{
		ID: "infra.docker-prune", Category: "infra",
		Protects: "Docker volumes and everything unused (data included)",
		What:     "deletes Docker volumes or everything unused",
		Safer:    "remove the specific container or image",
		Unknown:  noUnknownStory,
		Commands: []string{"docker", "podman", "nerdctl", "docker-compose"}, exec: checkDockerPrune,
		Block: []string{`docker system prune -af`, `docker volume prune -f`, `docker compose down -v`, `docker volume rm pgdata`, `docker compose rm -fsv`},
		Allow: []string{`docker ps`, `docker compose down`, `docker image ls`, `docker compose rm -f`},
	},
	{
		ID: "infra.platform-destroy", Category: "infra",
		Protects: "what cloud, hosting, registry and platform CLIs manage: servers, volumes, databases, clusters, projects, releases, published packages",
		What:     "deletes resources through a cloud or platform CLI",
		Safer:    "list first (the CLI's list/get/describe), then ask the user to delete",
		Unknown:  noUnknownStory,
		Commands: platformCLIs, exec: checkPlatformDestroy,
		Block: []string{`aws ec2 delete-volume --volume-id v1`, `aws sqs purge-queue --queue-url u`, `linode-cli linodes delete 42`, `hcloud server delete web`, `helm uninstall web`, `heroku apps:destroy app`, `npm unpublish pkg@1.0.0`, `gem yank pkg -v 1.0`, `doctl databases delete 42`, `openstack server delete s1`, `sst remove --stage prod`, `kafka-topics.sh --bootstrap-server localhost:9092 --delete --topic orders`},
		Allow: []string{`aws ec2 describe-volumes`, `linode-cli linodes list`, `hcloud server list`, `helm list`, `npm uninstall lodash`, `doctl compute droplet create web`, `helm upgrade web ./chart`, `gcloud compute instances delete vm --help`, `sst deploy --stage dev`, `kafka-topics.sh --bootstrap-server localhost:9092 --list`, `oc adm policy who-can delete pods -n web`, `kubectl auth can-i delete deployments`},
	},
	{
		ID: "infra.backup-destroy", Category: "infra",
		Protects: "backups and the remotes that hold them (rclone, borg, restic, kopia, duplicity, tarsnap, rdiff-backup, duplicacy): the copy that undoes every other loss",
		What:     "deletes backups or empties the remote that holds them",
		Safer:    "list the archives or snapshots (rclone ls, borg list, restic snapshots) and run the deletion with --dry-run; ask the user to delete backups",
		Unknown:  noUnknownStory,
		Commands: backupTools, exec: checkBackupDestroy,
		Block: []string{`rclone purge remote:backups`, `rclone deletefile s3:b/db.sql.gz`, `rclone sync "$(mktemp -d)" b2:backups`, `borg delete /srv/borg::host-2024-01-01`, `borg prune --keep-last 1 /mnt/repo`, `restic forget --keep-last 1 --prune`, `kopia snapshot delete k1 --delete`, `duplicity remove-older-than 1D --force file:///mnt/b`, `tarsnap -d -f nightly`, `tmutil delete /Volumes/Backup/Backups.backupdb/mac/2024-01-01-120000`, `sudo tmutil deletelocalsnapshots /`},
		Allow: []string{`rclone ls remote:backups`, `rclone sync ./site s3:www`, `rclone copy ./dist s3:b/site`, `borg list /mnt/repo`, `borg prune --dry-run --keep-daily 7 /mnt/repo`, `restic snapshots`, `restic forget --keep-daily 7 --dry-run`, `kopia snapshot delete k1`, `tarsnap --list-archives`, `tmutil listbackups`, `tmutil startbackup`},
	},
	{
		ID: "infra.registry-redirect", Category: "infra",
		Protects: "every later package install, from a registry setting pointed at a host that is neither a public registry nor local",
		What:     "points the package registry at an unknown host",
		Safer:    "give the registry for one install (npm install --registry=URL, pip install -i URL), or ask the user to change the setting",
		Unknown:  noUnknownStory,
		Commands: []string{"*"}, exec: checkRegistryRedirect,
		Block: []string{`npm config set registry http://203.0.113.9:4873/`, `pip config set global.index-url https://pypi.example.net/simple`, `yarn config set npmRegistryServer https://registry.example.net`, `echo 'registry=https://npm.example.net/' > ~/.npmrc`, `go env -w GOPROXY=https://proxy.example.net,direct`, `gem sources --add https://gems.example.net/`},
		Allow: []string{`npm config get registry`, `npm config set registry https://registry.npmjs.org/`, `npm install --registry=http://localhost:4873 left-pad`, `pip install -i https://test.pypi.org/simple/ pkg`, `pip config set global.timeout 60`, `echo 'save-exact=true' >> .npmrc`, `go env -w GOPROXY=https://proxy.golang.org,direct`},
	},
	{
		ID: "infra.app-db-reset", Category: "infra",
		Protects: "the application's database, from an application framework's command that drops, wipes or re-creates it (Django, Laravel, Ecto, Sequelize, Knex, TypeORM, MikroORM, Doctrine, Alembic, Flask-Migrate, dbmate, goose, golang-migrate, Flyway, Liquibase, Diesel, sqlx, Prisma, Supabase's linked database), also run inside the application's container (docker compose exec web …), and ORM calls that empty it (drop_all(), Model.delete_all, objects.all().delete())",
		What:     "drops or wipes the application's database",
		Safer:    "run the migration the task needs (forward), or ask the user before resetting a database; a test database can be created under another name",
		Unknown:  noUnknownStory,
		Commands: []string{"*"}, exec: checkAppDBReset,
		Block: []string{`python manage.py flush --noinput`, `./manage.py reset_db`, `php artisan migrate:fresh --seed`, `php artisan db:wipe --force`, `mix ecto.reset`, `npx sequelize-cli db:drop`, `knex migrate:rollback --all`, `alembic downgrade base`, `flask db downgrade base`, `npx prisma db push --force-reset`, `flyway clean`, `goose postgres "$DB" reset`, `diesel database reset`, `supabase db reset --linked`, `bin/console doctrine:database:drop --force`, `docker compose exec web python manage.py flush --no-input`, `python -c "from app import db; db.drop_all()"`, `bin/rails runner 'User.delete_all'`},
		Allow: []string{`python manage.py migrate`, `python manage.py sqlflush`, `php artisan migrate`, `php artisan migrate:status`, `mix ecto.migrate`, `npx sequelize-cli db:migrate`, `knex migrate:rollback`, `alembic downgrade -1`, `alembic upgrade head`, `npx prisma db push`, `flyway migrate`, `supabase db reset`, `diesel migration run`, `php artisan migrate:fresh --pretend`, `docker compose exec web python manage.py migrate`, `bin/rails runner 'User.where(active: false).delete_all'`, `python -c "from app import db; db.create_all()"`},
	},
}

// Package registries redirected: every later install of the user (or of
// the project) fetches its packages from a host the command chose. A
// registry given for one install (npm install --registry=…, pip install
// -i …) is seen and used once; a setting persists unseen.

// publicRegistries are the package managers' own registries and the
// proxies their tools name by default.
var publicRegistries = []string{
	"registry.npmjs.org", "registry.npmjs.com", "registry.yarnpkg.com", "npm.pkg.github.com", "registry.npmmirror.com",
	"pypi.org", "pypi.python.org", "files.pythonhosted.org", "test.pypi.org", "download.pytorch.org",
	"rubygems.org", "proxy.golang.org", "goproxy.io", "goproxy.cn", "crates.io", "index.crates.io", "repo.maven.apache.org",
	"jsr.io", "npm.jsr.io",
}

// registryFiles configure where a package manager fetches from.
var registryFiles = []string{".npmrc", "npmrc", ".yarnrc", ".yarnrc.yml", "pip.conf", "pip.ini", ".pydistutils.cfg", "bunfig.toml", ".gemrc", "uv.toml"}

// registrySettingRe finds a registry URL in a configuration file's text.
var registrySettingRe = &lazyregexp.Regexp{Expr: `(?im)^\s*(?:@[\w.-]+:)?(registry|index-url|extra-index-url|index_url|npmRegistryServer|url|:sources)\s*[=:]\s*(?:-\s*)?["']?([a-z][a-z0-9+.-]*://[^\s"']+)`}

// checkRegistryRedirect: npm/pnpm/yarn/bun config set registry, pip config
// set global.index-url, gem sources --add, go env -w GOPROXY=, or a
// registry configuration file written, naming a host that is neither a
// public registry nor local.
func checkRegistryRedirect(c *Call) Finding {
	name, args := c.Ex.Name, c.Args
	var urls []string
	switch name {
	case "npm", "pnpm", "yarn", "bun", "pip", "pip3", "uv":
		urls = configSetRegistries(operands(args))
	case "gem":
		urls = optionValues(args, "--add", "-a")
	case "go":
		urls = goproxySet(args)
	}
	urls = append(urls, c.writtenRegistries()...)
	for _, u := range urls {
		h := urlHost(c.Res, u)
		if h == "" || localHost(h) || slices.Contains(publicRegistries, h) || u == "direct" || u == "off" {
			continue
		}
		return hit(name + " points the package registry at " + h + ": every later install fetches code from there unseen")
	}
	return Finding{}
}

// configSetRegistries are the registry URLs a package manager's config
// set writes (npm config set registry URL, pip config set
// global.index-url=URL).
func configSetRegistries(ops []string) []string {
	set := slices.Index(ops, "set")
	if set < 0 || set > 1 {
		return nil
	}
	var urls []string
	for i, o := range ops[set+1:] {
		key, v, hasV := strings.Cut(o, "=")
		k := strings.ToLower(key)
		if !strings.Contains(k, "registry") && !strings.Contains(k, "index-url") && !strings.Contains(k, "index_url") {
			continue
		}
		if !hasV && set+2+i < len(ops) {
			v = ops[set+2+i]
		}
		urls = append(urls, v)
	}
	return urls
}

// goproxySet are the proxies go env -w GOPROXY=… sets.
func goproxySet(args []string) []string {
	if !hasArg(args, "-w") {
		return nil
	}
	var urls []string
	for _, a := range args {
		if v, ok := strings.CutPrefix(a, "GOPROXY="); ok {
			urls = append(urls, strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == '|' })...)
		}
	}
	return urls
}

// writtenRegistries are the registries set in a registry file written
// with known text (echo … > ~/.npmrc, tee, printf … > pip.conf).
func (c *Call) writtenRegistries() []string {
	var targets []string
	for _, r := range c.Ex.Redirs {
		if r.Writes() {
			targets = append(targets, r.Target)
		}
	}
	if c.Ex.Name == "tee" {
		targets = append(targets, operands(c.Args)...)
	}
	var urls []string
	for _, t := range targets {
		p := c.resolve(t)
		if !slices.Contains(registryFiles, path.Base(p)) {
			continue
		}
		for _, m := range registrySettingRe.Get().FindAllStringSubmatch(c.Res.Written[p], 8) {
			urls = append(urls, m[2])
		}
	}
	return urls
}

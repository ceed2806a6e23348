package effects

import "github.com/gemini-guard/gemini-guard/internal/shell"

// grammars are the subcommand CLIs' command lines (Grammar), from each
// program's own reference: its global options and where they may stand,
// the value-taking options its subcommands share, and the variables that
// stand for an option. An option a grammar does not list takes no value:
// its value reads as a word after the subcommand path, which the rules
// never take for the path. The specs are literals written inline
// (TestHookPackagesComputeNothingAtStartUp: a table entry copying an
// OptSpec variable would be filled in at start-up).
var grammars = []Grammar{
	// aws [options] <command> <subcommand> [parameters]: the global
	// options stand anywhere (aws reference, "Global Options"); every
	// parameter is --name [value].
	{Names: []string{"aws", "awslocal"},
		Opts: shell.OptSpec{Long: []string{"profile=", "region=", "output=", "endpoint-url=", "query=", "cli-input-json=", "cli-input-yaml=",
			"ca-bundle=", "cli-read-timeout=", "cli-connect-timeout=", "color=", "cli-binary-format=", "debug", "no-verify-ssl", "no-paginate",
			"no-sign-request", "no-cli-pager", "cli-auto-prompt", "no-cli-auto-prompt", "version", "help",
			// Parameters whose values the effects read (cloudChanges).
			"cidr=", "ip-permissions=", "acl=", "policy-arn=", "group-id=", "protocol=", "port=", "bucket=", "user-name=", "role-name=",
			"group-name=", "trail-name=", "detector-id=", "configuration-recorder-name=", "policy-document=", "policy-name="}},
		Env: []EnvOpt{{"AWS_PROFILE", "profile"}, {"AWS_DEFAULT_PROFILE", "profile"}, {"AWS_REGION", "region"}, {"AWS_DEFAULT_REGION", "region"},
			{"AWS_DEFAULT_OUTPUT", "output"}, {"AWS_ENDPOINT_URL", "endpoint-url"}, {"AWS_CA_BUNDLE", "ca-bundle"}},
		Target: []string{"profile", "region", "output", "endpoint-url", "query", "cli-read-timeout"},
		Uses:   []string{"ca-bundle"}},
	// gcloud GROUP | COMMAND [global flags]: flags anywhere, --flag=value
	// or --flag value (gcloud reference, "Global Flags"), with the
	// location and listing flags most groups share.
	{Names: []string{"gcloud"},
		Opts: shell.OptSpec{Short: "hqv", Long: []string{"account=", "billing-project=", "configuration=", "flags-file=", "flatten=", "format=",
			"project=", "verbosity=", "access-token-file=", "impersonate-service-account=", "trace-token=", "log-http", "quiet", "help", "version",
			"user-output-enabled", "no-user-output-enabled", "zone=", "region=", "location=", "filter=", "limit=", "sort-by=", "page-size=", "uri",
			"source-ranges=", "role=", "member=", "allow=", "rules=", "secret="}},
		Env: []EnvOpt{{"CLOUDSDK_CORE_PROJECT", "project"}, {"CLOUDSDK_CORE_ACCOUNT", "account"}, {"CLOUDSDK_ACTIVE_CONFIG_NAME", "configuration"},
			{"CLOUDSDK_CORE_VERBOSITY", "verbosity"}, {"CLOUDSDK_AUTH_IMPERSONATE_SERVICE_ACCOUNT", "impersonate-service-account"},
			{"CLOUDSDK_COMPUTE_ZONE", "zone"}, {"CLOUDSDK_COMPUTE_REGION", "region"}},
		Target: []string{"project", "account", "configuration", "format", "verbosity", "impersonate-service-account"},
		Uses:   []string{"access-token-file", "flags-file"}},
	// gsutil [-D] [-d] [-h header] [-i account] [-m] [-o section:flag=value]
	// [-q] [-u project] COMMAND [options]: top-level options before the
	// command, the command's own after it.
	{Names: []string{"gsutil"},
		Opts:   shell.OptSpec{Short: "Ddh:i:mo:qu:", Long: []string{"help", "version"}, StopAtOperand: true},
		After:  shell.OptSpec{Short: "rRfIenpPUvcCDJAL:s:j:x:z:", Long: []string{"help"}},
		Target: []string{"o", "u", "i"}, TargetAt: BeforeSub},
	{Names: []string{"bq"},
		Opts: shell.OptSpec{Long: []string{"project_id=", "location=", "dataset_id=", "format=", "api=", "apilog=", "headless", "quiet", "help"}}},
	// az GROUP COMMAND [args]: global arguments anywhere (az reference,
	// "Global Parameters"), with the resource arguments most commands take.
	{Names: []string{"az", "az.cmd"},
		Opts: shell.OptSpec{Short: "o:g:n:l:h", Long: []string{"subscription=", "output=", "query=", "resource-group=", "name=", "location=",
			"vault-name=", "id=", "ids=", "debug", "verbose", "only-show-errors", "help", "yes",
			"source-address-prefixes=", "source-address-prefix=", "role=", "assignee=", "scope=", "nsg-name="}},
		Env:    []EnvOpt{{"AZURE_DEFAULTS_GROUP", "resource-group"}, {"AZURE_DEFAULTS_LOCATION", "location"}, {"AZURE_CORE_OUTPUT", "output"}},
		Target: []string{"subscription", "output", "query"}},
	// kubectl [flags] COMMAND: the global flags (kubectl options) stand
	// anywhere, -n/--namespace included.
	{Names: []string{"kubectl", "oc", "k"},
		Opts:   shell.OptSpec{Short: kubectlShort, Long: kubectlLong},
		Env:    []EnvOpt{{"KUBECONFIG", "kubeconfig"}},
		Target: []string{"context", "namespace", "kubeconfig", "cluster", "user", "request-timeout"},
		Uses:   []string{"kubeconfig", "certificate-authority", "client-certificate", "client-key"}},
	// helm COMMAND [flags]: the global flags (helm reference, "Options
	// inherited from parent commands") anywhere.
	{Names: []string{"helm"},
		Opts: shell.OptSpec{Short: "n:f:o:", Long: []string{"burst-limit=", "debug", "kube-apiserver=", "kube-as-group=", "kube-as-user=",
			"kube-ca-file=", "kube-context=", "kube-insecure-skip-tls-verify", "kube-tls-server-name=", "kube-token=", "kubeconfig=",
			"namespace=", "qps=", "registry-config=", "repository-cache=", "repository-config=", "content-cache=", "color=", "colour=",
			"repo=", "version=", "values=", "set=", "set-string=", "set-file=", "set-json=", "timeout=", "output=", "help"}},
		Env: []EnvOpt{{"KUBECONFIG", "kubeconfig"}, {"HELM_KUBECONTEXT", "kube-context"}, {"HELM_NAMESPACE", "namespace"},
			{"HELM_KUBETOKEN", "kube-token"}, {"HELM_KUBEAPISERVER", "kube-apiserver"}},
		Target: []string{"kube-context", "namespace", "kubeconfig"},
		Uses:   []string{"kubeconfig", "kube-ca-file", "registry-config", "repository-config"}},
	// docker [OPTIONS] COMMAND: the global options (docker reference)
	// before the command only; run and create read their options, the
	// image, then the command the container runs.
	{Names: []string{"docker"},
		Opts: shell.OptSpec{Short: "c:DH:l:v", Long: []string{"config=", "context=", "debug", "host=", "log-level=", "tls", "tlscacert=",
			"tlscert=", "tlskey=", "tlsverify", "version", "help"}, StopAtOperand: true},
		After: shell.OptSpec{Long: []string{"filter=", "format=", "help"}},
		Subs: []Sub{
			{Paths: [][]string{{"run"}, {"create"}, {"container", "run"}, {"container", "create"}},
				Opts: shell.OptSpec{Short: "a:c:e:h:l:m:p:u:v:w:diPtq", Long: []string{"add-host=", "annotation=", "attach=", "blkio-weight=",
					"blkio-weight-device=", "cap-add=", "cap-drop=", "cgroup-parent=", "cgroupns=", "cidfile=", "cpu-count=", "cpu-percent=",
					"cpu-period=", "cpu-quota=", "cpu-rt-period=", "cpu-rt-runtime=", "cpu-shares=", "cpus=", "cpuset-cpus=", "cpuset-mems=",
					"detach-keys=", "device=", "device-cgroup-rule=", "device-read-bps=", "device-read-iops=", "device-write-bps=",
					"device-write-iops=", "dns=", "dns-option=", "dns-search=", "domainname=", "entrypoint=", "env=", "env-file=", "expose=",
					"gpus=", "group-add=", "health-cmd=", "health-interval=", "health-retries=", "health-start-interval=", "health-start-period=",
					"health-timeout=", "hostname=", "ip=", "ip6=", "ipc=", "isolation=", "kernel-memory=", "label=", "label-file=", "link=",
					"link-local-ip=", "log-driver=", "log-opt=", "mac-address=", "memory=", "memory-reservation=", "memory-swap=",
					"memory-swappiness=", "mount=", "name=", "network=", "net=", "network-alias=", "net-alias=", "oom-score-adj=", "pid=",
					"pids-limit=", "platform=", "publish=", "pull=", "restart=", "runtime=", "security-opt=", "shm-size=", "stop-signal=",
					"stop-timeout=", "storage-opt=", "sysctl=", "tmpfs=", "ulimit=", "user=", "userns=", "uts=", "volume=", "volume-driver=",
					"volumes-from=", "workdir=", "detach", "interactive", "tty", "rm", "privileged", "publish-all", "init", "read-only",
					"sig-proxy=?", "no-healthcheck", "oom-kill-disable", "quiet", "disable-content-trust=?", "use-api-socket", "help"},
					StopAtOperand: true}},
			{Paths: [][]string{{"exec"}, {"container", "exec"}},
				Opts: shell.OptSpec{Short: "e:u:w:dit", Long: []string{"env=", "env-file=", "user=", "workdir=", "detach-keys=", "detach",
					"interactive", "tty", "privileged", "help"}, StopAtOperand: true}},
			{Paths: [][]string{{"compose"}},
				Opts: shell.OptSpec{Short: "f:p:", Long: []string{"file=", "project-name=", "profile=", "env-file=", "project-directory=",
					"ansi=", "parallel=", "progress=", "all-resources", "compatibility", "dry-run", "help"}, StopAtOperand: true},
				Nested: true,
				After: shell.OptSpec{Short: "t:e:w:u:v:p:l:", Long: []string{"timeout=", "rmi=", "env=", "workdir=", "user=", "scale=", "index=", "pull=",
					"volume=", "publish=", "label=", "name=", "entrypoint=", "env-file=", "volumes", "remove-orphans", "force", "stop", "detach", "build", "help"}},
				Stop: []string{"exec", "run"}},
		},
		Env:    []EnvOpt{{"DOCKER_HOST", "host"}, {"DOCKER_CONTEXT", "context"}, {"DOCKER_CONFIG", "config"}},
		Target: []string{"context", "host", "config", "log-level"}, TargetAt: BeforeSub,
		Uses: []string{"config", "tlscacert", "tlscert", "tlskey"}},
	// podman [options] COMMAND: its global options (podman(1)) before the
	// command; run and create as docker's, with podman's own options.
	{Names: []string{"podman"},
		Opts: shell.OptSpec{Short: "c:r", Long: []string{"cgroup-manager=", "config=", "conmon=", "connection=", "events-backend=", "hooks-dir=",
			"identity=", "imagestore=", "log-level=", "module=", "network-cmd-path=", "network-config-dir=", "out=", "remote", "root=",
			"runroot=", "runtime=", "runtime-flag=", "ssh=", "storage-driver=", "storage-opt=", "syslog", "tmpdir=", "transient-store",
			"url=", "volumepath=", "debug", "version", "help"}, StopAtOperand: true},
		After: shell.OptSpec{Long: []string{"filter=", "format=", "help"}},
		Subs: []Sub{
			{Paths: [][]string{{"run"}, {"create"}, {"container", "run"}, {"container", "create"}},
				Opts: shell.OptSpec{Short: "a:c:e:h:l:m:p:u:v:w:diPtq", Long: []string{"add-host=", "annotation=", "arch=", "attach=", "authfile=",
					"blkio-weight=", "blkio-weight-device=", "cap-add=", "cap-drop=", "cgroup-conf=", "cgroup-parent=", "cgroupns=", "cgroups=",
					"chrootdirs=", "cidfile=", "conmon-pidfile=", "cpu-period=", "cpu-quota=", "cpu-rt-period=", "cpu-rt-runtime=", "cpu-shares=",
					"cpus=", "cpuset-cpus=", "cpuset-mems=", "creds=", "decryption-key=", "detach-keys=", "device=", "device-cgroup-rule=",
					"device-read-bps=", "device-read-iops=", "device-write-bps=", "device-write-iops=", "dns=", "dns-option=", "dns-search=",
					"entrypoint=", "env=", "env-file=", "env-merge=", "expose=", "gidmap=", "gpus=", "group-add=", "group-entry=", "health-cmd=",
					"health-interval=", "health-log-destination=", "health-max-log-count=", "health-max-log-size=", "health-on-failure=",
					"health-retries=", "health-start-period=", "health-startup-cmd=", "health-startup-interval=", "health-startup-retries=",
					"health-startup-success=", "health-startup-timeout=", "health-timeout=", "hostname=", "hostuser=", "image-volume=",
					"init-path=", "ip=", "ip6=", "ipc=", "label=", "label-file=", "log-driver=", "log-opt=", "mac-address=", "memory=",
					"memory-reservation=", "memory-swap=", "memory-swappiness=", "mount=", "name=", "network=", "net=", "network-alias=",
					"oom-score-adj=", "os=", "passwd-entry=", "personality=", "pid=", "pidfile=", "pids-limit=", "platform=", "pod=",
					"pod-id-file=", "preserve-fd=", "preserve-fds=", "publish=", "pull=", "rdt-class=", "requires=", "restart=", "retry=",
					"retry-delay=", "sdnotify=", "seccomp-policy=", "secret=", "security-opt=", "shm-size=", "shm-size-systemd=",
					"stop-signal=", "stop-timeout=", "subgidname=", "subuidname=", "sysctl=", "systemd=", "timeout=", "tmpfs=", "tz=", "uidmap=",
					"ulimit=", "umask=", "unsetenv=", "user=", "userns=", "uts=", "variant=", "volume=", "volumes-from=", "workdir=",
					"detach", "interactive", "tty", "rm", "privileged", "publish-all", "init", "read-only", "read-only-tmpfs=?", "replace",
					"rootfs", "env-host", "no-hosts", "no-healthcheck", "oom-kill-disable", "quiet", "http-proxy=?", "tls-verify=?", "rmi",
					"sig-proxy=?", "help"},
					StopAtOperand: true}},
			{Paths: [][]string{{"exec"}, {"container", "exec"}},
				Opts: shell.OptSpec{Short: "e:u:w:dit", Long: []string{"env=", "env-file=", "user=", "workdir=", "detach-keys=", "detach",
					"interactive", "tty", "privileged", "help"}, StopAtOperand: true}},
			{Paths: [][]string{{"compose"}},
				Opts:   shell.OptSpec{Short: "f:p:", Long: []string{"file=", "project-name=", "profile=", "env-file=", "project-directory=", "help"}, StopAtOperand: true},
				Nested: true,
				After: shell.OptSpec{Short: "t:e:w:u:v:p:l:", Long: []string{"timeout=", "rmi=", "env=", "workdir=", "user=", "scale=", "index=", "pull=",
					"volume=", "publish=", "label=", "name=", "entrypoint=", "env-file=", "volumes", "remove-orphans", "force", "stop", "detach", "build", "help"}},
				Stop: []string{"exec", "run"}},
		},
		Env:    []EnvOpt{{"CONTAINER_HOST", "url"}, {"CONTAINER_CONNECTION", "connection"}},
		Target: []string{"connection", "url", "log-level", "root"}, TargetAt: BeforeSub},
	// nerdctl: docker's command line (its reference), with containerd's
	// address and namespace.
	{Names: []string{"nerdctl"},
		Opts: shell.OptSpec{Short: "a:n:H:", Long: []string{"address=", "host=", "namespace=", "snapshotter=", "cni-path=", "cni-netconfpath=",
			"data-root=", "cgroup-manager=", "insecure-registry", "hosts-dir=", "experimental", "host-gateway-ip=", "debug", "debug-full",
			"version", "help"}, StopAtOperand: true},
		After: shell.OptSpec{Long: []string{"filter=", "format=", "help"}},
		Subs: []Sub{
			{Paths: [][]string{{"run"}, {"create"}, {"container", "run"}, {"container", "create"}},
				Opts: shell.OptSpec{Short: "a:c:e:h:l:m:p:u:v:w:diPtq", Long: []string{"add-host=", "attach=", "cap-add=", "cap-drop=",
					"cgroup-parent=", "cgroupns=", "cidfile=", "cpu-period=", "cpu-quota=", "cpu-shares=", "cpus=", "cpuset-cpus=", "cpuset-mems=",
					"device=", "dns=", "dns-option=", "dns-search=", "entrypoint=", "env=", "env-file=", "gpus=", "group-add=", "hostname=",
					"ip=", "ip6=", "ipc=", "label=", "label-file=", "log-driver=", "log-opt=", "mac-address=", "memory=", "memory-swap=",
					"mount=", "name=", "network=", "net=", "pid=", "pidfile=", "pids-limit=", "platform=", "publish=", "pull=", "restart=",
					"runtime=", "security-opt=", "shm-size=", "stop-signal=", "stop-timeout=", "sysctl=", "tmpfs=", "ulimit=", "user=",
					"userns=", "uts=", "volume=", "volumes-from=", "workdir=", "detach", "interactive", "tty", "rm", "privileged",
					"publish-all", "init", "read-only", "help"},
					StopAtOperand: true}},
			{Paths: [][]string{{"exec"}, {"container", "exec"}},
				Opts: shell.OptSpec{Short: "e:u:w:dit", Long: []string{"env=", "env-file=", "user=", "workdir=", "detach-keys=", "detach",
					"interactive", "tty", "privileged", "help"}, StopAtOperand: true}},
			{Paths: [][]string{{"compose"}},
				Opts:   shell.OptSpec{Short: "f:p:", Long: []string{"file=", "project-name=", "profile=", "env-file=", "project-directory=", "help"}, StopAtOperand: true},
				Nested: true,
				After: shell.OptSpec{Short: "t:e:w:u:v:p:l:", Long: []string{"timeout=", "rmi=", "env=", "workdir=", "user=", "scale=", "index=", "pull=",
					"volume=", "publish=", "label=", "name=", "entrypoint=", "env-file=", "volumes", "remove-orphans", "force", "stop", "detach", "build", "help"}},
				Stop: []string{"exec", "run"}},
		},
		Env:    []EnvOpt{{"CONTAINERD_ADDRESS", "address"}, {"CONTAINERD_NAMESPACE", "namespace"}},
		Target: []string{"namespace", "address"}, TargetAt: BeforeSub},
	// docker-compose [-f FILE] [-p NAME] COMMAND [options]: the compose
	// plugin's command line as a program of its own.
	{Names: []string{"docker-compose", "podman-compose"},
		Opts: shell.OptSpec{Short: "f:p:", Long: []string{"file=", "project-name=", "profile=", "env-file=", "project-directory=",
			"ansi=", "parallel=", "progress=", "all-resources", "compatibility", "dry-run", "help"}, StopAtOperand: true},
		After: shell.OptSpec{Short: "t:e:w:u:v:p:l:", Long: []string{"timeout=", "rmi=", "env=", "workdir=", "user=", "scale=", "index=", "pull=",
			"volume=", "publish=", "label=", "name=", "entrypoint=", "env-file=", "volumes", "remove-orphans", "force", "stop", "detach", "build", "help"}},
		Stop:   []string{"exec", "run"},
		Target: []string{"project-name", "file"}, TargetAt: BeforeSub},
	// gh COMMAND: -R/--repo and the auth commands' --hostname; GH_REPO
	// and GH_HOST stand for them (gh help environment).
	{Names: []string{"gh"},
		Opts: shell.OptSpec{Short: "R:q:", Long: []string{"repo=", "hostname=", "user=", "body=", "title=", "jq=", "json=",
			"template=", "field=", "raw-field=", "method=", "header=", "input=", "body-file=", "notes=", "notes-file=", "help", "show-token"}},
		Env:    []EnvOpt{{"GH_REPO", "repo"}, {"GH_HOST", "hostname"}},
		Target: []string{"repo"}, TargetAt: AfterSub},
	// glab COMMAND: -R/--repo, --hostname; GITLAB_HOST stands for it.
	{Names: []string{"glab"},
		Opts:   shell.OptSpec{Short: "R:", Long: []string{"repo=", "hostname=", "help", "show-token"}},
		Env:    []EnvOpt{{"GITLAB_HOST", "hostname"}, {"GL_HOST", "hostname"}, {"GITLAB_REPO", "repo"}},
		Target: []string{"repo"}, TargetAt: AfterSub},
	// terraform [global options] <subcommand> [args]: -chdir before the
	// subcommand, Go-style single-dash options after it.
	{Names: []string{"terraform", "tofu", "terragrunt"},
		Opts: shell.OptSpec{SingleDash: true, Long: []string{
			"chdir=", "out=", "var=", "var-file=", "target=", "replace=", "state=", "state-out=", "backup=", "lock-timeout=", "parallelism=",
			"input=?", "lock=?", "refresh=?", "refresh-only", "destroy", "auto-approve", "compact-warnings", "no-color", "json", "upgrade", "reconfigure",
			"migrate-state", "backend=?", "backend-config=", "plugin-dir=", "from-module=", "get=?", "help", "h", "version", "detailed-exitcode", "generate-config-out=",
			"terragrunt-config=", "terragrunt-working-dir=", "terragrunt-include-dir=", "terragrunt-exclude-dir=", "terragrunt-non-interactive",
			"working-dir=", "config="}},
		Target: []string{"chdir"}, TargetAt: BeforeSub},
	// vault/bao COMMAND: Go-style flags (-flag or --flag), the address
	// and namespace from VAULT_ADDR and VAULT_NAMESPACE.
	{Names: []string{"vault", "bao"},
		Opts: shell.OptSpec{SingleDash: true, Long: []string{"address=", "agent-address=", "ca-cert=", "ca-path=", "client-cert=", "client-key=",
			"namespace=", "ns=", "format=", "field=", "mount=", "header=", "mfa=", "output-curl-string", "output-policy", "policy-override",
			"tls-server-name=", "tls-skip-verify", "wrap-ttl=", "non-interactive", "unlock-key=", "log-level=", "version=", "method=", "path=",
			"help", "h"}},
		Env: []EnvOpt{{"VAULT_ADDR", "address"}, {"VAULT_NAMESPACE", "namespace"}, {"VAULT_FORMAT", "format"}, {"BAO_ADDR", "address"},
			{"BAO_NAMESPACE", "namespace"}},
		// Go flags after the subcommand and before its operands: the
		// variables are the respellings.
	},
	// nomad COMMAND: Go-style flags (nomad job stop -purge), the
	// cluster from NOMAD_ADDR, NOMAD_REGION, NOMAD_NAMESPACE.
	{Names: []string{"nomad"},
		Opts: shell.OptSpec{SingleDash: true, Long: []string{"address=", "region=", "namespace=", "token=", "ca-cert=", "ca-path=",
			"client-cert=", "client-key=", "tls-server-name=", "tls-skip-verify", "no-color", "force-color", "purge", "detach", "yes",
			"global", "no-shutdown-delay", "eval-priority=", "verbose", "json", "t=", "help", "h"}},
		Env: []EnvOpt{{"NOMAD_ADDR", "address"}, {"NOMAD_REGION", "region"}, {"NOMAD_NAMESPACE", "namespace"}},
	},
	{Names: []string{"doctl"},
		Opts:   shell.OptSpec{Short: "t:o:c:u:", Long: []string{"context=", "access-token=", "output=", "config=", "api-url=", "format=", "http-retry-max=", "trace", "verbose"}},
		Env:    []EnvOpt{{"DIGITALOCEAN_CONTEXT", "context"}},
		Target: []string{"context", "output"}},
	{Names: []string{"pulumi"},
		Opts:   shell.OptSpec{Short: "C:s:v:", Long: []string{"cwd=", "stack=", "color=", "verbose=", "profiling=", "tracing=", "logflow", "logtostderr", "non-interactive", "yes", "skip-preview", "emoji"}},
		Target: []string{"cwd"}},
}

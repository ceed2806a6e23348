package effects

import (
	"slices"
	"strings"
)

// Secret stores: the programs that keep secrets (secret and password
// managers, the cluster, CLIs' own logins) and the command lines with
// which they print one. secretPrinted reads them beside secretPrinters:
// one table of the programs that print a secret, judged by one rule
// (secrets.store-read).

// storeRead says whether a call prints a secret value kept by the program
// (a secret manager, a password manager, the cluster, a CLI's own login),
// and which, reading the call by the program's grammar.
func storeRead(name string, args []string) (string, bool) {
	for _, r := range storeReaders {
		if slices.Contains(r.names, name) {
			cmd := ParseCommand(name, args, nil)
			return r.read(&cmd)
		}
	}
	return "", false
}

// storeReader judges one family of store programs from the call read by
// its grammar (Command: the subcommand words and the options with
// their values).
type storeReader struct {
	names []string
	read  func(cmd *Command) (string, bool)
}

// storeReaders are the programs that keep secrets and the command lines
// with which they print one.
var storeReaders = []storeReader{
	{[]string{"aws", "awslocal"}, awsStoreRead},
	{[]string{"gcloud"}, gcloudStoreRead},
	{[]string{"az"}, azStoreRead},
	{[]string{"vault", "bao"}, vaultStoreRead},
	{[]string{"kubectl", "oc", "k"}, kubectlStoreRead},
	{[]string{"terraform", "tofu", "terragrunt"}, terraformStoreRead},
	{[]string{"heroku"}, herokuStoreRead},
	{[]string{"railway"}, railwayStoreRead},
	{[]string{"gh"}, ghStoreRead},
	{[]string{"glab"}, glabStoreRead},
	{[]string{"op"}, opStoreRead},
	{[]string{"lpass"}, lpassStoreRead},
	{[]string{"pass", "gopass"}, passStoreRead},
	{[]string{"doppler"}, dopplerStoreRead},
	{[]string{"git"}, gitStoreRead},
}

func awsStoreRead(cmd *Command) (string, bool) {
	switch {
	case cmd.Leads("secretsmanager", "get-secret-value"), cmd.Leads("secretsmanager", "batch-get-secret-value"):
		return "a secret from AWS Secrets Manager", true
	case (cmd.Leads("ssm", "get-parameter") || cmd.Leads("ssm", "get-parameters") || cmd.Leads("ssm", "get-parameters-by-path")) && cmd.Has("with-decryption"):
		return "decrypted SSM parameters", true
	case cmd.Leads("ecr-public", "get-login-password"):
		return "a registry password", true
	case cmd.Leads("configure", "get") && (strings.Contains(cmd.Word(2), "secret") || strings.Contains(cmd.Word(2), "token")):
		return "the AWS " + cmd.Word(2), true
	}
	return "", false
}

func gcloudStoreRead(cmd *Command) (string, bool) {
	switch {
	case cmd.Leads("secrets", "versions", "access"):
		return "a secret from Secret Manager", true
	}
	return "", false
}

func azStoreRead(cmd *Command) (string, bool) {
	switch {
	case cmd.Leads("keyvault", "secret", "show"), cmd.Leads("keyvault", "secret", "download"):
		return "a Key Vault secret", true
	case cmd.Leads("storage", "account", "keys", "list"), cmd.Leads("storage", "account", "show-connection-string"):
		return "a storage account's access keys", true
	}
	return "", false
}

func vaultStoreRead(cmd *Command) (string, bool) {
	return "a secret from Vault", cmd.Leads("kv", "get") || cmd.Leads("read") || cmd.Leads("kv", "read")
}

func kubectlStoreRead(cmd *Command) (string, bool) {
	if cmd.Leads("get") && isSecretResource(cmd.Word(1)) && secretValuesShown(cmd) {
		return "a Kubernetes secret's values", true
	}
	if cmd.Leads("view-secret") {
		return "a Kubernetes secret's values", true
	}
	return "the kubeconfig with its tokens and client keys", cmd.Leads("config", "view") && cmd.Has("raw", "flatten")
}

func terraformStoreRead(cmd *Command) (string, bool) {
	return "the Terraform state, with every secret of the resources it manages", cmd.Leads("state", "pull")
}

func herokuStoreRead(cmd *Command) (string, bool) {
	return "the app's config vars (its secrets)", cmd.Leads("config") || cmd.Leads("config:get")
}

func railwayStoreRead(cmd *Command) (string, bool) {
	return "the service's variables (its secrets)", cmd.Leads("variables") && !cmd.Has("set", "s")
}

func ghStoreRead(cmd *Command) (string, bool) {
	return "the GitHub CLI's token", cmd.Leads("auth", "status") && cmd.Has("show-token", "t")
}

func glabStoreRead(cmd *Command) (string, bool) {
	return "the GitLab CLI's token", cmd.Leads("auth", "status") && cmd.Has("show-token", "t")
}

func opStoreRead(cmd *Command) (string, bool) {
	return "a 1Password secret", cmd.Leads("read") || cmd.Leads("item", "get") && cmd.Has("reveal", "fields")
}

func lpassStoreRead(cmd *Command) (string, bool) {
	return "a LastPass entry", cmd.Leads("show") && !cmd.Has("c", "clip")
}

func passStoreRead(cmd *Command) (string, bool) {
	if cmd.Has("c", "clip") || len(cmd.Words) == 0 {
		return "", false
	}
	first := cmd.Word(0)
	return "a password store entry", first == "show" || first == "cat" || !slices.Contains(passCommands, first)
}

func dopplerStoreRead(cmd *Command) (string, bool) {
	return "Doppler secrets", len(cmd.Words) == 1 && cmd.Word(0) == "secrets" && !cmd.Has("only-names")
}

func gitStoreRead(cmd *Command) (string, bool) {
	return "a stored git password", cmd.Leads("credential", "fill")
}

func isSecretResource(r string) bool {
	return r == "secret" || r == "secrets" || strings.HasPrefix(r, "secret/") || strings.HasPrefix(r, "secrets/")
}

// passCommands are pass's and gopass's subcommands; any other first
// operand is an entry name, which pass shows.
var passCommands = []string{"init", "ls", "list", "find", "search", "grep", "insert", "add", "edit", "generate", "rm", "remove", "delete",
	"mv", "rename", "cp", "copy", "git", "help", "version", "otp", "sync", "mounts", "audit", "setup", "recipients", "templates", "config", "fsck", "update", "history", "totp"}

// secretValuesShown says whether kubectl get prints values (an output
// format that includes data) rather than names.
func secretValuesShown(cmd *Command) bool {
	v, _ := cmd.Value("o", "output")
	v = strings.TrimPrefix(v, "=")
	return v != "" && v != "name" && v != "wide" && !strings.HasPrefix(v, "custom-columns")
}

package policy_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gemini-guard/gemini-guard/internal/effects"
	"github.com/gemini-guard/gemini-guard/internal/policy"
	"github.com/gemini-guard/gemini-guard/internal/settings"
	"github.com/gemini-guard/gemini-guard/internal/shell"
	"github.com/gemini-guard/gemini-guard/internal/testdirs"
)

// respellSeeds are command lines of the grammar CLIs beside the rules'
// examples (issue #36's holes in their plain form, and near misses), with
// the decision each must get: the rule id that denies it, or "".
var respellSeeds = []struct{ cmd, want string }{
	{`aws secretsmanager get-secret-value --secret-id billing/db`, "secrets.store-read"},
	{`aws ssm get-parameter --name /svc/token --with-decryption`, "secrets.store-read"},
	{`aws ssm get-parameters-by-path --path /svc --recursive --with-decryption`, "secrets.store-read"},
	{`aws kms schedule-key-deletion --key-id 1234abcd --pending-window-in-days 7`, "infra.cloud-delete"},
	{`aws ecr get-login-password`, "secrets.store-read"},
	{`aws configure get aws_secret_access_key`, "secrets.store-read"},
	{`aws configure export-credentials`, "secrets.store-read"},
	{`gcloud secrets versions access 3 --secret=payments-key`, "secrets.store-read"},
	{`gcloud auth print-access-token`, "secrets.store-read"},
	{`kubectl config view --raw`, "secrets.store-read"},
	{`kubectl get secret app-tls -o yaml`, "secrets.store-read"},
	{`kubectl delete namespace shop`, "infra.kubectl-delete"},
	{`helm uninstall shop`, "infra.platform-destroy"},
	{`docker run -v /home:/h alpine rm -rf /h/dev`, "exec.embedded-command"},
	{`docker run --mount type=bind,source=/home,target=/h alpine rm -rf /h/dev`, "exec.embedded-command"},
	{`docker system prune -af`, "infra.docker-prune"},
	{`aws s3 ls`, ""},
	{`aws sts get-caller-identity`, ""},
	{`aws secretsmanager list-secrets`, ""},
	{`gcloud config list`, ""},
	{`kubectl get pods -n web`, ""},
	{`kubectl config view`, ""},
	{`docker run --rm -v "$PWD":/src -w /src golang:1.22 go test ./...`, ""},
	{`docker run --mount type=bind,source="$(pwd)",target=/app node:20 npm test`, ""},
	{`az keyvault secret show --vault-name kv-shop --name db-pass`, "secrets.store-read"},
	{`az account get-access-token`, "secrets.store-read"},
	{`az group delete -n rg-shop --yes`, "infra.cloud-delete"},
	{`vault kv get -field=password secret/shop`, "secrets.store-read"},
	{`bao read secret/shop`, "secrets.store-read"},
	{`terraform state pull`, "secrets.store-read"},
	{`tofu destroy -auto-approve`, "infra.terraform-destroy"},
	{`gh auth token`, "secrets.store-read"},
	{`gh auth status --show-token`, "secrets.store-read"},
	{`glab auth status -t`, "secrets.store-read"},
	{`gsutil -m rm -r gs://shop-assets`, "infra.cloud-delete"},
	{`kubectl drain node-7`, "infra.kubectl-delete"},
	{`oc delete project shop`, "infra.kubectl-delete"},
	{`docker volume rm cache-vol`, "infra.docker-prune"},
	{`docker compose down -v`, "infra.docker-prune"},
	{`podman system prune -af`, "infra.docker-prune"},
	{`nerdctl run -v /home:/h alpine rm -rf /h/dev`, "exec.embedded-command"},
	{`podman run --rm -v /var/run/docker.sock:/var/run/docker.sock alpine rm -rf /etc`, "exec.embedded-command"},
	{`helm list -A`, ""},
	{`gh secret list`, ""},
	{`vault kv list secret/`, ""},
	{`terraform plan -out tf.plan`, ""},
	{`az group list`, ""},
	{`docker compose up -d`, ""},
	{`gsutil ls gs://assets`, ""},
	{`gh pr list`, ""},
}

// TestRespelling: every example of the rules that judge a CLI with a
// grammar, and the seeds, keep their decision (the denying rule's id, or
// none) under the spellings the program's grammar says are the same call:
// a target option with its value inserted where the grammar lets it stand
// (--profile x, --profile=x, before and after the subcommand), the
// variables that stand for an option (AWS_PROFILE=x aws …), the wrappers
// time, nice, command and env, and a self-contained option moved to the
// front.
func TestRespelling(t *testing.T) {
	workspace, home := testdirs.New(t)
	s := settings.Default()
	var cmds []string
	for _, r := range policy.Rules() {
		for _, ex := range slices.Concat(r.Block, r.Allow) {
			if !slices.Contains(cmds, ex) {
				cmds = append(cmds, ex)
			}
		}
	}
	seeds, spellings := 0, 0
	for _, seed := range respellSeeds {
		assert.Equal(t, seed.want, decision(workspace, home, s, seed.cmd), "seed: %s", seed.cmd)
		cmds = append(cmds, seed.cmd)
	}
	for _, cmd := range cmds {
		variants := respellings(cmd)
		if len(variants) == 0 {
			continue
		}
		seeds++
		want := decision(workspace, home, s, cmd)
		for _, v := range variants {
			spellings++
			assert.Equal(t, want, decision(workspace, home, s, v), "%s\n  respelt: %s", cmd, v)
		}
	}
	t.Logf("respelling: %d command lines of grammar CLIs, %d respellings checked", seeds, spellings)
	assert.Greater(t, spellings, 1000)
}

// respellings are cmd's equivalent spellings, none when cmd is not one
// simple command of a program with a grammar that the test can respell
// textually (no pipes, lists, redirections, comments or heredocs).
func respellings(cmd string) []string {
	if strings.ContainsAny(cmd, "|;&<>#`\n") || strings.Contains(cmd, " -- ") {
		return nil
	}
	fields := strings.Fields(cmd)
	i := 0
	for i < len(fields) && isAssignment(fields[i]) {
		i++
	}
	if i >= len(fields) || strings.ContainsAny(strings.Join(fields[:i+1], " "), `'"$\`) {
		return nil
	}
	prog := fields[i]
	g := effects.GrammarOf(prog)
	if g == nil {
		return nil
	}
	env := strings.Join(fields[:i], " ")
	head := strings.TrimSpace(env + " " + prog)
	rest := strings.TrimSpace(cmd[strings.Index(cmd, prog)+len(prog):])
	join := func(parts ...string) string {
		var out []string
		for _, p := range parts {
			if p != "" {
				out = append(out, p)
			}
		}
		return strings.Join(out, " ")
	}
	var out []string
	for _, o := range g.Target {
		for _, spelt := range optionSpellings(g, o, "tgt-1") {
			if g.TargetAt != effects.AfterSub {
				out = append(out, join(head, spelt, rest))
			}
			if g.TargetAt != effects.BeforeSub && !g.Opts.StopAtOperand {
				out = append(out, join(head, rest, spelt))
			}
		}
	}
	for _, e := range g.Env {
		if !strings.Contains(env, e.Var+"=") {
			out = append(out, join(e.Var+"=env-1", head, rest))
		}
	}
	wrappers := []string{"time", "env"}
	if env == "" {
		wrappers = append(wrappers, "nice", "nice -n 5", "command", "env -u HISTFILE", "time nice")
	}
	for _, w := range wrappers {
		out = append(out, join(w, head, rest))
	}
	if moved, ok := moveLastOption(g, rest); ok {
		out = append(out, join(head, moved))
	}
	return out
}

// optionSpellings are the ways to write option o with value v that the
// grammar reads the same: --o v, --o=v (-o v, -o=v for single-dash
// grammars; -x v and -xv for a letter).
func optionSpellings(g *effects.Grammar, o, v string) []string {
	switch {
	case len(o) == 1:
		return []string{"-" + o + " " + v, "-" + o + v}
	case g.Opts.SingleDash:
		return []string{"-" + o + " " + v, "-" + o + "=" + v, "--" + o + "=" + v}
	}
	return []string{"--" + o + " " + v, "--" + o + "=" + v}
}

// moveLastOption moves the last word of rest to its front when the word is
// a long option that holds its value or takes none, for a grammar whose
// options stand anywhere: aws s3 rm s3://b --recursive is aws --recursive
// s3 rm s3://b.
func moveLastOption(g *effects.Grammar, rest string) (string, bool) {
	if g.Opts.StopAtOperand || g.TargetAt != effects.Anywhere || g.Opts.SingleDash {
		return "", false
	}
	fields := strings.Fields(rest)
	if len(fields) < 2 || strings.ContainsAny(rest, `'"$\`) {
		return "", false
	}
	last := fields[len(fields)-1]
	if !strings.HasPrefix(last, "--") || len(last) < 3 {
		return "", false
	}
	if p := shell.ParseArgs([]string{last, "next"}, &g.Opts); len(p.Opts) != 1 || p.Opts[0].Value == "next" {
		return "", false // it would take the word after it as its value
	}
	return last + " " + strings.Join(fields[:len(fields)-1], " "), true
}

// isAssignment: NAME=value before a command.
func isAssignment(w string) bool {
	name, _, ok := strings.Cut(w, "=")
	if !ok || name == "" {
		return false
	}
	for i, c := range name {
		if !(c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

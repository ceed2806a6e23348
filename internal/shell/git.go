package shell

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/expand"

	"github.com/gemini-guard/gemini-guard/internal/lazyregexp"
)

// gitCodeKeys are git configuration keys whose value git runs as shell
// code; gitCodeEnv the same for environment variables.
var (
	gitCodeKeyRe = &lazyregexp.Regexp{Expr: `^(core\.(pager|editor|sshcommand|fsmonitor)|sequence\.editor|diff\.external|pager\..*|filter\..*\.(clean|smudge|process)|diff\..*\.(textconv|command)|merge\..*\.driver|credential\.helper|uploadpack\.packobjectshook)$`}
	gitCodeEnv   = []string{"GIT_SSH_COMMAND", "GIT_PAGER", "GIT_EDITOR", "GIT_EXTERNAL_DIFF", "GIT_SEQUENCE_EDITOR"}
	gitGlobal    = &OptSpec{Short: "C:c:pPhv", Long: []string{
		"git-dir=", "work-tree=", "namespace=", "exec-path=?", "config-env=", "super-prefix=", "list-cmds=", "attr-source=",
		"paginate", "no-pager", "bare", "no-replace-objects", "no-lazy-fetch", "literal-pathspecs", "glob-pathspecs",
		"noglob-pathspecs", "icase-pathspecs", "no-optional-locks", "no-advice", "html-path", "man-path", "info-path",
		"version", "help",
	}, StopAtOperand: true}
)

// GitConfig returns the configuration a git command line sets for itself:
// -c key=value options, GIT_CONFIG_COUNT/KEY_n/VALUE_n and
// GIT_CONFIG_PARAMETERS from env. Keys are lower-cased (git config keys are
// case-insensitive but for the middle part; aliases are not).
func GitConfig(args []string, env map[string]string) map[string]string {
	cfg := map[string]string{}
	set := func(kv string) {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			v = "true"
		}
		cfg[strings.ToLower(k)] = v
	}
	if s, ok := env["GIT_CONFIG_PARAMETERS"]; ok {
		for _, item := range splitWords(s) {
			set(item)
		}
	}
	if n, err := strconv.Atoi(env["GIT_CONFIG_COUNT"]); err == nil {
		for i := range min(n, 64) {
			k, v := env[fmt.Sprint("GIT_CONFIG_KEY_", i)], env[fmt.Sprint("GIT_CONFIG_VALUE_", i)]
			if k != "" {
				cfg[strings.ToLower(k)] = v
			}
		}
	}
	p := ParseArgs(args, gitGlobal)
	for _, o := range p.Opts {
		if o.Name == "c" && o.HasValue {
			set(o.Value)
		}
	}
	return cfg
}

// GitSubcommand returns the index in args of git's subcommand, -1 if none.
func GitSubcommand(args []string) int {
	p := ParseArgs(args, gitGlobal)
	if len(p.Operands) == 0 {
		return -1
	}
	return len(args) - len(p.Operands)
}

// git expands inline aliases and analyses the shell code git would run
// from its configuration (core.sshCommand, GIT_SSH_COMMAND, pagers, ...).
func (a *analyzer) git(f *frame, st *state, ex *Exec) {
	envs := a.exportedEnv(st, ex)
	if len(envs) > 0 {
		ex.Env = envs
	}
	cfg := GitConfig(ex.Args[1:], envs)
	for k, v := range cfg {
		if gitCodeKeyRe.MatchString(k) {
			if k == "credential.helper" && !strings.HasPrefix(v, "!") {
				continue
			}
			a.nested(f, st, ex, strings.TrimPrefix(v, "!"), "git -c "+k, nil)
		}
	}
	for _, name := range gitCodeEnv {
		if v, ok := envs[name]; ok && v != "" {
			a.nested(f, st, ex, v, "git "+name, nil)
		}
	}
	i := GitSubcommand(ex.Args[1:])
	if i >= 0 && countVia(ex.Via, "git alias") < 5 {
		i++ // index in ex.Args
		sub := ex.Args[i]
		if alias, ok := cfg["alias."+strings.ToLower(sub)]; ok {
			if code, ok := strings.CutPrefix(alias, "!"); ok {
				a.emit(f, ex)
				full := code
				if rest := ex.Args[i+1:]; len(rest) > 0 {
					full += " " + strings.Join(rest, " ")
				}
				a.nested(f, st, ex, full, "git alias "+sub, nil)
				return
			}
			args := slices.Concat(ex.Args[:i], splitWords(alias), ex.Args[i+1:])
			a.child(f, st, ex, args, "git alias "+sub)
			return
		}
	}
	a.emit(f, ex)
}

// exportedEnv is the environment a command sees from the text itself: its
// own assignments over the variables the text exported before.
func (a *analyzer) exportedEnv(st *state, ex *Exec) map[string]string {
	envs := map[string]string{}
	for k, v := range st.vars {
		if strings.HasPrefix(k, "GIT_") && v.Kind == expand.String {
			envs[k] = v.Str
		}
	}
	for k, v := range ex.Env {
		envs[k] = v
	}
	return envs
}

func countVia(via []string, prefix string) int {
	n := 0
	for _, v := range via {
		if strings.HasPrefix(v, prefix) {
			n++
		}
	}
	return n
}

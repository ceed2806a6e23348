package protect

import (
	"slices"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/dotenv"
)

// EnvFamily is a family of environment variables that configure the
// programs every hook runs on, or Gemini CLI itself. Gemini CLI loads every
// key of the first .env it finds (.gemini/.env or .env from the workspace
// up, ~/.gemini/.env, ~/.env) into its own environment and runs each hook
// as `bash -c <command>` in that environment, so such a key in a .env is
// guard configuration: one line switches the guard off for the next
// session.
type EnvFamily struct {
	// Why says what a key of the family does to a hook or to the CLI, as a
	// block reason says it.
	Why string
	// Names are exact variable names; Prefixes match any name they begin.
	Names, Prefixes []string
}

// EnvFamilies is the list, from bash's manual (Bash Variables, Bourne Shell
// Variables, INVOCATION), ld.so(8) and dyld(1), node's CLI documentation,
// the Go runtime's documentation and the process.env keys the
// @google/gemini-cli 0.61.0 bundle reads. Names are compared upper-cased.
// Ordinary application keys (DATABASE_URL, API_BASE, DEBUG, PORT,
// NODE_ENV, GEMINI_API_KEY) are not in it.
var EnvFamilies = []EnvFamily{
	{
		// BASH_ENV and ENV name a file a non-interactive bash (every hook is
		// `bash -c`) or sh runs first; SHELLOPTS/BASHOPTS switch on options
		// (xtrace, then PS4's command substitution runs for every command);
		// BASH_FUNC_name%% imports a function that shadows any command
		// name; IFS, CDPATH, GLOBIGNORE and EXECIGNORE change how the hook
		// command line is split, where cd goes and which files glob and
		// command lookup see; BASH_XTRACEFD, BASH_LOADABLES_PATH,
		// BASH_COMPAT and POSIXLY_CORRECT change what bash runs and how.
		// The prompts and PROMPT_COMMAND run code in interactive shells (a
		// shell the user opens from the session).
		Why: "bash runs a file, a function or prompt code from it before or around every hook command, or splits and looks up the hook's command line differently",
		Names: []string{"BASH_ENV", "ENV", "SHELLOPTS", "BASHOPTS", "PS0", "PS1", "PS2", "PS3", "PS4", "PROMPT_COMMAND",
			"IFS", "CDPATH", "GLOBIGNORE", "EXECIGNORE", "BASH_XTRACEFD", "BASH_LOADABLES_PATH", "BASH_COMPAT",
			"POSIXLY_CORRECT", "INPUTRC", "ZDOTDIR", "SHELL"},
		Prefixes: []string{"BASH_FUNC_"},
	},
	{
		// PATH decides which program `bash`, `node` and every command
		// name in a hook command are.
		Why:   "it decides which program each command name of a hook runs",
		Names: []string{"PATH", "PATHEXT", "COMSPEC", "PSMODULEPATH"},
	},
	{
		// ld.so(8): LD_PRELOAD and LD_AUDIT load a library into every
		// dynamically linked program (bash, node), LD_LIBRARY_PATH replaces
		// the ones it links; GCONV_PATH and GLIBC_TUNABLES are read by
		// glibc itself. dyld(1): DYLD_INSERT_LIBRARIES and friends on macOS.
		Why:      "the dynamic loader loads a library of its choosing into bash and node before any hook runs",
		Names:    []string{"GCONV_PATH", "GLIBC_TUNABLES", "LOCPATH", "HOSTALIASES", "RESOLV_HOST_CONF"},
		Prefixes: []string{"LD_", "DYLD_"},
	},
	{
		// node's CLI documentation: NODE_OPTIONS takes --require/--import
		// (code run first in Gemini CLI itself), NODE_PATH and
		// NODE_REPL_EXTERNAL_MODULE decide which modules load,
		// NODE_EXTRA_CA_CERTS and NODE_TLS_REJECT_UNAUTHORIZED which
		// servers the CLI trusts, the others where node writes or what
		// it reads at start-up. NODE_ENV is an application's own.
		Why: "node runs code of its choosing in Gemini CLI, loads other modules or trusts other servers",
		Names: []string{"NODE_OPTIONS", "NODE_PATH", "NODE_EXTRA_CA_CERTS", "NODE_TLS_REJECT_UNAUTHORIZED", "NODE_REPL_EXTERNAL_MODULE",
			"NODE_REDIRECT_WARNINGS", "NODE_V8_COVERAGE", "NODE_ICU_DATA", "NODE_PRESERVE_SYMLINKS", "NODE_COMPILE_CACHE",
			"NODE_PENDING_DEPRECATION", "NODE_DEBUG", "NODE_USE_ENV_PROXY", "UV_USE_IO_URING"},
	},
	{
		// The Gemini CLI bundle: GEMINI_CLI_HOME moves ~/.gemini (no
		// extension, no policy wall loads), GEMINI_CLI_SYSTEM_SETTINGS_PATH
		// and GEMINI_CLI_TRUSTED_FOLDERS_PATH replace settings files,
		// GEMINI_SYSTEM_MD the system prompt (GEMINI.md's instructions
		// included), GEMINI_SANDBOX* what runs in the sandbox, GEMINI_GUARD_*
		// are the guard's own settings. GEMINI_API_KEY is the documented
		// user key (a real value is the secrets guard's to judge). The base
		// URLs and endpoints send the whole conversation elsewhere; the
		// sandbox variables choose what the sandbox is.
		Why: "Gemini CLI reads it: its home, settings, trusted folders, system prompt, sandbox, endpoints, or gemini-guard's own settings",
		Names: []string{"GOOGLE_GEMINI_BASE_URL", "GOOGLE_VERTEX_BASE_URL", "CODE_ASSIST_ENDPOINT", "CODE_ASSIST_API_VERSION",
			"SANDBOX", "SANDBOX_FLAGS", "SANDBOX_MOUNTS", "SANDBOX_ENV", "SANDBOX_PORTS", "SANDBOX_SET_UID_GID", "SEATBELT_PROFILE",
			"BUILD_SANDBOX", "DOTENV_KEY", "APPDATA", "LOCALAPPDATA", "CLOUDSDK_CONFIG", "OTEL_EXPORTER_OTLP_HEADERS"},
		Prefixes: []string{"GEMINI_", "QWEN_"},
	},
	{
		// Where the user's files are: HOME (~/.gemini, ~/.env), the XDG
		// directories (the guard's state and audit log live in
		// XDG_STATE_HOME), the temporary directory, and their Windows
		// spellings.
		Why:      "it moves the home, configuration, state or temporary directory that Gemini CLI and the guard read",
		Names:    []string{"HOME", "USERPROFILE", "HOMEDRIVE", "HOMEPATH", "TMPDIR", "TMP", "TEMP"},
		Prefixes: []string{"XDG_"},
	},
	{
		// git(1) ENVIRONMENT and git-config(1): every key of a .env reaches
		// every command the agent runs, so these make a later ordinary
		// `git status` or `git fetch` run a program of the file's choosing
		// (GIT_SSH_COMMAND, GIT_PROXY_COMMAND, GIT_EXTERNAL_DIFF, the
		// askpass helpers, an editor or pager), read another configuration
		// (GIT_CONFIG_COUNT/KEY_n/VALUE_n or GIT_CONFIG_PARAMETERS set
		// core.fsmonitor or an alias; GIT_CONFIG_GLOBAL, GIT_TEMPLATE_DIR),
		// or act on another repository than the one in view (GIT_DIR,
		// GIT_WORK_TREE, GIT_INDEX_FILE, ...). The hooks' own git runs
		// without them (internal/provenance). EDITOR, VISUAL and PAGER are
		// left out: the user's own choice of editor (set -Ux EDITOR nvim)
		// is ordinary, and git prefers GIT_EDITOR and GIT_PAGER.
		Why: "git and the tools the agent runs start a program of its choosing (ssh, an askpass helper, an editor, a pager, a diff driver) or read another configuration or repository on the next ordinary command",
		Names: []string{"GIT_SSH_COMMAND", "GIT_SSH", "GIT_PROXY_COMMAND", "GIT_ASKPASS", "SSH_ASKPASS", "GIT_EDITOR",
			"GIT_SEQUENCE_EDITOR", "GIT_PAGER", "GIT_EXTERNAL_DIFF", "GIT_EXEC_PATH", "GIT_TEMPLATE_DIR", "GIT_DIR",
			"GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_COMMON_DIR",
			"GIT_NAMESPACE", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM"},
		Prefixes: []string{"GIT_CONFIG_KEY_", "GIT_CONFIG_VALUE_"},
	},
	{
		// The guard's own programs are Go: GODEBUG, GOGC=off, GOMEMLIMIT,
		// GOMAXPROCS and GOTRACEBACK change how they run, collect memory
		// or die.
		Why:   "it changes how the Go runtime of the guard's own programs behaves (memory, debugging, crashes)",
		Names: []string{"GODEBUG", "GOGC", "GOMEMLIMIT", "GOMAXPROCS", "GOTRACEBACK"},
	},
}

// childAgentChoices are control keys a child agent may be started with:
// they choose a model or a display, they switch nothing off.
var childAgentChoices = []string{"GEMINI_MODEL", "GEMINI_API_KEY", "GEMINI_CLI_NO_RELAUNCH", "NO_COLOR"}

// harmlessNodeOptions are node options that change only memory, warnings
// and diagnostics output: NODE_OPTIONS holding only these loads no code
// (--require, --import, --loader and --inspect do).
var harmlessNodeOptions = []string{"--max-old-space-size", "--max-semi-space-size", "--no-warnings", "--no-deprecation",
	"--trace-warnings", "--trace-deprecation", "--enable-source-maps", "--unhandled-rejections", "--dns-result-order",
	"--stack-trace-limit", "--expose-gc", "--use-openssl-ca", "--use-system-ca"}

// ChildAgentKey reports whether starting Gemini CLI with name set (to
// value, when known statically) may make that child agent run without the
// guard or with its hooks hijacked, with the family's reason. A model
// choice (GEMINI_MODEL) and NODE_OPTIONS that only sizes memory or
// silences warnings do not.
func ChildAgentKey(name, value string, known bool) (why string, ok bool) {
	why, ok = ControlKey(name)
	if !ok || slices.Contains(childAgentChoices, strings.ToUpper(name)) {
		return "", false
	}
	if strings.EqualFold(name, "NODE_OPTIONS") && known && value != "" && onlyHarmlessNodeOptions(value) {
		return "", false
	}
	return why, true
}

func onlyHarmlessNodeOptions(value string) bool {
	for _, f := range strings.Fields(value) {
		opt, _, _ := strings.Cut(f, "=")
		if !slices.Contains(harmlessNodeOptions, opt) {
			return false
		}
	}
	return true
}

// allowedGemini are GEMINI_ names an application's .env ordinarily holds.
var allowedGemini = []string{"GEMINI_API_KEY"}

// ControlKey reports whether the environment variable name configures a
// hook's programs or Gemini CLI (EnvFamilies), with the family's reason.
func ControlKey(name string) (why string, ok bool) {
	n := strings.ToUpper(strings.TrimSpace(name))
	if n == "" || slices.Contains(allowedGemini, n) {
		return "", false
	}
	return familyOf(EnvFamilies, n)
}

// familyOf finds the family of fams an upper-cased name belongs to (by
// exact name or prefix) and returns its reason.
func familyOf(fams []EnvFamily, n string) (why string, ok bool) {
	for _, f := range fams {
		if slices.Contains(f.Names, n) {
			return f.Why, true
		}
		for _, p := range f.Prefixes {
			if strings.HasPrefix(n, p) {
				return f.Why, true
			}
		}
	}
	return "", false
}

// ControlChange is a control key a .env change adds or alters.
type ControlChange struct {
	// Key is the variable's name as written; Why its family's reason.
	Key, Why string
}

// ChangesControlKey reports the first control key (ControlKey) that a .env
// file going from before to after gains or gives another value, reading
// both as the host reads them (internal/dotenv, the port of the module
// Gemini CLI and Qwen Code load .env files with: a lone carriage return
// ends a line, JavaScript's white space, the byte-order mark included,
// may stand before a key). Removing one is not reported: the environment
// then stays as the user set it.
func ChangesControlKey(before, after string) (ControlChange, bool) {
	had := dotenv.Map(before)
	for _, e := range dotenv.Parse(after) {
		why, ok := ControlKey(e.Key)
		if !ok {
			continue
		}
		if v, set := had[e.Key]; set && v == e.Value {
			continue
		}
		return ControlChange{Key: e.Key, Why: why}, true
	}
	return ControlChange{}, false
}

// ControlKeysSet lists the control keys set (non-empty) in an environment
// read through getenv, among names (the environment's own names, from
// os.Environ) and every exact name of EnvFamilies, except those every
// session has: the ones a login sets (PATH, HOME, SHELL, TMPDIR, the XDG
// directories, …) and the ones Gemini CLI sets for its hooks. For session
// start and doctor: a warning names such a variable, never its value.
func ControlKeysSet(getenv func(string) string, names []string) []string {
	seen := map[string]bool{}
	var out []string
	check := func(k string) {
		if seen[k] {
			return
		}
		seen[k] = true
		if getenv(k) == "" || expectedInSession(k) {
			return
		}
		if _, ok := ControlKey(k); ok {
			out = append(out, k)
		}
	}
	for _, k := range names {
		check(k)
	}
	for _, f := range EnvFamilies {
		for _, k := range f.Names {
			check(k)
		}
	}
	for _, k := range wellKnown {
		check(k)
	}
	slices.Sort(out)
	return out
}

// wellKnown are prefixed control keys looked up by name when the
// environment's own names are not given (tests, a getenv alone).
var wellKnown = []string{"LD_PRELOAD", "LD_LIBRARY_PATH", "LD_AUDIT", "DYLD_INSERT_LIBRARIES", "DYLD_LIBRARY_PATH",
	"GEMINI_CLI_HOME", "GEMINI_CLI_SYSTEM_SETTINGS_PATH", "GEMINI_CLI_SYSTEM_DEFAULTS_PATH", "GEMINI_CLI_TRUSTED_FOLDERS_PATH",
	"GEMINI_SYSTEM_MD", "GEMINI_SANDBOX_PROXY_COMMAND", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT", "GIT_DIR", "GIT_EXTERNAL_DIFF"}

// EnvWarning is the line session start and doctor show for a control key
// set in the hooks' environment: its name and what it does, never its
// value.
func EnvWarning(key string) string {
	why, _ := ControlKey(key)
	return "gemini-guard: " + key + " is set in the environment Gemini CLI gives its hooks (from a .env file it loaded, or your shell); " +
		"if you did not set it, remove it: " + why + "."
}

// sessionKeys are set in an ordinary session: by the login, the terminal,
// Gemini CLI for its hooks (GEMINI_PROJECT_DIR, …), or the user's own
// choice of shell and locale.
var sessionKeys = []string{"PATH", "HOME", "SHELL", "TMPDIR", "TMP", "TEMP", "USERPROFILE", "HOMEDRIVE", "HOMEPATH",
	"PATHEXT", "COMSPEC", "PSMODULEPATH", "APPDATA", "LOCALAPPDATA", "PS1", "PS2", "PS4", "GEMINI_API_KEY",
	"GEMINI_PROJECT_DIR", "GEMINI_CWD", "GEMINI_SESSION_ID", "GEMINI_PLANS_DIR", "GEMINI_CLI", "GEMINI_CLI_NO_RELAUNCH",
	"SANDBOX", "GEMINI_SANDBOX", "GEMINI_MODEL", "GEMINI_CLI_IDE_PID", "GEMINI_CLI_IDE_SERVER_PORT", "GEMINI_CLI_IDE_WORKSPACE_PATH",
	"GEMINI_CLI_SURFACE", "GEMINI_PTY_INFO",
	// Set by the user for unattended runs (CI); a .env line setting it is
	// still denied.
	"GEMINI_CLI_TRUST_WORKSPACE",
	// A proxy's or a company's CA, set by the user (a .env line adding one
	// is still denied: the agent must not choose whom the CLI trusts).
	"NODE_EXTRA_CA_CERTS",
	// The user's editor, pager and ssh for git, set in many shells' rc
	// files (a .env line setting one is still denied).
	"GIT_EDITOR", "GIT_PAGER", "GIT_SSH_COMMAND", "GIT_SSH", "GIT_ASKPASS", "SSH_ASKPASS"}

func expectedInSession(k string) bool {
	u := strings.ToUpper(k)
	return slices.Contains(sessionKeys, u) || strings.HasPrefix(u, "XDG_") || strings.HasPrefix(u, "GEMINI_GUARD_") ||
		strings.HasPrefix(u, "GEMINI_CLI_IDE_") // the IDE companion's
}

// RunnerFamilies are keys that make an ordinary toolchain command the
// agent runs later start code or reach a server the value names:
// `go build` with GOFLAGS=-toolexec=./x, `python` with PYTHONPATH or
// PYTHONSTARTUP, `npm run` with npm_config_script_shell, `cargo build`
// with RUSTC_WRAPPER, `docker` with DOCKER_HOST, `git commit` with EDITOR,
// every download with a proxy. Unlike EnvFamilies they switch no hook off
// and are ordinary in many projects' .env (PYTHONPATH for an editor,
// DOCKER_HOST for a remote engine, a company's proxy), and the code they
// name is code the agent could run itself, which the guard would judge.
// What a .env changes is when it runs: in a later session, unseen. So a
// write is allowed, and session start and doctor name each such key the
// .env Gemini CLI loads sets (docs/threat-model.md). Names are compared
// upper-cased.
var RunnerFamilies = []EnvFamily{
	{
		Why: "the language's own tools load code from it, or run it first (python, perl, ruby, the JVM)",
		Names: []string{"PYTHONPATH", "PYTHONSTARTUP", "PYTHONHOME", "PYTHONUSERBASE", "PYTHONINSPECT", "PERL5OPT", "PERL5LIB", "PERLLIB",
			"RUBYOPT", "RUBYLIB", "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS", "MAVEN_OPTS", "GRADLE_OPTS", "CLASSPATH"},
	},
	{
		Why: "a build tool runs the program it names (go's -toolexec, another Go toolchain, rustc's wrapper, the C compiler, npm's script shell)",
		Names: []string{"GOFLAGS", "GOTOOLCHAIN", "GOENV", "CC", "CXX", "LD", "AR", "RUSTC", "RUSTC_WRAPPER", "RUSTC_WORKSPACE_WRAPPER",
			"RUSTDOC", "CARGO_BUILD_RUSTC_WRAPPER", "CARGO_TARGET_DIR", "CMAKE_C_COMPILER_LAUNCHER", "CMAKE_CXX_COMPILER_LAUNCHER"},
		Prefixes: []string{"NPM_CONFIG_", "YARN_", "PNPM_", "CARGO_TARGET_"},
	},
	{
		Why:   "a program the agent starts for text runs the one it names (an editor, a pager, less's input filter)",
		Names: []string{"EDITOR", "VISUAL", "PAGER", "MANPAGER", "LESSOPEN", "LESSCLOSE", "BROWSER"},
	},
	{
		Why: "commands send their traffic, or trust certificates, as it says (a proxy, a Docker or Kubernetes endpoint, a package index)",
		Names: []string{"HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "FTP_PROXY", "SSL_CERT_FILE", "SSL_CERT_DIR", "REQUESTS_CA_BUNDLE",
			"CURL_CA_BUNDLE", "DOCKER_HOST", "DOCKER_CONFIG", "DOCKER_CONTEXT", "CONTAINER_HOST", "KUBECONFIG", "PIP_INDEX_URL",
			"PIP_EXTRA_INDEX_URL", "UV_INDEX_URL", "UV_EXTRA_INDEX_URL", "GOPROXY", "GOSUMDB", "GONOSUMDB", "GOINSECURE"},
	},
}

// RunnerKey reports whether name is a RunnerFamilies key, with its
// family's reason.
func RunnerKey(name string) (why string, ok bool) {
	return familyOf(RunnerFamilies, strings.ToUpper(strings.TrimSpace(name)))
}

// EnvFileKeys reads a .env's text as the host does (internal/dotenv) and
// lists the control keys (ControlKey) and the runner keys (RunnerKey) it
// sets to a non-empty value, each once, in order.
func EnvFileKeys(text string) (control, runners []string) {
	for _, e := range dotenv.Parse(text) {
		if _, ok := ControlKey(e.Key); ok {
			control = append(control, e.Key)
		} else if _, ok := RunnerKey(e.Key); ok && e.Value != "" {
			runners = append(runners, e.Key)
		}
	}
	return control, runners
}

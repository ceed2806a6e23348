// Package settings reads gemini-guard's configuration from the environment.
//
// Gemini CLI puts every extension setting the user has given a value into the
// environment of the extension's hooks (`gemini extensions config
// gemini-guard`). Table is the one source of truth for the names, defaults
// and descriptions: gemini-extension.json and the README are tested against
// it. An invalid value never crashes a hook: Load keeps the safe default for
// that setting and returns a warning for the user.
package settings

import (
	"fmt"
	"slices"
	"strings"
)

// Setting describes one knob.
type Setting struct {
	// Name is shown by `gemini extensions config`.
	Name string
	// EnvVar is the variable the hooks read, always GEMINI_GUARD_*.
	EnvVar string
	// Default is the value used when the variable is unset or invalid.
	Default string
	// Values lists the accepted values, or describes the format.
	Values string
	// Description says what it does, for the manifest and the README.
	Description string
}

// Table lists every setting in the order the README shows them.
var Table = []Setting{
	{
		Name: "Mode", EnvVar: "GEMINI_GUARD_MODE", Default: "standard",
		Values:      "`standard`, `strict`, `warn`",
		Description: "standard: block what is known to be dangerous; strict: also block what cannot be known statically (a command name from $(...), an unknown variable as an rm target); warn: block nothing, tell the user what would have been blocked.",
	},
	{
		Name: "Disabled rules", EnvVar: "GEMINI_GUARD_DISABLED_RULES", Default: "",
		Values:      "comma-separated rule ids",
		Description: "Rule ids to switch off: shell rules (git.reset-hard) and gitleaks rules (generic-api-key).",
	},
	{
		Name: "Protected paths", EnvVar: "GEMINI_GUARD_PROTECTED_PATHS", Default: "",
		Values:      "comma-separated paths",
		Description: "Extra paths the shell guard treats like system directories: no recursive delete, permission or ownership change.",
	},
	{
		Name: "Trusted delete roots", EnvVar: "GEMINI_GUARD_TRUSTED_DELETE_ROOTS", Default: "",
		Values:      "comma-separated paths",
		Description: "Directories outside the workspace where recursive deletes are allowed, like the workspace and temp directories.",
	},
	{
		Name: "Trusted hosts", EnvVar: "GEMINI_GUARD_TRUSTED_HOSTS", Default: "",
		Values:      "comma-separated host names (`*.example.com` for its subdomains)",
		Description: "Hosts a secret-bearing variable ($API_TOKEN) may be sent to besides its own service and the hosts the workspace's own files name (rule secrets.variable-sent).",
	},
	{
		Name: "Secrets action", EnvVar: "GEMINI_GUARD_SECRETS_ACTION", Default: "block",
		Values:      "`block`, `redact`",
		Description: "What to do with a write, edit or command that adds a secret: block it, or let it run with each secret replaced by a placeholder.",
	},
	{
		Name: "Secrets skip paths", EnvVar: "GEMINI_GUARD_SECRETS_SKIP_PATHS", Default: "",
		Values:      "comma-separated globs",
		Description: "Files the secrets guard does not scan (for example testdata/**). Matched against the path relative to the workspace.",
	},
	{
		Name: "Gitleaks config", EnvVar: "GEMINI_GUARD_GITLEAKS_CONFIG", Default: "",
		Values:      "path to a gitleaks TOML",
		Description: "Your own gitleaks config. Default: the workspace .gitleaks.toml when present, extending gitleaks' default rules.",
	},
	{
		Name: "Trust gitleaks:allow", EnvVar: "GEMINI_GUARD_TRUST_GITLEAKS_ALLOW", Default: "false",
		Values:      "`true`, `false`",
		Description: "Honour `gitleaks:allow` comments. Off by default: the model can write that comment itself.",
	},
	{
		Name: "Redact streamed answers", EnvVar: "GEMINI_GUARD_REDACT_STREAM", Default: "true",
		Values:      "`true`, `false`",
		Description: "Redact secrets from the model's streamed answer before it is displayed.",
	},
	{
		Name: "Redact tool output", EnvVar: "GEMINI_GUARD_REDACT_TOOL_OUTPUT", Default: "true",
		Values:      "`true`, `false`",
		Description: "Redact secrets from tool output (read_file, run_shell_command, ...) before the model reads it.",
	},
	{
		Name: "Redact model requests", EnvVar: "GEMINI_GUARD_REDACT_MODEL_REQUEST", Default: "true",
		Values:      "`true`, `false`",
		Description: "Redact secrets from the text of every request to the model (your prompts, @file includes, the model's earlier answers) before it leaves the machine.",
	},
	{
		Name: "Redaction marker", EnvVar: "GEMINI_GUARD_REDACT_MARKER", Default: "rule",
		Values:      "`rule`, `plain`",
		Description: "rule: [REDACTED:github-pat]; plain: [REDACTED].",
	},
	{
		Name: "Unredacted reads", EnvVar: "GEMINI_GUARD_UNREDACTED_READS", Default: "block",
		Values:      "`block`, `allow`",
		Description: "Antigravity CLI only, whose hooks cannot redact tool output: block opening a credential file (.env, SSH and cloud keys, token files) with view_file, whose content would reach the model as it is; allow lets such reads through. Shell commands that print one are blocked on every CLI by the rule secrets.credential-file.",
	},
	{
		Name: "Audit log", EnvVar: "GEMINI_GUARD_AUDIT_LOG", Default: "off",
		Values:      "`off`, `on`, or a file path",
		Description: "Write every block, warn-mode warning and tool-output redaction as a JSON line (masked, never a secret) to the state directory, or to the given file. Size-bounded with rotation.",
	},
}

// Mode is the overall enforcement mode.
type Mode int

const (
	Standard Mode = iota // block what is known to be dangerous
	Strict               // also block what cannot be known statically
	WarnOnly             // block nothing, tell the user
)

func (m Mode) String() string {
	switch m {
	case Strict:
		return "strict"
	case WarnOnly:
		return "warn"
	}
	return "standard"
}

// SecretsAction is what the secrets guard does with a new secret.
type SecretsAction int

const (
	Block  SecretsAction = iota // deny the call
	Redact                      // rewrite the input with placeholders
)

func (a SecretsAction) String() string {
	if a == Redact {
		return "redact"
	}
	return "block"
}

// Settings are the parsed values. The zero value is not the default: use
// Default or Load.
type Settings struct {
	Mode               Mode
	DisabledRules      []string
	ProtectedPaths     []string
	TrustedDeleteRoots []string
	// TrustedHosts are host names (lower-cased; "*.example.com" matches
	// its subdomains, not example.com itself) a secret-bearing variable
	// may be sent to.
	TrustedHosts       []string
	SecretsAction      SecretsAction
	SecretsSkipPaths   []string
	GitleaksConfig     string
	TrustGitleaksAllow bool
	RedactStream       bool
	RedactToolOutput   bool
	// RedactModelRequest: the BeforeModel hook redacts the request's text.
	RedactModelRequest bool
	// MarkerRule is true for [REDACTED:<rule>], false for [REDACTED].
	MarkerRule bool
	// AuditLog is "", "on" (the state directory's log) or a file path.
	AuditLog string
	// AllowUnredactedReads lets agy's view_file open a credential file
	// (GEMINI_GUARD_UNREDACTED_READS=allow).
	AllowUnredactedReads bool
}

// Default returns the settings used when nothing is configured.
func Default() Settings {
	s, _ := Load(func(string) string { return "" })
	return s
}

// RuleDisabled reports whether the user switched rule id off.
func (s Settings) RuleDisabled(id string) bool {
	return slices.Contains(s.DisabledRules, id)
}

// Load reads every setting through getenv (os.Getenv in the binaries, a map
// in tests). Each invalid value is replaced by its default and described in
// one of the returned warnings; Load never fails.
func Load(getenv func(string) string) (Settings, []string) {
	var s Settings
	var warnings []string
	get := func(env string) string { return strings.TrimSpace(getenv(env)) }
	invalid := func(env, val, want string) {
		warnings = append(warnings, fmt.Sprintf("gemini-guard: %s=%q is not valid (want %s); using the default %q.", env, val, want, defaultOf(env)))
	}
	choice := func(env string, choices ...string) int {
		v := get(env)
		if v == "" {
			v = defaultOf(env)
		}
		i := slices.Index(choices, strings.ToLower(v))
		if i < 0 {
			invalid(env, v, strings.Join(choices, ", "))
			i = slices.Index(choices, defaultOf(env))
		}
		return i
	}
	boolean := func(env string) bool {
		v := strings.ToLower(get(env))
		switch v {
		case "":
			return defaultOf(env) == "true"
		case "true", "1", "yes", "on":
			return true
		case "false", "0", "no", "off":
			return false
		}
		invalid(env, v, "true or false")
		return defaultOf(env) == "true"
	}

	s.Mode = Mode(choice("GEMINI_GUARD_MODE", "standard", "strict", "warn"))
	s.DisabledRules = List(get("GEMINI_GUARD_DISABLED_RULES"))
	s.ProtectedPaths = List(get("GEMINI_GUARD_PROTECTED_PATHS"))
	s.TrustedDeleteRoots = List(get("GEMINI_GUARD_TRUSTED_DELETE_ROOTS"))
	for _, h := range List(get("GEMINI_GUARD_TRUSTED_HOSTS")) {
		if h = strings.ToLower(strings.TrimSuffix(h, ".")); validHostPattern(h) {
			s.TrustedHosts = append(s.TrustedHosts, h)
		} else {
			invalid("GEMINI_GUARD_TRUSTED_HOSTS", h, "host names such as api.example.com or *.example.com")
		}
	}
	s.SecretsAction = SecretsAction(choice("GEMINI_GUARD_SECRETS_ACTION", "block", "redact"))
	s.SecretsSkipPaths = List(get("GEMINI_GUARD_SECRETS_SKIP_PATHS"))
	s.GitleaksConfig = get("GEMINI_GUARD_GITLEAKS_CONFIG")
	s.TrustGitleaksAllow = boolean("GEMINI_GUARD_TRUST_GITLEAKS_ALLOW")
	s.RedactStream = boolean("GEMINI_GUARD_REDACT_STREAM")
	s.RedactToolOutput = boolean("GEMINI_GUARD_REDACT_TOOL_OUTPUT")
	s.RedactModelRequest = boolean("GEMINI_GUARD_REDACT_MODEL_REQUEST")
	s.MarkerRule = choice("GEMINI_GUARD_REDACT_MARKER", "rule", "plain") == 0
	s.AllowUnredactedReads = choice("GEMINI_GUARD_UNREDACTED_READS", "block", "allow") == 1
	switch v := get("GEMINI_GUARD_AUDIT_LOG"); strings.ToLower(v) {
	case "", "off", "false", "0", "no":
		s.AuditLog = ""
	case "on", "true", "1", "yes":
		s.AuditLog = "on"
	default:
		s.AuditLog = v
	}
	return s, warnings
}

// validHostPattern accepts a host name with at least one dot, optionally
// after "*." (a bare "*" or "*.com" would trust the whole internet or a
// whole top-level domain).
func validHostPattern(h string) bool {
	name := strings.TrimPrefix(h, "*.")
	if strings.Count(name, ".") < 1 || strings.HasPrefix(name, ".") || strings.HasSuffix(name, ".") || strings.Contains(name, "..") {
		return false
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '.') {
			return false
		}
	}
	return true
}

// List splits a comma- or newline-separated setting, dropping blanks.
func List(v string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == '\n' }) {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

func defaultOf(env string) string {
	for _, s := range Table {
		if s.EnvVar == env {
			return s.Default
		}
	}
	panic("settings: no setting " + env) // a bug in this file, never input
}

// ManifestDescription is the description gemini-extension.json gives s:
// what it does, then its accepted values and default.
func ManifestDescription(s Setting) string {
	def := s.Default
	if def == "" {
		def = "none"
	}
	return fmt.Sprintf("%s Values: %s. Default: %s.", s.Description, strings.ReplaceAll(s.Values, "`", ""), def)
}

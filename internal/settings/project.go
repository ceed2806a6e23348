package settings

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"github.com/gemini-guard/gemini-guard/internal/bounded"
)

// ProjectFile is where a workspace keeps its overrides, relative to the
// workspace root.
const ProjectFile = ".gemini/gemini-guard.toml"

// MaxProjectFile is the largest project file ApplyProject reads. A bigger one
// is ignored with a warning: real overrides are a few lines.
const MaxProjectFile = 64 << 10

// project is the decoded project file. Pointers tell "absent" from "set to
// the zero value" (`redact_stream = false` must be seen to be refused).
//
// Keys that could only loosen the policy (disabled_rules, trusted_delete_roots,
// secrets_skip_paths, gitleaks_config) are known so that the warning can say
// why they are ignored instead of calling them unknown.
type project struct {
	Mode                     *string   `toml:"mode"`
	ProtectedPaths           []string  `toml:"protected_paths"`
	EnableRules              []string  `toml:"enable_rules"`
	RemoveTrustedDeleteRoots []string  `toml:"remove_trusted_delete_roots"`
	RemoveSecretsSkipPaths   []string  `toml:"remove_secrets_skip_paths"`
	SecretsAction            *string   `toml:"secrets_action"`
	TrustGitleaksAllow       *bool     `toml:"trust_gitleaks_allow"`
	RedactStream             *bool     `toml:"redact_stream"`
	RedactToolOutput         *bool     `toml:"redact_tool_output"`
	RedactModelRequest       *bool     `toml:"redact_model_request"`
	AuditLog                 *string   `toml:"audit_log"`
	DisabledRules            *[]string `toml:"disabled_rules"`
	TrustedDeleteRoots       *[]string `toml:"trusted_delete_roots"`
	SecretsSkipPaths         *[]string `toml:"secrets_skip_paths"`
	GitleaksConfig           *string   `toml:"gitleaks_config"`
}

// ApplyProject reads the workspace's ProjectFile and returns s tightened by
// it, with one warning per entry it ignored.
//
// The agent can write files in the workspace, so the file may only tighten:
//
//   - mode may go up (warn < standard < strict), never down;
//   - protected_paths are added (relative paths are taken from the workspace);
//   - enable_rules re-enables rules the user disabled;
//   - remove_trusted_delete_roots and remove_secrets_skip_paths remove entries
//     from the user's lists;
//   - secrets_action may go from redact to block; trust_gitleaks_allow may be
//     set false; redact_stream and redact_tool_output may be set true;
//   - audit_log may be "on" (the state directory's log), never "off" or a path.
//
// Anything that would loosen (mode = "warn", disabled_rules,
// trusted_delete_roots, secrets_skip_paths, gitleaks_config, ...) is ignored
// with a warning. Unknown keys are reported, and the known keys of the same
// file still apply: a typo must not cost the rest of the tightening. A file
// that is not valid TOML, has a value of the wrong type, or is larger than
// MaxProjectFile is ignored as a whole with a warning. No file, or workspace
// "", leaves s unchanged with no warning. ApplyProject never fails and never
// modifies s's slices in place.
func ApplyProject(s Settings, workspace string) (Settings, []string) {
	if workspace == "" {
		return s, nil
	}
	path := filepath.Join(workspace, filepath.FromSlash(ProjectFile))
	data, truncated, err := bounded.ReadFile(path, MaxProjectFile)
	if err == nil && truncated {
		err = fmt.Errorf("larger than %d KiB", MaxProjectFile>>10)
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return s, nil
	case err != nil:
		return s, []string{fmt.Sprintf("gemini-guard: ignored %s: %v.", ProjectFile, err)}
	}
	return TightenWith(s, workspace, data)
}

// TightenWith is ApplyProject for a project file whose content is data
// (the guard uses it to judge a write to the file before it happens).
func TightenWith(s Settings, workspace string, data []byte) (Settings, []string) {
	if int64(len(data)) > MaxProjectFile {
		return s, []string{fmt.Sprintf("gemini-guard: ignored %s: larger than %d KiB.", ProjectFile, MaxProjectFile>>10)}
	}
	var p project
	dec := toml.NewDecoder(bytes.NewReader(data)).DisallowUnknownFields()
	var warnings []string
	if err := dec.Decode(&p); err != nil {
		var missing *toml.StrictMissingError
		if !errors.As(err, &missing) {
			return s, []string{fmt.Sprintf("gemini-guard: ignored %s: %s.", ProjectFile, decodeErrorText(err))}
		}
		for _, e := range missing.Errors {
			row, _ := e.Position()
			warnings = append(warnings, fmt.Sprintf("gemini-guard: %s line %d: unknown key %q ignored.", ProjectFile, row, strings.Join(e.Key(), ".")))
		}
	}
	out, more := p.apply(s, workspace)
	return out, append(warnings, more...)
}

func (p project) apply(s Settings, workspace string) (Settings, []string) {
	var warnings []string
	refuse := func(key, why string) {
		warnings = append(warnings, fmt.Sprintf("gemini-guard: %s: %s ignored: %s; a workspace file may only tighten the guard (set it with `gemini extensions config gemini-guard`).", ProjectFile, key, why))
	}
	invalid := func(key, val, want string) {
		warnings = append(warnings, fmt.Sprintf("gemini-guard: %s: %s = %q is not valid (want %s); ignored.", ProjectFile, key, val, want))
	}

	if p.Mode != nil {
		v := strings.ToLower(strings.TrimSpace(*p.Mode))
		modes := map[string]Mode{"standard": Standard, "strict": Strict, "warn": WarnOnly}
		m, ok := modes[v]
		switch {
		case !ok:
			invalid("mode", *p.Mode, "standard, strict or warn")
		case m.rank() < s.Mode.rank():
			refuse(fmt.Sprintf("mode = %q", v), "it is looser than the configured mode "+s.Mode.String())
		default:
			s.Mode = m
		}
	}

	for _, path := range p.ProtectedPaths {
		path = strings.TrimSpace(path)
		if path == "" {
			continue
		}
		path = inWorkspace(workspace, path)
		if !slices.Contains(s.ProtectedPaths, path) {
			s.ProtectedPaths = append(slices.Clip(s.ProtectedPaths), path)
		}
	}

	s.DisabledRules = without(s.DisabledRules, p.EnableRules, strings.TrimSpace)
	s.TrustedDeleteRoots = without(s.TrustedDeleteRoots, p.RemoveTrustedDeleteRoots, func(path string) string {
		return filepath.Clean(inWorkspace(workspace, strings.TrimSpace(path)))
	})
	s.SecretsSkipPaths = without(s.SecretsSkipPaths, p.RemoveSecretsSkipPaths, strings.TrimSpace)

	if p.SecretsAction != nil {
		switch v := strings.ToLower(strings.TrimSpace(*p.SecretsAction)); v {
		case "block":
			s.SecretsAction = Block
		case "redact":
			if s.SecretsAction != Redact {
				refuse(`secrets_action = "redact"`, "it lets calls with secrets run where the configured action blocks them")
			}
		default:
			invalid("secrets_action", *p.SecretsAction, "block or redact")
		}
	}
	tightenBool := func(key string, v *bool, setting *bool, safe bool) {
		switch {
		case v == nil:
		case *v == safe:
			*setting = safe
		case *setting != safe:
			// Already at the loose value the file asks for: nothing changes.
		default:
			refuse(fmt.Sprintf("%s = %t", key, *v), "it is looser than the configured value")
		}
	}
	tightenBool("trust_gitleaks_allow", p.TrustGitleaksAllow, &s.TrustGitleaksAllow, false)
	tightenBool("redact_stream", p.RedactStream, &s.RedactStream, true)
	tightenBool("redact_tool_output", p.RedactToolOutput, &s.RedactToolOutput, true)
	tightenBool("redact_model_request", p.RedactModelRequest, &s.RedactModelRequest, true)

	if p.AuditLog != nil {
		switch v := strings.ToLower(strings.TrimSpace(*p.AuditLog)); v {
		case "on", "true":
			if s.AuditLog == "" {
				s.AuditLog = "on"
			}
		case "off", "false", "":
			if s.AuditLog != "" {
				refuse(fmt.Sprintf("audit_log = %q", v), "it would switch the audit log off")
			}
		default:
			refuse("audit_log = <path>", "only the user chooses where the log is written; use \"on\"")
		}
	}

	if p.DisabledRules != nil {
		refuse("disabled_rules", "it switches rules off (use enable_rules to switch rules back on)")
	}
	if p.TrustedDeleteRoots != nil {
		refuse("trusted_delete_roots", "it allows more deletes (use remove_trusted_delete_roots)")
	}
	if p.SecretsSkipPaths != nil {
		refuse("secrets_skip_paths", "it stops scanning files (use remove_secrets_skip_paths)")
	}
	if p.GitleaksConfig != nil {
		refuse("gitleaks_config", "another gitleaks config can allow what the default one finds")
	}
	return s, warnings
}

// rank orders modes from loosest to tightest.
func (m Mode) rank() int {
	switch m {
	case WarnOnly:
		return 0
	case Strict:
		return 2
	}
	return 1
}

// without returns list minus every entry whose norm equals the norm of an
// entry of remove. It returns a new slice when anything is removed, so the
// caller's Settings are never changed behind its back.
func without(list, remove []string, norm func(string) string) []string {
	if len(remove) == 0 || len(list) == 0 {
		return list
	}
	drop := map[string]bool{}
	for _, r := range remove {
		drop[norm(r)] = true
	}
	var out []string
	for _, v := range list {
		if !drop[norm(v)] {
			out = append(out, v)
		}
	}
	return out
}

// inWorkspace makes a relative path absolute against the workspace; absolute
// paths and ~ paths are kept as written.
func inWorkspace(workspace, path string) string {
	if path == "" || filepath.IsAbs(path) || path == "~" || strings.HasPrefix(path, "~/") {
		return path
	}
	return filepath.Join(workspace, path)
}

// decodeErrorText is a one-line description of a TOML error with its line.
func decodeErrorText(err error) string {
	var de *toml.DecodeError
	if errors.As(err, &de) {
		row, col := de.Position()
		return fmt.Sprintf("line %d column %d: %s", row, col, strings.TrimPrefix(de.Error(), "toml: "))
	}
	return strings.TrimPrefix(err.Error(), "toml: ")
}

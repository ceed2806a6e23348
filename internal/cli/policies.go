package cli

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"github.com/gemini-guard/gemini-guard/internal/jsonenc"
	"github.com/gemini-guard/gemini-guard/internal/lazyregexp"
)

// policyRule is one [[rule]] of a policies/*.toml file, as far as gemini-guard
// uses Gemini CLI's policy engine: deny rules on run_shell_command (by
// commandRegex) and on write_file and replace (by argsPattern).
type policyRule struct {
	ToolName     string `toml:"toolName"`
	CommandRegex string `toml:"commandRegex"`
	// ArgsPattern is tested against the whole stable JSON of the arguments
	// (keys sorted, each top-level pair between NUL characters).
	ArgsPattern string `toml:"argsPattern"`
	Decision    string `toml:"decision"`
	Priority    int    `toml:"priority"`
	// DenyMessage is deny_message: every Gemini CLI from 0.32 reads that
	// key, while denyMessage is read only from 0.36 (older versions show a
	// generic message). Either is accepted; the shipped rules use
	// deny_message (a test checks).
	DenyMessage      string `toml:"deny_message"`
	DenyMessageCamel string `toml:"denyMessage"`

	file string
	re   *regexp.Regexp
}

// nestedQuantifier is Gemini CLI's own test for a regex it refuses to load as
// a ReDoS risk (packages/core/src/policy/utils.ts isSafeRegExp): a group that
// holds a quantifier and is itself quantified. Gemini CLI drops such a rule
// with only a warning, so a wall built on it would silently be missing.
var nestedQuantifier = &lazyregexp.Regexp{Expr: `\([^)]*[*+?{].*\)[*+?{]`}

// jsOnly lists regex syntax that means something else, or nothing, in one of
// JavaScript and Go: a policy regex must mean the same in both, because
// Gemini CLI runs it in JavaScript and gemini-guard tests it in Go.
var jsOnly = []string{"(?=", "(?!", "(?<", "(?i", "(?s", "(?m", "(?U", `\p{`, `\P{`, `\A`, `\z`, `\Q`, `\k<`, `\c`, `\u`, `\x{`, "[[:"}

// loadPolicies reads and validates every *.toml in dir, in name order. It
// fails on the first file or rule that Gemini CLI would not load as written,
// naming the file and the rule; a missing dir is an error.
func loadPolicies(dir string) ([]policyRule, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.toml"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no policies in %s", dir)
	}
	slices.Sort(files)
	var rules []policyRule
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			return nil, err
		}
		var doc struct {
			Rule []policyRule `toml:"rule"`
		}
		if err := toml.NewDecoder(bytes.NewReader(data)).DisallowUnknownFields().Decode(&doc); err != nil {
			return nil, fmt.Errorf("%s: %w", filepath.Base(file), err)
		}
		for i, r := range doc.Rule {
			r.file = filepath.Base(file)
			if r.DenyMessage == "" {
				r.DenyMessage = r.DenyMessageCamel
			}
			if err := r.compile(); err != nil {
				return nil, fmt.Errorf("%s: rule #%d: %w", r.file, i+1, err)
			}
			rules = append(rules, r)
		}
	}
	return rules, nil
}

func (r *policyRule) compile() error {
	switch {
	case r.ToolName != "run_shell_command" && r.ToolName != "write_file" && r.ToolName != "replace":
		return fmt.Errorf("toolName %q: gemini-guard only ships rules for run_shell_command, write_file and replace", r.ToolName)
	case r.Decision != "deny":
		return fmt.Errorf("decision %q: extension policies only deny (allow is ignored in the extension tier)", r.Decision)
	case r.Priority < 0 || r.Priority > 999:
		return fmt.Errorf("priority %d is outside 0..999", r.Priority)
	case r.ToolName == "run_shell_command" && (r.CommandRegex == "" || r.ArgsPattern != ""):
		return errors.New("a run_shell_command rule needs commandRegex, and no argsPattern")
	case r.ToolName != "run_shell_command" && (r.ArgsPattern == "" || r.CommandRegex != ""):
		return errors.New("a " + r.ToolName + " rule needs argsPattern, and no commandRegex")
	case !strings.HasPrefix(r.DenyMessage, "gemini-guard blocked policy."):
		return errors.New("deny_message must start with `gemini-guard blocked policy.<name>:`")
	}
	field, source := "argsPattern", r.ArgsPattern
	pattern := r.ArgsPattern
	if r.CommandRegex != "" {
		field, source = "commandRegex", r.CommandRegex
		pattern = `"command":"` + r.CommandRegex
	}
	if len(pattern) > 2048 || nestedQuantifier.MatchString(pattern) {
		return fmt.Errorf("%s is refused by Gemini CLI as unsafe (a quantified group holding a quantifier, or over 2048 characters)", field)
	}
	for _, s := range jsOnly {
		if strings.Contains(source, s) {
			return fmt.Errorf("%s uses %q, which JavaScript and Go read differently", field, s)
		}
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return fmt.Errorf("%s: %w", field, err)
	}
	r.re = re
	return nil
}

// pattern is the regex Gemini CLI tests against the stable arguments.
func (r policyRule) pattern() string {
	if r.CommandRegex != "" {
		return `"command":"` + r.CommandRegex
	}
	return r.ArgsPattern
}

// id is the rule id the deny message names (policy.rm-root-or-home).
func (r policyRule) id() string {
	id, _, _ := strings.Cut(strings.TrimPrefix(r.DenyMessage, "gemini-guard blocked "), ":")
	return id
}

// matches reports whether Gemini CLI's policy engine would apply r to the
// run_shell_command call with this command, tested the way it tests: the
// regex against the stable JSON of the arguments, top-level pairs wrapped in
// NUL characters (packages/core/src/policy/stable-stringify.ts).
func (r policyRule) matches(command string) bool {
	return r.ToolName == "run_shell_command" && r.re.MatchString(stableArgs(command))
}

// matchesCall reports whether r applies to a call of tool with args.
func (r policyRule) matchesCall(tool string, args map[string]string) bool {
	return r.ToolName == tool && r.re.MatchString(stableObject(args))
}

// stableObject is Gemini CLI's stableStringify of a flat object of strings:
// keys sorted, each top-level pair between NUL characters.
func stableObject(args map[string]string) string {
	var b strings.Builder
	b.WriteString("{")
	for i, k := range slices.Sorted(maps.Keys(args)) {
		if i > 0 {
			b.WriteString(",")
		}
		key, val := jsString(k), jsString(args[k])
		b.WriteString("\x00" + string(key) + ":" + string(val) + "\x00")
	}
	b.WriteString("}")
	return b.String()
}

// stableArgs is Gemini CLI's stableStringify({command}) for a shell call.
func stableArgs(command string) string {
	// JSON.stringify leaves < > & alone; a string always encodes.
	s := jsString(command)
	return "{\x00\"command\":" + string(s) + "\x00}"
}

// jsString is JSON.stringify of a string, as Gemini CLI writes the
// arguments it tests: like Go's encoding, but U+2028 and U+2029 are
// written as themselves, which Go escapes (a line end the .env rules look
// for).
func jsString(v string) string {
	b, _ := jsonenc.Marshal(v)
	if !strings.Contains(string(b), `\u202`) {
		return string(b)
	}
	var out strings.Builder
	for i := 0; i < len(b); i++ {
		if b[i] == '\\' && i+1 < len(b) {
			if rest := string(b[i:]); strings.HasPrefix(rest, `\u2028`) || strings.HasPrefix(rest, `\u2029`) {
				r := '\u2028'
				if b[i+5] == '9' {
					r = '\u2029'
				}
				out.WriteRune(r)
				i += 5
				continue
			}
			out.WriteByte(b[i])
			i++ // an escape's second byte is never the start of another
		}
		out.WriteByte(b[i])
	}
	return out.String()
}

package cli

import (
	"bytes"
	"errors"
	"fmt"
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
// uses Gemini CLI's policy engine: deny rules on run_shell_command.
type policyRule struct {
	ToolName     string `toml:"toolName"`
	CommandRegex string `toml:"commandRegex"`
	Decision     string `toml:"decision"`
	Priority     int    `toml:"priority"`
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
	case r.ToolName != "run_shell_command":
		return fmt.Errorf("toolName %q: gemini-guard only ships rules for run_shell_command", r.ToolName)
	case r.Decision != "deny":
		return fmt.Errorf("decision %q: extension policies only deny (allow is ignored in the extension tier)", r.Decision)
	case r.Priority < 0 || r.Priority > 999:
		return fmt.Errorf("priority %d is outside 0..999", r.Priority)
	case r.CommandRegex == "":
		return errors.New("commandRegex is empty")
	case !strings.HasPrefix(r.DenyMessage, "gemini-guard blocked policy."):
		return errors.New("deny_message must start with `gemini-guard blocked policy.<name>:`")
	}
	pattern := `"command":"` + r.CommandRegex
	if len(pattern) > 2048 || nestedQuantifier.MatchString(pattern) {
		return fmt.Errorf("commandRegex is refused by Gemini CLI as unsafe (a quantified group holding a quantifier, or over 2048 characters)")
	}
	for _, s := range jsOnly {
		if strings.Contains(r.CommandRegex, s) {
			return fmt.Errorf("commandRegex uses %q, which JavaScript and Go read differently", s)
		}
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return fmt.Errorf("commandRegex: %w", err)
	}
	r.re = re
	return nil
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
	return r.re.MatchString(stableArgs(command))
}

// stableArgs is Gemini CLI's stableStringify({command}) for a shell call.
func stableArgs(command string) string {
	// JSON.stringify leaves < > & alone; a string always encodes.
	s, _ := jsonenc.Marshal(command)
	return "{\x00\"command\":" + string(s) + "\x00}"
}

package secretguard

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gemini-guard/gemini-guard/internal/jsonenc"
	"github.com/gemini-guard/gemini-guard/internal/secrets"
	knownvals "github.com/gemini-guard/gemini-guard/internal/secrets/known"
	"github.com/gemini-guard/gemini-guard/internal/toolargs"
	"github.com/gemini-guard/gemini-guard/internal/verdict"
)

// maxListed is how many distinct secrets a reason lists by name; the rest
// are counted.
const maxListed = 5

// saferFile and saferShell tell the agent what to do instead.
const (
	saferFile = "keep the value out of the file: read it at run time from an environment variable " +
		"(os.Getenv(\"NAME\"), process.env.NAME, os.environ[\"NAME\"]) or a secret manager reference, " +
		"and ask the user to set it; do not retry with the secret split, encoded or otherwise obfuscated"
	saferShell = "refer to the secret through an environment variable the user sets (\"$NAME\") or a secret " +
		"manager, never as a literal in the command; do not retry with the secret split, encoded or otherwise obfuscated"
)

// group is one distinct secret of one rule with every line it is on.
type group struct {
	rule, desc, secret string
	lines              []int
}

// moreSpecific reports whether finding a names a secret better than b: a
// vendor rule over a generic one, then the longer (more precise) secret,
// then the earlier rule id (a stable answer).
func moreSpecific(a, b secrets.Finding) bool {
	// A value known by value is named by a rule that finds it too (the
	// rule says what it is and where to revoke it).
	if ka, kb := a.RuleID == knownvals.RuleID, b.RuleID == knownvals.RuleID; ka != kb {
		return kb
	}
	if ga, gb := secrets.GenericRule(a.RuleID), secrets.GenericRule(b.RuleID); ga != gb {
		return gb
	}
	if len(a.Secret) != len(b.Secret) {
		return len(a.Secret) > len(b.Secret)
	}
	return a.RuleID < b.RuleID
}

// sameSecret reports whether two findings of different rules are one
// secret: their ranges overlap, or one secret holds the other (a copy of it
// elsewhere in the text).
func sameSecret(a, b secrets.Finding) bool {
	if a.Secret == "" || b.Secret == "" {
		return false
	}
	overlap := a.Start < b.End && b.Start < a.End
	return overlap || strings.Contains(a.Secret, b.Secret) || strings.Contains(b.Secret, a.Secret)
}

// oneRulePerSecret drops every finding that another finding names better
// (moreSpecific on the same secret), so that each secret is reported once,
// under its most specific rule. Order is kept.
func oneRulePerSecret(found []secrets.Finding) []secrets.Finding {
	out := make([]secrets.Finding, 0, len(found))
	for i, f := range found {
		shadowed := false
		for j, g := range found {
			if i != j && g.RuleID != f.RuleID && sameSecret(f, g) && moreSpecific(g, f) {
				shadowed = true
				break
			}
		}
		if !shadowed {
			out = append(out, f)
		}
	}
	return out
}

// groups folds findings (sorted by position) into distinct (rule, secret)
// pairs, in order of first appearance, one rule per secret
// (oneRulePerSecret).
func groups(found []secrets.Finding) []group {
	var out []group
	index := map[[2]string]int{}
	for _, f := range oneRulePerSecret(found) {
		k := [2]string{f.RuleID, f.Secret}
		i, ok := index[k]
		if !ok {
			i = len(out)
			index[k] = i
			out = append(out, group{rule: f.RuleID, desc: shortDescription(f.Description), secret: f.Secret})
		}
		if n := len(out[i].lines); n == 0 || out[i].lines[n-1] != f.Line {
			out[i].lines = append(out[i].lines, f.Line)
		}
	}
	return out
}

// shortDescription keeps the first clause of a gitleaks description
// ("Uncovered a GitHub Personal Access Token, potentially leading to ..." →
// "Uncovered a GitHub Personal Access Token").
func shortDescription(d string) string {
	d = strings.TrimSpace(d)
	if i := strings.Index(d, ", "); i >= 12 {
		d = d[:i]
	}
	return verdict.Truncate(strings.TrimRight(d, ". "), 100)
}

// describe lists the groups: `github-pat (Uncovered a GitHub Personal
// Access Token) at line 3 (ghp_…(40 chars))`.
func describe(gs []group, withLines bool) string {
	var parts []string
	for i, g := range gs {
		if i == maxListed {
			parts = append(parts, fmt.Sprintf("and %d more", len(gs)-maxListed))
			break
		}
		s := g.rule
		if g.desc != "" {
			s += " (" + g.desc + ")"
		}
		if withLines && len(g.lines) > 0 {
			s += " at " + lineList(g.lines)
		}
		if g.rule == knownvals.RuleID {
			// Named by its source; not even the first characters.
			s += fmt.Sprintf(" `…(%d chars)`", utf8.RuneCountInString(g.secret))
		} else {
			s += " `" + verdict.Mask(g.secret) + "`"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, "; ")
}

func lineList(lines []int) string {
	if len(lines) == 1 {
		return "line " + strconv.Itoa(lines[0])
	}
	var s []string
	for i, l := range lines {
		if i == 4 {
			s = append(s, "…")
			break
		}
		s = append(s, strconv.Itoa(l))
	}
	return "lines " + strings.Join(s, ", ")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return strconv.Itoa(n) + " " + many
}

// blockDecision denies a call that would add the secrets in found (offsets
// into text). target is "to <file>" for file tools, "" for a command; name
// is the tool as the host calls it.
func blockDecision(tool, name, target string, found []secrets.Finding, text string, notes []string) Decision {
	gs := groups(found)
	var what, safer string
	if tool == Shell {
		what = fmt.Sprintf("this command contains %s: %s", plural(len(gs), "a secret", "secrets"), describe(gs, false))
		safer = saferShell
	} else if toolargs.Outbound(tool) {
		what = fmt.Sprintf("the arguments of %s would send %s off this machine: %s", name, plural(len(gs), "a secret", "secrets"), describe(gs, false))
		safer = saferOutbound
	} else if toolargs.Kept(tool) {
		what = fmt.Sprintf("%s would keep %s in a file that later sessions read: %s", name, plural(len(gs), "a secret", "secrets"), describe(gs, false))
		safer = saferKept
	} else if toolargs.Opaque(tool) {
		what = fmt.Sprintf("the arguments of %s hold %s, which it would write to a file or type into a running command: %s", name, plural(len(gs), "a secret", "secrets"), describe(gs, false))
		safer = saferFile
	} else {
		what = fmt.Sprintf("%s would add %s %s: %s", name, plural(len(gs), "a secret", "secrets"), target, describe(gs, true))
		safer = saferFile
	}
	d := Decision{
		Verdict: verdict.Verdict{Action: verdict.Deny, RuleID: gs[0].rule, What: what, Safer: safer, Notes: notes},
	}
	for _, g := range gs {
		d.Rules = append(d.Rules, auditRule(g))
		d.Secrets = append(d.Secrets, g.secret)
	}
	d.Secrets = append(d.Secrets, allSecrets(found, text)...)
	return sanitize(d)
}

// auditRule is how the audit log names a group: its rule, and for a known
// value its source (known-value: $INTERNAL_API_TOKEN), never the value.
func auditRule(g group) string {
	if g.rule == knownvals.RuleID {
		return g.rule + ": " + g.desc
	}
	return g.rule
}

// allSecrets are every finding's secret, those another rule names better
// included, and the raw texts of their ranges: none may be shown.
func allSecrets(found []secrets.Finding, text string) []string {
	var out []string
	for _, f := range found {
		out = append(out, f.Secret)
	}
	return append(out, spanTexts(found, text)...)
}

// spanTexts are the raw texts of the findings' ranges (the encoded form of
// a decoded secret), which must not be shown either.
func spanTexts(found []secrets.Finding, text string) []string {
	var out []string
	for _, f := range found {
		if 0 <= f.Start && f.Start < f.End && f.End <= len(text) {
			out = append(out, text[f.Start:f.End])
		}
	}
	return out
}

// sanitize masks every secret wherever the decision shows text (a path or
// note could quote one): the reason and user messages never hold a secret.
func sanitize(d Decision) Decision {
	mask := func(s string) string { return maskAll(s, d.Secrets) }
	d.Verdict.What = mask(d.Verdict.What)
	d.Verdict.Fragment = mask(d.Verdict.Fragment)
	for i, n := range d.Verdict.Notes {
		d.Verdict.Notes[i] = mask(n)
	}
	d.UserMessage = mask(d.UserMessage)
	return d
}

// maskAll replaces every occurrence of each secret in s by its mask, longest
// secrets first, skipping the mask text itself.
func maskAll(s string, secretList []string) string {
	sorted := append([]string(nil), secretList...)
	sort.SliceStable(sorted, func(i, j int) bool { return len(sorted[i]) > len(sorted[j]) })
	for _, sec := range sorted {
		if len(sec) < 4 {
			continue // too short to mask without mangling the sentence
		}
		s = strings.ReplaceAll(s, sec, verdict.Mask(sec))
	}
	return s
}

// protectedDecision denies a write to the guard's or Gemini CLI's
// configuration.
func protectedDecision(tool, shown, why, safer string) Decision {
	what := ""
	if shown != "" {
		what = fmt.Sprintf("%s would change %s, %s", tool, shown, why)
	} else {
		what = "this command " + why
	}
	if safer == "" {
		safer = "leave the guard's and Gemini CLI's configuration to the user: tell them which change you " +
			"would make and why, and let them make it"
	}
	return Decision{
		Verdict: verdict.Verdict{
			Action: verdict.Deny,
			RuleID: RuleProtectedConfig,
			What:   what,
			Safer:  safer,
		},
		Rules: []string{RuleProtectedConfig},
	}
}

// placeholder is what replaces a secret in redact mode.
func placeholder(rule string, markerRule bool) string {
	if markerRule && rule != "" {
		return "[REDACTED:" + rule + "]"
	}
	return "[REDACTED]"
}

// fieldText returns the string value of key in a tool_input object.
func fieldText(input json.RawMessage, key string) string {
	var m map[string]json.RawMessage
	if json.Unmarshal(input, &m) != nil {
		return ""
	}
	var s string
	if json.Unmarshal(m[key], &s) != nil {
		return ""
	}
	return s
}

// redactField returns a Rewrite decision whose tool input is input with
// every found secret in field replaced by a placeholder. found are offsets
// into scanned; ok is false when some secret's text does not occur in the
// field (it spans the edit boundary), so the call must be blocked instead.
func redactField(input json.RawMessage, field, value string, found []secrets.Finding, scanned string, markerRule bool) (Decision, bool) {
	type repl struct{ old, new string }
	var rs []repl
	for _, f := range found {
		if f.Start < 0 || f.End > len(scanned) || f.Start >= f.End {
			return Decision{}, false
		}
		old := scanned[f.Start:f.End]
		if !strings.Contains(value, old) {
			return Decision{}, false
		}
		rs = append(rs, repl{old, placeholder(f.RuleID, markerRule)})
	}
	// Longest first, so a secret inside another is not half replaced.
	sort.SliceStable(rs, func(i, j int) bool { return len(rs[i].old) > len(rs[j].old) })
	for _, r := range rs {
		value = strings.ReplaceAll(value, r.old, r.new)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(input, &m); err != nil {
		return Decision{}, false
	}
	v, err := marshalString(value)
	if err != nil {
		return Decision{}, false
	}
	m[field] = v
	out, err := json.Marshal(m)
	if err != nil {
		return Decision{}, false
	}
	return Decision{Verdict: verdict.Verdict{Action: verdict.Rewrite, RuleID: found[0].RuleID}, ToolInput: out}, true
}

// marshalString encodes s as JSON without escaping <, > and & (code keeps
// its look in the transcript).
func marshalString(s string) (json.RawMessage, error) {
	return jsonenc.Marshal(s)
}

// rewriteMessage tells the user what the redact action replaced.
func rewriteMessage(tool, shown string, found []secrets.Finding, text string) string {
	gs := groups(found)
	where := "in this command"
	if tool != Shell {
		where = "in " + tool + " to " + shown
	}
	msg := fmt.Sprintf("gemini-guard replaced %s %s with placeholders ([REDACTED…]): %s. The call ran with the placeholders; put the real value in an environment variable or secret manager.",
		plural(len(gs), "a secret", "secrets"), where, describe(gs, tool != Shell))
	var secretsShown []string
	for _, g := range gs {
		secretsShown = append(secretsShown, g.secret)
	}
	secretsShown = append(secretsShown, allSecrets(found, text)...)
	return maskAll(msg, secretsShown)
}

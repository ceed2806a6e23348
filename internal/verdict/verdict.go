// Package verdict holds the one decision type every guard returns and the
// wording of the reasons Gemini CLI shows to the model and the user.
//
// It is a leaf: it imports nothing of the project, so the hook binaries, the
// people's command and the tests all speak of decisions the same way.
package verdict

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Action is what a guard decided about one call.
type Action int

const (
	// Allow lets the call through untouched. The zero Verdict allows.
	Allow Action = iota
	// Deny stops the call; Gemini CLI hands the reason to the model.
	Deny
	// Warn lets the call through but tells the user what would have been
	// denied (warn mode, for rolling the guard out).
	Warn
	// Rewrite lets the call through with changed input (secrets replaced by
	// placeholders); the guard that returns it carries the new input itself.
	Rewrite
)

func (a Action) String() string {
	switch a {
	case Allow:
		return "allow"
	case Deny:
		return "deny"
	case Warn:
		return "warn"
	case Rewrite:
		return "rewrite"
	}
	return fmt.Sprintf("Action(%d)", int(a))
}

// Verdict is one guard's decision with everything a reason needs.
// Fields that are empty are left out of the reason.
type Verdict struct {
	Action Action
	// RuleID names the rule that decided, as `category.kebab-name` for shell
	// rules and the gitleaks rule id for secrets (`github-pat`).
	RuleID string
	// What says what was blocked and why, as one sentence without a final
	// period. It must never contain a secret: mask first.
	What string
	// Safer is the safer way to reach the same goal, or "".
	Safer string
	// Fragment is the offending part of the input, already masked; Message
	// quotes it truncated.
	Fragment string
	// Notes are extra user-facing lines (for example "scanned the first 4 MiB
	// only"). They go to the user's systemMessage, never into the reason.
	Notes []string
}

// MaxFragment is how many characters of an offending fragment a reason quotes.
const MaxFragment = 120

// Closing is the sentence every blocking reason ends with: it tells the agent
// not to look for a way around the guard.
const Closing = "Do not try to run this another way; if the user wants it, ask them to run it themselves."

// Message is the reason text for the model and the transcript:
//
//	gemini-guard blocked <rule>: <what> (`<fragment>`). Safer: <safer>. <Closing>
//
// A zero Verdict gives "".
func (v Verdict) Message() string {
	if v.RuleID == "" && v.What == "" {
		return ""
	}
	var b strings.Builder
	b.WriteString("gemini-guard blocked ")
	if v.RuleID != "" {
		b.WriteString(v.RuleID)
		b.WriteString(": ")
	}
	b.WriteString(strings.TrimRight(v.What, ". "))
	if v.Fragment != "" {
		fmt.Fprintf(&b, " (`%s`)", Truncate(oneLine(v.Fragment), MaxFragment))
	}
	b.WriteString(".")
	if v.Safer != "" {
		b.WriteString(" Safer: ")
		b.WriteString(strings.TrimRight(v.Safer, ". "))
		b.WriteString(".")
	}
	b.WriteString(" ")
	b.WriteString(Closing)
	return b.String()
}

// Truncate shortens s to at most n runes, marking a cut with "…".
// It never splits a UTF-8 sequence.
func Truncate(s string, n int) string {
	if n <= 0 {
		return ""
	}
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i, count := 0, 0
	for i = range s {
		if count == n-1 {
			break
		}
		count++
	}
	return s[:i] + "…"
}

// oneLine folds newlines and tabs so a quoted fragment stays on one line.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// Mask returns a preview of a secret that is safe to show: up to four leading
// characters (fewer for short secrets, none under eight) and the length, for
// example `ghp_…(40 chars)`. It never reveals enough to rebuild the secret:
// at most a tenth of it, and never more than the well-known prefixes that
// identify a token's kind.
func Mask(secret string) string {
	n := utf8.RuneCountInString(secret)
	keep := 0
	switch {
	case n >= 40:
		keep = 4
	case n >= 20:
		keep = 2
	case n >= 10:
		keep = 1
	}
	prefix := ""
	if keep > 0 {
		prefix = string([]rune(secret)[:keep])
	}
	return fmt.Sprintf("%s…(%d chars)", prefix, n)
}

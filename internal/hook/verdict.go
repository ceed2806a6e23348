package hook

import "github.com/gemini-guard/gemini-guard/internal/verdict"

// FromVerdict turns a guard's verdict into a BeforeTool answer.
//
// Deny answers deny with v.Message() as the reason for the model and a short
// line for the user. With warnOnly (warn mode, for rollout) a Deny becomes an
// allow that tells the user what would have been blocked. Warn does the same
// in every mode. Allow gives {} plus v.Notes, if any, for the user. Rewrite
// is the guard's to build (it carries the new tool input): here it allows.
func FromVerdict(v verdict.Verdict, warnOnly bool) Output {
	notes := joinLines(v.Notes)
	switch {
	case v.Action == verdict.Deny && !warnOnly:
		return Deny(v.Message(), joinLines(append([]string{userLine("blocked", v)}, v.Notes...)))
	case v.Action == verdict.Deny || v.Action == verdict.Warn:
		return Allow(joinLines(append([]string{userLine("would have blocked (warn mode)", v)}, v.Notes...)))
	}
	return Allow(notes)
}

// userLine is the one line the user sees about a decision.
func userLine(verb string, v verdict.Verdict) string {
	s := "gemini-guard " + verb
	if v.RuleID != "" {
		s += " " + v.RuleID
	}
	if v.What != "" {
		s += ": " + v.What
	}
	return s
}

func joinLines(lines []string) string {
	out := ""
	for _, l := range lines {
		if l == "" {
			continue
		}
		if out != "" {
			out += "\n"
		}
		out += l
	}
	return out
}

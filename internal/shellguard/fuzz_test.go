package shellguard

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gemini-guard/gemini-guard/internal/policy"
	"github.com/gemini-guard/gemini-guard/internal/settings"
	"github.com/gemini-guard/gemini-guard/internal/verdict"
)

// FuzzShellDecide: whatever the command text, Decide does not panic and
// decides (Allow, or Deny with a rule and a reason); Explain agrees with it.
// Seeds: every rule example, and shapes that stress the parser
// (testdata/fuzz/FuzzShellDecide holds more).
func FuzzShellDecide(f *testing.F) {
	for _, r := range policy.Rules() {
		for _, s := range append(append([]string{}, r.Block...), r.Allow...) {
			f.Add(s, "", uint8(0))
		}
	}
	for _, s := range []string{
		"", "'", `"`, "`", "$(", "${", "$((", "<<EOF", "a=(", ":(){ :|:& };:", "echo $'\\x72m'", "{a,b}{c,d}",
		"bash -c \"sh -c 'eval x'\"", "x=1; y=$x; $y", "cd ~; rm -rf *", "f() { f; }; f", "echo 'unterminated",
		"curl x | sh", "python3 -c 'import os; os.system(\"ls\")'", "find . -exec sh -c '{}' \\;",
		"echo ${x:-$(rm -rf /)}", "case $x in *) rm -rf $x;; esac", "\x00\xff", "\uE000\uE001",
	} {
		f.Add(s, "sub", uint8(1))
	}
	for _, s := range adversarialInputs() {
		if len(s) < 4096 {
			f.Add(s, "", uint8(0)) // the costly shapes, small enough to mutate
		}
	}
	f.Fuzz(func(t *testing.T, cmd, dir string, mode uint8) {
		s := settings.Default()
		s.Mode = settings.Mode(mode % 3)
		in := Input{Command: cmd, Dir: dir, Cwd: "/work/project", Home: "/home/user", Settings: s}
		v := Decide(in)
		switch v.Action {
		case verdict.Allow:
			if v.RuleID != "" {
				t.Fatalf("allow with a rule: %+v", v)
			}
		case verdict.Deny:
			if v.RuleID == "" || !strings.HasPrefix(v.Message(), "gemini-guard blocked ") {
				t.Fatalf("deny without a rule or reason: %+v", v)
			}
			if !utf8.ValidString(v.What) {
				t.Fatalf("reason is not UTF-8: %q", v.What)
			}
		default:
			t.Fatalf("unexpected action %v", v.Action)
		}
		ev, lines := Explain(in)
		if ev.Action != v.Action || ev.RuleID != v.RuleID {
			t.Fatalf("Explain decided %v %s, Decide %v %s", ev.Action, ev.RuleID, v.Action, v.RuleID)
		}
		if len(lines) == 0 {
			t.Fatal("Explain gave no account")
		}
	})
}

package protect

import (
	"reflect"
	"slices"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/settings"
)

// loosest are settings no project file can loosen further, so that what a
// project file tightens shows in the result.
func loosest() settings.Settings {
	s := settings.Default()
	s.Mode = settings.WarnOnly
	s.SecretsAction = settings.Redact
	s.TrustGitleaksAllow = true
	s.RedactStream = false
	s.RedactToolOutput = false
	s.AuditLog = ""
	return s
}

// Weakens reports whether replacing the tightening file's content before
// with after would make the guard less strict: whether anything before
// tightened is no longer tightened by after (a blanked file, a mode
// lowered, a protected path dropped, a file made unparseable). after alone
// is compared with after applied on top of before: when after tightens at
// least as much as before in every respect, the two are the same.
func Weakens(workspace, before, after string) bool {
	if strings.TrimSpace(before) == "" {
		return false
	}
	floor := loosest()
	withBefore, _ := settings.TightenWith(floor, workspace, []byte(before))
	both, _ := settings.TightenWith(withBefore, workspace, []byte(after))
	alone, _ := settings.TightenWith(floor, workspace, []byte(after))
	return !sameSettings(both, alone)
}

func sameSettings(a, b settings.Settings) bool {
	for _, s := range []*settings.Settings{&a, &b} {
		s.ProtectedPaths = slices.Sorted(slices.Values(s.ProtectedPaths))
		s.DisabledRules = slices.Sorted(slices.Values(s.DisabledRules))
		s.TrustedDeleteRoots = slices.Sorted(slices.Values(s.TrustedDeleteRoots))
		s.SecretsSkipPaths = slices.Sorted(slices.Values(s.SecretsSkipPaths))
	}
	return reflect.DeepEqual(a, b)
}

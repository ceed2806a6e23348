// Package hookcall is what a guard hook starts each call with besides its
// input: the settings in force in the call's workspace and the audit log
// they name. shellguard, secretguard and redactguard share it, so every
// hook reads its settings and records its decisions the same way.
package hookcall

import (
	"github.com/gemini-guard/gemini-guard/internal/audit"
	"github.com/gemini-guard/gemini-guard/internal/hook"
	"github.com/gemini-guard/gemini-guard/internal/settings"
)

// Call is one hook call's settings and audit log.
type Call struct {
	// Settings are the extension's settings, tightened by the workspace's
	// project file.
	Settings settings.Settings
	getenv   func(string) string
	entry    audit.Entry
}

// Load reads the settings for a call of event to guard (shell, secrets,
// redact) in the workspace in.Cwd. Warnings about the settings are left
// out: the session-start hook shows them once per session.
func Load(getenv func(string) string, event hook.Event, guard string, in hook.Base) Call {
	s, _ := settings.Load(getenv)
	s, _ = settings.ApplyProject(s, in.Cwd)
	return Call{Settings: s, getenv: getenv, entry: audit.Entry{
		Session: in.SessionID, Hook: string(event), Guard: guard, Mode: s.Mode.String(), Cwd: in.Cwd,
	}}
}

// WarnOnly reports whether the guard only warns (mode warn).
func (c Call) WarnOnly() bool { return c.Settings.Mode == settings.WarnOnly }

// Entry is the call's audit entry for tool ("" when there is none), for the
// caller to complete with the decision, rules and preview.
func (c Call) Entry(tool string) audit.Entry {
	e := c.entry
	e.Tool = tool
	return e
}

// Record appends e to the audit log when the settings turn it on.
func (c Call) Record(e audit.Entry) {
	if path := audit.Path(c.Settings, c.getenv); path != "" {
		audit.Record(path, e)
	}
}

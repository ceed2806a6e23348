package known

import (
	"os"
	"slices"

	"github.com/gemini-guard/gemini-guard/internal/state"
)

// Sources are where a hook call finds known values.
type Sources struct {
	// Environ is the hook process's environment (os.Environ).
	Environ []string
	// Home is the user's home directory and Cwd the workspace ("": none).
	Home, Cwd string
	// StateDir is the private state directory (state.Dir; "": no learnt
	// values) and SessionID the session whose learnt values apply.
	StateDir, SessionID string
	// DisabledRules are the Disabled rules setting: RuleID in it switches
	// the known values off.
	DisabledRules []string
}

// Load is the Set of one hook call: the environment's values, the files'
// values and the session's learnt values. Whatever cannot be read is left
// out (a missing state directory means no learnt values and nothing
// learnt). nil when the Disabled rules setting lists RuleID.
func Load(src Sources) *Set {
	if slices.Contains(src.DisabledRules, RuleID) {
		return nil
	}
	var st *state.Store
	var key Key
	// Something other than a directory in the state directory's place is
	// left for the hook's own state (the stream's record, BeforeModel's)
	// to move aside and tell the user about: repaired here, silently, the
	// user would never hear of it.
	if src.StateDir != "" && !notADirectory(src.StateDir) {
		if s, err := state.Open(src.StateDir); err == nil {
			if k, err := UserKey(s); err == nil {
				st, key = s, k
			}
		}
	}
	set := NewSet(key)
	set.store, set.sessionID = st, src.SessionID
	// Files first: Gemini CLI loads the workspace's .env into its
	// environment, and a value is named by the first source that has it;
	// ".env (DB_PASSWORD)" says where it lives better than "$DB_PASSWORD".
	for _, v := range FromFiles(src.Cwd, src.Home) {
		set.Add(v)
	}
	for _, v := range FromEnviron(src.Environ) {
		set.Add(v)
	}
	if st != nil && src.SessionID != "" {
		for _, h := range Learnt(st, src.SessionID) {
			set.AddHashed(h)
		}
	}
	return set
}

// Learn keeps values (secrets a rule found in a tool's output) as keyed
// hashes in the session's record, so that later hook calls of the session
// know them; it adds them to s too. Without a state directory or session
// it does nothing.
func (s *Set) Learn(values []Value) error {
	if s == nil {
		return nil
	}
	for _, v := range values {
		s.Add(v)
	}
	if s.store == nil || s.sessionID == "" {
		return nil
	}
	return Learn(s.store, s.key, s.sessionID, values)
}

// notADirectory reports whether something other than a directory stands
// at dir (a missing one is made by state.Open).
func notADirectory(dir string) bool {
	info, err := os.Lstat(dir)
	return err == nil && !info.IsDir()
}

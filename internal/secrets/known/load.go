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
	set := &Set{}
	// The user's key is read only when the session has learnt forms
	// (hashed under it); otherwise the tags of the clear forms use the
	// zero key, and Fingerprint or Learn read the user's key if they need
	// it. Something other than a directory in the state directory's place
	// is left for the hook's own state (the stream's record, BeforeModel's)
	// to move aside and tell the user about: repaired here, silently, the
	// user would never hear of it.
	if src.StateDir != "" && !notADirectory(src.StateDir) {
		if st, err := state.Open(src.StateDir); err == nil {
			set.store, set.sessionID = st, src.SessionID
			var learnt []Hashed
			if src.SessionID != "" {
				learnt = Learnt(st, src.SessionID)
			}
			if len(learnt) > 0 {
				if k, err := UserKey(st); err == nil {
					set.key, set.user, set.userKnown = k, k, true
					for _, h := range learnt {
						set.AddHashed(h)
					}
				}
			}
		}
	}
	// Files first: Gemini CLI loads the workspace's .env into its
	// environment, and a value is named by the first source that has it;
	// ".env (DB_PASSWORD)" says where it lives better than "$DB_PASSWORD".
	files, env := FromFiles(src.Cwd, src.Home), FromEnviron(src.Environ)
	set.entries = slices.Grow(set.entries, len(files)+len(env)) // the values; their forms when built
	set.origins = slices.Grow(set.origins, len(files)+len(env))
	for _, v := range files {
		set.Add(v)
	}
	for _, v := range env {
		set.Add(v)
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
	return Learn(s.store, s.userKey(), s.sessionID, values)
}

// notADirectory reports whether something other than a directory stands
// at dir (a missing one is made by state.Open).
func notADirectory(dir string) bool {
	info, err := os.Lstat(dir)
	return err == nil && !info.IsDir()
}

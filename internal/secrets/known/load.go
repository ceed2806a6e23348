package known

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

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
// values and the session's learnt values. A file that cannot be read is
// left out; a state directory that cannot hold or give back the learnt
// values is the set's Fault, which the hooks fail closed on. nil when the
// Disabled rules setting lists RuleID.
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
	if src.StateDir != "" {
		set.fault = set.openStore(src.StateDir, src.SessionID)
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

// openStore opens the state directory for the session's learnt values
// and reads them, or says why it cannot: then a value found in one tool
// output would not be known in the next (or one learnt earlier is
// already lost), which is a fault, not an empty record. Something other
// than a directory in the directory's place, or in the record's, is put
// right by the store (moved aside, removed); the session's record then
// says it was lost (markLost), so every later call of the session fails
// closed too, not only the one that saw it.
func (s *Set) openStore(dir, sessionID string) error {
	st, err := state.Open(dir) // moves aside what is not a directory (st.Repaired)
	if err != nil {
		return fmt.Errorf("%w: %w", errCannotRecord, err)
	}
	if err := st.Writable(); err != nil {
		return fmt.Errorf("%w: %w", errCannotRecord, err)
	}
	s.store, s.sessionID = st, sessionID
	if sessionID == "" {
		return nil
	}
	learnt, check, err := Learnt(st, sessionID)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrLearntLost, err)
	}
	if len(st.Repaired) > 0 {
		// The directory or the record was something else and was put
		// right: what the session learnt went with it.
		markLost(st, sessionID)
		return fmt.Errorf("%w: %s", ErrLearntLost, strings.Join(st.Repaired, " "))
	}
	if check == lostCheck {
		return fmt.Errorf("%w: the state directory lost the session's record earlier", ErrLearntLost)
	}
	if len(learnt) == 0 {
		return nil
	}
	// The user's key is read only when the session has learnt forms
	// (hashed under it); otherwise the tags of the clear forms use the
	// zero key, and Fingerprint or Learn read the user's key if they need
	// it.
	k, err := UserKey(st)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrLearntLost, err)
	}
	if check != 0 && check != keyCheck(k) { // 0: a record of an earlier version, without the line
		return fmt.Errorf("%w: the key they were recorded under was replaced", ErrLearntLost)
	}
	s.key, s.user, s.userKnown = k, k, true
	for _, h := range learnt {
		s.AddHashed(h)
	}
	return nil
}

// ErrLearntLost is a Fault under which the values the session learnt
// from tool output are lost (the record or the user's key cannot be read,
// the state directory is gone): a write or an answer may hold one no check
// would see. errCannotRecord is one under which what is found from now on
// cannot be kept.
var (
	ErrLearntLost   = errors.New("the secrets gemini-guard learnt from tool output this session cannot be read")
	errCannotRecord = errors.New("the secrets gemini-guard finds in tool output cannot be recorded")
)

// Fault says why the set cannot keep or give back the values the session
// learnt from tool output (the state directory is not a directory, cannot
// be opened or written, the record or the user's key is damaged), or nil.
// The hooks fail closed on it: the stream and tool output are withheld and
// the secrets guard denies what it checks, each telling the user why.
func (s *Set) Fault() error {
	if s == nil {
		return nil
	}
	return s.fault
}

// Learn keeps values (secrets a rule found in a tool's output) as keyed
// hashes in the session's record, so that later hook calls of the session
// know them; it adds them to s too. Without a state directory or session
// it does nothing; with one it cannot write to (Fault, the user's key, the
// record), it says so: the values would be lost for the rest of the
// session.
func (s *Set) Learn(values []Value) error {
	if s == nil || len(values) == 0 {
		return nil
	}
	for _, v := range values {
		s.Add(v)
	}
	if s.fault != nil {
		return s.fault
	}
	if s.store == nil || s.sessionID == "" {
		return nil
	}
	key, err := s.userKey()
	if err != nil {
		return fmt.Errorf("%w: %w", errCannotRecord, err)
	}
	if err := Learn(s.store, key, s.sessionID, values); err != nil {
		return fmt.Errorf("%w: %w", errCannotRecord, err)
	}
	return nil
}

// notADirectory reports whether something other than a directory stands
// at dir (a missing one is made by state.Open).
func notADirectory(dir string) bool {
	info, err := os.Lstat(dir)
	return err == nil && !info.IsDir()
}

// StoreFault says why the state directory dir cannot keep the values the
// hooks learn from tool output (not a directory, cannot be opened or
// written, the user's key file damaged), or nil. For session start and
// doctor; it makes the key file when there is none, as the first Learn
// would.
func StoreFault(dir string) error {
	if notADirectory(dir) {
		return fmt.Errorf("its state directory %s is not a directory", dir)
	}
	st, err := state.Open(dir)
	if err != nil {
		return err
	}
	if err := st.Writable(); err != nil {
		return err
	}
	if _, err := UserKey(st); err != nil {
		return err
	}
	return nil
}

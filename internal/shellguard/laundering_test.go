package shellguard_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestOwnWorkNotLaundered: the user's work set aside or hidden from git
// during the session never becomes the agent's own (issue #38): a stash,
// an index flag, a stash checked out, a rename onto the agent's file,
// and rm of a tracked file holding the user's changes.
func TestOwnWorkNotLaundered(t *testing.T) {
	t.Run("stash, write the same bytes, checkout, drop", func(t *testing.T) {
		r := newOwnRepo(t)
		r.write("notes.txt", "the user's line\n")
		d, reason := r.shell(`git stash`)
		assert.NotEqual(t, "deny", d, reason)
		r.agentWrites("notes.txt", "the user's line\n")
		d, _ = r.shell(`git checkout notes.txt`)
		assert.Equal(t, "deny", d, "the file was set aside as the user's")
		d, _ = r.shell(`git stash drop`)
		assert.Equal(t, "deny", d, "the stash holds the user's work")
	})
	t.Run("index flag set during the session", func(t *testing.T) {
		r := newOwnRepo(t)
		r.write("notes.txt", "the user's line\n")
		d, reason := r.shell(`git update-index --assume-unchanged notes.txt`)
		assert.NotEqual(t, "deny", d, reason)
		r.agentWrites("notes.txt", "the agent's line\n")
		d, _ = r.shell(`git checkout notes.txt`)
		assert.Equal(t, "deny", d)
	})
	t.Run("index flag set before the session", func(t *testing.T) {
		r := newOwnRepo(t)
		r.write("notes.txt", "the user's line\n")
		r.git("update-index", "--assume-unchanged", "notes.txt")
		r.agentWrites("notes.txt", "the agent's line\n")
		d, _ := r.shell(`git checkout -- notes.txt`)
		assert.Equal(t, "deny", d, "git status hid the user's change at the first touch")
	})
	t.Run("a stash checked out", func(t *testing.T) {
		r := newOwnRepo(t)
		r.write("notes.txt", "the user's line\n")
		r.git("stash")
		r.agentWrites("main.go", "package main // the agent's\n") // the session has a record
		d, reason := r.shell(`git checkout stash@{0} -- notes.txt`)
		assert.NotEqual(t, "deny", d, reason)
		d, _ = r.shell(`git stash drop`)
		assert.Equal(t, "deny", d)
		d, _ = r.shell(`git checkout HEAD -- notes.txt`)
		assert.Equal(t, "deny", d, "the stash's content, the user's, is in the index and the work tree")
	})
	t.Run("rm of a tracked file with the user's changes", func(t *testing.T) {
		r := newOwnRepo(t)
		r.write("notes.txt", "the user's line\n")
		d, _ := r.shell(`rm notes.txt`)
		assert.Equal(t, "deny", d)
		d, _ = r.shell(`rm -f main.go`)
		assert.NotEqual(t, "deny", d, "a clean tracked file: git has it")
		r.agentWrites("lib/util.go", "package lib // the agent's\n")
		d, _ = r.shell(`rm lib/util.go`)
		assert.NotEqual(t, "deny", d, "the agent's own change")
	})
	t.Run("a user file renamed onto the agent's", func(t *testing.T) {
		r := newOwnRepo(t)
		r.agentWrites("draft.txt", "the agent's draft\n")
		r.write("mine.txt", "the user's own notes\n")
		d, reason := r.shell(`mv mine.txt draft.txt`)
		assert.NotEqual(t, "deny", d, reason)
		d, _ = r.shell(`git clean -f draft.txt`)
		assert.Equal(t, "deny", d, "draft.txt now holds the user's bytes")
	})
}

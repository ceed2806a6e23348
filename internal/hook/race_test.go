//go:build race

package hook

// raceEnabled: the race detector's shadow memory counts in a process's
// resident size but not in the Go runtime's own accounting.
const raceEnabled = true

package bundle

import "time"

// Timeouts maps each hook's name to its timeout: how long Gemini CLI waits
// for it before it lets the action through.
func (f HooksFile) Timeouts() map[string]time.Duration {
	out := map[string]time.Duration{}
	for _, groups := range f.Hooks {
		for _, g := range groups {
			for _, h := range g.Hooks {
				out[h.Name] = time.Duration(h.Timeout) * time.Millisecond
			}
		}
	}
	return out
}

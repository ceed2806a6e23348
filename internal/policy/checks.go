package policy

// hitIf is a hit saying what() when cond holds.
func hitIf(cond bool, what func() string) Finding {
	if cond {
		return hit(what())
	}
	return Finding{}
}

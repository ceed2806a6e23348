//go:build !unix

package e2e

// lockFile does not lock where flock is missing: parallel first installs of
// the CLI may then race, which npm survives by reinstalling.
func lockFile(path string) (unlock func(), err error) {
	return func() {}, nil
}

//go:build !linux && !darwin

package server

import "errors"

// serve: no daemon here (the client scans with one-shot processes).
func serve(config) error {
	return errors.New("serve is not supported on this system; use scan")
}

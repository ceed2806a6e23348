package main

import (
	"github.com/gemini-guard/gemini-guard/internal/scanner/server"
	"github.com/gemini-guard/gemini-guard/internal/secrets"
	"github.com/gemini-guard/gemini-guard/internal/secrets/detector"
)

// build builds the scanner's detector: gitleaks' own, with the built-in
// rules and the user's config (internal/secrets/detector).
func build(opts secrets.Options) (server.Detector, error) {
	d, err := detector.New(opts)
	if err != nil {
		return nil, err // a nil interface, not a typed nil *Detector
	}
	return d, nil
}

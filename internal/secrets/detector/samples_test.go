package detector_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gemini-guard/gemini-guard/internal/secrets/secrettest"
)

// TestRuleSamples: every content rule of the built-in set has a generated
// sample the detector finds (the other packages' tests rely on them).
func TestRuleSamples(t *testing.T) {
	samples, missing := secrettest.RuleSamples()
	assert.Empty(t, missing, "rules without a generated sample")
	assert.Greater(t, len(samples), 200)
}

package detector

import (
	"github.com/pelletier/go-toml/v2"
	"github.com/zricethezav/gitleaks/v8/report"

	"github.com/gemini-guard/gemini-guard/internal/secrets"
)

// NewFromConfig builds a detector for cfg alone (no built-in rules added),
// loaded as New loads the built-in rules: through secrets.Config, TOML and
// gitleaks' ViperConfig.
func NewFromConfig(cfg *secrets.Config, trust bool) (*Detector, error) {
	text, err := toml.Marshal(cfg)
	if err != nil {
		return nil, err
	}
	vc, err := viperConfig(text)
	if err != nil {
		return nil, err
	}
	c, err := vc.Translate()
	if err != nil {
		return nil, err
	}
	return build(c, secrets.Options{TrustAllowComments: trust}), nil
}

// Raw is gitleaks' own findings for text.
func (d *Detector) Raw(text string) []report.Finding { return d.d.DetectString(text) }

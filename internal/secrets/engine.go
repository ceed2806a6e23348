package secrets

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/pelletier/go-toml/v2"
	"github.com/rs/zerolog"
	"github.com/zricethezav/gitleaks/v8/config"
	"github.com/zricethezav/gitleaks/v8/detect"
	"github.com/zricethezav/gitleaks/v8/logging"
	"github.com/zricethezav/gitleaks/v8/report"
)

// defaultTOML is gitleaks' embedded default config.
func defaultTOML() string { return config.DefaultConfig }

// muteGitleaks silences gitleaks' package logger, which writes to stderr
// (in a hook, stray stderr can become the answer).
var muteGitleaks = sync.OnceFunc(func() { logging.Logger = zerolog.Nop() })

// engine runs gitleaks' detector.
type engine struct {
	det *detect.Detector
	ids []string
}

func newEngine(cfg *Config, opts Options) (e engine, err error) {
	muteGitleaks()
	data, err := toml.Marshal(cfg)
	if err != nil {
		return engine{}, fmt.Errorf("secrets: %w", err)
	}
	var vc config.ViperConfig
	if err := toml.Unmarshal(data, &vc); err != nil {
		return engine{}, fmt.Errorf("secrets: %w", err)
	}
	defer func() {
		// Translate compiles with MustCompile: a bad user regexp panics.
		if p := recover(); p != nil {
			err = fmt.Errorf("secrets: gitleaks config: %v", p)
		}
	}()
	c, err := vc.Translate()
	if err != nil {
		return engine{}, fmt.Errorf("secrets: gitleaks config: %w", err)
	}
	d := detect.NewDetector(c)
	d.MaxDecodeDepth = MaxDecodeDepth
	d.IgnoreGitleaksAllow = !opts.TrustAllowComments
	for id := range c.Rules {
		e.ids = append(e.ids, id)
	}
	sort.Strings(e.ids)
	e.det = d
	return e, nil
}

func (e engine) ruleIDs() []string { return append([]string(nil), e.ids...) }

func (e engine) detect(text string) []Finding {
	var out []Finding
	lines := newLineIndex(text)
	for _, f := range e.det.DetectString(text) {
		out = append(out, fromGitleaks(text, lines, f))
	}
	return out
}

// fromGitleaks turns a gitleaks finding into a byte range in text. gitleaks
// reports 0-based lines and byte columns with an off-by-one on every line
// after the first (upstream issue #1424); decoded findings hold the decoded
// Match but the encoded span's position.
func fromGitleaks(text string, lines lineIndex, f report.Finding) Finding {
	base := func(line int) int {
		if line <= 0 || line > len(lines) {
			return 0
		}
		return lines[line-1]
	}
	start := base(f.StartLine) + f.StartColumn - 1
	end := base(f.EndLine) + f.EndColumn
	decoded := false
	for _, t := range f.Tags {
		if strings.HasPrefix(t, "decoded:") {
			decoded = true
		}
	}
	out := Finding{RuleID: f.RuleID, Description: f.Description, Secret: f.Secret, Decoded: decoded}
	ok := 0 <= start && start <= end && end <= len(text)
	switch {
	case ok && decoded:
		out.Start, out.End = start, end
	case ok && text[start:end] == f.Match:
		out.Start, out.End = start, end
		if i := strings.Index(f.Match, f.Secret); i >= 0 && f.Secret != "" {
			out.Start, out.End = start+i, start+i+len(f.Secret)
		}
	default:
		if i := strings.Index(text, f.Secret); i >= 0 && f.Secret != "" {
			out.Start, out.End = i, i+len(f.Secret)
		} else if i := strings.Index(text, f.Match); i >= 0 && f.Match != "" {
			out.Start, out.End = i, i+len(f.Match)
		} else {
			out.Start, out.End = 0, len(text)
		}
	}
	out.Line = lines.line(out.Start)
	return out
}

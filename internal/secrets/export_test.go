package secrets

// GitleaksFinding is a finding in gitleaks' own terms (report.Finding's
// fields that DetectString fills), for comparing with gitleaks.
type GitleaksFinding struct {
	RuleID                                     string
	StartLine, EndLine, StartColumn, EndColumn int
	Line, Match, Secret                        string
	Tags                                       []string
	Entropy                                    float32
}

// DetectGitleaks runs s's engine and reports findings as gitleaks would.
func DetectGitleaks(s *Scanner, text string) []GitleaksFinding {
	var out []GitleaksFinding
	for _, f := range s.engine.detectRaw(text) {
		out = append(out, GitleaksFinding{
			RuleID: f.RuleID, StartLine: f.StartLine, EndLine: f.EndLine, StartColumn: f.StartColumn, EndColumn: f.EndColumn,
			Line: f.Line, Match: f.Match, Secret: f.Secret, Tags: f.Tags, Entropy: f.Entropy,
		})
	}
	return out
}

// NewScannerForConfig builds a scanner for cfg as it is (no built-in rules
// added), compiling every regexp up front.
func NewScannerForConfig(cfg *Config, trust bool) (*Scanner, error) {
	validate := map[string]bool{}
	for _, r := range cfg.Rules {
		validate[r.ID] = true
	}
	e, err := newEngine(cfg, Options{TrustAllowComments: trust}, validate)
	if err != nil {
		return nil, err
	}
	return &Scanner{engine: e}, nil
}

// NewColdScanner is a scanner of the built-in rules with nothing compiled
// yet, as a hook process starts.
func NewColdScanner() *Scanner {
	e, err := newEngine(builtin, Options{}, nil)
	if err != nil {
		panic(err)
	}
	return &Scanner{engine: e}
}

// NewEngineForBench builds (and discards) the built-in engine.
func NewEngineForBench() {
	if _, err := newEngine(builtin, Options{}, nil); err != nil {
		panic(err)
	}
}

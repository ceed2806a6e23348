package shellguard

import (
	"testing"

	"github.com/gemini-guard/gemini-guard/internal/settings"
	"github.com/gemini-guard/gemini-guard/internal/shell"
)

// typical are commands an agent runs all day.
var typical = map[string]string{
	"ls":       `ls -la`,
	"git":      `git status && git diff --stat`,
	"build":    `cd web && npm ci && npm run build 2>&1 | tail -n 20`,
	"cleanup":  `rm -rf build dist node_modules/.cache`,
	"grep":     `grep -rn "TODO" src/ | head -50`,
	"python":   `python3 -c "import json,sys; print(json.load(open('package.json'))['version'])"`,
	"heredoc":  "cat > notes.md <<'EOF'\n# Notes\n\nrm -rf is mentioned here, not run.\nEOF",
	"nested":   `sudo env X=1 bash -c 'cd /tmp && rm -rf build'`,
	"deny":     `git reset --hard HEAD~1`,
	"pipeline": `find . -name '*.go' -not -path './vendor/*' | xargs grep -l 'func main' | sort | uniq -c`,
}

func BenchmarkDecide(b *testing.B) {
	in := Input{Cwd: "/work/project", Home: "/home/user", Settings: settings.Default()}
	Decide(in) // compile the policy outside the timing
	for name, cmd := range typical {
		b.Run(name, func(b *testing.B) {
			in := in
			in.Command = cmd
			b.ReportAllocs()
			for b.Loop() {
				Decide(in)
			}
		})
	}
}

func BenchmarkAnalyze(b *testing.B) {
	for name, cmd := range typical {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				shell.Analyze(cmd, shell.Options{Dir: "/work/project", Home: "/home/user"})
			}
		})
	}
}

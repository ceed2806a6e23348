package effects

import "github.com/gemini-guard/gemini-guard/internal/shell"

// guardCLIOpts are the options of gemini-guard's agy subcommands (Go
// flags: -workspace DIR, --bin=DIR).
var guardCLIOpts = shell.OptSpec{SingleDash: true, Long: []string{"workspace=", "bin=", "project=?"}}

// guardCLIWrites are the files gemini-guard's own command writes:
// agy install and uninstall rewrite Antigravity CLI's hooks.json
// (~/.gemini/config/hooks.json, or DIR/.agents/hooks.json with
// -workspace DIR), with its previous content kept beside it; agy
// status, doctor, check and the others only read.
func guardCLIWrites(name string, args []string) []string {
	if name != "gemini-guard" {
		return nil
	}
	p := shell.ParseArgs(args, &guardCLIOpts)
	ops := p.Operands
	if len(ops) >= 2 && ops[0] == "codex" {
		return codexCLIWrites(ops[1], p.Opts)
	}
	// A subcommand known only at run time (echo uninstall | xargs
	// gemini-guard agy) may be either.
	if len(ops) < 2 || ops[0] != "agy" || ops[1] != "install" && ops[1] != "uninstall" && shell.Known(ops[1]) {
		return nil
	}
	for _, o := range p.Opts {
		if o.Name == "workspace" && o.HasValue {
			return []string{o.Value + "/.agents/hooks.json"}
		}
	}
	return []string{"~/.gemini/config/hooks.json"}
}

package effects

import "github.com/gemini-guard/gemini-guard/internal/shell"

// codexCLIWrites are the files `gemini-guard codex install|uninstall`
// writes: Codex CLI's hooks.json (~/.codex/hooks.json, or ./.codex/hooks.json
// with --project) and the user's ~/.codex/config.toml, where the hooks'
// trust is kept. (A CODEX_HOME elsewhere is not known here.) status and a
// subcommand known only at run time as one of these are judged alike.
func codexCLIWrites(sub string, opts []shell.Opt) []string {
	if sub != "install" && sub != "uninstall" && shell.Known(sub) {
		return nil
	}
	hooks := "~/.codex/hooks.json"
	for _, o := range opts {
		if o.Name == "project" && (!o.HasValue || o.Value != "false") {
			hooks = ".codex/hooks.json"
		}
	}
	return []string{hooks, "~/.codex/config.toml"}
}

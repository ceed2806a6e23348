package bundle

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/jsonenc"
)

// QwenManifest is the name of Qwen Code's extension manifest. Gemini CLI
// ignores it; Qwen Code reads it instead of gemini-extension.json and takes
// its hooks inline from it.
const QwenManifest = "qwen-extension.json"

// qwenEvents maps the Gemini CLI events of hooks.json to Qwen Code's
// (Claude-Code style) names. AfterModel has no counterpart: Qwen Code's
// hooks cannot change the streamed answer, so stream redaction is left
// out there (and said so at session start, see internal/hook).
var qwenEvents = map[string]string{
	"SessionStart": "SessionStart",
	"BeforeTool":   "PreToolUse",
	"AfterTool":    "PostToolUse",
}

// qwenTools maps Gemini CLI tool names in matchers to Qwen Code's.
var qwenTools = strings.NewReplacer("|replace|", "|edit|", "(replace|", "(edit|", "|replace)", "|edit)", "^replace$", "^edit$")

// QwenManifestFrom builds qwen-extension.json from gemini-extension.json
// and hooks/hooks.json, so that the two CLIs run the same programs with the
// same settings: the manifest's fields are kept, and the hooks go inline
// under Qwen Code's event names, with `replace` in a matcher read as Qwen's
// `edit` and timeouts in seconds (Qwen Code reads milliseconds only with a
// warning). The guards translate the call itself (internal/hook).
func QwenManifestFrom(geminiManifest, hooksJSON []byte) ([]byte, error) {
	var manifest map[string]json.RawMessage
	if err := json.Unmarshal(geminiManifest, &manifest); err != nil {
		return nil, fmt.Errorf("bundle: gemini-extension.json: %w", err)
	}
	hf, err := ParseHooks(hooksJSON)
	if err != nil {
		return nil, err
	}
	hooks := map[string][]HookGroup{}
	for event, groups := range hf.Hooks {
		qe, ok := qwenEvents[event]
		if !ok {
			continue
		}
		for _, g := range groups {
			g.Matcher = qwenTools.Replace(g.Matcher)
			defs := make([]HookDef, len(g.Hooks))
			for i, h := range g.Hooks {
				h.Timeout = (h.Timeout + 999) / 1000
				defs[i] = h
			}
			g.Hooks = defs
			hooks[qe] = append(hooks[qe], g)
		}
	}
	// Commands hold && and >: keep them readable.
	raw, err := jsonenc.Marshal(hooks)
	if err != nil {
		return nil, fmt.Errorf("bundle: %w", err)
	}
	manifest["hooks"] = raw
	// Keys in a fixed order, the manifest's own first, as a person would
	// write the file.
	var buf bytes.Buffer
	buf.WriteString("{\n")
	keys := []string{"name", "version", "description", "contextFileName", "settings", "hooks"}
	for _, k := range slices.Sorted(maps.Keys(manifest)) {
		if !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	first := true
	for _, k := range keys {
		v, ok := manifest[k]
		if !ok {
			continue
		}
		if !first {
			buf.WriteString(",\n")
		}
		first = false
		var ind bytes.Buffer
		if err := json.Indent(&ind, v, "  ", "  "); err != nil {
			return nil, fmt.Errorf("bundle: %s: %w", k, err)
		}
		fmt.Fprintf(&buf, "  %q: %s", k, ind.String())
	}
	buf.WriteString("\n}\n")
	return buf.Bytes(), nil
}

// writeQwenManifest writes dir/qwen-extension.json from dir's Gemini CLI
// manifest and hooks (QwenManifestFrom).
func writeQwenManifest(dir string) error {
	manifest, err := os.ReadFile(filepath.Join(dir, "gemini-extension.json"))
	if err != nil {
		return fmt.Errorf("bundle: %w", err)
	}
	hooks, err := os.ReadFile(filepath.Join(dir, "hooks", "hooks.json"))
	if err != nil {
		return fmt.Errorf("bundle: %w", err)
	}
	q, err := QwenManifestFrom(manifest, hooks)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, QwenManifest), q, 0o644); err != nil {
		return fmt.Errorf("bundle: %w", err)
	}
	return nil
}

package shellguard

import (
	"encoding/json"
	"errors"

	"github.com/gemini-guard/gemini-guard/internal/hook"
)

// patchCommand is the shell command that does what a Codex apply_patch
// (hook.PatchInput) does beyond writing files: `rm -- PATH` for each file
// it deletes, `mv -- FROM TO` for each it moves; "" when it only adds and
// edits files.
func patchCommand(raw json.RawMessage) (string, error) {
	var pi hook.PatchInput
	if len(raw) == 0 || json.Unmarshal(raw, &pi) != nil || len(pi.Files) == 0 {
		return "", &hook.InputError{Err: errors.New("apply_patch input is not a patch")}
	}
	return hook.PatchShellCommand(pi.Files), nil
}

// embeddedCommand is command with the shell commands of the patches a
// Codex shell command carries (hook.EmbeddedPatch) after it: Codex applies
// them itself, so their deletes and moves are judged with the command.
func embeddedCommand(command string, raw json.RawMessage) string {
	var in struct {
		Patch *hook.PatchInput `json:"codex_patch"`
	}
	if json.Unmarshal(raw, &in) != nil || in.Patch == nil {
		return command
	}
	if c := hook.PatchShellCommand(in.Patch.Files); c != "" {
		return command + "\n" + c
	}
	return command
}

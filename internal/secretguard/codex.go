package secretguard

import (
	"encoding/json"
	"errors"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/hook"
)

// answerPatch judges Codex's apply_patch (hook.PatchInput) file by file,
// as Gemini CLI's own calls that do the same are judged: an added file is
// a write_file, an update's hunks a multi_replace of that file, a deleted
// file `rm -- PATH` and a moved one `mv -- FROM TO` (the protected-object
// checks of a command). The first call denied denies the patch.
func answerPatch(in hook.BeforeToolInput, e HookEnv) (hook.Output, error) {
	var pi hook.PatchInput
	if len(in.ToolInput) == 0 || json.Unmarshal(in.ToolInput, &pi) != nil || len(pi.Files) == 0 {
		return hook.Output{}, &hook.InputError{Err: errors.New("apply_patch input is not a patch")}
	}
	var notes []string
	for _, f := range pi.Files {
		for _, c := range patchCalls(f) {
			sub := in
			sub.ToolName, sub.ToolInput, sub.HostToolName = c.tool, c.input, hook.CodexApplyPatch
			out, err := answer(sub, e)
			if err != nil {
				return out, err
			}
			if out.Decision == "deny" || out.Specific != nil && len(out.Specific.ToolInput) > 0 {
				return out, nil
			}
			if out.SystemMessage != "" {
				notes = append(notes, out.SystemMessage)
			}
		}
	}
	return hook.Allow(strings.Join(notes, "\n")), nil
}

// embeddedPatchAnswer judges the patches a Codex shell command carries
// (hook.EmbeddedPatch) once the command itself is allowed: Codex applies
// them itself. ok is false when the call carries none.
func embeddedPatchAnswer(in hook.BeforeToolInput, e HookEnv) (out hook.Output, ok bool, err error) {
	var args struct {
		Patch json.RawMessage `json:"codex_patch"`
	}
	if in.Host != hook.Codex || in.ToolName != Shell || json.Unmarshal(in.ToolInput, &args) != nil || len(args.Patch) == 0 {
		return hook.Output{}, false, nil
	}
	sub := in
	sub.ToolName, sub.ToolInput = hook.ApplyPatch, args.Patch
	out, err = answerPatch(sub, e)
	return out, true, err
}

// patchCall is one call of the guards' tools a patch's file stands for.
type patchCall struct {
	tool  string
	input json.RawMessage
}

func patchCalls(f hook.PatchFile) []patchCall {
	call := func(tool string, v any) patchCall {
		b, _ := json.Marshal(v)
		return patchCall{tool, b}
	}
	var out []patchCall
	switch f.Op {
	case hook.PatchAdd:
		out = append(out, call(WriteFile, writeInput{FilePath: f.Path, Content: f.Content}))
	case hook.PatchUpdate:
		if len(f.Edits) > 0 {
			edits := make([]map[string]string, 0, len(f.Edits))
			for _, ed := range f.Edits {
				edits = append(edits, map[string]string{"old_string": ed.OldString, "new_string": ed.NewString})
			}
			out = append(out, call(MultiReplace, map[string]any{"file_path": f.Path, "edits": edits}))
		}
	}
	if c := hook.PatchShellCommand([]hook.PatchFile{f}); c != "" {
		out = append(out, call(Shell, shellInput{Command: c}))
	}
	return out
}

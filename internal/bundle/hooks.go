package bundle

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/jsonenc"
	"github.com/gemini-guard/gemini-guard/internal/lazyregexp"
)

// HooksFile is hooks/hooks.json as gemini-guard writes it. Decoding rejects
// fields it does not know, so a new field in hooks.json cannot be silently
// dropped from the Windows variant.
type HooksFile struct {
	Hooks map[string][]HookGroup `json:"hooks"`
}

// HookGroup is one matcher and the hooks it runs.
type HookGroup struct {
	Matcher    string    `json:"matcher,omitempty"`
	Sequential *bool     `json:"sequential,omitempty"`
	Hooks      []HookDef `json:"hooks"`
}

// HookDef is one command hook.
type HookDef struct {
	Name        string `json:"name"`
	Type        string `json:"type"`
	Command     string `json:"command"`
	Timeout     int    `json:"timeout,omitempty"`
	Description string `json:"description,omitempty"`
}

// ParseHooks decodes hooks.json strictly.
func ParseHooks(data []byte) (HooksFile, error) {
	var f HooksFile
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return HooksFile{}, fmt.Errorf("bundle: hooks.json: %w", err)
	}
	return f, nil
}

// Command is a hooks.json command in the one shape gemini-guard uses:
//
//	b='${extensionPath}${/}bin${/}<Binary>'; [ -x "$b" ] && exec "$b" <Args> || echo '<Fallback>'
//
// The fallback is the answer Gemini CLI gets when the program is missing:
// a deny with a repair hint for BeforeTool, {} for AfterModel.
type Command struct {
	Binary   string
	Args     []string
	Fallback string
}

var bashCommand = &lazyregexp.Regexp{Expr: `^b='\$\{extensionPath\}\$\{/\}bin\$\{/\}([A-Za-z0-9_-]+)'; \[ -x "\$b" \] && exec "\$b"((?: [a-z-]+)*) \|\| echo '([^']*)'$`}

// ParseCommand reads a hooks.json command. Any other shape is an error, so
// a hand edit of hooks.json that the Windows generator does not understand
// fails the build instead of shipping a drifted win32 archive.
func ParseCommand(s string) (Command, error) {
	m := bashCommand.FindStringSubmatch(s)
	if m == nil {
		return Command{}, fmt.Errorf("bundle: hook command is not of the form b='${extensionPath}${/}bin${/}<name>'; [ -x \"$b\" ] && exec \"$b\" <args> || echo '<json>': %.80q", s)
	}
	if !json.Valid([]byte(m[3])) {
		return Command{}, fmt.Errorf("bundle: hook command for %s: fallback is not JSON", m[1])
	}
	return Command{Binary: m[1], Args: strings.Fields(m[2]), Fallback: m[3]}, nil
}

// PowerShell is the command for Windows, where Gemini CLI runs hooks with
// `powershell -NoProfile -NonInteractive -Command`: the same program (with
// .exe), the same arguments and the same fallback answer.
//
// Untested on real Windows: it relies on a native program started with &
// inheriting PowerShell's stdin, and on Gemini CLI's ${...} substitution,
// which leaves PowerShell's $b alone.
func (c Command) PowerShell() string {
	args := ""
	for _, a := range c.Args {
		args += " " + a
	}
	return fmt.Sprintf("$b = '${extensionPath}${/}bin${/}%s.exe'; if (Test-Path -LiteralPath $b -PathType Leaf) { & $b%s } else { Write-Output '%s' }",
		c.Binary, args, strings.ReplaceAll(c.Fallback, "'", "''"))
}

// PowerShellHooks rewrites hooks.json for Windows: every command becomes
// Command.PowerShell of the same hook, everything else is kept.
func PowerShellHooks(data []byte) ([]byte, error) {
	f, err := ParseHooks(data)
	if err != nil {
		return nil, err
	}
	for event, groups := range f.Hooks {
		for gi := range groups {
			for hi := range groups[gi].Hooks {
				h := &groups[gi].Hooks[hi]
				c, err := ParseCommand(h.Command)
				if err != nil {
					return nil, fmt.Errorf("%w (event %s, hook %s)", err, event, h.Name)
				}
				h.Command = c.PowerShell()
			}
		}
	}
	var buf bytes.Buffer
	enc := jsonenc.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(f); err != nil {
		return nil, fmt.Errorf("bundle: %w", err)
	}
	return buf.Bytes(), nil
}

// Expand does Gemini CLI's substitution in a hook command for an extension
// installed at extensionPath on a system with path separator sep:
// ${extensionPath}, ${/} and ${pathSeparator}. Like Gemini CLI it applies no
// shell quoting: hooks.json quotes the path itself.
func Expand(command, extensionPath, sep string) string {
	r := strings.NewReplacer("${extensionPath}", extensionPath, "${/}", sep, "${pathSeparator}", sep)
	return r.Replace(command)
}

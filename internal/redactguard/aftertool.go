package redactguard

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/gemini-guard/gemini-guard/internal/bounded"
	"github.com/gemini-guard/gemini-guard/internal/hook"
	"github.com/gemini-guard/gemini-guard/internal/hookcall"
	"github.com/gemini-guard/gemini-guard/internal/provenance"
	"github.com/gemini-guard/gemini-guard/internal/redact"
	"github.com/gemini-guard/gemini-guard/internal/secrets"
	"github.com/gemini-guard/gemini-guard/internal/secrets/known"
	"github.com/gemini-guard/gemini-guard/internal/settings"
)

// MaxToolOutput bounds the tool output the hook scans. Output that Gemini
// CLI hands the model whole (read_file, read_many_files, multi-part MCP
// output, ...) is scanned up to here, and what lies beyond is withheld:
// never passed on unscanned. Output that Gemini CLI itself cuts to a head
// and a tail (see cliTruncates) is scanned in those two windows instead.
const MaxToolOutput = 8 << 20

// The windows scanned of an output longer than MaxToolOutput that Gemini
// CLI truncates: it keeps the first 20 % and the last 80 % of its
// threshold (tools.truncateToolOutputThreshold, default
// cliDefaultThreshold), in UTF-16 code units (formatTruncatedToolOutput),
// at most 3 bytes each in UTF-8. Each window holds that many bytes and
// windowMargin more, so a secret cut by a window's edge is never in the
// part the model gets. Thresholds up to maxCoveredThreshold keep both
// windows within MaxToolOutput.
const (
	cliDefaultThreshold = 40_000
	windowMargin        = 64 << 10
	maxCoveredThreshold = 2_000_000
)

// truncWindows are the head and tail windows, in bytes, for threshold.
func truncWindows(threshold int) (head, tail int) {
	keptHead := threshold / 5
	return 3*keptHead + windowMargin, 3*(threshold-keptHead) + windowMargin
}

// The head and tail the hook hands the model, when it redacted a truncated
// output, in characters: Gemini CLI's own default (threshold 40,000).
const (
	cliKeptHead = 8_000
	cliKeptTail = 32_000
)

// part is one element of llmContent when it is a list of parts.
type part struct {
	Text       *string `json:"text"`
	InlineData *struct {
		MIME string `json:"mimeType"`
		Data string `json:"data"`
	} `json:"inlineData"`
	FileData *struct {
		MIME string `json:"mimeType"`
	} `json:"fileData"`
}

// inlineText is the text of an inline-data part that holds text: an MCP
// resource or tool result given as base64 data with a text MIME type
// (text/plain, application/json, …+xml) or, whatever its type says, data
// that decodes to UTF-8 text without NUL bytes. The model may read such
// a part as text, so it is scanned as text; an image or a PDF is not.
func inlineText(mime, data string) (string, bool) {
	b, err := base64.StdEncoding.DecodeString(data)
	if err != nil {
		if b, err = base64.RawStdEncoding.DecodeString(data); err != nil {
			return "", false
		}
	}
	m := strings.ToLower(strings.TrimSpace(strings.Split(mime, ";")[0]))
	textType := strings.HasPrefix(m, "text/") || strings.HasSuffix(m, "+json") || strings.HasSuffix(m, "+xml") ||
		slices.Contains([]string{"application/json", "application/xml", "application/javascript", "application/x-sh",
			"application/yaml", "application/x-yaml", "application/toml", "application/x-ndjson", "application/sql"}, m)
	if !textType && (!utf8.Valid(b) || bytes.IndexByte(b, 0) >= 0 || len(b) == 0) {
		return "", false
	}
	return strings.ToValidUTF8(string(b), "\uFFFD"), true
}

// toolText reads llmContent, which Gemini CLI passes as a string, a list of
// parts or a single part. It returns the text pieces in order; a part
// without text (an image, a PDF) becomes a note of what it was.
func toolText(raw json.RawMessage) (pieces []string, isText []bool, err error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil, nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return []string{s}, []bool{true}, nil
	}
	var parts []json.RawMessage
	if json.Unmarshal(raw, &parts) != nil {
		parts = []json.RawMessage{raw}
	}
	for _, p := range parts {
		var x part
		if err := json.Unmarshal(p, &x); err != nil {
			// A string inside the list, or something unknown.
			var s string
			if json.Unmarshal(p, &s) == nil {
				pieces, isText = append(pieces, s), append(isText, true)
				continue
			}
			return nil, nil, fmt.Errorf("llmContent has a part that is neither text nor an object")
		}
		switch {
		case x.Text != nil:
			pieces, isText = append(pieces, *x.Text), append(isText, true)
		case x.InlineData != nil:
			if text, ok := inlineText(x.InlineData.MIME, x.InlineData.Data); ok {
				pieces, isText = append(pieces, text), append(isText, true)
				continue
			}
			pieces, isText = append(pieces, "[non-text content ("+x.InlineData.MIME+") left out by gemini-guard]"), append(isText, false)
		case x.FileData != nil:
			pieces, isText = append(pieces, "[file ("+x.FileData.MIME+") left out by gemini-guard]"), append(isText, false)
		default:
			pieces, isText = append(pieces, "[a part gemini-guard could not read was left out]"), append(isText, false)
		}
	}
	return pieces, isText, nil
}

func afterTool(in hook.AfterToolInput, e Env) (hook.Output, error) {
	// The content the agent's call left in the files it touched, for
	// the shell guard to tell its own edits from the user's (nothing for
	// a tool that writes no file, one failed open when the session has no
	// record).
	_ = provenance.Left(provenance.DirBeside(e.StateDir), in.SessionID, provenance.CallOf(in.ToolName, in.ToolInput, in.Cwd))
	call := hookcall.Load(e.Getenv, hook.AfterTool, "redact", in.Base)
	s := call.Settings
	if !s.RedactToolOutput {
		return hook.Output{}, nil
	}
	pieces, isText, err := toolText(in.ToolResponse.LLMContent)
	if err != nil {
		return hook.Output{}, err
	}
	// A config that does not load: session-start tells the user about it.
	r, _ := newRedactor(s, in.Cwd, in.SessionID, e)
	if f := r.Known.Fault(); f != nil {
		return stateFault(in, call, f), nil
	}
	var (
		notScanned = "more than the 8 MiB gemini-guard scans for secrets"
		total      = 0
		withheld   = 0 // bytes of text not scanned
		count      = 0
		rules      []string
		learn      []known.Value
		out        strings.Builder
	)
	for i, p := range pieces {
		if isText[i] {
			total += len(p)
		}
	}
	// Codex CLI cuts output its own way, not Gemini CLI's: there, output
	// over MaxToolOutput is withheld past it, never scanned in windows.
	if text, ok := cliTruncates(in.ToolName, in.ToolResponse.LLMContent, pieces, isText); ok && len(text) > MaxToolOutput && in.Host != hook.Codex {
		threshold, why := truncationThreshold(e.Getenv, in.Cwd)
		if why == "" {
			return afterTruncatedTool(in, call, r, text, threshold)
		}
		notScanned += " (" + why + ")"
	}
	scanned := 0
	for i, p := range pieces {
		if !isText[i] {
			out.WriteString(p)
			continue
		}
		cut := scanned+len(p) > MaxToolOutput
		if cut {
			p = runeCut(p, max(0, MaxToolOutput-scanned))
		}
		scanned += len(p)
		red, err := r.Text(withoutANSI(p))
		if err != nil {
			return hook.Output{}, err
		}
		out.WriteString(red.Text)
		count += red.Secrets
		addRules(&rules, red)
		learn = append(learn, learnable(red.Found, in.ToolName)...)
		if cut {
			// The rest of this part and every later part.
			withheld = total - scanned
			out.WriteString(fmt.Sprintf("\n\n[gemini-guard withheld the rest of this output: %d bytes not scanned]", withheld))
			break
		}
	}
	// Every secret a rule found is known by value for the rest of the
	// session (as keyed hashes): a later copy, split or re-encoded, is
	// caught where no rule would see it.
	if err := r.Known.Learn(learn); err != nil {
		return stateFault(in, call, err), nil
	}
	if withheld > 0 {
		// Withheld whatever was found: output that was not scanned may
		// hold a secret, in warn mode too (a check that could not be made
		// is not a finding to warn about).
		what := fmt.Sprintf("the output of %s is %d bytes, %s", in.ToolName, total, notScanned)
		reason := "gemini-guard withheld the end of this tool output (hook.output-too-large): " + what + ", so only its first " +
			fmt.Sprintf("%d", scanned) + " bytes are shown, and output it could not scan is never passed on. "
		if count > 0 {
			reason += fmt.Sprintf("In them it also redacted %d secret(s) (%s), each replaced by %s. ", count, strings.Join(rules, ", "), markerExample(s))
		}
		reason += "This is the tool's real output up to there, not an error. Safer: ask for less output at once (a narrower command, a smaller range of lines, fewer files).\n\n" + out.String()
		entry := call.Entry(in.ToolName)
		entry.Rules, entry.Decision = append(rules, "hook.output-too-large"), "redact"
		call.Record(entry)
		return hook.Deny(reason, "gemini-guard withheld part of a tool output: "+what+"."), nil
	}
	if len(rules) == 0 {
		return hook.Output{}, nil
	}
	return redactedOutput(in, call, fmt.Sprintf("%d secret(s) (%s) in the output of %s", count, strings.Join(rules, ", "), in.ToolName), rules, out.String()), nil
}

// stateFault withholds a tool's whole output when the state directory
// cannot keep or give back the secrets learnt from tool output (known's
// Fault, or a Learn that failed): a secret found once is then not known in
// the next output, where it may stand without what made a rule find it.
// In warn mode too: a check that cannot be made is not a finding to warn
// about.
func stateFault(in hook.AfterToolInput, call hookcall.Call, fault error) hook.Output {
	entry := call.Entry(in.ToolName)
	entry.Rules, entry.Decision = []string{"hook.state-fault"}, "redact"
	call.Record(entry)
	reason := "gemini-guard withheld the output of " + in.ToolName + " (hook.state-fault): " + fault.Error() + ". " +
		"Without its record of the secrets found this session, a secret found in one output could reach you in another, " +
		"so no tool output is passed on until the state directory is repaired. This is not an error of the tool; " +
		"tell the user to run `gemini-guard doctor`."
	return hook.Deny(reason, "gemini-guard withheld the output of "+in.ToolName+": "+fault.Error()+". Run `gemini-guard doctor` to repair its state directory.")
}

// redactedOutput is the answer that hands the model out, the redacted
// output, in place of the tool's (or, in warn mode, tells the user what
// would have been hidden).
func redactedOutput(in hook.AfterToolInput, call hookcall.Call, what string, rules []string, out string) hook.Output {
	s := call.Settings
	if call.WarnOnly() {
		return hook.Allow("gemini-guard would have hidden " + what + " from the model (warn mode).")
	}
	reason := "gemini-guard redacted " + what + " before it reached you. This is the tool's real output, not an error: " +
		"each secret is replaced by " + markerExample(s) + " and everything else is unchanged. " +
		"Do not try to read the secret another way; if the user needs it, they can look at it themselves.\n\n" + out
	entry := call.Entry(in.ToolName)
	entry.Rules, entry.Decision = rules, "redact"
	call.Record(entry)
	return hook.Deny(reason, "gemini-guard hid "+what+" from the model.")
}

// afterTruncatedTool answers for an output longer than MaxToolOutput that
// Gemini CLI cuts to its head and tail: only those are scanned, in windows
// wider than what it keeps. Clean, the output is passed on and the CLI
// cuts it; with a secret, the model gets the redacted head and tail in the
// shape the CLI would have given them (its default 8,000 and 32,000
// characters).
func afterTruncatedTool(in hook.AfterToolInput, call hookcall.Call, r *redact.Redactor, text string, threshold int) (hook.Output, error) {
	headBytes, tailBytes := truncWindows(threshold)
	head := runeCut(text, headBytes)
	tail := runeTail(text, tailBytes)
	var rules []string
	count := 0
	var reds [2]string
	var learn []known.Value
	for i, w := range []string{head, tail} {
		red, err := r.Text(withoutANSI(w))
		if err != nil {
			return hook.Output{}, err
		}
		reds[i] = red.Text
		count += red.Secrets
		addRules(&rules, red)
		learn = append(learn, learnable(red.Found, in.ToolName)...)
	}
	if err := r.Known.Learn(learn); err != nil {
		return stateFault(in, call, err), nil
	}
	if len(rules) == 0 {
		return hook.Output{}, nil
	}
	keptHead, keptTail := firstRunes(reds[0], cliKeptHead), lastRunes(reds[1], cliKeptTail)
	out := fmt.Sprintf("Output too large (%d bytes). Showing the first %d and the last %d characters.\n%s\n\n... [the middle omitted] ...\n\n%s",
		len(text), cliKeptHead, cliKeptTail, keptHead, keptTail)
	what := fmt.Sprintf("%d secret(s) (%s) in the part of the output of %s that Gemini CLI keeps (its first and last characters)", count, strings.Join(rules, ", "), in.ToolName)
	return redactedOutput(in, call, what, rules, out), nil
}

// cliTruncates returns the text of an output Gemini CLI 0.61 cuts to a head
// and a tail when it is longer than its threshold (scheduler
// truncateOutputIfNeeded): a shell command's output given as one string,
// and an MCP tool's output given as exactly one text part. Every other
// output reaches the model whole.
func cliTruncates(tool string, raw json.RawMessage, pieces []string, isText []bool) (string, bool) {
	if len(pieces) != 1 || !isText[0] || len(raw) == 0 {
		return "", false
	}
	switch {
	case tool == "run_shell_command" && raw[0] == '"':
		return pieces[0], true
	case strings.HasPrefix(tool, "mcp_") && raw[0] == '[':
		// A text part, not inline data read as text: the CLI cuts only
		// the former.
		var parts []part
		if json.Unmarshal(raw, &parts) == nil && len(parts) == 1 && parts[0].Text != nil {
			return pieces[0], true
		}
	}
	return "", false
}

// truncationThreshold is the largest tools.truncateToolOutputThreshold the
// settings files set (cliDefaultThreshold when none does: a larger window
// covers a smaller threshold), and why, if so, Gemini CLI may not cut a
// long output to a head and tail the windows cover: truncation switched
// off or set above maxCoveredThreshold, output distilled instead
// (contextManagement.enabled), or a settings file that cannot be read.
func truncationThreshold(getenv func(string) string, cwd string) (threshold int, why string) {
	threshold = cliDefaultThreshold
	files := []string{"/etc/gemini-cli/settings.json"}
	if p := getenv("GEMINI_CLI_SYSTEM_SETTINGS_PATH"); p != "" {
		files[0] = p
	}
	if home := getenv("HOME"); home != "" {
		files = append(files, filepath.Join(home, ".gemini", "settings.json"))
	}
	if cwd != "" {
		files = append(files, filepath.Join(cwd, ".gemini", "settings.json"))
	}
	for _, f := range files {
		data, _, err := bounded.ReadFile(f, 1<<20)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		var set struct {
			Tools struct {
				Threshold *float64 `json:"truncateToolOutputThreshold"`
			} `json:"tools"`
			ContextManagement struct {
				Enabled bool `json:"enabled"`
			} `json:"contextManagement"`
		}
		if err != nil || json.Unmarshal(data, &set) != nil {
			return 0, f + " could not be read as JSON, so how Gemini CLI cuts long output is not known"
		}
		if t := set.Tools.Threshold; t != nil && (*t <= 0 || *t > maxCoveredThreshold) {
			return 0, fmt.Sprintf("%s sets tools.truncateToolOutputThreshold to %v: Gemini CLI cuts output at none or above the %d characters gemini-guard covers", f, *t, maxCoveredThreshold)
		}
		if set.ContextManagement.Enabled {
			return 0, f + " enables contextManagement: Gemini CLI distils long output instead of cutting it"
		}
		if t := set.Tools.Threshold; t != nil {
			threshold = max(threshold, int(*t))
		}
	}
	return threshold, ""
}

// addRules adds red's rules to rules, once each (known values named by
// their source: ruleNames).
func addRules(rules *[]string, red redact.Redacted) {
	if red.Secrets == 0 {
		return
	}
	for _, id := range ruleNames(red) {
		if !contains(*rules, id) {
			*rules = append(*rules, id)
		}
	}
}

// withoutANSI is s without its ANSI escape sequences (colours, cursor
// moves: ESC [ ... final byte, and ESC ] ... BEL or ESC \): `grep
// --color=always`, `ls --color` and many build tools put them inside a
// token, which no rule then matches whole. The output is scanned, and
// handed to the model when it had to be redacted, without them; output
// with nothing to redact passes as it was.
func withoutANSI(s string) string {
	if !strings.Contains(s, "\x1b") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		if s[i] != 0x1b || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		switch s[i+1] {
		case '[': // CSI: parameters and intermediates, then a final byte @ to ~
			j := i + 2
			for j < len(s) && (s[j] < 0x40 || s[j] > 0x7e) {
				j++
			}
			i = j
		case ']': // OSC: up to BEL or ESC \
			j := i + 2
			for j < len(s) && s[j] != 0x07 && !(s[j] == 0x1b && j+1 < len(s) && s[j+1] == '\\') {
				j++
			}
			if j < len(s) && s[j] == 0x1b {
				j++
			}
			i = j
		default: // a two-byte escape (ESC 7, ESC =, ...)
			i++
		}
	}
	return b.String()
}

// runeCut is s cut to at most n bytes, at a character boundary.
func runeCut(s string, n int) string {
	if n >= len(s) {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// runeTail is the last at most n bytes of s, from a character boundary.
func runeTail(s string, n int) string {
	if n >= len(s) {
		return s
	}
	i := len(s) - n
	for i < len(s) && !utf8.RuneStart(s[i]) {
		i++
	}
	return s[i:]
}

// firstRunes and lastRunes are the first and last n characters of s.
func firstRunes(s string, n int) string {
	i := 0
	for k := 0; k < n && i < len(s); k++ {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return s[:i]
}

func lastRunes(s string, n int) string {
	i := len(s)
	for k := 0; k < n && i > 0; k++ {
		_, size := utf8.DecodeLastRuneInString(s[:i])
		i -= size
	}
	return s[i:]
}

// learnable are the secrets rules found in a tool's output, as values to
// know for the rest of the session, each named by the tool and the rule.
func learnable(found []secrets.Finding, tool string) []known.Value {
	var out []known.Value
	for _, f := range found {
		if f.Secret != "" {
			out = append(out, known.Value{Source: tool + " output (" + f.RuleID + ")", Text: f.Secret})
		}
	}
	return out
}

// ruleNames are the rules of a redacted text, each known value named by
// its source (known-value: $INTERNAL_API_TOKEN), never by the value.
func ruleNames(red redact.Redacted) []string {
	var out []string
	for _, id := range red.Rules {
		if id != known.RuleID {
			out = append(out, id)
		}
	}
	for _, src := range red.Sources {
		out = append(out, known.RuleID+": "+src)
	}
	return out
}

func markerExample(s settings.Settings) string {
	if s.MarkerRule {
		return "[REDACTED:<rule>]"
	}
	return "[REDACTED]"
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

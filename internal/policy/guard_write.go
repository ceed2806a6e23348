package policy

// guard.tamper's judgement of what a write puts in a .env or the
// tightening file: the text a call writes, when it can be known.

import (
	"errors"
	"path"
	"slices"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/bounded"
	"github.com/gemini-guard/gemini-guard/internal/protect"
	"github.com/gemini-guard/gemini-guard/internal/settings"
	"github.com/gemini-guard/gemini-guard/internal/shell"
)

// copiers put the content of their source files at their target.
var copiers = []string{"cp", "mv", "install", "ln", "rsync", "dd", "cat", "tee", "sponge"}

// writtenText is the text a call writes to target when the guard can know
// it: echo and printf arguments, a heredoc or here-string, : or true (an
// empty file), and the current content of the files a copier reads. append
// is set for >> (the text goes after the file's content).
func writtenText(c *Call, target string) (text string, appends, known bool) {
	for _, r := range c.Ex.Redirs {
		if r.Writes() && r.Target != "" && c.resolve(r.Target) == target {
			appends = r.Op == ">>" || r.Op == "&>>"
		}
	}
	for _, a := range c.Args {
		if !shell.Known(a) {
			return "", appends, false
		}
	}
	switch c.Ex.Name {
	case ":", "true":
		return "", appends, true
	case "echo", "printf":
		// What bash prints, escapes (\r, \xHH, \NNN, \uHHHH, %b) and
		// formats applied: the one reader of echo and printf
		// (shell.EchoOutput), which the secrets guard reads too.
		text, known = shell.EchoOutput(append([]string{c.Ex.Name}, c.Args...))
		return text, appends, known
	}
	if in := c.Ex.Stdin; in != nil && in.HasText && len(in.Producers) == 0 && (c.Ex.Name == "cat" || c.Ex.Name == "tee") && len(operands(c.Args)) <= 1 {
		if !shell.Known(in.Text) {
			return "", appends, false
		}
		return in.Text, appends, true
	}
	text, known = copiedText(c)
	return text, appends, known
}

// copiedText is the current content of the files a copier reads, when
// they are known and not written earlier on the same line.
func copiedText(c *Call) (string, bool) {
	srcs := copiedSources(c)
	if len(srcs) == 0 {
		return "", false
	}
	var b strings.Builder
	for _, s := range srcs {
		p := c.resolve(s)
		if p == "/dev/stdin" || p == "/dev/fd/0" || p == "/proc/self/fd/0" || s == "-" {
			// cp /dev/stdin .env <<'EOF', install -m 600 /dev/stdin .env <<< …
			in := c.Ex.Stdin
			if in == nil || !in.HasText || len(in.Producers) > 0 || !shell.Known(in.Text) {
				return "", false
			}
			b.WriteString(in.Text)
			continue
		}
		data, err := c.readSmall(p)
		if err != nil && (!shell.Known(p) || writtenEarlier(c, p) || errors.Is(err, errTooLarge) || errors.Is(err, bounded.ErrNotRegular)) {
			// Unknown: not on disk yet, larger than the guard reads (cp
			// big.env .env with BASH_ENV past 64 KiB), or no regular file.
			return "", false
		}
		b.WriteString(data) // a source that does not exist: the copy fails
	}
	return b.String(), true
}

// copiedSources are the files a copier (copiers) reads: dd's if=, cat's
// operands, every operand but the target of the others; tee and sponge
// copy standard input, not files.
func copiedSources(c *Call) []string {
	if !slices.Contains(copiers, c.Ex.Name) {
		return nil
	}
	switch c.Ex.Name {
	case "dd":
		var srcs []string
		for _, a := range c.Args {
			if v, ok := strings.CutPrefix(a, "if="); ok {
				srcs = append(srcs, v)
			}
		}
		return srcs
	case "cat":
		return operands(c.Args)
	case "tee", "sponge":
		return nil
	}
	ops := operands(c.Args)
	if len(ops) < 2 {
		return nil
	}
	return ops[:len(ops)-1]
}

// writtenEarlier reports whether another command of the same line writes p
// (printf ... > /tmp/x && cp /tmp/x .env): its content is not on disk yet.
func writtenEarlier(c *Call, p string) bool {
	for _, ex := range c.Res.Execs {
		if ex == c.Ex {
			continue
		}
		o := &Call{Ex: ex, Res: c.Res, Ctx: c.Ctx}
		if len(ex.Args) > 0 {
			o.Args = ex.Args[1:]
		}
		w, _ := changes(o)
		if slices.Contains(w, p) {
			return true
		}
	}
	return false
}

// readSmall reads a file of at most 64 KiB (the size of any real settings
// file) through the context's file system view; anything else (missing,
// larger, a FIFO or a device) is unknown.
func (c *Call) readSmall(p string) (string, error) {
	if p == "/dev/null" {
		return "", nil
	}
	data, truncated, err := c.Ctx.fs().ReadFile(p, 64<<10)
	if err != nil {
		return "", err
	}
	if truncated {
		return "", errTooLarge
	}
	return string(data), nil
}

// errTooLarge says a file is larger than readSmall reads.
var errTooLarge = errors.New("larger than 64 KiB")

// currentText is a file's content now ("" when missing or unreadable).
func (c *Call) currentText(p string) string {
	s, _ := c.readSmall(p)
	return s
}

// judgeEnvWrite: a .env file may get any content except a new or changed
// control key (protect.EnvFamilies: GEMINI_*, BASH_ENV, PATH, LD_*,
// NODE_OPTIONS, …), which Gemini CLI would load into its own environment
// and every hook's. When the written text is unknown, a call that names
// such a key is denied, and so is a copier whose source the guard cannot
// read (a file written earlier in the same command); other writers of
// unknown output are denied in strict mode.
func judgeEnvWrite(c *Call, p string, e protect.Entry) Finding {
	text, appends, known := writtenText(c, p)
	if !known {
		if k := mentionedControlKey(c); k != "" {
			return hit("sets " + k + " in " + e.What + " with content the guard cannot read first")
		}
		if slices.Contains(copiers, c.Ex.Name) && c.Ex.Name != "tee" {
			return hit("changes " + e.What + " with content the guard cannot read first")
		}
		if computedFromWords(c) {
			return hit("writes " + e.What + " with text the command computes from its own words (decoded, translated or printed by code), which the guard cannot follow to see which keys it sets")
		}
		return maybe("writes " + e.What + " with content that cannot be known statically")
	}
	before, err := c.readSmall(p)
	if errors.Is(err, errTooLarge) && appends {
		// The appended text joins the file's last line (BAS + H_ENV=…):
		// what the host will read cannot be known without the file.
		return hit("appends to " + e.What + " larger than the guard reads (64 KiB), so which keys the result sets cannot be known")
	}
	after := text
	if appends {
		after = before + text
	}
	if ch, ok := protect.ChangesControlKey(before, after); ok {
		return hit(envKeyWhat(ch, e))
	}
	return Finding{}
}

// envKeyWhat says what setting a control key in a .env does.
func envKeyWhat(ch protect.ControlChange, e protect.Entry) string {
	return "sets " + ch.Key + " in " + e.What + ": " + ch.Why
}

// transformers are programs whose output is their input (or their code's
// literals) changed: decoders, translators and interpreters. Their output
// into a .env, computed from the command's own words, is a text the guard
// would have to run the program to read.
var transformers = []string{"base64", "base32", "basenc", "xxd", "od", "hexdump", "uudecode", "rev", "tr", "sed", "awk", "gawk", "mawk", "nawk",
	"perl", "ruby", "php", "node", "deno", "bun", "python", "python2", "python3", "openssl", "iconv", "recode", "jq", "yq", "printf", "echo", "cut", "paste", "fold"}

// computedFromWords says whether the unknown output the call writes is
// computed from the command's own words: interpreter one-liner code, a
// transformer fed a here-string, a heredoc or echo/printf, or a command
// substitution that runs one (echo "$(echo … | base64 -d)").
func computedFromWords(c *Call) bool {
	isTransformer := func(ex *shell.Exec) bool {
		return slices.Contains(transformers, ex.Name) || shell.Interpreter(ex.Name) != ""
	}
	if shell.Interpreter(c.Ex.Name) != "" && len(c.Ex.CodeLiterals) > 0 && disguisedCode(c.Ex.Text) {
		return true
	}
	if in := c.Ex.Stdin; in != nil {
		literal := in.HasText
		chain := isTransformer(c.Ex)
		for _, p := range in.Producers {
			literal = literal || p.Name == "echo" || p.Name == "printf" || p.Stdin != nil && p.Stdin.HasText
			chain = chain || isTransformer(p) && p.Name != "echo" && p.Name != "printf"
		}
		if literal && chain {
			return true
		}
	}
	for _, a := range c.Args {
		for _, u := range c.Res.Unknowns(a) {
			if u.Kind == shell.CommandOutput && slices.ContainsFunc(u.Execs, func(ex *shell.Exec) bool {
				return isTransformer(ex) && ex.Name != "echo" && ex.Name != "printf"
			}) {
				return true
			}
		}
	}
	return false
}

// disguisedCode says whether interpreter code builds text in a way that
// hides its words: escapes other than \n and \t (\x, \u, \N{…}, octal),
// decoders, character codes, reversal, joins and concatenation of
// literals. Code that only prints plain literals (print('PORT=3000'))
// hides nothing a mention would not show.
func disguisedCode(code string) bool {
	for i := 0; i+1 < len(code); i++ {
		if code[i] == '\\' && !strings.ContainsRune("nt\\'\"", rune(code[i+1])) {
			return true
		}
	}
	for _, w := range []string{"chr(", "fromCharCode", "decode", "b64", "base64", "fromhex", "unhexlify", "codecs", "[::-1]", "reverse", "join(", "pack(",
		"%c", "Buffer.from", "atob", "eval", "exec", "rot13", "translate", "replace(", "upper(", "lower(", "swapcase", "' +", "'+", "\" +", "\"+", "+ '", "+'", "+ \"", "+\"", "sprintf", "format("} {
		if strings.Contains(code, w) {
			return true
		}
	}
	return false
}

// mentionedControlKey is the first control key the call names as a word
// anywhere in its arguments, its code, its input or its producers (an
// assignment, printf '%s=%s' KEY …, sed s/PORT/BASH_ENV/), "" if none:
// the guess at what output it cannot read holds. Upper case only:
// --path, path= and env are options and words, not environment keys.
func mentionedControlKey(c *Call) string {
	text := codeText(c) + " " + c.Ex.Text + " " + strings.Join(c.Ex.CodeLiterals, " ")
	word := func(r rune) bool {
		return r == '_' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9'
	}
	for _, w := range strings.FieldsFunc(text, func(r rune) bool { return !word(r) }) {
		// An escape's letter joins the word after it (s/$/\nBASH_ENV=…/).
		w = strings.TrimLeft(w, "abcdefghijklmnopqrstuvwxyz")
		if len(w) < 2 || w != strings.ToUpper(w) || w[0] >= '0' && w[0] <= '9' {
			continue
		}
		if _, ok := protect.ControlKey(w); ok {
			return w
		}
	}
	return ""
}

// judgeTighteningWrite: the project's tightening file may be rewritten only
// to something at least as strict; unknown content is denied.
func judgeTighteningWrite(c *Call, p string, e protect.Entry) Finding {
	if !strings.EqualFold(path.Base(p), path.Base(settings.ProjectFile)) {
		return Finding{}
	}
	text, appends, known := writtenText(c, p)
	if !known {
		return hit("rewrites " + e.What + " with content the guard cannot check (it may only get stricter)")
	}
	before := c.currentText(p)
	after := text
	if appends {
		after = before + text
	}
	if protect.Weakens(c.Ctx.Workspace, before, after) {
		return hit("loosens " + e.What + ", which may only make the guard stricter")
	}
	return Finding{}
}

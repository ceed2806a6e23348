package policy

// guard.tamper's judgement of what a write puts in a .env or the
// tightening file: the text a call writes, when it can be known.

import (
	"path"
	"slices"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/bounded"
	"github.com/gemini-guard/gemini-guard/internal/lazyregexp"
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
	case "echo":
		return echoText(c.Args), appends, true
	case "printf":
		text, known = printfText(c.Args)
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

// echoText is what echo prints: its arguments and a newline unless -n.
func echoText(args []string) string {
	nl := "\n"
	for len(args) > 0 && (args[0] == "-n" || args[0] == "-e" || args[0] == "-E" || args[0] == "-ne" || args[0] == "-en") {
		if strings.Contains(args[0], "n") {
			nl = ""
		}
		args = args[1:]
	}
	return strings.Join(args, " ") + nl
}

// printfText is what printf prints for a format without directives or the
// formats %s and %s\n.
func printfText(args []string) (string, bool) {
	if len(args) == 1 && !strings.Contains(args[0], "%") {
		return strings.ReplaceAll(args[0], "\\n", "\n"), true
	}
	if len(args) >= 1 && (args[0] == "%s\\n" || args[0] == "%s") {
		return strings.Join(args[1:], "\n") + "\n", true
	}
	return "", false
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
		data, err := c.readSmall(p)
		if err != nil && (!shell.Known(p) || writtenEarlier(c, p)) {
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
		return "", bounded.ErrNotRegular
	}
	return string(data), nil
}

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
		return maybe("writes " + e.What + " with content that cannot be known statically")
	}
	before := c.currentText(p)
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

// mentionedControlKey is the first control key the call's arguments or
// input assign (NAME=, NAME: ), "" if none.
func mentionedControlKey(c *Call) string {
	text := codeText(c)
	if !strings.Contains(text, "=") && !strings.Contains(text, ":") {
		return ""
	}
	for _, m := range keyAssignment.Get().FindAllStringSubmatch(text, -1) {
		// Upper case only: a mention is a guess at what unknown output holds,
		// and --path=, path= are options, not environment keys.
		if _, ok := protect.ControlKey(m[1]); ok && m[1] == strings.ToUpper(m[1]) {
			return m[1]
		}
	}
	return ""
}

var keyAssignment = &lazyregexp.Regexp{Expr: `(?:^|[^\w%.-])([A-Za-z_][\w%]*)[ \t]*(?:=|:[ \t])`}

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

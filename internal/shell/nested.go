package shell

import (
	"fmt"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/expand"
)

// addSources records where the unknown parts of s come from.
func (a *analyzer) addSources(h *Hazard, s string) {
	for _, u := range a.res.Unknowns(s) {
		h.Sources = append(h.Sources, u.Execs...)
		if u.Kind == Input {
			h.FromInput = true
		}
	}
}

// nested analyses code run by a nested shell for ex (bash -c, eval, su -c,
// watch, trap). positional holds $0, $1, ... when known.
func (a *analyzer) nested(f *frame, st *state, ex *Exec, code, label string, mod func(*Exec), positional ...string) {
	via := append(slices.Clip(ex.Via), label)
	// Values computed statically ($(echo rm -rf ~)) are code here.
	code, _ = a.res.Substitute(code)
	if f.depth+1 > a.maxDepth {
		a.res.Hazards = append(a.res.Hazards, Hazard{Kind: TooDeep, Text: ex.Text, Via: via, Detail: fmt.Sprintf("shells nested more than %d deep", a.maxDepth)})
		return
	}
	for _, u := range a.res.Unknowns(code) {
		if u.Kind == Input {
			// Data read at run time is spliced into code: a file name
			// like $(rm -rf ~) would run.
			h := Hazard{Kind: DynamicCode, Text: ex.Text, Via: via, Interpreter: label, FromInput: true,
				Detail: "run-time input becomes part of the code of " + label}
			a.addSources(&h, code)
			a.res.Hazards = append(a.res.Hazards, h)
			break
		}
	}
	nf := &frame{src: code, via: via, depth: f.depth + 1, stdin: ex.Stdin}
	sub := st.copy()
	if len(positional) > 0 {
		sub.zero, sub.zeroKnown = positional[0], true
		sub.pos, sub.posKnown, sub.posMore = slices.Clone(positional[1:]), true, ""
		if n := len(sub.pos); n > 0 && !Known(sub.pos[n-1]) {
			for _, u := range a.res.Unknowns(sub.pos[n-1]) {
				if u.Kind == Input {
					sub.posMore = sub.pos[n-1]
				}
			}
		}
	} else if label != "eval" && label != "trap" {
		sub.pos, sub.posKnown, sub.posMore = nil, true, ""
	}
	a.tracef(f, "nested %s: %s", label, a.res.Show(code))
	start := len(a.res.Execs)
	a.script(nf, sub, code, ioCtx{stdin: ex.Stdin, redirs: ex.Redirs})
	for _, c := range a.res.Execs[start:] {
		if ex.Sudo {
			c.Sudo = true
		}
		if mod != nil {
			mod(c)
		}
	}
	if label == "eval" || label == "trap" {
		// eval runs in the current shell: its assignments and cd stay.
		for k, v := range sub.vars {
			st.vars[k] = v
		}
		st.dir = sub.dir
	}
}

// scriptFile looks at the file a shell or interpreter is asked to run: a
// process substitution or command output is code from elsewhere.
func (a *analyzer) scriptFile(f *frame, st *state, ex *Exec, file, interp, lang string, args ...string) {
	if text, ok := a.writtenScript(ex.Dir, file); ok {
		// A script the command wrote a moment ago: judge what it holds.
		if lang == "sh" {
			a.nested(f, st, ex, text, interp+" "+file, nil, append([]string{file}, args...)...)
		} else {
			a.interpCode(f, st, ex, lang, text, interp+" "+file)
		}
		return
	}
	if Known(file) {
		return
	}
	if text, ok := a.echoedFile(file); ok {
		if lang == "sh" {
			a.nested(f, st, ex, text, interp+" <(echo)", nil, append([]string{file}, args...)...)
		} else {
			a.interpCode(f, st, ex, lang, text, interp+" <(echo)")
		}
		return
	}
	h := Hazard{Kind: DynamicCode, Text: ex.Text, Via: f.via, Interpreter: interp, Detail: interp + " runs a script that is not known statically: " + a.res.Show(file)}
	a.addSources(&h, file)
	if len(h.Sources) == 0 && !h.FromInput {
		return // a script path in a variable: a local file
	}
	h.FromInput = false // `xargs bash` runs the listed local scripts
	if len(h.Sources) == 0 {
		return
	}
	a.res.Hazards = append(a.res.Hazards, h)
	a.tracef(f, "unknown: %s", h.Detail)
}

// stdinCode analyses the code a shell or interpreter reads from its
// standard input.
func (a *analyzer) stdinCode(f *frame, st *state, ex *Exec, lang string) {
	in := ex.Stdin
	if in == nil {
		return
	}
	label := ex.Name + " <stdin>"
	var code string
	known := false
	switch {
	case in.HasText:
		code, known = in.Text, true
	case in.File != "":
		a.scriptFile(f, st, ex, in.File, ex.Name, lang)
		return
	case len(in.Producers) > 0:
		var b strings.Builder
		known = true
		for _, p := range in.Producers {
			out, ok := producedText(p, maxFilters)
			if !ok {
				known = false
				break
			}
			b.WriteString(out)
		}
		code = b.String()
	}
	if !known {
		text := ex.Text
		for i := len(in.Producers) - 1; i >= 0; i-- {
			if p := in.Producers[i]; p.Depth == ex.Depth && p.Text != "" && !strings.Contains(text, p.Text) {
				text = p.Text + " | " + text
			}
		}
		h := Hazard{Kind: DynamicCode, Text: text, Via: f.via, Interpreter: ex.Name, Sources: in.Producers,
			Detail: ex.Name + " runs code piped in from another command"}
		a.res.Hazards = append(a.res.Hazards, h)
		a.tracef(f, "unknown: %s", h.Detail)
		return
	}
	if lang == "sh" {
		a.codeString(f, st, ex, code, label)
		return
	}
	a.interpCode(f, st, ex, lang, code, label)
}

var shellNames = []string{"sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "rbash", "yash", "posh", "fish", "csh", "tcsh", "ksh93", "oksh", "loksh", "hush"}

// IsShell reports whether the command name (CommandName) is a shell that
// runs scripts and -c code (sh, bash, zsh, dash, ksh, fish, ...).
func IsShell(name string) bool {
	return slices.Contains(shellNames, name)
}

// shellCommand analyses bash/sh/zsh/...: -c code (any flag cluster holding
// c), a script file, or code on standard input.
func (a *analyzer) shellCommand(f *frame, st *state, ex *Exec) {
	args := ex.Args[1:]
	cFlag, noExec, stdinFlag, interactive := false, false, false, false
	var operands []string
	for i := 0; i < len(args); i++ {
		w := args[i]
		if w == "--" || w == "-" {
			operands = args[i+1:]
			break
		}
		if strings.HasPrefix(w, "--") {
			switch strings.ToLower(w) {
			case "--rcfile", "--init-file":
				i++
			}
			continue
		}
		if (w[0] == '-' || w[0] == '+') && len(w) > 1 {
			for j := 1; j < len(w); j++ {
				switch w[j] {
				case 'c':
					cFlag = true
				case 'n':
					noExec = true
				case 's':
					stdinFlag = true
				case 'i':
					interactive = true
				case 'o', 'O':
					i++ // -o option
				}
			}
			continue
		}
		operands = args[i:]
		break
	}
	a.emit(f, ex)
	if noExec {
		return
	}
	if interactive || !cFlag && len(operands) == 0 {
		// An interactive shell runs PROMPT_COMMAND before each prompt.
		if code, ok := promptCommand(st, ex); ok {
			a.codeString(f, st, ex, code, "PROMPT_COMMAND")
		}
	}
	if cFlag {
		if len(operands) == 0 {
			return // bash -c with no code is an error
		}
		code := operands[0]
		for i := range ex.Args {
			if ex.Args[i] == code && i > 0 {
				ex.Args[i] = "" // blank the code: it is analysed as code
				break
			}
		}
		a.codeString(f, st, ex, code, ex.Name+" -c", operands[1:]...)
		return
	}
	if len(operands) > 0 && !stdinFlag {
		a.scriptFile(f, st, ex, operands[0], ex.Name, "sh", operands[1:]...)
		return
	}
	a.stdinCode(f, st, ex, "sh")
}

// promptCommand is the PROMPT_COMMAND a shell started as ex gets: set for
// it alone (PROMPT_COMMAND=… bash -i) or set earlier in the text (the
// analysis does not track export: a shell variable counts as exported).
func promptCommand(st *state, ex *Exec) (string, bool) {
	if v, ok := ex.Env["PROMPT_COMMAND"]; ok {
		return v, v != ""
	}
	if v, ok := st.vars["PROMPT_COMMAND"]; ok && v.Kind == expand.String {
		return v.Str, v.Str != ""
	}
	return "", false
}

// codeString analyses code given to a shell as a string: a string that is
// wholly unknown is a hazard with its sources; otherwise it is parsed,
// unknown parts staying unknown inside.
func (a *analyzer) codeString(f *frame, st *state, ex *Exec, code, label string, positional ...string) {
	code, _ = a.res.Substitute(code)
	if !Known(code) {
		parts := a.res.Parts(code)
		if len(parts) == 1 && parts[0].Unknown != nil {
			u := parts[0].Unknown
			h := Hazard{Kind: DynamicCode, Text: ex.Text, Via: f.via, Interpreter: label, Sources: u.Execs, FromInput: u.Kind == Input,
				Detail: label + " runs code that is not known statically: " + a.res.Show(code)}
			a.res.Hazards = append(a.res.Hazards, h)
			a.tracef(f, "unknown: %s", h.Detail)
			return
		}
	}
	a.nested(f, st, ex, code, label, nil, positional...)
}

package shell

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

func (a *analyzer) cd(st *state, ex *Exec) {
	if ex.Name == "popd" {
		st.dir = ""
		return
	}
	p := ParseArgs(ex.Args[1:], &OptSpec{Short: "LPe@", StopAtOperand: true})
	switch {
	case len(p.Operands) == 0:
		st.dir = a.opts.Home
	case p.Operands[0] == "-" || strings.HasPrefix(p.Operands[0], "+") && ex.Name == "pushd":
		st.dir = ""
	default:
		target := p.Operands[0]
		if base := cdpathBase(st, ex, target); base != "" {
			target = base + "/" + target
		}
		if target == "~" || strings.HasPrefix(target, "~/") {
			// A tilde bash did not expand (it came from a variable) is
			// still meant as home.
			if a.opts.Home != "" {
				target = a.opts.Home + target[1:]
			}
		}
		st.dir = ResolvePath(st.dir, target)
	}
}

// cdpathBase is the CDPATH directory cd takes a relative name from, when
// the command sets CDPATH (CDPATH=~ cd Documents goes to ~/Documents when
// that exists, which the analysis takes it does); "" when CDPATH is not
// set here, starts with the working directory ("" or "."), or the name is
// ./x, ../x or absolute, which bash never looks up in CDPATH.
func cdpathBase(st *state, ex *Exec, target string) string {
	if target == "" || target[0] == '/' || target[0] == '.' || target[0] == '~' {
		return ""
	}
	v, ok := ex.Env["CDPATH"]
	if !ok {
		sv, set := st.vars["CDPATH"]
		if !set || !sv.Set || sv.Kind != expand.String {
			return ""
		}
		v = sv.Str
	}
	first, _, _ := strings.Cut(v, ":")
	if first == "" || first == "." || !Known(first) {
		return ""
	}
	return strings.TrimSuffix(first, "/")
}

func (a *analyzer) read(st *state, ex *Exec) {
	if ex.Name == "read" {
		p := ParseArgs(ex.Args[1:], &OptSpec{Short: "ersa:d:i:n:N:p:t:u:"})
		if arr, ok := p.Value("a"); ok {
			st.vars[arr] = expand.Variable{Set: true, Kind: expand.Indexed, List: []string{a.unknown(Unknown{Kind: Input, Name: arr})}}
		}
		names := p.Operands
		if len(names) == 0 && !p.Has("a") {
			names = []string{"REPLY"}
		}
		for _, n := range names {
			st.vars[n] = expand.Variable{Set: true, Kind: expand.String, Str: a.unknown(Unknown{Kind: Input, Name: n})}
		}
		return
	}
	p := ParseArgs(ex.Args[1:], &OptSpec{Short: "d:n:O:s:tu:C:c:"})
	name := "MAPFILE"
	if len(p.Operands) > 0 {
		name = p.Operands[0]
	}
	st.vars[name] = expand.Variable{Set: true, Kind: expand.Indexed, List: []string{a.unknown(Unknown{Kind: Input, Name: name})}}
}

func (a *analyzer) callFunc(f *frame, st *state, ex *Exec, body *syntax.Stmt) {
	name := ex.Args[0]
	if st.calling[name] {
		return // recursion: the first call already showed what runs
	}
	if st.calling == nil {
		st.calling = map[string]bool{}
	}
	st.calling[name] = true
	savedPos, savedKnown, savedMore := st.pos, st.posKnown, st.posMore
	st.pos, st.posKnown, st.posMore = slices.Clone(ex.Args[1:]), true, ""
	ff := *f
	ff.via = append(slices.Clip(f.via), "function "+name)
	a.tracef(f, "call function %s", name)
	a.stmt(&ff, st, body, ioCtx{stdin: ex.Stdin, redirs: ex.Redirs})
	st.pos, st.posKnown, st.posMore = savedPos, savedKnown, savedMore
	delete(st.calling, name)
}

// dynamicName reports a command whose name is not known statically.
func (a *analyzer) dynamicName(f *frame, ex *Exec) {
	if len(ex.Args) == 0 {
		return
	}
	h := Hazard{Kind: DynamicCode, Text: ex.Text, Via: f.via, Detail: "the command name is not known statically: " + a.res.Show(ex.Args[0])}
	if Known(ex.Args[0]) {
		h.Detail = "the command name is a glob: " + ex.Args[0]
	}
	a.addSources(&h, ex.Args[0])
	a.res.Hazards = append(a.res.Hazards, h)
	a.tracef(f, "unknown: %s", h.Detail)
}

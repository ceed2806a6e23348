package shell

import (
	"slices"
	"strings"
)

// OptSpec describes a command's options so that ParseArgs can tell option
// values from operands the way the command's own parser would. A spec is a
// literal (specs are package variables, which the compiler then lays out in
// the binary) and must not change once in use.
//
// ParseArgs scans the lists as written: a hook process starts for every
// call and uses one or two specs, and building lookup maps for all of them
// at start-up cost more than every scan a command line needs.
type OptSpec struct {
	// Short lists single-letter options: a letter followed by ':' takes a
	// value (attached or the next word), by '::' an optional attached
	// value ("ab:c::").
	Short string
	// Long lists long option names without dashes, "name=" taking a value
	// (after = or as the next word) and "name=?" an optional value after =.
	// A letter or name listed twice counts as its last listing.
	Long []string
	// Abbrev accepts unambiguous prefixes of long options (GNU getopt_long,
	// git's parse-options: --forc for --force).
	Abbrev bool
	// StopAtOperand ends the options at the first operand (POSIX getopt,
	// and wrappers like sudo whose command follows its options).
	StopAtOperand bool
	// FoldLong matches long options case-insensitively.
	FoldLong bool
	// SingleDash reads -name like --name (Go's flag package, terraform):
	// options are never clustered, and Long lists them all.
	SingleDash bool
	// Slash reads /name as a long option too (Windows programs: pwsh
	// /Command).
	Slash bool
}

type argKind uint8

const (
	noValue       argKind = iota
	needsValue            // -x v, -xv, --x v, --x=v
	optionalValue         // -xv, --x=v only
)

// shortKind looks up the letter c.
func (s *OptSpec) shortKind(c byte) (kind argKind, known bool) {
	for i := 0; i < len(s.Short); i++ {
		letter, k := s.Short[i], noValue
		if i+1 < len(s.Short) && s.Short[i+1] == ':' {
			k = needsValue
			i++
			if i+1 < len(s.Short) && s.Short[i+1] == ':' {
				k = optionalValue
				i++
			}
		}
		if letter == c {
			kind, known = k, true
		}
	}
	return kind, known
}

// longName splits one of the spec's long listings into its name and kind.
func longName(l string) (string, argKind) {
	switch {
	case strings.HasSuffix(l, "=?"):
		return l[:len(l)-2], optionalValue
	case strings.HasSuffix(l, "="):
		return l[:len(l)-1], needsValue
	}
	return l, noValue
}

// Opt is one option found by ParseArgs.
type Opt struct {
	// Name is the letter of a short option, or the long option's full name
	// (the one the spec lists, for an abbreviation; as written, for an
	// unknown one).
	Name string
	// Value is the option's value; HasValue tells "" from none.
	Value    string
	HasValue bool
	// Long is set for --name options.
	Long bool
	// Known is false for options the spec does not list.
	Known bool
}

// Args is a command line split into options and operands.
type Args struct {
	Opts     []Opt
	Operands []string
	// DashDash is the index in Operands of the first operand after "--",
	// or -1 when there was no "--".
	DashDash int
	// at holds, when asked for (parseArgs), for each of Opts the index in
	// args of the word holding its value: the next word, or the option's
	// own when the value is attached or there is none.
	at []int
}

// ParseArgs splits args (without the command name) by spec. It never
// fails: unknown options are kept with Known false and take no value.
func ParseArgs(args []string, spec *OptSpec) Args {
	return parseArgs(args, spec, false)
}

// parseArgs is ParseArgs, keeping in p.at where each option's value is
// when withAt is set.
func parseArgs(args []string, spec *OptSpec, withAt bool) Args {
	p := Args{DashDash: -1}
	if withAt {
		p.Opts, p.at = make([]Opt, 0, len(args)), make([]int, 0, len(args))
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			p.DashDash = len(p.Operands)
			p.Operands = append(p.Operands, args[i+1:]...)
			return p
		}
		if len(a) < 2 || a[0] != '-' && (a[0] != '/' || !spec.Slash) {
			p.Operands = append(p.Operands, a)
			if spec.StopAtOperand {
				p.Operands = append(p.Operands, args[i+1:]...)
				return p
			}
			continue
		}
		if strings.HasPrefix(a, "--") || spec.SingleDash || a[0] == '/' {
			name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
			if a[0] == '/' {
				name, value, hasValue = strings.Cut(a[1:], "=")
			}
			full, kind, known := spec.lookupLong(name)
			o := Opt{Name: full, Value: value, HasValue: hasValue, Long: true, Known: known}
			if known && kind == needsValue && !hasValue && i+1 < len(args) {
				i++
				o.Value, o.HasValue = args[i], true
			}
			p.add(o, i, withAt)
			continue
		}
		// A cluster of short options: -abc, -ovalue, -o value.
		for j := 1; j < len(a); j++ {
			c := a[j]
			kind, known := spec.shortKind(c)
			o := Opt{Name: string(c), Known: known}
			if known && kind != noValue {
				if j+1 < len(a) {
					o.Value, o.HasValue = a[j+1:], true
				} else if kind == needsValue && i+1 < len(args) {
					i++
					o.Value, o.HasValue = args[i], true
				}
				p.add(o, i, withAt)
				break
			}
			p.add(o, i, withAt)
		}
	}
	return p
}

// add appends the option o, whose value is held by args[at].
func (p *Args) add(o Opt, at int, withAt bool) {
	p.Opts = append(p.Opts, o)
	if withAt {
		p.at = append(p.at, at)
	}
}

// longKind looks up the long option name.
func (s *OptSpec) longKind(name string) (kind argKind, known bool) {
	for _, l := range s.Long {
		if n, k := longName(l); n == name {
			kind, known = k, true
		}
	}
	return kind, known
}

func (s *OptSpec) lookupLong(name string) (string, argKind, bool) {
	key := name
	if s.FoldLong {
		key = strings.ToLower(name)
	}
	if kind, ok := s.longKind(key); ok {
		return key, kind, true
	}
	if s.Abbrev && key != "" {
		var matches []string
		for _, l := range s.Long {
			if n, _ := longName(l); strings.HasPrefix(n, key) && !slices.Contains(matches, n) {
				matches = append(matches, n)
			}
		}
		if len(matches) == 1 {
			kind, _ := s.longKind(matches[0])
			return matches[0], kind, true
		}
		// Ambiguous (--forc: --force, --force-with-lease): git and getopt
		// refuse it. Read it as the shortest candidate when that one
		// prefixes all the others: the dangerous reading, never a bypass.
		if len(matches) > 1 {
			short := matches[0]
			for _, m := range matches {
				if len(m) < len(short) {
					short = m
				}
			}
			for _, m := range matches {
				if !strings.HasPrefix(m, short) {
					return key, noValue, false
				}
			}
			kind, _ := s.longKind(short)
			return short, kind, true
		}
	}
	return key, noValue, false
}

// Has reports whether any of the named options is present. Short names are
// single letters, long names full words.
func (p Args) Has(names ...string) bool {
	for _, o := range p.Opts {
		for _, n := range names {
			if o.Name == n {
				return true
			}
		}
	}
	return false
}

// Value returns the value of the last of the named options present.
func (p Args) Value(names ...string) (string, bool) {
	v, ok := "", false
	for _, o := range p.Opts {
		for _, n := range names {
			if o.Name == n {
				v, ok = o.Value, o.HasValue
			}
		}
	}
	return v, ok
}

// Last returns the name of whichever of the named options comes last, ""
// if none is present (for flags where the last one wins, like rm -f/-i).
func (p Args) Last(names ...string) string {
	last := ""
	for _, o := range p.Opts {
		for _, n := range names {
			if o.Name == n {
				last = n
			}
		}
	}
	return last
}

// Unknown reports whether an option the spec does not list is present.
func (p Args) Unknown() bool {
	for _, o := range p.Opts {
		if !o.Known {
			return true
		}
	}
	return false
}

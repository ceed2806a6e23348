// Package effects says what a simple command does to what: which paths it
// reads, writes or deletes, which code it runs, which services, accounts or
// remote resources it changes, and what it exposes to the network. Package
// policy's harm rules judge those effects against the inventory of
// sensitive objects kept here (Inventory, Defences, MetadataEndpoints).
//
// Known programs get their effects from program specs, data parsed by the
// one option parser (shell.ParseArgs); a program nobody listed gets
// conservative generic effects: a path-like operand may be read and
// written, a destroy word among its first operands destroys a remote
// resource. Every table is a package variable of literals: a hook process
// starts for each call, and nothing is built when it starts.
//
// It is a package of its own, beside shell and below policy, because it is
// neither parsing (shell knows how bash runs commands, not what programs
// do) nor judging (policy decides what is harmful): it is the data both
// sides share, with tests of its own.
package effects

import (
	"path"
	"slices"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/shell"
)

// Kind is what an effect does.
type Kind uint8

const (
	// Read: the program reads the content of Path and may print or send it.
	Read Kind = iota + 1
	// Write: the program writes Path (creates, truncates, appends, edits).
	Write
	// Delete: the program deletes Path (Recursive for a tree), or, with
	// Area Remote, destroys a remote resource (Name the CLI, Action the
	// verb).
	Delete
	// Use: the program consumes a credential at Path for its own purpose
	// (ssh -i KEY, kubectl --kubeconfig F) without printing it.
	Use
	// Stat: the program only looks at Path's metadata (ls, stat, test -f).
	Stat
	// Change: the program changes a system setting: Area says which, Name
	// the service, account tool or unit, Action the verb.
	Change
	// Expose: the program hands a network peer a process (Name, the
	// program run for each connection).
	Expose
	// Fetch: the program asks a metadata service for credentials (Name the
	// service, Path the URL).
	Fetch
)

func (k Kind) String() string {
	switch k {
	case Read:
		return "read"
	case Write:
		return "write"
	case Delete:
		return "delete"
	case Use:
		return "use"
	case Stat:
		return "stat"
	case Change:
		return "change"
	case Expose:
		return "expose"
	case Fetch:
		return "fetch"
	}
	return "effect"
}

// Area is what a Change or remote Delete acts on.
type Area uint8

const (
	Files Area = iota
	// Service: a service, daemon or launchd job (Action stop, disable,
	// mask, unload, kill, ...).
	Service
	// Accounts: users, groups, passwords (Name the tool).
	Accounts
	// Remote: a resource a CLI manages elsewhere (cloud, cluster,
	// registry, SaaS).
	Remote
)

// Effect is one thing a command does.
type Effect struct {
	Kind Kind
	Area Area
	// Path is the path acted on, absolute when it could be resolved.
	Path string
	// Recursive is set for a whole tree.
	Recursive bool
	// Name and Action: see Kind and Area.
	Name, Action string
	// Generic is set for effects guessed for a program no spec describes.
	Generic bool
	// Search is set on the reads of a search tool (grep -r), which print
	// only the lines that match.
	Search bool
}

// Of computes the effects of one simple command. home is the user's home
// directory ("" if unknown); relative paths are resolved against ex.Dir.
// Paths that cannot be known statically are left out (the other rules
// judge those).
func Of(ex *shell.Exec, home string) []Effect {
	var out []Effect
	add := func(k Kind, p string, generic bool) {
		if p = Resolve(ex.Dir, home, p); p != "" {
			out = append(out, Effect{Kind: k, Path: p, Generic: generic})
		}
	}
	for _, r := range ex.Redirs {
		switch {
		case r.Writes():
			add(Write, r.Target, false)
		case r.Reads():
			add(Read, r.Target, false)
		}
	}
	if ex.Stdin != nil && ex.Stdin.File != "" {
		add(Read, ex.Stdin.File, false)
	}
	if len(ex.Args) == 0 || ex.Name == "" {
		return out
	}
	args := ex.Args[1:]
	// A metadata URL is fetched by a program that makes requests, not
	// by echo, grep or git commit -m, which only mention it.
	if specFor(ex.Name) == nil && !slices.Contains(noFiles, ex.Name) && ex.Name != "git" {
		for _, a := range args {
			if what, ok := MetadataSecret(a); ok {
				out = append(out, Effect{Kind: Fetch, Name: what, Path: a})
			}
		}
	}
	out = append(out, serviceEffects(ex, args)...)
	out = append(out, accountEffects(ex.Name, args)...)
	out = append(out, packageEffects(ex.Name, args)...)
	out = append(out, exposeEffects(ex.Name, args)...)
	out = append(out, tunnelEffects(ex.Name, args)...)
	if what, ok := secretPrinted(ex.Name, args); ok {
		out = append(out, Effect{Kind: Read, Area: Secrets, Name: what})
	}
	if what, ok := defenceSwitched(ex.Name, args); ok {
		out = append(out, Effect{Kind: Change, Area: Service, Name: what, Action: "switch off"})
	}
	if accountNet(ex.Name, args) {
		out = append(out, Effect{Kind: Change, Area: Accounts, Name: ex.Name, Action: args[0]})
	}
	if db, ok := sqlWrite(ex.Name, args); ok {
		add(Write, db, false)
	}
	for _, e := range configEffects(ex.Name, args) {
		add(Write, e.Path, false)
	}
	if ex.Name == "defaults" {
		for _, e := range defaultsEffects(args) {
			if e.Path != "" {
				if e.Path = Resolve(ex.Dir, home, e.Path); e.Path == "" {
					continue
				}
			}
			out = append(out, e)
		}
	}
	// Interpreter code's literal paths (python -c "open('/proc/1/mem')"):
	// read, and written when the code writes files.
	for _, l := range ex.CodeLiterals {
		if what, ok := MetadataSecret(l); ok {
			out = append(out, Effect{Kind: Fetch, Name: what, Path: l})
		}
		if strings.HasPrefix(l, "/") || strings.HasPrefix(l, "~/") {
			add(Read, l, true)
			if ex.CodeWrites {
				add(Write, l, true)
			}
		}
	}
	if s := specFor(ex.Name); s != nil {
		for _, e := range s.fileEffects(args) {
			if p := Resolve(ex.Dir, home, e.Path); p != "" {
				e.Path = p
				out = append(out, e)
			}
		}
		return out
	}
	if known(ex.Name) {
		return out
	}
	// A program nobody listed: judged by what it touches.
	for _, o := range shell.ParseArgs(args, &shell.OptSpec{}).Operands {
		if pathLike(o) {
			add(Read, o, true)
			add(Write, o, true)
		}
	}
	if verb, ok := remoteDestroy(args); ok {
		out = append(out, Effect{Kind: Delete, Area: Remote, Name: ex.Name, Action: verb, Generic: true})
	}
	return out
}

// Resolve makes p absolute: ~ is home, a relative path is under dir. It
// returns "" when p cannot be known statically or placed.
func Resolve(dir, home, p string) string {
	if p == "" || !shell.Known(p) {
		return ""
	}
	if p == "~" || strings.HasPrefix(p, "~/") {
		if home == "" {
			return ""
		}
		p = home + p[1:]
	}
	if !strings.HasPrefix(p, "/") {
		if dir == "" || !shell.Known(dir) {
			return ""
		}
		p = dir + "/" + p
	}
	return path.Clean(p)
}

// pathLike reports whether an operand of an unknown program looks like a
// path rather than a word or a URL: it has a slash or starts with a dot
// or a tilde.
func pathLike(o string) bool {
	if o == "" || o == "." || o == ".." || strings.Contains(o, "://") || !shell.Known(o) {
		return false
	}
	return strings.Contains(o, "/") || o[0] == '.' || o[0] == '~'
}

package effects

import (
	"slices"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/shell"
)

// Subcommand CLIs (aws, gcloud, kubectl, docker, …) read as their own
// parsers read them (issue #36, "one reader of each grammar"): a global
// option's value is never taken for the subcommand, so that
// `aws --profile prod secretsmanager get-secret-value` is the same call as
// `aws secretsmanager get-secret-value --profile prod`. Each CLI has one
// Grammar, as data, read by the one ParseCommand; the policy's rules for
// these programs take their subcommand words and option values from the
// Command it returns, never from the raw arguments.

// Grammar is one subcommand CLI's command line.
type Grammar struct {
	Names []string
	// Opts are the options the CLI reads wherever they stand — its global
	// options and the value-taking options its subcommands share — or,
	// with Opts.StopAtOperand, only before the subcommand (docker
	// [OPTIONS] COMMAND: a word after the subcommand is the subcommand's).
	Opts shell.OptSpec
	// After are the options read after the subcommand word when
	// Opts.StopAtOperand (gsutil rm -r, docker volume rm -f).
	After shell.OptSpec
	// Stop are the subcommands whose options end at their first operand
	// (docker-compose exec SERVICE CMD…: the rest is the command's).
	Stop []string
	// Subs are subcommands that read the words after their path with a
	// spec of their own (docker run: its options, then the image, then
	// the command run in the container).
	Subs []Sub
	// Env are the variables that select what the CLI works on the way an
	// option does (AWS_PROFILE is --profile, KUBECONFIG --kubeconfig).
	Env []EnvOpt
	// Target are the options (long names) that choose where the call
	// goes — an account, a project, a cluster, a daemon — and change
	// nothing of what it does: the spellings the respelling test inserts.
	Target []string
	// TargetAt says where the Target options may stand.
	TargetAt Place
	// Uses are the options whose value is a file the CLI uses for its
	// own purpose (kubectl --kubeconfig F): an Effect of kind Use.
	Uses []string
}

// Place is where in a command line an option may stand.
type Place uint8

const (
	// Anywhere: before the subcommand, after it, among its operands
	// (aws, gcloud, kubectl, helm, az: their parsers collect options
	// wherever they stand).
	Anywhere Place = iota
	// BeforeSub: before the subcommand only (docker -H, terraform -chdir).
	BeforeSub
	// AfterSub: after the subcommand only (gh pr list -R o/r).
	AfterSub
)

// Sub is a subcommand with its own options (docker run).
type Sub struct {
	// Paths are its spellings (run; container run).
	Paths [][]string
	Opts  shell.OptSpec
	// Nested: the first word after its options is a subcommand of its
	// own, whose options After reads (docker compose -f F rm -fsv: -f
	// is compose's file, then rm's force).
	Nested bool
	After  shell.OptSpec
	Stop   []string
}

// EnvOpt is a variable that stands for an option.
type EnvOpt struct{ Var, Opt string }

// Command is one call of a CLI, read once by its grammar.
type Command struct {
	Program string
	// Words are the operands in order: the subcommand path, then the
	// subcommand's own operands (for docker run: the image, then the
	// command run in the container).
	Words []string
	// Sub is the length of the path of a Sub that read the rest (docker
	// run: 1, docker container run: 2), 0 when none did.
	Sub int
	// Opts are the options with their values: those the environment sets
	// (Grammar.Env) first, then as written.
	Opts []shell.Opt
	// DashDash is the index in Words of the first word after "--", -1
	// when there was none (kubectl exec POD -- CMD).
	DashDash int
	// Grammar is set when the program has one; without, the words are
	// read with no option taking a value.
	Grammar *Grammar
}

// GrammarOf returns the grammar of the program named name, nil if none.
func GrammarOf(name string) *Grammar {
	for i := range grammars {
		if slices.Contains(grammars[i].Names, name) {
			return &grammars[i]
		}
	}
	return nil
}

// Grammars returns every grammar, for tests and docs.
func Grammars() []Grammar { return grammars }

// ParseCommand reads a call of the program named name: args are the words
// after its name, env the variables set for it on the command line. A
// program without a grammar is read with no option taking a value (every
// word not starting with "-" is a word).
func ParseCommand(name string, args []string, env map[string]string) Command {
	cmd := Command{Program: name, Grammar: GrammarOf(name), DashDash: -1}
	g := cmd.Grammar
	if g == nil {
		p := shell.ParseArgs(args, &shell.OptSpec{})
		cmd.Words, cmd.Opts, cmd.DashDash = p.Operands, p.Opts, p.DashDash
		return cmd
	}
	for _, e := range g.Env {
		if v, ok := env[e.Var]; ok {
			cmd.Opts = append(cmd.Opts, shell.Opt{Name: e.Opt, Value: v, HasValue: true, Long: len(e.Opt) > 1, Known: true})
		}
	}
	p := shell.ParseArgs(args, &g.Opts)
	cmd.Opts = append(cmd.Opts, p.Opts...)
	if !g.Opts.StopAtOperand || len(p.Operands) == 0 || p.DashDash == 0 {
		cmd.Words, cmd.DashDash = p.Operands, p.DashDash
		return cmd
	}
	rest := p.Operands
	for i := range g.Subs {
		for _, path := range g.Subs[i].Paths {
			if len(rest) >= len(path) && slices.Equal(rest[:len(path)], path) {
				cmd.Sub = len(path)
				cmd.sub(path, rest[len(path):], &g.Subs[i])
				return cmd
			}
		}
	}
	cmd.then(nil, rest, &g.After, g.Stop)
	return cmd
}

// then reads the words after a path: the first is a subcommand, whose
// options spec reads (ending at its first operand for those in stop).
func (c *Command) then(path, rest []string, spec *shell.OptSpec, stop []string) {
	s := *spec
	s.StopAtOperand = s.StopAtOperand || slices.Contains(stop, rest[0])
	q := shell.ParseArgs(rest[1:], &s)
	c.Words = append(append(slices.Clip(path), rest[0]), q.Operands...)
	c.Opts = append(c.Opts, q.Opts...)
	if q.DashDash >= 0 {
		c.DashDash = len(path) + 1 + q.DashDash
	}
}

// sub reads the words after a Sub's path.
func (c *Command) sub(path, rest []string, s *Sub) {
	q := shell.ParseArgs(rest, &s.Opts)
	if !s.Nested || len(q.Operands) == 0 || q.DashDash == 0 {
		c.Words = append(slices.Clip(path), q.Operands...)
		c.Opts = append(c.Opts, q.Opts...)
		if q.DashDash >= 0 {
			c.DashDash = len(path) + q.DashDash
		}
		return
	}
	c.Opts = append(c.Opts, q.Opts...)
	c.then(path, q.Operands, &s.After, s.Stop)
}

// Leads reports whether the words start with words.
func (c *Command) Leads(words ...string) bool {
	return len(c.Words) >= len(words) && slices.Equal(c.Words[:len(words)], words)
}

// Word is the i-th word, "" past the end.
func (c *Command) Word(i int) string {
	if i < len(c.Words) {
		return c.Words[i]
	}
	return ""
}

// Has reports whether any of the named options is present (short names
// are letters, long names without dashes).
func (c *Command) Has(names ...string) bool {
	return slices.ContainsFunc(c.Opts, func(o shell.Opt) bool { return slices.Contains(names, o.Name) })
}

// HasPrefix reports whether an option whose name starts with prefix is
// present (--dry-run, --dry-run=client).
func (c *Command) HasPrefix(prefix string) bool {
	return slices.ContainsFunc(c.Opts, func(o shell.Opt) bool { return strings.HasPrefix(o.Name, prefix) })
}

// Value is the value of the last of the named options present.
func (c *Command) Value(names ...string) (string, bool) {
	v, ok := "", false
	for _, o := range c.Opts {
		if slices.Contains(names, o.Name) {
			v, ok = o.Value, o.HasValue
		}
	}
	return v, ok
}

// Values are the values of every named option present, in order.
func (c *Command) Values(names ...string) []string {
	var out []string
	for _, o := range c.Opts {
		if slices.Contains(names, o.Name) && o.HasValue {
			out = append(out, o.Value)
		}
	}
	return out
}

// Help reports whether the call only prints help (--help, -h where it is
// not an option of the CLI's own, or the word help).
func (c *Command) Help() bool {
	return c.Has("help") || c.Has("h") && !c.valueOption("h") || slices.Contains(c.Words, "help")
}

// valueOption reports whether the grammar's options give the letter a
// value (gsutil -h HEADER is not help).
func (c *Command) valueOption(letter string) bool {
	for _, o := range c.Opts {
		if o.Name == letter && o.HasValue {
			return true
		}
	}
	return false
}

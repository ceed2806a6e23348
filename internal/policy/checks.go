package policy

// Small helpers the checks of every family share: tests of a call's
// arguments.

import (
	"slices"
	"strings"
)

// hasShortFlag reports whether a short-option cluster among args holds f
// (-rf holds f).
func hasShortFlag(args []string, f byte) bool {
	for _, a := range args {
		if strings.IndexByte(shortFlags(a), f) >= 0 {
			return true
		}
	}
	return false
}

// shortFlags is the cluster of one-letter flags a word gives (-gAf: "gAf"),
// "" when it is not one.
func shortFlags(a string) string {
	if len(a) > 1 && a[0] == '-' && a[1] != '-' {
		return a[1:]
	}
	return ""
}

// hasPrefixArg reports whether a word of args starts with prefix
// (hasArgPrefix: whether one is the option opt, or opt=value).
func hasPrefixArg(args []string, prefix string) bool {
	for _, a := range args {
		if strings.HasPrefix(a, prefix) {
			return true
		}
	}
	return false
}

// optionValues are the values of the separate-word options names takes
// (openssl -out F).
func optionValues(args []string, names ...string) []string {
	var out []string
	for i, a := range args {
		if slices.Contains(names, a) && i+1 < len(args) {
			out = append(out, args[i+1])
		}
	}
	return out
}

// namedList is a list of words that belongs to one program (its options,
// subcommands or hosts). Tables of them are slices, not maps: a slice
// literal is laid out in the binary, while a map is built in every hook
// process at start-up, before any rule is tried.
type namedList struct {
	name string
	list []string
}

// listOf is the list t holds for name, nil when it holds none.
func listOf(t []namedList, name string) []string {
	for _, e := range t {
		if e.name == name {
			return e.list
		}
	}
	return nil
}

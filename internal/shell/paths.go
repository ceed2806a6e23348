package shell

import (
	"strings"
)

// ResolvePath joins p to dir as the kernel would, cleaning . and ..
// lexically. An absolute p, or one starting with an unknown value (usually
// an absolute path in a variable), stands alone; a relative p under an
// unknown dir ("") is unknown (""). A .. right after an unknown element is
// kept: nothing is known about where it leads.
func ResolvePath(dir, p string) string {
	if p == "" {
		return ""
	}
	switch {
	case strings.HasPrefix(p, "/"):
	case strings.HasPrefix(p, string(markOpen)):
	case dir == "":
		return ""
	default:
		p = dir + "/" + p
	}
	return CleanPath(p)
}

// CleanPath is path.Clean that never lets a .. cancel an unknown element.
func CleanPath(p string) string {
	abs := strings.HasPrefix(p, "/")
	var out []string
	for _, seg := range strings.Split(p, "/") {
		switch seg {
		case "", ".":
			continue
		case "..":
			if n := len(out); n > 0 && out[n-1] != ".." && Known(out[n-1]) {
				out = out[:n-1]
				continue
			}
			if abs && len(out) == 0 {
				continue
			}
			out = append(out, seg)
		default:
			out = append(out, seg)
		}
	}
	s := strings.Join(out, "/")
	if abs {
		return "/" + s
	}
	if s == "" {
		return "."
	}
	return s
}

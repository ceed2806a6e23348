package shell

import "strings"

// SedCommand is one command of a sed script, as GNU and BSD sed read it.
type SedCommand struct {
	// Addr is the address as written ("", "2,5", "$", "/^pick/").
	Addr string
	// Name is the command letter: s, y, e, d, D, w, W, p, a, i, c, r, …
	Name byte
	// Pattern, Replacement and Flags are an s (or y) command's parts, the
	// delimiter's escapes in them undone (s|a\|b|c| has the pattern a|b).
	Pattern, Replacement, Flags string
	// Text is the rest of the line of a command that takes it: e's
	// command, w's and r's file, a's, i's and c's text.
	Text string
}

// SedScript reads a sed script into its commands: the one reader of sed's
// grammar for every rule that asks what a script does (runs a command,
// writes a file, deletes lines, substitutes text). Commands are separated
// by ';' and new lines; an s command's parts may hold either when escaped
// or inside the pattern, and a command taking text takes the rest of its
// line. Braces group commands and are skipped. Text that is not sed (an
// unterminated s) ends the script with what was read so far.
func SedScript(script string) []SedCommand {
	cmds, _ := sedScript(script)
	return cmds
}

// sedScript is SedScript, also saying whether the whole script read as
// sed.
func sedScript(script string) ([]SedCommand, bool) {
	var out []SedCommand
	for i := 0; i < len(script); {
		switch script[i] {
		case ' ', '\t', ';', '\n', '{', '}':
			i++
			continue
		}
		var c SedCommand
		start := i
		i = sedAddress(script, i)
		c.Addr = strings.TrimSpace(script[start:i])
		for i < len(script) && (script[i] == ' ' || script[i] == '!') {
			i++
		}
		if i >= len(script) {
			return out, c.Addr == ""
		}
		c.Name = script[i]
		i++
		var ok bool
		switch c.Name {
		case 's', 'y':
			i, ok = sedParts(script, i, &c)
			if !ok {
				return out, false
			}
		case 'e', 'w', 'W', 'r', 'R', 'a', 'i', 'c':
			end := strings.IndexByte(script[i:], '\n')
			if end < 0 {
				end = len(script) - i
			}
			c.Text = strings.TrimSpace(strings.TrimPrefix(script[i:i+end], "\\"))
			i += end
		default:
			for i < len(script) && script[i] != ';' && script[i] != '\n' && script[i] != '}' {
				i++
			}
		}
		out = append(out, c)
	}
	return out, true
}

// sedAddress skips an address at i: line numbers, $, ranges, steps
// (first~step, addr,+N) and /regex/ or \cregexc, each possibly twice.
func sedAddress(s string, i int) int {
	for i < len(s) {
		switch b := s[i]; {
		case b >= '0' && b <= '9', b == '$', b == ',', b == '~', b == '+':
			i++
		case b == '/':
			i = sedDelimited(s, i+1, '/')
		case b == '\\' && i+1 < len(s):
			i = sedDelimited(s, i+2, s[i+1])
		case (b == 'I' || b == 'M') && i > 0 && s[i-1] == '/':
			i++ // a regex address's flags
		default:
			return i
		}
	}
	return i
}

// sedDelimited is the index after the unescaped delimiter d from i (or the
// end of s).
func sedDelimited(s string, i int, d byte) int {
	for ; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case d:
			return i + 1
		}
	}
	return len(s)
}

// sedParts reads an s or y command's delimiter, pattern, replacement and
// (for s) flags from i, into c; false when it is not terminated.
func sedParts(s string, i int, c *SedCommand) (int, bool) {
	if i >= len(s) || s[i] == '\n' || s[i] == '\\' {
		return i, false
	}
	d := s[i]
	i++
	var parts [2]string
	for k := range parts {
		end := sedDelimited(s, i, d)
		if end > len(s) || end == len(s) && (end == i || s[end-1] != d) {
			return len(s), false
		}
		parts[k] = strings.ReplaceAll(s[i:end-1], "\\"+string(d), string(d))
		i = end
	}
	c.Pattern, c.Replacement = parts[0], parts[1]
	if c.Name == 's' {
		start := i
		for i < len(s) && s[i] != ';' && s[i] != '\n' && s[i] != '}' {
			if s[i] == 'w' || s[i] == 'W' { // w FILE takes the rest of the line
				end := strings.IndexByte(s[i:], '\n')
				if end < 0 {
					end = len(s) - i
				}
				c.Text = strings.TrimSpace(s[i+1 : i+end])
				c.Flags = s[start:i] + string(s[i])
				return i + end, true
			}
			i++
		}
		c.Flags = strings.TrimSpace(s[start:i])
	}
	return i, true
}

// SedRuns are the command lines a sed script runs: an e command's text and
// the replacement of an s command with the e flag (which runs the pattern
// space it makes: the replacement, when the whole line is replaced).
func SedRuns(script string) []string {
	var out []string
	for _, c := range SedScript(script) {
		switch {
		case c.Name == 'e' && c.Text != "":
			out = append(out, c.Text)
		case c.Name == 's' && strings.ContainsRune(c.Flags, 'e'):
			out = append(out, c.Replacement)
		}
	}
	return out
}

// SedWritesOrRuns reports whether a sed script writes a file (w, W, the
// s///w flag) or runs a command (e, s///e). A script that does not read
// as sed counts: it may do anything.
func SedWritesOrRuns(script string) bool {
	cmds, complete := sedScript(script)
	if !complete {
		return true
	}
	for _, c := range cmds {
		switch c.Name {
		case 'w', 'W', 'e':
			return true
		case 's':
			if strings.ContainsAny(c.Flags, "wWe") {
				return true
			}
		}
	}
	return false
}

package policy

import "github.com/gemini-guard/gemini-guard/internal/shell"

// shellRules judge what cannot be read: parse errors, too complex, code made at run time.
var shellRules = []*Rule{
	{
		ID: "shell.parse-error", Category: "shell",
		Protects: "the guard's ability to see the command: text that is not valid bash",
		What:     "the command is not valid bash",
		Safer:    "fix the quoting so that the command parses",
		Unknown:  "Standard mode judges the text with its open quotes closed (what the agent meant), and a zsh glob qualifier (ls *.log(mh-1)) as the glob it qualifies with an e qualifier's code as a command, and allows it if that is fine; text that cannot be repaired is denied in every mode (bash would reject it anyway).",
		hazard:   checkParseError,
		Block:    []string{`&& ls`, `if then fi`, "echo ok\n)"},
		Allow:    []string{`echo 'unterminated`, `ls -la`, `ls *.log(mh-1)`, `zsh -c 'print -l src/**/*.ts(.) | wc -l'`},
	},
	{
		ID: "shell.too-complex", Category: "shell",
		Protects: "the analysis itself, from nesting or size beyond its bounds",
		What:     "the command nests shells too deeply or is too large to check",
		Safer:    "run the inner command directly",
		Unknown:  noUnknownStory,
		hazard:   checkTooDeep,
		Block:    []string{`eval eval eval eval eval eval eval eval eval eval echo hi`},
		Allow:    []string{`bash -c 'sh -c "echo hi"'`},
	},
	{
		ID: "shell.interpreter-code", Category: "shell",
		Protects:       "review of interpreter one-liners (python -c, node -e, perl -e, ruby -e, php -r): their usual dangerous calls are analysed, but a program can hide anything",
		What:           "runs interpreter code that can only be analysed heuristically",
		Safer:          "write the script to a file the user can read, then run it",
		Unknown:        "Strict mode only: standard mode allows code in which the analysis finds nothing dangerous.",
		hazard:         checkInterpreterCode,
		StrictExamples: true,
		Block:          []string{`python3 -c "print(1)"`, `node -e "console.log(1)"`, "python3 - <<'EOF'\nprint(1)\nEOF"},
		Allow:          []string{`python3 -c "print(1)"`, `awk '{print $1}' file.txt`},
	},
	{
		ID: "shell.dynamic-code", Category: "shell",
		Protects:       "review of what runs: a command name or code that is only known at run time",
		What:           "runs a command or code that cannot be known statically",
		Safer:          "write the command out literally",
		Unknown:        "Strict mode only: standard mode allows a command name from $(...) or a variable, eval of a variable, and a local script piped into a shell.",
		hazard:         checkDynamicCode,
		StrictExamples: true,
		Block:          []string{`$(cat cmd.txt) --version`, `eval "$CMD"`, `make -s print-cmd | sh`},
		Allow:          []string{`$EDITOR file.txt`, `eval "$(ssh-agent -s)"`, `cat script.sh | bash`},
	},
}

func checkDynamicCode(h *shell.Hazard, _ *Context) Finding {
	if h.Kind == shell.DynamicCode {
		return maybe(h.Detail)
	}
	return Finding{}
}

func checkInterpreterCode(h *shell.Hazard, _ *Context) Finding {
	if h.Kind == shell.InterpreterCode {
		return maybe(h.Detail)
	}
	return Finding{}
}

// checkForkBomb is proc.fork-bomb's check (proc.go): a hazard the shell
// analysis reports, like the others in this file.
func checkForkBomb(h *shell.Hazard, _ *Context) Finding {
	if h.Kind == shell.ForkBomb {
		return hit(h.Detail + ": a fork bomb that exhausts the machine's processes")
	}
	return Finding{}
}

func checkParseError(h *shell.Hazard, _ *Context) Finding {
	if h.Kind != shell.ParseError {
		return Finding{}
	}
	if h.Repaired {
		return maybe("the command is not valid bash (" + h.Detail + ")")
	}
	return hit("the command is not valid bash (" + h.Detail + "), so what it would run cannot be checked")
}

func checkTooDeep(h *shell.Hazard, _ *Context) Finding {
	if h.Kind == shell.TooDeep || h.Kind == shell.TooComplex {
		return hit(h.Detail)
	}
	return Finding{}
}

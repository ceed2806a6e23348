package shell

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// interpWords splits a test line at spaces; ” is the empty word.
func interpWords(line string) []string {
	words := strings.Fields(line)
	for i, w := range words {
		if w == "''" {
			words[i] = ""
		}
	}
	return words
}

// String shows what an interpreter's arguments say it runs, for tests:
// the code strings in order, the argument indices blanked (0 is the first
// argument after the interpreter's name), the script's index, stdin.
func (r interpRead) String() string {
	var parts []string
	for _, c := range r.codes {
		parts = append(parts, fmt.Sprintf("code %q", c))
	}
	if len(r.blank) > 0 {
		parts = append(parts, "blank "+strings.Trim(fmt.Sprint(r.blank), "[]"))
	}
	if r.script >= 0 {
		parts = append(parts, fmt.Sprintf("script %d", r.script))
	}
	if r.stdin {
		parts = append(parts, "stdin")
	}
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, "; ")
}

// TestInterpArgs pins how each interpreter's command line is read: which
// words are code, which are blanked, which is the script, whether the code
// comes on standard input. Some readings are odd (noted); they are what
// the reader did when the table replaced the hand-written loops.
func TestInterpArgs(t *testing.T) {
	for _, c := range []struct{ line, want string }{
		{"python -c print(1)", "code \"print(1)\"; blank 1"},
		{"python -cprint(1)", "code \"print(1)\"; blank 0"},
		{"python -c print(1) arg1 arg2", "code \"print(1)\"; blank 1"},
		{"python -c", "stdin"},
		{"python -Bc print(1)", "code \"print(1)\"; blank 1"},
		{"python -Ic print(1) -x", "code \"print(1)\"; blank 1"},
		{"python -BEsc print(1)", "code \"print(1)\"; blank 1"},
		{"python -c -c x", "code \"-c\"; blank 1"},
		{"python -u -c print(1)", "code \"print(1)\"; blank 2"},
		{"python -W ignore -c print(1)", "code \"print(1)\"; blank 3"},
		{"python -Wignore -c print(1)", "code \"print(1)\"; blank 2"},
		{"python -W -c print(1)", "script 2"},
		{"python -X dev -c print(1)", "code \"print(1)\"; blank 3"},
		{"python -Xdev -c x", "code \"x\"; blank 2"},
		{"python -X -c x", "script 2"},
		{"python -Wc print(1)", "script 1"},
		{"python -cW x", "code \"W\"; blank 0"},
		{"python script.py", "script 0"},
		{"python script.py -c x", "script 0"},
		{"python -u script.py arg", "script 1"},
		{"python -O -B script.py", "script 2"},
		{"python -- script.py", "script 1"},
		{"python -- -c", "script 1"},
		{"python --", "-"},
		{"python -", "stdin"},
		{"python - -c x", "stdin"},
		{"python -u -", "stdin"},
		{"python", "stdin"},
		{"python -u", "stdin"},
		{"python -m http.server", "-"},
		{"python -m", "-"},
		{"python -mhttp.server 8000", "-"},
		{"python -m pip -c x", "-"},
		{"python -Bm foo", "stdin"}, // odd: -m inside a cluster does not stop stdin (only a word starting -m does)
		{"python -Im venv .venv", "stdin"},
		{"python -W -m", "-"}, // odd: -m as -W's value still counts as -m
		{"python -W -m script.py", "script 2"},
		{"python -X -m", "-"},
		{"python --check-hash-based-pycs always script.py", "script 2"},
		{"python --check-hash-based-pycs always -c x", "code \"x\"; blank 3"},
		{"python --check-hash-based-pycs=always script.py", "script 1"},
		{"python --check-hash-based-pycs -c x", "script 2"},
		{"python --version", "stdin"},
		{"python --help -c x", "code \"x\"; blank 2"},
		{"python -E -s -c x", "code \"x\"; blank 3"},
		{"python '' -c x", "script 0"},
		{"python -c ''", "code \"\"; blank 1"},
		{"python -q -i", "stdin"},
		{"python -x script.py", "script 1"},
		{"python -c x -m y", "code \"x\"; blank 1"},
		{"node -e code", "code \"code\"; blank 1"},
		{"node -e", "stdin"},
		{"node --eval code", "code \"code\"; blank 1"},
		{"node --eval=code", "code \"code\"; blank 0"},
		{"node --eval= x.js", "code \"\"; blank 0"},
		{"node -p code", "code \"code\"; blank 1"},
		{"node --print code", "code \"code\"; blank 1"},
		{"node --print=code", "code \"code\"; blank 0"},
		{"node -pe code", "code \"code\"; blank 1"},
		{"node -ep code", "code \"code\"; blank 1"},
		{"node -e a -e b", "code \"a\"; code \"b\"; blank 1 3"},
		{"node -e a script.js", "code \"a\"; blank 1"},
		{"node -e a -", "code \"a\"; blank 1"},
		{"node -ecode", "stdin"},                   // node takes no attached value (node: bad option)
		{"node -e=code", "code \"code\"; blank 0"}, // changed: node refuses -e=, --e, -eval (bad option): read as the option they spell
		{"node -eval code", "code \"code\"; blank 1"},
		{"node --e code", "code \"code\"; blank 1"},
		{"node -r dotenv/config -e code", "code \"code\"; blank 3"},
		{"node -r dotenv/config script.js", "script 2"},
		{"node --require=dotenv/config script.js", "script 1"},
		{"node --require dotenv/config script.js", "script 2"},
		{"node --import tsx app.ts", "script 2"},
		{"node --loader ts-node/esm app.ts", "script 2"},
		{"node --input-type module -e code", "code \"code\"; blank 3"},
		{"node --input-type=module", "stdin"},
		{"node -C dev app.js", "script 2"},
		{"node --conditions dev app.js", "script 2"},
		{"node app.js", "script 0"},
		{"node app.js -e code", "script 0"},
		{"node --inspect app.js", "script 1"},
		{"node -", "stdin"},
		{"node", "stdin"},
		{"node --", "-"},
		{"node -- app.js", "script 1"},
		{"node -- -e code", "script 1"},
		{"node --no-warnings -", "stdin"},
		{"node -r", "stdin"},
		{"node --title x app.js", "script 1"},
		{"deno eval code", "code \"code\"; blank 1"},
		{"deno eval -p code", "code \"code\"; blank 2"},
		{"deno eval", "-"},
		{"deno run -A x.ts", "-"},
		{"deno", "-"},
		{"deno eval --ext ts a b", "code \"b\"; blank 4"},
		{"perl -e code", "code \"code\"; blank 1"},
		{"perl -ecode", "code \"code\"; blank 0"},
		{"perl -E code", "code \"code\"; blank 1"},
		{"perl -Ecode", "code \"code\"; blank 0"},
		{"perl -ne code file", "code \"code\"; blank 1"},
		{"perl -lne code file", "code \"code\"; blank 1"}, // fixed: -l takes digits only, then -n -e
		{"perl -wle code", "code \"code\"; blank 1"},      // fixed: as above
		{"perl -pi -e code f", "code \"code\"; blank 2"},
		{"perl -pie code f", "script 1"},
		{"perl -i.bak -pe code f", "code \"code\"; blank 2"},
		{"perl -e a -e b", "code \"a\"; code \"b\"; blank 1 3"},
		{"perl -e a script.pl", "code \"a\"; blank 1"},
		{"perl script.pl", "script 0"},
		{"perl script.pl -e x", "script 0"},
		{"perl -w script.pl", "script 1"},
		{"perl -I lib script.pl", "script 2"},
		{"perl -Ilib script.pl", "script 1"},
		{"perl -I lib -e code", "code \"code\"; blank 3"},
		{"perl -C -e code", "code \"code\"; blank 2"}, // fixed: -C takes no next word
		{"perl -CSD -e code", "code \"code\"; blank 2"},
		{"perl -Mstrict -e code", "code \"code\"; blank 2"},
		{"perl -MList::Util=sum -e code", "code \"code\"; blank 2"},
		{"perl -M strict -e code", "script 1"},
		{"perl -Te code", "code \"code\"; blank 1"}, // fixed: -T is a flag
		{"perl -T -e code", "code \"code\"; blank 2"},
		{"perl -0777 -ne code", "code \"code\"; blank 2"},
		{"perl -00 -e code", "code \"code\"; blank 2"},
		{"perl -l -e code", "code \"code\"; blank 2"},
		{"perl -x script", "script 1"},
		{"perl -F: -lane code", "code \"code\"; blank 2"}, // fixed: -l again
		{"perl -d -e code", "code \"code\"; blank 2"},
		{"perl -", "stdin"},
		{"perl - -e x", "stdin"},
		{"perl", "stdin"},
		{"perl -w", "stdin"},
		{"perl --", "-"},
		{"perl -- script.pl", "script 1"},
		{"perl -- -e x", "script 1"},
		{"perl --help -e x", "code \"x\"; blank 2"},
		{"perl -e", "stdin"},
		{"perl -n", "stdin"},
		{"perl -s -e code -- -x", "code \"code\"; blank 2"},
		{"perl -0777ne code f", "code \"code\"; blank 1"},
		{"perl -l0e code", "code \"code\"; blank 1"},
		{"perl -0x1e f", "script 1"},
		{"perl -CSe code", "code \"code\"; blank 1"},
		{"perl -d:Trace -e code", "code \"code\"; blank 2"},
		{"perl -Dtls -e code", "code \"code\"; blank 2"},
		{"perl -Mstrict=vars -we code", "code \"code\"; blank 2"},
		{"perl -Ilib -Ie code", "script 2"},
		{"ruby -e code", "code \"code\"; blank 1"},
		{"ruby -ecode", "code \"code\"; blank 0"},
		{"ruby -ne code", "code \"code\"; blank 1"},
		{"ruby -E utf-8 -e code", "code \"code\"; blank 3"},
		{"ruby -Eutf-8 -e code", "code \"code\"; blank 2"},
		{"ruby -r json -e code", "code \"code\"; blank 3"},
		{"ruby -rjson -e code", "code \"code\"; blank 2"},
		{"ruby -I lib script.rb", "script 2"},
		{"ruby -C dir script.rb", "script 2"},
		{"ruby -Cdir -e code", "code \"code\"; blank 2"},
		{"ruby -Ke -e code", "code \"code\"; blank 2"},
		{"ruby -W0 -e code", "code \"code\"; blank 2"},
		{"ruby -Wne code", "script 1"},
		{"ruby -run -e httpd . -p 8000", "code \"httpd\"; blank 2"},
		{"ruby -x script", "script 1"},
		{"ruby script.rb", "script 0"},
		{"ruby -w script.rb -e x", "script 1"},
		{"ruby -", "stdin"},
		{"ruby", "stdin"},
		{"ruby --", "-"},
		{"ruby -- -e x", "script 1"},
		{"ruby --disable-gems -e code", "code \"code\"; blank 2"},
		{"ruby --encoding utf-8 script.rb", "script 1"},
		{"ruby -E code", "stdin"},
		{"ruby -e a -e b", "code \"a\"; code \"b\"; blank 1 3"},
		{"php -r code", "code \"code\"; blank 1"},
		{"php -rcode", "-"}, // php options are whole words: no attached value, no clusters
		{"php -r", "-"},
		{"php -R code", "code \"code\"; blank 1"},
		{"php -B begin -R code -E end", "code \"begin\"; code \"code\"; code \"end\"; blank 1 3 5"},
		{"php -f script.php", "script 1"}, // fixed: -f names the script
		{"php -c php.ini script.php", "script 2"},
		{"php -d memory_limit=1G script.php", "script 2"},
		{"php -d display_errors=1 -r code", "code \"code\"; blank 3"},
		{"php script.php", "script 0"},
		{"php script.php -r code", "code \"code\"; blank 2"},
		{"php script.php other.php", "script 0"},
		{"php -S localhost:8000 -t public", "script 1"},
		{"php -t public -S x", "script 3"},
		{"php -z ext.so script.php", "script 2"},
		{"php -", "-"},
		{"php", "-"},
		{"php --", "-"},
		{"php -- script.php", "script 1"},
		{"php -- -r code", "script 2"}, // changed: -- ends php's options
		{"php -nr code", "script 1"},
		{"php -n script.php", "script 1"},
		{"php --r code", "code \"code\"; blank 1"}, // changed: php's options are read like -r, with an attached =value
		{"php -r=code", "code \"code\"; blank 0"},
		{"php -a", "-"},
		{"php -q script.php arg", "script 1"},
		{"php --run code", "code \"code\"; blank 1"},
		{"php --process-code code", "code \"code\"; blank 1"},
		{"php --file script.php", "script 1"},
		{"php -f script.php -r code", "code \"code\"; blank 3"},
		{"php --define x=1 script.php", "script 2"},
		{"pwsh -Command Get-ChildItem", "code \"Get-ChildItem\"; blank 1"},
		{"pwsh -Command Remove-Item -Recurse x", "code \"Remove-Item -Recurse x\"; blank 1 2 3"},
		{"pwsh -c ls ~", "code \"ls ~\"; blank 1 2"},
		{"pwsh -C ls", "code \"ls\"; blank 1"},
		{"pwsh -co ls", "code \"ls\"; blank 1"},
		{"pwsh /c ls", "code \"ls\"; blank 1"},
		{"pwsh /Command ls", "code \"ls\"; blank 1"},
		{"pwsh -command -", "stdin"},
		{"pwsh -c -", "code \"-\"; blank 1"}, // odd: only the full -command reads stdin from -
		{"pwsh -", "stdin"},
		{"pwsh -NoProfile -Command ls", "code \"ls\"; blank 2"},
		{"pwsh -NoProfile -NonInteractive ls", "code \"ls\"; blank 2"},
		{"pwsh -ExecutionPolicy Bypass -File x.ps1", "script 3"},
		{"pwsh -ep Bypass -c ls", "code \"ls\"; blank 3"},
		{"pwsh -ex Bypass ls", "code \"ls\"; blank 2"},
		{"pwsh /ep Bypass ls", "code \"ls\"; blank 2"}, // changed: /ep takes its value as -ep does
		{"pwsh -File x.ps1 -c ls", "script 1"},
		{"pwsh -f x.ps1", "script 1"},
		{"pwsh -fi x.ps1", "script 1"},
		{"pwsh -File", "-"},
		{"pwsh -EncodedCommand UgBlAG0AbwB2AGUALQBJAHQAZQBtACAAeAA=", "code \"Remove-Item x\"; blank 1"},
		{"pwsh -enc UgBlAG0AbwB2AGUALQBJAHQAZQBtACAAeAA=", "code \"Remove-Item x\"; blank 1"},
		{"pwsh -e UgBlAG0AbwB2AGUALQBJAHQAZQBtACAAeAA=", "code \"Remove-Item x\"; blank 1"},
		{"pwsh -ec UgBlAG0AbwB2AGUALQBJAHQAZQBtACAAeAA=", "code \"Remove-Item x\"; blank 1"},
		{"pwsh -enc notbase64!", "code \"notbase64!\"; blank 1"},
		{"pwsh -enc", "-"},
		{"pwsh -WindowStyle Hidden -enc UgBlAG0AbwB2AGUALQBJAHQAZQBtACAAeAA=", "code \"Remove-Item x\"; blank 3"},
		{"pwsh -w hidden ls", "code \"ls\"; blank 2"},
		{"pwsh -wd /tmp -c ls", "code \"ls\"; blank 3"},
		{"pwsh -WorkingDirectory /tmp ls", "code \"ls\"; blank 2"},
		{"pwsh -con x ls", "code \"x ls\"; blank 1 2"}, // odd: -con is neither -command nor a listed option
		{"pwsh -ConfigurationName x ls", "code \"ls\"; blank 2"},
		{"pwsh -Version 7 -c ls", "code \"ls\"; blank 3"},
		{"pwsh -v 7 ls", "code \"ls\"; blank 2"},
		{"pwsh -OutputFormat Text -c ls", "code \"ls\"; blank 3"},
		{"pwsh -of Text ls", "code \"ls\"; blank 2"},
		{"pwsh -if Text ls", "code \"ls\"; blank 2"},
		{"pwsh -InputFormat Text ls", "code \"ls\"; blank 2"},
		{"pwsh -SettingsFile s.json ls", "code \"ls\"; blank 2"},
		{"pwsh -CustomPipeName p ls", "code \"ls\"; blank 2"},
		{"pwsh -Login ls", "code \"ls\"; blank 1"},
		{"pwsh -- ls", "code \"ls\"; blank 1"},
		{"pwsh", "-"},
		{"pwsh Get-Item x", "code \"Get-Item x\"; blank 0 1"},
		{"pwsh -NoLogo", "-"},
		{"awk {print}", "code \"{print}\"; blank 0"},
		{"awk {print} file", "code \"{print}\"; blank 0"},
		{"awk -F: {print} /etc/passwd", "code \"{print}\"; blank 1"},
		{"awk -F : {print} f", "code \"{print}\"; blank 2"},
		{"awk -v x=1 {print}", "code \"{print}\"; blank 2"},
		{"awk -vx=1 {print}", "code \"{print}\"; blank 1"},
		{"awk --assign x=1 {print}", "code \"{print}\"; blank 2"},
		{"awk --assign=x=1 {print}", "code \"{print}\"; blank 1"},
		{"awk --field-separator : {print}", "code \"{print}\"; blank 2"},
		{"awk -f prog.awk file", "-"},
		{"awk -fprog.awk file", "-"},
		{"awk --file prog.awk", "-"},
		{"awk --file=prog.awk", "-"},
		{"awk -E prog.awk", "-"},
		{"awk --exec prog.awk", "-"},
		{"awk --exec=prog.awk", "-"},
		{"awk -i lib.awk {print}", "code \"{print}\"; blank 2"}, // fixed: -i loads a library, the program is still the operand
		{"awk --include lib.awk {print}", "code \"{print}\"; blank 2"},
		{"awk --include=lib.awk {print}", "code \"{print}\"; blank 1"},
		{"awk -e {print}", "code \"{print}\"; blank 1"},
		{"awk -e {print} -e {x}", "code \"{print}\"; code \"{x}\"; blank 1 3"},
		{"awk -e{print} f", "code \"{print}\"; blank 0"}, // changed: -e takes an attached value
		{"awk --source {print}", "code \"{print}\"; blank 1"},
		{"awk --source={print}", "code \"{print}\"; blank 0"},
		{"awk --source={print} {y}", "code \"{print}\"; blank 0"},
		{"awk -l ext {print}", "code \"{print}\"; blank 2"},
		{"awk --load ext {print}", "code \"{print}\"; blank 2"},
		{"awk -- {print} f", "code \"{print}\"; blank 1"},
		{"awk --", "-"},
		{"awk -", "code \"-\"; blank 0"},
		{"awk", "-"},
		{"awk -n {print}", "code \"{print}\"; blank 1"},
		{"awk -nf prog.awk", "-"}, // changed: -f in a cluster is seen
		{"awk -f", "-"},
		{"awk -f prog.awk -e {x}", "code \"{x}\"; blank 3"},
		{"awk --posix {print}", "code \"{print}\"; blank 1"},
		{"awk -W posix {print}", "code \"{print}\"; blank 2"}, // fixed: -W takes a value
		{"awk -Wposix {print}", "code \"{print}\"; blank 1"},
		{"awk -W posix -f prog.awk", "-"},
	} {
		w := interpWords(c.line)
		assert.Equal(t, c.want, interpArgs(Interpreter(w[0]), w[1:]).String(), c.line)
	}
}

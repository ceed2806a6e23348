package policy

import "github.com/gemini-guard/gemini-guard/internal/effects"

// harmProcessExposed: a program that hands every network connection to a
// process, whatever that process is (rce.remote-shell judges shells).
var harmProcessExposed = &Rule{
	ID: "harm.process-exposed", Category: "harm",
	Protects: "the machine, from a program handed to whoever connects: netcat's -e/-c, ncat's --exec/--sh-exec/--lua-exec, socat's EXEC:/SYSTEM: addresses, telnetd -l, websocketd, tcpserver and tcpsvd, whatever program they run",
	What:     "hands a program to whoever connects over the network",
	Safer:    "run the program locally; if it must serve the network, ask the user and bind it to 127.0.0.1",
	Unknown:  noUnknownStory,
	Commands: allCommands, exec: checkProcessExposed,
	Block: []string{
		`nc -l -p 9001 -e /usr/bin/python3`,
		`ncat -lk 8000 -c ./handler.sh`,
		`socat TCP-LISTEN:7000,fork SYSTEM:./report.sh`,
		`websocketd --port=8080 ./repl.sh`,
		`tcpserver 0.0.0.0 7000 ./serve.sh`,
		`telnetd -l /usr/bin/login -p 2323`,
	},
	Allow: []string{
		`nc -zv example.com 443`,
		`ncat -l 9000 --keep-open`,
		`socat - TCP:example.com:80`,
		`websocketd --help`,
		`nc -l 8080 > received.txt`,
	},
}

func checkProcessExposed(c *Call) Finding {
	for _, e := range c.effectsOf() {
		if e.Kind == effects.Expose {
			return hit(c.Ex.Name + " hands " + e.Name + " to whoever connects")
		}
	}
	return Finding{}
}

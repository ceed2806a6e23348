package policy

import "github.com/gemini-guard/gemini-guard/internal/effects"

// harmHostStop: the Windows host or the WSL VM the agent runs in stopped,
// a process Windows cannot run without killed, or the network taken away,
// from WSL or Git Bash (proc.* judges the Unix spellings by name).
var harmHostStop = &Rule{
	ID: "harm.host-stop", Category: "harm",
	Protects: "the running Windows host and its WSL VM, seen from WSL or Git Bash: wsl --shutdown (every distribution stopped), taskkill of svchost, lsass, csrss, wininit, winlogon, smss or services, or of every process of a user (/fi \"USERNAME eq …\"), Stop-Process of one of those, Disable-NetAdapter, netsh interface set … disabled",
	What:     "stops the host the agent runs on or takes its network away",
	Safer:    "ask the user to restart or reconfigure the machine; stop only the program the task started (taskkill /im node.exe)",
	Unknown:  noUnknownStory,
	Commands: []string{"*"}, exec: checkHostStop,
	Block: []string{
		`wsl.exe --shutdown`,
		`taskkill.exe /f /im svchost.exe`,
		`taskkill.exe /f /fi 'USERNAME eq ann'`,
		`powershell.exe -c 'Stop-Process -Name lsass -Force'`,
		`powershell.exe -c 'Disable-NetAdapter -Name * -Confirm:$false'`,
		`netsh.exe interface set interface name='Ethernet' admin=disabled`,
	},
	Allow: []string{
		`wsl.exe --list --verbose`,
		`taskkill.exe /im node.exe /f`,
		`powershell.exe -c 'Stop-Process -Name vite'`,
		`powershell.exe -c 'Get-NetAdapter'`,
		`netsh.exe interface show interface`,
		`wsl.exe --terminate Ubuntu-22.04`,
	},
}

func checkHostStop(c *Call) Finding {
	if e, ok := c.effect(effects.Change, effects.Host); ok {
		return hit(e.Action + ": " + e.Name)
	}
	return Finding{}
}

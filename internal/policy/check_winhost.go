package policy

import (
	"slices"
	"strings"
)

// The Windows host reached from WSL or Git Bash: cmd.exe and PowerShell
// run their own command language, which the shell parser does not read,
// and Windows' own tools (vssadmin, bcdedit, reg, schtasks, icacls …) are
// on the PATH. The harms are the same as on Linux — a drive or profile
// deleted, a volume formatted, the backups and shadow copies deleted, the
// defences switched off, a program started at every logon, system ACLs
// opened — so the check reads the Windows command text word by word and
// judges each command's verb and target.

// winShells are the programs whose argument is a Windows command text.
func winShellText(name string, args []string) (string, bool) {
	switch name {
	case "cmd":
		for i, a := range args {
			if l := strings.ToLower(a); l == "/c" || l == "/k" || l == "/r" {
				return strings.Join(args[i+1:], " "), true
			}
		}
	case "powershell", "pwsh", "powershell_ise":
		var words []string
		for i := 0; i < len(args); i++ {
			l := strings.ToLower(args[i])
			switch {
			case l == "-c" || l == "-command" || l == "/c" || l == "-com" || l == "-comm":
				return strings.Join(args[i+1:], " "), true
			case l == "-encodedcommand" || l == "-enc" || l == "-e" || l == "-ec":
				return "", true // judged by shell.dynamic-code's reading of encoded text, not here
			case strings.HasPrefix(l, "-") && (l == "-executionpolicy" || l == "-ep" || l == "-file" || l == "-f" || l == "-windowstyle" || l == "-w" || l == "-configurationname" || l == "-workingdirectory" || l == "-wd"):
				i++ // an option with a value
			case strings.HasPrefix(l, "-"):
			default:
				words = append(words, args[i:]...)
				return strings.Join(words, " "), true
			}
		}
	}
	return "", false
}

// winWords splits a Windows command text into commands of lower-cased
// words, without quotes, at &, &&, ||, | and ;.
func winWords(text string) [][]string {
	var cmds [][]string
	var cur []string
	flush := func() {
		if len(cur) > 0 {
			cmds = append(cmds, cur)
			cur = nil
		}
	}
	for _, w := range strings.Fields(text) {
		w = strings.ToLower(strings.Trim(w, `"'`+"`"))
		end := false
		if strings.HasSuffix(w, ";") {
			w, end = strings.TrimSuffix(w, ";"), true
		}
		switch w {
		case "&", "&&", "||", "|", ";":
			flush()
			continue
		}
		if w != "" {
			cur = append(cur, strings.Trim(w, `"'`))
		}
		if end {
			flush()
		}
	}
	flush()
	return cmds
}

// winOutside reports whether a Windows path names something outside the
// workspace and temp: a drive, a UNC share, a profile or system folder
// variable, home. Relative paths are the workspace (WSL starts Windows
// programs in the current directory).
func winOutside(p string) bool {
	p = strings.ToLower(strings.Trim(p, `"'`))
	if winTemp(strings.ReplaceAll(p, "/", `\`)) { // C:/Users/u/AppData/Local/Temp in Git Bash
		return false
	}
	switch {
	case len(p) >= 2 && p[1] == ':' && p[0] >= 'a' && p[0] <= 'z':
		// C:\x, C:/x, and C:x: an unquoted C:\Users reaches the program
		// as C:Users once bash has removed the backslashes.
		return true
	case strings.HasPrefix(p, `\\`), strings.HasPrefix(p, `\`), strings.HasPrefix(p, "~"), strings.HasPrefix(p, "$home"):
		return true
	case strings.HasPrefix(p, "%") || strings.HasPrefix(p, "$env:") || strings.HasPrefix(p, "${env:"):
		return true // %USERPROFILE%, %SystemRoot%, $env:APPDATA …: every variable but temp's is outside
	}
	return false
}

// winInWorkspace reports whether a drive path names something inside the
// workspace as Git Bash (/c/Users/me/proj) or WSL (/mnt/c/Users/me/proj)
// sees it: C:\Users\me\proj\build is the workspace's build.
func winInWorkspace(p, workspace string) bool {
	p = strings.ToLower(strings.ReplaceAll(strings.Trim(p, `"'`), `\`, "/"))
	if workspace == "" || len(p) < 3 || p[1] != ':' || p[2] != '/' {
		return false
	}
	ws := strings.ToLower(strings.TrimSuffix(workspace, "/")) + "/"
	for _, root := range []string{"/" + p[:1], "/mnt/" + p[:1]} {
		if strings.HasPrefix(root+p[2:], ws) {
			return true
		}
	}
	return false
}

// runKey reports whether a registry path is a Run or RunOnce key, also
// with its backslashes removed by bash (…CurrentVersionRun).
func runKey(a string) bool {
	return strings.Contains(a, `\run`) || strings.Contains(a, "currentversionrun")
}

func winTemp(p string) bool {
	for _, t := range []string{"%temp%", "%tmp%", "$env:temp", "$env:tmp", "${env:temp}", `\appdata\local\temp`, "appdatalocaltemp"} { // the last: C:\Users\u\AppData\Local\Temp unquoted, after bash
		if strings.Contains(p, t) {
			return true
		}
	}
	return false
}

// winPathWord is a Windows path: a drive (C:, C:\x), a backslash path, a
// %VARIABLE% or $env: path.
func winPathWord(a string) bool {
	return len(a) >= 2 && a[1] == ':' && (a[0]|0x20) >= 'a' && (a[0]|0x20) <= 'z' || strings.HasPrefix(a, `\`) || strings.Contains(a, "%") || strings.HasPrefix(a, "$env:")
}

// checkWindows judges cmd.exe and PowerShell command texts and Windows'
// own tools called directly.
func checkWindows(c *Call) Finding {
	if text, ok := winShellText(c.Ex.Name, c.Args); ok {
		for _, w := range winWords(text) {
			if what := winJudge(w, text, c.Ctx.Workspace); what != "" {
				return hit(what)
			}
		}
		return Finding{}
	}
	switch c.Ex.Name {
	case "rm", "rd", "del", "erase": // names Linux shares: only with a Windows path
		if !slices.ContainsFunc(c.Args, winPathWord) {
			return Finding{} // rm -rf build: nothing to look at, nothing allocated
		}
	}
	words := make([]string, 0, len(c.Args)+1)
	words = append(words, c.Ex.Name)
	for _, a := range c.Args {
		words = append(words, strings.ToLower(a))
	}
	if what := winJudge(words, "", c.Ctx.Workspace); what != "" {
		return hit(what)
	}
	return Finding{}
}

// winJudge judges one Windows command (lower-cased words, verb first);
// text is the whole command text it came from, for pipelines.
func winJudge(w []string, text, workspace string) string {
	verb, args := strings.TrimSuffix(w[0], ".exe"), w[1:]
	has := func(opts ...string) bool {
		for _, a := range args {
			for _, o := range opts {
				if a == o {
					return true
				}
			}
		}
		return false
	}
	targets := func() []string {
		var out []string
		for i, a := range args {
			if strings.HasPrefix(a, "/") && len(a) <= 3 || strings.HasPrefix(a, "-") && a != "-" {
				if a == "-path" || a == "-literalpath" || a == "-lp" {
					if i+1 < len(args) {
						out = append(out, args[i+1])
					}
				}
				continue
			}
			out = append(out, a)
		}
		return out
	}
	outside := func() string {
		for _, t := range targets() {
			if winOutside(t) && !winInWorkspace(t, workspace) {
				return t
			}
		}
		return ""
	}
	switch verb {
	case "rd", "rmdir":
		if t := outside(); t != "" && has("/s", "-recurse", "-r") {
			return "deletes the Windows folder " + t + " and everything in it"
		}
	case "del", "erase":
		if t := outside(); t != "" {
			return "deletes Windows files outside the workspace (" + t + ")"
		}
	case "remove-item", "ri", "rm":
		if t := outside(); t != "" {
			return "deletes " + t + " on the Windows host"
		}
		if len(targets()) == 0 && strings.Contains(text, "|") {
			for _, p := range strings.Fields(strings.ToLower(text)) {
				if winOutside(p) {
					return "deletes what a pipeline lists under " + p + " on the Windows host"
				}
			}
		}
	case "format", "format-volume", "clear-disk", "initialize-disk", "remove-partition", "diskpart", "reset-physicaldisk":
		if has("/?", "-?", "--help", "-h", "-help") {
			break
		}
		if verb == "format" && !slices.ContainsFunc(args, func(a string) bool { return len(a) == 2 && a[1] == ':' && a[0] >= 'a' && a[0] <= 'z' }) {
			break // "format" is a common word (biome format src); cmd's format names a drive
		}
		return verb + " erases a disk or volume of the Windows host"
	case "vssadmin":
		if has("delete", "resize") {
			return "vssadmin deletes the volume shadow copies (Windows' restore points)"
		}
	case "wmic":
		if has("shadowcopy") && has("delete") {
			return "wmic shadowcopy delete deletes the volume shadow copies"
		}
	case "wbadmin":
		if has("delete") {
			return "wbadmin delete deletes Windows backups or their catalog"
		}
	case "bcdedit":
		if has("/set", "/delete", "/deletevalue", "/import", "/default", "/bootsequence") {
			return "bcdedit changes how Windows boots"
		}
	case "set-mppreference", "add-mppreference":
		for _, a := range args {
			if strings.HasPrefix(a, "-disable") || strings.HasPrefix(a, "-exclusion") {
				return verb + " " + a + " switches Microsoft Defender off or exempts files from it"
			}
		}
	case "set-netfirewallprofile":
		if has("-enabled") && (has("false") || has("0")) {
			return "turns the Windows firewall off"
		}
	case "netsh":
		if has("advfirewall", "firewall") && (has("off") || has("disable")) {
			return "netsh turns the Windows firewall off"
		}
	case "reg":
		if has("add", "delete", "import", "copy", "restore", "load") && !has("query") {
			for _, a := range args {
				if runKey(a) || strings.Contains(a, "winlogon") || strings.Contains(a, "image file execution options") || strings.Contains(a, `\services\`) || strings.HasPrefix(a, "hklm") || strings.HasPrefix(a, "hkey_local_machine") {
					return "reg changes the machine's registry or what starts at every logon (" + a + ")"
				}
			}
		}
	case "new-itemproperty", "set-itemproperty":
		for _, a := range args {
			if runKey(a) || strings.Contains(a, "winlogon") {
				return "adds a program to what Windows starts at every logon"
			}
		}
	case "schtasks":
		if has("/create", "/change", "/delete") {
			return "schtasks installs or changes a scheduled task"
		}
	case "register-scheduledtask", "unregister-scheduledtask", "new-service", "sc":
		if verb != "sc" || has("create", "config", "delete") {
			return verb + " installs or changes a scheduled task or service"
		}
	case "takeown":
		if t := outside(); t != "" {
			return "takeown takes ownership of " + t
		}
	case "icacls", "cacls":
		if t := outside(); t != "" {
			for _, a := range args {
				if a == "/grant" || a == "/reset" || a == "/setowner" || strings.HasPrefix(a, "/grant:") || strings.HasPrefix(a, "everyone") || strings.HasPrefix(a, "*s-1-1-0") {
					return verb + " opens or changes the permissions of " + t
				}
			}
		}
	case "wsl":
		if has("--unregister") {
			return "wsl --unregister deletes a Linux distribution and every file in it"
		}
	case "stop-computer", "restart-computer":
		return verb + " stops the Windows host"
	case "shutdown":
		if has("/s", "/r", "/p", "/h", "/g", "-s", "-r") {
			return "shutdown stops the Windows host"
		}
	case "net":
		if has("user", "localgroup") && has("/add", "/delete", "/del") {
			return "net changes the host's accounts or groups"
		}
	}
	return ""
}

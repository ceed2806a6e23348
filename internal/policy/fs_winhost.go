package policy

import (
	"slices"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/lazyregexp"
	"github.com/gemini-guard/gemini-guard/internal/shell"
)

// The Windows host reached from WSL or Git Bash: cmd.exe and PowerShell
// run their own command language, which the shell parser does not read,
// and Windows' own tools (vssadmin, bcdedit, reg, schtasks, icacls …) are
// on the PATH. The harms are the same as on Linux — a drive or profile
// deleted, a volume formatted, the backups and shadow copies deleted, the
// defences switched off, a program started at every logon, system ACLs
// opened — so the check reads the Windows command text word by word and
// judges each command's verb and target.

// winShellText is the Windows command text cmd.exe (/c, /k, /r) or
// PowerShell (-Command, or the first word that is not an option) is given.
func winShellText(name string, args []string) (string, bool) {
	switch name {
	case "cmd":
		for i, a := range args {
			if l := strings.ToLower(a); l == "/c" || l == "/k" || l == "/r" {
				return strings.Join(args[i+1:], " "), true
			}
		}
	case "powershell", "pwsh", "powershell_ise":
		return powershellText(args)
	}
	return "", false
}

// powershellValued are PowerShell's options that take a value.
var powershellValued = []string{"-executionpolicy", "-ep", "-file", "-f", "-windowstyle", "-w", "-configurationname", "-workingdirectory", "-wd"}

// powershellText is the command text of a PowerShell command line; an
// encoded command is judged by shell.dynamic-code's reading of encoded
// text, not here.
func powershellText(args []string) (string, bool) {
	for i := 0; i < len(args); i++ {
		l := strings.ToLower(args[i])
		switch {
		case l == "-c" || l == "-command" || l == "/c" || l == "-com" || l == "-comm":
			return strings.Join(args[i+1:], " "), true
		case l == "-encodedcommand" || l == "-enc" || l == "-e" || l == "-ec":
			return "", true
		case slices.Contains(powershellValued, l):
			i++ // an option with a value
		case strings.HasPrefix(l, "-"):
		default:
			return strings.Join(args[i:], " "), true
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
	case "diskpart":
		if diskpartListing(c) {
			return Finding{}
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

// winCmd is one Windows command: its verb without .exe, its lower-cased
// arguments, the whole command text it came from (for pipelines) and the
// workspace.
type winCmd struct {
	verb      string
	args      []string
	text      string
	workspace string
}

// has reports whether one of the arguments is one of opts.
func (w winCmd) has(opts ...string) bool {
	return slices.ContainsFunc(w.args, func(a string) bool { return slices.Contains(opts, a) })
}

// hasPrefix reports whether an argument starts with one of prefixes.
func (w winCmd) hasPrefix(prefixes ...string) (string, bool) {
	for _, a := range w.args {
		for _, p := range prefixes {
			if strings.HasPrefix(a, p) {
				return a, true
			}
		}
	}
	return "", false
}

// targets are the arguments that are not options, and the values of
// PowerShell's -Path and -LiteralPath.
func (w winCmd) targets() []string {
	var out []string
	for i, a := range w.args {
		if strings.HasPrefix(a, "/") && len(a) <= 3 || strings.HasPrefix(a, "-") && a != "-" {
			if (a == "-path" || a == "-literalpath" || a == "-lp") && i+1 < len(w.args) {
				out = append(out, w.args[i+1])
			}
			continue
		}
		out = append(out, a)
	}
	return out
}

// outside is the first target outside the workspace and temp (winOutside).
func (w winCmd) outside() string {
	for _, t := range w.targets() {
		if winOutside(t) && !winInWorkspace(t, w.workspace) {
			return t
		}
	}
	return ""
}

// whatIf reports whether a PowerShell cmdlet (Verb-Noun) is given -WhatIf:
// it then only prints what it would do. Aliases (rm, del) are not taken
// at their word: called from bash or cmd.exe, -whatif is just a name.
func (w winCmd) whatIf() bool {
	return strings.Contains(w.verb, "-") && w.has("-whatif", "-whatif:$true")
}

// winVerb judges the Windows commands named names: the harm it does, ""
// for none.
type winVerb struct {
	names []string
	judge func(w winCmd) string
}

// winVerbs are the Windows commands judged, by verb.
var winVerbs = []winVerb{
	{[]string{"rd", "rmdir"}, winRd},
	{[]string{"del", "erase"}, winDel},
	{[]string{"remove-item", "ri", "rm"}, winRemoveItem},
	{[]string{"format", "format-volume", "clear-disk", "initialize-disk", "remove-partition", "diskpart", "reset-physicaldisk"}, winFormat},
	{[]string{"vssadmin"}, winVssadmin},
	{[]string{"wmic"}, winWmic},
	{[]string{"wbadmin"}, winWbadmin},
	{[]string{"bcdedit"}, winBcdedit},
	{[]string{"set-mppreference", "add-mppreference"}, winSetMppreference},
	{[]string{"set-netfirewallprofile"}, winSetNetfirewallprofile},
	{[]string{"netsh"}, winNetsh},
	{[]string{"reg"}, winReg},
	{[]string{"new-itemproperty", "set-itemproperty"}, winNewItemproperty},
	{[]string{"schtasks"}, winSchtasks},
	{[]string{"register-scheduledtask", "unregister-scheduledtask", "new-service", "sc"}, winRegisterScheduledtask},
	{[]string{"takeown"}, winTakeown},
	{[]string{"icacls", "cacls"}, winACL},
	{[]string{"wsl"}, winWsl},
	{[]string{"stop-computer", "restart-computer"}, winStopComputer},
	{[]string{"shutdown"}, winShutdown},
	{[]string{"net"}, winNet},
}

// winVssadmin judges vssadmin.
func winVssadmin(w winCmd) string {
	if w.has("delete", "resize") {
		return "vssadmin deletes the volume shadow copies (Windows' restore points)"
	}
	return ""
}

// winWmic judges wmic.
func winWmic(w winCmd) string {
	if w.has("shadowcopy") && w.has("delete") {
		return "wmic shadowcopy delete deletes the volume shadow copies"
	}
	return ""
}

// winWbadmin judges wbadmin.
func winWbadmin(w winCmd) string {
	if w.has("delete") {
		return "wbadmin delete deletes Windows backups or their catalog"
	}
	return ""
}

// winBcdedit judges bcdedit.
func winBcdedit(w winCmd) string {
	if w.has("/set", "/delete", "/deletevalue", "/import", "/default", "/bootsequence") {
		return "bcdedit changes how Windows boots"
	}
	return ""
}

// winSetMppreference judges set-mppreference.
func winSetMppreference(w winCmd) string {
	a, ok := w.hasPrefix("-disable", "-exclusion")
	if ok {
		return w.verb + " " + a + " switches Microsoft Defender off or exempts files from it"
	}
	return ""
}

// winSetNetfirewallprofile judges set-netfirewallprofile.
func winSetNetfirewallprofile(w winCmd) string {
	if w.has("-enabled") && w.has("false", "0") {
		return "turns the Windows firewall off"
	}
	return ""
}

// winNetsh judges netsh.
func winNetsh(w winCmd) string {
	if w.has("advfirewall", "firewall") && w.has("off", "disable") {
		return "netsh turns the Windows firewall off"
	}
	return ""
}

// winNewItemproperty judges new-itemproperty.
func winNewItemproperty(w winCmd) string {
	if slices.ContainsFunc(w.args, func(a string) bool { return runKey(a) || strings.Contains(a, "winlogon") }) {
		return "adds a program to what Windows starts at every logon"
	}
	return ""
}

// winSchtasks judges schtasks: a task created or changed (what it runs,
// or disabled), and Windows' own tasks or every task deleted. Deleting a
// task of one's own or a suspicious one destroys nothing of the host.
func winSchtasks(w winCmd) string {
	if w.has("/create", "/change") {
		return "schtasks installs or changes a scheduled task"
	}
	if !w.has("/delete") {
		return ""
	}
	i := slices.Index(w.args, "/tn")
	if i < 0 || i+1 >= len(w.args) || w.args[i+1] == "*" || strings.HasPrefix(strings.TrimLeft(w.args[i+1], `\/`), "microsoft") {
		return "schtasks deletes every scheduled task or one of Windows' own (its updates, Defender's scans)"
	}
	return ""
}

// winRegisterScheduledtask judges register-scheduledtask.
func winRegisterScheduledtask(w winCmd) string {
	if w.verb != "sc" || w.has("create", "config", "delete") {
		return w.verb + " installs or changes a scheduled task or service"
	}
	return ""
}

// winTakeown judges takeown.
func winTakeown(w winCmd) string {
	t := w.outside()
	if t != "" {
		return "takeown takes ownership of " + t
	}
	return ""
}

// winWsl judges wsl.
func winWsl(w winCmd) string {
	if w.has("--unregister") {
		return "wsl --unregister deletes a Linux distribution and every file in it"
	}
	return ""
}

// winStopComputer judges stop-computer.
func winStopComputer(w winCmd) string {
	return w.verb + " stops the Windows host"
}

// winShutdown judges shutdown.
func winShutdown(w winCmd) string {
	if w.has("/s", "/r", "/p", "/h", "/g", "-s", "-r") {
		return "shutdown stops the Windows host"
	}
	return ""
}

// winNet judges net.
func winNet(w winCmd) string {
	if w.has("user", "localgroup") && w.has("/add", "/delete", "/del") {
		return "net changes the host's accounts or groups"
	}
	return ""
}

// winJudge judges one Windows command (lower-cased words, verb first);
// text is the whole command text it came from, for pipelines.
func winJudge(words []string, text, workspace string) string {
	w := winCmd{verb: strings.TrimSuffix(words[0], ".exe"), args: words[1:], text: text, workspace: workspace}
	if w.whatIf() {
		return ""
	}
	for _, v := range winVerbs {
		if slices.Contains(v.names, w.verb) {
			return v.judge(w)
		}
	}
	return ""
}

func winRd(w winCmd) string {
	if t := w.outside(); t != "" && w.has("/s", "-recurse", "-r") {
		return "deletes the Windows folder " + t + " and everything in it"
	}
	return ""
}

func winDel(w winCmd) string {
	if t := w.outside(); t != "" {
		return "deletes Windows files outside the workspace (" + t + ")"
	}
	return ""
}

// winRemoveItem: Remove-Item of a path outside, or of what a pipeline
// lists under one (Get-ChildItem C:\Users\me | Remove-Item).
func winRemoveItem(w winCmd) string {
	if t := w.outside(); t != "" {
		return "deletes " + t + " on the Windows host"
	}
	if len(w.targets()) == 0 && strings.Contains(w.text, "|") {
		for _, p := range strings.Fields(strings.ToLower(w.text)) {
			if winOutside(p) {
				return "deletes what a pipeline lists under " + p + " on the Windows host"
			}
		}
	}
	return ""
}

// winFormat: the disk and volume erasers, but not their help, and cmd's
// format only with a drive ("format" is a common word: biome format src).
func winFormat(w winCmd) string {
	if w.has("/?", "-?", "--help", "-h", "-help") {
		return ""
	}
	if w.verb == "format" && !slices.ContainsFunc(w.args, func(a string) bool { return len(a) == 2 && a[1] == ':' && a[0] >= 'a' && a[0] <= 'z' }) {
		return ""
	}
	return w.verb + " erases a disk or volume of the Windows host"
}

// winReg: reg add/delete/import/… of the machine's hive or of what starts
// at every logon.
func winReg(w winCmd) string {
	if !w.has("add", "delete", "import", "copy", "restore", "load") || w.has("query") {
		return ""
	}
	for _, a := range w.args {
		if runKey(a) || strings.Contains(a, "winlogon") || strings.Contains(a, "image file execution options") || strings.Contains(a, `\services\`) || strings.HasPrefix(a, "hklm") || strings.HasPrefix(a, "hkey_local_machine") {
			return "reg changes the machine's registry or what starts at every logon (" + a + ")"
		}
	}
	return ""
}

// winACL: icacls/cacls granting, resetting or handing over a path outside,
// unless it only tightens the path's ACL (aclTightens).
func winACL(w winCmd) string {
	t := w.outside()
	if t == "" || aclTightens(w) {
		return ""
	}
	for _, a := range w.args {
		if a == "/grant" || a == "/reset" || a == "/setowner" || strings.HasPrefix(a, "/grant:") || strings.HasPrefix(a, "everyone") || strings.HasPrefix(a, "*s-1-1-0") {
			return w.verb + " opens or changes the permissions of " + t
		}
	}
	return ""
}

// broadPrincipals are the Windows groups that stand for many or all users
// (the SIDs of Everyone, Authenticated Users, Users, Guests, Anonymous).
var broadPrincipals = []string{"everyone", "users", "authenticated", "*s-1-1-0", "*s-1-5-11", "*s-1-5-32-545", "*s-1-5-32-546", "*s-1-5-7", "guests", "anonymous", "interactive", "network", "domain", "builtin\\users", "nt"}

// profileFileRe matches a path below a folder of a Windows profile
// (C:\Users\ann\.ssh\key, %USERPROFILE%\x), also as bash leaves it
// unquoted (C:Usersann.sshkey, a name icacls will not find).
var profileFileRe = &lazyregexp.Regexp{Expr: `^(?:[a-z]:[\\/]users[\\/][^\\/]+[\\/][^\\/]|[a-z]:users[^\\/]|%userprofile%[\\/]|\$env:userprofile[\\/])`}

// aclTightens reports whether icacls only tightens the ACL of a file in
// a profile, the way a private key is locked down on Windows:
// /inheritance:r drops every inherited entry, and every grant gives one
// named user read rights (R or RX). A grant to a group of many users, a
// write right, /reset, /setowner, a tree (/t), a path outside the
// profiles (C:\Windows\System32\config\SAM would lock SYSTEM out) or
// anything from cacls is not a tightening.
func aclTightens(w winCmd) bool {
	if w.verb != "icacls" || !w.has("/inheritance:r") || w.has("/reset", "/setowner", "/remove", "/remove:d", "/remove:g", "/t") {
		return false
	}
	grants := aclGrants(w.args)
	for _, t := range w.targets() {
		if !slices.Contains(grants, t) && winOutside(t) && !profileFileRe.MatchString(t) {
			return false
		}
	}
	return len(grants) > 0 && !slices.ContainsFunc(grants, func(g string) bool { return !readOnlyGrant(g) })
}

// aclGrants are the values (user:perm) of icacls' /grant and /grant:r.
func aclGrants(args []string) []string {
	var out []string
	for i, a := range args {
		if a != "/grant" && a != "/grant:r" {
			continue
		}
		for _, g := range args[i+1:] {
			if strings.HasPrefix(g, "/") {
				break
			}
			out = append(out, g)
		}
	}
	return out
}

// readOnlyGrant reports whether an icacls grant (user:perm) gives one
// named principal read rights only.
func readOnlyGrant(g string) bool {
	who, perm, ok := strings.Cut(g, ":")
	if !ok || who == "" || slices.ContainsFunc(broadPrincipals, func(b string) bool { return strings.HasPrefix(who, b) }) {
		return false
	}
	for _, flag := range []string{"(oi)", "(ci)", "(io)", "(ni)", "(i)"} {
		perm = strings.ReplaceAll(perm, flag, "")
	}
	perm = strings.Trim(perm, "()")
	return perm == "r" || perm == "rx"
}

// diskpartReaders are diskpart's commands that only show or pick a disk
// or volume; every other one (clean, format, create, delete, convert …)
// changes one.
var diskpartReaders = []string{"list", "lis", "detail", "det", "select", "sel", "exit", "rem", "help"}

// diskpartListing reports whether diskpart /s runs a script this command
// line wrote with known text (printf … > f, then /s "$(wslpath -w f)" or
// /s f) whose every line only lists, selects or shows details. A script
// the guard cannot read may erase a disk.
func diskpartListing(c *Call) bool {
	i := slices.IndexFunc(c.Args, func(a string) bool { return strings.EqualFold(a, "/s") })
	if i < 0 || i+1 >= len(c.Args) {
		return false
	}
	text, ok := c.Res.Written[diskpartScript(c, c.Args[i+1])]
	if !ok {
		return false
	}
	// printf's \n may still be written out: each piece counts as a line.
	for _, line := range strings.FieldsFunc(strings.ReplaceAll(text, `\n`, "\n"), func(r rune) bool { return r == '\n' || r == '\r' }) {
		if f := strings.Fields(strings.ToLower(line)); len(f) > 0 && !slices.Contains(diskpartReaders, f[0]) {
			return false
		}
	}
	return true
}

// diskpartScript is the Linux path of the script given to diskpart /s:
// the operand of the wslpath that names it, or the word itself.
func diskpartScript(c *Call, arg string) string {
	for _, u := range c.Res.Unknowns(arg) {
		for _, ex := range u.Execs {
			if ops := operands(ex.Args[1:]); ex.Name == "wslpath" && len(ops) > 0 {
				return shell.ResolvePath(ex.Dir, ops[len(ops)-1])
			}
		}
	}
	if !shell.Known(arg) {
		return ""
	}
	return shell.ResolvePath(c.Ex.Dir, arg)
}

package effects

import (
	"encoding/base64"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"

	"github.com/gemini-guard/gemini-guard/internal/shell"
)

// Secrets is the Area of a Read that is not a file: a program that prints
// a stored secret, mints a token, or dumps a process's memory.
const Secrets Area = 10

// ProcessMemory is the Name of a Secrets read that dumps a process's (or
// the machine's) memory.
const ProcessMemory = "a process's or the machine's memory"

// Switch describes a program call by its subcommand words and options:
// Words are operand sequences that must start the operands (any one of
// them), Opts option names of which one must be present; a call matches
// when its Words (if any) and its Opts (if any) match.
type Switch struct {
	Names []string
	Opts  shell.OptSpec
	Words [][]string
	Flags []string
	// What names what is revealed or switched off: for a defence switch,
	// a name DefenceNamed knows.
	What string
}

// A program with a grammar (GrammarOf) is read by it, and Opts is then
// left empty: the grammar knows which of its options take values.
func (s *Switch) matches(name string, args []string) bool {
	if !slices.Contains(s.Names, name) {
		return false
	}
	var words []string
	var has func(...string) bool
	if GrammarOf(name) != nil {
		cmd := ParseCommand(name, args, nil)
		words, has = cmd.Words, cmd.Has
	} else {
		p := shell.ParseArgs(args, &s.Opts)
		words, has = p.Operands, p.Has
	}
	if len(s.Words) > 0 && !slices.ContainsFunc(s.Words, func(w []string) bool {
		return len(words) >= len(w) && slices.Equal(words[:len(w)], w)
	}) {
		return false
	}
	if len(s.Flags) > 0 && !has(s.Flags...) {
		return false
	}
	return len(s.Words) > 0 || len(s.Flags) > 0
}

// secretPrinters print a stored secret or mint a credential into the
// transcript: secret managers' get/read/export verbs, token commands,
// configuration dumps that hold keys.
var secretPrinters = []Switch{
	{Names: []string{"rbw"}, Words: [][]string{{"get"}, {"code"}}, What: "a password from rbw"},
	{Names: []string{"bw"}, Words: [][]string{{"get"}, {"export"}}, What: "the Bitwarden vault"},
	{Names: []string{"chamber"}, Words: [][]string{{"read"}, {"export"}, {"env"}}, What: "a secret from chamber"},
	{Names: []string{"berglas"}, Words: [][]string{{"access"}}, What: "a secret from berglas"},
	{Names: []string{"conjur"}, Words: [][]string{{"variable", "get"}, {"variable", "value"}}, What: "a Conjur variable"},
	{Names: []string{"infisical"}, Words: [][]string{{"export"}, {"secrets", "get"}}, What: "Infisical secrets"},
	{Names: []string{"doppler"}, Words: [][]string{{"secrets", "download"}, {"secrets", "get"}}, What: "Doppler secrets"},
	{Names: []string{"vault", "bao"}, Words: [][]string{{"token", "create"}}, What: "a Vault token"},
	{Names: []string{"heroku"}, Words: [][]string{{"auth:token"}, {"authorizations:create"}}, What: "a Heroku token"},
	{Names: []string{"aws"}, Words: [][]string{{"sts", "get-session-token"}, {"sts", "get-federation-token"}, {"sts", "assume-role"}, {"iam", "create-access-key"}, {"ecr", "get-login-password"}, {"configure", "export-credentials"}}, What: "AWS credentials"},
	{Names: []string{"kubectl", "oc"}, Words: [][]string{{"create", "token"}}, What: "a service-account token"},
	{Names: []string{"oc"}, Words: [][]string{{"whoami"}}, Flags: []string{"t", "show-token"}, What: "the OpenShift token"},
	{Names: []string{"wg"}, Words: [][]string{{"showconf"}}, What: "a WireGuard private key"},
	{Names: []string{"nmcli"}, Opts: shell.OptSpec{Short: "g:f:t", Long: []string{"get-values=", "fields="}}, Flags: []string{"s", "show-secrets"}, What: "saved network passwords"},
	{Names: []string{"npm", "pnpm", "yarn"}, Words: [][]string{{"token", "create"}}, What: "a new registry token"},
	{Names: []string{"argocd"}, Words: [][]string{{"account", "generate-token"}, {"proj", "role", "create-token"}}, What: "an Argo CD token"},
	{Names: []string{"az"}, Words: [][]string{{"account", "get-access-token"}, {"acr", "login"}}, Flags: []string{"expose-token", "output", "o", "query"}, What: "an Azure access token"},
	{Names: []string{"az"}, Words: [][]string{{"account", "get-access-token"}}, What: "an Azure access token"},
	{Names: []string{"gcloud"}, Words: [][]string{{"auth", "print-access-token"}, {"auth", "print-identity-token"}, {"auth", "application-default", "print-access-token"}}, What: "a Google access token"},
	{Names: []string{"sops"}, Flags: []string{"d", "decrypt"}, What: "a sops-encrypted file decrypted"},
	{Names: []string{"ansible-vault"}, Words: [][]string{{"view"}, {"decrypt"}}, What: "an Ansible vault"},
	{Names: []string{"kwallet-query"}, Opts: shell.OptSpec{Short: "r:f:w:"}, Flags: []string{"r", "read-password"}, What: "a KDE Wallet entry"},
	{Names: []string{"ykman"}, Words: [][]string{{"oath", "accounts", "code"}, {"oath", "code"}}, What: "OTP codes"},
	{Names: []string{"jfrog"}, Words: [][]string{{"config", "export"}, {"c", "export"}}, What: "the JFrog token"},
	{Names: []string{"s3cmd"}, Flags: []string{"dump-config"}, What: "s3cmd's keys"},
	{Names: []string{"rclone"}, Words: [][]string{{"config", "show"}, {"config", "dump"}}, What: "rclone's remotes and tokens"},
	{Names: []string{"mc", "mcli"}, Words: [][]string{{"alias", "list"}, {"alias", "ls"}, {"config", "host", "list"}}, What: "MinIO keys"},
	{Names: []string{"podman", "docker"}, Words: [][]string{{"secret", "inspect"}}, Flags: []string{"showsecret"}, What: "a container secret"},
	{Names: []string{"glab", "gh"}, Words: [][]string{{"auth", "token"}}, What: "the forge's token"},
	{Names: []string{"gcore", "avml", "procdump", "lime", "memdump", "dumpit", "winpmem", "osxpmem"}, What: ProcessMemory},
	// The BSD tracers attached to a running process record its reads and
	// writes: sshd's or sudo's carry the passwords typed.
	{Names: []string{"ktrace", "truss"}, Opts: shell.OptSpec{Short: "p:f:o:t:g:"}, Flags: []string{"p"}, What: ProcessMemory},
	{Names: []string{"docker-credential-desktop", "docker-credential-osxkeychain", "docker-credential-secretservice", "docker-credential-pass", "docker-credential-wincred", "docker-credential-ecr-login", "docker-credential-gcloud", "git-credential-osxkeychain", "git-credential-libsecret", "git-credential-manager"}, Words: [][]string{{"get"}}, What: "a stored registry or git password"},
	{Names: []string{"git-credential-manager", "git-credential-manager-core"}, Words: [][]string{{"get"}}, What: "a stored git password"},
	{Names: []string{"secret-tool"}, Words: [][]string{{"lookup"}}, What: "a desktop keyring secret"},
	// The long tail (session-9 corpus).
	{Names: []string{"keyring"}, Words: [][]string{{"get"}}, What: "a password from the system keyring"},
	{Names: []string{"vault", "bao"}, Words: [][]string{{"print", "token"}}, What: "the Vault token"},
	{Names: []string{"aws-vault"}, Words: [][]string{{"export"}}, What: "temporary AWS keys"},
	{Names: []string{"teller"}, Words: [][]string{{"show"}, {"export"}, {"env"}, {"yaml"}, {"json"}}, What: "the project's secrets (teller)"},
	{Names: []string{"saml2aws"}, Words: [][]string{{"script"}}, What: "temporary AWS keys"},
	{Names: []string{"kubectl"}, Words: [][]string{{"oidc-login", "get-token"}}, What: "an OIDC token"},
	{Names: []string{"kubelogin"}, Words: [][]string{{"get-token"}}, What: "an OIDC token"},
	{Names: []string{"garage"}, Words: [][]string{{"key", "info"}}, Flags: []string{"show-secret"}, What: "an S3 secret key"},
	{Names: []string{"procdump64", "procdump64a"}, What: ProcessMemory},
}

// secretPrinted says whether a call prints a stored secret, mints a
// credential or dumps memory, and what.
func secretPrinted(name string, args []string) (string, bool) {
	for i := range secretPrinters {
		s := &secretPrinters[i]
		if !slices.Contains(s.Names, name) {
			continue
		}
		if len(s.Words) == 0 && len(s.Flags) == 0 { // a dumper: every real call
			return s.What, len(args) > 0 && !slices.ContainsFunc(args, isHelp)
		}
		if s.matches(name, args) {
			return s.What, true
		}
	}
	if what, ok := storeRead(name, args); ok {
		return what, true
	}
	// python3 -m keyring get …: a printer run as a module.
	if shell.Interpreter(name) == "python" && len(args) >= 2 && args[0] == "-m" {
		return secretPrinted(args[1], args[2:])
	}
	for _, f := range secretSpecials {
		if what, ok := f(name, args); ok {
			return what, true
		}
	}
	return "", false
}

func isHelp(a string) bool { return a == "--help" || a == "-h" || a == "--version" }

// secretSpecials read the printers whose syntax Switch cannot say.
var secretSpecials = []func(name string, args []string) (string, bool){wgKey, terraformOutput, debuggerDump, regSave, netshKeys, shadowHashData, keepassEntry, gitCredentialGet, envchainShown, windowsDumps}

// shadowHashData: dscl . -read /Users/ann ShadowHashData prints the
// user's password hash (dscl . -read /Users/ann UserShell does not).
func shadowHashData(name string, args []string) (string, bool) {
	if name != "dscl" || !slices.ContainsFunc(args, func(a string) bool { return a == "-read" || a == "-readall" || a == "read" || a == "readall" }) {
		return "", false
	}
	for _, a := range args {
		if strings.EqualFold(strings.TrimPrefix(a, "dsAttrTypeNative:"), "ShadowHashData") {
			return "a user's password hash (ShadowHashData)", true
		}
	}
	return "", false
}

// keepassShort and keepassLong are keepassxc-cli's options (a constant and
// a slice, as kubectl's are).
const keepassShort = "k:y:a:f:"

var keepassLong = []string{"key-file=", "yubikey=", "attributes=", "format=", "totp", "show-protected", "all", "no-password", "quiet", "recursive", "flatten"}

// keepassEntry: keepassxc-cli show -s (or -a Password) prints an entry's
// password, export the whole vault, clip puts a password on the clipboard;
// ls, search, db-info and a plain show (protected fields hidden) do not.
func keepassEntry(name string, args []string) (string, bool) {
	if name != "keepassxc-cli" {
		return "", false
	}
	p := shell.ParseArgs(args, &shell.OptSpec{Short: keepassShort, Long: keepassLong})
	if len(p.Operands) == 0 {
		return "", false
	}
	switch p.Operands[0] {
	case "export", "clip", "attachment-export", "totp":
		return "a KeePass vault's passwords", true
	case "show":
		if p.Has("s", "show-protected", "t", "totp") {
			return "a KeePass entry's password", true
		}
		for _, o := range p.Opts {
			if (o.Name == "a" || o.Name == "attributes") && strings.EqualFold(o.Value, "password") {
				return "a KeePass entry's password", true
			}
		}
	}
	return "", false
}

// gitCredentialGet: git credential-osxkeychain get (the helper run as a
// git subcommand) prints the stored password.
func gitCredentialGet(name string, args []string) (string, bool) {
	if name == "git" && len(args) >= 2 && strings.HasPrefix(args[0], "credential-") && args[1] == "get" {
		return "a stored git password", true
	}
	return "", false
}

// envchainShown: envchain NS env, envchain NS printenv X, aws-vault exec
// PROFILE -- env: the variables a credential wrapper sets, printed (envchain
// NS aws s3 ls, aws-vault exec p -- aws s3 ls hand them to aws).
func envchainShown(name string, args []string) (string, bool) {
	dump := func(w string) bool { return w == "env" || w == "printenv" || w == "export" || w == "set" }
	if name == "envchain" && len(args) >= 2 && !strings.HasPrefix(args[0], "-") && dump(args[1]) {
		return "keychain-held variables (envchain)", true
	}
	if name == "aws-vault" && len(args) >= 2 && args[0] == "exec" {
		if i := slices.Index(args, "--"); i >= 0 && i+1 < len(args) && dump(args[i+1]) {
			return "temporary AWS keys (aws-vault)", true
		}
	}
	return "", false
}

// windowsDumps: lsass dumped through comsvcs.dll's MiniDump, the domain
// database copied with esentutl.
func windowsDumps(name string, args []string) (string, bool) {
	text := strings.ToLower(strings.Join(args, " "))
	switch {
	case name == "rundll32" && strings.Contains(text, "comsvcs") && strings.Contains(text, "minidump"):
		return ProcessMemory, true
	case name == "esentutl" && strings.Contains(text, "ntds.dit"):
		return "the domain's account database", true
	}
	return "", false
}

// wgKey: wg show IFACE private-key, wg show all preshared-keys.
func wgKey(name string, args []string) (string, bool) {
	if name == "wg" && len(args) >= 2 && args[0] == "show" && (args[len(args)-1] == "private-key" || args[len(args)-1] == "preshared-keys") {
		return "a WireGuard private key", true
	}
	return "", false
}

// terraformOutput: output -raw NAME prints one output's value, sensitive
// or not (a bare output -raw or -json lists them for a program).
func terraformOutput(name string, args []string) (string, bool) {
	if name != "terraform" && name != "tofu" {
		return "", false
	}
	cmd := ParseCommand(name, args, nil)
	if len(cmd.Words) >= 2 && cmd.Leads("output") && cmd.Has("raw") {
		return "a Terraform output's value (sensitive ones included)", true
	}
	return "", false
}

// debuggerDump: gdb -p PID -ex 'generate-core-file' and the like.
func debuggerDump(name string, args []string) (string, bool) {
	if name != "gdb" && name != "lldb" {
		return "", false
	}
	text := strings.Join(args, " ")
	attached := slices.Contains(args, "-p") || slices.Contains(args, "--pid") || strings.Contains(text, "attach")
	for _, w := range []string{"generate-core-file", "gcore", "dump memory", "dump binary", "save-core"} {
		if attached && strings.Contains(text, w) {
			return ProcessMemory, true
		}
	}
	return "", false
}

// regSave: reg save HKLM\SAM out.hiv (HKLMSAM once bash removed the
// backslash).
func regSave(name string, args []string) (string, bool) {
	if name != "reg" {
		return "", false
	}
	p := shell.ParseArgs(args, &shell.OptSpec{})
	if len(p.Operands) < 2 || !strings.EqualFold(p.Operands[0], "save") && !strings.EqualFold(p.Operands[0], "export") {
		return "", false
	}
	k := strings.ToUpper(strings.NewReplacer("/", "", `\`, "").Replace(p.Operands[1]))
	for _, h := range []string{"SAM", "SECURITY", "SYSTEM"} {
		if k == "HKLM"+h || k == "HKEY_LOCAL_MACHINE"+h {
			return "the Windows account hives", true
		}
	}
	return "", false
}

// netshKeys: netsh wlan show profile NAME key=clear.
func netshKeys(name string, args []string) (string, bool) {
	if name == "netsh" && slices.Contains(args, "wlan") && slices.ContainsFunc(args, func(a string) bool { return strings.EqualFold(a, "key=clear") }) {
		return "saved Wi-Fi keys", true
	}
	return "", false
}

// defenceSwitches switch a defence off through its own control program.
// What is a name DefenceNamed knows.
var defenceSwitches = []Switch{
	{Names: []string{"aa-disable", "aa-complain"}, Words: [][]string{}, What: "apparmor"},
	{Names: []string{"apparmor_parser"}, Flags: []string{"R", "remove"}, What: "apparmor"},
	{Names: []string{"semanage"}, Words: [][]string{{"permissive"}}, Flags: []string{"a", "add"}, What: "selinux"},
	{Names: []string{"ipf"}, Flags: []string{"D", "F"}, What: "ipf"},
	{Names: []string{"npfctl"}, Words: [][]string{{"stop"}, {"flush"}}, What: "npf"},
	{Names: []string{"audit"}, Flags: []string{"t"}, What: "auditd"},
	{Names: []string{"osqueryctl"}, Words: [][]string{{"stop"}}, What: "osqueryd"},
	{Names: []string{"fdesetup"}, Words: [][]string{{"disable"}}, What: "filevault"},
	{Names: []string{"manage-bde"}, Opts: shell.OptSpec{SingleDash: true}, Flags: []string{"off"}, What: "bitlocker"},
	{Names: []string{"profiles"}, Words: [][]string{{"remove"}}, What: "mdm-profiles"},
	{Names: []string{"softwareupdate"}, Opts: shell.OptSpec{Long: []string{"schedule="}}, Words: [][]string{}, What: "softwareupdate"},
	{Names: []string{"jamf"}, Words: [][]string{{"removeFramework"}, {"removeMdmProfile"}}, What: "jamf"},
	{Names: []string{"santactl"}, Words: [][]string{{"rule"}}, Flags: []string{"allow", "allowlist", "whitelist"}, What: "santa"},
	{Names: []string{"falconctl"}, Words: [][]string{{"unload"}, {"uninstall"}, {"stop"}}, What: "falcon"},
	{Names: []string{"sentinelctl"}, Words: [][]string{{"unload"}, {"uninstall"}, {"unprotect"}, {"stop"}}, What: "sentinelone"},
	{Names: []string{"systemextensionsctl"}, Words: [][]string{{"developer", "on"}}, What: "com.apple.syspolicyd"},
	{Names: []string{"mokutil"}, Flags: []string{"disable-validation"}, What: "secureboot"},
	{Names: []string{"syspatch"}, Flags: []string{"r"}, What: "syspatch"},
	{Names: []string{"log"}, Words: [][]string{{"erase"}}, What: "com.apple.logd"},
	{Names: []string{"wevtutil"}, Words: [][]string{{"cl"}, {"clear-log"}}, What: "eventlog"},
	{Names: []string{"security"}, Words: [][]string{{"authorizationdb", "write"}}, What: "authorizationdb"},
	{Names: []string{"spctl"}, Flags: []string{"master-disable", "global-disable", "disable", "add"}, What: "com.apple.syspolicyd"},
	{Names: []string{"spctl"}, Words: [][]string{{"kext-consent", "disable"}}, What: "com.apple.syspolicyd"},
	// The long tail's own control programs (session-9 corpus).
	{Names: []string{"maldet"}, Flags: []string{"kill-monitor", "k"}, What: "maldet"},
	{Names: []string{"firehol"}, Words: [][]string{{"stop"}}, What: "firehol"},
	{Names: []string{"csf"}, Flags: []string{"x", "disable", "f", "flush"}, What: "csf"},
	{Names: []string{"psad"}, Flags: []string{"K", "Kill"}, What: "psad"},
	{Names: []string{"shorewall", "shorewall6"}, Words: [][]string{{"clear"}, {"stop"}}, What: "shorewall"},
	{Names: []string{"usbguard"}, Words: [][]string{{"set-parameter", "ImplicitPolicyTarget", "allow"}}, What: "usbguard"},
	{Names: []string{"tetra"}, Words: [][]string{{"tracingpolicy", "delete"}, {"tp", "delete"}}, What: "tetragon"},
	{Names: []string{"sentinelctl"}, Words: [][]string{{"control", "stop"}, {"control", "unload"}, {"unprotect"}, {"agent", "uninstall"}}, What: "sentinelone"},
	{Names: []string{"falconctl"}, Flags: []string{"d"}, What: "falcon-sensor"},
	{Names: []string{"mdatp"}, Words: [][]string{{"exclusion", "folder", "add"}, {"exclusion", "process", "add"}, {"exclusion", "extension", "add"}}, What: "mdatp"},
	{Names: []string{"rkhunter"}, Flags: []string{"propupd"}, What: "rkhunter"},
	{Names: []string{"sysmon", "sysmon64"}, Flags: []string{"u"}, What: "sysmon"},
}

// defenceSpecials read the defence switches whose syntax Switch cannot
// say: a setting given as the next word (socketfilterfw --setglobalstate
// off), a log level, an allow-all firewall rule.
var defenceSpecials = []func(name string, args []string) (string, bool){firewallSetting, logLevelOff, ipfwAllowAll, pfTableFlush, extensionRemoved, tccReset, untrustedInstall,
	backupExcluded, signatureRemoved}

// backupExcluded: tmutil addexclusion of the whole disk, every home or one
// home: Time Machine stops keeping what a restore would need (a project
// folder such as node_modules is the developer's choice).
func backupExcluded(name string, args []string) (string, bool) {
	ops := shell.ParseArgs(args, &shell.OptSpec{}).Operands
	if name != "tmutil" || len(ops) < 2 || ops[0] != "addexclusion" {
		return "", false
	}
	for _, o := range ops[1:] {
		o = strings.TrimSuffix(o, "/")
		if o == "" || o == "/Users" || o == "/System/Volumes/Data" || o == "~" || strings.HasPrefix(o, "/Users/") && strings.Count(o, "/") == 2 {
			return "timemachine", true
		}
	}
	return "", false
}

// signatureRemoved: codesign --remove-signature of an installed
// application: what then runs as that app is no longer what its vendor
// signed (a build output of the project is the developer's own).
func signatureRemoved(name string, args []string) (string, bool) {
	if name != "codesign" || !hasWord(args, "--remove-signature") {
		return "", false
	}
	for _, a := range args {
		if strings.HasPrefix(a, "/Applications/") || strings.HasPrefix(a, "/System/") {
			return "com.apple.syspolicyd", true
		}
	}
	return "", false
}

// quarantineStripped: xattr removing the quarantine attribute (-d
// com.apple.quarantine, or -c: every attribute) from the files it is
// given, which Gatekeeper then never checks. The effects carry the paths
// as written: an app downloaded or installed outside the project (the
// Downloads or Applications folder) is the defence bypassed; the
// project's own build output is the developer's (package policy judges
// where).
func quarantineStripped(name string, args []string) []Effect {
	if name != "xattr" {
		return nil
	}
	// xattr -d [-rsv] ATTR FILE...: the attribute is the first operand
	// (xattr -dr com.apple.quarantine X); -c [-rsv] FILE... clears all.
	p := shell.ParseArgs(args, &shell.OptSpec{Short: "cdprswlvx"})
	files := p.Operands
	switch {
	case p.Has("c"):
	case p.Has("d") && len(files) > 1 && strings.EqualFold(files[0], "com.apple.quarantine"):
		files = files[1:]
	default:
		return nil
	}
	var out []Effect
	for _, o := range files {
		out = append(out, Effect{Kind: Change, Area: Service, Name: "com.apple.syspolicyd", Action: "strips the quarantine attribute from", Path: o})
	}
	return out
}

// untrustedInstall: installer -allowUntrusted installs a package whose
// signature does not check out, as root.
func untrustedInstall(name string, args []string) (string, bool) {
	return "com.apple.syspolicyd", name == "installer" && hasWord(args, "-allowUntrusted")
}

// tccReset: tccutil reset SERVICE wipes every app's privacy consents;
// tccutil reset SERVICE BUNDLE-ID resets one app's (a developer's own).
func tccReset(name string, args []string) (string, bool) {
	ops := shell.ParseArgs(args, &shell.OptSpec{}).Operands
	return "com.apple.tccd", name == "tccutil" && len(ops) == 2 && ops[0] == "reset"
}

// firewallSetting: the application firewall turned off, opened to every
// signed app, or given an exception for a program.
func firewallSetting(name string, args []string) (string, bool) {
	if name != "socketfilterfw" {
		return "", false
	}
	for i, a := range args {
		next := ""
		if i+1 < len(args) {
			next = strings.ToLower(args[i+1])
		}
		switch {
		case (a == "--setglobalstate" || a == "--setstealthmode" || a == "--setblockall" || a == "--setloggingmode") && next == "off",
			(a == "--setallowsigned" || a == "--setallowsignedapp") && next == "on",
			a == "--add" || a == "--unblockapp" || a == "--unblock":
			return "com.apple.alf", true
		}
	}
	return "", false
}

// logLevelOff: log config --mode level:off silences unified logging.
func logLevelOff(name string, args []string) (string, bool) {
	if name == "log" && len(args) > 0 && args[0] == "config" && slices.ContainsFunc(args, func(a string) bool {
		return strings.Contains(strings.ToLower(a), "level:off")
	}) {
		return "com.apple.logd", true
	}
	return "", false
}

// ipfwAllowAll: ipfw add N allow ip from any to any lets every packet in.
func ipfwAllowAll(name string, args []string) (string, bool) {
	if name != "ipfw" || !slices.Contains(args, "add") {
		return "", false
	}
	text := " " + strings.Join(args, " ") + " "
	for _, verb := range []string{"allow", "accept", "pass", "permit"} {
		if strings.Contains(text, " "+verb+" ") && (strings.Contains(text, " from any to any ") || strings.HasSuffix(text, " all ")) {
			return "ipfw", true
		}
	}
	return "", false
}

// pfTableFlush: pfctl -t TABLE -T flush empties a table of blocked
// addresses (pfctl -t TABLE -T show only lists it).
func pfTableFlush(name string, args []string) (string, bool) {
	p := shell.ParseArgs(args, &shell.OptSpec{Short: "a:D:f:F:i:K:k:L:N:o:p:s:t:T:x:"})
	if name == "pfctl" {
		if v, ok := p.Value("T"); ok && (v == "flush" || v == "kill") {
			return "pf", true
		}
	}
	return "", false
}

// extensionRemoved: systemextensionsctl uninstall TEAM BUNDLE of a
// security product's extension.
func extensionRemoved(name string, args []string) (string, bool) {
	if name == "systemextensionsctl" && len(args) >= 3 && args[0] == "uninstall" {
		return args[2], DefenceNamed(args[2]) != nil
	}
	return "", false
}

// defenceOffWords are the values by which a defence's own program is told
// to switch a protection off: mdatp config real-time-protection --value
// disabled, suricatasc -c shutdown, auditpol /set … /success:disable.
func defenceOff(name string, args []string) (string, bool) {
	has := func(w string) bool {
		return slices.ContainsFunc(args, func(a string) bool { return strings.EqualFold(a, w) })
	}
	switch name {
	case "mdatp":
		if len(args) > 0 && args[0] == "config" && has("disabled") {
			return "mdatp", true
		}
	case "suricatasc":
		if has("shutdown") {
			return "suricata", true
		}
	case "fltmc":
		if len(args) >= 2 && (strings.EqualFold(args[0], "unload") || strings.EqualFold(args[0], "detach")) {
			return args[1], true
		}
	case "mpcmdrun":
		if has("-RemoveDefinitions") || has("-DisableService") {
			return "windefend", true
		}
	case "grubby", "kernelstub":
		// A defence switched off on the kernel command line.
		for _, a := range args {
			l := strings.ToLower(a)
			for _, off := range []struct{ arg, what string }{{"selinux=0", "selinux"}, {"enforcing=0", "selinux"}, {"apparmor=0", "apparmor"}, {"audit=0", "auditd"}, {"lockdown=none", "secureboot"}} {
				if strings.Contains(l, off.arg) && !strings.Contains(l, "remove-args") {
					return off.what, true
				}
			}
		}
	case "auditpol":
		if has("/clear") || has("/remove") || slices.ContainsFunc(args, func(a string) bool { return strings.HasSuffix(strings.ToLower(a), ":disable") }) {
			return "eventlog", true
		}
	}
	return "", false
}

// defenceSwitched finds a defence switched off through its own program.
func defenceSwitched(name string, args []string) (string, bool) {
	for i := range defenceSwitches {
		s := &defenceSwitches[i]
		if !slices.Contains(s.Names, name) {
			continue
		}
		switch {
		case s.Words != nil && len(s.Words) == 0 && name == "softwareupdate":
			if v, ok := shell.ParseArgs(args, &s.Opts).Value("schedule"); ok && strings.EqualFold(v, "off") {
				return s.What, true
			}
			if slices.Contains(args, "--schedule") && slices.Contains(args, "off") {
				return s.What, true
			}
		case s.Words != nil && len(s.Words) == 0: // every call with an operand
			if len(shell.ParseArgs(args, &s.Opts).Operands) > 0 {
				return s.What, true
			}
		case s.matches(name, args):
			return s.What, true
		}
	}
	for _, f := range defenceSpecials {
		if what, ok := f(name, args); ok {
			return what, true
		}
	}
	if what, ok := defenceOff(name, args); ok {
		return what, true
	}
	// sc stop WinDefend, net stop WinDefend, sc config WinDefend start= disabled
	if name == "sc" || name == "net" {
		if len(args) >= 2 && (strings.EqualFold(args[0], "stop") || strings.EqualFold(args[0], "delete") ||
			strings.EqualFold(args[0], "config") && slices.ContainsFunc(args, func(a string) bool { return strings.EqualFold(a, "disabled") })) {
			return args[1], true
		}
	}
	return "", false
}

// defenceSettings are macOS defaults keys that switch a protection off.
var defenceSettings = []struct{ Domain, Key, What string }{
	{"com.apple.LaunchServices", "LSQuarantine", "com.apple.xprotect"},
	{"com.apple.security.libraryvalidation", "DisableLibraryValidation", "com.apple.syspolicyd"},
	{"com.apple.loginwindow", "autoLoginUser", "loginwindow-password"},
	{"com.apple.screensaver", "askForPassword", "loginwindow-password"},
	{"com.apple.SoftwareUpdate", "ConfigDataInstall", "com.apple.xprotect"},
	{"com.apple.SoftwareUpdate", "CriticalUpdateInstall", "com.apple.xprotect"},
	{"com.apple.SoftwareUpdate", "AutomaticCheckEnabled", "softwareupdate"},
	{"com.apple.alf", "globalstate", "com.apple.alf"},
	{"com.apple.alf", "stealthenabled", "com.apple.alf"},
	{"com.apple.security", "GKAutoRearm", "com.apple.syspolicyd"},
	{"com.apple.security.syspolicy", "EnableAssessment", "com.apple.syspolicyd"},
}

// defaultsEffects reads macOS defaults: a write of a protection's key
// switches it off (Change), and a domain given as a path writes that plist
// (defaults write ~/Library/LaunchAgents/x ProgramArguments ...).
func defaultsEffects(args []string) []Effect {
	p := shell.ParseArgs(args, &shell.OptSpec{SingleDash: true, Long: []string{"host="}})
	ops := p.Operands
	if len(ops) >= 2 && (ops[0] == "read" || ops[0] == "export" || ops[0] == "read-type") && (strings.HasPrefix(ops[1], "/") || strings.HasPrefix(ops[1], "~")) {
		// defaults read /var/db/dslocal/nodes/Default/users/ann.plist: a
		// domain given as a path is that plist, printed.
		domain := ops[1]
		if !strings.HasSuffix(domain, ".plist") {
			domain += ".plist"
		}
		return []Effect{{Kind: Read, Path: domain}}
	}
	if len(ops) < 2 || (ops[0] != "write" && ops[0] != "delete" && ops[0] != "import" && ops[0] != "rename") {
		return nil
	}
	var out []Effect
	domain := ops[1]
	if strings.HasPrefix(domain, "/") || strings.HasPrefix(domain, "~") {
		if !strings.HasSuffix(domain, ".plist") {
			domain += ".plist"
		}
		out = append(out, Effect{Kind: Write, Path: domain})
	}
	if ops[0] == "write" && len(ops) >= 3 {
		for _, s := range defenceSettings {
			if strings.HasSuffix(strings.TrimSuffix(ops[1], ".plist"), s.Domain) && strings.EqualFold(ops[2], s.Key) {
				out = append(out, Effect{Kind: Change, Area: Service, Name: s.What, Action: "defaults write " + s.Key})
			}
		}
	}
	return out
}

// sensitivePorts are local services that give a shell or a desktop: a
// tunnel that publishes one hands the machine to the network.
var sensitivePorts = []int{22, 2222, 3389, 5900, 5901, 23}

// tunnelers publish a local port on the internet or on a remote host.
var tunnelers = []string{"ngrok", "cloudflared", "bore", "chisel", "lt", "localtunnel", "frpc", "pinggy", "zrok", "tunnelto", "expose", "localxpose", "loclx", "sish", "ssh", "autossh", "socat", "rathole", "tmole", "gost", "inlets", "inlets-pro", "devtunnel", "pagekite", "pagekite.py"}

// tunnelEffects finds a local shell or desktop service published through a
// tunnel: ngrok tcp 22, bore local 22, ssh -R 2222:localhost:22,
// chisel client HOST R:2222:localhost:22, cloudflared tunnel --url
// ssh://localhost:22.
func tunnelEffects(name string, args []string) []Effect {
	// code tunnel: a VS Code tunnel gives whoever signs in to it a shell
	// here (code tunnel status, user show, kill, prune only manage it).
	if (name == "code" || name == "code-insiders" || name == "cursor" || name == "code-tunnel") && len(args) > 0 && (args[0] == "tunnel" || name == "code-tunnel") {
		rest := args[1:]
		if name == "code-tunnel" {
			rest = args
		}
		if len(rest) == 0 || !slices.Contains([]string{"status", "user", "kill", "prune", "rename", "unregister", "help", "--help", "-h"}, rest[0]) {
			return []Effect{{Kind: Expose, Name: "a shell through a VS Code tunnel"}}
		}
		return nil
	}
	// zsh's ztcp HOST PORT opens a socket a shell is then handed
	// (zsh >&$REPLY): a reverse shell with no other program.
	if name == "ztcp" {
		ops := shell.ParseArgs(args, &shell.OptSpec{Short: "d:"}).Operands
		if len(ops) >= 2 && !slices.Contains(args, "-l") && !slices.Contains(args, "-c") && !loopback(ops[0]) {
			return []Effect{{Kind: Expose, Name: "a zsh socket to " + ops[0] + " (ztcp)"}}
		}
		return nil
	}
	if !slices.Contains(tunnelers, name) {
		return nil
	}
	for i, a := range args {
		// ngrok http file:///home/u serves that directory to the world.
		if _, v, _ := strings.Cut(a, "="); strings.HasPrefix(a, "file://") || strings.HasPrefix(v, "file://") {
			if !strings.HasPrefix(a, "file://") {
				a = v
			}
			return []Effect{{Kind: Serve, Path: "/" + strings.TrimLeft(strings.TrimPrefix(a, "file://"), "/")}}
		}
		if spec, ok := tunnelSpec(name, args, i); ok && sensitiveLocal(spec) {
			return []Effect{{Kind: Expose, Name: "the local port " + spec}}
		}
		if portTunnel(name, a) {
			return []Effect{{Kind: Expose, Name: "the local port " + a}}
		}
		if name == "cloudflared" && (strings.HasPrefix(a, "ssh://") || strings.HasPrefix(a, "rdp://") || strings.HasPrefix(a, "tcp://") && sensitiveLocal(a[6:])) {
			return []Effect{{Kind: Expose, Name: a}}
		}
	}
	return nil
}

// tunnelSpec returns the remote-forward spec at args[i]: ssh -R SPEC,
// ssh -RSPEC, chisel's R:SPEC.
func tunnelSpec(name string, args []string, i int) (string, bool) {
	a := args[i]
	switch {
	case (name == "ssh" || name == "autossh") && a == "-R" && i+1 < len(args):
		return args[i+1], true
	case (name == "ssh" || name == "autossh") && strings.HasPrefix(a, "-R") && len(a) > 2:
		return a[2:], true
	case name == "chisel" && strings.HasPrefix(a, "R:"):
		return a[2:], true
	case name == "gost": // -L=rtcp://:2222/127.0.0.1:22: the local end after the slash
		for _, sch := range []string{"rtcp://", "rudp://"} {
			if j := strings.Index(a, sch); j >= 0 {
				if _, local, ok := strings.Cut(a[j+len(sch):], "/"); ok {
					return "x:" + local, true
				}
			}
		}
	}
	return "", false
}

// portTunnel reports a tunnel CLI given a sensitive local port (ngrok tcp
// 22, bore local 22).
func portTunnel(name, a string) bool {
	switch name {
	case "ngrok", "bore", "lt", "localtunnel", "zrok", "pinggy", "loclx", "tmole", "pagekite", "pagekite.py", "devtunnel", "inlets", "inlets-pro":
		n, err := strconv.Atoi(strings.TrimPrefix(a, "localhost:"))
		return err == nil && slices.Contains(sensitivePorts, n)
	}
	return false
}

// sensitiveLocal reads a forward spec ([bind:]port:host:hostport) and
// reports whether its local end is a sensitive port.
func sensitiveLocal(spec string) bool {
	parts := strings.Split(spec, ":")
	n, err := strconv.Atoi(parts[len(parts)-1])
	return err == nil && slices.Contains(sensitivePorts, n) && len(parts) >= 2
}

// accountNet reads Windows' net user/localgroup: /add, /delete and
// /active:yes change accounts; the listing forms read.
func accountNet(name string, args []string) bool {
	if name != "net" && name != "net1" || len(args) < 2 {
		return false
	}
	switch strings.ToLower(args[0]) {
	case "user", "localgroup", "group":
	default:
		return false
	}
	if slices.ContainsFunc(args, func(a string) bool {
		a = strings.ToLower(a)
		return a == "/add" || a == "/delete" || a == "/del" || strings.HasPrefix(a, "/active:yes")
	}) {
		return true
	}
	// net user NAME PASSWORD (or *): a password set for another account.
	words := slices.DeleteFunc(slices.Clone(args), func(a string) bool { return strings.HasPrefix(a, "/") })
	return strings.EqualFold(args[0], "user") && len(words) >= 3
}

// riskyConfig are configuration keys whose value runs a program, turns a
// check off or reroutes traffic for every later call of the tool: set
// through the tool's own config command, they change its configuration
// file as much as an echo >> would.
var riskyConfig = []struct {
	Tool, Key, Value, File string
}{
	{"git", "core.fsmonitor", "", "~/.gitconfig"},
	{"git", "core.hookspath", "", "~/.gitconfig"},
	{"git", "diff.external", "", "~/.gitconfig"},
	{"git", "http.sslverify", "false", "~/.gitconfig"},
	{"git", "http.proxy", "", "~/.gitconfig"},
	{"git", "https.proxy", "", "~/.gitconfig"},
	{"git", "include.path", "", "~/.gitconfig"},
	{"npm", "script-shell", "", "~/.npmrc"},
	{"npm", "strict-ssl", "false", "~/.npmrc"},
	{"npm", "proxy", "", "~/.npmrc"},
	{"npm", "https-proxy", "", "~/.npmrc"},
	{"yarn", "strict-ssl", "false", "~/.yarnrc"},
	{"pnpm", "strict-ssl", "false", "~/.npmrc"},
	{"pip", "global.trusted-host", "", "~/.config/pip/pip.conf"},
	{"pip", "global.index-url", "", "~/.config/pip/pip.conf"},
	{"pip", "global.extra-index-url", "", "~/.config/pip/pip.conf"},
}

// configEffects finds a risky key set in a tool's global configuration
// (git config --global core.fsmonitor X, npm config set script-shell X):
// a Write of the configuration file.
func configEffects(name string, args []string) []Effect {
	var key, value string
	switch name {
	case "git":
		if len(args) < 3 || args[0] != "config" || !slices.Contains(args, "--global") && !slices.Contains(args, "--system") {
			return nil
		}
		p := shell.ParseArgs(args[1:], &shell.OptSpec{Short: "f:", Long: []string{"file=", "type=", "default=", "comment="}})
		if p.Has("get", "get-all", "list", "l", "unset", "unset-all", "get-regexp", "show-origin") || len(p.Operands) < 2 {
			return nil
		}
		key, value = strings.ToLower(p.Operands[0]), p.Operands[1]
	case "npm", "pnpm", "yarn", "pip", "pip3":
		p := shell.ParseArgs(args, &shell.OptSpec{})
		ops := p.Operands
		if len(ops) < 3 || ops[0] != "config" || ops[1] != "set" {
			return nil
		}
		key, value = strings.ToLower(ops[2]), ""
		if k, v, ok := strings.Cut(key, "="); ok {
			key, value = k, v
		} else if len(ops) > 3 {
			value = ops[3]
		}
		if name == "pip3" {
			name = "pip"
		}
	default:
		return nil
	}
	for _, c := range riskyConfig {
		if c.Tool == name && c.Key == key && (c.Value == "" || strings.EqualFold(c.Value, value)) {
			return []Effect{{Kind: Write, Path: c.File, Name: key}}
		}
	}
	return nil
}

// sqlWriteRe finds SQL that changes a database.
var sqlWriteWords = []string{"insert ", "update ", "delete ", "replace ", "drop ", "alter ", "create ", ".restore", ".import"}

// sqlWrite reports a database shell given SQL that changes its database
// (sqlite3 TCC.db "insert or replace into access ..."): the database file
// is written.
func sqlWrite(name string, args []string) (string, bool) {
	if name != "sqlite3" && name != "sqlite" && name != "duckdb" {
		return "", false
	}
	p := shell.ParseArgs(args, &shell.OptSpec{SingleDash: true, Long: []string{"cmd=", "init=", "separator=", "nullvalue=", "newline=", "vfs=", "mmap=", "pagecache=", "lookaside=", "heap=", "maxsize="}})
	if len(p.Operands) < 2 {
		return "", false
	}
	for _, sql := range p.Operands[1:] {
		l := strings.ToLower(sql)
		for _, w := range sqlWriteWords {
			if strings.Contains(l, w) {
				return p.Operands[0], true
			}
		}
	}
	return "", false
}

// cloudChange is a cloud CLI call that opens a firewall to the internet,
// makes data public, stops an audit trail, or grants an administrator
// role: Words start the operands, and, when Opt is set, one of Values
// must be in that option's value (or, with Opt "", in any operand).
type cloudChange struct {
	CLI    string
	Words  []string
	Opt    string
	Values []string
	Area   Area
	What   string
}

var cloudChanges = []cloudChange{
	{"aws", []string{"ec2", "authorize-security-group-ingress"}, "cidr", []string{"0.0.0.0/0", "::/0"}, Service, "cloud-firewall"},
	{"aws", []string{"ec2", "authorize-security-group-ingress"}, "ip-permissions", []string{"0.0.0.0/0", "::/0"}, Service, "cloud-firewall"},
	{"gcloud", []string{"compute", "firewall-rules", "create"}, "source-ranges", []string{"0.0.0.0/0", "::/0"}, Service, "cloud-firewall"},
	{"gcloud", []string{"compute", "firewall-rules", "update"}, "source-ranges", []string{"0.0.0.0/0", "::/0"}, Service, "cloud-firewall"},
	{"az", []string{"network", "nsg", "rule", "create"}, "source-address-prefixes", []string{"*", "0.0.0.0/0", "Internet", "internet"}, Service, "cloud-firewall"},
	{"aws", []string{"s3api", "put-bucket-acl"}, "acl", []string{"public-read", "public-read-write", "authenticated-read"}, Service, "cloud-storage-acl"},
	{"aws", []string{"s3api", "put-object-acl"}, "acl", []string{"public-read", "public-read-write"}, Service, "cloud-storage-acl"},
	{"aws", []string{"s3api", "delete-public-access-block"}, "", nil, Service, "cloud-storage-acl"},
	{"aws", []string{"s3control", "delete-public-access-block"}, "", nil, Service, "cloud-storage-acl"},
	{"gsutil", []string{"iam", "ch"}, "", []string{"allUsers", "allAuthenticatedUsers"}, Service, "cloud-storage-acl"},
	{"gsutil", []string{"acl", "ch"}, "", []string{"AllUsers", "allUsers"}, Service, "cloud-storage-acl"},
	{"aws", []string{"cloudtrail", "stop-logging"}, "", nil, Service, "cloud-audit"},
	{"aws", []string{"cloudtrail", "delete-trail"}, "", nil, Service, "cloud-audit"},
	{"aws", []string{"guardduty", "delete-detector"}, "", nil, Service, "cloud-audit"},
	{"aws", []string{"securityhub", "disable-security-hub"}, "", nil, Service, "cloud-audit"},
	{"aws", []string{"configservice", "stop-configuration-recorder"}, "", nil, Service, "cloud-audit"},
	{"aws", []string{"configservice", "delete-configuration-recorder"}, "", nil, Service, "cloud-audit"},
	{"gcloud", []string{"logging", "sinks", "delete"}, "", nil, Service, "cloud-audit"},
	{"aws", []string{"iam", "attach-user-policy"}, "policy-arn", []string{"AdministratorAccess", "IAMFullAccess", "PowerUserAccess"}, Accounts, "an administrator policy"},
	{"aws", []string{"iam", "attach-role-policy"}, "policy-arn", []string{"AdministratorAccess", "IAMFullAccess", "PowerUserAccess"}, Accounts, "an administrator policy"},
	{"aws", []string{"iam", "attach-group-policy"}, "policy-arn", []string{"AdministratorAccess", "IAMFullAccess", "PowerUserAccess"}, Accounts, "an administrator policy"},
	{"aws", []string{"iam", "create-access-key"}, "", nil, Accounts, "a new long-lived access key"},
	{"aws", []string{"iam", "create-login-profile"}, "", nil, Accounts, "a console password"},
	{"gcloud", []string{"projects", "add-iam-policy-binding"}, "role", []string{"roles/owner", "roles/editor", "roles/iam.", "roles/resourcemanager."}, Accounts, "an owner or IAM-admin role"},
	{"gcloud", []string{"organizations", "add-iam-policy-binding"}, "role", []string{"roles/owner", "roles/editor", "roles/iam.", "roles/resourcemanager."}, Accounts, "an owner or IAM-admin role"},
	{"gcloud", []string{"projects", "add-iam-policy-binding"}, "member", []string{"allUsers", "allAuthenticatedUsers"}, Accounts, "a role for everyone"},
	{"az", []string{"role", "assignment", "create"}, "role", []string{"Owner", "Contributor", "User Access Administrator"}, Accounts, "an owner role"},
	// The cluster's administrator role bound to a user, group or service
	// account: whoever holds that subject owns every namespace and secret.
	{"kubectl", []string{"create", "clusterrolebinding"}, "clusterrole", []string{"cluster-admin"}, Accounts, "the cluster-admin role"},
	{"kubectl", []string{"create", "rolebinding"}, "clusterrole", []string{"cluster-admin"}, Accounts, "the cluster-admin role"},
	{"k", []string{"create", "clusterrolebinding"}, "clusterrole", []string{"cluster-admin"}, Accounts, "the cluster-admin role"},
	{"oc", []string{"create", "clusterrolebinding"}, "clusterrole", []string{"cluster-admin"}, Accounts, "the cluster-admin role"},
	{"oc", []string{"adm", "policy", "add-cluster-role-to-user"}, "", []string{"cluster-admin"}, Accounts, "the cluster-admin role"},
	{"oc", []string{"adm", "policy", "add-cluster-role-to-group"}, "", []string{"cluster-admin"}, Accounts, "the cluster-admin role"},
	{"kubectl", []string{"patch", "clusterrolebinding"}, "", []string{"cluster-admin"}, Accounts, "the cluster-admin role"},
	{"kubectl", []string{"patch", "clusterrolebindings"}, "", []string{"cluster-admin"}, Accounts, "the cluster-admin role"},
	// OpenShift's privileged and anyuid security context constraints let a
	// service account's pods run as root with the host's devices.
	{"oc", []string{"adm", "policy", "add-scc-to-user"}, "", []string{"privileged", "anyuid", "hostaccess"}, Accounts, "a privileged security context"},
	{"oc", []string{"adm", "policy", "add-scc-to-group"}, "", []string{"privileged", "anyuid", "hostaccess"}, Accounts, "a privileged security context"},
	// A policy that allows every action on every resource, written inline.
	{"aws", []string{"iam", "put-user-policy"}, "policy-document", []string{`"Action":"*"`, `"Action": "*"`, `"Action":["*"]`, `"Action": ["*"]`}, Accounts, "an allow-everything policy"},
	{"aws", []string{"iam", "put-role-policy"}, "policy-document", []string{`"Action":"*"`, `"Action": "*"`, `"Action":["*"]`, `"Action": ["*"]`}, Accounts, "an allow-everything policy"},
	{"aws", []string{"iam", "put-group-policy"}, "policy-document", []string{`"Action":"*"`, `"Action": "*"`, `"Action":["*"]`, `"Action": ["*"]`}, Accounts, "an allow-everything policy"},
	// A service account's tokens minted, or the whole IAM policy replaced.
	{"gcloud", []string{"iam", "service-accounts", "add-iam-policy-binding"}, "role", []string{"roles/iam.serviceAccountTokenCreator", "roles/iam.serviceAccountUser", "roles/iam.serviceAccountKeyAdmin", "roles/owner", "roles/editor"}, Accounts, "a role that acts as the service account"},
	{"gcloud", []string{"projects", "set-iam-policy"}, "", nil, Accounts, "the project's whole IAM policy replaced"},
	{"gcloud", []string{"organizations", "set-iam-policy"}, "", nil, Accounts, "the organization's whole IAM policy replaced"},
}

// cloudEffects finds a cloud firewall opened to the internet, data made
// public, an audit trail stopped, or an administrator role granted.
// The CLI's grammar reads the call (the options named in cloudChanges
// are among its value-taking ones).
func cloudEffects(name string, args []string) []Effect {
	var cmd Command
	parsed := false
	for _, cc := range cloudChanges {
		if cc.CLI != name {
			continue
		}
		if !parsed {
			cmd, parsed = ParseCommand(name, args, nil), true
			if cmd.HasPrefix("dry-run") {
				return nil // kubectl --dry-run=client, aws ec2 --dry-run: nothing changes
			}
		}
		if !cmd.Leads(cc.Words...) || !cloudValue(&cmd, cc) {
			continue
		}
		return []Effect{{Kind: Change, Area: cc.Area, Name: cc.What, Action: strings.Join(cc.Words, " ")}}
	}
	return nil
}

func cloudValue(cmd *Command, cc cloudChange) bool {
	if len(cc.Values) == 0 {
		return true
	}
	in := cmd.Words
	if cc.Opt != "" {
		in = cmd.Values(cc.Opt)
	}
	for _, v := range in {
		for _, w := range cc.Values {
			if strings.Contains(v, w) {
				return true
			}
		}
	}
	return false
}

// urlRunners run what they fetch from a URL given on their command line
// (Windows programs seen from WSL or Git Bash): mshta URL, regsvr32
// /i:URL scrobj.dll, msiexec /i URL.
var urlRunners = []string{"mshta", "regsvr32", "msiexec", "rundll32", "cscript", "wscript", "installutil", "msbuild", "odbcconf", "cmstp", "powershell", "pwsh"}

// urlRun returns the URL a URL runner is given, or the package a BSD
// package tool installs straight from a URL (pkg add URL, pkg_add URL: its
// install scripts run as root).
func urlRun(name string, args []string) (string, bool) {
	if name == "pkg" || name == "pkg_add" {
		p := shell.ParseArgs(args, &shell.OptSpec{Short: "j:c:r:o:R:C:D:P:"})
		ops := p.Operands
		if name == "pkg" {
			if len(ops) == 0 || ops[0] != "add" {
				return "", false
			}
			ops = ops[1:]
		}
		for _, o := range ops {
			if strings.HasPrefix(o, "http://") || strings.HasPrefix(o, "https://") || strings.HasPrefix(o, "ftp://") {
				return o, true
			}
		}
		return "", false
	}
	if !slices.Contains(urlRunners, name) {
		return "", false
	}
	for i, a := range args {
		// A script on another machine's share: \\host\share\x.vbs.
		if strings.HasPrefix(a, `\\`) && len(a) > 2 && (name != "powershell" && name != "pwsh" || i > 0 && strings.EqualFold(args[i-1], "-file")) {
			return a, true
		}
		if name == "powershell" || name == "pwsh" {
			continue // its URLs are in code, judged as code
		}
		if i := strings.Index(strings.ToLower(a), "http"); i >= 0 && strings.Contains(a[i:], "://") {
			return a[i:], true
		}
	}
	return "", false
}

// powershellCmdlets are cmdlets whose effect the layer knows, found in the
// code given to powershell -c (seen from WSL or Git Bash).
var powershellCmdlets = []struct {
	Cmdlet string
	Effect Effect
}{
	{"clear-eventlog", Effect{Kind: Change, Area: Service, Name: "eventlog", Action: "Clear-EventLog"}},
	{"wevtutil cl", Effect{Kind: Change, Area: Service, Name: "eventlog", Action: "wevtutil cl"}},
	{"add-mppreference", Effect{Kind: Change, Area: Service, Name: "windefend", Action: "Add-MpPreference"}},
	{"set-mppreference", Effect{Kind: Change, Area: Service, Name: "windefend", Action: "Set-MpPreference"}},
	{"stop-service windefend", Effect{Kind: Change, Area: Service, Name: "windefend", Action: "Stop-Service"}},
	{"set-netfirewallprofile", Effect{Kind: Change, Area: Service, Name: "mpssvc", Action: "Set-NetFirewallProfile"}},
	{"set-executionpolicy unrestricted", Effect{Kind: Change, Area: Service, Name: "authorizationdb", Action: "Set-ExecutionPolicy"}},
	{"set-executionpolicy bypass", Effect{Kind: Change, Area: Service, Name: "authorizationdb", Action: "Set-ExecutionPolicy"}},
	{"get-storedcredential", Effect{Kind: Read, Area: Secrets, Name: "the Windows Credential Manager's passwords"}},
	{"getnetworkcredential", Effect{Kind: Read, Area: Secrets, Name: "a Windows stored password"}},
	{"new-localuser", Effect{Kind: Change, Area: Accounts, Name: "New-LocalUser"}},
	{"add-localgroupmember", Effect{Kind: Change, Area: Accounts, Name: "Add-LocalGroupMember"}},
	{"enable-localuser", Effect{Kind: Change, Area: Accounts, Name: "Enable-LocalUser"}},
	{"set-localuser", Effect{Kind: Change, Area: Accounts, Name: "Set-LocalUser"}},
	{"register-scheduledtask", Effect{Kind: Change, Area: Jobs, Name: "a Windows scheduled task", Action: "Register-ScheduledTask"}},
	{"enable-psremoting", Effect{Kind: Expose, Name: "PowerShell remoting (WinRM)"}},
	{"set-processmitigation", Effect{Kind: Change, Area: Service, Name: "exploit-protection", Action: "Set-ProcessMitigation"}},
}

// powershellServiceVerbs stop, kill or disable the service or process the
// code names (Stop-Service -Name Sysmon64, Stop-Process -Name MsMpEng,
// Set-Service wuauserv -StartupType Disabled); a defence among the code's
// words is switched off.
var powershellServiceVerbs = []string{"stop-service", "stop-process", "set-service", "suspend-service", "remove-service"}

// psFetches and psRuns find PowerShell code that downloads code and runs
// it as code: iwr … | iex, & ([scriptblock]::Create((irm …))).
func psFetches(code string) bool {
	if !strings.Contains(code, "://") {
		return false // a mention of iwr | iex, not a download
	}
	for _, w := range []string{"iwr ", "irm ", "invoke-webrequest", "invoke-restmethod", "downloadstring", "net.webclient"} {
		if strings.Contains(code, w) {
			return true
		}
	}
	return false
}

func psRuns(code string) bool {
	for _, w := range []string{"| iex", "|iex", "iex (", "iex(", "invoke-expression", "scriptblock]::create"} {
		if strings.Contains(code, w) {
			return true
		}
	}
	return false
}

// psHunts finds a recursive search of the Windows drive or a user's
// profile for key and password files (Get-ChildItem C:\ -Recurse -Include
// *.kdbx,*.pem,id_rsa).
func psHunts(code string) bool {
	if !strings.Contains(code, "-recurse") || !strings.Contains(code, "get-childitem") && !strings.Contains(code, "gci ") && !strings.Contains(code, "dir ") {
		return false
	}
	root := strings.Contains(code, `c:\ `) || strings.Contains(code, `c:\users`) || strings.Contains(code, "$env:userprofile") || strings.Contains(code, "c:/ ")
	keys := strings.Contains(code, ".kdbx") || strings.Contains(code, "id_rsa") || strings.Contains(code, ".pem") || strings.Contains(code, ".pfx") || strings.Contains(code, "*password*")
	return root && keys
}

// encodedCommand decodes powershell -EncodedCommand (-enc, -e) BASE64:
// UTF-16LE code in base64.
func encodedCommand(text string) string {
	f := strings.Fields(text)
	for i, w := range f {
		lw := strings.ToLower(w)
		if (lw == "-encodedcommand" || lw == "-enc" || lw == "-e" || lw == "-ec") && i+1 < len(f) {
			b, err := base64.StdEncoding.DecodeString(strings.Trim(f[i+1], `'"`))
			if err != nil || len(b)%2 != 0 {
				return ""
			}
			u := make([]uint16, len(b)/2)
			for j := range u {
				u[j] = uint16(b[2*j]) | uint16(b[2*j+1])<<8
			}
			return string(utf16.Decode(u))
		}
	}
	return ""
}

// cmdHunts finds findstr searching the Windows drive or the users'
// profiles for password words (findstr /si password C:\Users\*.xml).
func cmdHunts(code string) bool {
	if !strings.Contains(code, "findstr") || !strings.Contains(code, "/s") {
		return false
	}
	word := strings.Contains(code, "password") || strings.Contains(code, "passwd") || strings.Contains(code, "secret") || strings.Contains(code, "token") || strings.Contains(code, "credential")
	root := strings.Contains(code, `c:\users`) || strings.Contains(code, `cd /d c:\ `) || strings.Contains(code, `c:\*`) || strings.Contains(code, "%userprofile%") ||
		strings.Contains(code, " c:users") // bash removed the backslashes of an unquoted C:\Users\…
	return word && root
}

// cmdEffects reads cmd /c TEXT for a credential file printed or copied
// (type %USERPROFILE%\.ssh\id_ed25519).
func cmdEffects(text string) []Effect {
	code := strings.ToLower(text)
	if f, ok := cmdDownloadRun(code); ok {
		return []Effect{{Kind: Run, Path: f}}
	}
	if cmdHunts(code) {
		return []Effect{{Kind: Read, Area: Secrets, Name: "password files searched for across the Windows profiles"}}
	}
	if !strings.Contains(code, "type ") && !strings.Contains(code, "copy ") && !strings.Contains(code, "more ") {
		return nil
	}
	for _, k := range []string{`.ssh\id_`, `.aws\credentials`, `login data`, `logins.json`, `\config\sam`, `consolehost_history`} {
		if i := strings.Index(code, k); i >= 0 && !publicKeyAt(code[i:]) {
			return []Effect{{Kind: Read, Area: Secrets, Name: "a credential file of the Windows user"}}
		}
	}
	return nil
}

// cmdDownloadRun finds, in a cmd /c text, a file certutil or bitsadmin
// downloads and a later part of the same text runs (certutil -urlcache
// -f URL %TEMP%\u.exe && %TEMP%\u.exe, … & start %TEMP%\a.exe).
func cmdDownloadRun(code string) (string, bool) {
	parts := strings.FieldsFunc(code, func(r rune) bool { return r == '&' || r == '|' || r == '\n' })
	for i, part := range parts {
		f := strings.Fields(part)
		j := slices.IndexFunc(f, func(w string) bool {
			n := strings.TrimSuffix(WindowsBase(strings.Trim(w, `'"`)), ".exe")
			return n == "certutil" || n == "bitsadmin"
		})
		if j < 0 {
			continue
		}
		args := make([]string, 0, len(f)-j-1)
		for _, w := range f[j+1:] {
			args = append(args, strings.Trim(w, `'"`))
		}
		out, ok := WindowsDownload(strings.TrimSuffix(WindowsBase(strings.Trim(f[j], `'"`)), ".exe"), args)
		if !ok {
			continue
		}
		base := WindowsBase(out)
		for _, later := range parts[i+1:] {
			for _, w := range strings.Fields(strings.Trim(later, `'"`)) {
				if WindowsBase(strings.Trim(w, `'"`)) == base {
					return out, true
				}
			}
		}
	}
	return "", false
}

// publicKeyAt reports whether the word that starts s ends in .pub (a
// public key: id_ed25519.pub).
func publicKeyAt(s string) bool {
	end := strings.IndexAny(s, " '\";|)")
	if end < 0 {
		end = len(s)
	}
	return strings.HasSuffix(s[:end], ".pub")
}

// powershellEffects reads powershell -c CODE for the cmdlets it knows,
// and for the Windows paths of credential files it reads
// ([IO.File]::ReadAllBytes('C:\Users\dev\.ssh\id_ed25519')).
func powershellEffects(name, text string) []Effect {
	if name == "cmd" {
		return cmdEffects(text)
	}
	if name == "findstr" && cmdHunts(strings.ToLower(text)) {
		return []Effect{{Kind: Read, Area: Secrets, Name: "password files searched for across the Windows profiles"}}
	}
	if name != "powershell" && name != "pwsh" {
		return nil
	}
	// The command as written: package shell may have blanked the code.
	code := strings.ToLower(text) + " " + strings.ToLower(encodedCommand(text))
	var out []Effect
	if psFetches(code) && psRuns(code) {
		out = append(out, Effect{Kind: Run, Path: "code PowerShell downloads"})
	}
	if psHunts(code) {
		out = append(out, Effect{Kind: Read, Area: Secrets, Name: "key and password files searched for across the Windows drive"})
	}
	for _, c := range powershellCmdlets {
		if strings.Contains(code, c.Cmdlet) {
			out = append(out, c.Effect)
		}
	}
	for _, v := range powershellServiceVerbs {
		if !strings.Contains(code, v) || v == "set-service" && !strings.Contains(code, "disabled") {
			continue
		}
		for _, w := range strings.FieldsFunc(code, func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.')
		}) {
			if d := DefenceNamed(w); d != nil && !strings.HasSuffix(w, "-service") && !strings.HasSuffix(w, "-process") {
				out = append(out, Effect{Kind: Change, Area: Service, Name: w, Action: v})
				break
			}
		}
	}
	// Every shadow copy deleted through WMI.
	if strings.Contains(code, "win32_shadowcopy") && strings.Contains(code, "delete") {
		out = append(out, Effect{Kind: Change, Area: Service, Name: "vss", Action: "Win32_ShadowCopy.Delete"})
	}
	// The history file, the Windows vault's passwords, a key directory
	// archived or posted.
	if strings.Contains(code, "historysavepath") && (strings.Contains(code, "get-content") || strings.Contains(code, "copy-item") || strings.Contains(code, "cat ")) {
		out = append(out, Effect{Kind: Read, Area: Secrets, Name: "the PowerShell history"})
	}
	if strings.Contains(code, "passwordvault") && strings.Contains(code, "retrievepassword") {
		out = append(out, Effect{Kind: Read, Area: Secrets, Name: "the Windows vault's passwords"})
	}
	if (strings.Contains(code, "compress-archive") || strings.Contains(code, "-infile")) && (strings.Contains(code, `\.ssh`) || strings.Contains(code, ".aws")) {
		out = append(out, Effect{Kind: Read, Area: Secrets, Name: "a credential directory of the Windows user"})
	}
	// A defence's service key deleted: Remove-Item HKLM:\…\Services\WinDefend.
	if strings.Contains(code, "remove-item") {
		if _, after, ok := strings.Cut(code, `\services\`); ok {
			if f := strings.FieldsFunc(after, func(r rune) bool { return r == '\\' || r == ' ' || r == '\'' || r == '"' }); len(f) > 0 && DefenceNamed(f[0]) != nil {
				d := DefenceNamed(f[0])
				out = append(out, Effect{Kind: Change, Area: Service, Name: d.Names[0], Action: "Remove-Item"})
			}
		}
	}
	if strings.Contains(code, "readall") || strings.Contains(code, "get-content") || strings.Contains(code, "copy-item") {
		for _, k := range []string{`.ssh\id_`, `.ssh/id_`, `.aws\credentials`, `.aws/credentials`, `login data`, `logins.json`, `\config\sam`} {
			if i := strings.Index(code, k); i >= 0 && !publicKeyAt(code[i:]) {
				out = append(out, Effect{Kind: Read, Area: Secrets, Name: "a credential file of the Windows user"})
				break
			}
		}
	}
	return out
}

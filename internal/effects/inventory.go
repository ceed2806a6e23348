package effects

import (
	"path"
	"runtime"
	"strings"
)

// Class is what a sensitive object is, for the harm rules.
type Class uint8

const (
	// Credential: a file or store that holds secrets (keys, tokens,
	// saved passwords, cookies, mail).
	Credential Class = iota + 1
	// Persistence: a location whose content runs later on its own (shell
	// start-up files, schedulers, service managers, autostart, language
	// start-up hooks, git templates).
	Persistence
	// Account: the databases of users, groups and who may become root.
	Account
	// Protection: the configuration of a defence (audit rules, MAC
	// profiles, firewall rules, the logger, the privacy database).
	Protection
	// Device: a disk or partition.
	Device
)

func (c Class) String() string {
	switch c {
	case Credential:
		return "credential store"
	case Persistence:
		return "persistence location"
	case Account:
		return "account database"
	case Protection:
		return "defence configuration"
	case Device:
		return "disk"
	}
	return "object"
}

// OS is a set of operating systems an object exists on.
type OS uint8

const (
	Linux OS = 1 << iota
	MacOS
	BSD
	Windows // seen from WSL (/mnt/c), Git Bash (/c) or Cygwin (/cygdrive/c)

	Unix = Linux | MacOS | BSD
	Any  = Unix | Windows
)

// Object is one sensitive object of the inventory.
type Object struct {
	// Pattern is the object's path: "/"-separated segments matched with
	// path.Match, "**" standing for any number of segments. It starts
	// with "/" (an absolute path), "~/" (any user's home: the session's,
	// /home/*, /Users/*, /root, /var/root, /usr/home/*), "%USER%/" (a
	// Windows user profile seen from WSL, Git Bash or Cygwin: matched
	// without regard to case), "%WIN%/" (the Windows directory, likewise)
	// or "**/" (anywhere).
	Pattern string
	Class   Class
	OS      OS
	// What names the object in reasons ("the login keychain").
	What string
	// Match is a path the pattern must match, NoMatch a close one it must
	// not (checked by TestInventoryExamples); "~" in them is /home/u.
	Match, NoMatch string
}

// Inventory is the table of sensitive objects. Guard and agent
// configuration is not here: internal/protect owns it, and guard.tamper
// judges it for both guards.
func Inventory() []Object { return inventory }

// Lookup returns the first object of the inventory that p names, nil if
// none. p is absolute (relative paths resolved by the caller); home is the
// session's home directory ("" if unknown).
func Lookup(p, home string) *Object {
	if p == "" || p[0] != '/' {
		return nil
	}
	p = path.Clean(p)
	var f folding
	for i := range inventory {
		if inventory[i].Class == Credential && publicKey(p) {
			continue
		}
		if f.matches(&inventory[i], p, home) {
			return &inventory[i]
		}
	}
	return nil
}

// LookupClass is Lookup restricted to one class.
func LookupClass(p, home string, c Class) *Object {
	if p == "" || p[0] != '/' {
		return nil
	}
	p = path.Clean(p)
	if c == Credential && publicKey(p) {
		return nil // a public key is never a credential (~/.ssh/id_ed25519.pub)
	}
	var f folding
	for i := range inventory {
		if inventory[i].Class == c && f.matches(&inventory[i], p, home) {
			return &inventory[i]
		}
	}
	return nil
}

// folding matches a path against the objects of macOS without regard to
// case when the path lies on a file system that ignores it (macOS's
// default: cat ~/.SSH/ID_RSA reads ~/.ssh/id_rsa there): the hook runs on
// darwin, or the path is in a macOS home (/Users/NAME). The lower-cased
// path is made once per lookup, and only when a spelling matched nowhere.
type folding struct {
	done     bool
	p, home  string
	insensit bool
}

func (f *folding) matches(o *Object, p, home string) bool {
	if matches(o.Pattern, p, home) {
		return true
	}
	if o.OS&MacOS == 0 {
		return false
	}
	if !f.done {
		f.done = true
		f.insensit = runtime.GOOS == "darwin" || strings.HasPrefix(p, "/Users/")
		if f.insensit {
			f.p, f.home = strings.ToLower(p), strings.ToLower(home)
		}
	}
	if !f.insensit {
		return false
	}
	if key := literalKey(o.Pattern); key != "" && !strings.Contains(f.p, strings.ToLower(key)) {
		return false
	}
	return matches(strings.ToLower(o.Pattern), f.p, f.home)
}

// homePrefixes are where a user's home directory may be on the systems the
// guard runs on, besides the session's own (/users/* is /Users/* as a
// path folded to lower case matches it).
var homePrefixes = []string{"/home/*", "/Users/*", "/root", "/var/root", "/usr/home/*", "/export/home/*", "/users/*"}

// windowsRoots are where a Windows drive shows up under WSL, Git Bash and
// Cygwin.
var windowsRoots = []string{"/mnt/*", "/*", "/cygdrive/*"}

func matches(pattern, p, home string) bool {
	// Most patterns are ruled out by a literal segment the path lacks:
	// a hook process judges a path against the whole table, and this
	// check costs no allocation where the glob matching below does.
	if key := literalKey(pattern); key != "" && !strings.Contains(p, key) &&
		!(pattern[0] == '%' && strings.Contains(strings.ToLower(p), strings.ToLower(key))) {
		return false
	}
	switch {
	case strings.HasPrefix(pattern, "~/"):
		rest := pattern[1:]
		if home != "" && home != "/" && globPath(home+rest, p) {
			return true
		}
		for _, h := range homePrefixes {
			if globPath(h+rest, p) {
				return true
			}
		}
		return false
	case strings.HasPrefix(pattern, "%USER%/"), strings.HasPrefix(pattern, "%WIN%/"):
		rest, sub := strings.CutPrefix(pattern, "%USER%")
		if sub {
			rest = "/Users/*" + rest
		} else {
			rest = "/Windows" + strings.TrimPrefix(pattern, "%WIN%")
		}
		lp := strings.ToLower(p)
		for _, r := range windowsRoots {
			if globPath(strings.ToLower(r+rest), lp) {
				return true
			}
		}
		return false
	}
	return globPath(pattern, p)
}

// literalKey is the pattern's longest segment with no glob character
// ("credentials" for ~/.aws/credentials), found in one pass over it.
func literalKey(pattern string) string {
	best, start, glob := "", 0, false
	for i := 0; i <= len(pattern); i++ {
		if i == len(pattern) || pattern[i] == '/' {
			if seg := pattern[start:i]; !glob && len(seg) > len(best) && seg[0] != '%' && seg != "~" {
				best = seg
			}
			start, glob = i+1, false
			continue
		}
		switch pattern[i] {
		case '*', '?', '[':
			glob = true
		}
	}
	return best
}

// globPath matches p against a "/"-separated pattern whose segments are
// path.Match patterns or "**" (any number of segments, none included).
func globPath(pattern, p string) bool {
	return globSegs(strings.Split(strings.TrimPrefix(pattern, "/"), "/"), strings.Split(strings.TrimPrefix(p, "/"), "/"))
}

func globSegs(pat, segs []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			for i := 0; i <= len(segs); i++ {
				if globSegs(pat[1:], segs[i:]) {
					return true
				}
			}
			return false
		}
		if len(segs) == 0 {
			return false
		}
		if ok, _ := path.Match(pat[0], segs[0]); !ok {
			return false
		}
		pat, segs = pat[1:], segs[1:]
	}
	return len(segs) == 0
}

// inventory is a package variable of literals: the compiler lays it out in
// the binary, nothing is built when a hook process starts.
var inventory = []Object{
	// Credential stores: keys and tokens of command-line tools.
	{Pattern: "~/.ssh/id_*", Class: Credential, OS: Unix, What: "an SSH private key", Match: "~/.ssh/id_ed25519", NoMatch: "~/.ssh/known_hosts"},
	{Pattern: "%USER%/.ssh/id_*", Class: Credential, OS: Windows, What: "an SSH private key of the Windows user", Match: "/mnt/c/Users/ann/.ssh/id_rsa", NoMatch: "/mnt/c/Users/ann/.ssh/config"},
	{Pattern: "/etc/ssh/ssh_host_*_key", Class: Credential, OS: Unix, What: "an SSH host private key", Match: "/etc/ssh/ssh_host_rsa_key", NoMatch: "/etc/ssh/ssh_host_rsa_key.pub"},
	{Pattern: "~/.aws/credentials", Class: Credential, OS: Any, What: "the AWS CLI's credentials", Match: "~/.aws/credentials", NoMatch: "~/.aws/config"},
	{Pattern: "~/.aws/sso/cache/*", Class: Credential, OS: Any, What: "the AWS CLI's SSO tokens", Match: "~/.aws/sso/cache/abc.json", NoMatch: "~/.aws/cli/alias"},
	{Pattern: "%USER%/.aws/credentials", Class: Credential, OS: Windows, What: "the AWS CLI's credentials of the Windows user", Match: "/c/Users/ann/.aws/credentials", NoMatch: "/c/Users/ann/.aws/config"},
	{Pattern: "~/.config/gcloud/*.db", Class: Credential, OS: Any, What: "gcloud's credential database", Match: "~/.config/gcloud/credentials.db", NoMatch: "~/.config/gcloud/configurations"},
	{Pattern: "~/.config/gcloud/legacy_credentials/**", Class: Credential, OS: Any, What: "gcloud's legacy credentials", Match: "~/.config/gcloud/legacy_credentials/a@b.c/adc.json", NoMatch: "~/.config/gcloud/logs/x"},
	{Pattern: "~/.config/gcloud/application_default_credentials.json", Class: Credential, OS: Any, What: "gcloud's application default credentials", Match: "~/.config/gcloud/application_default_credentials.json", NoMatch: "~/.config/gcloud/active_config"},
	{Pattern: "~/.azure/*.json", Class: Credential, OS: Any, What: "the Azure CLI's tokens", Match: "~/.azure/msal_token_cache.json", NoMatch: "~/.azure/config"},
	{Pattern: "~/.azure/*.bin", Class: Credential, OS: Any, What: "the Azure CLI's encrypted token cache", Match: "~/.azure/msal_token_cache.bin", NoMatch: "~/.azure/logs"},
	{Pattern: "~/.kube/config", Class: Credential, OS: Any, What: "the kubeconfig (cluster credentials)", Match: "~/.kube/config", NoMatch: "~/.kube/cache"},
	{Pattern: "/etc/kubernetes/*.conf", Class: Credential, OS: Linux, What: "a cluster's admin kubeconfig", Match: "/etc/kubernetes/admin.conf", NoMatch: "/etc/kubernetes/manifests"},
	{Pattern: "/etc/kubernetes/pki/*.key", Class: Credential, OS: Linux, What: "a cluster's private key", Match: "/etc/kubernetes/pki/ca.key", NoMatch: "/etc/kubernetes/pki/ca.crt"},
	{Pattern: "/var/run/secrets/kubernetes.io/serviceaccount/token", Class: Credential, OS: Linux, What: "a pod's service-account token", Match: "/var/run/secrets/kubernetes.io/serviceaccount/token", NoMatch: "/var/run/secrets/kubernetes.io/serviceaccount/namespace"},
	{Pattern: "/run/secrets/kubernetes.io/serviceaccount/token", Class: Credential, OS: Linux, What: "a pod's service-account token", Match: "/run/secrets/kubernetes.io/serviceaccount/token", NoMatch: "/run/secrets/kubernetes.io/serviceaccount/ca.crt"},
	{Pattern: "~/.docker/config.json", Class: Credential, OS: Any, What: "the container registry logins", Match: "~/.docker/config.json", NoMatch: "~/.docker/daemon.json"},
	{Pattern: "~/.config/containers/auth.json", Class: Credential, OS: Linux, What: "podman's registry logins", Match: "~/.config/containers/auth.json", NoMatch: "~/.config/containers/registries.conf"},
	{Pattern: "/run/containers/*/auth.json", Class: Credential, OS: Linux, What: "podman's registry logins", Match: "/run/containers/0/auth.json", NoMatch: "/run/containers/0/x.json"},
	{Pattern: "~/.netrc", Class: Credential, OS: Unix, What: "~/.netrc (passwords for hosts)", Match: "~/.netrc", NoMatch: "~/.netrc.example"},
	{Pattern: "~/.git-credentials", Class: Credential, OS: Any, What: "git's stored credentials", Match: "~/.git-credentials", NoMatch: "~/.gitconfig"},
	{Pattern: "~/.config/gh/hosts.yml", Class: Credential, OS: Any, What: "the GitHub CLI's tokens", Match: "~/.config/gh/hosts.yml", NoMatch: "~/.config/gh/config.yml"},
	{Pattern: "~/.npmrc", Class: Credential, OS: Any, What: "npm's registry tokens", Match: "~/.npmrc", NoMatch: "~/.npm/_logs"},
	{Pattern: "~/.pypirc", Class: Credential, OS: Any, What: "PyPI upload tokens", Match: "~/.pypirc", NoMatch: "~/.pip/pip.conf"},
	{Pattern: "~/.gem/credentials", Class: Credential, OS: Any, What: "RubyGems' API key", Match: "~/.gem/credentials", NoMatch: "~/.gem/specs"},
	{Pattern: "~/.cargo/credentials*", Class: Credential, OS: Any, What: "crates.io's token", Match: "~/.cargo/credentials.toml", NoMatch: "~/.cargo/config.toml"},
	{Pattern: "~/.terraform.d/credentials.tfrc.json", Class: Credential, OS: Any, What: "Terraform Cloud's token", Match: "~/.terraform.d/credentials.tfrc.json", NoMatch: "~/.terraform.d/plugins"},
	{Pattern: "~/.vault-token", Class: Credential, OS: Any, What: "Vault's token", Match: "~/.vault-token", NoMatch: "~/.vault"},
	{Pattern: "~/.config/hub", Class: Credential, OS: Any, What: "hub's GitHub token", Match: "~/.config/hub", NoMatch: "~/.config/hubble"},
	{Pattern: "~/.config/doctl/config.yaml", Class: Credential, OS: Any, What: "doctl's token", Match: "~/.config/doctl/config.yaml", NoMatch: "~/.config/doctl/cache"},
	{Pattern: "~/.config/heroku/*", Class: Credential, OS: Any, What: "Heroku's credentials", Match: "~/.config/heroku/credentials", NoMatch: "~/.config/herokuish"},
	{Pattern: "~/.oci/*.pem", Class: Credential, OS: Any, What: "Oracle Cloud's API key", Match: "~/.oci/oci_api_key.pem", NoMatch: "~/.oci/config.bak"},
	{Pattern: "~/.s3cfg", Class: Credential, OS: Any, What: "s3cmd's keys", Match: "~/.s3cfg", NoMatch: "~/.s3cfg.example"},
	{Pattern: "~/.boto", Class: Credential, OS: Any, What: "boto's keys", Match: "~/.boto", NoMatch: "~/.botorc"},
	{Pattern: "~/.pgpass", Class: Credential, OS: Any, What: "PostgreSQL's saved passwords", Match: "~/.pgpass", NoMatch: "~/.psqlrc"},
	{Pattern: "~/.my.cnf", Class: Credential, OS: Any, What: "MySQL's saved password", Match: "~/.my.cnf", NoMatch: "~/.mysql_history.old"},
	{Pattern: "~/.mylogin.cnf", Class: Credential, OS: Any, What: "MySQL's login paths", Match: "~/.mylogin.cnf", NoMatch: "~/.mycli.log"},
	{Pattern: "~/.gnupg/private-keys-v1.d/**", Class: Credential, OS: Any, What: "GnuPG's private keys", Match: "~/.gnupg/private-keys-v1.d/ABC.key", NoMatch: "~/.gnupg/pubring.kbx"},
	{Pattern: "~/.gnupg/secring.gpg", Class: Credential, OS: Any, What: "GnuPG's secret keyring", Match: "~/.gnupg/secring.gpg", NoMatch: "~/.gnupg/trustdb.gpg"},
	{Pattern: "/etc/ssl/private/**", Class: Credential, OS: Linux | BSD, What: "the system's TLS private keys", Match: "/etc/ssl/private/server.key", NoMatch: "/etc/ssl/certs/ca.pem"},
	{Pattern: "/etc/pki/tls/private/**", Class: Credential, OS: Linux, What: "the system's TLS private keys", Match: "/etc/pki/tls/private/localhost.key", NoMatch: "/etc/pki/tls/certs/localhost.crt"},
	{Pattern: "/etc/letsencrypt/live/*/privkey.pem", Class: Credential, OS: Unix, What: "a Let's Encrypt private key", Match: "/etc/letsencrypt/live/example.com/privkey.pem", NoMatch: "/etc/letsencrypt/live/example.com/fullchain.pem"},
	{Pattern: "/etc/letsencrypt/archive/*/privkey*.pem", Class: Credential, OS: Unix, What: "a Let's Encrypt private key", Match: "/etc/letsencrypt/archive/example.com/privkey1.pem", NoMatch: "/etc/letsencrypt/archive/example.com/cert1.pem"},
	{Pattern: "/var/lib/sss/db/*", Class: Credential, OS: Linux, What: "SSSD's cached domain credentials", Match: "/var/lib/sss/db/cache_example.ldb", NoMatch: "/var/lib/sss/pipes/nss"},
	{Pattern: "/etc/krb5.keytab", Class: Credential, OS: Unix, What: "the Kerberos host keytab", Match: "/etc/krb5.keytab", NoMatch: "/etc/krb5.conf"},
	{Pattern: "/tmp/krb5cc_*", Class: Credential, OS: Unix, What: "a Kerberos ticket cache", Match: "/tmp/krb5cc_1000", NoMatch: "/tmp/krb5.log"},
	{Pattern: "/etc/NetworkManager/system-connections/*", Class: Credential, OS: Linux, What: "saved Wi-Fi and VPN passwords", Match: "/etc/NetworkManager/system-connections/home.nmconnection", NoMatch: "/etc/NetworkManager/NetworkManager.conf"},
	{Pattern: "/etc/wireguard/*", Class: Credential, OS: Linux | BSD, What: "a WireGuard configuration (its private key)", Match: "/etc/wireguard/wg0.conf", NoMatch: "/etc/wireguardx/wg0.conf"},
	{Pattern: "/usr/local/etc/wireguard/*", Class: Credential, OS: MacOS | BSD, What: "a WireGuard configuration (its private key)", Match: "/usr/local/etc/wireguard/wg0.conf", NoMatch: "/usr/local/etc/wireguard.md"},
	{Pattern: "~/.config/age/*", Class: Credential, OS: Any, What: "an age identity (private key)", Match: "~/.config/age/key.txt", NoMatch: "~/.config/agenda/x"},
	{Pattern: "~/.config/sops/age/keys.txt", Class: Credential, OS: Any, What: "sops' age keys", Match: "~/.config/sops/age/keys.txt", NoMatch: "~/.config/sops/config.yaml"},
	{Pattern: "/etc/wpa_supplicant.conf", Class: Credential, OS: Linux | BSD, What: "saved Wi-Fi passwords", Match: "/etc/wpa_supplicant.conf", NoMatch: "/etc/wpa_supplicant.conf.sample"},
	// OpenBSD keeps an interface's keys in its hostname.if file: wgkey for
	// WireGuard, wpakey for Wi-Fi, authkey for PPPoE (a wired hostname.em0
	// holds none).
	{Pattern: "/etc/hostname.wg*", Class: Credential, OS: BSD, What: "a WireGuard interface file (its wgkey private key)", Match: "/etc/hostname.wg0", NoMatch: "/etc/hostname.em0"},
	{Pattern: "/etc/hostname.pppoe*", Class: Credential, OS: BSD, What: "a PPPoE interface file (its authkey password)", Match: "/etc/hostname.pppoe0", NoMatch: "/etc/hostname.vio0"},
	{Pattern: "/etc/hostname.iw[mnx]*", Class: Credential, OS: BSD, What: "a Wi-Fi interface file (its wpakey)", Match: "/etc/hostname.iwm0", NoMatch: "/etc/hostname.igc0"},
	{Pattern: "/etc/hostname.athn*", Class: Credential, OS: BSD, What: "a Wi-Fi interface file (its wpakey)", Match: "/etc/hostname.athn0", NoMatch: "/etc/hostname.ath"},
	{Pattern: "/etc/hostname.urtwn*", Class: Credential, OS: BSD, What: "a Wi-Fi interface file (its wpakey)", Match: "/etc/hostname.urtwn0", NoMatch: "/etc/hostname.ure0"},
	{Pattern: "/etc/hostname.rtwn*", Class: Credential, OS: BSD, What: "a Wi-Fi interface file (its wpakey)", Match: "/etc/hostname.rtwn0", NoMatch: "/etc/hostname.re0"},
	{Pattern: "/etc/hostname.run*", Class: Credential, OS: BSD, What: "a Wi-Fi interface file (its wpakey)", Match: "/etc/hostname.run0", NoMatch: "/etc/hostname.rge0"},
	{Pattern: "/etc/hostname.ral*", Class: Credential, OS: BSD, What: "a Wi-Fi interface file (its wpakey)", Match: "/etc/hostname.ral0", NoMatch: "/etc/hostname.re1"},
	{Pattern: "/etc/hostname.qwx*", Class: Credential, OS: BSD, What: "a Wi-Fi interface file (its wpakey)", Match: "/etc/hostname.qwx0", NoMatch: "/etc/hostname.em1"},
	{Pattern: "/etc/hostname.bwfm*", Class: Credential, OS: BSD, What: "a Wi-Fi interface file (its wpakey)", Match: "/etc/hostname.bwfm0", NoMatch: "/etc/hostname.bge0"},
	{Pattern: "/etc/iked/private/**", Class: Credential, OS: BSD, What: "iked's private key", Match: "/etc/iked/private/local.key", NoMatch: "/etc/iked/local.pub"},
	{Pattern: "/etc/isakmpd/private/**", Class: Credential, OS: BSD, What: "isakmpd's private key", Match: "/etc/isakmpd/private/local.key", NoMatch: "/etc/isakmpd/local.pub"},
	{Pattern: "/usr/local/etc/ssl/private/**", Class: Credential, OS: BSD, What: "the system's TLS private keys", Match: "/usr/local/etc/ssl/private/server.key", NoMatch: "/usr/local/etc/ssl/cert.pem"},
	{Pattern: "/usr/local/etc/letsencrypt/live/*/privkey.pem", Class: Credential, OS: BSD | MacOS, What: "a Let's Encrypt private key", Match: "/usr/local/etc/letsencrypt/live/example.org/privkey.pem", NoMatch: "/usr/local/etc/letsencrypt/live/example.org/cert.pem"},
	{Pattern: "/usr/local/etc/letsencrypt/archive/*/privkey*.pem", Class: Credential, OS: BSD | MacOS, What: "a Let's Encrypt private key", Match: "/usr/local/etc/letsencrypt/archive/example.org/privkey1.pem", NoMatch: "/usr/local/etc/letsencrypt/archive/example.org/chain1.pem"},
	{Pattern: "/etc/acme/*.key", Class: Credential, OS: BSD, What: "acme-client's account key", Match: "/etc/acme/letsencrypt-privkey.key", NoMatch: "/etc/acme-client.conf"},
	{Pattern: "/etc/mail/secrets", Class: Credential, OS: BSD, What: "OpenSMTPD's relay credentials", Match: "/etc/mail/secrets", NoMatch: "/etc/mail/aliases"},
	{Pattern: "**/postfix/sasl_passwd*", Class: Credential, OS: Unix, What: "Postfix's relay passwords", Match: "/opt/homebrew/etc/postfix/sasl_passwd", NoMatch: "/etc/postfix/main.cf"},
	{Pattern: "/etc/ppp/ppp.secret", Class: Credential, OS: BSD, What: "ppp's dial-up secrets", Match: "/etc/ppp/ppp.secret", NoMatch: "/etc/ppp/ppp.conf"},
	{Pattern: "/etc/ppp/*-secrets", Class: Credential, OS: Linux | BSD, What: "PPP's CHAP/PAP secrets", Match: "/etc/ppp/chap-secrets", NoMatch: "/etc/ppp/options"},
	{Pattern: "/var/unbound/etc/*.key", Class: Credential, OS: BSD, What: "unbound's control private key", Match: "/var/unbound/etc/unbound_control.key", NoMatch: "/var/unbound/etc/unbound.conf"},
	{Pattern: "/usr/local/etc/unbound/*.key", Class: Credential, OS: BSD, What: "unbound's control private key", Match: "/usr/local/etc/unbound/unbound_server.key", NoMatch: "/usr/local/etc/unbound/unbound.conf"},
	{Pattern: "**/*.sec", Class: Credential, OS: Any, What: "a signify secret key", Match: "/home/u/keys/release.sec", NoMatch: "/etc/signify/openbsd-75-base.pub"},
	{Pattern: "/etc/kcpassword", Class: Credential, OS: MacOS, What: "the automatic login password (kcpassword)", Match: "/etc/kcpassword", NoMatch: "/etc/krb5.conf"},
	{Pattern: "/private/etc/kcpassword", Class: Credential, OS: MacOS, What: "the automatic login password (kcpassword)", Match: "/private/etc/kcpassword", NoMatch: "/private/etc/hosts"},
	{Pattern: "/etc/wpa_supplicant/*.conf", Class: Credential, OS: Linux | BSD, What: "saved Wi-Fi passwords", Match: "/etc/wpa_supplicant/wpa_supplicant.conf", NoMatch: "/etc/wpa_supplicant/README"},
	{Pattern: "/var/lib/iwd/*.psk", Class: Credential, OS: Linux, What: "saved Wi-Fi passwords", Match: "/var/lib/iwd/home.psk", NoMatch: "/var/lib/iwd/home.open"},
	{Pattern: "/Library/Preferences/SystemConfiguration/com.apple.airport.preferences.plist", Class: Credential, OS: MacOS, What: "saved Wi-Fi networks", Match: "/Library/Preferences/SystemConfiguration/com.apple.airport.preferences.plist", NoMatch: "/Library/Preferences/SystemConfiguration/preferences.plist"},
	{Pattern: "/etc/shadow", Class: Credential, OS: Linux, What: "the password hashes", Match: "/etc/shadow", NoMatch: "/etc/shadow.example/x"},
	{Pattern: "/etc/gshadow", Class: Credential, OS: Linux, What: "the group password hashes", Match: "/etc/gshadow", NoMatch: "/etc/group"},
	{Pattern: "/etc/master.passwd", Class: Credential, OS: BSD, What: "the BSD password hashes", Match: "/etc/master.passwd", NoMatch: "/etc/passwd"},
	{Pattern: "/etc/spwd.db", Class: Credential, OS: BSD, What: "the BSD password hash database", Match: "/etc/spwd.db", NoMatch: "/etc/pwd.db"},
	{Pattern: "/var/db/dslocal/nodes/Default/users/*", Class: Credential, OS: MacOS, What: "the macOS user records (password hashes)", Match: "/var/db/dslocal/nodes/Default/users/ann.plist", NoMatch: "/var/db/dslocal/nodes/Default/aliases/x"},
	{Pattern: "/private/var/db/dslocal/nodes/Default/users/*", Class: Credential, OS: MacOS, What: "the macOS user records (password hashes)", Match: "/private/var/db/dslocal/nodes/Default/users/ann.plist", NoMatch: "/private/var/db/dslocal/nodes/Default/groups"},
	{Pattern: "%WIN%/System32/config/SAM", Class: Credential, OS: Windows, What: "the Windows account database (SAM hive)", Match: "/mnt/c/Windows/System32/config/SAM", NoMatch: "/mnt/c/Windows/System32/drivers/etc/hosts"},
	{Pattern: "%WIN%/System32/config/SECURITY", Class: Credential, OS: Windows, What: "the Windows LSA secrets (SECURITY hive)", Match: "/c/Windows/System32/config/SECURITY", NoMatch: "/c/Windows/System32/config/systemprofile"},
	{Pattern: "%WIN%/System32/config/SYSTEM", Class: Credential, OS: Windows, What: "the Windows SYSTEM hive (the SAM's boot key)", Match: "/mnt/c/Windows/System32/config/SYSTEM", NoMatch: "/mnt/c/Windows/System32/config/RegBack"},
	{Pattern: "%USER%/AppData/*/Microsoft/Credentials/**", Class: Credential, OS: Windows, What: "the Windows Credential Manager's vault", Match: "/mnt/c/Users/ann/AppData/Roaming/Microsoft/Credentials/ABC", NoMatch: "/mnt/c/Users/ann/AppData/Roaming/Microsoft/Windows/Recent"},
	{Pattern: "%USER%/AppData/*/Microsoft/Protect/**", Class: Credential, OS: Windows, What: "the Windows DPAPI master keys", Match: "/mnt/c/Users/ann/AppData/Roaming/Microsoft/Protect/S-1-5-21/key", NoMatch: "/mnt/c/Users/ann/AppData/Roaming/Microsoft/Teams/x"},
	{Pattern: "%USER%/AppData/*/Microsoft/Vault/**", Class: Credential, OS: Windows, What: "the Windows Vault", Match: "/mnt/c/Users/ann/AppData/Local/Microsoft/Vault/x.vcrd", NoMatch: "/mnt/c/Users/ann/AppData/Local/Microsoft/Edge/x"},
	// Credential stores: keychains, password managers, desktop keyrings.
	{Pattern: "~/Library/Keychains/**", Class: Credential, OS: MacOS, What: "the login keychain", Match: "~/Library/Keychains/login.keychain-db", NoMatch: "~/Library/Caches/login.keychain-db"},
	{Pattern: "/Library/Keychains/**", Class: Credential, OS: MacOS, What: "the System keychain", Match: "/Library/Keychains/System.keychain", NoMatch: "/Library/Caches/System.keychain"},
	{Pattern: "/private/var/db/SystemKey", Class: Credential, OS: MacOS, What: "the System keychain's master key", Match: "/private/var/db/SystemKey", NoMatch: "/private/var/db/SystemPolicy"},
	{Pattern: "/var/db/SystemKey", Class: Credential, OS: MacOS, What: "the System keychain's master key", Match: "/var/db/SystemKey", NoMatch: "/var/db/locate.database"},
	{Pattern: "~/.local/share/keyrings/**", Class: Credential, OS: Linux | BSD, What: "the GNOME keyring", Match: "~/.local/share/keyrings/login.keyring", NoMatch: "~/.local/share/recently-used.xbel"},
	{Pattern: "~/.local/share/kwalletd/**", Class: Credential, OS: Linux | BSD, What: "KDE Wallet", Match: "~/.local/share/kwalletd/kdewallet.kwl", NoMatch: "~/.local/share/konsole/x"},
	{Pattern: "~/.password-store/**", Class: Credential, OS: Unix, What: "pass's password store", Match: "~/.password-store/email/work.gpg", NoMatch: "~/.password-store-backup.txt"},
	{Pattern: "**/*.kdbx", Class: Credential, OS: Any, What: "a KeePass database", Match: "/home/u/Documents/vault.kdbx", NoMatch: "/home/u/Documents/vault.kdbx.txt"},
	{Pattern: "~/.config/Bitwarden/data.json", Class: Credential, OS: Any, What: "Bitwarden's vault", Match: "~/.config/Bitwarden/data.json", NoMatch: "~/.config/Bitwarden/logs"},
	{Pattern: "~/.config/Bitwarden CLI/data.json", Class: Credential, OS: Any, What: "the Bitwarden CLI's vault", Match: "~/.config/Bitwarden CLI/data.json", NoMatch: "~/.config/Bitwarden CLI/x"},
	{Pattern: "~/Library/Application Support/Bitwarden/data.json", Class: Credential, OS: MacOS, What: "Bitwarden's vault", Match: "~/Library/Application Support/Bitwarden/data.json", NoMatch: "~/Library/Application Support/Bitwarden/logs"},
	{Pattern: "~/.config/op/config", Class: Credential, OS: Any, What: "the 1Password CLI's session", Match: "~/.config/op/config", NoMatch: "~/.config/op/plugins"},
	{Pattern: "~/Library/Group Containers/*.com.1password/**", Class: Credential, OS: MacOS, What: "1Password's data", Match: "~/Library/Group Containers/2BUA8C4S2C.com.1password/Library/Application Support/1Password/Data/1password.sqlite", NoMatch: "~/Library/Group Containers/group.com.apple.notes/x"},
	// Credential stores: browsers' saved logins and cookies.
	{Pattern: "~/.config/*/*/Login Data*", Class: Credential, OS: Linux | BSD, What: "a Chromium browser's saved passwords", Match: "~/.config/google-chrome/Default/Login Data", NoMatch: "~/.config/google-chrome/Default/Preferences"},
	{Pattern: "~/.config/*/*/Cookies", Class: Credential, OS: Linux | BSD, What: "a Chromium browser's cookies", Match: "~/.config/chromium/Profile 1/Cookies", NoMatch: "~/.config/chromium/Profile 1/Bookmarks"},
	{Pattern: "~/.config/*/*/Network/Cookies", Class: Credential, OS: Linux | BSD, What: "a Chromium browser's cookies", Match: "~/.config/google-chrome/Default/Network/Cookies", NoMatch: "~/.config/google-chrome/Default/Network/TransportSecurity"},
	{Pattern: "~/.config/*/*/*/Network/Cookies", Class: Credential, OS: Linux | BSD, What: "a Chromium browser's cookies", Match: "~/.config/BraveSoftware/Brave-Browser/Default/Network/Cookies", NoMatch: "~/.config/BraveSoftware/Brave-Browser/Default/Network/TransportSecurity"},
	{Pattern: "~/.config/*/*/*/Login Data*", Class: Credential, OS: Linux | BSD, What: "a Chromium browser's saved passwords", Match: "~/.config/BraveSoftware/Brave-Browser/Default/Login Data", NoMatch: "~/.config/BraveSoftware/Brave-Browser/Default/History"},
	{Pattern: "~/.config/*/*/*/Cookies", Class: Credential, OS: Linux | BSD, What: "a Chromium browser's cookies", Match: "~/.config/BraveSoftware/Brave-Browser/Default/Cookies", NoMatch: "~/.config/BraveSoftware/Brave-Browser/Default/Favicons"},
	{Pattern: "~/Library/Application Support/*/*/Login Data*", Class: Credential, OS: MacOS, What: "a Chromium browser's saved passwords", Match: "~/Library/Application Support/Vivaldi/Default/Login Data", NoMatch: "~/Library/Application Support/Vivaldi/Default/Bookmarks"},
	{Pattern: "~/Library/Application Support/*/*/*/Login Data*", Class: Credential, OS: MacOS, What: "a Chromium browser's saved passwords", Match: "~/Library/Application Support/Google/Chrome/Default/Login Data", NoMatch: "~/Library/Application Support/Google/Chrome/Default/History"},
	{Pattern: "~/Library/Application Support/**/Cookies", Class: Credential, OS: MacOS, What: "a browser's cookies", Match: "~/Library/Application Support/Google/Chrome/Default/Cookies", NoMatch: "~/Library/Application Support/Google/Chrome/Default/Cookies-journal.txt"},
	{Pattern: "~/Library/Cookies/**", Class: Credential, OS: MacOS, What: "Safari's cookies", Match: "~/Library/Cookies/Cookies.binarycookies", NoMatch: "~/Library/Caches/Cookies.binarycookies"},
	{Pattern: "~/Library/Containers/com.apple.Safari/Data/Library/Cookies/**", Class: Credential, OS: MacOS, What: "Safari's cookies", Match: "~/Library/Containers/com.apple.Safari/Data/Library/Cookies/Cookies.binarycookies", NoMatch: "~/Library/Containers/com.apple.Safari/Data/Library/Caches/x"},
	{Pattern: "%USER%/AppData/Local/*/*/User Data/*/Login Data*", Class: Credential, OS: Windows, What: "a Chromium browser's saved passwords", Match: "/mnt/c/Users/ann/AppData/Local/Google/Chrome/User Data/Default/Login Data", NoMatch: "/mnt/c/Users/ann/AppData/Local/Google/Chrome/User Data/Default/Bookmarks"},
	{Pattern: "%USER%/AppData/Local/*/*/User Data/*/Network/Cookies", Class: Credential, OS: Windows, What: "a Chromium browser's cookies", Match: "/mnt/c/Users/ann/AppData/Local/Microsoft/Edge/User Data/Default/Network/Cookies", NoMatch: "/mnt/c/Users/ann/AppData/Local/Microsoft/Edge/User Data/Default/Network/Reporting"},
	{Pattern: "%USER%/AppData/Local/*/*/User Data/Local State", Class: Credential, OS: Windows, What: "a Chromium browser's cookie and password key", Match: "/mnt/c/Users/ann/AppData/Local/Google/Chrome/User Data/Local State", NoMatch: "/mnt/c/Users/ann/AppData/Local/Google/Chrome/User Data/Last Version"},
	{Pattern: "~/.mozilla/firefox/*/logins.json", Class: Credential, OS: Linux | BSD, What: "Firefox's saved passwords", Match: "~/.mozilla/firefox/abc.default/logins.json", NoMatch: "~/.mozilla/firefox/abc.default/prefs.js"},
	{Pattern: "~/.mozilla/firefox/*/key*.db", Class: Credential, OS: Linux | BSD, What: "Firefox's password key", Match: "~/.mozilla/firefox/abc.default/key4.db", NoMatch: "~/.mozilla/firefox/abc.default/places.sqlite"},
	{Pattern: "~/.mozilla/firefox/*/cookies.sqlite", Class: Credential, OS: Linux | BSD, What: "Firefox's cookies", Match: "~/.mozilla/firefox/abc.default/cookies.sqlite", NoMatch: "~/.mozilla/firefox/abc.default/formhistory.sqlite.bak"},
	{Pattern: "~/Library/Application Support/Firefox/Profiles/*/logins.json", Class: Credential, OS: MacOS, What: "Firefox's saved passwords", Match: "~/Library/Application Support/Firefox/Profiles/abc.default/logins.json", NoMatch: "~/Library/Application Support/Firefox/Profiles/abc.default/prefs.js"},
	{Pattern: "~/Library/Application Support/Firefox/Profiles/*/key*.db", Class: Credential, OS: MacOS, What: "Firefox's password key", Match: "~/Library/Application Support/Firefox/Profiles/abc.default/key4.db", NoMatch: "~/Library/Application Support/Firefox/Profiles/abc.default/times.json"},
	{Pattern: "~/Library/Application Support/Firefox/Profiles/*/cookies.sqlite", Class: Credential, OS: MacOS, What: "Firefox's cookies", Match: "~/Library/Application Support/Firefox/Profiles/abc.default/cookies.sqlite", NoMatch: "~/Library/Application Support/Firefox/Profiles/abc.default/places.sqlite"},
	{Pattern: "%USER%/AppData/Roaming/Mozilla/Firefox/Profiles/*/logins.json", Class: Credential, OS: Windows, What: "Firefox's saved passwords", Match: "/mnt/c/Users/ann/AppData/Roaming/Mozilla/Firefox/Profiles/abc.default/logins.json", NoMatch: "/mnt/c/Users/ann/AppData/Roaming/Mozilla/Firefox/Profiles/abc.default/prefs.js"},
	{Pattern: "%USER%/AppData/Roaming/Mozilla/Firefox/Profiles/*/key*.db", Class: Credential, OS: Windows, What: "Firefox's password key", Match: "/mnt/c/Users/ann/AppData/Roaming/Mozilla/Firefox/Profiles/abc.default/key4.db", NoMatch: "/mnt/c/Users/ann/AppData/Roaming/Mozilla/Firefox/Profiles/abc.default/times.json"},
	{Pattern: "~/.authinfo*", Class: Credential, OS: Unix, What: "Emacs' saved passwords (authinfo)", Match: "~/.authinfo.gpg", NoMatch: "~/.authorized"},
	{Pattern: "/proc/*/mem", Class: Credential, OS: Linux, What: "a process's memory", Match: "/proc/4242/mem", NoMatch: "/proc/4242/status"},
	{Pattern: "/dev/mem", Class: Credential, OS: Linux | BSD, What: "the machine's physical memory", Match: "/dev/mem", NoMatch: "/dev/null"},
	{Pattern: "/dev/kmem", Class: Credential, OS: Linux | BSD, What: "the kernel's memory", Match: "/dev/kmem", NoMatch: "/dev/kmsg"},
	{Pattern: "~/Library/Safari/History.db", Class: Credential, OS: MacOS, What: "Safari's browsing history", Match: "~/Library/Safari/History.db", NoMatch: "~/Library/Safari/Extensions/x"},
	{Pattern: "~/Library/Group Containers/group.com.apple.notes/**", Class: Credential, OS: MacOS, What: "the Notes database", Match: "~/Library/Group Containers/group.com.apple.notes/NoteStore.sqlite", NoMatch: "~/Library/Group Containers/group.com.apple.calendar/x"},
	// Credential stores: mail and messages.
	{Pattern: "~/Library/Mail/**", Class: Credential, OS: MacOS, What: "Apple Mail's mailboxes", Match: "~/Library/Mail/V10/MailData/Envelope Index", NoMatch: "~/Library/Mail Downloads.txt"},
	{Pattern: "~/Library/Messages/**", Class: Credential, OS: MacOS, What: "the Messages history", Match: "~/Library/Messages/chat.db", NoMatch: "~/Library/Messaging/x"},
	{Pattern: "~/.thunderbird/*/logins.json", Class: Credential, OS: Linux | BSD, What: "Thunderbird's saved passwords", Match: "~/.thunderbird/abc.default/logins.json", NoMatch: "~/.thunderbird/abc.default/prefs.js"},
	{Pattern: "~/.thunderbird/*/key*.db", Class: Credential, OS: Linux | BSD, What: "Thunderbird's password key", Match: "~/.thunderbird/abc.default/key4.db", NoMatch: "~/.thunderbird/abc.default/session.json"},
	{Pattern: "~/Maildir/**", Class: Credential, OS: Unix, What: "the mailbox", Match: "~/Maildir/cur/1.eml", NoMatch: "~/Mailbox.md"},
	{Pattern: "/var/mail/*", Class: Credential, OS: Unix, What: "a user's mailbox", Match: "/var/mail/ann", NoMatch: "/var/mailman"},
	{Pattern: "/var/spool/mail/*", Class: Credential, OS: Linux, What: "a user's mailbox", Match: "/var/spool/mail/ann", NoMatch: "/var/spool/cups/x"},
	{Pattern: "~/.config/Signal/**", Class: Credential, OS: Linux, What: "Signal's messages and key", Match: "~/.config/Signal/config.json", NoMatch: "~/.config/Signalr/x"},
	{Pattern: "~/Library/Accounts/**", Class: Credential, OS: MacOS, What: "the Internet Accounts store (account tokens)", Match: "~/Library/Accounts/Accounts4.sqlite", NoMatch: "~/Library/Accessibility/x"},
	{Pattern: "~/Library/Application Support/discord/Local Storage/**", Class: Credential, OS: MacOS, What: "Discord's session token", Match: "~/Library/Application Support/discord/Local Storage/leveldb/000005.ldb", NoMatch: "~/Library/Application Support/discord/logs/x"},
	{Pattern: "~/.config/discord/Local Storage/**", Class: Credential, OS: Linux, What: "Discord's session token", Match: "~/.config/discord/Local Storage/leveldb/000005.ldb", NoMatch: "~/.config/discord/settings.json"},
	{Pattern: "~/Library/Application Support/Telegram Desktop/tdata/**", Class: Credential, OS: MacOS, What: "Telegram's session", Match: "~/Library/Application Support/Telegram Desktop/tdata/key_datas", NoMatch: "~/Library/Application Support/Telegram Desktop/log.txt"},
	{Pattern: "~/Library/Application Support/Signal/**", Class: Credential, OS: MacOS, What: "Signal's messages and key", Match: "~/Library/Application Support/Signal/config.json", NoMatch: "~/Library/Application Support/Slack/x.txt"},
	{Pattern: "~/.local/share/TelegramDesktop/tdata/**", Class: Credential, OS: Linux, What: "Telegram's session", Match: "~/.local/share/TelegramDesktop/tdata/key_datas", NoMatch: "~/.local/share/TelegramDesktop/log.txt"},
	{Pattern: "~/.purple/accounts.xml", Class: Credential, OS: Linux | BSD, What: "Pidgin's saved passwords", Match: "~/.purple/accounts.xml", NoMatch: "~/.purple/prefs.xml"},
	{Pattern: "~/.config/filezilla/*.xml", Class: Credential, OS: Linux, What: "FileZilla's saved server passwords", Match: "~/.config/filezilla/sitemanager.xml", NoMatch: "~/.config/filezilla/layout.txt"},
	{Pattern: "~/.config/remmina/*.remmina", Class: Credential, OS: Linux, What: "Remmina's saved connection passwords", Match: "~/.config/remmina/work.remmina", NoMatch: "~/.config/remmina/remmina.pref"},
	// Persistence: shell start-up files.
	{Pattern: "~/.bashrc", Class: Persistence, OS: Unix, What: "bash's start-up file", Match: "~/.bashrc", NoMatch: "~/.bashrc.d.txt/x"},
	{Pattern: "~/.bash_profile", Class: Persistence, OS: Unix, What: "bash's login file", Match: "~/.bash_profile", NoMatch: "~/bash_profile"},
	{Pattern: "~/.bash_login", Class: Persistence, OS: Unix, What: "bash's login file", Match: "~/.bash_login", NoMatch: "~/.bash_login_old/x"},
	{Pattern: "~/.bash_logout", Class: Persistence, OS: Unix, What: "bash's logout file", Match: "~/.bash_logout", NoMatch: "~/.bash_sessions/x"},
	{Pattern: "~/.bashrc.d/*", Class: Persistence, OS: Unix, What: "a bash start-up snippet", Match: "~/.bashrc.d/50-path.sh", NoMatch: "~/.bash.d.md"},
	{Pattern: "~/.profile", Class: Persistence, OS: Unix, What: "the login shell's profile", Match: "~/.profile", NoMatch: "~/.profiles/x"},
	{Pattern: "~/.zshrc", Class: Persistence, OS: Unix, What: "zsh's start-up file", Match: "~/.zshrc", NoMatch: "~/.zsh_history"},
	{Pattern: "~/.zshenv", Class: Persistence, OS: Unix, What: "zsh's environment file (runs for every zsh)", Match: "~/.zshenv", NoMatch: "~/.zsh_sessions/x"},
	{Pattern: "~/.zprofile", Class: Persistence, OS: Unix, What: "zsh's login file", Match: "~/.zprofile", NoMatch: "~/.zcompdump"},
	{Pattern: "~/.zlogin", Class: Persistence, OS: Unix, What: "zsh's login file", Match: "~/.zlogin", NoMatch: "~/.zlogin.md/x"},
	{Pattern: "~/.zlogout", Class: Persistence, OS: Unix, What: "zsh's logout file", Match: "~/.zlogout", NoMatch: "~/.zlogout.md/x"},
	{Pattern: "~/.oh-my-zsh/custom/**", Class: Persistence, OS: Unix, What: "an oh-my-zsh custom script", Match: "~/.oh-my-zsh/custom/aliases.zsh", NoMatch: "~/.oh-my-zsh/cache/x"},
	{Pattern: "~/.config/fish/config.fish", Class: Persistence, OS: Unix, What: "fish's start-up file", Match: "~/.config/fish/config.fish", NoMatch: "~/.config/fish/fish_variables"},
	{Pattern: "~/.config/fish/conf.d/*", Class: Persistence, OS: Unix, What: "a fish start-up snippet", Match: "~/.config/fish/conf.d/path.fish", NoMatch: "~/.config/fish/completions/x.fish"},
	{Pattern: "~/.config/fish/functions/*", Class: Persistence, OS: Unix, What: "a fish function (runs in place of a command)", Match: "~/.config/fish/functions/ls.fish", NoMatch: "~/.config/fish/themes/x.theme"},
	{Pattern: "~/.kshrc", Class: Persistence, OS: Unix, What: "ksh's start-up file", Match: "~/.kshrc", NoMatch: "~/.ksh_history"},
	{Pattern: "~/.mkshrc", Class: Persistence, OS: Unix, What: "mksh's start-up file", Match: "~/.mkshrc", NoMatch: "~/.mksh_history"},
	{Pattern: "~/.tcshrc", Class: Persistence, OS: Unix, What: "tcsh's start-up file", Match: "~/.tcshrc", NoMatch: "~/.tcsh_history"},
	{Pattern: "~/.cshrc", Class: Persistence, OS: Unix, What: "csh's start-up file", Match: "~/.cshrc", NoMatch: "~/.cshdirs"},
	{Pattern: "~/.login", Class: Persistence, OS: Unix, What: "csh's login file", Match: "~/.login", NoMatch: "~/.logins/x"},
	{Pattern: "~/.logout", Class: Persistence, OS: Unix, What: "csh's logout file", Match: "~/.logout", NoMatch: "~/.logouts/x"},
	{Pattern: "~/.xinitrc", Class: Persistence, OS: Unix, What: "the X session start-up script", Match: "~/.xinitrc", NoMatch: "~/.xinitrc.d.md/x"},
	{Pattern: "~/.xprofile", Class: Persistence, OS: Unix, What: "the X session profile", Match: "~/.xprofile", NoMatch: "~/.xprofile.md/x"},
	{Pattern: "~/.xsession*", Class: Persistence, OS: Unix, What: "the X session script", Match: "~/.xsessionrc", NoMatch: "~/.xsession-errors/x/y"},
	{Pattern: "~/.pam_environment", Class: Persistence, OS: Linux, What: "the login environment (PAM)", Match: "~/.pam_environment", NoMatch: "~/.pam_env.md/x"},
	{Pattern: "~/.config/environment.d/*", Class: Persistence, OS: Linux, What: "the systemd user environment", Match: "~/.config/environment.d/10-path.conf", NoMatch: "~/.config/environment.md"},
	{Pattern: "~/.config/plasma-workspace/env/*", Class: Persistence, OS: Linux | BSD, What: "a KDE session start-up script", Match: "~/.config/plasma-workspace/env/x.sh", NoMatch: "~/.config/plasma-workspace/x.txt"},
	{Pattern: "~/.ssh/rc", Class: Persistence, OS: Unix, What: "the script sshd runs at every login", Match: "~/.ssh/rc", NoMatch: "~/.ssh/rc.example/x"},
	{Pattern: "/etc/ssh/sshrc", Class: Persistence, OS: Unix, What: "the script sshd runs at every login", Match: "/etc/ssh/sshrc", NoMatch: "/etc/ssh/sshd_config.d/x/y"},
	{Pattern: "/etc/profile", Class: Persistence, OS: Unix, What: "the system login profile", Match: "/etc/profile", NoMatch: "/etc/profiles/x"},
	{Pattern: "/etc/profile.d/*", Class: Persistence, OS: Unix, What: "a system login snippet", Match: "/etc/profile.d/z.sh", NoMatch: "/etc/profile.dx"},
	{Pattern: "/etc/bash.bashrc", Class: Persistence, OS: Linux, What: "the system bashrc", Match: "/etc/bash.bashrc", NoMatch: "/etc/bash_completion.d/x"},
	{Pattern: "/etc/bashrc", Class: Persistence, OS: Unix, What: "the system bashrc", Match: "/etc/bashrc", NoMatch: "/etc/bashrc.d.md/x"},
	{Pattern: "/etc/zshrc", Class: Persistence, OS: Unix, What: "the system zshrc", Match: "/etc/zshrc", NoMatch: "/etc/zshrc_Apple_Terminal.md/x"},
	{Pattern: "/etc/zsh/*", Class: Persistence, OS: Linux, What: "a system zsh start-up file", Match: "/etc/zsh/zshenv", NoMatch: "/etc/zsh.md"},
	{Pattern: "/etc/zshenv", Class: Persistence, OS: Unix, What: "the system zshenv", Match: "/etc/zshenv", NoMatch: "/etc/zshenv.d.md/x"},
	{Pattern: "/etc/zprofile", Class: Persistence, OS: Unix, What: "the system zprofile", Match: "/etc/zprofile", NoMatch: "/etc/zprofile.md/x"},
	{Pattern: "/etc/fish/**", Class: Persistence, OS: Unix, What: "a system fish start-up file", Match: "/etc/fish/config.fish", NoMatch: "/etc/fishy"},
	{Pattern: "/etc/csh.*", Class: Persistence, OS: Unix, What: "a system csh start-up file", Match: "/etc/csh.cshrc", NoMatch: "/etc/cshx"},
	{Pattern: "/etc/environment", Class: Persistence, OS: Linux, What: "the system environment (every login)", Match: "/etc/environment", NoMatch: "/etc/environments/x"},
	{Pattern: "/etc/shells", Class: Persistence, OS: Unix, What: "the list of login shells", Match: "/etc/shells", NoMatch: "/etc/shellsx"},
	{Pattern: "/etc/ld.so.preload", Class: Persistence, OS: Linux, What: "the library preloaded into every program", Match: "/etc/ld.so.preload", NoMatch: "/etc/ld.so.conf"},
	{Pattern: "/etc/ld.so.conf.d/*", Class: Persistence, OS: Linux, What: "a library search path of every program", Match: "/etc/ld.so.conf.d/x.conf", NoMatch: "/etc/ld.so.cache.md"},
	// Persistence: schedulers.
	{Pattern: "/etc/crontab", Class: Persistence, OS: Unix, What: "the system crontab", Match: "/etc/crontab", NoMatch: "/etc/crontab.md/x"},
	{Pattern: "/etc/cron.*/**", Class: Persistence, OS: Unix, What: "a system cron job", Match: "/etc/cron.d/backup", NoMatch: "/etc/cronx/y"},
	{Pattern: "/var/spool/cron/**", Class: Persistence, OS: Linux | BSD, What: "a user's crontab", Match: "/var/spool/cron/crontabs/root", NoMatch: "/var/spool/cups/x"},
	{Pattern: "/var/cron/tabs/*", Class: Persistence, OS: BSD, What: "a user's crontab", Match: "/var/cron/tabs/root", NoMatch: "/var/cron/log"},
	{Pattern: "/var/at/tabs/*", Class: Persistence, OS: MacOS | BSD, What: "a user's crontab", Match: "/var/at/tabs/ann", NoMatch: "/var/at/tabsx"},
	{Pattern: "/usr/lib/cron/tabs/*", Class: Persistence, OS: MacOS, What: "a user's crontab", Match: "/usr/lib/cron/tabs/ann", NoMatch: "/usr/lib/cron/log"},
	{Pattern: "/var/at/jobs/*", Class: Persistence, OS: MacOS | BSD, What: "an at job", Match: "/var/at/jobs/a0001", NoMatch: "/var/at/spool.md"},
	{Pattern: "/var/spool/at/**", Class: Persistence, OS: Linux, What: "an at job", Match: "/var/spool/at/a0001", NoMatch: "/var/spool/atx/y"},
	{Pattern: "/var/spool/cron/atjobs/*", Class: Persistence, OS: Linux, What: "an at job", Match: "/var/spool/cron/atjobs/a0001", NoMatch: "/var/spool/cronx"},
	{Pattern: "/etc/anacrontab", Class: Persistence, OS: Linux, What: "the anacron table", Match: "/etc/anacrontab", NoMatch: "/etc/anacrontab.md/x"},
	{Pattern: "/etc/periodic/**", Class: Persistence, OS: MacOS | BSD, What: "a periodic job", Match: "/etc/periodic/daily/999.local", NoMatch: "/etc/periodicx"},
	{Pattern: "/usr/local/etc/periodic/**", Class: Persistence, OS: BSD, What: "a periodic job", Match: "/usr/local/etc/periodic/daily/x", NoMatch: "/usr/local/etc/pkg.conf"},
	{Pattern: "/etc/periodic.conf*", Class: Persistence, OS: MacOS | BSD, What: "the periodic configuration", Match: "/etc/periodic.conf.local", NoMatch: "/etc/periodic-old/x"},
	{Pattern: "/etc/daily.local", Class: Persistence, OS: MacOS | BSD, What: "the daily periodic script", Match: "/etc/daily.local", NoMatch: "/etc/daily.md/x"},
	{Pattern: "/etc/weekly.local", Class: Persistence, OS: MacOS | BSD, What: "the weekly periodic script", Match: "/etc/weekly.local", NoMatch: "/etc/weekly.md/x"},
	{Pattern: "/etc/monthly.local", Class: Persistence, OS: MacOS | BSD, What: "the monthly periodic script", Match: "/etc/monthly.local", NoMatch: "/etc/monthly.md/x"},
	// Persistence: service managers and boot scripts.
	{Pattern: "/etc/systemd/**", Class: Persistence, OS: Linux, What: "a systemd unit or configuration", Match: "/etc/systemd/system/backdoor.service", NoMatch: "/etc/systemdx/y"},
	{Pattern: "/lib/systemd/**", Class: Persistence, OS: Linux, What: "a systemd unit", Match: "/lib/systemd/system/x.service", NoMatch: "/lib/systemdx"},
	{Pattern: "/usr/lib/systemd/**", Class: Persistence, OS: Linux, What: "a systemd unit", Match: "/usr/lib/systemd/user/x.service", NoMatch: "/usr/lib/systemdx"},
	{Pattern: "/run/systemd/system/**", Class: Persistence, OS: Linux, What: "a runtime systemd unit", Match: "/run/systemd/system/x.service", NoMatch: "/run/systemd/journal/x"},
	{Pattern: "~/.config/systemd/**", Class: Persistence, OS: Linux, What: "a systemd user unit", Match: "~/.config/systemd/user/x.service", NoMatch: "~/.config/systemdx/y"},
	{Pattern: "~/.local/share/systemd/**", Class: Persistence, OS: Linux, What: "a systemd user unit", Match: "~/.local/share/systemd/user/x.timer", NoMatch: "~/.local/share/applications/x.desktop"},
	{Pattern: "/etc/rc.local", Class: Persistence, OS: Unix, What: "the boot script rc.local", Match: "/etc/rc.local", NoMatch: "/etc/rc.localx/y"},
	{Pattern: "/etc/rc.common", Class: Persistence, OS: MacOS, What: "the boot script rc.common", Match: "/etc/rc.common", NoMatch: "/etc/rc.commonx/y"},
	{Pattern: "/etc/rc.conf", Class: Persistence, OS: BSD, What: "the BSD boot configuration", Match: "/etc/rc.conf", NoMatch: "/etc/rc.confx/y"},
	{Pattern: "/etc/rc.conf.local", Class: Persistence, OS: BSD, What: "the BSD boot configuration", Match: "/etc/rc.conf.local", NoMatch: "/etc/rc.conf.d.md"},
	{Pattern: "/etc/rc.conf.d/*", Class: Persistence, OS: BSD, What: "a BSD boot configuration snippet", Match: "/etc/rc.conf.d/sshd", NoMatch: "/etc/rc.conf.dx"},
	{Pattern: "/etc/rc.d/**", Class: Persistence, OS: Linux | BSD, What: "a boot script", Match: "/etc/rc.d/rc.local", NoMatch: "/etc/rc.dx/y"},
	{Pattern: "/etc/rc[0-6S].d/*", Class: Persistence, OS: Linux, What: "a runlevel link", Match: "/etc/rc3.d/S99x", NoMatch: "/etc/rc9.d/x"},
	{Pattern: "/usr/local/etc/rc.d/*", Class: Persistence, OS: BSD, What: "a BSD service script", Match: "/usr/local/etc/rc.d/x", NoMatch: "/usr/local/etc/rc.conf.md"},
	{Pattern: "/etc/init.d/*", Class: Persistence, OS: Linux, What: "an init script", Match: "/etc/init.d/x", NoMatch: "/etc/init/x/y/z"},
	{Pattern: "/etc/init/*.conf", Class: Persistence, OS: Linux, What: "an upstart job", Match: "/etc/init/x.conf", NoMatch: "/etc/init/x.md"},
	{Pattern: "/etc/local.d/*", Class: Persistence, OS: Linux, What: "an OpenRC local start script", Match: "/etc/local.d/x.start", NoMatch: "/etc/locale.gen"},
	{Pattern: "/etc/runlevels/**", Class: Persistence, OS: Linux, What: "an OpenRC runlevel", Match: "/etc/runlevels/default/x", NoMatch: "/etc/runlevelsx"},
	{Pattern: "/etc/sv/**", Class: Persistence, OS: Linux, What: "a runit service", Match: "/etc/sv/x/run", NoMatch: "/etc/svx/y"},
	{Pattern: "/etc/service/**", Class: Persistence, OS: Linux, What: "a runit or daemontools service", Match: "/etc/service/x/run", NoMatch: "/etc/services"},
	{Pattern: "/var/service/**", Class: Persistence, OS: Linux, What: "a runit service", Match: "/var/service/x", NoMatch: "/var/services.md"},
	{Pattern: "/etc/runit/**", Class: Persistence, OS: Linux, What: "runit's boot stages", Match: "/etc/runit/1", NoMatch: "/etc/runitx"},
	{Pattern: "/etc/s6/**", Class: Persistence, OS: Linux, What: "an s6 service", Match: "/etc/s6/sv/x/run", NoMatch: "/etc/s6x"},
	{Pattern: "/etc/inittab", Class: Persistence, OS: Linux | BSD, What: "init's table", Match: "/etc/inittab", NoMatch: "/etc/inittabx/y"},
	{Pattern: "/etc/update-motd.d/*", Class: Persistence, OS: Linux, What: "a login message script (runs as root at every login)", Match: "/etc/update-motd.d/99-x", NoMatch: "/etc/motd"},
	{Pattern: "/etc/udev/rules.d/*", Class: Persistence, OS: Linux, What: "a udev rule (runs programs on device events)", Match: "/etc/udev/rules.d/99-x.rules", NoMatch: "/etc/udev/udev.conf"},
	{Pattern: "/lib/udev/rules.d/*", Class: Persistence, OS: Linux, What: "a udev rule", Match: "/lib/udev/rules.d/99-x.rules", NoMatch: "/lib/udev/hwdb.d/x"},
	{Pattern: "/etc/modules", Class: Persistence, OS: Linux, What: "the kernel modules loaded at boot", Match: "/etc/modules", NoMatch: "/etc/modules.md/x"},
	{Pattern: "/etc/modules-load.d/*", Class: Persistence, OS: Linux, What: "a kernel module loaded at boot", Match: "/etc/modules-load.d/x.conf", NoMatch: "/etc/modprobe.md"},
	{Pattern: "/etc/modprobe.d/*", Class: Persistence, OS: Linux, What: "a kernel module option (install commands run programs)", Match: "/etc/modprobe.d/x.conf", NoMatch: "/etc/modprobe.md"},
	{Pattern: "/etc/NetworkManager/dispatcher.d/**", Class: Persistence, OS: Linux, What: "a NetworkManager dispatcher script (runs as root)", Match: "/etc/NetworkManager/dispatcher.d/99-x", NoMatch: "/etc/NetworkManager/conf.d/x.conf"},
	{Pattern: "/etc/apt/apt.conf.d/*", Class: Persistence, OS: Linux, What: "an APT hook configuration", Match: "/etc/apt/apt.conf.d/99x", NoMatch: "/etc/apt/sources.list.d/x.list"},
	{Pattern: "/etc/X11/Xsession.d/*", Class: Persistence, OS: Linux, What: "an X session script", Match: "/etc/X11/Xsession.d/99x", NoMatch: "/etc/X11/xorg.conf"},
	{Pattern: "/etc/pam.d/*", Class: Persistence, OS: Unix, What: "a PAM configuration (authentication)", Match: "/etc/pam.d/sshd", NoMatch: "/etc/pam.conf.md/x"},
	{Pattern: "/etc/pam.conf", Class: Persistence, OS: Unix, What: "the PAM configuration", Match: "/etc/pam.conf", NoMatch: "/etc/pam.confx/y"},
	{Pattern: "/etc/ssh/sshd_config", Class: Persistence, OS: Unix, What: "the SSH server's configuration", Match: "/etc/ssh/sshd_config", NoMatch: "/etc/ssh/ssh_config"},
	{Pattern: "/etc/ssh/sshd_config.d/*", Class: Persistence, OS: Unix, What: "an SSH server configuration snippet", Match: "/etc/ssh/sshd_config.d/x.conf", NoMatch: "/etc/ssh/ssh_config.d/x.conf"},
	{Pattern: "/etc/emond.d/**", Class: Persistence, OS: MacOS, What: "an emond rule", Match: "/etc/emond.d/rules/x.plist", NoMatch: "/etc/emondx"},
	{Pattern: "~/Library/LaunchAgents/*", Class: Persistence, OS: MacOS, What: "a launch agent", Match: "~/Library/LaunchAgents/com.example.x.plist", NoMatch: "~/Library/Logs/x.plist"},
	{Pattern: "/Library/LaunchAgents/*", Class: Persistence, OS: MacOS, What: "a launch agent for every user", Match: "/Library/LaunchAgents/com.example.x.plist", NoMatch: "/Library/Logs/x.plist"},
	{Pattern: "/Library/LaunchDaemons/*", Class: Persistence, OS: MacOS, What: "a launch daemon (runs as root)", Match: "/Library/LaunchDaemons/com.example.x.plist", NoMatch: "/Library/Frameworks/x"},
	{Pattern: "/System/Library/Launch*/*", Class: Persistence, OS: MacOS, What: "a system launch job", Match: "/System/Library/LaunchDaemons/com.apple.x.plist", NoMatch: "/System/Library/Fonts/x"},
	{Pattern: "/Library/StartupItems/**", Class: Persistence, OS: MacOS, What: "a startup item", Match: "/Library/StartupItems/x/x", NoMatch: "/Library/StartupItemsx"},
	{Pattern: "/var/db/launchd.db/**", Class: Persistence, OS: MacOS, What: "launchd's enable/disable overrides (which jobs start)", Match: "/var/db/launchd.db/com.apple.launchd/overrides.plist", NoMatch: "/var/db/launchd.dbx"},
	{Pattern: "/private/var/db/launchd.db/**", Class: Persistence, OS: MacOS, What: "launchd's enable/disable overrides (which jobs start)", Match: "/private/var/db/launchd.db/com.apple.launchd/overrides.plist", NoMatch: "/private/var/db/locationd/x"},
	// An installed application's executable runs whenever the user opens
	// the app: a load command or a wrapper put there is a backdoor.
	{Pattern: "/Applications/*.app/Contents/MacOS/*", Class: Persistence, OS: MacOS, What: "an installed application's executable (runs when the user opens it)", Match: "/Applications/Slack.app/Contents/MacOS/Slack", NoMatch: "/Applications/Slack.app/Contents/Resources/x.png"},
	{Pattern: "/Applications/*.app/Contents/Frameworks/**", Class: Persistence, OS: MacOS, What: "an installed application's libraries (loaded when the user opens it)", Match: "/Applications/Zoom.app/Contents/Frameworks/x.dylib", NoMatch: "/Applications/Zoom.app/Contents/Info.plist"},
	{Pattern: "/etc/launchd.conf", Class: Persistence, OS: MacOS, What: "launchd's configuration", Match: "/etc/launchd.conf", NoMatch: "/etc/launchd.confx/y"},
	{Pattern: "~/Library/Preferences/com.apple.loginwindow.plist", Class: Persistence, OS: MacOS, What: "the login window's hooks", Match: "~/Library/Preferences/com.apple.loginwindow.plist", NoMatch: "~/Library/Preferences/com.apple.finder.plist"},
	{Pattern: "/Library/Preferences/com.apple.loginwindow.plist", Class: Persistence, OS: MacOS, What: "the login window's hooks", Match: "/Library/Preferences/com.apple.loginwindow.plist", NoMatch: "/Library/Preferences/com.apple.alf.plist.md"},
	{Pattern: "~/Library/Preferences/ByHost/com.apple.loginwindow.*", Class: Persistence, OS: MacOS, What: "the applications re-opened at login", Match: "~/Library/Preferences/ByHost/com.apple.loginwindow.ABC.plist", NoMatch: "~/Library/Preferences/ByHost/com.apple.screensaver.ABC.plist"},
	{Pattern: "~/Library/Application Support/com.apple.backgroundtaskmanagementagent/**", Class: Persistence, OS: MacOS, What: "the login items", Match: "~/Library/Application Support/com.apple.backgroundtaskmanagementagent/backgrounditems.btm", NoMatch: "~/Library/Application Support/com.apple.sharedfilelist/x"},
	{Pattern: "~/.config/autostart/*", Class: Persistence, OS: Linux | BSD, What: "a desktop autostart entry", Match: "~/.config/autostart/x.desktop", NoMatch: "~/.config/autostartx/y"},
	{Pattern: "/etc/xdg/autostart/*", Class: Persistence, OS: Linux | BSD, What: "a desktop autostart entry for every user", Match: "/etc/xdg/autostart/x.desktop", NoMatch: "/etc/xdg/menus/x.menu"},
	{Pattern: "%USER%/AppData/Roaming/Microsoft/Windows/Start Menu/Programs/Startup/*", Class: Persistence, OS: Windows, What: "the Windows user's Startup folder", Match: "/mnt/c/Users/ann/AppData/Roaming/Microsoft/Windows/Start Menu/Programs/Startup/x.bat", NoMatch: "/mnt/c/Users/ann/AppData/Roaming/Microsoft/Windows/Start Menu/Programs/x.lnk"},
	{Pattern: "/*/ProgramData/Microsoft/Windows/Start Menu/Programs/StartUp/*", Class: Persistence, OS: Windows, What: "the Windows Startup folder of every user", Match: "/c/ProgramData/Microsoft/Windows/Start Menu/Programs/StartUp/x.bat", NoMatch: "/c/ProgramData/Microsoft/Windows/Start Menu/Programs/x.lnk"},
	{Pattern: "/mnt/*/ProgramData/Microsoft/Windows/Start Menu/Programs/StartUp/*", Class: Persistence, OS: Windows, What: "the Windows Startup folder of every user", Match: "/mnt/c/ProgramData/Microsoft/Windows/Start Menu/Programs/StartUp/x.bat", NoMatch: "/mnt/c/ProgramData/Microsoft/Windows/Start Menu/x.lnk"},
	// Persistence: language start-up hooks and tools that run code on start.
	{Pattern: "**/site-packages/*.pth", Class: Persistence, OS: Any, What: "a Python .pth file (its import lines run at every start)", Match: "/usr/lib/python3/site-packages/x.pth", NoMatch: "/usr/lib/python3/site-packages/x.py"},
	{Pattern: "**/dist-packages/*.pth", Class: Persistence, OS: Linux, What: "a Python .pth file (its import lines run at every start)", Match: "/usr/lib/python3/dist-packages/x.pth", NoMatch: "/usr/lib/python3/dist-packages/x.txt"},
	{Pattern: "**/sitecustomize.py", Class: Persistence, OS: Any, What: "Python's sitecustomize (runs at every start)", Match: "/usr/lib/python3.12/sitecustomize.py", NoMatch: "/usr/lib/python3.12/site.py"},
	{Pattern: "**/usercustomize.py", Class: Persistence, OS: Any, What: "Python's usercustomize (runs at every start)", Match: "~/.local/lib/python3.12/site-packages/usercustomize.py", NoMatch: "~/.local/lib/python3.12/site-packages/user.py"},
	{Pattern: "~/.pythonrc*", Class: Persistence, OS: Any, What: "Python's interactive start-up file", Match: "~/.pythonrc.py", NoMatch: "~/.python_history.md/x"},
	{Pattern: "~/.irbrc", Class: Persistence, OS: Any, What: "irb's start-up file", Match: "~/.irbrc", NoMatch: "~/.irb_history"},
	{Pattern: "~/.pryrc", Class: Persistence, OS: Any, What: "pry's start-up file", Match: "~/.pryrc", NoMatch: "~/.pry_history"},
	{Pattern: "~/.node_modules/**", Class: Persistence, OS: Any, What: "a module every node program may load", Match: "~/.node_modules/x/index.js", NoMatch: "~/.node_repl_history"},
	{Pattern: "~/.vimrc", Class: Persistence, OS: Unix, What: "vim's start-up file", Match: "~/.vimrc", NoMatch: "~/.viminfo"},
	{Pattern: "~/.vim/plugin/**", Class: Persistence, OS: Unix, What: "a vim plugin (runs at every start)", Match: "~/.vim/plugin/x.vim", NoMatch: "~/.vim/undo/x"},
	{Pattern: "~/.config/nvim/init.*", Class: Persistence, OS: Unix, What: "neovim's start-up file", Match: "~/.config/nvim/init.lua", NoMatch: "~/.config/nvim/lazy-lock.json"},
	{Pattern: "~/.exrc", Class: Persistence, OS: Unix, What: "ex/vi's start-up file", Match: "~/.exrc", NoMatch: "~/.exrc.md/x"},
	{Pattern: "~/.emacs", Class: Persistence, OS: Unix, What: "Emacs' start-up file", Match: "~/.emacs", NoMatch: "~/.emacs.d/auto-save-list/x"},
	{Pattern: "~/.emacs.d/init.el", Class: Persistence, OS: Unix, What: "Emacs' start-up file", Match: "~/.emacs.d/init.el", NoMatch: "~/.emacs.d/elpa/x.el"},
	{Pattern: "~/.tmux.conf", Class: Persistence, OS: Unix, What: "tmux's start-up file (run-shell)", Match: "~/.tmux.conf", NoMatch: "~/.tmux/resurrect/x"},
	{Pattern: "~/.gitconfig", Class: Persistence, OS: Any, What: "git's global configuration (aliases, hooks path, ssh command)", Match: "~/.gitconfig", NoMatch: "~/.gitignore_global"},
	{Pattern: "~/.config/git/config", Class: Persistence, OS: Any, What: "git's global configuration", Match: "~/.config/git/config", NoMatch: "~/.config/git/ignore"},
	{Pattern: "/etc/gitconfig", Class: Persistence, OS: Unix, What: "git's system configuration", Match: "/etc/gitconfig", NoMatch: "/etc/gitconfig.md/x"},
	{Pattern: "~/.git-templates/**", Class: Persistence, OS: Any, What: "git's template directory (copied into every new repository)", Match: "~/.git-templates/hooks/post-checkout", NoMatch: "~/.git-templatesx"},
	{Pattern: "~/.config/git/hooks/**", Class: Persistence, OS: Any, What: "a global git hook", Match: "~/.config/git/hooks/pre-commit", NoMatch: "~/.config/git/attributes"},
	{Pattern: "/usr/share/git-core/templates/**", Class: Persistence, OS: Unix, What: "git's system template directory", Match: "/usr/share/git-core/templates/hooks/x", NoMatch: "/usr/share/git-core/contrib/x"},
	{Pattern: "/usr/local/share/git-core/templates/**", Class: Persistence, OS: MacOS | BSD, What: "git's template directory", Match: "/usr/local/share/git-core/templates/hooks/x", NoMatch: "/usr/local/share/git-core/contrib/x"},
	{Pattern: "~/.ssh/config", Class: Persistence, OS: Any, What: "the SSH client configuration (ProxyCommand, LocalCommand run programs)", Match: "~/.ssh/config", NoMatch: "~/.ssh/config.d.md/x"},
	{Pattern: "~/.ssh/authorized_keys*", Class: Persistence, OS: Any, What: "the SSH authorized keys (who may log in)", Match: "~/.ssh/authorized_keys2", NoMatch: "~/.ssh/known_hosts"},
	{Pattern: "~/.gdbinit", Class: Persistence, OS: Unix, What: "gdb's start-up file (runs shell commands)", Match: "~/.gdbinit", NoMatch: "~/.gdb_history"},
	{Pattern: "~/.local/share/dbus-1/services/*", Class: Persistence, OS: Linux | BSD, What: "a D-Bus activation file (starts its program on demand)", Match: "~/.local/share/dbus-1/services/org.x.service", NoMatch: "~/.local/share/dbus-1.md"},
	{Pattern: "/usr/share/dbus-1/*services/*", Class: Persistence, OS: Linux | BSD, What: "a D-Bus activation file", Match: "/usr/share/dbus-1/system-services/org.x.service", NoMatch: "/usr/share/dbus-1/interfaces/x.xml"},
	{Pattern: "/etc/incron.d/*", Class: Persistence, OS: Linux, What: "an incron job", Match: "/etc/incron.d/x", NoMatch: "/etc/incron.conf"},
	{Pattern: "/var/spool/incron/*", Class: Persistence, OS: Linux, What: "a user's incron table", Match: "/var/spool/incron/ann", NoMatch: "/var/spool/incronx/y"},
	{Pattern: "~/.curlrc", Class: Persistence, OS: Any, What: "curl's configuration (proxy, headers and uploads for every call)", Match: "~/.curlrc", NoMatch: "~/.curl_history"},
	{Pattern: "~/.wgetrc", Class: Persistence, OS: Any, What: "wget's configuration", Match: "~/.wgetrc", NoMatch: "~/.wget-hsts"},
	{Pattern: "~/.npmrc", Class: Persistence, OS: Any, What: "npm's configuration (script-shell runs every script)", Match: "~/.npmrc", NoMatch: "~/.npm/_cacache"},
	{Pattern: "~/.yarnrc*", Class: Persistence, OS: Any, What: "yarn's configuration", Match: "~/.yarnrc.yml", NoMatch: "~/.yarn/cache/x"},
	{Pattern: "~/.config/pip/pip.conf", Class: Persistence, OS: Any, What: "pip's configuration (index URL for every install)", Match: "~/.config/pip/pip.conf", NoMatch: "~/.config/pip/x/y"},
	{Pattern: "~/.pip/pip.conf", Class: Persistence, OS: Any, What: "pip's configuration (index URL for every install)", Match: "~/.pip/pip.conf", NoMatch: "~/.pip/cache"},
	{Pattern: "~/**/.git/hooks/*", Class: Persistence, OS: Any, What: "a git hook of another repository", Match: "~/dotfiles/.git/hooks/post-merge", NoMatch: "~/dotfiles/.git/config"},
	// Protection: what configures a defence.
	{Pattern: "~/Library/Application Support/com.apple.TCC/TCC.db", Class: Protection, OS: MacOS, What: "the privacy (TCC) database", Match: "~/Library/Application Support/com.apple.TCC/TCC.db", NoMatch: "~/Library/Application Support/com.apple.TCC.md"},
	{Pattern: "/Library/Application Support/com.apple.TCC/TCC.db", Class: Protection, OS: MacOS, What: "the system privacy (TCC) database", Match: "/Library/Application Support/com.apple.TCC/TCC.db", NoMatch: "/Library/Application Support/com.apple.TCC.md"},
	{Pattern: "/etc/audit/**", Class: Protection, OS: Linux, What: "the audit rules", Match: "/etc/audit/rules.d/audit.rules", NoMatch: "/etc/auditx"},
	{Pattern: "/etc/apparmor.d/**", Class: Protection, OS: Linux, What: "an AppArmor profile", Match: "/etc/apparmor.d/usr.sbin.nginx", NoMatch: "/etc/apparmor/parser.conf.md/x"},
	{Pattern: "/etc/selinux/config", Class: Protection, OS: Linux, What: "the SELinux mode", Match: "/etc/selinux/config", NoMatch: "/etc/selinux/semanage.conf"},
	{Pattern: "/etc/pf.conf", Class: Protection, OS: MacOS | BSD, What: "the pf firewall rules", Match: "/etc/pf.conf", NoMatch: "/etc/pf.os"},
	{Pattern: "/etc/ufw/**", Class: Protection, OS: Linux, What: "the ufw firewall rules", Match: "/etc/ufw/user.rules", NoMatch: "/etc/ufwx"},
	{Pattern: "/etc/iptables/*", Class: Protection, OS: Linux, What: "the saved firewall rules", Match: "/etc/iptables/rules.v4", NoMatch: "/etc/iptablesx"},
	{Pattern: "/etc/rsyslog.conf", Class: Protection, OS: Linux, What: "the system logger's configuration", Match: "/etc/rsyslog.conf", NoMatch: "/etc/rsyslog.confx/y"},
	{Pattern: "/etc/rsyslog.d/*", Class: Protection, OS: Linux, What: "the system logger's configuration", Match: "/etc/rsyslog.d/50-default.conf", NoMatch: "/etc/rsyslog.dx"},
	{Pattern: "/etc/syslog.conf", Class: Protection, OS: Unix, What: "the system logger's configuration", Match: "/etc/syslog.conf", NoMatch: "/etc/syslog-ng/x"},
	{Pattern: "/etc/syslog-ng/**", Class: Protection, OS: Linux, What: "syslog-ng's configuration", Match: "/etc/syslog-ng/syslog-ng.conf", NoMatch: "/etc/syslog.d.md"},
	{Pattern: "/etc/asl.conf", Class: Protection, OS: MacOS, What: "the macOS logger's configuration", Match: "/etc/asl.conf", NoMatch: "/etc/asl/x/y"},
	{Pattern: "/etc/security/audit_control", Class: Protection, OS: MacOS | BSD, What: "the BSM audit configuration", Match: "/etc/security/audit_control", NoMatch: "/etc/security/limits.conf"},
	{Pattern: "/Library/Preferences/com.apple.alf.plist", Class: Protection, OS: MacOS, What: "the application firewall's settings", Match: "/Library/Preferences/com.apple.alf.plist", NoMatch: "/Library/Preferences/com.apple.dock.plist"},
	// Devices: disks and partitions, as Linux, macOS and the BSDs name them.
	{Pattern: "/dev/sd[a-z]*", Class: Device, OS: Linux | BSD, What: "a disk", Match: "/dev/sdb1", NoMatch: "/dev/snd"},
	{Pattern: "/dev/sd[0-9]*", Class: Device, OS: BSD, What: "a disk", Match: "/dev/sd1c", NoMatch: "/dev/sdx"},
	{Pattern: "/dev/nvme[0-9]*", Class: Device, OS: Linux | BSD, What: "an NVMe disk", Match: "/dev/nvme0n1p2", NoMatch: "/dev/nvram"},
	{Pattern: "/dev/[vhw]d[a-z0-9]*", Class: Device, OS: Linux | BSD, What: "a disk", Match: "/dev/vda", NoMatch: "/dev/vhost-net"},
	{Pattern: "/dev/xvd[a-z]*", Class: Device, OS: Linux, What: "a Xen disk", Match: "/dev/xvda1", NoMatch: "/dev/xen"},
	{Pattern: "/dev/mmcblk[0-9]*", Class: Device, OS: Linux, What: "an SD card", Match: "/dev/mmcblk0p1", NoMatch: "/dev/mmc"},
	{Pattern: "/dev/r[d]isk[0-9]*", Class: Device, OS: MacOS, What: "a disk", Match: "/dev/rdisk2", NoMatch: "/dev/rtc"},
	{Pattern: "/dev/disk[0-9]*", Class: Device, OS: MacOS, What: "a disk", Match: "/dev/disk2s1", NoMatch: "/dev/disk/by-id"},
	{Pattern: "/dev/[an]da[0-9]*", Class: Device, OS: BSD, What: "a disk", Match: "/dev/ada1p1", NoMatch: "/dev/audit"},
	{Pattern: "/dev/da[0-9]*", Class: Device, OS: BSD, What: "a USB or SCSI disk", Match: "/dev/da0", NoMatch: "/dev/dsp"},
	{Pattern: "/dev/r[sw]d[0-9]*", Class: Device, OS: BSD, What: "a raw disk", Match: "/dev/rsd1c", NoMatch: "/dev/random"},
	{Pattern: "/dev/mapper/*", Class: Device, OS: Linux, What: "a mapped volume", Match: "/dev/mapper/vg-root", NoMatch: "/dev/mappers"},
	{Pattern: "/dev/zvol/**", Class: Device, OS: Linux | BSD, What: "a ZFS volume", Match: "/dev/zvol/tank/vm", NoMatch: "/dev/zfs"},
	{Pattern: "/dev/gpt/*", Class: Device, OS: BSD, What: "a labelled partition", Match: "/dev/gpt/data", NoMatch: "/dev/gptx"},
	// Accounts: users, groups and who may become root.
	{Pattern: "/etc/passwd", Class: Account, OS: Unix, What: "the user database", Match: "/etc/passwd", NoMatch: "/etc/passwd-/x"},
	{Pattern: "/etc/shadow", Class: Account, OS: Linux, What: "the password database", Match: "/etc/shadow", NoMatch: "/etc/shadow-/x"},
	{Pattern: "/etc/group", Class: Account, OS: Unix, What: "the group database", Match: "/etc/group", NoMatch: "/etc/groups/x"},
	{Pattern: "/etc/gshadow", Class: Account, OS: Linux, What: "the group password database", Match: "/etc/gshadow", NoMatch: "/etc/gshadowx/y"},
	{Pattern: "/etc/master.passwd", Class: Account, OS: BSD, What: "the BSD user database", Match: "/etc/master.passwd", NoMatch: "/etc/master.passwdx/y"},
	{Pattern: "/etc/sudoers", Class: Account, OS: Unix, What: "who may become root (sudoers)", Match: "/etc/sudoers", NoMatch: "/etc/sudo.conf"},
	{Pattern: "/etc/sudoers.d/*", Class: Account, OS: Unix, What: "who may become root (a sudoers snippet)", Match: "/etc/sudoers.d/90-x", NoMatch: "/etc/sudo_logsrvd.conf"},
	{Pattern: "/usr/local/etc/sudoers*", Class: Account, OS: BSD, What: "who may become root (sudoers)", Match: "/usr/local/etc/sudoers", NoMatch: "/usr/local/etc/sudo.conf"},
	{Pattern: "/usr/local/etc/sudoers.d/*", Class: Account, OS: BSD, What: "who may become root (a sudoers snippet)", Match: "/usr/local/etc/sudoers.d/x", NoMatch: "/usr/local/etc/sudo_logsrvd.conf"},
	{Pattern: "/private/etc/sudoers*", Class: Account, OS: MacOS, What: "who may become root (sudoers)", Match: "/private/etc/sudoers", NoMatch: "/private/etc/sudo_lecture"},
	{Pattern: "/etc/doas.conf", Class: Account, OS: BSD | Linux, What: "who may become root (doas)", Match: "/etc/doas.conf", NoMatch: "/etc/doas.confx/y"},
	{Pattern: "/usr/local/etc/doas.conf", Class: Account, OS: BSD, What: "who may become root (doas)", Match: "/usr/local/etc/doas.conf", NoMatch: "/usr/local/etc/doas.conf.sample"},
	{Pattern: "/etc/subuid", Class: Account, OS: Linux, What: "the subordinate user ids", Match: "/etc/subuid", NoMatch: "/etc/subuidx/y"},
	{Pattern: "/etc/security/access.conf", Class: Account, OS: Linux, What: "who may log in", Match: "/etc/security/access.conf", NoMatch: "/etc/security/limits.conf"},
	{Pattern: "/var/db/dslocal/nodes/Default/**", Class: Account, OS: MacOS, What: "the macOS local directory (users and groups)", Match: "/var/db/dslocal/nodes/Default/groups/admin.plist", NoMatch: "/var/db/dslocalx"},
	{Pattern: "/private/var/db/dslocal/nodes/Default/**", Class: Account, OS: MacOS, What: "the macOS local directory (users and groups)", Match: "/private/var/db/dslocal/nodes/Default/groups/admin.plist", NoMatch: "/private/var/db/dslocalx"},
	{Pattern: "/etc/polkit-1/rules.d/*", Class: Account, OS: Linux, What: "a polkit rule (who may do what as root)", Match: "/etc/polkit-1/rules.d/49-x.rules", NoMatch: "/etc/polkit-1/localauthority.md"},
	// Found by the session-9 corpus (more-*.jsonl): the credential files
	// of the long tail of mail, chat, database and network tools.
	{Pattern: "~/.config/himalaya/*.toml", Class: Credential, OS: Any, What: "himalaya's mail accounts (passwords or password commands)", Match: "~/.config/himalaya/config.toml", NoMatch: "~/.config/himalaya/README"},
	{Pattern: "~/.config/aerc/accounts.conf", Class: Credential, OS: Any, What: "aerc's mail accounts (URLs with passwords)", Match: "~/.config/aerc/accounts.conf", NoMatch: "~/.config/aerc/aerc.conf"},
	{Pattern: "~/.config/neomutt/*rc", Class: Credential, OS: Any, What: "neomutt's configuration (imap_pass, smtp_pass)", Match: "~/.config/neomutt/neomuttrc", NoMatch: "~/.config/neomutt/colors"},
	{Pattern: "~/.config/neomutt/accounts/*", Class: Credential, OS: Any, What: "neomutt's account files", Match: "~/.config/neomutt/accounts/work", NoMatch: "~/.config/neomutt/themes/x"},
	{Pattern: "~/.offlineimaprc", Class: Credential, OS: Any, What: "offlineimap's configuration (remotepass)", Match: "~/.offlineimaprc", NoMatch: "~/.offlineimap/x"},
	{Pattern: "~/.getmail/getmailrc*", Class: Credential, OS: Any, What: "getmail's configuration (password)", Match: "~/.getmail/getmailrc", NoMatch: "~/.getmail/oldmail-x"},
	{Pattern: "~/.config/getmail/getmailrc*", Class: Credential, OS: Any, What: "getmail's configuration (password)", Match: "~/.config/getmail/getmailrc", NoMatch: "~/.config/getmail/oldmail-x"},
	{Pattern: "~/.config/weechat/sec.conf", Class: Credential, OS: Any, What: "weechat's secured data", Match: "~/.config/weechat/sec.conf", NoMatch: "~/.config/weechat/weechat.conf"},
	{Pattern: "~/.config/weechat/irc.conf", Class: Credential, OS: Any, What: "weechat's IRC servers (passwords)", Match: "~/.config/weechat/irc.conf", NoMatch: "~/.config/weechat/buflist.conf"},
	{Pattern: "~/.weechat/sec.conf", Class: Credential, OS: Any, What: "weechat's secured data", Match: "~/.weechat/sec.conf", NoMatch: "~/.weechat/weechat.conf"},
	{Pattern: "~/.weechat/irc.conf", Class: Credential, OS: Any, What: "weechat's IRC servers (passwords)", Match: "~/.weechat/irc.conf", NoMatch: "~/.weechat/logs/x"},
	{Pattern: "~/.irssi/config", Class: Credential, OS: Any, What: "irssi's configuration (server and NickServ passwords)", Match: "~/.irssi/config", NoMatch: "~/.irssi/default.theme"},
	{Pattern: "~/.config/hexchat/servlist.conf", Class: Credential, OS: Any, What: "hexchat's servers (passwords)", Match: "~/.config/hexchat/servlist.conf", NoMatch: "~/.config/hexchat/hexchat.conf"},
	{Pattern: "~/.local/share/profanity/accounts", Class: Credential, OS: Any, What: "profanity's XMPP accounts (passwords)", Match: "~/.local/share/profanity/accounts", NoMatch: "~/.local/share/profanity/logs/x"},
	{Pattern: "~/.local/share/signal-cli/**", Class: Credential, OS: Any, What: "signal-cli's account keys", Match: "~/.local/share/signal-cli/data/+15551234567", NoMatch: "~/.local/share/signal-client/x"},
	{Pattern: "~/.config/matrix-commander/credentials.json", Class: Credential, OS: Any, What: "matrix-commander's access token", Match: "~/.config/matrix-commander/credentials.json", NoMatch: "~/.config/matrix-commander/store/x"},
	// The default project's .dbeaver directory holds it (named without a
	// wildcard, so that the directory copied or archived whole counts).
	{Pattern: "~/.local/share/DBeaverData/workspace6/General/.dbeaver/credentials-config.json", Class: Credential, OS: Any, What: "DBeaver's saved database passwords", Match: "~/.local/share/DBeaverData/workspace6/General/.dbeaver/credentials-config.json", NoMatch: "~/.local/share/DBeaverData/workspace6/General/.dbeaver/data-sources.json"},
	{Pattern: "~/Library/DBeaverData/workspace6/General/.dbeaver/credentials-config.json", Class: Credential, OS: MacOS, What: "DBeaver's saved database passwords", Match: "~/Library/DBeaverData/workspace6/General/.dbeaver/credentials-config.json", NoMatch: "~/Library/DBeaverData/workspace6/General/.dbeaver/data-sources.json"},
	{Pattern: "~/Library/Application Support/Code/User/globalStorage/*/token", Class: Credential, OS: MacOS, What: "a VS Code extension's stored token", Match: "~/Library/Application Support/Code/User/globalStorage/github.vscode-pull-request-github/token", NoMatch: "~/Library/Application Support/Code/User/globalStorage/storage.json"},
	{Pattern: "~/.config/Code/User/globalStorage/*/token", Class: Credential, OS: Linux, What: "a VS Code extension's stored token", Match: "~/.config/Code/User/globalStorage/github.vscode-pull-request-github/token", NoMatch: "~/.config/Code/User/globalStorage/storage.json"},
	{Pattern: "~/.local/share/DBeaverData/**/credentials-config.json", Class: Credential, OS: Any, What: "DBeaver's saved database passwords", Match: "~/.local/share/DBeaverData/workspace6/General/.dbeaver/credentials-config.json", NoMatch: "~/.local/share/DBeaverData/workspace6/General/.dbeaver/data-sources.json"},
	{Pattern: "~/.acme.sh/account.conf", Class: Credential, OS: Unix, What: "acme.sh's DNS API keys", Match: "~/.acme.sh/account.conf", NoMatch: "~/.acme.sh/acme.sh.env"},
	{Pattern: "~/.acme.sh/*/*.key", Class: Credential, OS: Unix, What: "a certificate private key issued by acme.sh", Match: "~/.acme.sh/example.com_ecc/example.com.key", NoMatch: "~/.acme.sh/example.com_ecc/fullchain.cer"},
	{Pattern: "~/.step/secrets/**", Class: Credential, OS: Any, What: "the private CA's keys (step)", Match: "~/.step/secrets/root_ca_key", NoMatch: "~/.step/certs/root_ca.crt"},
	{Pattern: "~/.minisign/*.key", Class: Credential, OS: Any, What: "a minisign secret key", Match: "~/.minisign/minisign.key", NoMatch: "~/.minisign/minisign.pub"},
	{Pattern: "~/.kube/cache/oidc-login/**", Class: Credential, OS: Any, What: "cached OIDC tokens of kubelogin", Match: "~/.kube/cache/oidc-login/abc123", NoMatch: "~/.kube/cache/discovery/x"},
	{Pattern: "/var/lib/zerotier-one/identity.secret", Class: Credential, OS: Linux | BSD, What: "the ZeroTier node's private identity", Match: "/var/lib/zerotier-one/identity.secret", NoMatch: "/var/lib/zerotier-one/identity.public"},
	{Pattern: "/etc/nebula/*.key", Class: Credential, OS: Linux | BSD, What: "a Nebula private key", Match: "/etc/nebula/host.key", NoMatch: "/etc/nebula/host.crt"},
	{Pattern: "/var/lib/samba/private/**", Class: Credential, OS: Linux | BSD, What: "Samba's password and machine secrets", Match: "/var/lib/samba/private/secrets.tdb", NoMatch: "/var/lib/samba/printers/x"},
	{Pattern: "/etc/sssd/sssd.conf", Class: Credential, OS: Linux, What: "SSSD's configuration (the directory bind password)", Match: "/etc/sssd/sssd.conf", NoMatch: "/etc/sssd/conf.d/README"},
	{Pattern: "/etc/*ldap*.secret", Class: Credential, OS: Linux | BSD, What: "the LDAP admin password file", Match: "/etc/ldap.secret", NoMatch: "/etc/ldap.conf"},
	{Pattern: "/etc/ppp/*-secrets", Class: Credential, OS: Unix, What: "PPP passwords", Match: "/etc/ppp/chap-secrets", NoMatch: "/etc/ppp/options"},
	{Pattern: "/etc/ipsec.secrets", Class: Credential, OS: Unix, What: "IPsec pre-shared keys", Match: "/etc/ipsec.secrets", NoMatch: "/etc/ipsec.conf"},
	{Pattern: "/etc/ipsec.d/private/**", Class: Credential, OS: Unix, What: "IPsec private keys", Match: "/etc/ipsec.d/private/host.pem", NoMatch: "/etc/ipsec.d/certs/host.pem"},
	{Pattern: "/etc/swanctl/private/**", Class: Credential, OS: Linux, What: "strongSwan private keys", Match: "/etc/swanctl/private/host.pem", NoMatch: "/etc/swanctl/x509/host.pem"},
	{Pattern: "/etc/transmission-daemon/settings.json", Class: Credential, OS: Linux, What: "the torrent daemon's RPC password", Match: "/etc/transmission-daemon/settings.json", NoMatch: "/etc/transmission-daemon/README"},
	// The Windows user's credential files of the same tools, seen from WSL
	// or Git Bash.
	{Pattern: "%USER%/.kube/config", Class: Credential, OS: Windows, What: "the Windows kubeconfig", Match: "/mnt/c/Users/ann/.kube/config", NoMatch: "/mnt/c/Users/ann/.kube/cache"},
	{Pattern: "%USER%/.docker/config.json", Class: Credential, OS: Windows, What: "Docker Desktop's registry logins", Match: "/mnt/c/Users/ann/.docker/config.json", NoMatch: "/mnt/c/Users/ann/.docker/daemon.json"},
	{Pattern: "%USER%/.git-credentials", Class: Credential, OS: Windows, What: "git's stored credentials of the Windows user", Match: "/c/Users/ann/.git-credentials", NoMatch: "/c/Users/ann/.gitconfig"},
	{Pattern: "%USER%/.npmrc", Class: Credential, OS: Windows, What: "npm's registry tokens of the Windows user", Match: "/mnt/c/Users/ann/.npmrc", NoMatch: "/mnt/c/Users/ann/.npm/_logs"},
	{Pattern: "%USER%/.azure/msal_token_cache.*", Class: Credential, OS: Windows, What: "the Azure CLI's tokens of the Windows user", Match: "/mnt/c/Users/ann/.azure/msal_token_cache.json", NoMatch: "/mnt/c/Users/ann/.azure/azureProfile.json"},
	{Pattern: "%USER%/AppData/Roaming/gcloud/*.db", Class: Credential, OS: Windows, What: "gcloud's credential database of the Windows user", Match: "/mnt/c/Users/ann/AppData/Roaming/gcloud/credentials.db", NoMatch: "/mnt/c/Users/ann/AppData/Roaming/gcloud/active_config"},
	{Pattern: "%USER%/AppData/Roaming/gcloud/application_default_credentials.json", Class: Credential, OS: Windows, What: "gcloud's application default credentials of the Windows user", Match: "/c/Users/ann/AppData/Roaming/gcloud/application_default_credentials.json", NoMatch: "/c/Users/ann/AppData/Roaming/gcloud/configurations/config_default"},
	{Pattern: "%USER%/AppData/Roaming/GitHub CLI/hosts.yml", Class: Credential, OS: Windows, What: "the GitHub CLI's token of the Windows user", Match: "/mnt/c/Users/ann/AppData/Roaming/GitHub CLI/hosts.yml", NoMatch: "/mnt/c/Users/ann/AppData/Roaming/GitHub CLI/config.yml"},
	{Pattern: "%USER%/AppData/Roaming/FileZilla/*servers.xml", Class: Credential, OS: Windows, What: "FileZilla's saved server passwords", Match: "/mnt/c/Users/ann/AppData/Roaming/FileZilla/recentservers.xml", NoMatch: "/mnt/c/Users/ann/AppData/Roaming/FileZilla/filezilla.xml"},
	{Pattern: "%USER%/AppData/Roaming/FileZilla/sitemanager.xml", Class: Credential, OS: Windows, What: "FileZilla's saved site passwords", Match: "/mnt/c/Users/ann/AppData/Roaming/FileZilla/sitemanager.xml", NoMatch: "/mnt/c/Users/ann/AppData/Roaming/FileZilla/layout.xml"},
	{Pattern: "%USER%/AppData/Roaming/rclone/rclone.conf", Class: Credential, OS: Windows, What: "rclone's remotes and tokens of the Windows user", Match: "/mnt/c/Users/ann/AppData/Roaming/rclone/rclone.conf", NoMatch: "/mnt/c/Users/ann/AppData/Roaming/rclone/x.log"},
	{Pattern: "%USER%/AppData/Roaming/terraform.d/credentials.tfrc.json", Class: Credential, OS: Windows, What: "Terraform Cloud's token of the Windows user", Match: "/mnt/c/Users/ann/AppData/Roaming/terraform.d/credentials.tfrc.json", NoMatch: "/mnt/c/Users/ann/AppData/Roaming/terraform.d/plugins"},
	{Pattern: "%USER%/AppData/Roaming/*/Local Storage/leveldb/**", Class: Credential, OS: Windows, What: "an Electron app's session store (Discord, Slack, Teams tokens)", Match: "/mnt/c/Users/ann/AppData/Roaming/discord/Local Storage/leveldb/000005.ldb", NoMatch: "/mnt/c/Users/ann/AppData/Roaming/discord/Cache/x"},
	{Pattern: "%USER%/AppData/Roaming/*/Local Storage/leveldb", Class: Credential, OS: Windows, What: "an Electron app's session store (Discord, Slack, Teams tokens)", Match: "/mnt/c/Users/ann/AppData/Roaming/discord/Local Storage/leveldb", NoMatch: "/mnt/c/Users/ann/AppData/Roaming/discord/Local Storage"},
	{Pattern: "%USER%/AppData/Roaming/Thunderbird/Profiles/*/logins.json", Class: Credential, OS: Windows, What: "Thunderbird's saved passwords of the Windows user", Match: "/mnt/c/Users/ann/AppData/Roaming/Thunderbird/Profiles/abc.default/logins.json", NoMatch: "/mnt/c/Users/ann/AppData/Roaming/Thunderbird/Profiles/abc.default/prefs.js"},
	{Pattern: "%USER%/AppData/Roaming/Thunderbird/Profiles/*/key*.db", Class: Credential, OS: Windows, What: "Thunderbird's password key of the Windows user", Match: "/mnt/c/Users/ann/AppData/Roaming/Thunderbird/Profiles/abc.default/key4.db", NoMatch: "/mnt/c/Users/ann/AppData/Roaming/Thunderbird/Profiles/abc.default/session.json"},
	{Pattern: "%USER%/AppData/Roaming/Microsoft/Windows/PowerShell/PSReadLine/*history.txt", Class: Credential, OS: Windows, What: "the PowerShell history (secrets typed in it)", Match: "/mnt/c/Users/ann/AppData/Roaming/Microsoft/Windows/PowerShell/PSReadLine/ConsoleHost_history.txt", NoMatch: "/mnt/c/Users/ann/AppData/Roaming/Microsoft/Windows/PowerShell/PSReadLine/x.ps1"},
	{Pattern: "%WIN%/Panther/**/[Uu]nattend*.xml", Class: Credential, OS: Windows, What: "Windows setup's answer file (the administrator's password)", Match: "/mnt/c/Windows/Panther/Unattend.xml", NoMatch: "/mnt/c/Windows/Panther/setupact.log"},
	{Pattern: "%WIN%/System32/Sysprep/**/[Uu]nattend*.xml", Class: Credential, OS: Windows, What: "Windows setup's answer file (the administrator's password)", Match: "/mnt/c/Windows/System32/Sysprep/unattend.xml", NoMatch: "/mnt/c/Windows/System32/Sysprep/sysprep.exe"},
	{Pattern: "/mnt/*/ProgramData/Microsoft/Wlansvc/Profiles/**", Class: Credential, OS: Windows, What: "the Windows Wi-Fi profiles (their keys)", Match: "/mnt/c/ProgramData/Microsoft/Wlansvc/Profiles/Interfaces/x/y.xml", NoMatch: "/mnt/c/ProgramData/Microsoft/Wlansvc/x.log"},
	{Pattern: "/mnt/*/Windows/NTDS/**", Class: Credential, OS: Windows, What: "the domain controller's account database", Match: "/mnt/c/Windows/NTDS/ntds.dit", NoMatch: "/mnt/c/Windows/NTDSx"},
	// Start-up files of the long tail: window managers, terminals,
	// debuggers, prompts and mail clients that run commands on start.
	{Pattern: "~/.config/i3/config", Class: Persistence, OS: Linux | BSD, What: "i3's configuration (exec lines run at login)", Match: "~/.config/i3/config", NoMatch: "~/.config/i3status/x"},
	{Pattern: "~/.i3/config", Class: Persistence, OS: Linux | BSD, What: "i3's configuration (exec lines run at login)", Match: "~/.i3/config", NoMatch: "~/.i3/layout.json"},
	{Pattern: "~/.config/sway/config*", Class: Persistence, OS: Linux | BSD, What: "sway's configuration (exec lines run at login)", Match: "~/.config/sway/config", NoMatch: "~/.config/swaylock/config"},
	{Pattern: "~/.config/hypr/*.conf", Class: Persistence, OS: Linux | BSD, What: "Hyprland's configuration (exec-once runs at login)", Match: "~/.config/hypr/hyprland.conf", NoMatch: "~/.config/hypr/wallpapers/x"},
	{Pattern: "~/.config/openbox/autostart*", Class: Persistence, OS: Linux | BSD, What: "Openbox's autostart", Match: "~/.config/openbox/autostart", NoMatch: "~/.config/openbox/rc.xml"},
	{Pattern: "~/.config/lxsession/*/autostart", Class: Persistence, OS: Linux, What: "LXDE's session autostart", Match: "~/.config/lxsession/LXDE/autostart", NoMatch: "~/.config/lxsession/LXDE/desktop.conf"},
	{Pattern: "~/.config/*/autostart.sh", Class: Persistence, OS: Linux | BSD, What: "a window manager's autostart script", Match: "~/.config/qtile/autostart.sh", NoMatch: "~/.config/qtile/config.json"},
	{Pattern: "~/.config/river/init", Class: Persistence, OS: Linux, What: "river's init script", Match: "~/.config/river/init", NoMatch: "~/.config/river/x"},
	{Pattern: "~/.config/bspwm/bspwmrc", Class: Persistence, OS: Linux | BSD, What: "bspwm's start-up script", Match: "~/.config/bspwm/bspwmrc", NoMatch: "~/.config/bspwm/x"},
	{Pattern: "~/.config/awesome/rc.lua", Class: Persistence, OS: Linux | BSD, What: "awesome's configuration", Match: "~/.config/awesome/rc.lua", NoMatch: "~/.config/awesome/theme.lua"},
	{Pattern: "~/.screenrc", Class: Persistence, OS: Unix, What: "GNU screen's start-up file (exec, screen run programs)", Match: "~/.screenrc", NoMatch: "~/.screen/x"},
	{Pattern: "~/.lldbinit*", Class: Persistence, OS: Unix, What: "lldb's start-up file (imports scripts)", Match: "~/.lldbinit", NoMatch: "~/.lldb/x"},
	{Pattern: "~/.config/starship.toml", Class: Persistence, OS: Any, What: "the starship prompt (custom modules run commands at every prompt)", Match: "~/.config/starship.toml", NoMatch: "~/.config/starship.md/x"},
	{Pattern: "~/.config/alacritty/alacritty.*", Class: Persistence, OS: Any, What: "alacritty's configuration (the shell it starts)", Match: "~/.config/alacritty/alacritty.toml", NoMatch: "~/.config/alacritty/themes/x.toml"},
	{Pattern: "~/.config/wezterm/*.lua", Class: Persistence, OS: Any, What: "wezterm's configuration (Lua run at start)", Match: "~/.config/wezterm/wezterm.lua", NoMatch: "~/.config/wezterm/colors/x.toml"},
	{Pattern: "~/.wezterm.lua", Class: Persistence, OS: Any, What: "wezterm's configuration (Lua run at start)", Match: "~/.wezterm.lua", NoMatch: "~/.wezterm.log"},
	{Pattern: "~/.config/kitty/kitty.conf", Class: Persistence, OS: Any, What: "kitty's configuration (startup sessions and the shell)", Match: "~/.config/kitty/kitty.conf", NoMatch: "~/.config/kitty/themes/x.conf"},
	{Pattern: "~/.config/nvim/plugin/**", Class: Persistence, OS: Unix, What: "a neovim plugin file (runs at every start)", Match: "~/.config/nvim/plugin/zz.lua", NoMatch: "~/.config/nvim/spell/en.utf-8.add"},
	{Pattern: "~/.config/emacs/*init.el", Class: Persistence, OS: Unix, What: "Emacs' start-up file", Match: "~/.config/emacs/init.el", NoMatch: "~/.config/emacs/elpa/x.el"},
	{Pattern: "~/.mailcap", Class: Persistence, OS: Unix, What: "the mailcap (programs run to open mail attachments)", Match: "~/.mailcap", NoMatch: "~/.mailrc.md/x"},
	{Pattern: "/etc/tmpfiles.d/*", Class: Persistence, OS: Linux, What: "a tmpfiles rule (creates, links or deletes files at every boot)", Match: "/etc/tmpfiles.d/zz.conf", NoMatch: "/etc/tmpfiles.md"},
	{Pattern: "/etc/alternatives/*", Class: Persistence, OS: Linux, What: "a system command's alternative (which program runs under its name)", Match: "/etc/alternatives/python3", NoMatch: "/etc/alternatives.md"},
	{Pattern: "/etc/wsl.conf", Class: Persistence, OS: Windows, What: "the WSL distribution's settings (its boot command runs as root)", Match: "/etc/wsl.conf", NoMatch: "/etc/wsl-distribution.conf.md/x"},
	{Pattern: "%USER%/.wslconfig", Class: Persistence, OS: Windows, What: "the WSL2 VM's settings (its kernel and kernel command line)", Match: "/mnt/c/Users/ann/.wslconfig", NoMatch: "/mnt/c/Users/ann/.wslgconfig"},
	{Pattern: "%USER%/Documents/*PowerShell/*profile.ps1", Class: Persistence, OS: Windows, What: "a PowerShell profile (runs at every start)", Match: "/mnt/c/Users/ann/Documents/WindowsPowerShell/Microsoft.PowerShell_profile.ps1", NoMatch: "/mnt/c/Users/ann/Documents/PowerShell/Modules/x.ps1"},
	{Pattern: "%USER%/.bash_profile", Class: Persistence, OS: Windows, What: "Git Bash's login profile in the Windows home", Match: "/c/Users/dev/.bash_profile", NoMatch: "/c/Users/dev/.bash_history"},
	{Pattern: "%USER%/.bashrc", Class: Persistence, OS: Windows, What: "Git Bash's start-up file in the Windows home", Match: "/c/Users/dev/.bashrc", NoMatch: "/c/Users/dev/.bashrc.bak/x"},
	{Pattern: "%USER%/.profile", Class: Persistence, OS: Windows, What: "Git Bash's login profile in the Windows home", Match: "/mnt/c/Users/dev/.profile", NoMatch: "/mnt/c/Users/dev/.profile.d/x"},
	{Pattern: "/*/Program Files/Git/etc/**", Class: Persistence, OS: Windows, What: "Git for Windows' system start-up files", Match: "/c/Program Files/Git/etc/profile.d/zz.sh", NoMatch: "/c/Program Files/Git/usr/bin/x"},
	{Pattern: "/mnt/*/Program Files/Git/etc/**", Class: Persistence, OS: Windows, What: "Git for Windows' system start-up files", Match: "/mnt/c/Program Files/Git/etc/bash.bashrc", NoMatch: "/mnt/c/Program Files/Git/usr/bin/x"},
	// Defence configurations of the long tail.
	{Pattern: "%WIN%/System32/drivers/etc/hosts", Class: Protection, OS: Windows, What: "the Windows hosts file (Defender's and Windows Update's hosts can be blocked there)", Match: "/mnt/c/Windows/System32/drivers/etc/hosts", NoMatch: "/mnt/c/Windows/System32/drivers/etc/services"},
	{Pattern: "/var/lib/aide/aide.db*", Class: Protection, OS: Linux, What: "the integrity checker's baseline (AIDE)", Match: "/var/lib/aide/aide.db", NoMatch: "/var/lib/aide.md"},
	{Pattern: "/var/lib/rkhunter/db/*", Class: Protection, OS: Linux, What: "rkhunter's file properties", Match: "/var/lib/rkhunter/db/rkhunter.dat", NoMatch: "/var/lib/rkhunter/tmp/x"},
	{Pattern: "/etc/fapolicyd/**", Class: Protection, OS: Linux, What: "the application allow-list (fapolicyd)", Match: "/etc/fapolicyd/rules.d/00-allow.rules", NoMatch: "/etc/fapolicydx"},
	{Pattern: "/etc/usbguard/**", Class: Protection, OS: Linux, What: "USB device control's rules (usbguard)", Match: "/etc/usbguard/rules.conf", NoMatch: "/etc/usbguardx"},
}

// broadDirs are directories that hold sensitive objects among much else:
// reading one whole (a backup of ~/Library) is not judged as reading them.
var broadDirs = []string{"~", "~/.config", "~/.local", "~/.local/share", "~/Library", "~/Library/Application Support", "~/Library/Containers",
	"~/Library/Group Containers", "~/Library/Preferences", "/", "/etc", "/var", "/var/lib", "/var/db", "/private", "/private/var", "/private/var/db",
	"/Library", "/run", "/var/run", "/tmp", "/usr", "/var/spool", "/home", "/Users"}

// Holds returns an object of class c that lies inside the directory dir
// (tar czf x.tgz ~/.mozilla holds Firefox's saved passwords), nil if none
// or if dir is one of the broad directories (home, ~/.config, /etc).
func Holds(dir, home string, c Class) *Object {
	if dir == "" || dir[0] != '/' {
		return nil
	}
	dir = path.Clean(dir)
	for _, b := range broadDirs {
		if b == dir || home != "" && strings.HasPrefix(b, "~") && home+b[1:] == dir {
			return nil
		}
	}
	probe := dir + "/"
	base := "/" + path.Base(dir) + "/"
	profile := browserProfile(probe)
	for i := range inventory {
		// The directory's own name is in the pattern (or it is a browser
		// profile a wildcard stands for): a cheap filter before matching.
		if !profile && !strings.Contains(inventory[i].Pattern+"/", base) {
			continue
		}
		o := &inventory[i]
		if o.Class != c || strings.HasPrefix(o.Pattern, "**") {
			continue
		}
		// dir holds o when o's pattern, cut to dir's depth, matches dir and
		// goes deeper.
		if prefixMatches(o.Pattern, probe, home) {
			return o
		}
	}
	return nil
}

// prefixMatches reports whether the pattern's leading segments match the
// directory probe (ending in "/") and the pattern has segments beyond it.
func prefixMatches(pattern, probe, home string) bool {
	n := strings.Count(probe, "/") - 1 // segments in probe
	// cut keeps the pattern's first n segments; those after its first
	// fixed ones (a home prefix) must be literal: ~/.config/*/*/Login Data
	// says nothing about what ~/.config/nvim holds.
	cut := func(pat string, fixed int) (string, bool) {
		segs := strings.Split(strings.TrimPrefix(pat, "/"), "/")
		if len(segs) <= n {
			return "", false
		}
		for i, s := range segs[:n] {
			// Wildcards only for a browser profile right above the
			// object: a copy of Chrome/Default holds its Login Data.
			if i >= fixed && strings.ContainsAny(s, "*?[") && !(n == len(segs)-1 && browserProfile(probe)) {
				return "", false
			}
		}
		return "/" + strings.Join(segs[:n], "/"), true
	}
	dir := strings.TrimSuffix(probe, "/")
	try := func(full string, fixed int) bool {
		p, ok := cut(full, fixed)
		return ok && globPath(p, dir)
	}
	switch {
	case strings.HasPrefix(pattern, "~/"):
		if home != "" && try(home+pattern[1:], strings.Count(home, "/")) {
			return true
		}
		for _, h := range homePrefixes {
			if try(h+pattern[1:], strings.Count(h, "/")) {
				return true
			}
		}
		return false
	case strings.HasPrefix(pattern, "%"):
		return false
	}
	return try(pattern, 0)
}

// browserProfile reports whether the directory probe ("/.../Default/") is
// a browser profile: Chromium's Default or "Profile N", Firefox's
// "xxxx.default" or "xxxx.default-release".
func browserProfile(probe string) bool {
	b := path.Base(strings.TrimSuffix(probe, "/"))
	return b == "Default" || strings.HasPrefix(b, "Profile ") || strings.HasSuffix(b, ".default") || strings.HasSuffix(b, ".default-release")
}

// publicKey reports whether p names a public key (id_ed25519.pub, and
// ID_ED25519.PUB where case does not matter): never a credential.
func publicKey(p string) bool {
	return len(p) > 4 && strings.EqualFold(p[len(p)-4:], ".pub")
}

package effects

import (
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/shell"
)

const testHome = "/home/u"

func homed(p string) string {
	if strings.HasPrefix(p, "~/") {
		return testHome + p[1:]
	}
	return p
}

// TestInventoryExamples: every object has both examples, its pattern
// matches the one and not the other, and Lookup finds it by its example.
func TestInventoryExamples(t *testing.T) {
	for _, o := range Inventory() {
		t.Run(o.Pattern, func(t *testing.T) {
			require.NotEmpty(t, o.Match, "object has no must-match example")
			require.NotEmpty(t, o.NoMatch, "object has no must-not-match example")
			require.NotZero(t, o.Class)
			require.NotZero(t, o.OS)
			require.NotEmpty(t, o.What)
			assert.True(t, matches(o.Pattern, homed(o.Match), testHome), "must match %s", o.Match)
			assert.False(t, matches(o.Pattern, homed(o.NoMatch), testHome), "must not match %s", o.NoMatch)
			assert.NotNil(t, LookupClass(homed(o.Match), testHome, o.Class), "LookupClass %s", o.Match)
		})
	}
}

// TestInventoryPerOS: the inventory covers every OS it claims to.
func TestInventoryPerOS(t *testing.T) {
	for _, os := range []OS{Linux, MacOS, BSD, Windows} {
		for _, c := range []Class{Credential, Persistence} {
			n := 0
			for _, o := range Inventory() {
				if o.OS&os != 0 && o.Class == c {
					n++
				}
			}
			assert.Positive(t, n, "no %s for OS %d", c, os)
		}
	}
}

func TestLookupOtherHomes(t *testing.T) {
	for _, p := range []string{"/Users/ann/Library/Keychains/login.keychain-db", "/root/.ssh/id_rsa", "/usr/home/bob/.ssh/id_ed25519",
		"/var/root/.aws/credentials", "/mnt/c/Users/Ann/AppData/Local/Google/Chrome/User Data/Default/Login Data", "/C/users/ann/.ssh/id_rsa"} {
		assert.NotNil(t, LookupClass(p, testHome, Credential), p)
	}
	for _, p := range []string{"/home/u/.ssh/id_rsa.pub", "/home/u/project/.ssh-notes", "/srv/Users/x", "relative/path"} {
		assert.Nil(t, LookupClass(p, testHome, Credential), p)
	}
}

func TestHolds(t *testing.T) {
	for _, d := range []string{"/home/u/.mozilla", "/home/u/.mozilla/firefox", "/Users/ann/Library/Keychains", "/etc/ssl", "/home/u/.gnupg", "/home/u/.aws",
		"/home/u/Library/Application Support/Google/Chrome/Default", "/home/u/.mozilla/firefox/ab12.default-release"} {
		assert.NotNil(t, Holds(d, testHome, Credential), d)
	}
	for _, d := range []string{"/home/u", "/home/u/.config", "/home/u/.config/nvim", "/home/u/.config/systemd/user/x.service", "/etc", "/", "/home/u/project"} {
		assert.Nil(t, Holds(d, testHome, Credential), d)
	}
}

func TestDefenceExamples(t *testing.T) {
	for _, d := range Defences() {
		t.Run(d.What, func(t *testing.T) {
			require.NotEmpty(t, d.Match)
			require.NotEmpty(t, d.NoMatch)
			got := DefenceNamed(d.Match)
			require.NotNil(t, got, "must match %s", d.Match)
			assert.Equal(t, d.What, got.What)
			assert.Nil(t, DefenceNamed(d.NoMatch), "must not match %s", d.NoMatch)
		})
	}
	for _, n := range []string{"auditd.service", "/Library/LaunchDaemons/com.crowdstrike.falcond.plist", "system/com.apple.auditd", "AUDITD"} {
		assert.NotNil(t, DefenceNamed(n), n)
	}
	for _, n := range []string{"nginx", "postgresql.service", "com.example.agent", ""} {
		assert.Nil(t, DefenceNamed(n), n)
	}
}

func TestMetadataSecret(t *testing.T) {
	for _, w := range []string{"http://169.254.169.254/latest/meta-data/iam/security-credentials/role", "169.254.169.254/latest/user-data",
		"http://metadata.google.internal/computeMetadata/v1/instance/service-accounts/default/token", "http://[fd00:ec2::254]/latest/meta-data/iam/info",
		"http://100.100.100.200/latest/meta-data/ram/security-credentials/", "http://169.254.169.254/metadata/identity/oauth2/token?api-version=2018-02-01",
		"http://169.254.170.2/v2/credentials/abc"} {
		_, ok := MetadataSecret(w)
		assert.True(t, ok, w)
	}
	for _, w := range []string{"http://169.254.169.254/latest/meta-data/instance-id", "http://notmetadata.google.internal/computeMetadata/v1/instance/service-accounts",
		"metadata.json", "https://example.com/latest/user-data"} {
		_, ok := MetadataSecret(w)
		assert.False(t, ok, w)
	}
}

// effectsOf analyses cmd and returns the effects of its first command.
func effectsOf(t *testing.T, cmd string) []Effect {
	t.Helper()
	res := shell.Analyze(cmd, shell.Options{Dir: "/work/p", Home: testHome})
	require.NotEmpty(t, res.Execs, cmd)
	return Of(res.Execs[0], testHome)
}

func has(effs []Effect, k Kind, target string) bool {
	return slices.ContainsFunc(effs, func(e Effect) bool {
		return e.Kind == k && (e.Path == target || e.Name == target)
	})
}

func TestOf(t *testing.T) {
	cases := []struct {
		cmd    string
		kind   Kind
		target string
		want   bool
	}{
		{`cat ~/.netrc`, Read, "/home/u/.netrc", true},
		{`ls -l ~/.netrc`, Stat, "/home/u/.netrc", true},
		{`ls -l ~/.netrc`, Read, "/home/u/.netrc", false},
		{`grep -e x ~/.netrc`, Read, "/home/u/.netrc", true},
		{`grep ~/.netrc notes.txt`, Read, "/home/u/.netrc", false}, // the pattern, not a file
		{`sed -i s/a/b/ ~/.zshrc`, Write, "/home/u/.zshrc", true},
		{`sed s/a/b/ ~/.zshrc`, Write, "/home/u/.zshrc", false},
		{`cp a.plist ~/Library/LaunchAgents/`, Write, "/home/u/Library/LaunchAgents", true},
		{`cp a.plist ~/Library/LaunchAgents/`, Read, "/work/p/a.plist", true},
		{`mv old new`, Delete, "/work/p/old", true},
		{`echo x >> ~/.kshrc`, Write, "/home/u/.kshrc", true},
		{`echo ~/.kshrc`, Read, "/home/u/.kshrc", false},
		{`sort -o ~/.profile list`, Write, "/home/u/.profile", true},
		{`ssh -i ~/.ssh/id_rsa host`, Use, "/home/u/.ssh/id_rsa", true},
		{`ssh -i ~/.ssh/id_rsa host`, Read, "/home/u/.ssh/id_rsa", false},
		{`vim -R ~/.bashrc`, Write, "/home/u/.bashrc", false},
		{`frobnicate ~/.config/x.conf`, Read, "/home/u/.config/x.conf", true},  // unknown program: read
		{`frobnicate ~/.config/x.conf`, Write, "/home/u/.config/x.conf", true}, // and written
		{`frobnicate plain words`, Read, "/work/p/plain", false},
		{`frobnicate --private-key ~/.ssh/id_rsa up`, Use, "/home/u/.ssh/id_rsa", true}, // a key option's value is used
		{`frobnicate --private-key ~/.ssh/id_rsa up`, Read, "/home/u/.ssh/id_rsa", false},
		{`scp -i ~/.ssh/id_rsa a.tgz host:`, Use, "/home/u/.ssh/id_rsa", true},
		{`openssl rsa -in ~/.ssh/id_rsa`, Read, "/home/u/.ssh/id_rsa", true},
		{`cp /mnt/c/Users/ann/.ssh/id_rsa ~/.ssh/id_rsa`, Read, "/mnt/c/Users/ann/.ssh/id_rsa", false}, // into the own key store
		{`cp /mnt/c/Users/ann/.ssh/id_rsa ~/.ssh/id_rsa`, Use, "/mnt/c/Users/ann/.ssh/id_rsa", true},
		{`cp ~/.ssh/id_rsa ~/Desktop/k`, Read, "/home/u/.ssh/id_rsa", true},
		{`sudo systemctl stop auditd`, Change, "auditd", true},
		{`systemctl status auditd`, Change, "auditd", false},
		{`service osqueryd stop`, Change, "osqueryd", true},
		{`launchctl bootout system/com.apple.auditd`, Change, "system/com.apple.auditd", true},
		{`sysrc auditd_enable=NO`, Change, "auditd", true},
		{`sysrc auditd_enable=YES`, Change, "auditd", false},
		{`/etc/init.d/clamav-daemon stop`, Change, "clamav-daemon", true},
		{`killall syslogd`, Change, "syslogd", true},
		{`apt-get purge -y clamav`, Change, "clamav", true},
		{`dscl . -create /Users/x`, Change, "dscl", true},
		{`dscl . -read /Users/x`, Change, "dscl", false},
		{`pw useradd x`, Change, "pw", true},
		{`pw usershow x`, Change, "pw", false},
		{`passwd -S ann`, Change, "passwd", false},
		{`nc -l 9001 -e ./x`, Expose, "./x", true},
		{`nc -zv host 443`, Expose, "", false},
		{`socat TCP-LISTEN:1,fork SYSTEM:./x`, Expose, "SYSTEM:./x", true},
		{`curl http://169.254.169.254/latest/meta-data/iam/security-credentials/r`, Fetch, "the instance metadata service", true},
	}
	for _, c := range cases {
		effs := effectsOf(t, c.cmd)
		assert.Equal(t, c.want, has(effs, c.kind, c.target), "%s: %s %s (effects %+v)", c.cmd, c.kind, c.target, effs)
	}
}

func TestRemoteDestroy(t *testing.T) {
	for _, cmd := range []string{`hcloud server delete web`, `acme apps:destroy x`, `acme s3 delete-bucket b`, `acme resource service-instance-delete db`,
		`acme destroy`, `s5cmd rm s3://b/x`, `crane delete reg.example.com/a/b:1`, `mycli --profile x terminate i-1`} {
		effs := effectsOf(t, cmd)
		assert.True(t, slices.ContainsFunc(effs, func(e Effect) bool { return e.Kind == Delete && e.Area == Remote }), cmd)
	}
	for _, cmd := range []string{`cliphist delete 42`, `acme remove plugin`, `acme rm build/x`, `acme delete --help`, `curl -X DELETE http://localhost:9200/i`,
		`npm uninstall x`, `git branch -d x`, `acme ./delete.sh`, `acme get destroy-log.txt`, `acme DELETE x`} {
		effs := effectsOf(t, cmd)
		assert.False(t, slices.ContainsFunc(effs, func(e Effect) bool { return e.Kind == Delete && e.Area == Remote }), cmd)
	}
}

// TestParse: the grammars tell option values from subcommands (issue #24's
// kubectl and terraform bugs, issue #36's global options).
func TestParse(t *testing.T) {
	cases := []struct {
		name string
		args string
		want []string
	}{
		{"kubectl", "--kubeconfig ~/.kube/prod --context prod -n payments delete pvc data", []string{"delete", "pvc", "data"}},
		{"kubectl", "--context delete get pods", []string{"get", "pods"}},
		{"kubectl", "-n=x --namespace y delete ns z", []string{"delete", "ns", "z"}},
		{"terraform", "plan -out destroy", []string{"plan"}},
		{"terraform", "-chdir infra destroy -auto-approve", []string{"destroy"}},
		{"terraform", "-chdir=infra apply -var-file destroy.tfvars", []string{"apply"}},
		{"aws", "--profile delete s3 ls", []string{"s3", "ls"}},
		{"aws", "--region x --output=json secretsmanager get-secret-value --profile p", []string{"secretsmanager", "get-secret-value"}},
		{"az", "--subscription delete group list", []string{"group", "list"}},
		{"gcloud", "--project delete sql instances list", []string{"sql", "instances", "list"}},
		{"gcloud", "--project=p --impersonate-service-account sa auth print-access-token", []string{"auth", "print-access-token"}},
		{"gsutil", "-o x -m rm -r gs://b", []string{"rm", "gs://b"}},
		{"pulumi", "--cwd destroy preview", []string{"preview"}},
		{"helm", "--namespace delete list", []string{"list"}},
		{"docker", "-H tcp://h:2375 --context c run --rm -v /a:/b -w /b img sh -c x", []string{"run", "img", "sh", "-c", "x"}},
		{"docker", "container run --mount type=bind,src=/a,dst=/b -it img ls", []string{"container", "run", "img", "ls"}},
		{"docker", "compose -f c.yml -p x down -v", []string{"compose", "down"}},
		{"podman", "--connection c run --pod p img rm -rf /x", []string{"run", "img", "rm", "-rf", "/x"}},
		{"vault", "kv get -mount=secret -field password app", []string{"kv", "get", "app"}},
	}
	for _, c := range cases {
		require.NotNil(t, GrammarOf(c.name), c.name)
		cmd := ParseCommand(c.name, strings.Fields(c.args), nil)
		assert.Equal(t, c.want, cmd.Words, "%s %s", c.name, c.args)
	}
	cmd := ParseCommand("docker", strings.Fields("run -v /a:/b --volume=/c:/d --mount type=bind,source=/e,target=/f img"), nil)
	assert.Equal(t, []string{"/a:/b", "/c:/d", "type=bind,source=/e,target=/f"}, cmd.Values("v", "volume", "mount"))
	cmd = ParseCommand("aws", []string{"s3", "ls"}, map[string]string{"AWS_PROFILE": "prod"})
	v, ok := cmd.Value("profile")
	assert.True(t, ok && v == "prod", "AWS_PROFILE stands for --profile")
	effs := Of(&shell.Exec{Name: "kubectl", Args: []string{"kubectl", "get", "pods"}, Env: map[string]string{"KUBECONFIG": "/home/u/.kube/prod"}}, testHome)
	assert.Contains(t, effs, Effect{Kind: Use, Path: "/home/u/.kube/prod"}, "KUBECONFIG stands for --kubeconfig")
	assert.Nil(t, GrammarOf("no-such-program"))
	cmd = ParseCommand("no-such-program", []string{"-x", "a", "--y=1", "b"}, nil)
	assert.Equal(t, []string{"a", "b"}, cmd.Words)
}

// TestGrammarsWellFormed: no program has two grammars, every Target option
// is one the grammar knows, every variable stands for one it knows.
func TestGrammarsWellFormed(t *testing.T) {
	seen := map[string]bool{}
	for _, g := range Grammars() {
		require.NotEmpty(t, g.Names)
		for _, n := range g.Names {
			assert.False(t, seen[n], "%s has two grammars", n)
			seen[n] = true
		}
		for _, o := range g.Target {
			assert.True(t, takesValue(&g.Opts, o), "%s: target option %s takes no value", g.Names[0], o)
		}
		for _, o := range g.Uses {
			assert.True(t, takesValue(&g.Opts, o), "%s: used file option %s takes no value", g.Names[0], o)
		}
		for _, e := range g.Env {
			assert.True(t, takesValue(&g.Opts, e.Opt), "%s: %s stands for %s, which takes no value", g.Names[0], e.Var, e.Opt)
		}
	}
}

// takesValue: the spec lists o (a letter or a long name) taking a value.
func takesValue(s *shell.OptSpec, o string) bool {
	if len(o) == 1 {
		p := shell.ParseArgs([]string{"-" + o, "v"}, s)
		return len(p.Opts) == 1 && p.Opts[0].Known && p.Opts[0].Value == "v"
	}
	p := shell.ParseArgs([]string{"--" + o, "v"}, s)
	return len(p.Opts) == 1 && p.Opts[0].Known && p.Opts[0].Value == "v"
}

// TestSpecsWellFormed: no program has two specs, and no spec'd program is
// also in the lists that switch generic effects off.
func TestSpecsWellFormed(t *testing.T) {
	seen := map[string]bool{}
	for _, s := range Specs() {
		require.NotEmpty(t, s.Names)
		for _, n := range s.Names {
			assert.False(t, seen[n], "%s has two specs", n)
			seen[n] = true
		}
	}
	for _, n := range noFiles {
		assert.False(t, seen[n] && specFor(n) != nil, "%s is both spec'd and in noFiles", n)
	}
}

// TestDeletedAndMoved: the deletes a spec names, side effects of other
// verbs included, and the moves told apart from them.
func TestDeletedAndMoved(t *testing.T) {
	for _, tc := range []struct {
		cmd  string
		want []string
		tree bool
	}{
		{"tar --remove-files -czf /tmp/b.tgz ~/Documents", []string{"~/Documents"}, true},
		{"tar -C ~ --remove-files -cf /tmp/b.tar Documents", []string{"~/Documents"}, true},
		{"tar -czf dist.tgz build", nil, false},
		{"zip -rm out.zip a b", []string{"a", "b"}, true},
		{"zip -m out.zip a", []string{"a"}, false},
		{"zip -r out.zip a", nil, false},
		{"7z a -sdel x.7z d", []string{"d"}, true},
		{"7z a x.7z d", nil, false},
		{"rar m x.rar d", []string{"d"}, true},
		{"rar a -df x.rar d", []string{"d"}, true},
		{"rar a x.rar d", nil, false},
		{"rimraf d", []string{"d"}, true},
		{"shred -u f", []string{"f"}, false},
		{"shred f", nil, false},
		{"mv a b", nil, false},
	} {
		args := strings.Fields(tc.cmd)
		got, tree := Deleted(args[0], args[1:])
		assert.Equal(t, tc.want, got, tc.cmd)
		assert.Equal(t, tc.tree, tree, tc.cmd)
	}
	for cmd, want := range map[string][2]string{
		"mv a b":                         {"a", "b"},
		"mv -t /tmp a":                   {"a", "/tmp"},
		"mv --target-directory=/tmp a":   {"a", "/tmp"},
		"mv --target-directory /tmp a b": {"a b", "/tmp"},
	} {
		args := strings.Fields(cmd)
		srcs, dst := Moves(args[0], args[1:])
		assert.Equal(t, want[0], strings.Join(srcs, " "), cmd)
		assert.Equal(t, want[1], dst, cmd)
	}
}

// TestCredentialCaseFolded: on macOS's case-insensitive file system a
// credential spelt in another case is the same file; elsewhere it is not.
func TestCredentialCaseFolded(t *testing.T) {
	for _, p := range []string{"/Users/ann/.SSH/ID_RSA", "/Users/ann/library/keychains/login.keychain-db", "/Users/bob/.Aws/Credentials"} {
		assert.NotNil(t, LookupClass(p, "/Users/ann", Credential), p)
	}
	assert.Nil(t, LookupClass("/Users/ann/.SSH/ID_RSA.pub", "/Users/ann", Credential))
	assert.Nil(t, LookupClass("/Users/ann/.ssh/known_hosts", "/Users/ann", Credential))
	if runtime.GOOS != "darwin" {
		assert.Nil(t, LookupClass("/home/ann/.SSH/ID_RSA", "/home/ann", Credential), "case matters off macOS")
	}
}

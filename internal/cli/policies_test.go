package cli

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// policyMustMatch lists, per rule id, commands the rule must deny: the
// catastrophic forms the wall exists for.
var policyMustMatch = map[string][]string{
	"policy.rm-root-or-home": {
		"rm -rf /", "rm -rf /*", "rm -fr /", "rm -Rf /", "rm -r /", "rm -r -f /", "rm -f -r /",
		"rm --recursive --force /", "rm -rf --no-preserve-root /", "rm -rf -- /", "sudo rm -rf /",
		"sudo  rm -rf /*", "  rm -rf /", "rm -rf ~", "rm -rf ~/", "rm -rf ~/*", "rm -rf $HOME",
		"rm -rf $HOME/", "rm -rf ${HOME}", "rm -rf ${HOME}/*", `rm -rf "$HOME"`, `rm -rf "${HOME}/"`,
		`rm -rf "/"`, "rm -rf '/'", "rm -rf / ", "rm -rf /; echo done", "rm -rf ~ && ls",
		"rm -rf / | tee log", "rm -rf /tmp/build /", "rm -rf ~ /tmp/x", "rm -rvf /", "rm -rf /&",
	},
	// Inside a shell's -c, for the CLIs whose policy engine does not look
	// there itself (0.32 - 0.38: read in their bundles, and 0.36.0 measured).
	"policy.rm-root-in-shell": {
		"bash -c 'rm -rf $HOME'", `bash -c "rm -rf ~"`, "sh -c 'rm -rf /'", "/bin/bash -c 'rm -rf ~/'",
		"sudo bash -c 'rm -rf /*'", "bash -lc 'rm -rf $HOME'", "zsh --norc -c 'sudo rm -rf /'",
		"bash -c 'rm -rf ~' && ls", "bash -c ' rm -r -f ${HOME}'", `sh -c "rm -rf $HOME/"`,
	},
	"policy.mkfs-disk": {
		"mkfs /dev/sda", "mkfs.ext4 /dev/sdb1", "sudo mkfs.xfs -f /dev/nvme0n1", "mkfs.vfat -F 32 /dev/mmcblk0p1",
		"mkfs -t ext4 /dev/vda", "sudo mkfs.btrfs /dev/xvdf", "mkfs.apfs /dev/disk2",
	},
	"policy.dd-to-disk": {
		"dd if=/dev/zero of=/dev/sda", "sudo dd if=image.iso of=/dev/sdb bs=4M status=progress",
		"dd of=/dev/nvme0n1 if=/dev/urandom", "dd if=x.img of=/dev/disk4 bs=1m", "dd bs=1M if=/dev/zero of=/dev/mmcblk0",
	},
	"policy.fork-bomb": {
		":(){ :|:& };:", ":(){ :|: & };:", ": () { : | : & } ; :", " :(){ :|:&};:",
	},
	"policy.env-hijack-shell": {
		"echo BASH_ENV=/tmp/x.sh >> .env", `echo "BASH_ENV=/tmp/x.sh" >> .env`, "echo 'GEMINI_CLI_HOME=/tmp/g' > .gemini/.env",
		"printf 'LD_PRELOAD=/tmp/x.so\\n' >> ~/.env", "echo LD_AUDIT=/tmp/a.so>>.env",
		"printf 'BASH_ENV=/tmp/x\\n' | tee -a .env", "echo GEMINI_CLI_SYSTEM_SETTINGS_PATH=/tmp/s.json >> /home/u/.gemini/.env",
	},
}

// policyFileMustMatch lists, per rule id, write_file and replace calls the
// rule must deny.
var policyFileMustMatch = map[string][]fileCall{
	"policy.env-hijack-write": {
		{"write_file", map[string]string{"file_path": ".env", "content": "BASH_ENV=/tmp/x.sh\n"}},
		{"write_file", map[string]string{"file_path": "/w/.env", "content": "DEBUG=1\nBASH_ENV=/tmp/x.sh\n"}},
		{"write_file", map[string]string{"file_path": ".gemini/.env", "content": "PORT=1\nexport GEMINI_CLI_HOME=/tmp/g\n"}},
		{"write_file", map[string]string{"file_path": "/home/u/.env", "content": "LD_PRELOAD: /tmp/x.so"}},
		{"write_file", map[string]string{"file_path": ".env", "content": "A=1\r\nDYLD_INSERT_LIBRARIES = /tmp/x.dylib\r\n"}},
		// Lines and blanks as the hosts' dotenv reads them (internal/dotenv).
		{"write_file", map[string]string{"file_path": ".env", "content": "PORT=3000\rBASH_ENV=./.hk.sh"}},
		{"write_file", map[string]string{"file_path": ".env", "content": "\uFEFFBASH_ENV=./.hk.sh\n"}},
		{"write_file", map[string]string{"file_path": ".env", "content": "PORT=1\n\u00A0GEMINI_CLI_HOME=/tmp/g\n"}},
		{"write_file", map[string]string{"file_path": ".env", "content": "PORT=1\n\fLD_PRELOAD=/tmp/x.so\n"}},
		{"write_file", map[string]string{"file_path": ".env", "content": "PORT=1\n\vBASH_ENV=/tmp/x\n"}},
		{"write_file", map[string]string{"file_path": ".env", "content": "# c\u2028BASH_ENV=/tmp/x\n"}},
		{"write_file", map[string]string{"file_path": ".env", "content": "export\u00A0GEMINI_CLI_HOME=/tmp/g\n"}},
		{"write_file", map[string]string{"file_path": ".env", "content": "PORT=1\n\u3000BASH_ENV\u00A0=/tmp/x\n"}},
	},
	"policy.env-hijack-edit": {
		{"replace", map[string]string{"file_path": ".env", "old_string": "DEBUG=1", "new_string": "DEBUG=1\nBASH_ENV=/tmp/x.sh", "instruction": "add"}},
		{"replace", map[string]string{"file_path": "/w/.gemini/.env", "old_string": "X=1", "new_string": "GEMINI_CLI_HOME=/tmp/g"}},
		{"replace", map[string]string{"allow_multiple": "true", "file_path": ".env", "old_string": "A", "new_string": "LD_PRELOAD=/x.so"}},
		{"replace", map[string]string{"file_path": ".env", "old_string": "PORT=1", "new_string": "PORT=1\rBASH_ENV=/tmp/x"}},
		{"replace", map[string]string{"file_path": ".env", "old_string": "PORT=1", "new_string": "PORT=1\n\u2003GEMINI_CLI_HOME=/tmp/g"}},
	},
}

// policyFileMustNotMatch are writes the hooks allow: no rule may deny them.
var policyFileMustNotMatch = []fileCall{
	{"write_file", map[string]string{"file_path": ".env", "content": "DATABASE_URL=postgres://localhost/app\nPORT=3000\nDEBUG=1\n"}},
	{"write_file", map[string]string{"file_path": ".env.example", "content": "BASH_ENV=\n"}},
	{"write_file", map[string]string{"file_path": "docs/env.md", "content": "Set BASH_ENV=/path to run a file first.\n"}},
	{"write_file", map[string]string{"file_path": ".env", "content": "# BASH_ENV is not used here\nMY_BASH_ENV=1\n"}},
	{"write_file", map[string]string{"file_path": "prod.env", "content": "PORT=1\n"}},
	{"write_file", map[string]string{"file_path": ".env", "content": "PORT=1\r\n\u00A0DEBUG=1\n\uFEFFAPP_BASH_ENV=1\n"}},
	{"replace", map[string]string{"file_path": ".env", "old_string": "PORT=1", "new_string": "PORT=2", "instruction": "BASH_ENV=x must not be added"}},
	{"replace", map[string]string{"file_path": "notes.md", "old_string": "x", "new_string": "BASH_ENV=/tmp/x"}},
}

type fileCall struct {
	tool string
	args map[string]string
}

// policyMustNotMatch is legitimate work that the hooks allow: no rule may deny
// it, as a whole or as any sub-command Gemini CLI splits it into.
var policyMustNotMatch = []string{
	"rm -rf ./build", "rm -rf build/", "rm -rf /tmp/build", "rm -rf ~/.cache/go-build", "rm -rf ~/tmp/x",
	"rm -rf $HOME/.cache/pip", "rm -rf ${HOME}/.npm/_cacache", `rm -rf "$HOME/.cache"`, "rm -rf '~'",
	"rm -rf '$HOME'", "rm /", "rm -f ~", "rm -i ~/notes.txt", "rm -rf node_modules dist",
	"rm -rf build && ls /", "rm -rf build; cd ~", "rm -rf build || echo ~", "rm -rf build\nls /",
	"rm -rf build # not /", "rm -rf build\t/", "rm -rf \"$dir\" # ~", "git rm -r --cached .",
	"git rm -rf /", "echo rm -rf /", "echo 'rm -rf /'", "grep -r 'rm -rf /' .", "find / -name '*.log'",
	"ls -la /", "du -sh ~", "cd ~ && ls", "sudo apt-get install -y ripgrep", "rmdir /tmp/empty",
	"rm -rf /home/user/project/build", "rm -rf ~user/tmp", "trm -rf /", "docker rm -f $(docker ps -aq)",
	"mkfs.ext4 disk.img", "mkfs.ext4 /tmp/disk.img", "mkfs.ext4 /dev/loop0", "echo mkfs /dev/sda",
	"ls /dev/sda*", "lsblk /dev/sda", "sudo fdisk -l /dev/sda", "dd if=/dev/sda of=backup.img",
	"dd if=/dev/zero of=/dev/null bs=1M count=100", "dd if=/dev/urandom of=random.bin count=1",
	"dd if=/dev/zero of=./disk.img bs=1M count=64", "echo dd of=/dev/sda", "cat /dev/sda | head -c 512 | xxd",
	"echo ':(){ :|:& };:'", "bash -c 'echo hello'", "go test ./...", "make build", "npm run test",
	"git push --force-with-lease origin feature", "git reset --soft HEAD~1",
	"bash -c 'rm -rf ./build'", "sh -c 'rm -rf ~/.cache/x'", "bash -c 'echo rm -rf /'", `bash -c "rm -rf \"$HOME/.cache\""`,
	"bash -c 'rm -rf build' /", "ssh -c aes128-ctr host 'ls ~'", "fish -c 'ls /'",
	"bashful -c 'rm -rf ~'",
	"echo DEBUG=1 >> .env", "echo BASH_ENV is documented >> notes.md", "grep BASH_ENV= .env", "echo BASH_ENV=x >> .env.example",
	"echo MY_BASH_ENV=1 >> .env", "echo XBASH_ENV=1 >> .env", "env BASH_ENV=/dev/null bash -c true",
}

func loadShippedPolicies(t *testing.T) []policyRule {
	t.Helper()
	rules, err := loadPolicies(filepath.Join("..", "..", "policies"))
	require.NoError(t, err)
	return rules
}

// subCommands approximates how Gemini CLI splits a command before it tests
// each part (tree-sitter in the CLI; a plain split on list operators and the
// inside of `bash -c '...'` here, which yields at least the parts it does).
func subCommands(cmd string) []string {
	parts := []string{cmd}
	for _, line := range regexp.MustCompile(`&&|\|\||[;|&\n]`).Split(cmd, -1) {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		parts = append(parts, line)
		if m := regexp.MustCompile(`^(?:\S+/)?(?:sh|bash|zsh)\s+-c\s+(['"])(.*)['"]$`).FindStringSubmatch(line); m != nil {
			parts = append(parts, m[2])
		}
	}
	return parts
}

func TestPoliciesLoadAsGeminiCLIWould(t *testing.T) {
	rules := loadShippedPolicies(t)
	ids := map[string]bool{}
	for _, r := range rules {
		assert.False(t, ids[r.id()], "duplicate rule %s", r.id())
		ids[r.id()] = true
		assert.Contains(t, r.DenyMessage, "Do not try to run this another way", r.id())
		// Gemini CLI 0.32-0.35 read only deny_message.
		assert.Empty(t, r.DenyMessageCamel, "%s: write the message as deny_message, which every Gemini CLI from 0.32 reads", r.id())
	}
	for id := range policyMustMatch {
		assert.True(t, ids[id], "no rule %s in policies/", id)
	}
	for id := range policyFileMustMatch {
		assert.True(t, ids[id], "no rule %s in policies/", id)
	}
	for id := range ids {
		assert.NotEmpty(t, len(policyMustMatch[id])+len(policyFileMustMatch[id]), "rule %s has no must-match examples", id)
	}
}

func TestPoliciesMatchHijackingWrites(t *testing.T) {
	rules := loadShippedPolicies(t)
	for _, r := range rules {
		for _, c := range policyFileMustMatch[r.id()] {
			assert.True(t, r.matchesCall(c.tool, c.args), "%s must deny %s %v", r.id(), c.tool, c.args)
		}
	}
	for _, c := range policyFileMustNotMatch {
		for _, r := range rules {
			assert.False(t, r.matchesCall(c.tool, c.args), "%s denies %s %v", r.id(), c.tool, c.args)
		}
	}
}

func TestPoliciesMatchCatastrophicCommands(t *testing.T) {
	for _, r := range loadShippedPolicies(t) {
		for _, cmd := range policyMustMatch[r.id()] {
			t.Run(r.id()+"/"+cmd, func(t *testing.T) {
				assert.True(t, r.matches(cmd), "%s must deny %q", r.id(), cmd)
			})
		}
	}
}

func TestPoliciesNeverBlockLegitimateWork(t *testing.T) {
	rules := loadShippedPolicies(t)
	for _, cmd := range policyMustNotMatch {
		t.Run(cmd, func(t *testing.T) {
			for _, part := range subCommands(cmd) {
				for _, r := range rules {
					assert.False(t, r.matches(part), "%s denies %q (part %q)", r.id(), cmd, part)
				}
			}
		})
	}
}

// Gemini CLI runs the regexes in JavaScript. When node is installed, every
// example is run there too, the way the policy engine runs it
// (new RegExp(`"command":"` + commandRegex).test(stableStringify(args))),
// and must give the same answer as Go.
func TestPoliciesMeanTheSameInJavaScript(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: the JavaScript cross-check needs it")
	}
	rules := loadShippedPolicies(t)
	type check struct {
		Pattern string `json:"pattern"`
		Input   string `json:"input"`
		Go      bool   `json:"go"`
	}
	var checks []check
	add := func(cmd string) {
		for _, r := range rules {
			if r.ToolName == "run_shell_command" {
				checks = append(checks, check{Pattern: r.pattern(), Input: stableArgs(cmd), Go: r.matches(cmd)})
			}
		}
	}
	addCall := func(c fileCall) {
		for _, r := range rules {
			if r.ToolName == c.tool {
				checks = append(checks, check{Pattern: r.pattern(), Input: stableObject(c.args), Go: r.matchesCall(c.tool, c.args)})
			}
		}
	}
	for _, calls := range policyFileMustMatch {
		for _, c := range calls {
			addCall(c)
		}
	}
	for _, c := range policyFileMustNotMatch {
		addCall(c)
	}
	for _, cmds := range policyMustMatch {
		for _, cmd := range cmds {
			add(cmd)
		}
	}
	for _, cmd := range policyMustNotMatch {
		for _, part := range subCommands(cmd) {
			add(part)
		}
	}
	in, err := json.Marshal(checks)
	require.NoError(t, err)
	script := `let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{` +
		`const out=JSON.parse(s).map(c=>new RegExp(c.pattern).test(c.input));` +
		`process.stdout.write(JSON.stringify(out))})`
	cmd := exec.Command(node, "-e", script)
	cmd.Stdin = bytes.NewReader(in)
	out, err := cmd.Output()
	require.NoError(t, err)
	var js []bool
	require.NoError(t, json.Unmarshal(out, &js))
	require.Len(t, js, len(checks))
	for i, c := range checks {
		assert.Equal(t, c.Go, js[i], "Go and JavaScript disagree on %q against %q", c.Pattern, c.Input)
	}
}

func TestPolicyValidationRefusesWhatGeminiCLIWouldDrop(t *testing.T) {
	base := policyRule{ToolName: "run_shell_command", Decision: "deny", Priority: 999, DenyMessage: "gemini-guard blocked policy.x: y."}
	cases := map[string]func(r *policyRule){
		"nested quantifier": func(r *policyRule) { r.CommandRegex = `rm(?:\s+-rf)+ /` },
		"lookahead":         func(r *policyRule) { r.CommandRegex = `rm(?! -i)` },
		"inline flag":       func(r *policyRule) { r.CommandRegex = `(?i)rm` },
		"bad regex":         func(r *policyRule) { r.CommandRegex = `rm (` },
		"allow":             func(r *policyRule) { r.CommandRegex = "rm"; r.Decision = "allow" },
		"other tool":        func(r *policyRule) { r.CommandRegex = "rm"; r.ToolName = "write_file" },
		"priority":          func(r *policyRule) { r.CommandRegex = "rm"; r.Priority = 1000 },
		"message":           func(r *policyRule) { r.CommandRegex = "rm"; r.DenyMessage = "no" },
	}
	for name, mutate := range cases {
		t.Run(name, func(t *testing.T) {
			r := base
			mutate(&r)
			assert.Error(t, r.compile())
		})
	}
	r := base
	r.CommandRegex = `rm\s-rf\s/"`
	require.NoError(t, r.compile())
	assert.True(t, r.matches("rm -rf /"))
}

package policy

import (
	"github.com/gemini-guard/gemini-guard/internal/effects"
	"github.com/gemini-guard/gemini-guard/internal/protect"
	"github.com/gemini-guard/gemini-guard/internal/shell"
)

// guardRules keep the guard and Gemini CLI as the user set them.
var guardRules = []*Rule{
	{
		ID: "guard.tamper", Category: "guard",
		Protects: "gemini-guard's and its hosts' configuration, one table of protected objects (internal/protect) from which the path check, the identity check (device and inode: a hard link is the same file) and the directories above them are all derived, shared with the secrets guard: in each host's configuration directory (~/.gemini for Gemini CLI and Antigravity CLI, ~/.qwen for Qwen Code, the workspace's .gemini and .qwen, and a Windows profile's under /mnt/<drive>/Users/<name> seen from WSL) settings.json, trustedFolders.json, extensions/** (gemini-guard, its programs guard-shell, guard-secrets, guard-redact, guard-scanner and gemini-guard, its .env settings, any other extension), policies/**, Antigravity CLI's hooks, settings and MCP servers (config/hooks.json, antigravity-cli/hooks.json, settings.json and mcp_config.json), and the directory itself in a home; the workspace's .agents/hooks.json and .agents/mcp_config.json; /etc/gemini-cli and /etc/qwen-code; the guard's state directory (~/.local/state/gemini-guard: session records, the record of the agent's own changes); any .gitleaks.toml and .gitleaksignore, the configured gitleaks config, any .env line setting a key that configures bash, the dynamic loader, node, Gemini CLI, git or the guard's Go runtime (BASH_ENV, ENV, SHELLOPTS, PATH, LD_*, DYLD_*, NODE_OPTIONS, GEMINI_*, XDG_*, HOME, TMPDIR, GIT_SSH_COMMAND, GIT_CONFIG_*, GODEBUG, …: Gemini CLI loads every key of the .env it finds into its own environment and every hook's), the project's tightening file .gemini/gemini-guard.toml (may only get stricter), a repository's .git/config, .git/hooks/** and .git/info/attributes, a .git written whole, and the user's ~/.gitconfig and ~/.config/git/config (code a later git command runs). Any change of such an object's content, mode, owner or name is judged, whatever program makes it: where output lands (redirections, copy, link and extraction targets, in-place editors, output options, cp --parents, git checkout-index --prefix, emacs --eval, and every file a program spec in internal/effects says the call writes or deletes: a mount point, gemini-guard agy install/uninstall rewriting agy's hooks.json), also through symlinks and hard links; a mode, owner, flag or extended attribute changed (chmod, chown, setfacl, chflags, xattr -w; a numeric chmod that takes the owner's own access away, chmod 600 on a hook's binary); a program rewritten in place (strip, upx, patchelf) or renamed (mv, rename); the files find hands to -exec, that xargs reads or that find -delete deletes, judged by find's starting points and name tests or the paths echo gives xargs; a link made to a protected file (ln, link, cp -l/-s, os.link and the like in interpreter code); a tree copied, synced, moved, unpacked or checked out into the home directory (cpio -p, git checkout-index -a); a branch switch, merge, pull or hard reset in a work tree holding home's configuration; the guard's processes stopped by name; and Gemini CLI (or Qwen Code) however spelled (gemini, npx @google/gemini-cli, node .../gemini, node $(which gemini), xargs or env gemini, qwen) disabling or adding extensions, or starting a child agent without the guard, with approvals off, or with such a key (HOME=, GEMINI_CLI_HOME=, XDG_CONFIG_HOME=) in its environment",
		What:     "changes the configuration of gemini-guard or Gemini CLI",
		Safer:    "ask the user to change the setting themselves; a project may tighten the guard in .gemini/gemini-guard.toml",
		Unknown:  "Paths that cannot be known statically are not judged here (the other rules still apply); a .env written with output that cannot be known is denied when the command names a control key as a word or computes the text from its own words (a decoder or translator fed a literal, interpreter code with escapes or concatenation), and in strict mode otherwise; a branch switch, merge, pull or hard reset over the workspace's own protected files (which the other commit may carry) is denied in strict mode.",
		Commands: []string{"*"}, exec: checkGuardTamper,
		Block: []string{
			`echo '{}' > ~/.gemini/settings.json`,
			`rm -rf ~/.gemini/extensions/gemini-guard`,
			`echo GEMINI_GUARD_MODE=warn >> .env`,
			`sed -i 's/strict/warn/' .gemini/settings.json`,
			`cp /dev/null .gitleaksignore`,
			`gemini extensions disable gemini-guard`,
			`export GEMINI_GUARD_MODE=warn; gemini -p x`,
			`launchctl setenv GEMINI_GUARD_MODE warn`,
			`python3 -c "open('.gitleaks.toml','w').write('')"`,
			`echo x > sub/.gitleaks.toml`,
			`sort -o .gitleaks.toml /tmp/rules`,
			`curl -o ~/.gemini/settings.json https://example.com/s.json`,
			`wget -O .gitleaksignore https://example.com/ignore`,
			`awk -i inplace '{print}' .gitleaks.toml`,
			`yq -i '.x = 1' .gemini/policies/p.yaml`,
			`echo '{}' | sponge ~/.gemini/settings.json`,
			`git checkout HEAD~3 -- .gitleaks.toml`,
			`git clone https://example.com/ext ~/.gemini/extensions/other`,
			`tar -xzf ext.tgz -C ~/.gemini/extensions`,
			`dd if=/tmp/s.json of=$HOME/.gemini/settings.json`,
			`ln -s ~/.gemini g`,
			`ln -sf ~/.gemini/settings.json cfg.json`,
			`printf 'GEMINI_GUARD_MODE=warn\n' > /tmp/e && cp /tmp/e .env`,
			`npx @google/gemini-cli extensions disable gemini-guard`,
			`npx -y @google/gemini-cli@latest extensions uninstall gemini-guard`,
			`node /usr/lib/node_modules/@google/gemini-cli/dist/index.js extensions disable gemini-guard`,
			`pnpm dlx @google/gemini-cli -e none -p 'rm -rf build'`,
			`gemini -e none -p 'clean up'`,
			`gemini --extensions other-ext -p 'clean up'`,
			`gemini -y -p 'clean up'`,
			`gemini --approval-mode yolo -p 'clean up'`,
			`GEMINI_GUARD_MODE=warn gemini -p 'clean up'`,
			`gemini extensions install https://example.com/ext`,
			`rm .gemini/gemini-guard.toml`,
			`rm -rf .gemini`,
			`sed -i 's/strict/standard/' .gemini/gemini-guard.toml`,
			`chmod -x ~/.gemini/extensions/gemini-guard/bin/guard-shell`,
			`pkill -f guard-scanner`,
			`kill $(pgrep guard-scanner)`,
			`qwen extensions disable gemini-guard`,
			`fish -c 'set -Ux GEMINI_GUARD_MODE warn'`,
			`echo '{}' > ~/.gemini/trustedFolders.json`,
			`node -e "require('fs').writeFileSync(require('os').homedir()+'/.gemini/settings.json','{}')"`,
			`echo BASH_ENV=/tmp/x.sh >> .env`,
			`printf 'GEMINI_CLI_HOME=/tmp/g\n' >> .gemini/.env`,
			`echo 'NODE_OPTIONS=--require /tmp/x.js' >> ~/.env`,
			`ln ~/.gemini/settings.json s.json`,
			`cp --link ~/.gemini/settings.json s.json`,
			`cp -r payload/. ~/`,
			`rsync -a dir/ ~/`,
			`tar -xf t.tar -C ~`,
			`unzip x.zip -d ~`,
			`echo '[core] sshCommand = sh -c x' >> .git/config`,
			`cp hook.sh .git/hooks/post-checkout`,
			`uniq list ~/.gemini/settings.json`,
			`openssl enc -d -in blob -out ~/.gemini/settings.json`,
			`sqlite3 app.db '.once .gitleaks.toml' 'select 1'`,
			`node $(which gemini) -y -p 'clean up'`,
			`HOME=/tmp/h gemini -p 'clean up'`,
			`GEMINI_CLI_HOME=/tmp/g npx @google/gemini-cli -p 'clean up'`,
			`gemini-guard agy uninstall`,
			`gemini-guard agy install --bin ./fakebin`,
			`env gemini-guard agy uninstall --workspace .`,
			`bash -c '~/.gemini/extensions/gemini-guard/bin/gemini-guard agy uninstall'`,
			`command qwen extensions uninstall gemini-guard`,
			`env gemini extensions uninstall gemini-guard`,
			`echo '{"hooks":{}}' > ~/.qwen/settings.json`,
			`rm -rf ~/.qwen/extensions/gemini-guard`,
			`cp /tmp/s.json /mnt/c/Users/ann/.gemini/settings.json`,
			`sudo mount --bind /tmp/empty ~/.gemini`,
			`bindfs /tmp/empty ~/.gemini/extensions`,
			`rm -rf ~/.local/state/gemini-guard/sessions`,
			`mv ~/.local/state/gemini-guard ~/.local/state/gg.old`,
			`truncate -s 0 ~/.gemini/extensions/gemini-guard/bin/guard-redact`,
			`setfacl -m u:nobody:--- ~/.gemini/extensions/gemini-guard/bin/guard-shell`,
			`find ~/.gemini -name guard-redact -exec chmod a-x {} +`,
			`chmod 600 ~/.gemini/extensions/gemini-guard/bin/guard-shell`,
			`strip ~/.gemini/extensions/gemini-guard/bin/guard-shell`,
			`rename 's/$/.off/' ~/.gemini/extensions/gemini-guard/bin/guard-redact`,
			`xattr -w com.apple.quarantine 0081 ~/.gemini/extensions/gemini-guard/bin/guard-shell`,
			`chmod --reference=/tmp/plain ~/.gemini/extensions/gemini-guard/bin/guard-secrets`,
			`find ~/.gemini/extensions -type f -exec cp /bin/true {} \;`,
			`find ~/.gemini/extensions -name 'guard-*' -execdir mv {} {}.off \;`,
			`find ~/.gemini/extensions/gemini-guard -name '*' -delete`,
			`find ~/.gemini/policies -delete`,
			`find ~/.gemini -name guard-redact -exec sh -c 'chmod a-x "$1"' _ {} \;`,
			`echo '{}' > /c/Users/ann/.gemini/settings.json`,
			`find ~/.gemini -name 'guard-*' | xargs chmod 644`,
			`printf '%s\n' ~/.gemini/extensions/gemini-guard/bin/guard-shell | xargs chmod -x`,
			`xargs truncate -s 0 <<< ~/.gemini/extensions/gemini-guard/bin/guard-scanner`,
			`echo gemini-guard | xargs qwen extensions disable`,
			`echo uninstall | xargs gemini-guard agy`,
			`link ~/.gemini/settings.json cfg.json`,
			`link ~/.gemini/antigravity-cli/hooks.json h.json`,
			`python3 -c "import os; os.link(os.path.expanduser('~/.gemini/settings.json'), 'cfg.json')"`,
			`perl -e 'link "$ENV{HOME}/.gemini/config/hooks.json", "h.json"'`,
			`emacs --batch --eval '(with-temp-file "~/.gemini/settings.json" (insert "{}"))'`,
			`find .gemini | cpio -pdm ~`,
			`cp --parents .gemini/settings.json ~`,
			`git checkout-index -a --prefix=$HOME/`,
			`git checkout-index --prefix=$HOME/ .gemini/settings.json`,
			`git -C ~/.gemini/extensions/gemini-guard checkout v0.0.1`,
			`stow -d dotfiles -t ~ gemini`,
		},
		Allow: []string{
			`cat ~/.gemini/settings.json`,
			`echo 'mode = "strict"' > .gemini/gemini-guard.toml`,
			`echo API_URL=http://localhost >> .env.example`,
			`gemini extensions list`,
			`gemini extensions update --all`,
			`gemini extensions update gemini-guard`,
			`echo DEBUG=1 >> .env`,
			`cp .gitleaks.toml /tmp/b.toml`,
			`git diff .gitleaks.toml | tee r.txt`,
			`grep -o allowlist .gitleaks.toml`,
			`gemini --help`,
			`gemini -p 'summarise the README'`,
			`gemini -e gemini-guard -p 'summarise the README'`,
			`chmod 600 ~/.gemini/settings.json`,
			`pkill -f 'node server.js'`,
			`fish -c 'set -Ux EDITOR nvim'`,
			`qwen extensions list`,
			`cat ~/.gemini/trustedFolders.json`,
			`npx prettier --write src`,
			`npx @google/gemini-cli --version`,
			`ln -s ../shared/data data`,
			`cp .env.example .env`,
			`mkdir -p .gemini`,
			`sort -o sorted.txt words.txt`,
			`curl -o out.json https://example.com/data.json`,
			`echo DATABASE_URL=postgres://localhost/app >> .env`,
			`echo PORT=3000 >> .env`,
			`echo NODE_ENV=production >> .env`,
			`tar -xf t.tar -C /tmp/out`,
			`unzip x.zip -d vendor`,
			`cp -r src dst`,
			`git config user.email dev@example.com`,
			`uniq list out.txt`,
			`node $(which gemini) -p 'summarise the README'`,
			`gemini-guard agy status`,
			`gemini-guard doctor`,
			`ls -la ~/.gemini/extensions/gemini-guard/bin`,
			`mount`,
			`mount -t tmpfs none /tmp/scratch`,
			`install -m 755 build/tool ~/.local/bin/tool`,
			`cat ~/.qwen/settings.json`,
			`ls ~/.local/state/gemini-guard/sessions`,
			`chmod +x ./scripts/run.sh`,
			`find . -name '*.o' -delete`,
			`find build -exec chmod +x {} +`,
			`find ~/.gemini -name '*.json'`,
			`find ~/.gemini/extensions -type f -exec sha256sum {} +`,
			`find . -name '*.go' | xargs gofmt -l`,
			`find dist -type f | xargs chmod 644`,
			`find . -name '*.txt' -exec sh -c 'chmod 644 "$1"' _ {} \;`,
			`xattr -l ~/.gemini/extensions/gemini-guard/bin/guard-shell`,
			`strip build/app`,
			`rename 's/\.txt$/.md/' notes/*.txt`,
			`link notes.txt notes-link.txt`,
			`python3 -c "import os; os.link('a.txt', 'b.txt')"`,
			`emacs --batch --eval '(with-temp-file "out/report.txt" (insert "x"))'`,
			`cp --parents src/a.go build/out`,
			`find src | cpio -pdm build/stage`,
			`git checkout-index -a --prefix=build/export/`,
			`echo my-ext | xargs gemini extensions disable`,
			`git -C ~/.gemini/extensions/gemini-guard log --oneline`,
			`stow -d dotfiles -t build/out pkg`,
		},
	},
}

// roots are the protected-path table's anchors for this context.
func (c *Context) roots() protect.Roots {
	return protect.Roots{Home: c.Home, Workspace: c.Workspace, GitleaksConfig: c.GitleaksConfig, FS: c.FS, StateDir: c.StateDir, Hosts: c.HostHomes, Memo: &c.protectMemo}
}

// checkGuardTamper: changing or deleting the guard's or Gemini CLI's
// configuration (the protect table), or switching the guard off through
// Gemini CLI however it is spelled.
func checkGuardTamper(c *Call) Finding {
	if f := guardSwitchedOff(c); f.Hit {
		return f
	}
	r := c.Ctx.roots()
	writes, deletes := changes(c)
	ew, ed := specChanges(c)
	writes, deletes = append(writes, ew...), append(deletes, ed...)
	if f := protectedDeleted(c, r, deletes); f.Hit {
		return f
	}
	if f := linksToProtected(c, r); f.Hit {
		return f
	}
	writes = append(writes, modeChanges(c)...)
	if f := runtimeChanged(c, r, append(writes, deletes...)); f.Hit {
		return f
	}
	if f := treeIntoUserConfig(c, r); f.Hit || f.Maybe {
		return f
	}
	if f := protectedWritten(c, r, writes); f.Hit || f.Maybe {
		return f
	}
	return branchOverConfig(c, r)
}

// guardSwitchedOff: Gemini CLI switching the guard off (checkCLI), the
// guard's processes killed, or a control key set for the next session.
func guardSwitchedOff(c *Call) Finding {
	if args, ok := cliArgs(c); ok {
		if f := checkCLI(c, args); f.Hit {
			return f
		}
	}
	if f := killsGuard(c); f.Hit {
		return f
	}
	if setsSessionEnv(c) {
		if k := setsControlKey(c); k != "" {
			return hitSafer(c.Ex.Name+" sets "+k+" for the programs started later, the next Gemini CLI session and its hooks among them", protect.SaferEnv)
		}
	}
	return Finding{}
}

// protectedDeleted: a protected configuration deleted or moved away (or a
// directory holding one), or a .env naming a control key.
func protectedDeleted(c *Call, r protect.Roots, deletes []string) Finding {
	for _, p := range deletes {
		if !shell.Known(p) {
			continue
		}
		e := protect.Check(r, p)
		if e.Kind == protect.None {
			e = protect.Contains(r, p)
		}
		switch e.Kind {
		case protect.Config, protect.Tightening:
			return hit("deletes or moves away " + e.What)
		case protect.EnvFile:
			if k := mentionedControlKey(c); k != "" {
				return hitSafer("changes "+e.What+", naming "+k, protect.SaferEnv)
			}
		}
	}
	return Finding{}
}

// protectedWritten judges each path written (or whose mode changes) by
// the protect table's kind.
func protectedWritten(c *Call, r protect.Roots, writes []string) Finding {
	for _, p := range writes {
		if !shell.Known(p) {
			continue
		}
		e := protect.Check(r, p)
		switch e.Kind {
		case protect.Config:
			return hit("changes " + e.What)
		case protect.EnvFile:
			if f := judgeEnvWrite(c, p, e); f.Hit || f.Maybe {
				f.Safer = protect.SaferEnv
				return f
			}
		case protect.GitCode:
			return hitSafer(c.Ex.Name+" writes "+e.What+": written by anything but git itself it is code planted to run later", protect.SaferGitCode)
		case protect.Tightening:
			if f := judgeTighteningWrite(c, p, e); f.Hit {
				return f
			}
		}
	}
	return Finding{}
}

// specChanges are the files the call's program specs (internal/effects)
// say it writes or deletes: every program whose effects reach a protected
// object is judged, not only the ones changes reads itself (mount over
// ~/.gemini, gemini-guard agy uninstall rewriting agy's hooks.json).
// Generic guesses for unknown programs are left out: a path-like operand
// of a program nobody described is more often read than written.
func specChanges(c *Call) (writes, deletes []string) {
	for _, e := range c.effectsOf() {
		if e.Generic || e.Area != effects.Files {
			continue
		}
		switch e.Kind {
		case effects.Write:
			writes = append(writes, e.Path)
		case effects.Delete:
			deletes = append(deletes, e.Path)
		}
	}
	return writes, deletes
}

func hitSafer(what, safer string) Finding { return Finding{Hit: true, What: what, Safer: safer} }

// TamperFinding runs guard.tamper alone over res: the secrets guard uses it
// so that both guards answer alike for the guard's own configuration. It
// returns the first denying finding, if any.
func TamperFinding(res *shell.Result, ctx *Context) (Finding, bool) {
	var rule *Rule
	for _, r := range Rules() {
		if r.ID == "guard.tamper" {
			rule = r
		}
	}
	if rule == nil || ctx.Disabled[rule.ID] {
		return Finding{}, false
	}
	for _, ex := range res.Execs {
		c := &Call{Ex: ex, Res: res, Ctx: ctx}
		if len(ex.Args) > 0 {
			c.Args = ex.Args[1:]
		}
		f := rule.exec(c)
		f.Rule, f.Exec = rule, ex
		if (f.Hit || f.Maybe) && f.Denies(ctx) {
			return f, true
		}
	}
	return Finding{}, false
}

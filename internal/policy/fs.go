package policy

import (
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/effects"
	"github.com/gemini-guard/gemini-guard/internal/shell"
)

// fsRules judge deletes and moves of files and trees.
var fsRules = []*Rule{
	{
		ID: "fs.rm-root", Category: "fs",
		Protects:  "/, the operating system's directories (/etc, /usr, /bin, /var, /opt, ...) and the protected paths setting",
		What:      "deletes the root directory or a system directory",
		Safer:     "delete only the specific files inside the workspace that the task needs gone",
		Unknown:   "Denied in standard mode when the known part of the path is a system directory, or when an empty variable would make it one (rm -rf \"$DIR\"/* with DIR unset deletes /*).",
		DenyMaybe: true,
		Commands:  []string{"*"}, exec: checkRmCritical,
		Block: []string{
			`rm -rf /`, `rm -rf /*`, `sudo rm -rf --no-preserve-root /`, `rm -rf /etc`, `/bin/rm -fr /usr/local`,
			`r""m -rf /var`, `rm -rf "$DIR"/*`, `python3 -c "import os; os.remove('/etc/passwd')"`,
			`sudo env X=1 bash -c 'rm -rf /'`, `rsync -a --delete empty/ /etc/`,
			`zsh -c 'rm -rf /etc/*(.)'`, `rm -rf /usr/lib(/)`, `ls *(e:'rm -rf /usr':)`, `rm -rf /mnt/c/Users/ann/AppData`,
			`sudo tar --remove-files -czf /tmp/etc.tgz /etc`, `sudo cmake -E remove_directory /usr/local`,
		},
		Allow: []string{`rm -rf build`, `rm -f /tmp/x.log`, `rm -rf /tmp/build`, `rm -rf /mnt/c/Users/ann/AppData/Local/Temp/build-123`, `echo rm -rf /`, `rm -rf "$(dirname build/x)/cache"`, `rm -- build/*(.om[1,3])`},
	},
	{
		ID: "fs.rm-home", Category: "fs",
		Protects:  "the home directory and everything in it outside the workspace, other users' homes, and any directory holding the workspace or home",
		What:      "deletes the home directory or files in it outside the workspace",
		Safer:     "delete only paths inside the workspace; ask the user to clean up elsewhere",
		Unknown:   "Denied in standard mode when the known part of the path is in home (rm -rf ~/$X).",
		DenyMaybe: true,
		Commands:  []string{"*"}, exec: checkRmHome,
		Block: []string{
			`rm -rf ~`, `rm -rf ~/`, `rm -rf $HOME`, `rm -rf ~/Documents`, `cd ~ && rm -rf *`, `x=rm; $x -rf ~/projects`,
			`W='rm -rf ~'; $W`, `rm -rf ~someone/data`, `rm -rf ..`,
			`ruby -e "require 'fileutils'; FileUtils.rm_rf(Dir.home)"`, `rsync -a --delete empty/ ~/`,
			`rm -rf "${HOME%/*}"`, `rm -rf "$(dirname "$HOME")"`, `x=$(printf 'r%s' m); $x -rf ~`,
			`pwsh -c 'Remove-Item -Recurse -Force $HOME'`, `pwsh -c 'Get-ChildItem ~ | Remove-Item -Recurse'`, `wipe -rf ~/Projects`, `rm ~/.bash_history`, `rm -f ~/.zshrc`,
			// Deletes that are another verb's side effect, by the program's spec (internal/effects).
			`tar --remove-files -czf /tmp/b.tgz ~/Documents`, `tar -C ~ --remove-files -cf /tmp/d.tar Documents`, `zip -rm /tmp/d.zip ~/Documents`, `zip -r --move /tmp/d.zip ~/Pictures`,
			`7z a -sdel /tmp/a.7z ~/Documents`, `rar m /tmp/a.rar ~/Documents`, `rar a -df /tmp/a.rar ~/Music`, `npx rimraf ~/Documents`, `rimraf ~`, `npx del-cli ~/Documents`,
			`trash ~/Documents`, `gio trash ~/Desktop`, `cmake -E remove_directory ~/Documents`, `cmake -E rm -rf ~/Projects/app`, `zip -m /tmp/rc.zip ~/.zshrc`,
			`rm -f ~/dir/*`, `rm ~/*`, `rm -f ~/Documents/.*`, `CDPATH=~ cd Documents && rm -rf .`, `export CDPATH=~; cd Projects && rm -rf *`, `ln -s ~/Documents d; rm -rf d/*`, `ln -sfn ~/Pictures p && npx rimraf p/`,
		},
		Allow: []string{`rm ~/notes.txt`, `rm -rf node_modules`, `rm -rf ./dist ./coverage`, `rsync -a --delete src/ backup/`, `rsync -a ~/notes/ notes/`, `pwsh -c 'Remove-Item -Recurse -Force ./build'`, `pwsh -c 'Get-ChildItem ~ | Remove-Item -Recurse -WhatIf'`, `wipe -rf ./tmp-build`, `rm ~/.zcompdump`, `rm ~/Downloads/installer.dmg`, `rm ~/.zsh_history.bak`,
			`tar -czf dist.tgz build/`, `tar --remove-files -czf /tmp/b.tgz build/`, `zip -r site.zip public/`, `zip -m logs.zip build/*.log`, `7z a /tmp/docs.7z ~/Documents`, `tar -C ~ -czf docs.tgz Documents`,
			`npx rimraf dist`, `rimraf node_modules`, `npx del-cli 'dist/**'`, `trash build`, `gio trash build`, `cmake -E remove_directory build`, `cmake -E rm -rf build`, `rm -f ~/Downloads/*.dmg`,
			`CDPATH=. cd src && rm -rf generated`, `CDPATH=~ cd ./build && rm -rf *`, `ln -s build/out o && rm -rf o/`, `ln -s ~/Documents d && rm d`, `shred -n 1 ~/.bash_history.bak`},
	},
	{
		ID: "fs.rm-workspace", Category: "fs",
		Protects: "the workspace as a whole and its git history (.git), and a tracked file's uncommitted changes that are not the agent's own (the session's record, asked for a delete inside the workspace)",
		What:     "deletes the whole workspace, its git history or uncommitted work",
		Safer:    "delete the specific build outputs (rm -rf build dist), or use git clean -n to see what is untracked",
		Unknown:  noUnknownStory,
		Commands: []string{"*"}, exec: checkRmWorkspace,
		Block: []string{`rm -rf .`, `rm -rf *`, `rm -rf ./*`, `rm -rf .git`, `rm -rf .*`, `rm -rf "$PWD"`, `tar --remove-files -czf /tmp/ws.tgz .`, `npx rimraf .git`},
		Allow: []string{`rm -rf build`, `rm -rf .cache`, `rm -rf src/generated/*`},
	},
	{
		ID: "fs.rm-runtime-list", Category: "fs",
		Protects: "files chosen at run time: rm -rf fed by xargs, parallel, find -exec or a read loop deletes whatever the list holds; and any rm fed by xargs or parallel from a find over home or the system (find ~/Downloads … | xargs rm -f is find -delete there)",
		What:     "rm -rf deletes a list of paths decided at run time",
		Safer:    "print the list first (find ... -print), review it, then delete the paths by name",
		Unknown:  "The list is unknown by nature: standard mode denies, except find -exec whose selection is selective (the same selective delete fs.find-delete allows).",
		Commands: []string{"*"}, exec: checkRmRuntimeList,
		Block: []string{
			`find . -type d -exec rm -rf {} +`,
			`echo / | xargs rm -rf`,
			`git ls-files -o | xargs rm -rf`,
			`find . | while read f; do rm -rf "$f"; done`, `find ~/Downloads -mtime +0 -print0 | xargs -0 rm -f`, `find /etc -name '*.conf' | xargs rm`,
		},
		Allow: []string{`find . -name '*.tmp' -exec rm {} \;`, `find . -type d -empty -exec rmdir {} \;`, `ls | xargs rm -f`, `find src -name node_modules -exec rm -rf {} +`, `find . -name node_modules -exec rm -rf {} +`, `find . -name '*.o' -print0 | xargs -0 rm -f`, `find /tmp -name 'core.*' | xargs rm -f`},
	},
	{
		ID: "fs.rm-outside-workspace", Category: "fs",
		Protects: "files outside the workspace and the temporary directories (and the trusted delete roots setting)",
		What:     "recursively deletes files outside the workspace",
		Safer:    "delete only inside the workspace or a temporary directory; ask the user to delete elsewhere",
		Unknown:  "Standard mode allows rm -rf of a target that cannot be known statically ($X, $(...)) and rm -r without -f outside the workspace; strict mode denies both.",
		Commands: []string{"*"}, exec: checkRmOutside,
		Block: []string{`rm -rf /data/cache`, `rm -rf ../other-project`, `cd .. && rm -rf other`, `rm -rf /data/old`, `rimraf /data/cache`, `zip -rm /tmp/o.zip ../other-project`},
		Allow: []string{`rm -rf build`, `rm -rf /tmp/build`, `rm -rf "$TMPDIR/x"`, `rm -rf $(mktemp -d)`, `rm -r /data/old`},
	},
	{
		ID: "fs.find-delete", Category: "fs",
		Protects: "whatever a find expression matches at run time; -delete before the tests deletes everything",
		What:     "find -delete (or -exec rm {}) deletes whatever its expression matches",
		Safer:    "run the same find with -print first, then delete the listed paths by name (or use rm -rf on a specific directory)",
		Unknown:  "Allowed: literal paths inside the workspace (not .git), a temporary directory or a trusted delete root, as rm -rf of them is; a temporary directory itself with a test before -delete; the workspace root with a name or path test in every -o branch that no file of .git matches (or .git pruned). Anything else, including unknown start paths, is denied in standard mode. find -exec rm/unlink/shred {} is judged as -delete.",
		Commands: []string{"find"}, exec: checkFindDelete,
		Block: []string{`find . -delete`, `find -delete`, `find /tmp -delete`, `find ~ -name '*.log' -delete`, `find $DIR -delete`, `find .git -name '*.pack' -delete`, `find . -delete -name '*.o'`,
			`find . -type f -delete`, `find . -name '*.pack' -delete`, `find . -name '*.pyc' -o -type f -delete`, `find "$HOME" -mtime +1 -exec rm -f {} +`},
		Allow: []string{`find . -name "*.pyc" -print`, `find /tmp/mybuild -delete`, `find . -name -delete -print`, `find src -name "*.pyc" -delete`, `find build -type f -empty -delete`,
			`find . -name "*.pyc" -delete`, `find . -type d -name __pycache__ -exec rm -rf {} +`, `find /tmp -name 'pytest-*' -mtime +1 -delete`, `find . -path ./.git -prune -o -type f -name '*.orig' -delete`, `find src -delete`},
	},
	{
		ID: "fs.move-away", Category: "fs",
		Protects: "home, system directories, the workspace and its .git, from being moved away (onto /dev/null, into /tmp, over another directory)",
		What:     "moves away a directory whose loss destroys it",
		Safer:    "move only files inside the workspace",
		Unknown:  noUnknownStory,
		Commands: []string{"mv", "gmv"}, exec: checkMoveAway,
		Block: []string{`mv ~ /dev/null`, `mv ~/Documents /tmp/`, `mv /etc /tmp/etc`, `mv . /tmp/x`, `mv .git /tmp/`, `mv /usr/bin old`, `mv /mnt/c/Users/ann ./ann`, `mv /mnt/c/Users/ann/Documents ./docs/`, `mv /mnt/c/Users/ann/Downloads/report.pdf /tmp/`, `mv -t /tmp ~/Documents`, `mv --target-directory=/tmp ~/Documents`, `mv -t /dev/null ~/Music`, `cmake -E rename ~/Documents /tmp/d`},
		Allow: []string{`mv a.txt b.txt`, `mv build /tmp/old-build`, `mv ~/Downloads/data.csv data/`, `mv /opt/app-1 /opt/app-2`, `mv /mnt/c/Users/ann/Downloads/report.pdf ./docs/`, `mv -t build/ a.o b.o`, `mv --target-directory=dist main.js`, `mv -t ~/Documents/ report.pdf`},
	},
	{
		ID: "fs.system-write", Category: "fs",
		Protects: "system files (/etc, /usr, /boot, /bin, /lib, ...) and the protected paths setting, from being overwritten, appended to or emptied by any program",
		What:     "writes a system file",
		Safer:    "write inside the workspace; tell the user what to change in system files",
		Unknown:  noUnknownStory,
		Commands: []string{"*"}, exec: checkSystemWrite,
		Block: []string{`> /etc/hosts`, `: > /etc/passwd`, `truncate -s 0 /etc/fstab`, `cp /dev/null /etc/resolv.conf`, `tee /etc/hostname < /dev/null`, `echo x >> /usr/share/dict/words`, `sed -i 's/a/b/' /etc/nginx/nginx.conf`, `tar -czf /etc/passwd notes`, `cd / && cpio -idmu < /tmp/root.cpio`, `sudo fallocate -p -o 0 -l 4096 /etc/fstab`, `echo '127.0.0.1 github.com' | sudo tee -a /etc/hosts`, `echo '10.0.0.5 myapp.test' | sudo tee -a /etc/hosts`, `echo '127.0.0.1 gitlab' | sudo tee -a /etc/hosts`, `echo '127.0.0.1 dc.corp.local' >> /etc/hosts`, `echo '127.0.0.1 myapp.test' | sudo tee /etc/hosts`, `echo 'kern.securelevel=-1' | sudo tee -a /etc/sysctl.conf`, `echo "$LINE" | sudo tee -a /etc/hosts`},
		Allow: []string{`cat /etc/hosts`, `echo x > /tmp/hosts`, `cp /etc/hosts hosts.bak`, `echo ok > /dev/null`, `grep x /etc/hosts > out.txt`, `vim -R /etc/fstab`, `tar -czf /tmp/backup.tgz .`, `cpio -idmu < ./initrd.cpio`, `fallocate -l 1G /tmp/swapfile`, `sudo fallocate -d /var/lib/libvirt/images/vm.qcow2`, `tar -C /etc -czf ./etc-backup.tgz .`, `echo '127.0.0.1 myapp.test' | sudo tee -a /etc/hosts`, `echo '::1 api.localhost' >> /etc/hosts`, `echo 'kern.ipc.somaxconn=4096' | sudo tee -a /etc/sysctl.conf`, `sudo tee -a /etc/sysctl.d/99-dev.conf <<< 'fs.inotify.max_user_watches=524288'`},
	},
	{
		ID: "fs.home-emptied", Category: "fs",
		Protects: "dotfiles and directories in home outside the workspace, and credential files anywhere, from being emptied by a bare redirection, truncate, a copy of /dev/null, tee from /dev/null, a link to /dev/null or an editor told to delete every line (vim -c '%d|wq', ex -sc '%d|x')",
		What:     "empties a file in home",
		Safer:    "leave files outside the workspace alone",
		Unknown:  noUnknownStory,
		Commands: []string{"*"}, exec: checkHomeEmptied,
		Block: []string{`> ~/.bash_history`, `: > ~/.gitconfig`, `truncate -s 0 ~/.ssh/known_hosts`, `cp /dev/null ~/.config/app.json`, `cp /dev/null .env`, `ln -sf /dev/null ~/.zsh_history`, `ex -sc '%d|x' ~/.ssh/config`, `vim -c '%d|wq' ~/.gitconfig`},
		Allow: []string{`> out.log`, `echo hi > ~/notes.txt`, `truncate -s 0 build/app.log`, `cat ~/.gitconfig`, `vim -c '%d|wq' ./notes.txt`, `vim -R ~/.gitconfig`},
	},
	{
		ID: "fs.logs-erased", Category: "fs",
		Protects: "live system logs under /var/log and the login records (wtmp, btmp, lastlog), from being emptied, deleted, shredded or moved away",
		What:     "erases a system log",
		Safer:    "leave system logs alone; rotated archives (syslog.1, *.gz) may be removed, and logrotate or journalctl --vacuum-time with a span of days keeps what matters",
		Unknown:  noUnknownStory,
		Commands: []string{"*"}, exec: checkLogsErased,
		Block: []string{`> /var/log/syslog`, `sudo truncate -s 0 /var/log/auth.log`, `rm /var/log/secure`, `shred -u /var/log/wtmp`, `cp /dev/null /var/log/lastlog`, `journalctl --vacuum-time=1s`, `echo -n | sudo tee /var/log/nginx/access.log`},
		Allow: []string{`tail -f /var/log/syslog`, `echo started >> /var/log/app.log`, `rm /var/log/nginx/access.log.2.gz`, `sudo rm /var/log/syslog.1`, `journalctl --vacuum-time=2weeks`, `grep error /var/log/syslog > errors.txt`, `> app.log`},
	},
	{
		ID: "fs.user-delete", Category: "fs",
		Protects: "users' home directories, from being deleted with the account",
		What:     "deletes a user together with their home directory",
		Safer:    "ask the user",
		Unknown:  noUnknownStory,
		Commands: []string{"userdel", "deluser", "dscl", "sysadminctl"}, exec: checkUserDelete,
		Block: []string{`sudo userdel -r dev`, `deluser --remove-home bob`, `sudo dscl . -delete /Users/alice`, `sudo sysadminctl -deleteUser alice`},
		Allow: []string{`id dev`, `deluser --help`, `dscl . -list /Users`, `dscl . -read /Users/alice UserShell`},
	},
	{
		ID: "fs.windows-host", Category: "fs",
		Protects: "the Windows host reached from WSL or Git Bash: its drives and profiles (rd /s, del, Remove-Item outside the workspace and %TEMP%), volumes and disks (format, Format-Volume, Clear-Disk, diskpart), shadow copies and backups (vssadmin, wmic shadowcopy, wbadmin), boot configuration (bcdedit), Defender and the firewall, Run keys and scheduled tasks, system ACLs and ownership (icacls, takeown), accounts; read in cmd.exe /c and PowerShell -Command texts and in the tools called directly",
		What:     "destroys data or switches off a defence of the Windows host",
		Safer:    "work inside the workspace (relative paths) or %TEMP%; ask the user to change the Windows host",
		Unknown:  "An encoded PowerShell command is judged by shell.dynamic-code, not here.",
		Commands: []string{"cmd", "powershell", "pwsh", "powershell_ise", "wsl", "vssadmin", "wmic", "wbadmin", "bcdedit", "reg", "schtasks", "takeown", "icacls", "cacls", "netsh", "diskpart", "format",
			// PowerShell's commands, which package shell reads out of -Command texts, and the aliases it turns into rm
			"rm", "rd", "del", "erase", "remove-item", "ri", "set-mppreference", "add-mppreference", "set-netfirewallprofile", "format-volume", "clear-disk", "initialize-disk", "remove-partition", "reset-physicaldisk", "stop-computer", "restart-computer", "new-itemproperty", "set-itemproperty", "register-scheduledtask", "unregister-scheduledtask", "new-service"}, exec: checkWindows,
		Block: []string{`cmd.exe /c 'rd /s /q C:\Users\dev'`, `cmd.exe /c del /f /s /q 'C:\Users\dev\*'`, `powershell.exe -c 'Remove-Item -Recurse -Force C:\\Users\\dev'`, `powershell -Command "Get-ChildItem D:\ -Recurse | Remove-Item -Force"`, `cmd.exe /c format E: /q /y`, `vssadmin.exe delete shadows /all /quiet`, `wmic shadowcopy delete`, `bcdedit /set {default} recoveryenabled no`, `netsh advfirewall set allprofiles state off`, `reg.exe add 'HKCU\Software\Microsoft\Windows\CurrentVersion\Run' /v x /d 'C:\x.exe'`, `schtasks /create /sc onlogon /tn x /tr 'C:\x.exe'`, `icacls 'C:\Windows' /grant Everyone:F /t`, `pwsh -c 'Set-MpPreference -DisableRealtimeMonitoring $true'`, `icacls C:\Windows\System32 /reset /t`, `powershell -c 'New-ItemProperty -Path HKCU:\Software\Microsoft\Windows\CurrentVersion\Run -Name x -Value C:\x.exe'`, `wsl.exe --unregister Ubuntu`, `powershell.exe -c 'Remove-Item -Recurse C:\Users\ann\Documents'`, `powershell.exe -c 'Clear-Disk -Number 1 -RemoveData'`, `printf 'select disk 1\nclean\n' > /tmp/d.txt && diskpart.exe /s "$(wslpath -w /tmp/d.txt)"`, `diskpart.exe /s C:\temp\list.txt`, `icacls.exe C:\Users\ann\.ssh\id_ed25519 /inheritance:r /grant:r Everyone:R`, `icacls.exe C:\Users\ann\.ssh\id_ed25519 /inheritance:r /grant:r ann:F`, `icacls.exe 'C:\Windows\System32\config\SAM' /inheritance:r /grant:r ann:R`, `icacls.exe 'C:\Users\ann\Documents' /inheritance:r /grant:r ann:R /t`, `schtasks.exe /delete /tn * /f`, `schtasks.exe /delete /tn '\Microsoft\Windows\Windows Defender\Windows Defender Scheduled Scan' /f`, `schtasks /change /tn Updater /disable`},
		Allow: []string{`cmd.exe /c 'rd /s /q build'`, `cmd.exe /c dir 'C:\Users'`, `powershell.exe -c 'Remove-Item -Recurse -Force .\node_modules'`, `cmd.exe /c 'del /q %TEMP%\build-*.log'`, `vssadmin list shadows`, `netsh advfirewall show allprofiles`, `reg.exe query 'HKCU\Software\Microsoft\Windows\CurrentVersion\Run'`, `schtasks /query`, `icacls .\build`, `powershell.exe -c Get-Volume`, `biome format src`, `format --help`, `icacls .\data /grant Users:R`, `wsl --list --verbose`, `powershell.exe -c 'Remove-Item -Recurse C:\Users\ann\Documents -WhatIf'`, `powershell.exe -c 'Clear-Disk -Number 1 -RemoveData -WhatIf'`, `printf 'list disk\nlist volume\n' > /tmp/l.txt && diskpart.exe /s "$(wslpath -w /tmp/l.txt)"`, `icacls.exe C:\Users\ann\.ssh\id_ed25519 /inheritance:r /grant:r ann:R`, `schtasks.exe /delete /tn Updater /f`, `icacls.exe 'C:\Users\ann\.ssh\id_ed25519' /inheritance:r /grant:r ann:R`},
	},
	{
		ID: "fs.vcs-discard", Category: "fs",
		Protects: "uncommitted work in Mercurial and Subversion checkouts",
		What:     "discards uncommitted changes",
		Safer:    "hg shelve / svn diff > patch first",
		Unknown:  noUnknownStory,
		Commands: []string{"hg", "svn"}, exec: checkVCSDiscard,
		Block: []string{`hg update -C`, `hg revert --all`, `hg purge`, `svn revert -R .`},
		Allow: []string{`hg update default`, `hg status`, `svn revert file.c`, `svn status`},
	},
	{
		ID: "fs.packages-removed", Category: "fs",
		Protects: "the system's own software: essential packages (the C library, init, the shells, sudo, the package managers, the kernel and boot loader, the system's Python), removals forced past the dependency checks, and every package a manager lists removed at once (brew, global npm, pip as root)",
		What:     "removes software the system needs",
		Safer:    "remove the one package the task needs gone; ask the user before removing system packages",
		Unknown:  "A system package manager given a list made at run time is allowed (the clean-up of removed packages' configuration is written that way); brew, npm -g and pip as root are denied.",
		Commands: []string{"apt", "apt-get", "aptitude", "dnf", "yum", "microdnf", "zypper", "apk", "snap", "port", "pkg", "xbps-remove", "emerge", "dpkg", "rpm", "pacman", "brew", "pip", "pip3", "pipx", "npm", "pnpm", "yarn"}, exec: checkPackagesRemoved,
		Block: []string{`sudo apt purge -y python3`, `sudo dnf remove -y systemd`, `sudo pacman -Rdd glibc`, `sudo rpm -e --nodeps glibc`, `sudo dpkg --purge --force-all coreutils`, `apk del busybox`, `brew uninstall --force $(brew list)`, `sudo pip uninstall -y -r <(pip freeze)`, `npm ls -g --parseable | xargs npm uninstall -g`, `pipx uninstall-all`},
		Allow: []string{`sudo apt remove -y cowsay`, `sudo apt autoremove -y`, `apt-get remove --simulate python3`, `brew uninstall wget`, `pip uninstall -y requests`, `pip uninstall -y -r requirements-dev.txt`, `npm uninstall -g typescript`, `npm uninstall lodash`, `sudo pacman -Rns $(pacman -Qtdq)`, `sudo apt purge $(dpkg -l | awk '/^rc/ {print $2}')`, `pipx uninstall black`},
	},
}

// checkSystemWrite: output landing on a system file (/etc, /usr, /boot,
// /bin, ...) or a file of another user, by any program: overwritten,
// appended to, emptied or moved over.
func checkSystemWrite(c *Call) Finding {
	writes, _ := changes(c)
	for _, p := range writes {
		if !shell.Known(p) || !strings.HasPrefix(p, "/") || strings.HasPrefix(p, "/dev/") || strings.HasPrefix(p, "/proc/") || strings.HasPrefix(p, "/sys/") {
			continue
		}
		l := c.Ctx.placeKnown(p)
		switch l.Place {
		case Root, CoreSystem, Protected:
			if appendIsHarmless(c, p) {
				continue
			}
			return hit(c.Ex.Name + " overwrites or changes the system file " + p)
		}
	}
	return Finding{}
}

// checkMoveAway: mv of home, a system directory, the workspace or its .git
// anywhere (onto /dev/null, into /tmp, over another directory) destroys it
// as surely as rm -rf.
func checkMoveAway(c *Call) Finding {
	// mv's sources and destination as its spec reads them: the last
	// operand, or the -t / --target-directory value.
	srcs, to := effects.Moves(c.Ex.Name, c.Args)
	if len(srcs) == 0 || to == "" {
		return Finding{}
	}
	dst := c.resolve(to)
	for _, s := range srcs {
		l := c.Loc(s)
		if winProfileEntry(l.Path) && !l.Maybe && c.Ctx.inWorkspace(dst) {
			continue // a download brought into the project is kept, not lost
		}
		switch l.Place {
		case Root, CoreSystem, System, Protected, Home, Ancestor, Workspace, WorkspaceGit, OtherHome:
			if l.Place == System && !strings.HasPrefix(dst, "/dev/") && c.Ctx.placeKnown(dst).Place == System {
				continue // a rename between system locations (/opt/x to /opt/y)
			}
			return hit("mv moves away " + l.Place.String() + " (" + l.Path + "), which destroys it where it was")
		case InHome:
			if d := c.Ctx.placeKnown(dst).Place; dst == "/dev/null" || d == TempRoot || d == InTemp {
				return hit("mv moves " + l.Path + " out of home to " + dst + ", where it is lost")
			}
		}
		if dst == "/dev/null" && l.Place != InWorkspace && l.Place != InTemp {
			return hit("mv " + c.Show(s) + " onto /dev/null destroys it")
		}
	}
	return Finding{}
}

// inWorkspace reports whether the known path p is the workspace or in it.
func (c *Context) inWorkspace(p string) bool {
	pl := c.placeKnown(p).Place
	return pl == Workspace || pl == InWorkspace
}

// checkUserDelete: deleting an account together with its home.
func checkUserDelete(c *Call) Finding {
	switch c.Ex.Name {
	case "userdel":
		if hasArg(c.Args, "-r", "--remove", "-f", "--force") || hasShortFlag(c.Args, 'r') {
			return hit("userdel -r deletes the user together with their home directory")
		}
	case "deluser":
		if hasArg(c.Args, "--remove-home", "--remove-all-files") {
			return hit("deluser deletes the user's home directory")
		}
	case "dscl": // macOS directory service: dscl . -delete /Users/NAME
		for i, a := range c.Args {
			if strings.EqualFold(a, "-delete") && i+1 < len(c.Args) && strings.HasPrefix(strings.ToLower(c.Args[i+1]), "/users/") {
				return hit("dscl -delete deletes the account " + c.Args[i+1])
			}
		}
	case "sysadminctl":
		if hasArg(c.Args, "-deleteUser") {
			return hit("sysadminctl -deleteUser deletes the account and its home")
		}
	}
	return Finding{}
}

// checkVCSDiscard: other version-control systems' discards of uncommitted
// work (git's are the git.* rules).
func checkVCSDiscard(c *Call) Finding {
	ops := operands(c.Args)
	if len(ops) == 0 {
		return Finding{}
	}
	switch c.Ex.Name {
	case "hg":
		switch ops[0] {
		case "update", "up", "checkout", "co":
			if hasArg(c.Args, "-C", "--clean") {
				return hit("hg update --clean discards uncommitted changes")
			}
		case "revert":
			if hasArg(c.Args, "--all", "-a") && !hasArg(c.Args, "-n", "--dry-run") {
				return hit("hg revert --all discards uncommitted changes")
			}
		case "purge", "clean", "strip", "prune":
			return hit("hg " + ops[0] + " deletes files or commits that cannot be restored")
		}
	case "svn":
		if ops[0] == "revert" && hasArg(c.Args, "-R", "--recursive", "--depth=infinity") {
			return hit("svn revert -R discards uncommitted changes")
		}
	}
	return Finding{}
}

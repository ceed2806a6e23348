package policy

// permRules judge permissions widened or changed recursively.
var permRules = []*Rule{
	{
		ID: "perm.recursive-system", Category: "perm",
		Protects:  "permissions and ownership of system directories, home, and / itself",
		What:      "changes permissions or ownership of a system or home directory tree",
		Safer:     "change only the files in the workspace that need it",
		Unknown:   "Denied in standard mode when the known part of the path is a system directory; a recursive change inside home is denied in strict mode only.",
		DenyMaybe: true,
		Commands:  []string{"chmod", "chown", "chgrp", "setfacl"}, exec: checkPermRecursive,
		Block: []string{`chmod -R 777 /`, `sudo chown -R user /usr`, `chmod -R 755 /etc`, `chmod -R 700 ~`, `setfacl -R -m u:x:rwx /etc`, `chmod 777 /`},
		Allow: []string{`chmod -R u+w build`, `chmod +x script.sh`, `chmod 600 ~/.ssh/config`, `chown user /var/log/app.log`, `chmod -R go-w /usr/local/lib/node_modules`, `chown -R $USER ~/.npm`},
	},
	{
		ID: "perm.widen", Category: "perm",
		Protects: "credentials (made readable or writable by others), shells and interpreters (made setuid), and system paths (any permission, owner, attribute or ACL change)",
		What:     "widens permissions so that others can read, change or run as someone else",
		Safer:    "keep keys 600 and credential directories 700; change permissions only inside the workspace",
		Unknown:  noUnknownStory,
		Commands: []string{"chmod", "chown", "chgrp", "chattr", "chflags", "setfacl", "install", "setcap"}, exec: checkPermWiden,
		Block: []string{`chmod 777 ~/.ssh`, `chmod 644 ~/.ssh/id_rsa`, `chmod o+r ~/.aws/credentials`, `chmod u+s /bin/bash`, `chmod 4755 /usr/bin/python3`, `chown dev /etc/passwd`, `chattr -i /etc/resolv.conf`, `chmod 777 ~`, `setfacl -m u:x:rw /etc/shadow`, `install -m 4755 /bin/bash /tmp/rootbash`, `chmod u+s $(which perl)`, `setcap cap_setuid+ep /usr/bin/python3`, `sudo chflags noschg /bin/ls`, `sudo chflags -R noschg /etc`},
		Allow: []string{`chmod 600 ~/.ssh/id_rsa`, `chmod 700 ~/.ssh`, `chmod 755 script.sh`, `chmod 777 build/tmp`, `chmod u+s ./mytool`, `chown -R dev:dev build`, `chown root:root /etc/sudoers.d/deploy`, `chmod 640 ./certs/server.key`, `setcap cap_net_bind_service=+ep ./bin/server`, `chflags nohidden ~/Library`, `chflags -R nouchg ./build`},
	},
	{
		ID: "perm.find-exec", Category: "perm",
		Protects: "permissions and owners across system directories and home, changed one file at a time by find -exec",
		What:     "changes permissions or owners across a system directory or home",
		Safer:    "change only the files in the workspace that need it",
		Unknown:  noUnknownStory,
		Commands: []string{"find"}, exec: checkFindPerm,
		Block: []string{`find / -exec chmod 777 {} +`, `find ~ -type f -exec chmod 666 {} \;`, `sudo find /etc -exec chown dev {} +`},
		Allow: []string{`find . -type f -exec chmod 644 {} +`, `find src -name '*.sh' -exec chmod +x {} \;`},
	},
}

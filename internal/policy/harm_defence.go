package policy

import (
	"path"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/effects"
)

// serviceDirs hold the links and files that make a service start: one
// deleted or moved away there stops that service for good.
var serviceDirs = []string{"/var/service/", "/etc/service/", "/etc/sv/", "/etc/runlevels/", "/etc/systemd/system/", "/lib/systemd/system/", "/usr/lib/systemd/system/",
	"/Library/LaunchDaemons/", "/Library/LaunchAgents/", "/System/Library/LaunchDaemons/", "/etc/rc.d/", "/usr/local/etc/rc.d/", "/etc/init.d/"}

// harmDefenceStop: a security or logging agent of the inventory stopped,
// disabled, masked, unloaded or killed through any service manager.
var harmDefenceStop = &Rule{
	ID: "harm.defence-stop", Category: "harm",
	Protects: "the security and logging agents of the inventory (internal/effects): auditd, EDR sensors (CrowdStrike Falcon, SentinelOne, Defender, Carbon Black, Elastic, Sophos, ...), osquery, Wazuh/OSSEC, ClamAV, AppArmor, the system logger and journal, log forwarders, macOS XProtect, Gatekeeper, the application firewall, Santa, intrusion detection and brute-force blockers; through systemctl, service, rc-service, rc-update, update-rc.d, chkconfig, sv, launchctl, brew services, sysrc, init.d and rc.d scripts, pkill and killall",
	What:     "stops or disables a security or logging agent",
	Safer:    "ask the user or the machine's administrator; check its status (systemctl status, launchctl print) if that is what the task needs",
	Unknown:  "A service name that cannot be known statically is not judged here.",
	Commands: []string{"*"}, exec: checkDefenceStop,
	Block: []string{
		`sudo systemctl stop falcon-sensor`,
		`sudo launchctl unload -w /Library/LaunchDaemons/com.crowdstrike.falcond.plist`,
		`sudo launchctl bootout system/com.apple.auditd`,
		`sudo rc-service auditd stop`,
		`service osqueryd stop`,
		`sudo pkill -9 wazuh-agentd`,
		`sudo sysrc auditd_enable=NO`,
		`sudo /etc/init.d/clamav-daemon stop`,
		`sudo sv down rsyslog`,
		`sudo killall syslogd`,
		`sudo systemctl mask --now systemd-journald`,
		`sudo rc-update del auditd default`,
		`brew services stop santa`,
		`sudo apt-get purge -y clamav-daemon`,
		`sudo rm /var/service/auditd`,
		`sudo rcctl stop pflogd`,
		`echo 'pass all' | sudo pfctl -f -`,
		`sudo launchctl kickstart -k system/com.crowdstrike.falcond`,
		`sudo sentinelctl unload -a -H -s -k`,
		`sudo log config --mode "level:off"`,
		`sudo /usr/libexec/ApplicationFirewall/socketfilterfw --add /tmp/x`,
		`sudo ipfw add 10 allow ip from any to any`,
		`sudo xattr -rd com.apple.quarantine /Applications`,
		`xattr -d com.apple.quarantine ~/Downloads/Tool.app`,
		`xattr -rc ~/Downloads/Tool.app`,
		`sudo xattr -cr /Applications/Tool.app`,
		`xattr -dr com.apple.quarantine /Volumes/Installer/Setup.app`,
		`sudo env SIGNATURE_TYPE=none pkg add /tmp/agent.pkg`,
		`sudo tmutil addexclusion -p /Users`,
		`sudo codesign --remove-signature /Applications/Slack.app`,
		`sudo installer -pkg /tmp/u.pkg -target / -allowUntrusted`,
		`sudo kill -9 $(pidof auditd)`,
		`sudo aa-disable /etc/apparmor.d/usr.sbin.nginx`,
		`sudo fdesetup disable`,
		`sudo defaults write /Library/Preferences/com.apple.security.libraryvalidation DisableLibraryValidation -bool true`,
		`sc.exe stop WinDefend`,
		`aws cloudtrail stop-logging --name main`,
		`powershell.exe -NoProfile -c "Add-MpPreference -ExclusionPath C:\\"`,
		`aws ec2 authorize-security-group-ingress --group-id sg-1 --protocol tcp --port 22 --cidr 0.0.0.0/0`,
		`aws s3api put-bucket-acl --bucket data --acl public-read`,
		`cp prepared.db ~/Library/Application\ Support/com.apple.TCC/TCC.db`,
		`echo '-e 0' | sudo tee /etc/audit/rules.d/zz.rules`,
		`sqlite3 ~/Library/Application\ Support/com.apple.TCC/TCC.db "insert or replace into access values('kTCCServiceCamera','com.example.app',0,2,4,1,NULL,NULL,0,'UNUSED',NULL,0,1)"`,
		`sudo systemctl stop tetragon`,
		`sudo csf -x`,
		`taskkill.exe /f /im MsMpEng.exe`,
		`grubby --update-kernel=ALL --args="selinux=0"`,
		`powershell.exe -c 'Stop-Service -Name Sysmon64 -Force'`,
	},
	Allow: []string{
		`systemctl status auditd`,
		`sudo systemctl stop nginx`,
		`launchctl list`,
		`sudo service rsyslog restart`,
		`pkill -f 'node server.js'`,
		`sudo systemctl start osqueryd`,
		`sudo rc-update add auditd default`,
		`sudo apt-get remove -y nginx`,
		`rm /tmp/auditd`,
		`kill $(pidof my-server)`,
		`fdesetup status`,
		`sudo pfctl -nf /etc/pf.conf`,
		`launchctl kickstart -k gui/501/com.apple.Dock.agent`,
		`tccutil reset Camera com.example.devapp`,
		`log config --status`,
		`/usr/libexec/ApplicationFirewall/socketfilterfw --getglobalstate`,
		`pfctl -t bruteforce -T show`,
		`xattr -d com.apple.quarantine ./build/bin/app`,
		`xattr -cr build/MyApp.app`,
		`xattr -l ~/Downloads/Tool.app`,
		`xattr -d com.apple.metadata:kMDItemWhereFroms ~/Downloads/report.pdf`,
		`xattr -c /tmp/build-123/App.app`,
		`sudo pkg add ./work/pkg/mytool-1.0.pkg`,
		`tmutil addexclusion ./node_modules`,
		`codesign --remove-signature ./build/Release/App.app`,
		`sudo installer -pkg ./dist/App.pkg -target /`,
		`defaults read com.apple.screensaver askForPassword`,
		`sc.exe query WinDefend`,
		`aws cloudtrail describe-trails`,
		`powershell.exe -c "Get-MpComputerStatus"`,
		`aws ec2 authorize-security-group-ingress --group-id sg-1 --protocol tcp --port 22 --cidr 10.0.0.0/16`,
		`sqlite3 ~/Library/Application\ Support/com.apple.TCC/TCC.db "select service, client from access"`,
		`sudo csf -l`,
		`taskkill.exe /im node.exe /f`,
		`sudo apparmor_parser -r /etc/apparmor.d/usr.bin.firefox`,
		`systemctl status tetragon`,
	},
}

func checkDefenceStop(c *Call) Finding {
	for _, e := range c.effectsOf() {
		if e.Kind == effects.Change && e.Area == effects.Service {
			if e.Path != "" && c.inProject(e.Path) {
				continue // a change to the project's own files (xattr -c build/App.app)
			}
			if d := effects.DefenceNamed(e.Name); d != nil && e.Path != "" {
				return hit(c.Ex.Name + " " + e.Action + " " + e.Path + ", which " + d.What + " then never checks")
			} else if d != nil {
				return hit(c.Ex.Name + " " + e.Action + " " + e.Name + " switches off " + d.What)
			}
		}
		if e.Kind == effects.Write && !c.inProject(e.Path) {
			if o := effects.LookupClass(e.Path, c.Ctx.Home, effects.Protection); o != nil {
				return hit("writes " + o.What + " (" + e.Path + ")")
			}
		}
		if e.Kind == effects.Delete && inServiceDir(e.Path) && e.Path != "" {
			if d := effects.DefenceNamed(path.Base(e.Path)); d != nil {
				return hit("deletes " + e.Path + ", which starts " + d.What)
			}
		}
	}
	// kill -9 $(pidof auditd): the agent killed by its pid.
	if c.Ex.Name == "kill" {
		names, _ := c.processNames()
		for _, n := range names {
			if d := effects.DefenceNamed(n); d != nil {
				return hit("kill " + n + " switches off " + d.What)
			}
		}
	}
	return Finding{}
}

func inServiceDir(p string) bool {
	for _, d := range serviceDirs {
		if strings.HasPrefix(p, d) {
			return true
		}
	}
	return false
}

package policy

import "github.com/gemini-guard/gemini-guard/internal/effects"

// harmDefenceStop: a security or logging agent of the inventory stopped,
// disabled, masked, unloaded or killed through any service manager.
var harmDefenceStop = &Rule{
	ID: "harm.defence-stop", Category: "harm",
	Protects: "the security and logging agents of the inventory (internal/effects): auditd, EDR sensors (CrowdStrike Falcon, SentinelOne, Defender, Carbon Black, Elastic, Sophos, ...), osquery, Wazuh/OSSEC, ClamAV, AppArmor, the system logger and journal, log forwarders, macOS XProtect, Gatekeeper, the application firewall, Santa, intrusion detection and brute-force blockers; through systemctl, service, rc-service, rc-update, update-rc.d, chkconfig, sv, launchctl, brew services, sysrc, init.d and rc.d scripts, pkill and killall",
	What:     "stops or disables a security or logging agent",
	Safer:    "ask the user or the machine's administrator; check its status (systemctl status, launchctl print) if that is what the task needs",
	Unknown:  "A service name that cannot be known statically is not judged here.",
	Commands: allCommands, exec: checkDefenceStop,
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
	},
	Allow: []string{
		`systemctl status auditd`,
		`sudo systemctl stop nginx`,
		`launchctl list`,
		`sudo service rsyslog restart`,
		`pkill -f 'node server.js'`,
		`sudo systemctl start osqueryd`,
		`sudo rc-update add auditd default`,
	},
}

func checkDefenceStop(c *Call) Finding {
	for _, e := range c.effectsOf() {
		if e.Kind == effects.Change && e.Area == effects.Service {
			if d := effects.DefenceNamed(e.Name); d != nil {
				return hit(c.Ex.Name + " " + e.Action + " " + e.Name + " switches off " + d.What)
			}
		}
	}
	return Finding{}
}

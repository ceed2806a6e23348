package effects

import (
	"path"
	"strings"
)

// Defence is a security or logging agent of the inventory: stopping,
// disabling, unloading or killing it takes away what protects the machine
// or records what happened on it.
type Defence struct {
	// Names are path.Match patterns over a service, unit, launchd label or
	// process name, lower case, without .service/.plist/.socket/.timer.
	Names []string
	OS    OS
	What  string
	// Match and NoMatch are names that must and must not match
	// (TestDefenceExamples).
	Match, NoMatch string
}

// Defences is the table of security and logging agents.
func Defences() []Defence { return defences }

// DefenceNamed returns the defence a service, unit, label, plist path or
// process name names, nil if none.
func DefenceNamed(name string) *Defence {
	n := strings.ToLower(path.Base(name))
	for _, suf := range []string{".service", ".plist", ".socket", ".timer", ".target", ".path", ".exe"} {
		n = strings.TrimSuffix(n, suf)
	}
	if d := strings.LastIndexByte(n, '@'); d > 0 {
		n = n[:d] // auditd@x → auditd
	}
	if n == "" {
		return nil
	}
	for i := range defences {
		for _, p := range defences[i].Names {
			if ok, _ := path.Match(p, n); ok {
				return &defences[i]
			}
		}
	}
	return nil
}

var defences = []Defence{
	{Names: []string{"auditd", "audit", "com.apple.auditd", "auditbeat", "go-audit"}, OS: Any, What: "the audit subsystem", Match: "auditd", NoMatch: "audit-report"},
	{Names: []string{"falcon-sensor", "falcond", "falcon", "com.crowdstrike.*", "crowdstrike*"}, OS: Any, What: "CrowdStrike Falcon (endpoint security)", Match: "com.crowdstrike.falcond", NoMatch: "falconry"},
	{Names: []string{"osqueryd", "osquery", "com.facebook.osqueryd", "io.osquery.agent"}, OS: Any, What: "osquery (endpoint monitoring)", Match: "osqueryd", NoMatch: "osqueryi-docs"},
	{Names: []string{"wazuh-agent", "wazuh-agentd", "wazuh-manager", "wazuh", "ossec", "ossec-hids", "com.wazuh.agent"}, OS: Any, What: "Wazuh/OSSEC (host intrusion detection)", Match: "wazuh-agent", NoMatch: "wazuhx-ui"},
	{Names: []string{"clamd", "clamav-daemon", "clamav-freshclam", "freshclam", "clamav-clamonacc", "clamonacc", "clamav*"}, OS: Any, What: "ClamAV (antivirus)", Match: "clamav-daemon", NoMatch: "clam-shell"},
	{Names: []string{"apparmor", "snapd.apparmor"}, OS: Linux, What: "AppArmor (mandatory access control)", Match: "apparmor", NoMatch: "apparmor-utils-docs"},
	{Names: []string{"selinux*", "restorecond", "mcstrans", "setroubleshootd"}, OS: Linux, What: "SELinux", Match: "restorecond", NoMatch: "linux"},
	{Names: []string{"rsyslog", "rsyslogd", "syslog", "syslogd", "syslog-ng", "com.apple.syslogd", "newsyslog", "com.apple.newsyslog", "metalog", "sysklogd", "busybox-syslogd"}, OS: Any, What: "the system logger", Match: "rsyslog", NoMatch: "syslog-summary"},
	{Names: []string{"systemd-journald", "systemd-journald-audit", "journald", "systemd-journal-upload", "systemd-journal-remote"}, OS: Linux, What: "the systemd journal", Match: "systemd-journald", NoMatch: "systemd-journal-flush-docs"},
	{Names: []string{"com.apple.logd", "logd"}, OS: MacOS, What: "macOS unified logging", Match: "com.apple.logd", NoMatch: "logdna"},
	{Names: []string{"com.apple.xprotect*", "xprotect*", "com.apple.mrt*"}, OS: MacOS, What: "macOS XProtect (malware scanning)", Match: "com.apple.xprotectremediator.periodic", NoMatch: "protect"},
	{Names: []string{"com.apple.alf", "com.apple.alf.useragent", "socketfilterfw", "com.apple.pfctl"}, OS: MacOS, What: "the macOS application firewall", Match: "com.apple.alf", NoMatch: "alfred"},
	{Names: []string{"com.apple.syspolicyd", "syspolicyd", "com.apple.security.syspolicy"}, OS: MacOS, What: "Gatekeeper (syspolicyd)", Match: "com.apple.syspolicyd", NoMatch: "policyd"},
	{Names: []string{"com.apple.tccd", "tccd"}, OS: MacOS, What: "the macOS privacy (TCC) daemon", Match: "com.apple.tccd", NoMatch: "tcc"},
	{Names: []string{"mdatp", "wdavdaemon", "com.microsoft.wdav*", "com.microsoft.fresno", "mdatp_audisp_plugin", "microsoft-defender*"}, OS: Any, What: "Microsoft Defender for Endpoint", Match: "com.microsoft.wdav.daemon", NoMatch: "wdav"},
	{Names: []string{"sentinelone", "sentinelagent", "sentinel-agent", "com.sentinelone.*", "sentineld*"}, OS: Any, What: "SentinelOne (endpoint security)", Match: "com.sentinelone.sentineld", NoMatch: "sentinel"},
	{Names: []string{"cbagentd", "cbdaemon", "cbsensor", "carbonblack*", "com.carbonblack.*", "com.vmware.carbonblack*", "cbcloud"}, OS: Any, What: "Carbon Black (endpoint security)", Match: "cbagentd", NoMatch: "cbindex"},
	{Names: []string{"elastic-agent", "elastic-endpoint", "endpoint-security", "co.elastic.*", "filebeat", "packetbeat", "winlogbeat"}, OS: Any, What: "Elastic Agent / Beats (security monitoring)", Match: "elastic-agent", NoMatch: "elasticsearch"},
	{Names: []string{"falco", "falco-*", "sysdig*", "lacework*", "datacollector", "aqua-enforcer", "twistlock*", "tracee", "tetragon", "tetra"}, OS: Linux, What: "a runtime security sensor", Match: "falco-modern-bpf", NoMatch: "falconer"},
	{Names: []string{"sophos*", "com.sophos.*", "sav-protect", "sav-rms"}, OS: Any, What: "Sophos (endpoint security)", Match: "sophos-spl", NoMatch: "sophia"},
	{Names: []string{"cylance*", "com.cylance.*"}, OS: Any, What: "Cylance (endpoint security)", Match: "cylancesvc", NoMatch: "cylinder"},
	{Names: []string{"esets*", "eset*", "com.eset.*"}, OS: Any, What: "ESET (antivirus)", Match: "esets", NoMatch: "reset"},
	{Names: []string{"kesl*", "klnagent*", "kaspersky*", "com.kaspersky.*"}, OS: Any, What: "Kaspersky (endpoint security)", Match: "kesl", NoMatch: "kessel"},
	{Names: []string{"mfetp*", "mcafee*", "ma", "mfeespd", "com.mcafee.*", "trellix*"}, OS: Any, What: "Trellix/McAfee (endpoint security)", Match: "mfetpd", NoMatch: "mfe"},
	{Names: []string{"ds_agent", "ds_filter", "trendmicro*", "tmxbc", "com.trendmicro.*"}, OS: Any, What: "Trend Micro (endpoint security)", Match: "ds_agent", NoMatch: "ds_store"},
	{Names: []string{"taniumclient", "tanium*", "qualys-cloud-agent", "qualys*", "nessusagent", "nessusd", "rapid7*", "ir_agent", "insightagent"}, OS: Any, What: "a vulnerability-management agent", Match: "qualys-cloud-agent", NoMatch: "qual"},
	{Names: []string{"splunkd", "splunk", "splunkforwarder", "splunkuf"}, OS: Any, What: "the Splunk forwarder (log shipping)", Match: "splunkforwarder", NoMatch: "splunker-notes"},
	{Names: []string{"td-agent", "td-agent-bit", "fluentd", "fluent-bit", "nxlog", "vector-agent", "promtail", "grafana-agent", "alloy", "filebeat-oss"}, OS: Any, What: "a log forwarder", Match: "fluent-bit", NoMatch: "fluentui"},
	{Names: []string{"suricata", "snort", "zeek", "bro", "aide", "aidecheck", "tripwire", "samhain", "rkhunter", "chkrootkit", "lynis"}, OS: Unix, What: "an intrusion-detection or integrity checker", Match: "suricata", NoMatch: "suricatta"},
	{Names: []string{"sysmon", "sysmonforlinux", "sysmon-for-linux"}, OS: Linux, What: "Sysmon for Linux", Match: "sysmon", NoMatch: "sysmonitor"},
	{Names: []string{"fail2ban", "crowdsec", "crowdsec-firewall-bouncer", "sshguard", "denyhosts"}, OS: Unix, What: "a brute-force blocker", Match: "fail2ban", NoMatch: "fail"},
	{Names: []string{"firewall", "blacklistd", "pflogd", "ipfilter", "ipf", "ipmon", "npf", "npfd", "kern_securelevel", "securelevel"}, OS: BSD, What: "the BSD firewall or security level", Match: "blacklistd", NoMatch: "firewalls-docs"},
	{Names: []string{"firewalld", "ufw", "nftables", "iptables", "ip6tables", "netfilter-persistent", "ipfw", "pf", "pflog", "shorewall", "opensnitch*", "com.objective-see.*", "lulu", "at.obdev.littlesnitch*", "littlesnitch*", "little snitch*"}, OS: Any, What: "the firewall", Match: "netfilter-persistent", NoMatch: "pfx"},
	{Names: []string{"santa", "santad", "com.google.santa*", "com.northpolesec.santa*"}, OS: MacOS, What: "Santa (binary authorisation)", Match: "com.google.santa.daemon", NoMatch: "santander"},
	{Names: []string{"filevault", "bitlocker", "secureboot", "mdm-profiles", "softwareupdate", "syspatch", "authorizationdb", "loginwindow-password", "pkg-signatures", "timemachine"}, OS: Any, What: "a platform protection (disk encryption, secure boot, updates, device management, login password)", Match: "filevault", NoMatch: "vault"},
	{Names: []string{"windefend", "sense", "wdnissvc", "wdfilter", "mpssvc", "eventlog", "sysmon", "sysmon64", "sysmondrv", "wscsvc", "securityhealthservice", "msmpeng", "mssense", "nissrv", "wuauserv", "vss", "exploit-protection"}, OS: Windows, What: "a Windows defence (Defender, its firewall, the event log, Sysmon, updates, shadow copies)", Match: "windefend", NoMatch: "windows"},
	{Names: []string{"velociraptor*", "velociraptor_client", "grr-client", "fleetd", "kolide-launcher"}, OS: Any, What: "a forensic and response agent (Velociraptor, GRR, Fleet)", Match: "velociraptor_client", NoMatch: "raptor"},
	{Names: []string{"fapolicyd", "usbguard", "usbguard-daemon"}, OS: Linux, What: "an application or device allow-list (fapolicyd, usbguard)", Match: "usbguard", NoMatch: "guard"},
	{Names: []string{"maldet", "linux-malware-detect", "lmd"}, OS: Linux, What: "a malware scanner (Linux Malware Detect)", Match: "maldet", NoMatch: "malden"},
	{Names: []string{"psad", "firehol", "csf", "lfd", "apf", "arno-iptables-firewall"}, OS: Linux, What: "the firewall or port-scan detector", Match: "firehol", NoMatch: "fire"},
	{Names: []string{"cloud-firewall", "cloud-storage-acl", "cloud-audit"}, OS: Any, What: "a cloud account's firewall, storage privacy or audit trail", Match: "cloud-audit", NoMatch: "cloud"},
	{Names: []string{"jamf*", "com.jamf.*", "com.jamfsoftware.*"}, OS: MacOS, What: "Jamf (device management and protection)", Match: "com.jamf.protect.daemon", NoMatch: "jam"},
}

// MetadataEndpoint is an instance metadata service: a cloud VM or
// container's own address that hands out the machine's credentials.
type MetadataEndpoint struct {
	Host string
	What string
	// Secrets are the path prefixes under which it serves credentials or
	// user data; the rest (instance id, region) is ordinary.
	Secrets []string
}

// MetadataEndpoints is the table of metadata services.
func MetadataEndpoints() []MetadataEndpoint { return metadataEndpoints }

var metadataEndpoints = []MetadataEndpoint{
	{Host: "169.254.169.254", What: "the instance metadata service", Secrets: []string{
		"/latest/meta-data/iam", "/latest/meta-data/identity-credentials", "/latest/user-data", // AWS
		"/computeMetadata/v1/instance/service-accounts", "/computeMetadata/v1/instance/attributes", // GCP
		"/metadata/identity", "/metadata/instance/compute/userData", // Azure
		"/opc/v2/identity", "/opc/v1/identity", "/openstack/latest/user_data", "/metadata/v1/user-data", // OCI, OpenStack, DigitalOcean
	}},
	{Host: "fd00:ec2::254", What: "the EC2 metadata service (IPv6)", Secrets: []string{"/latest/meta-data/iam", "/latest/meta-data/identity-credentials", "/latest/user-data"}},
	{Host: "metadata.google.internal", What: "the GCE metadata service", Secrets: []string{"/computeMetadata/v1/instance/service-accounts", "/computeMetadata/v1/instance/attributes", "/computeMetadata/v1/project/attributes"}},
	{Host: "metadata", What: "the GCE metadata service", Secrets: []string{"/computeMetadata/v1/instance/service-accounts", "/computeMetadata/v1/instance/attributes"}},
	{Host: "100.100.100.200", What: "the Alibaba Cloud metadata service", Secrets: []string{"/latest/meta-data/ram", "/latest/user-data"}},
	{Host: "169.254.170.2", What: "the ECS task credentials endpoint", Secrets: []string{"/v2/credentials", "/v2/metadata"}},
}

// MetadataSecret reports whether word (a URL or host/path anywhere in an
// argument) asks a metadata service for credentials or user data, and
// names the service.
func MetadataSecret(word string) (string, bool) {
	for _, m := range metadataEndpoints {
		i := strings.Index(word, m.Host)
		if i < 0 {
			continue
		}
		rest := word[i+len(m.Host):]
		rest = strings.TrimPrefix(rest, "]") // http://[fd00:ec2::254]/...
		if strings.HasPrefix(rest, ":") {    // a port
			if j := strings.IndexByte(rest, '/'); j >= 0 {
				rest = rest[j:]
			}
		}
		if i > 0 && (isHostChar(word[i-1])) {
			continue // notmetadata.google.internal
		}
		for _, s := range m.Secrets {
			if strings.HasPrefix(rest, s) || strings.HasPrefix(strings.ToLower(rest), strings.ToLower(s)) {
				return m.What, true
			}
		}
	}
	return "", false
}

func isHostChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.'
}

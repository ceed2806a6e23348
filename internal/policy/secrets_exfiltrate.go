package policy

import (
	"slices"
	"strings"
)

// Credential files sent over the network or to the clipboard.

var networkSenders = []string{"curl", "wget", "nc", "ncat", "netcat", "socat", "telnet",
	"scp", "sftp", "rsync", "ftp", "http", "https", "xh", "ssh", "rclone",
	"aws", "gsutil", "s3cmd", "mail", "sendmail", "mutt"}

// checkExfiltrate: credential files or the whole environment sent to the
// network.
func checkExfiltrate(c *Call) Finding {
	ex := c.Ex
	if !slices.Contains(networkSenders, ex.Name) {
		return Finding{}
	}
	send := func(what string) Finding {
		return hit(ex.Name + " sends " + what + " over the network")
	}
	readsStdin := ex.Name != "curl" && ex.Name != "wget" && ex.Name != "scp" && ex.Name != "rsync"
	for i, a := range c.Args {
		if ex.Name == "curl" {
			v := ""
			if slices.Contains(curlDataOpts, a) && i+1 < len(c.Args) {
				v = c.Args[i+1]
			} else if strings.HasPrefix(a, "--data") || strings.HasPrefix(a, "--form") || strings.HasPrefix(a, "--upload-file") {
				_, v, _ = strings.Cut(a, "=")
			} else if len(a) > 2 && (strings.HasPrefix(a, "-d") || strings.HasPrefix(a, "-F") || strings.HasPrefix(a, "-T")) && !strings.HasPrefix(a, "--") {
				v = a[2:]
			}
			if v == "" {
				continue
			}
			if _, file, ok := strings.Cut(v, "@"); ok || strings.HasPrefix(a, "-T") || a == "--upload-file" {
				if !ok {
					file = v
				}
				file = strings.TrimPrefix(file, "<")
				if file == "-" {
					readsStdin = true
					continue
				}
				if what, ok := c.sentSecretFile(file); ok {
					return send(what)
				}
			}
		}
		if ex.Name == "wget" {
			if (a == "--post-file" || a == "--body-file") && i+1 < len(c.Args) {
				if what, ok := c.sentSecretFile(c.Args[i+1]); ok {
					return send(what)
				}
			}
			for _, pre := range []string{"--post-file=", "--body-file="} {
				if f, ok := strings.CutPrefix(a, pre); ok {
					if what, ok := c.sentSecretFile(f); ok {
						return send(what)
					}
				}
			}
		}
	}
	if ex.Name == "scp" || ex.Name == "rsync" || ex.Name == "sftp" || ex.Name == "rclone" {
		ops := operands(c.Args)
		if ex.Name == "scp" || ex.Name == "sftp" {
			ops = sshOperands(c.Args)
		}
		for _, o := range ops[:max(0, len(ops)-1)] {
			if what, ok := c.sentSecretFile(o); ok {
				return send(what)
			}
		}
	}
	for _, r := range ex.Redirs {
		if r.Reads() {
			if what, ok := c.sentSecretFile(r.Target); ok {
				return send(what)
			}
		}
	}
	if readsStdin && ex.Stdin != nil {
		for _, p := range ex.Stdin.Producers {
			if isEnvDump(p) {
				return send("every environment variable, secrets included (from " + p.Name + ")")
			}
			if readsClipboard(p) {
				return send("the clipboard (from " + p.Name + "), where passwords are copied to be pasted")
			}
			if (ex.Name == "sftp" || ex.Name == "ftp") && (p.Name == "echo" || p.Name == "printf") {
				// echo 'put ~/.ssh/id_rsa' | sftp host: the batch's uploads.
				for _, a := range p.Args[1:] {
					f := strings.Fields(strings.ReplaceAll(a, `\n`, "\n"))
					for i := 1; i < len(f); i++ {
						if f[i-1] == "put" || f[i-1] == "mput" || f[i-1] == "append" {
							if what, ok := c.sentSecretFile(f[i]); ok {
								return send(what)
							}
						}
					}
				}
			}
			pc := &Call{Ex: p, Res: c.Res, Ctx: c.Ctx}
			if len(p.Args) > 0 {
				pc.Args = p.Args[1:]
			}
			if p.Name != "" && !slices.Contains(safeWithSecrets, p.Name) {
				for _, a := range readArgs(pc) {
					if what, ok := pc.sentSecretFile(a); ok {
						return send(what)
					}
				}
			}
		}
	}
	return Finding{}
}

// sshOperands are scp's and sftp's operands, without the values of their
// options (-i key, -F config, -o setting, -P port, -J jump host …).
func sshOperands(args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if len(a) == 2 && a[0] == '-' && strings.ContainsRune("BbcDFiJlLoPRSsX", rune(a[1])) {
			i++
			continue
		}
		if !strings.HasPrefix(a, "-") {
			out = append(out, a)
		}
	}
	return out
}

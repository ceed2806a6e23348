package shellguard

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/bounded"
	"github.com/gemini-guard/gemini-guard/internal/lazyregexp"
	"github.com/gemini-guard/gemini-guard/internal/state"
)

// The project-host scan is bounded so that a huge workspace costs the hook
// a few milliseconds, not its deadline: what lies beyond the bounds is not
// scanned, and a host named only there stays untrusted (the call is
// denied, failing closed).
const (
	maxHostDepth     = 5        // directory levels below the workspace
	maxHostEntries   = 4000     // directory entries looked at
	maxHostFiles     = 400      // files read
	maxHostFileBytes = 64 << 10 // bytes read of each file
	maxHostBytes     = 2 << 20  // bytes read in all
	maxProjectHosts  = 500
)

// hostSkipDirs hold other people's code, builds and caches: a host named
// there is not one the project chose.
var hostSkipDirs = []string{".git", "node_modules", "vendor", "third_party", ".venv", "venv", "__pycache__", "dist", "build",
	"target", "out", ".next", ".nuxt", ".cache", ".terraform", ".gradle", ".idea", ".vscode", "coverage", "bower_components", "Pods"}

// hostFileExts are the code and configuration files a project names its
// services in. Of its documentation, the README files are read too (the
// project's own words about the services it uses: issue #38), and the
// .env examples (.env.example, .env.sample) with the other .env files.
var hostFileExts = []string{".go", ".py", ".js", ".mjs", ".cjs", ".ts", ".tsx", ".jsx", ".rb", ".php", ".java", ".kt", ".kts",
	".scala", ".cs", ".rs", ".swift", ".dart", ".ex", ".exs", ".sh", ".bash", ".zsh", ".ps1", ".json", ".yaml", ".yml", ".toml",
	".ini", ".cfg", ".conf", ".properties", ".xml", ".tf", ".tfvars", ".hcl", ".gradle", ".sql"}

// hostSkipFiles are lock files: thousands of registry URLs, no choice of
// the project's.
var hostSkipFiles = []string{"package-lock.json", "yarn.lock", "pnpm-lock.yaml", "npm-shrinkwrap.json", "go.sum", "Cargo.lock",
	"poetry.lock", "Pipfile.lock", "composer.lock", "Gemfile.lock", "bun.lockb", "uv.lock"}

// neverProjectHosts are hosts no project's naming makes a safe place for
// a credential: placeholders of examples and tests, and services where
// anyone can receive or read what is sent (request catchers, tunnels,
// paste sites).
var neverProjectHosts = []string{"example.com", "example.org", "example.net", "example", "test", "invalid", "localhost",
	"webhook.site", "requestbin.com", "requestbin.net", "pipedream.net", "ngrok.io", "ngrok-free.app", "ngrok.app",
	"pastebin.com", "paste.ee", "hastebin.com", "transfer.sh", "0x0.st", "termbin.com", "burpcollaborator.net",
	"oastify.com", "interact.sh", "oast.fun", "oast.live", "oast.me", "oast.pro", "oast.site", "oast.online",
	"requestcatcher.com", "beeceptor.com", "hookbin.com", "trycloudflare.com", "localtunnel.me", "loca.lt", "serveo.net"}

var (
	// projectURLHostRe is the text after "://" of a URL written in a
	// file: optional user info, then the host (which a sentence's full
	// stop may end, in a README).
	projectURLHostRe = &lazyregexp.Regexp{Expr: `^(?:[^/\s'"@<>]{0,256}@)?([a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*\.[a-z]{2,})\.?(?:[^a-z0-9.-]|$)`}
	// envHostLineRe finds a .env line giving a host name by itself
	// (API_HOST=api.shop.example).
	envHostLineRe = &lazyregexp.Regexp{Expr: `(?im)^\s*(?:export\s+)?[A-Z0-9_]*(?:HOST|HOSTNAME|DOMAIN|SERVER)\s*=\s*["']?([a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*\.[a-z]{2,})["']?\s*$`}
)

// HostScan says what a project-host scan read: how many files, and which
// of them were documentation and examples (README files, .env examples),
// which a reason names so the user knows where a host would have been
// found.
type HostScan struct {
	Files int      `json:"files"`
	Docs  []string `json:"docs,omitempty"`
}

// maxDocsNamed bounds HostScan.Docs.
const maxDocsNamed = 8

// Describe is the scan for a reason: "12 of the workspace's code,
// configuration and .env files, README.md and .env.example".
func (s HostScan) Describe() string {
	if s.Files == 0 {
		return "no file of the workspace"
	}
	out := fmt.Sprintf("%d of the workspace's code, configuration, .env and README files", s.Files)
	if len(s.Docs) > 0 {
		out += " (" + strings.Join(s.Docs, ", ") + " among them)"
	}
	return out
}

// GatherProjectHosts returns the hosts named in the workspace's code,
// configuration and .env* files: the hosts of the URLs written there, and
// in .env files the values of *_HOST, *_DOMAIN and *_SERVER keys. It
// walks breadth first within the bounds above, skipping dependency,
// build and cache directories, lock files, symbolic links and the files
// in skip (absolute paths: those the agent wrote this session, which
// must not vouch for a host), and reads through fsys (bounded.OS when
// nil). Hosts are lower-cased, unique, sorted, placeholders and
// request-catching services left out. An empty or relative workspace
// gives nothing.
func GatherProjectHosts(workspace string, skip map[string]bool, fsys bounded.FS) []string {
	hosts, _ := gatherProjectHosts(workspace, skip, fsys)
	return hosts
}

// gatherProjectHosts is GatherProjectHosts with what it read.
func gatherProjectHosts(workspace string, skip map[string]bool, fsys bounded.FS) ([]string, HostScan) {
	var scan HostScan
	if workspace == "" || !filepath.IsAbs(workspace) {
		return nil, scan
	}
	if fsys == nil {
		fsys = bounded.OS{}
	}
	found := map[string]bool{}
	entries, files, bytes := 0, 0, 0
	type dir struct {
		path  string
		depth int
	}
	queue := []dir{{workspace, 0}}
	for len(queue) > 0 && entries < maxHostEntries && files < maxHostFiles && bytes < maxHostBytes {
		d := queue[0]
		queue = queue[1:]
		list, err := os.ReadDir(d.path)
		if err != nil {
			continue
		}
		for _, e := range list {
			if entries++; entries > maxHostEntries || files >= maxHostFiles || bytes >= maxHostBytes {
				break
			}
			p := filepath.Join(d.path, e.Name())
			switch {
			case e.IsDir():
				if d.depth+1 <= maxHostDepth && !slices.Contains(hostSkipDirs, e.Name()) {
					queue = append(queue, dir{p, d.depth + 1})
				}
				continue
			case !e.Type().IsRegular(), skip[p], !hostFile(e.Name()):
				continue
			}
			data, _, err := fsys.ReadFile(p, maxHostFileBytes)
			if err != nil {
				continue
			}
			files++
			bytes += len(data)
			if docFile(e.Name()) && len(scan.Docs) < maxDocsNamed {
				if rel, err := filepath.Rel(workspace, p); err == nil {
					scan.Docs = append(scan.Docs, filepath.ToSlash(rel))
				}
			}
			text := string(data)
			urlHosts(text, found)
			if strings.HasPrefix(e.Name(), ".env") {
				for _, m := range envHostLineRe.Get().FindAllStringSubmatch(text, -1) {
					found[strings.ToLower(m[1])] = true
				}
			}
		}
	}
	var out []string
	for h := range found {
		if !neverProjectHost(h) {
			out = append(out, h)
		}
	}
	slices.Sort(out)
	if len(out) > maxProjectHosts {
		out = out[:maxProjectHosts]
	}
	scan.Files = files
	return out, scan
}

// urlHosts adds to found the hosts of the http, https, ws and wss URLs in
// text. It looks only where "://" is (a regular expression over every
// byte of 2 MB cost the hook tens of milliseconds).
func urlHosts(text string, found map[string]bool) {
	for rest := text; ; {
		i := strings.Index(rest, "://")
		if i < 0 {
			return
		}
		scheme := strings.ToLower(rest[max(0, i-5):i])
		after := rest[i+3:]
		rest = after
		if !strings.HasSuffix(scheme, "http") && !strings.HasSuffix(scheme, "https") && !strings.HasSuffix(scheme, "ws") && !strings.HasSuffix(scheme, "wss") {
			continue
		}
		window := strings.ToLower(after[:min(len(after), 512)])
		if m := projectURLHostRe.Get().FindStringSubmatch(window); m != nil {
			found[m[1]] = true
		}
	}
}

func hostFile(name string) bool {
	if strings.HasPrefix(name, ".env") || readme(name) {
		return true
	}
	return !slices.Contains(hostSkipFiles, name) && slices.Contains(hostFileExts, strings.ToLower(filepath.Ext(name)))
}

// readme reports a README file (README, README.md, readme.rst, …).
func readme(name string) bool {
	base := strings.ToLower(name)
	return base == "readme" || strings.HasPrefix(base, "readme.")
}

// docFile reports a file a reason names: a README or a .env example.
func docFile(name string) bool {
	l := strings.ToLower(name)
	return readme(name) || l == ".env.example" || l == ".env.sample" || strings.HasSuffix(l, ".example") && strings.HasPrefix(l, ".env")
}

// neverProjectHost says whether h is, or is under, one of
// neverProjectHosts.
func neverProjectHost(h string) bool {
	for _, n := range neverProjectHosts {
		if h == n || strings.HasSuffix(h, "."+n) {
			return true
		}
	}
	return false
}

// SessionProjectHosts is GatherProjectHosts cached for the session in the
// private state directory (stateDir, state.Dir): a scan costs 20–30 ms on
// a repository of a few hundred files, a cached answer a read. The
// first scan of the session is kept, so a host the agent writes into the
// workspace later never becomes trusted, and neither does one the user
// adds (until the next session). Without a state directory or session, or
// when the record cannot be used, it scans every time. The HostScan says
// what was read, for the reason.
func SessionProjectHosts(stateDir, session, workspace string, skip map[string]bool) ([]string, HostScan) {
	if stateDir == "" || session == "" {
		return gatherProjectHosts(workspace, skip, nil)
	}
	st, err := state.Open(stateDir)
	if err != nil {
		return gatherProjectHosts(workspace, skip, nil)
	}
	var hosts []string
	var scan HostScan
	err = st.Update(state.Key("project-hosts", session, workspace), func(old []byte) ([]byte, error) {
		if cached, cs, ok := decodeHosts(old); ok {
			hosts, scan = cached, cs
			return old, nil
		}
		hosts, scan = gatherProjectHosts(workspace, skip, nil)
		return json.Marshal(hostRecord{Hosts: &hosts, Scan: scan})
	})
	if err != nil {
		return gatherProjectHosts(workspace, skip, nil)
	}
	return hosts, scan
}

// hostRecord is the session's cached scan.
type hostRecord struct {
	Hosts *[]string `json:"hosts"`
	Scan  HostScan  `json:"scan"`
}

// decodeHosts reads a cached record; anything damaged or out of bounds is
// no record.
func decodeHosts(data []byte) ([]string, HostScan, bool) {
	var r hostRecord
	if len(data) == 0 || json.Unmarshal(data, &r) != nil || r.Hosts == nil || len(*r.Hosts) > maxProjectHosts || len(r.Scan.Docs) > maxDocsNamed {
		return nil, HostScan{}, false
	}
	for _, h := range *r.Hosts {
		if m := projectURLHostRe.Get().FindStringSubmatch(h); m == nil || m[1] != h || neverProjectHost(h) {
			return nil, HostScan{}, false
		}
	}
	return *r.Hosts, r.Scan, true
}

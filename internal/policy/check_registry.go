package policy

import (
	"path"
	"slices"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/lazyregexp"
)

// Package registries redirected: every later install of the user (or of
// the project) fetches its packages from a host the command chose. A
// registry given for one install (npm install --registry=…, pip install
// -i …) is seen and used once; a setting persists unseen.

// publicRegistries are the package managers' own registries and the
// proxies their tools name by default.
var publicRegistries = []string{
	"registry.npmjs.org", "registry.npmjs.com", "registry.yarnpkg.com", "npm.pkg.github.com", "registry.npmmirror.com",
	"pypi.org", "pypi.python.org", "files.pythonhosted.org", "test.pypi.org", "download.pytorch.org",
	"rubygems.org", "proxy.golang.org", "goproxy.io", "goproxy.cn", "crates.io", "index.crates.io", "repo.maven.apache.org",
	"jsr.io", "npm.jsr.io",
}

// registryFiles configure where a package manager fetches from.
var registryFiles = []string{".npmrc", "npmrc", ".yarnrc", ".yarnrc.yml", "pip.conf", "pip.ini", ".pydistutils.cfg", "bunfig.toml", ".gemrc", "uv.toml"}

// registrySettingRe finds a registry URL in a configuration file's text.
var registrySettingRe = &lazyregexp.Regexp{Expr: `(?im)^\s*(?:@[\w.-]+:)?(registry|index-url|extra-index-url|index_url|npmRegistryServer|url|:sources)\s*[=:]\s*(?:-\s*)?["']?([a-z][a-z0-9+.-]*://[^\s"']+)`}

// checkRegistryRedirect: npm/pnpm/yarn/bun config set registry, pip config
// set global.index-url, gem sources --add, go env -w GOPROXY=, or a
// registry configuration file written, naming a host that is neither a
// public registry nor local.
func checkRegistryRedirect(c *Call) Finding {
	name, args := c.Ex.Name, c.Args
	var urls []string
	switch name {
	case "npm", "pnpm", "yarn", "bun", "pip", "pip3", "uv":
		ops := operands(args)
		set := slices.Index(ops, "set")
		if set < 0 || set > 1 {
			break
		}
		for i, o := range ops[set+1:] {
			key, v, hasV := strings.Cut(o, "=")
			k := strings.ToLower(key)
			if !strings.Contains(k, "registry") && !strings.Contains(k, "index-url") && !strings.Contains(k, "index_url") {
				continue
			}
			if !hasV && set+2+i < len(ops) {
				v = ops[set+2+i]
			}
			urls = append(urls, v)
		}
	case "gem":
		for i, a := range args {
			if (a == "--add" || a == "-a") && i+1 < len(args) {
				urls = append(urls, args[i+1])
			}
		}
	case "go":
		if hasArg(args, "-w") {
			for _, a := range args {
				if v, ok := strings.CutPrefix(a, "GOPROXY="); ok {
					urls = append(urls, strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == '|' })...)
				}
			}
		}
	}
	// A registry file written with known text (echo … > ~/.npmrc, tee,
	// printf … > pip.conf).
	var targets []string
	for _, r := range c.Ex.Redirs {
		if r.Writes() {
			targets = append(targets, r.Target)
		}
	}
	if name == "tee" {
		targets = append(targets, operands(args)...)
	}
	for _, t := range targets {
		p := c.resolve(t)
		if !slices.Contains(registryFiles, path.Base(p)) {
			continue
		}
		for _, m := range registrySettingRe.Get().FindAllStringSubmatch(c.Res.Written[p], 8) {
			urls = append(urls, m[2])
		}
	}
	for _, u := range urls {
		h := urlHost(c.Res, u)
		if h == "" || localHost(h) || slices.Contains(publicRegistries, h) || u == "direct" || u == "off" {
			continue
		}
		return hit(name + " points the package registry at " + h + ": every later install fetches code from there unseen")
	}
	return Finding{}
}

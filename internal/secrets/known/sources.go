package known

import (
	"path/filepath"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/bounded"
	"github.com/gemini-guard/gemini-guard/internal/credpaths"
	"github.com/gemini-guard/gemini-guard/internal/dotenv"
)

// maxFile is the most of a .env or credential file read: far above any
// real one, and a huge file is no place for a handful of keys.
const maxFile = 256 << 10

// maxEnvFiles bounds how many .env files of the workspace are read.
const maxEnvFiles = 16

// FromEnviron returns the secret values of an environment (os.Environ's
// NAME=value list): the value of every variable SecretName calls secret,
// and the password of every URL with one (DATABASE_URL=postgres://u:p@h),
// whatever the variable's name. Ordinary values are left out by Set.Add.
func FromEnviron(environ []string) []Value {
	var out []Value
	for _, kv := range environ {
		name, value, ok := strings.Cut(kv, "=")
		if !ok || len(value) < MinLen {
			continue
		}
		up := strings.ToUpper(name)
		if strings.HasPrefix(up, "GEMINI_GUARD_") {
			continue
		}
		if pw := urlPassword(value); pw != "" {
			out = append(out, Value{Source: "$" + name + " (password)", Text: pw})
			continue
		}
		if secretNameUpper(up) && !identifierKey(up, value) {
			out = append(out, Value{Source: "$" + name, Text: value, Key: name})
		}
	}
	return out
}

// identifierKey reports whether a variable named *_KEY (up: its name in
// upper case) holds an
// identifier rather than a key (SORT_KEY=created_at_desc,
// PARTITION_KEY=tenant.region): lower-case words joined by '_', '-' or
// '.'. Names that say API key, secret, token or password keep every value.
func identifierKey(up, value string) bool {
	if !strings.HasSuffix(up, "_KEY") || strings.HasSuffix(up, "API_KEY") || strings.Contains(up, "SECRET") || strings.Contains(up, "PRIVATE") {
		return false
	}
	for _, part := range strings.FieldsFunc(value, func(r rune) bool { return r == '_' || r == '-' || r == '.' }) {
		for i := 0; i < len(part); i++ {
			if part[i] < 'a' || part[i] > 'z' {
				return false
			}
		}
	}
	return true
}

// urlPassword is the password of a URL with credentials
// (scheme://user:password@host/…), percent-decoded, or "".
func urlPassword(s string) string {
	i := strings.Index(s, "://")
	if i <= 0 || strings.ContainsAny(s[:i], " \t\n") {
		return ""
	}
	rest := s[i+3:]
	if j := strings.IndexAny(rest, "/?# \t\n"); j >= 0 {
		rest = rest[:j]
	}
	at := strings.LastIndexByte(rest, '@')
	if at < 0 {
		return ""
	}
	_, pw, ok := strings.Cut(rest[:at], ":")
	if !ok {
		return ""
	}
	return percentDecode(pw)
}

func percentDecode(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) && unhex(s[i+1]) >= 0 && unhex(s[i+2]) >= 0 {
			b.WriteByte(byte(unhex(s[i+1])<<4 | unhex(s[i+2])))
			i += 2
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func unhex(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// FromFiles returns the secret values of the workspace's .env files (its
// top directory; not examples or templates: credpaths.EnvFile; read as
// the hosts read them) and of the
// user's credential files with a fixed place in home
// (credpaths.NamedHomeFiles: ~/.aws/credentials, ~/.netrc,
// ~/.docker/config.json, ~/.npmrc, ~/.pypirc, …). Each file is read with
// internal/bounded (size-limited; a FIFO or device is never opened for
// reading), and a file that cannot be read is skipped.
func FromFiles(cwd, home string) []Value {
	var out []Value
	if cwd != "" && filepath.IsAbs(cwd) {
		if names, err := dirNames(cwd); err == nil {
			n := 0
			for _, name := range names {
				if n == maxEnvFiles {
					break
				}
				if !credpaths.EnvFile(name) {
					continue
				}
				n++
				// A directory so named is not read (bounded.ReadFile).
				out = append(out, fromEnvFile(filepath.Join(cwd, name), name)...)
			}
		}
	}
	if home != "" && filepath.IsAbs(home) {
		// One listing of home instead of a failed open per credential
		// file the user does not have (most of them).
		names, err := dirNames(home)
		if err != nil {
			return out
		}
		present := make(map[string]bool, len(names))
		for _, name := range names {
			present[name] = true
		}
		for _, rel := range credpaths.NamedHomeFiles() {
			first, _, _ := strings.Cut(rel, "/")
			if present[first] {
				out = append(out, fromFile(filepath.Join(home, filepath.FromSlash(rel)), "~/"+rel)...)
			}
		}
	}
	return out
}

// maxDirEntries bounds the entries of a directory read: a workspace or home
// with more (a generated tree at the top) costs at most this much, and a
// .env listed after them is not read.
const maxDirEntries = 4096

// fromEnvFile returns the secret values of a .env file, read as the host
// reads it (internal/dotenv, the one reader of the grammar): what
// FromEnviron gives once Gemini CLI has loaded the file (the password of
// a URL, a secret-named key's value), named by the file.
func fromEnvFile(path, shown string) []Value {
	data, _, err := bounded.ReadFile(path, maxFile)
	if err != nil || len(data) == 0 {
		return nil
	}
	var out []Value
	for _, e := range dotenv.Parse(string(data)) {
		if len(e.Value) < MinLen {
			continue
		}
		if pw := urlPassword(e.Value); pw != "" {
			out = append(out, Value{Source: shown + " (URL password)", Text: pw})
			continue
		}
		if SecretKey(e.Key) && !identifierKey(strings.ToUpper(e.Key), e.Value) {
			out = append(out, Value{Source: shown + " (" + e.Key + ")", Text: e.Value, Key: e.Key})
		}
	}
	return out
}

func fromFile(path, shown string) []Value {
	data, _, err := bounded.ReadFile(path, maxFile)
	if err != nil || len(data) == 0 {
		return nil
	}
	var out []Value
	for _, kv := range Assignments(string(data)) {
		out = append(out, Value{Source: shown + " (" + kv[0] + ")", Text: kv[1], Key: lastKeyPart(kv[0])})
	}
	return out
}

// Assignments reads the secret-named assignments of a credential or .env
// file, whatever its format, line by line: KEY=value and export KEY=value
// (.env, .npmrc, properties), key = value and key: value (INI, YAML, the
// AWS credentials), "key": "value" (JSON), netrc's `password value`, and
// any URL with a password (.git-credentials). Quotes around a value are
// removed. It returns (key, value) pairs whose key SecretKey calls secret.
func Assignments(text string) [][2]string {
	var out [][2]string
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(strings.TrimSuffix(line, "\r"))
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		if pw := urlPassword(line); pw != "" {
			out = append(out, [2]string{"URL password", pw})
		}
		if k, v, ok := netrcPassword(line); ok {
			out = append(out, [2]string{k, v})
			continue
		}
		line = strings.TrimPrefix(line, "export ")
		i := strings.IndexAny(line, "=:")
		if strings.HasPrefix(line, "//") {
			i = strings.IndexByte(line, '=') // npm: //registry.npmjs.org/:_authToken=…
		}
		if i <= 0 {
			continue
		}
		key := strings.Trim(strings.TrimSpace(line[:i]), `"'`)
		value := strings.TrimSpace(line[i+1:])
		value = strings.TrimSuffix(value, ",")
		value = unquote(strings.TrimSpace(value))
		if value == "" || strings.ContainsAny(key, " \t") && !strings.HasPrefix(key, "//") || !SecretKey(lastKeyPart(key)) {
			continue
		}
		out = append(out, [2]string{key, value})
	}
	return out
}

// lastKeyPart is a key's last part: npm's //registry.npmjs.org/:_authToken
// is read up to its first colon, so its key part is after the last '/'.
func lastKeyPart(key string) string {
	if i := strings.LastIndexAny(key, "/."); i >= 0 && i+1 < len(key) {
		return key[i+1:]
	}
	return key
}

// netrcPassword finds netrc's `password value` (also after machine and
// login on the same line).
func netrcPassword(line string) (string, string, bool) {
	f := strings.Fields(line)
	if len(f) == 0 || strings.ContainsAny(line, "=:") || f[0] != "machine" && f[0] != "default" && f[0] != "login" && f[0] != "password" {
		return "", "", false
	}
	for i := 0; i+1 < len(f); i++ {
		if f[i] == "password" || f[i] == "passwd" {
			return f[i], f[i+1], true
		}
	}
	return "", "", false
}

func unquote(v string) string {
	if len(v) >= 2 && (v[0] == '"' && v[len(v)-1] == '"' || v[0] == '\'' && v[len(v)-1] == '\'') {
		return v[1 : len(v)-1]
	}
	if i := strings.Index(v, " #"); i >= 0 && v[0] != '"' && v[0] != '\'' {
		v = strings.TrimSpace(v[:i]) // a comment after an unquoted value
	}
	return v
}

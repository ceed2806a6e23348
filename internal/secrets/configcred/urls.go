package configcred

import (
	"net/url"
	"strings"
)

// urlShaped: the text holds :// and @.
func urlShaped(text string) bool { return strings.Contains(text, "://") && strings.Contains(text, "@") }

// readURLs reads every scheme://user:password@host in text (pip's
// index-url, .git-credentials, a Mongo or Redis URL, a JDBC URL): the
// password is a credential. The authority runs to the first space, quote
// or angle bracket; the user-info ends at its last @ before a /. A
// password is often written unescaped, so # ? and % do not end it here,
// as they would for net/url, which checks the scheme and host instead.
func readURLs(text string, out *[]Credential) {
	for from := 0; ; {
		i := strings.Index(text[from:], "://")
		if i < 0 {
			return
		}
		i += from
		from = i + 3
		if !schemeBefore(text, i) {
			continue
		}
		auth := from
		end := auth
		for end < len(text) && end-auth < maxAuthority && !urlStop(text[end]) {
			end++
		}
		at := -1
		for j := auth; j < end && text[j] != '/'; j++ {
			if text[j] == '@' {
				at = j
			}
		}
		if at < 0 {
			continue
		}
		colon := strings.IndexByte(text[auth:at], ':')
		if colon < 0 || !hostAfter(text, at+1, end) || exampleURL(text[auth:auth+colon], text[at+1:end]) {
			continue
		}
		switch {
		case exampleLine(text, i):
		case defaultLogin(text[auth:auth+colon], text[auth+colon+1:at], text[max(0, i-32):i]):
			// user:user (postgres:postgres, guest:guest) or the scheme's
			// name (redis://:redis@…) is a fresh install's default
			*out = append(*out, Credential{Format: "url", KeyPath: "URL password", Start: auth + colon + 1, End: at, Why: Placeholder})
		default:
			add(out, text, "url", "URL password", auth+colon+1, at)
		}
		from = at + 1
	}
}

// maxAuthority is the longest URL authority read.
const maxAuthority = 2048

// schemeBefore reports whether a URL scheme ends at i.
func schemeBefore(text string, i int) bool {
	j := i
	for j > 0 && i-j < 32 && (isAlnum(text[j-1]) || text[j-1] == '+' || text[j-1] == '.' || text[j-1] == '-') {
		j--
	}
	if j == i {
		return false
	}
	_, err := url.Parse(text[j:i] + "://host")
	return err == nil
}

// hostAfter reports whether a host name starts at i (net/url agrees).
func hostAfter(text string, i, end int) bool {
	if i >= end || !(isAlnum(text[i]) || text[i] == '[') {
		return false
	}
	j := i
	for j < end && text[j] != '/' && text[j] != '?' && text[j] != '#' {
		j++
	}
	u, err := url.Parse("x://" + text[i:j])
	return err == nil && u.Hostname() != ""
}

// exampleURL: an anonymous login, or a host that documentation uses and
// nothing can reach (RFC 2606: example.com/.net/.org, *.example, *.test,
// *.invalid), as the url-password rule's allowlist says.
func exampleURL(user, rest string) bool {
	if strings.EqualFold(user, "anonymous") {
		return true
	}
	host := strings.ToLower(rest)
	if i := strings.IndexAny(host, "/?#"); i >= 0 {
		host = host[:i]
	}
	if i := strings.LastIndexByte(host, ':'); i >= 0 && !strings.HasSuffix(host, "]") {
		host = host[:i]
	}
	for _, s := range []string{".example", ".test", ".invalid", "example.com", "example.net", "example.org"} {
		if strings.HasSuffix(host, s) {
			return true
		}
	}
	return false
}

// defaultLogin reports whether a URL's password is its user's name or its
// scheme's (before holds the scheme, at its end).
func defaultLogin(user, password, before string) bool {
	return password == user || strings.HasSuffix(strings.ToLower(before), strings.ToLower(password))
}

// exampleLine: the line around i says it shows an example (example:,
// for example, e.g.).
func exampleLine(text string, i int) bool {
	from, to := max(0, i-200), min(len(text), i+200)
	start := from + strings.LastIndexByte(text[from:i], '\n') + 1
	end := strings.IndexByte(text[i:to], '\n')
	if end < 0 {
		end = to
	} else {
		end += i
	}
	l := strings.ToLower(text[start:end])
	return strings.Contains(l, "example:") || strings.Contains(l, "for example") || strings.Contains(l, "e.g.")
}

func urlStop(c byte) bool {
	return c <= ' ' || c == '"' || c == '\'' || c == '`' || c == '<' || c == '>' || c == '\\'
}

func isAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// connShaped: the text holds a connection string's password key.
func connShaped(text string) bool {
	l := strings.ToLower(text)
	return strings.Contains(l, "password=") || strings.Contains(l, "pwd=") || strings.Contains(l, "password =")
}

// connKeys are the keys that, with a password key in the same string, say
// it is a connection string (ADO.NET, ODBC, libpq, JDBC's query).
func connKey(k string) bool {
	switch strings.ToLower(strings.TrimSpace(k)) {
	case "server", "host", "hostaddr", "data source", "datasource", "address", "addr", "database", "dbname", "initial catalog",
		"user", "user id", "userid", "uid", "username", "port", "driver", "dsn", "sslmode", "provider", "integrated security":
		return true
	}
	return false
}

// readConnStrings reads connection strings wherever they are: runs of
// key=value pairs separated by ; (ADO.NET, ODBC), spaces (libpq) or &
// (a JDBC or URL query), holding a server, host, database or user key
// beside a password key: the password's value is a credential.
func readConnStrings(text string, out *[]Credential) {
	for _, l := range splitLines(text) {
		for _, sep := range []byte{';', ' ', '&'} {
			connPairs(text, l, sep, out)
		}
	}
}

// connPairs reads one line as pairs separated by sep.
func connPairs(text string, l line, sep byte, out *[]Credential) {
	type pair struct {
		key        string
		start, end int
	}
	var pairs []pair
	context := false
	s := l.text
	for i := 0; i <= len(s); {
		j := i
		for j < len(s) && s[j] != sep && !(sep != ' ' && (s[j] == '"' || s[j] == '\'')) {
			j++
		}
		seg := s[i:j]
		if q := strings.LastIndexByte(seg, '?'); q >= 0 && sep == '&' {
			seg, i = seg[q+1:], i+q+1 // a URL's query starts after its ?
		}
		if eq := strings.IndexByte(seg, '='); eq > 0 {
			key := seg[:eq]
			if k := strings.LastIndexAny(key, "?\"'(,"); k >= 0 {
				key = key[k+1:]
			}
			vs, ve := i+eq+1, j
			if q := strings.IndexAny(s[vs:ve], "\"'`"); sep == ' ' && q >= 0 {
				ve = vs + q // libpq inside a quoted string: the string ends it
			}
			for vs < ve && s[vs] == ' ' && sep != ' ' {
				vs++
			}
			for ve > vs && strings.IndexByte(" \t\"'`;", s[ve-1]) >= 0 {
				ve--
			}
			if connKey(key) {
				context = true
			}
			if passwordKey(key) {
				pairs = append(pairs, pair{strings.TrimSpace(key), vs, ve})
			}
		}
		i = j + 1
	}
	if !context {
		return
	}
	for _, p := range pairs {
		add(out, text, "connection-string", p.key, l.start+p.start, l.start+p.end)
	}
}

func passwordKey(k string) bool {
	switch strings.ToLower(strings.TrimSpace(k)) {
	case "password", "pwd", "passwd", "pass":
		return true
	}
	return false
}

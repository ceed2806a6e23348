// Package configcred finds credentials in configuration files by the
// file's own grammar: it reads a text as the format it is (JSON, YAML,
// XML, INI/TOML/properties/HCL assignments, .env, .netrc, .pgpass, PHP
// define(), URLs and connection strings wherever they appear) into key
// paths and values, and calls a value a credential by where it stands (a
// credential-named key, a URL's password, the fifth field of a .pgpass
// line, netrc's password), never by which characters it has. A value that
// is a reference (${VAR}, $VAR, %(x)s, <%= ENV[…] %>, {{ … }}, var.x,
// getenv(…)), a placeholder, ciphertext (SOPS, Ansible Vault, age) or
// empty is not one.
//
// There is no file path where texts are scanned: the format is sniffed
// from the content, and a text that no reader accepts gives nothing (the
// regular rules still run on it).
package configcred

import (
	"sort"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/secrets/keyname"
)

// MaxText is the largest text Find reads; a longer one gives nothing.
const MaxText = 1 << 20

// RuleID is the rule id the detector reports these findings under.
const RuleID = "config-credential"

// Credential is one credential value found in a text.
type Credential struct {
	// Format names the grammar that read it (json, yaml, ini, netrc, …).
	Format string
	// KeyPath is where the value stands (spring.datasource.password,
	// [client] password, URL password); never the value.
	KeyPath string
	// Start and End are the value's byte range in the text, exactly as
	// written (inside quotes).
	Start, End int
	// Secret says the value is a secret (see Secret); Read also returns
	// the values in credential positions that are not (references,
	// placeholders, ciphertext), with Why they are not.
	Secret bool
	Why    Why
}

// reader reads one format; it appends what it finds to out.
type reader struct {
	format string
	// shaped is a cheap test that the text may be this format.
	shaped func(text string) bool
	read   func(text string, out *[]Credential)
}

// readers are the formats in the order they are tried. A function, not a
// package variable: nothing is built at start-up.
func readers() []reader {
	return []reader{
		{"json", jsonShaped, readJSON},
		{"xml", xmlShaped, readXML},
		{"yaml", yamlShaped, readYAML},
		{"env", envShaped, readEnv},
		{"ini", linesShaped, readLines},
		{"netrc", netrcShaped, readNetrc},
		{"pgpass", pgpassShaped, readPgpass},
		{"php", phpShaped, readPHP},
		{"url", urlShaped, readURLs},
		{"connection-string", connShaped, readConnStrings},
	}
}

// Find returns the credentials in text, sorted by Start, each range once.
// It never panics and does work linear-ish in the text; a text longer than
// MaxText, or with no credential-ish word and no URL user-info, gives nil.
func Find(text string) []Credential {
	var out []Credential
	for _, c := range Read(text) {
		if c.Secret {
			out = append(out, c)
		}
	}
	return out
}

// Read returns every non-empty value in a credential position of text,
// secret or not (Credential.Secret), sorted by Start, each range once.
// The detector uses the values that are not secrets to drop a
// surroundings-anchored rule's finding of one (a reference or a
// placeholder where a password goes).
func Read(text string) []Credential {
	if len(text) > MaxText || !worthReading(text) {
		return nil
	}
	var out []Credential
	for _, r := range readers() {
		if r.shaped(text) {
			safely(func() { r.read(text, &out) })
		}
	}
	return tidy(text, out)
}

// safely runs f, turning a panic (a third-party parser's) into nothing
// found by it.
func safely(f func()) {
	defer func() { _ = recover() }()
	f()
}

// tidy keeps the findings whose range is inside text and non-empty,
// sorted by Start; of findings whose ranges overlap (two readers of one
// value) it keeps the first and longest.
func tidy(text string, found []Credential) []Credential {
	out := found[:0]
	for _, c := range found {
		if 0 <= c.Start && c.Start < c.End && c.End <= len(text) {
			out = append(out, c)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Start != out[j].Start {
			return out[i].Start < out[j].Start
		}
		if out[i].End != out[j].End {
			return out[i].End > out[j].End
		}
		return out[i].Secret && !out[j].Secret
	})
	kept := out[:0]
	for _, c := range out {
		if n := len(kept); n > 0 && c.Start < kept[n-1].End {
			continue
		}
		kept = append(kept, c)
	}
	return kept
}

// worthReading is the cheap "nothing here" test: a credential-ish word, a
// URL's user-info (://…@), or a line of colon-separated fields (.pgpass).
func worthReading(text string) bool {
	if strings.Contains(text, "@") && strings.Contains(text, "://") {
		return true
	}
	if strings.Count(text, ":") >= 4 {
		return true
	}
	return holdsCredentialWord(text)
}

// holdsCredentialWord reports whether text holds, in any case, a word that
// credential-named keys hold (pass, pwd, secret, token, auth, key,
// credential).
func holdsCredentialWord(text string) bool {
	for i := 0; i+3 <= len(text); i++ {
		switch lower(text[i]) {
		case 'p':
			if hasFold(text[i:], "pass") || hasFold(text[i:], "pwd") {
				return true
			}
		case 's':
			if hasFold(text[i:], "secret") {
				return true
			}
		case 't':
			if hasFold(text[i:], "token") {
				return true
			}
		case 'a':
			if hasFold(text[i:], "auth") {
				return true
			}
		case 'k':
			if hasFold(text[i:], "key") {
				return true
			}
		case 'c':
			if hasFold(text[i:], "credential") {
				return true
			}
		}
	}
	return false
}

func hasFold(s, p string) bool { return len(s) >= len(p) && strings.EqualFold(s[:len(p)], p) }

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// CredentialKey reports whether a key path's last key names a credential:
// keyname.SecretKey, the one list the guard keeps, of the last part of the
// key (npm's //registry/:_authToken, a dotted properties path).
func CredentialKey(key string) bool {
	key = strings.Trim(key, `"' `)
	if len(key) > 100 || strings.ContainsAny(key, "<>\"'(){}= \t") {
		return false // markup or prose, not a key
	}
	if i := strings.LastIndexAny(key, "/.:"); i >= 0 && i+1 < len(key) {
		key = key[i+1:]
	}
	return key != "" && keyname.SecretKey(key)
}

// add appends the value at text[start:end], judged by Secret, when the
// range is inside text and not empty.
func add(out *[]Credential, text, format, keyPath string, start, end int) {
	if start < 0 || end > len(text) || start >= end {
		return
	}
	why := Judge(text[start:end])
	if why == IsSecret && strings.Contains(strings.ToLower(keyPath), "encrypt") {
		why = Ciphertext // encryptedData (a sealed secret), encrypted_api_key (KMS)
	}
	*out = append(*out, Credential{Format: format, KeyPath: keyPath, Start: start, End: end, Secret: why == IsSecret, Why: why})
}

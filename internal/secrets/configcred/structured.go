package configcred

import (
	"encoding/json"
	"encoding/xml"
	"errors"
	"io"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// jsonShaped: the text starts with { (after spaces).
func jsonShaped(text string) bool {
	t := strings.TrimSpace(text)
	return strings.HasPrefix(t, "{") && strings.HasSuffix(t, "}")
}

// jsonFrame is one open JSON container.
type jsonFrame struct {
	object    bool
	expectKey bool
	key       string
	// names is set inside an object that maps package names or scripts
	// (jsonNamesMap) at any depth above.
	names bool
}

// readJSON reads a JSON document with encoding/json's tokenizer, which
// gives the offset after each token: a string value ends one byte before
// it, and is placed when the text there is the value as written (a value
// with escapes is not placed).
func readJSON(text string, out *[]Credential) {
	if !json.Valid([]byte(text)) {
		return
	}
	dec := json.NewDecoder(strings.NewReader(text))
	var stack []jsonFrame
	path := func() string {
		keys := make([]string, 0, len(stack))
		for _, f := range stack {
			if f.object && f.key != "" {
				keys = append(keys, f.key)
			}
		}
		return strings.Join(keys, ".")
	}
	for {
		tok, err := dec.Token()
		if err != nil {
			return
		}
		top := len(stack) - 1
		switch t := tok.(type) {
		case json.Delim:
			if t == '{' || t == '[' {
				names := top >= 0 && (stack[top].names || stack[top].object && jsonNamesMap(stack[top].key))
				stack = append(stack, jsonFrame{object: t == '{', expectKey: t == '{', names: names})
				continue
			}
			stack = stack[:top]
		case string:
			if top >= 0 && stack[top].object && stack[top].expectKey {
				stack[top].key, stack[top].expectKey = t, false
				continue
			}
			if top >= 0 && stack[top].object && jsonCredential(stack) {
				end := int(dec.InputOffset()) - 1
				if start := end - len(t); start >= 0 && text[start:end] == t {
					add(out, text, "json", path(), start, end)
				}
			}
		}
		if top = len(stack) - 1; top >= 0 && stack[top].object {
			stack[top].expectKey = true
		}
	}
}

// jsonCredential: the current key names a credential, or its object is
// one of composer's token maps (host → token).
func jsonCredential(stack []jsonFrame) bool {
	top := len(stack) - 1
	if stack[top].names {
		return false
	}
	if CredentialKey(stack[top].key) {
		return true
	}
	if top > 0 && stack[top-1].object {
		switch stack[top-1].key {
		case "github-oauth", "gitlab-oauth", "gitlab-token", "bearer":
			return true
		}
	}
	return false
}

// jsonNamesMap reports whether the object under key maps names of
// packages, scripts or paths to versions and commands (package.json,
// composer.json, tsconfig): its keys name no credential.
func jsonNamesMap(key string) bool {
	switch key {
	case "dependencies", "devDependencies", "peerDependencies", "optionalDependencies", "bundleDependencies",
		"bundledDependencies", "overrides", "resolutions", "scripts", "bin", "engines", "exports", "imports",
		"typesVersions", "require", "require-dev", "suggest", "provide", "replace", "conflict", "paths", "packages":
		return true
	}
	return false
}

// xmlShaped: the text starts with <.
func xmlShaped(text string) bool { return strings.HasPrefix(strings.TrimSpace(text), "<") }

// readXML reads an XML config with encoding/xml: an element named for a
// credential (Maven's <password>) holds one; so does an attribute named
// for one, and the value attribute of an element whose key attribute
// names one (NuGet's <add key="ClearTextPassword" value="…"/>, .NET
// appSettings).
func readXML(text string, out *[]Credential) {
	dec := xml.NewDecoder(strings.NewReader(text))
	dec.Strict = false
	var names []string
	prev := 0
	for {
		tok, err := dec.RawToken()
		if err != nil {
			return
		}
		off := int(dec.InputOffset())
		if off < prev || off > len(text) {
			return
		}
		switch t := tok.(type) {
		case xml.StartElement:
			names = append(names, t.Name.Local)
			xmlAttrs(text, prev, off, t, strings.Join(names, "/"), out)
		case xml.EndElement:
			if len(names) > 0 {
				names = names[:len(names)-1]
			}
		case xml.CharData:
			if len(names) > 0 && CredentialKey(names[len(names)-1]) {
				raw := text[prev:off]
				v := strings.TrimSpace(string(t))
				if i := strings.Index(raw, v); v != "" && i >= 0 && !strings.Contains(raw, "&") {
					add(out, text, "xml", strings.Join(names, "/"), prev+i, prev+i+len(v))
				}
			}
		}
		prev = off
	}
}

// xmlAttrs places the credential attributes of a start tag text[from:to].
func xmlAttrs(text string, from, to int, t xml.StartElement, path string, out *[]Credential) {
	keyed := false
	for _, a := range t.Attr {
		if l := strings.ToLower(a.Name.Local); (l == "key" || l == "name") && CredentialKey(a.Value) {
			keyed = true
		}
	}
	for _, a := range t.Attr {
		l := strings.ToLower(a.Name.Local)
		if !(CredentialKey(a.Name.Local) || keyed && l == "value") {
			continue
		}
		raw := text[from:to]
		for _, q := range []string{`"`, `'`} {
			lead := a.Name.Local + "=" + q + a.Value + q
			if i := strings.Index(raw, lead); i >= 0 {
				s := from + i + len(a.Name.Local) + 2
				add(out, text, "xml", path+"@"+a.Name.Local, s, s+len(a.Value))
				break
			}
		}
	}
}

// yamlShaped: not JSON, and some line is `key:` with a credential-named
// key, or a list item KEY=value with one (parsing YAML costs more than
// the rest together: a text without such a line is not parsed).
func yamlShaped(text string) bool {
	if jsonShaped(text) || !strings.Contains(text, ":") {
		return false
	}
	found := false
	eachLine(text, func(l line) bool {
		t := strings.TrimLeft(l.text, " \t")
		t = strings.TrimPrefix(t, "- ")
		if i := strings.IndexByte(t, ':'); i > 0 && CredentialKey(t[:i]) {
			found = true
		} else if i := strings.IndexByte(t, '='); i > 0 && CredentialKey(t[:i]) {
			found = true
		}
		return !found
	})
	return found
}

// readYAML reads each YAML document whose root is a mapping with
// go.yaml.in/yaml/v3 and walks its key paths; a scalar's line and column
// place it in the text, and it is placed only when the text there is the
// value as written.
func readYAML(text string, out *[]Credential) {
	lines := splitLines(text)
	dec := yaml.NewDecoder(strings.NewReader(text))
	for {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) || err != nil {
			return
		}
		if len(doc.Content) == 1 && doc.Content[0].Kind == yaml.MappingNode {
			walkYAML(text, lines, doc.Content[0], "", out)
		}
	}
}

func walkYAML(text string, lines []line, n *yaml.Node, path string, out *[]Credential) {
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			p := joinPath(path, k.Value)
			if v.Kind == yaml.ScalarNode && CredentialKey(k.Value) && yamlString(v) {
				if s, ok := yamlOffset(text, lines, v); ok {
					add(out, text, "yaml", p, s, s+len(v.Value))
				}
				continue
			}
			walkYAML(text, lines, v, p, out)
		}
	case yaml.SequenceNode:
		for _, c := range n.Content {
			if c.Kind == yaml.ScalarNode && c.Style&(yaml.LiteralStyle|yaml.FoldedStyle) == 0 {
				yamlEnvItem(text, lines, c, path, out)
				continue
			}
			walkYAML(text, lines, c, path, out)
		}
	}
}

// yamlEnvItem reads a sequence item KEY=value (a compose file's
// environment list).
func yamlEnvItem(text string, lines []line, c *yaml.Node, path string, out *[]Credential) {
	eq := strings.IndexByte(c.Value, '=')
	if eq <= 0 || !CredentialKey(c.Value[:eq]) {
		return
	}
	if s, ok := yamlOffset(text, lines, c); ok {
		add(out, text, "yaml", joinPath(path, c.Value[:eq]), s+eq+1, s+len(c.Value))
	}
}

func joinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// yamlString: a scalar that is a string (not a number, boolean or null
// the file typed as such, not a !vault ciphertext).
func yamlString(v *yaml.Node) bool {
	switch v.Tag {
	case "!!int", "!!float", "!!bool", "!!null", "!vault":
		return false
	}
	return v.Style&(yaml.LiteralStyle|yaml.FoldedStyle) == 0
}

// yamlOffset is where a one-line scalar's value starts in text (after its
// quote), when the text there is the value as written.
func yamlOffset(text string, lines []line, v *yaml.Node) (int, bool) {
	if v.Line < 1 || v.Line > len(lines) || v.Column < 1 || v.Column > maxQuoted {
		return 0, false
	}
	l := lines[v.Line-1]
	i := 0
	for col := 1; col < v.Column && i < len(l.text); col++ {
		_, size := utf8.DecodeRuneInString(l.text[i:])
		i += size
	}
	if v.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0 {
		i++
	}
	s := l.start + i
	if s+len(v.Value) > len(text) || text[s:s+len(v.Value)] != v.Value {
		return 0, false
	}
	return s, true
}

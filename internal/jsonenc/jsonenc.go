// Package jsonenc encodes JSON as gemini-guard writes it everywhere: with
// <, > and & left as they are. encoding/json escapes them for HTML by
// default, but what the guard writes (hook answers, reasons that quote
// shell commands and code, audit lines, reports) is read by people and
// models, never embedded in a web page.
package jsonenc

import (
	"bytes"
	"encoding/json"
	"io"
)

// NewEncoder is json.NewEncoder without HTML escaping.
func NewEncoder(w io.Writer) *json.Encoder {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc
}

// Marshal is json.Marshal without HTML escaping.
func Marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	if err := NewEncoder(&b).Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

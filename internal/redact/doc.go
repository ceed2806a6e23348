// Package redact is the streaming redactor: it hides the secrets a
// secrets.Scanner finds in text that arrives in chunks (the model's answer)
// or whole (a tool's output, a request to the model), also when a secret is
// split across chunks, and shows every other byte unchanged, only later when
// it could still have become part of a secret.
//
// How far text may be shown and when to scan is the prefilter's decision
// (internal/secrets/prefilter); the stream (stream.go: Push, Flush), the
// session of several answers between hook processes (session.go: Next) and
// its record format (encode.go) are here. The hook around it is
// internal/redactguard.
package redact

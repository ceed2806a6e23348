// Package attack holds no code: its tests run adversarial inputs against
// the built hook binaries the way Gemini CLI runs them (bash -c, JSON on
// stdin) — inputs that cost a hook time and tampering with the guard's own
// machinery (the scanner's socket, the redactor's state) — and check that
// every hook answers its event's fail-safe well within its hooks.json
// timeout (issue 17, "fail open by time").
package attack

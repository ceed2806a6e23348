// Package version holds gemini-guard's version. It must equal the version in
// gemini-extension.json (a test checks): Gemini CLI compares that one with
// release tags when it updates the extension.
package version

// Version is the release version, semver without a leading v.
const Version = "0.1.0"

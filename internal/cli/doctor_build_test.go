package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/bundle"
)

// buildDir holds the staged extension; TestMain removes it.
var buildDir string

func TestMain(m *testing.M) {
	// Scanner daemons that `scan` and the real hooks start keep their
	// sockets here, not in the user's runtime directory; they exit soon
	// after it is removed.
	run, err := os.MkdirTemp("", "gemini-guard-cli-run-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	os.Setenv("XDG_RUNTIME_DIR", run)
	code := 2
	if err := buildScanner(); err != nil {
		fmt.Fprintln(os.Stderr, "building guard-scanner:", err)
	} else {
		code = m.Run()
	}
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
	os.RemoveAll(run)
	os.Exit(code)
}

// buildScanner puts guard-scanner beside the test binary, where `scan`'s
// scanner client looks for it, as it lies beside gemini-guard in bin/.
func buildScanner() error {
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	cmd := exec.Command("go", "build", "-tags", bundle.BuildTags, "-o", filepath.Join(filepath.Dir(exe), "guard-scanner"+exeSuffix()), "../../cmd/guard-scanner")
	cmd.Stderr = os.Stderr
	return cmd.Run()
}

// builtExtension stages the real extension (every program of cmd/ built for
// the host, hooks.json, policies, context) once per test binary, as `make
// build` and `make install` lay it out.
var builtExtension = sync.OnceValues(func() (string, error) {
	root, err := bundle.FindRoot(".")
	if err != nil {
		return "", err
	}
	dir, err := os.MkdirTemp("", "gemini-guard-doctor-build-")
	if err != nil {
		return "", err
	}
	buildDir = dir
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	ext := filepath.Join(dir, "gemini-guard")
	return ext, bundle.Stage(ctx, root, ext, bundle.Host())
})

func realExtension(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: building the extension takes a while")
	}
	if runtime.GOOS == "windows" {
		t.Skip("doctor's live checks need bash")
	}
	ext, err := builtExtension()
	require.NoError(t, err)
	return ext
}

// doctor against the real hook programs, built from this repository: the
// structure is sound, every live check ran through the real hook commands,
// and no answer showed the credential doctor planted.
func TestDoctorOnTheBuiltExtension(t *testing.T) {
	ext := realExtension(t)
	code, r, raw := doctorJSON(t, map[string]string{"HOME": t.TempDir()}, ext)
	for _, c := range r.Checks {
		if c.Name == "gemini cli" && c.Status == statusSkip {
			continue // no gemini on PATH here: its version cannot be told
		}
		if (c.Name == "antigravity cli" || c.Name == "codex cli") && c.Status == statusSkip {
			continue // not registered with agy in this HOME
		}
		if c.Name == "claude code" && c.Status == statusSkip {
			continue // not registered with Claude Code in this HOME
		}
		if c.Name == "latency" && c.Status == statusWarn {
			continue // timing is measured, not judged, in a test (make bench)
		}
		assert.Equal(t, statusOK, c.Status, "%s: %s", c.Name, c.Detail)
	}
	assert.True(t, r.Healthy, raw)
	assert.Equal(t, 0, code)
	assert.NotContains(t, raw, doctorSecret())
	assert.Len(t, r.Latency, 3, "each guard's latency was measured")
	t.Logf("doctor on the built extension (healthy=%t): latency %v", r.Healthy, r.Latency)
}

// The built bin/gemini-guard finds its own extension when it is not
// installed in ~/.gemini, and answers as Main does.
func TestBuiltProgramRunsDoctorOnItself(t *testing.T) {
	ext := realExtension(t)
	cmd := exec.Command(filepath.Join(ext, "bin", "gemini-guard"), "doctor", "--json")
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir())
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var r doctorReport
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &r), "stdout %q stderr %q", stdout.String(), stderr.String())
	assert.Equal(t, ext, r.Extension)
	assert.Contains(t, r.Found, "running program")
	assert.True(t, r.Healthy, stdout.String())
	assert.NoError(t, err)
}

// With the audit log on, the real hooks record doctor's blocks, and doctor
// finds them there without the credential it planted.
func TestDoctorFindsTheRealHooksAuditEntries(t *testing.T) {
	ext := realExtension(t)
	logPath := filepath.Join(t.TempDir(), "audit.jsonl")
	t.Setenv("GEMINI_GUARD_AUDIT_LOG", logPath) // the hook processes inherit it
	code, r, raw := doctorJSON(t, map[string]string{"HOME": t.TempDir(), "GEMINI_GUARD_AUDIT_LOG": logPath}, ext)
	assert.Equal(t, 0, code, raw)
	assert.Equal(t, statusOK, statusOf(r)["audit log"], detailOf(r, "audit log"))
	assert.Contains(t, detailOf(r, "audit log"), "decisions recorded, no secret")
	data, err := os.ReadFile(logPath)
	require.NoError(t, err)
	assert.NotContains(t, string(data), doctorSecret())
}

// In warn mode the real hooks let blocks through with a warning, which
// doctor reports as such while the extension stays healthy.
func TestDoctorOnTheBuiltExtensionInWarnMode(t *testing.T) {
	ext := realExtension(t)
	t.Setenv("GEMINI_GUARD_MODE", "warn") // the hook processes inherit it
	code, r, raw := doctorJSON(t, map[string]string{"HOME": t.TempDir(), "GEMINI_GUARD_MODE": "warn"}, ext)
	assert.Equal(t, 0, code, raw)
	assert.Equal(t, "warn", r.Mode)
	st := statusOf(r)
	assert.Equal(t, statusOK, st["shell: known-bad"], detailOf(r, "shell: known-bad"))
	assert.Contains(t, detailOf(r, "shell: known-bad"), "allowed with a warning (warn mode")
	assert.Equal(t, statusOK, st["secrets: write"], detailOf(r, "secrets: write"))
	assert.Equal(t, statusOK, st["redact: answer"], detailOf(r, "redact: answer"))
	assert.Equal(t, statusWarn, st["settings"])
}

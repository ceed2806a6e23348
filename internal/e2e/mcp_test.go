package e2e

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// The MCP server of the MCP scenarios is this test binary itself, started
// by Gemini CLI with mcpServerEnv set: a tiny MCP server over stdio
// (newline-delimited JSON-RPC 2.0) with three tools, written for the tests.
//
//	post_message {channel, text}  records the message in posted.txt (cwd)
//	run_command  {command}        really runs `sh -c command` in its cwd
//	get_config   {}               returns a config holding the token in
//	                              GEMINI_GUARD_E2E_MCP_TOKEN
const mcpServerEnv = "GEMINI_GUARD_E2E_MCP"

// mcpServerName is the server's name in settings.json: its tools are
// mcp_box_<tool>.
const mcpServerName = "box"

// serveMCP answers MCP requests from in on out until in ends.
func serveMCP(in io.Reader, out io.Writer) {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	enc := json.NewEncoder(out)
	for sc.Scan() {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		if json.Unmarshal(sc.Bytes(), &req) != nil || len(req.ID) == 0 {
			continue // a notification or garbage: nothing to answer
		}
		result, rpcErr := mcpResult(req.Method, req.Params)
		resp := map[string]any{"jsonrpc": "2.0", "id": req.ID}
		if rpcErr != "" {
			resp["error"] = map[string]any{"code": -32601, "message": rpcErr}
		} else {
			resp["result"] = result
		}
		_ = enc.Encode(resp)
	}
}

func mcpResult(method string, params json.RawMessage) (any, string) {
	object := func(props ...string) map[string]any {
		p := map[string]any{}
		for _, name := range props {
			p[name] = map[string]any{"type": "string"}
		}
		schema := map[string]any{"type": "object", "properties": p}
		if len(props) > 0 {
			schema["required"] = props
		}
		return schema
	}
	switch method {
	case "initialize":
		var p struct {
			ProtocolVersion string `json:"protocolVersion"`
		}
		_ = json.Unmarshal(params, &p)
		if p.ProtocolVersion == "" {
			p.ProtocolVersion = "2025-06-18"
		}
		return map[string]any{
			"protocolVersion": p.ProtocolVersion,
			"capabilities":    map[string]any{"tools": map[string]any{}},
			"serverInfo":      map[string]any{"name": "gemini-guard-e2e", "version": "1.0.0"},
		}, ""
	case "ping":
		return map[string]any{}, ""
	case "tools/list":
		return map[string]any{"tools": []any{
			map[string]any{"name": "post_message", "description": "Posts a message to a channel.", "inputSchema": object("channel", "text")},
			map[string]any{"name": "run_command", "description": "Runs a shell command.", "inputSchema": object("command")},
			map[string]any{"name": "get_config", "description": "Returns the deployment configuration.", "inputSchema": object()},
		}}, ""
	case "tools/call":
		var p struct {
			Name      string            `json:"name"`
			Arguments map[string]string `json:"arguments"`
		}
		if err := json.Unmarshal(params, &p); err != nil {
			return nil, err.Error()
		}
		text := ""
		switch p.Name {
		case "post_message":
			f, err := os.OpenFile("posted.txt", os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
			if err == nil {
				fmt.Fprintf(f, "%s: %s\n", p.Arguments["channel"], p.Arguments["text"])
				f.Close()
			}
			text = "posted"
		case "run_command":
			out, err := exec.Command("sh", "-c", p.Arguments["command"]).CombinedOutput()
			text = string(out)
			if err != nil {
				text += "\n" + err.Error()
			}
		case "get_config":
			text = "region: eu-west-1\ndeploy_token: " + os.Getenv(mcpServerEnv+"_TOKEN") + "\nreplicas: 3\n"
		default:
			return nil, "unknown tool " + p.Name
		}
		return map[string]any{"content": []any{map[string]any{"type": "text", "text": text}}}, ""
	}
	return nil, "method not found: " + method
}

// addMCPServer configures the box server in the session's user settings,
// started in the workspace; token is what get_config returns.
func addMCPServer(t *testing.T, s *Session, token string) {
	t.Helper()
	self, err := os.Executable()
	require.NoError(t, err)
	path := filepath.Join(s.Home, ".gemini", "settings.json")
	doc := map[string]any{}
	if data, err := os.ReadFile(path); err == nil {
		require.NoError(t, json.Unmarshal(data, &doc))
	}
	doc["mcpServers"] = map[string]any{mcpServerName: map[string]any{
		"command": self,
		"args":    []string{"-test.run=^$"},
		"cwd":     s.Workspace,
		"env":     map[string]string{mcpServerEnv: "1", mcpServerEnv + "_TOKEN": token},
		"trust":   true,
		"timeout": 30000,
	}}
	data, err := json.Marshal(doc)
	require.NoError(t, err)
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, data, 0o644))
	// Gemini CLI starts no MCP server in an untrusted folder, and
	// --skip-trust does not count for them: trust the workspace.
	trusted, err := json.Marshal(map[string]string{s.Workspace: "TRUST_FOLDER"})
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(s.Home, ".gemini", "trustedFolders.json"), trusted, 0o644))
}

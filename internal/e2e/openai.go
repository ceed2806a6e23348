package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
)

// OpenAIServer is a scripted OpenAI-compatible chat-completions endpoint on
// 127.0.0.1, for CLIs that talk to one (Qwen Code with --auth-type openai).
// Each POST .../chat/completions gets the next Response of the script, in
// the same Part shape as --fake-responses: text parts become the message's
// content, Call parts its tool_calls. A request past the end of the script
// gets a short closing text, so a CLI that asks once more does not hang.
// Requests are kept for the test to inspect what the model was sent.
type OpenAIServer struct {
	URL string // base URL, ending in /v1

	mu        sync.Mutex
	script    []Response
	next      int
	Requests  []json.RawMessage
	listener  net.Listener
	server    *http.Server
	callCount int
}

// NewOpenAIServer starts a server that answers with script, in order.
// Close stops it.
func NewOpenAIServer(script []Response) (*OpenAIServer, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("e2e: fake OpenAI server: %w", err)
	}
	s := &OpenAIServer{URL: "http://" + l.Addr().String() + "/v1", script: script, listener: l}
	s.server = &http.Server{Handler: http.HandlerFunc(s.serve)}
	go s.server.Serve(l)
	return s, nil
}

// Close stops the server.
func (s *OpenAIServer) Close() { s.server.Close() }

// Sent is every request body the server received, joined: what the model
// was shown, tool results included.
func (s *OpenAIServer) Sent() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var b strings.Builder
	for _, r := range s.Requests {
		b.Write(r)
		b.WriteByte('\n')
	}
	return b.String()
}

func (s *OpenAIServer) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/chat/completions") {
		// Model lists and the like: nothing to offer.
		http.Error(w, `{"error":{"message":"not found"}}`, http.StatusNotFound)
		return
	}
	body, _ := io.ReadAll(io.LimitReader(r.Body, 64<<20))
	var req struct {
		Model  string `json:"model"`
		Stream bool   `json:"stream"`
	}
	json.Unmarshal(body, &req)
	s.mu.Lock()
	s.Requests = append(s.Requests, json.RawMessage(body))
	resp := Say("Done.")
	if s.next < len(s.script) {
		resp = s.script[s.next]
		s.next++
	}
	s.callCount++
	id := fmt.Sprintf("chatcmpl-%d", s.callCount)
	s.mu.Unlock()

	var text strings.Builder
	var calls []map[string]any
	for _, c := range resp {
		for _, p := range c {
			if t, ok := p["text"].(string); ok {
				text.WriteString(t)
			}
			if fc, ok := p["functionCall"].(map[string]any); ok {
				args, _ := json.Marshal(fc["args"])
				calls = append(calls, map[string]any{
					"index": len(calls), "id": fmt.Sprintf("call_%d_%d", s.callCount, len(calls)), "type": "function",
					"function": map[string]any{"name": fc["name"], "arguments": string(args)},
				})
			}
		}
	}
	finish := "stop"
	if len(calls) > 0 {
		finish = "tool_calls"
	}
	message := map[string]any{"role": "assistant", "content": text.String()}
	if len(calls) > 0 {
		message["tool_calls"] = calls
	}
	usage := map[string]any{"prompt_tokens": 10, "completion_tokens": 10, "total_tokens": 20}
	if !req.Stream {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{
			"id": id, "object": "chat.completion", "created": 1, "model": req.Model,
			"choices": []any{map[string]any{"index": 0, "message": message, "finish_reason": finish}},
			"usage":   usage,
		})
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	send := func(delta map[string]any, finishReason any, withUsage bool) {
		chunk := map[string]any{
			"id": id, "object": "chat.completion.chunk", "created": 1, "model": req.Model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finishReason}},
		}
		if withUsage {
			chunk["usage"] = usage
		}
		b, _ := json.Marshal(chunk)
		fmt.Fprintf(w, "data: %s\n\n", b)
		if f, ok := w.(http.Flusher); ok {
			f.Flush()
		}
	}
	send(map[string]any{"role": "assistant", "content": ""}, nil, false)
	if text.Len() > 0 {
		send(map[string]any{"content": text.String()}, nil, false)
	}
	if len(calls) > 0 {
		send(map[string]any{"tool_calls": calls}, nil, false)
	}
	send(map[string]any{}, finish, true)
	fmt.Fprint(w, "data: [DONE]\n\n")
}

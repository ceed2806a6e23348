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

// FakeAPI is a local stand-in for the Gemini API on 127.0.0.1: Gemini CLI
// talks to it over HTTP when GOOGLE_GEMINI_BASE_URL points at it (Script.API).
// Unlike --fake-responses it sees the requests as they leave the CLI, after
// every BeforeModel hook: it records each request body, and answers the
// streamed calls (streamGenerateContent, as server-sent events) with the
// scripted responses in order.
type FakeAPI struct {
	// URL is the base URL to give the CLI.
	URL string

	srv       *http.Server
	mu        sync.Mutex
	responses []Response
	requests  []APIRequest
	// before runs before the answer to each model call (OnCall).
	before func(body []byte)
}

// OnCall makes the server run fn with each model call's request body
// before it answers: what happens there happens between two of the
// agent's turns, as a user's edit in their editor does.
func (f *FakeAPI) OnCall(fn func(body []byte)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.before = fn
}

// APIRequest is one request the CLI sent.
type APIRequest struct {
	// Method is the API method: streamGenerateContent, generateContent,
	// countTokens, ...
	Method string
	Body   []byte
}

// Contents decodes the request's contents.
func (r APIRequest) Contents() ([]APIContent, error) {
	var body struct {
		Contents []APIContent `json:"contents"`
	}
	err := json.Unmarshal(r.Body, &body)
	return body.Contents, err
}

// APIContent is one content of a request: a role and its raw parts.
type APIContent struct {
	Role  string           `json:"role"`
	Parts []map[string]any `json:"parts"`
}

// StartFakeAPI listens on 127.0.0.1 and answers with responses, one per
// streamed model call. A call after the last response gets a short text
// answer, so a run never hangs on a script that is too short.
func StartFakeAPI(responses ...Response) (*FakeAPI, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("e2e: fake API: %w", err)
	}
	f := &FakeAPI{URL: "http://" + ln.Addr().String(), responses: responses}
	f.srv = &http.Server{Handler: http.HandlerFunc(f.serve)}
	go f.srv.Serve(ln)
	return f, nil
}

// Close stops the server.
func (f *FakeAPI) Close() error { return f.srv.Close() }

// Requests returns the requests recorded so far, in order.
func (f *FakeAPI) Requests() []APIRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]APIRequest(nil), f.requests...)
}

func (f *FakeAPI) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	// .../models/<model>:<method>
	_, method, _ := strings.Cut(r.URL.Path, ":")
	f.mu.Lock()
	f.requests = append(f.requests, APIRequest{Method: method, Body: body})
	var resp Response
	if method == "streamGenerateContent" || method == "generateContent" {
		if f.before != nil {
			f.before(body)
		}
		if len(f.responses) > 0 {
			resp, f.responses = f.responses[0], f.responses[1:]
		} else {
			resp = Say("(the fake API has no more scripted answers)")
		}
	}
	f.mu.Unlock()

	switch method {
	case "streamGenerateContent":
		w.Header().Set("Content-Type", "text/event-stream")
		for i, c := range resp {
			data, _ := json.Marshal(apiChunk(c, i == len(resp)-1))
			fmt.Fprintf(w, "data: %s\r\n\r\n", data)
			if fl, ok := w.(http.Flusher); ok {
				fl.Flush()
			}
		}
	case "generateContent":
		var parts []Part
		for _, c := range resp {
			parts = append(parts, c...)
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(apiChunk(parts, true))
	case "countTokens":
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"totalTokens": 100}`)
	default:
		http.Error(w, `{"error":{"code":404,"message":"not faked","status":"NOT_FOUND"}}`, http.StatusNotFound)
	}
}

// apiChunk is one streamed chunk of the Gemini API.
func apiChunk(parts []Part, last bool) map[string]any {
	cand := map[string]any{"content": map[string]any{"role": "model", "parts": parts}, "index": 0}
	if last {
		cand["finishReason"] = "STOP"
	}
	chunk := map[string]any{"candidates": []any{cand}}
	if last {
		chunk["usageMetadata"] = map[string]any{"promptTokenCount": 100, "candidatesTokenCount": 10, "totalTokenCount": 110}
	}
	return chunk
}

package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Part is one part of a streamed model message: Text or Call.
type Part map[string]any

// Text is a text part.
func Text(s string) Part { return Part{"text": s} }

// Call is a function call part: the model asks to run tool name with args.
func Call(name string, args map[string]any) Part {
	if args == nil {
		args = map[string]any{}
	}
	return Part{"functionCall": map[string]any{"name": name, "args": args}}
}

// Chunk is one streamed chunk: the parts that arrive together, and so reach
// one AfterModel call together.
type Chunk []Part

// Response is the streamed answer of one model call, chunk by chunk.
// Gemini CLI asks the model again after every tool call, so a script holds
// one Response per model call; Encode marks the last chunk of each with
// finishReason STOP.
type Response []Chunk

// Say is a Response of one text chunk.
func Say(text string) Response { return Response{{Text(text)}} }

// Chunks is a Response with one text chunk per argument.
func Chunks(texts ...string) Response {
	r := make(Response, 0, len(texts))
	for _, t := range texts {
		r = append(r, Chunk{Text(t)})
	}
	return r
}

// Split is a Response of text cut into n chunks of about equal length (in
// bytes, never inside a UTF-8 sequence). n < 1 counts as 1; chunks that
// would be empty are left out.
func Split(text string, n int) Response {
	if n < 1 {
		n = 1
	}
	var parts []string
	size := (len(text) + n - 1) / n
	for start := 0; start < len(text); {
		end := min(start+size, len(text))
		for end < len(text) && !isRuneStart(text[end]) {
			end++
		}
		parts = append(parts, text[start:end])
		start = end
	}
	return Chunks(parts...)
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }

// Tool is a Response of one chunk that says text (left out when empty) and
// calls tool name with args in the same chunk, as models often do.
func Tool(text, name string, args map[string]any) Response {
	var c Chunk
	if text != "" {
		c = append(c, Text(text))
	}
	return Response{append(c, Call(name, args))}
}

// WriteFile is a Tool call of write_file.
func WriteFile(text, path, content string) Response {
	return Tool(text, "write_file", map[string]any{"file_path": path, "content": content})
}

// Replace is a Tool call of replace (the edit tool).
func Replace(text, path, oldString, newString string) Response {
	return Tool(text, "replace", map[string]any{
		"file_path": path, "instruction": text, "old_string": oldString, "new_string": newString,
	})
}

// Shell is a Tool call of run_shell_command.
func Shell(text, command string) Response {
	return Tool(text, "run_shell_command", map[string]any{"command": command, "description": text})
}

// Encode writes responses as the JSONL file --fake-responses reads: one
// {"method":"generateContentStream","response":[chunk...]} per line, each
// chunk raw Gemini API JSON. An empty Response is an error: the CLI would
// wait for a chunk that never comes.
func Encode(responses []Response) ([]byte, error) {
	var buf bytes.Buffer
	for i, r := range responses {
		if len(r) == 0 {
			return nil, fmt.Errorf("e2e: response %d has no chunks", i)
		}
		chunks := make([]map[string]any, len(r))
		for j, c := range r {
			cand := map[string]any{
				"content": map[string]any{"role": "model", "parts": []Part(c)},
				"index":   0,
			}
			if j == len(r)-1 {
				cand["finishReason"] = "STOP"
			}
			chunks[j] = map[string]any{"candidates": []any{cand}}
		}
		line, err := json.Marshal(map[string]any{"method": "generateContentStream", "response": chunks})
		if err != nil {
			return nil, fmt.Errorf("e2e: response %d: %w", i, err)
		}
		buf.Write(line)
		buf.WriteByte('\n')
	}
	return buf.Bytes(), nil
}

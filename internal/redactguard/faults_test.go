package redactguard

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// An AfterModel input the hook cannot read is withheld, never passed on
// ({} would show the chunk) and never denied (a deny prints it): a notice
// is shown in its place, in both answer shapes.
func TestAfterModelUnreadableIsWithheld(t *testing.T) {
	tok := secretsFor["github-pat"]
	for name, in := range map[string]string{
		"broken JSON":          `{"llm_response":{"text":"my token ` + tok,
		"not an object":        `["my token ` + tok + `"]`,
		"response not object":  `{"llm_response":"my token ` + tok + `"}`,
		"text not a string":    `{"llm_response":{"text":["my token ` + tok + `"]}}`,
		"no text":              `{"llm_response":{"candidates":[{"content":{"parts":["my token ` + tok + `"]}}]}}`,
		"no response, content": `{"hook_event_name":"AfterModel","session_id":"s"}`,
		"empty":                ``,
	} {
		t.Run(name, func(t *testing.T) {
			out := runHook(t, testEnv(t, nil), "after-model", in)
			assert.NotContains(t, out, tok)
			var got map[string]any
			require.NoError(t, json.Unmarshal([]byte(out), &got))
			assert.NotEqual(t, "deny", got["decision"])
			spec, _ := got["hookSpecificOutput"].(map[string]any)
			require.NotNil(t, spec, "replaced: %s", out)
			resp, _ := spec["llm_response"].(map[string]any)
			require.NotNil(t, resp)
			assert.Contains(t, resp["text"], "gemini-guard withheld")
			assert.Contains(t, got["content"], "gemini-guard withheld")
		})
	}
}

// A chunk longer than maxChunkText is withheld before any check: its
// text is not shown, its finishReason is kept.
func TestAfterModelChunkOverBudgetIsWithheld(t *testing.T) {
	tok := secretsFor["github-pat"]
	text := strings.Repeat("an ordinary line of the answer\n", maxChunkText/31+1) + "token " + tok
	for _, final := range []bool{false, true} {
		out := runHook(t, testEnv(t, nil), "after-model", chunkInput("s1", "q", text, map[bool]string{true: "STOP"}[final]))
		assert.NotContains(t, out, tok)
		assert.NotContains(t, out, "an ordinary line")
		var got struct {
			SystemMessage string `json:"systemMessage"`
			Specific      struct {
				LLMResponse struct {
					Text       *string `json:"text"`
					Candidates []struct {
						Content struct {
							Parts []string `json:"parts"`
						} `json:"content"`
						FinishReason string `json:"finishReason"`
					} `json:"candidates"`
				} `json:"llm_response"`
			} `json:"hookSpecificOutput"`
		}
		require.NoError(t, json.Unmarshal([]byte(out), &got))
		require.NotNil(t, got.Specific.LLMResponse.Text)
		assert.Equal(t, "", *got.Specific.LLMResponse.Text)
		require.Len(t, got.Specific.LLMResponse.Candidates, 1)
		assert.Equal(t, []string{""}, got.Specific.LLMResponse.Candidates[0].Content.Parts)
		assert.Equal(t, map[bool]string{true: "STOP"}[final], got.Specific.LLMResponse.Candidates[0].FinishReason)
		assert.Contains(t, got.SystemMessage, "more than the")
	}
}

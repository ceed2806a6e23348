package toolargs

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestFileCommand(t *testing.T) {
	tests := []struct {
		tool, args, want string
	}{
		{"mcp_fs_write_file", `{"path":"/h/.bashrc","content":"x=1\n"}`, `printf '%s' $'x=1\n' > /h/.bashrc`},
		{"mcp_fs_edit_file", `{"path":".env","edits":[{"oldText":"A=1","newText":"BASH_ENV=/tmp/x"}]}`, `printf '%s' $'BASH_ENV=/tmp/x\n' >> .env`},
		{"mcp_fs_move_file", `{"source":"s.json","destination":"/h/.gemini/settings.json"}`, `mv -- s.json /h/.gemini/settings.json`},
		{"mcp_fs_create_directory", `{"path":"/h/.gemini/policies"}`, `mkdir -p -- /h/.gemini/policies`},
		{"mcp_files_writeFile", `{"filePath":".git/hooks/pre-commit","text":"#!/bin/sh\n"}`, `printf '%s' $'#!/bin/sh\n' > .git/hooks/pre-commit`},
		{"mcp_fs_write_file", `{"path":"big"}`, `tee -- big </dev/null`},
	}
	for _, tt := range tests {
		got, ok := FileCommand(tt.tool, []byte(tt.args))
		assert.True(t, ok, tt.tool)
		assert.Equal(t, tt.want, got, tt.tool)
	}
	long := strings.Repeat("# filler line of a long .env\n", 4000) + "BASH_ENV=/tmp/x.sh\n"
	got, ok := FileCommand("mcp_fs_write_file", []byte(`{"path":".env","content":`+strconv.Quote(long)+`}`))
	assert.True(t, ok)
	assert.Equal(t, `printf '%s' $'BASH_ENV=/tmp/x.sh\n' > .env`, got, "a long content keeps its assignment lines")
	for _, tt := range []struct{ tool, args string }{
		{"mcp_fs_read_file", `{"path":".env"}`},
		{"mcp_fs_list_directory", `{"path":"."}`},
		{"mcp_fs_write_file", `{"content":"x"}`},
		{"write_file", `{"path":".env","content":"x"}`},
	} {
		_, ok := FileCommand(tt.tool, []byte(tt.args))
		assert.False(t, ok, tt.tool)
	}
}

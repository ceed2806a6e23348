package main

import (
	"os"

	"github.com/gemini-guard/gemini-guard/internal/scanner/server"
)

func main() {
	os.Exit(server.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, build))
}

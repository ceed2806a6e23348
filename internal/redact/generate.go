package redact

//go:generate go run ./internal/gen

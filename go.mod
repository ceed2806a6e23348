module github.com/gemini-guard/gemini-guard

go 1.26.0

require (
	github.com/pelletier/go-toml/v2 v2.2.3
	github.com/stretchr/testify v1.12.1
)

require go.yaml.in/yaml/v3 v3.0.5 // indirect

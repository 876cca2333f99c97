module github.com/promptfmt/promptfmt

go 1.24

require (
	github.com/stretchr/testify v1.12.1
	go.yaml.in/yaml/v3 v3.0.6
)

require github.com/yuin/goldmark v1.8.7

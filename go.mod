module github.com/promptfmt/promptfmt

go 1.24.4

require (
	github.com/stretchr/testify v1.12.1
	go.yaml.in/yaml/v3 v3.0.6
)

require (
	github.com/cbroglie/mustache v1.4.2
	github.com/dustin/go-humanize v1.0.1
	github.com/goccy/go-yaml v1.18.0
	github.com/google/dotprompt/go v0.0.0-20251121213842-db5416a4f7ce
	github.com/invopop/jsonschema v0.13.0
	github.com/json-iterator/go v1.1.12
	github.com/mbleigh/raymond v0.0.0-20250414171441-6b3a58ab9e0a
	github.com/nikolalohinski/gonja/v2 v2.9.1
	github.com/pkg/errors v0.9.1
	github.com/sirupsen/logrus v1.9.3
	github.com/yuin/goldmark v1.8.7
	golang.org/x/exp v0.0.0-20240719175910-8a7402abbf56
	golang.org/x/text v0.23.0
)

require (
	github.com/bahlo/generic-list-go v0.2.0 // indirect
	github.com/buger/jsonparser v1.1.1 // indirect
	github.com/kr/pretty v0.3.1 // indirect
	github.com/mailru/easyjson v0.9.1 // indirect
	github.com/modern-go/concurrent v0.0.0-20180306012644-bacd9c7ef1dd // indirect
	github.com/modern-go/reflect2 v1.0.2 // indirect
	github.com/wk8/go-ordered-map/v2 v2.1.8 // indirect
	golang.org/x/sys v0.32.0 // indirect
	gopkg.in/yaml.v3 v3.0.1 // indirect
)

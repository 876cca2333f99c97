// Command anthropic is Anthropic's official Go SDK as a process, for the
// tests of sdktest: it reads request bodies and writes back what
// anthropic-sdk-go makes of each, decoded into its MessageNewParams and
// encoded again, by v1 (API version 2023-06-01) and v2 (2026-10-21), and
// the JSON names of the fields of the SDK's request types.
//
// It is a module of its own because the SDK cannot be built beside
// promptfmt's dotprompt package: anthropic-sdk-go needs
// github.com/invopop/jsonschema v0.14.0 (its schemas' properties in
// github.com/pb33f/ordered-map), github.com/google/dotprompt/go the v0.13.0
// API (github.com/wk8/go-ordered-map), and one module builds one version.
//
// Input (standard input): a JSON array of bodies, each a string. Output
// (standard output): {"v1": SDK, "v2": SDK}, where SDK is {"fields":
// {type: [json name...]}, "bodies": [{"json": text} or {"error": text}]},
// a body's result at its index.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"

	v1 "github.com/anthropics/anthropic-sdk-go"
	v2 "github.com/anthropics/anthropic-sdk-go/v2"
)

type result struct {
	JSON  string `json:"json,omitempty"`
	Error string `json:"error,omitempty"`
}

type sdk struct {
	Fields map[string][]string `json:"fields"`
	Bodies []result            `json:"bodies"`
}

func main() {
	var bodies []string
	if err := json.NewDecoder(os.Stdin).Decode(&bodies); err != nil {
		fmt.Fprintln(os.Stderr, "anthropic: reading the bodies:", err)
		os.Exit(1)
	}
	out := map[string]sdk{
		"v1": {
			Fields: fields(v1.MessageNewParams{}, v1.MessageParam{}, v1.TextBlockParam{}, v1.ImageBlockParam{},
				v1.DocumentBlockParam{}, v1.ToolUseBlockParam{}, v1.ToolResultBlockParam{}, v1.ToolParam{}),
			Bodies: roundTrip[v1.MessageNewParams](bodies),
		},
		"v2": {
			Fields: fields(v2.MessageNewParams{}, v2.MessageParam{}, v2.TextBlockParam{}, v2.ImageBlockParam{},
				v2.DocumentBlockParam{}, v2.ToolUseBlockParam{}, v2.ToolResultBlockParam{}, v2.ToolParam{}),
			Bodies: roundTrip[v2.MessageNewParams](bodies),
		},
	}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		fmt.Fprintln(os.Stderr, "anthropic:", err)
		os.Exit(1)
	}
}

// roundTrip decodes each body into a P and encodes it back.
func roundTrip[P any](bodies []string) []result {
	out := make([]result, len(bodies))
	for i, b := range bodies {
		var p P
		if err := json.Unmarshal([]byte(b), &p); err != nil {
			out[i].Error = err.Error()
			continue
		}
		back, err := json.Marshal(p)
		if err != nil {
			out[i].Error = "encoding: " + err.Error()
			continue
		}
		out[i].JSON = string(back)
	}
	return out
}

// fields lists the JSON names of each value's struct fields, by the
// name of its type: the name in the field's json tag, none for "-"; the
// fields of an inlined union are its variants' (v2's MessageParam is a
// union of UserMessageParam, AssistantMessageParam and
// SystemMessageParam by role).
func fields(values ...any) map[string][]string {
	out := map[string][]string{}
	for _, v := range values {
		t := reflect.TypeOf(v)
		out[t.Name()] = names(t, nil)
	}
	return out
}

func names(t reflect.Type, to []string) []string {
	for f := range t.Fields() {
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case !f.IsExported() || name == "-":
		case name == "" && strings.Contains(opts, "inline") && f.Type.Kind() == reflect.Pointer && f.Type.Elem().Kind() == reflect.Struct:
			to = names(f.Type.Elem(), to)
		case name != "" && !slices.Contains(to, name):
			to = append(to, name)
		}
	}
	return to
}

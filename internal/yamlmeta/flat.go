package yamlmeta

import (
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// flat reads the commonest front matter without yaml.v3's parser, which
// costs a file of a tree of small prompt files more than reading it: one
// key per line, "key: value", each key a word and each value a string,
// double-quoted without escapes or plain. It returns the node yaml.v3
// would make, and ok false for anything else, which yaml.v3 reads
// (FuzzFlat holds the two the same wherever flat answers).
//
// A plain value is a string to yaml.v3 unless it resolves to another
// type; flat takes only those that cannot: one that starts with a letter
// and is not true, false or null (in their three spellings), or one that
// starts with a digit, has a character no number or timestamp has, and
// does not parse as an integer (Go's prefixes included, as yaml.v3 reads
// them).
func flat(src []byte) (*yaml.Node, bool) {
	if len(src) == 0 || src[len(src)-1] != '\n' {
		return nil, false
	}
	top := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: 1, Column: 1}
	nodes := make([]yaml.Node, 0, 8)
	for line := 1; len(src) > 0; line++ {
		end := strings.IndexByte(string(src), '\n') // no copy: the conversion is only searched
		l := src[:end]
		src = src[end+1:]
		k := 0
		for k < len(l) && (isLetter(l[k]) || k > 0 && (isDigit(l[k]) || l[k] == '_' || l[k] == '-')) {
			k++
		}
		if k == 0 || k > maxSimpleKey || k+1 >= len(l) || l[k] != ':' || l[k+1] != ' ' {
			return nil, false
		}
		key := string(l[:k])
		if resolves(key) || len(nodes) >= 2*maxFlat {
			return nil, false
		}
		for i := 0; i < len(nodes); i += 2 {
			if nodes[i].Value == key {
				return nil, false // yaml.v3's error
			}
		}
		v := k + 1
		for v < len(l) && l[v] == ' ' {
			v++
		}
		value, style, ok := flatValue(l[v:])
		if !ok {
			return nil, false
		}
		nodes = append(nodes,
			yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key, Line: line, Column: 1},
			yaml.Node{Kind: yaml.ScalarNode, Style: style, Tag: "!!str", Value: value, Line: line, Column: v + 1})
	}
	top.Content = make([]*yaml.Node, len(nodes))
	for i := range nodes {
		top.Content[i] = &nodes[i]
	}
	return &yaml.Node{Kind: yaml.DocumentNode, Line: 1, Column: 1, Content: []*yaml.Node{top}}, true
}

// maxSimpleKey is the longest key yaml.v3 reads without a "? " before it:
// the YAML spec's limit of 1024 characters on an implicit key.
const maxSimpleKey = 1024

// maxFlat is the most keys flat reads: it looks for a key given twice
// among those before.
const maxFlat = 32

// flatValue is a value of flat's: the string it is and its style.
func flatValue(v []byte) (string, yaml.Style, bool) {
	if len(v) == 0 {
		return "", 0, false
	}
	if v[0] == '"' {
		if len(v) < 2 || v[len(v)-1] != '"' {
			return "", 0, false
		}
		for _, c := range v[1 : len(v)-1] {
			if c < ' ' || c > '~' || c == '"' || c == '\\' {
				return "", 0, false
			}
		}
		return string(v[1 : len(v)-1]), yaml.DoubleQuotedStyle, true
	}
	if !isLetter(v[0]) && !isDigit(v[0]) || v[len(v)-1] == ' ' {
		return "", 0, false
	}
	other := false // a character no number or timestamp holds
	for i, c := range v {
		switch {
		case isLetter(c) && c != 'e' && c != 'E':
			other = true
		case isDigit(c) || c == '_' || c == '.' || c == 'e' || c == 'E' || c == '+':
		case c == ' ' && v[i+1] != ' ': // one space between words (v does not end in one)
			other = true
		default:
			return "", 0, false // '-', ':' (timestamps), '#', and every indicator
		}
	}
	s := string(v)
	if isLetter(v[0]) {
		return s, 0, !resolves(s)
	}
	if !other || strings.HasPrefix(s, "0b") {
		return "", 0, false
	}
	plain := strings.ReplaceAll(s, "_", "")
	if _, err := strconv.ParseInt(plain, 0, 64); err == nil {
		return "", 0, false
	}
	if _, err := strconv.ParseUint(plain, 0, 64); err == nil {
		return "", 0, false
	}
	return s, 0, true
}

// resolves reports whether yaml.v3 reads the plain scalar s, which starts
// with a letter, as other than a string.
func resolves(s string) bool {
	switch s {
	case "true", "True", "TRUE", "false", "False", "FALSE", "null", "Null", "NULL":
		return true
	}
	return false
}

func isLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

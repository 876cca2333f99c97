package prapti

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/promptfmt/promptfmt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// parseDeviations are the recorded parse goldens where we differ from
// upstream on purpose; the rule tests assert what we do instead.
var parseDeviations = map[string]string{
	"config_in_fence":        "configuration lines and headings inside a fenced code block are text (the seed's future direction; upstream is a line scanner)",
	"config_in_html_comment": "configuration lines inside an HTML block, <!-- --> comments included, are text",
	"config_lines":           "a % line indented four spaces or a tab is an indented code block or paragraph text, not configuration (CommonMark; upstream allows any indentation)",
	"disabled_config":        "an indented //% line is a disabled configuration line (the issue's rule; upstream reads it as text)",
}

type upstreamParse struct {
	Messages []struct {
		Role      string  `json:"role"`
		Name      *string `json:"name"`
		IsEnabled bool    `json:"is_enabled"`
		Line      int     `json:"line"`
		Content   []struct {
			Text      *string `json:"text"`
			Command   *string `json:"command"`
			IsEnabled bool    `json:"is_enabled"`
			Line      int     `json:"line"`
		} `json:"content"`
	} `json:"messages"`
	Flattened []struct {
		Content string `json:"content"`
	} `json:"flattened_without_command_output"`
}

func TestUpstreamParse(t *testing.T) {
	files, err := filepath.Glob("testdata/upstream/parse/*.md")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".md")
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(file)
			require.NoError(t, err)
			var want upstreamParse
			raw, err := os.ReadFile(strings.TrimSuffix(file, ".md") + ".json")
			require.NoError(t, err)
			require.NoError(t, json.Unmarshal(raw, &want))
			doc, err := Parse(src)
			require.NoError(t, err)

			// Upstream always has a _head; we keep it only when it holds
			// something. Roles are case-insensitive here, lower case.
			type msg struct {
				Role, Name, Content string
				Enabled             bool
				Line                int
				Commands            []string
			}
			var got, exp []msg
			for i, m := range want.Messages {
				e := msg{Role: strings.ToLower(m.Role), Content: want.Flattened[i].Content, Enabled: m.IsEnabled, Line: m.Line}
				if m.Name != nil {
					e.Name = *m.Name
				}
				for _, c := range m.Content {
					if c.Command != nil {
						e.Commands = append(e.Commands, describeCommand(*c.Command, c.IsEnabled, c.Line))
					}
				}
				if i == 0 && e.Content == "" && len(e.Commands) == 0 {
					continue
				}
				exp = append(exp, e)
			}
			for _, m := range doc.Messages {
				g := msg{Role: m.Role, Name: m.Name, Content: m.Text(), Enabled: !m.Disabled, Line: m.Line}
				lines, err := Config(&m)
				require.NoError(t, err)
				for _, c := range lines {
					_, _, text, _ := matchConfig(c.Source)
					g.Commands = append(g.Commands, describeCommand(strings.TrimSpace(text), c.Enabled, c.Line))
				}
				got = append(got, g)
			}
			if why, ok := parseDeviations[name]; ok {
				assert.NotEqual(t, exp, got, "listed as a deviation (%s) but agrees with upstream", why)
				return
			}
			assert.Equal(t, exp, got)
		})
	}
}

func describeCommand(text string, enabled bool, line int) string {
	s := "%" + text
	if !enabled {
		s = "//" + s
	}
	return fmt.Sprintf("%s @%d", s, line)
}

type commandGolden struct {
	Text        string `json:"command_text"`
	Match       bool   `json:"match"`
	Exclamation bool   `json:"exclamation"`
	Name        string `json:"name"`
	Kind        string `json:"kind"`
	RHS         string `json:"rhs"`
	Value       *struct {
		JSON       any    `json:"json"`
		VarRef     string `json:"var_ref"`
		ParseError bool   `json:"parse_error"`
	} `json:"value"`
}

// commandDeviations: NaN is Python's extension to JSON, and not a value the
// model (or JSON) can hold.
var commandDeviations = map[string]string{"n = NaN": "NaN is not JSON"}

func TestUpstreamCommands(t *testing.T) {
	raw, err := os.ReadFile("testdata/upstream/command_text.json")
	require.NoError(t, err)
	// NaN is not JSON: read the file with it as a string.
	raw = []byte(strings.ReplaceAll(string(raw), ": NaN", `: "NaN"`))
	var goldens []commandGolden
	require.NoError(t, json.Unmarshal(raw, &goldens))
	for _, g := range goldens {
		var c ConfigLine
		c.splitCommand(strings.TrimSpace(g.Text))
		if why, ok := commandDeviations[g.Text]; ok {
			assert.NotEmpty(t, c.Error, "%q listed as a deviation (%s)", g.Text, why)
			continue
		}
		if !g.Match {
			assert.Equal(t, KindInvalid, c.Kind, "%q", g.Text)
			continue
		}
		assert.Equal(t, g.Exclamation, c.Exclusive, "%q", g.Text)
		assert.Equal(t, g.Name, c.Name, "%q", g.Text)
		assert.Equal(t, g.Kind, c.Kind, "%q", g.Text)
		switch {
		case g.Kind == KindAction:
			assert.Equal(t, g.RHS, c.Args, "%q", g.Text)
		case g.Value == nil:
			assert.Equal(t, "an assignment without a value", c.Error, "%q", g.Text)
		case g.Value.ParseError:
			assert.Contains(t, c.Error, "is not a JSON literal", "%q", g.Text)
		case g.Value.VarRef != "":
			assert.Equal(t, g.Value.VarRef, c.Var, "%q", g.Text)
		default:
			want, _ := json.Marshal(g.Value.JSON)
			got, _ := json.Marshal(c.Value)
			assert.JSONEq(t, string(want), string(got), "%q", g.Text)
			assert.Empty(t, c.Error)
		}
	}
}

func TestUpstreamAppend(t *testing.T) {
	files, err := filepath.Glob("testdata/upstream/append/*.input.md")
	require.NoError(t, err)
	require.Len(t, files, 13)
	for _, file := range files {
		base := strings.TrimSuffix(file, ".input.md")
		t.Run(filepath.Base(base), func(t *testing.T) {
			in, err := os.ReadFile(file)
			require.NoError(t, err)
			want, err := os.ReadFile(base + ".expected.md")
			require.NoError(t, err)
			raw, err := os.ReadFile(base + ".responses.json")
			require.NoError(t, err)
			var responses []struct {
				Role      string  `json:"role"`
				Name      string  `json:"name"`
				Content   *string `json:"content"`
				IsEnabled *bool   `json:"is_enabled"`
			}
			require.NoError(t, json.Unmarshal(raw, &responses))
			var msgs []promptfmt.Message
			for _, r := range responses {
				if r.Content == nil && r.Role == "user" {
					next := NextPrompt(in)
					if r.Name != "" { // named in the recorded responses
						next.Name = r.Name
					}
					msgs = append(msgs, next)
					continue
				}
				m := promptfmt.NewMessage(r.Role, "")
				if r.Content != nil {
					m = promptfmt.NewMessage(r.Role, *r.Content)
				}
				m.Name = r.Name
				m.Disabled = r.IsEnabled != nil && !*r.IsEnabled
				msgs = append(msgs, m)
			}
			assert.Equal(t, string(want), string(Append(in, msgs...)))
		})
	}
}

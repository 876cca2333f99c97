package prapti

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/promptfmt/promptfmt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A deviation is a recorded parse golden where our CommonMark reading
// differs from upstream's line scanner on purpose. The test derives what
// we read from upstream's result and these lines, and checks the lines
// are where the reason says.
type deviation struct {
	text   []int          // lines upstream reads as a heading or configuration line, and we as text
	config map[int]string // lines upstream reads as text, and we as these configuration lines
	blocks [][2]int       // the fenced code blocks or HTML comments (first and last line) holding the text lines
	why    string
}

var (
	inFence   = "configuration lines and headings inside a fenced code block are text (the seed's future direction; upstream is a line scanner and reads them, its own examples included)"
	inComment = "configuration lines inside an HTML block, <!-- --> comments included, are text"
)

var parseDeviations = map[string]deviation{
	"parse/config_in_fence.md":        {text: []int{3, 4}, blocks: [][2]int{{2, 5}}, why: inFence},
	"parse/config_in_html_comment.md": {text: []int{3}, blocks: [][2]int{{2, 4}}, why: inComment},
	"parse/config_lines.md":           {text: []int{5, 6}, why: "a % line indented four spaces or a tab is an indented code block or continues a paragraph in CommonMark, not configuration (upstream allows any indentation)"},
	"parse/disabled_config.md":        {config: map[int]string{4: "//%c = 3"}, why: "an indented //% line is a disabled configuration line (the issue's rule; upstream reads it as text)"},

	"upstream-md/README.md":                            {text: []int{75}, blocks: [][2]int{{74, 78}}, why: inFence},
	"upstream-md/docs/config_files.md":                 {text: []int{18, 19}, blocks: [][2]int{{17, 20}}, why: inFence},
	"upstream-md/docs/prapti_spec.md":                  {text: []int{43, 46, 50, 52, 82, 84, 86, 88}, blocks: [][2]int{{42, 54}, {81, 89}}, why: inFence},
	"upstream-md/prapti/plugins/capture_everything.md": {text: []int{7, 8, 9, 10, 12, 13}, blocks: [][2]int{{6, 14}}, why: inFence},
	"upstream-md/docs/user_guide.md": {text: []int{122, 125, 134, 137, 146, 149, 160, 189, 195},
		blocks: [][2]int{{121, 127}, {133, 139}, {145, 151}, {159, 162}, {188, 190}, {194, 196}}, why: inFence},
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

// upstreamGoldens lists the recorded parse goldens: the inputs written
// for the research notes (parse/NAME.md, NAME.json) and every markdown
// file of upstream's repository (upstream-md/PATH,
// upstream-md-parse/PATH.json). Names are relative to testdata/upstream.
func upstreamGoldens(t *testing.T) map[string]string {
	goldens := map[string]string{}
	files, err := filepath.Glob("testdata/upstream/parse/*.md")
	require.NoError(t, err)
	for _, file := range files {
		goldens["parse/"+filepath.Base(file)] = strings.TrimSuffix(file, ".md") + ".json"
	}
	require.NoError(t, filepath.WalkDir("testdata/upstream/upstream-md", func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel("testdata/upstream/upstream-md", path)
			goldens["upstream-md/"+filepath.ToSlash(rel)] = filepath.Join("testdata/upstream/upstream-md-parse", rel+".json")
		}
		return err
	}))
	require.Len(t, goldens, 38+16)
	return goldens
}

func TestUpstreamParse(t *testing.T) {
	for name, golden := range upstreamGoldens(t) {
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join("testdata/upstream", name))
			require.NoError(t, err)
			var want upstreamParse
			raw, err := os.ReadFile(golden)
			require.NoError(t, err)
			require.NoError(t, json.Unmarshal(raw, &want))
			doc, err := Parse(src)
			require.NoError(t, err)
			dev, deviates := parseDeviations[name]
			assert.Equal(t, expectedParse(t, src, &want, dev), gotParse(t, doc), "deviation: %s", dev.why)
			if deviates {
				assert.NotEqual(t, expectedParse(t, src, &want, deviation{}), gotParse(t, doc), "listed as a deviation but agrees with upstream")
			}
			for _, w := range doc.Warnings {
				assert.NotContains(t, w.Msg, "never closed")
			}
		})
	}
}

// parsed is a message in a form both sides can give: upstream's golden
// and our Document.
type parsed struct {
	Role, Name, Content string
	Enabled             bool
	Line                int
	Commands            []string
}

func gotParse(t *testing.T, doc *promptfmt.Document) []parsed {
	var got []parsed
	for _, m := range doc.Messages {
		g := parsed{Role: m.Role, Name: m.Name, Content: m.Text(), Enabled: !m.Disabled, Line: m.Line}
		lines, err := Config(&m)
		require.NoError(t, err)
		for _, c := range lines {
			_, _, text, _ := matchConfig(c.Source)
			g.Commands = append(g.Commands, describeCommand(strings.TrimSpace(text), c.Enabled, c.Line))
		}
		got = append(got, g)
	}
	return got
}

// expectedParse is upstream's result, lower-casing roles (ours are
// case-insensitive) and leaving out an empty _head (upstream always has
// one), changed by dev: its text lines are no longer headings or
// configuration lines, its config lines are. The text of a message dev
// changes is then taken from the source: its lines without the
// configuration lines, trimmed.
func expectedParse(t *testing.T, src []byte, want *upstreamParse, dev deviation) []parsed {
	lines := strings.Split(strings.ReplaceAll(string(src), "\r\n", "\n"), "\n")
	text := map[int]bool{}
	for _, n := range dev.text {
		text[n] = true
		inside := false
		for _, b := range dev.blocks {
			first, last := strings.TrimSpace(lines[b[0]-1]), strings.TrimSpace(lines[b[1]-1])
			require.True(t, strings.HasPrefix(first, "```") && last == "```" || first == "<!--" && last == "-->", "lines %v are not a fenced code block or an HTML comment", b)
			inside = inside || b[0] < n && n < b[1]
		}
		require.True(t, inside || len(dev.blocks) == 0, "line %d is not inside %v", n, dev.blocks)
	}
	var exp []parsed
	configLines := map[int]bool{}
	for i, m := range want.Messages {
		if i > 0 && text[m.Line] {
			continue // now text of the message before
		}
		e := parsed{Role: strings.ToLower(m.Role), Content: want.Flattened[i].Content, Enabled: m.IsEnabled, Line: m.Line}
		if m.Name != nil {
			e.Name = *m.Name
		}
		exp = append(exp, e)
	}
	// Every configuration line, in order, goes to the message it is in.
	type command struct {
		line int
		desc string
	}
	var commands []command
	for _, m := range want.Messages {
		for _, c := range m.Content {
			if c.Command != nil && !text[c.Line] {
				commands = append(commands, command{c.Line, describeCommand(*c.Command, c.IsEnabled, c.Line)})
			}
		}
	}
	for n, desc := range dev.config {
		commands = append(commands, command{n, fmt.Sprintf("%s @%d", desc, n)})
	}
	slices.SortFunc(commands, func(a, b command) int { return a.line - b.line })
	for _, c := range commands {
		configLines[c.line] = true
		i := len(exp) - 1
		for i > 0 && exp[i].Line > c.line {
			i--
		}
		exp[i].Commands = append(exp[i].Commands, c.desc)
	}
	for i := range exp {
		end := len(lines) + 1
		if i+1 < len(exp) {
			end = exp[i+1].Line
		}
		changed := false
		for n := exp[i].Line + 1; n < end; n++ {
			changed = changed || text[n] || dev.config[n] != ""
		}
		if changed {
			var b strings.Builder
			for n := exp[i].Line + 1; n < end && n <= len(lines); n++ {
				if !configLines[n] {
					b.WriteString(lines[n-1] + "\n")
				}
			}
			exp[i].Content = trimSpace(b.String())
		}
	}
	if len(exp) > 0 && exp[0].Line == 0 && exp[0].Content == "" && len(exp[0].Commands) == 0 {
		exp = exp[1:]
	}
	if len(exp) == 0 {
		return nil
	}
	return exp
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
			assert.Equal(t, string(want), string(mustAppend(t, in, msgs...)))
		})
	}
}

// TestUpstreamEndToEnd: upstream's tool run on each input with a responder
// that answers "Test!". Parse must find the messages upstream sent the
// model, and Append must write what upstream wrote. Which messages the
// tool appends is its logic, not this package's, so each case names them.
func TestUpstreamEndToEnd(t *testing.T) {
	raw, err := os.ReadFile("testdata/upstream/end_to_end/summary.json")
	require.NoError(t, err)
	var summary map[string]struct {
		ExitCode int `json:"exit_code"`
		Messages []struct {
			Role    string  `json:"role"`
			Name    *string `json:"name"`
			Content string  `json:"content"`
		} `json:"llm_messages_input_file_and_config"`
	}
	require.NoError(t, json.Unmarshal(raw, &summary))
	require.Len(t, summary, 14)
	reply := promptfmt.NewMessage("assistant", "Test!")
	appended := map[string]string{ // what the tool appends, when not a reply and the next prompt
		"e2e_only_head":          "prompt",  // no message to answer: only the next prompt
		"e2e_hidden_only":        "prompt",  // likewise
		"e2e_empty_final_prompt": "nothing", // the last prompt is empty: the tool does nothing
		"e2e_inspect":            "",        // the interpreter's !prapti.inspect output: not this package's
		"e2e_empty_file":         "",        // the start template: not this package's
		"e2e_whitespace_file":    "",        // likewise
	}
	for name, run := range summary {
		t.Run(name, func(t *testing.T) {
			in, err := os.ReadFile("testdata/upstream/end_to_end/" + name + ".input.md")
			require.NoError(t, err)
			want, err := os.ReadFile("testdata/upstream/end_to_end/" + name + ".expected.md")
			require.NoError(t, err)
			doc, err := Parse(in)
			require.NoError(t, err)
			// Upstream's chat responders send only these roles; LLMMessages
			// leaves that choice to the application.
			var got, exp []string
			for _, m := range doc.LLMMessages() {
				if m.Role == "system" || m.Role == "user" || m.Role == "assistant" {
					got = append(got, fmt.Sprintf("%s/%s: %q", m.Role, m.Name, m.Text()))
				}
			}
			for _, m := range run.Messages {
				n := ""
				if m.Name != nil {
					n = *m.Name
				}
				exp = append(exp, fmt.Sprintf("%s/%s: %q", m.Role, n, m.Content))
			}
			assert.Equal(t, exp, got)
			switch what, ok := appended[name]; {
			case !ok:
				assert.Equal(t, string(want), string(mustAppend(t, in, reply, NextPrompt(in))))
			case what == "prompt":
				assert.Equal(t, string(want), string(mustAppend(t, in, NextPrompt(in))))
			case what == "nothing":
				assert.Equal(t, string(want), string(in))
			}
		})
	}
}

func mustAppend(t *testing.T, existing []byte, msgs ...promptfmt.Message) []byte {
	t.Helper()
	out, err := Append(existing, msgs)
	require.NoError(t, err)
	return out
}

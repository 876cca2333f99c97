package promptfmt

import (
	"encoding/json"
	"math"
	"testing"
)

func TestMessageJSONShape(t *testing.T) {
	for _, tc := range []struct {
		m    Message
		want string
	}{
		{NewMessage("user", "Hi"), `{"role":"user","content":[{"kind":"text","value":"Hi"}]}`},
		{Message{Role: "user", Name: "Ross", Content: []ContentPart{Text("Hi")}, Metadata: map[string]any{"id": int64(7)}},
			`{"role":"user","name":"Ross","content":[{"kind":"text","value":"Hi"}],"metadata":{"id":7}}`},
		{Message{Role: "assistant"}, `{"role":"assistant","content":[]}`},
		{Message{Role: "user", Content: []ContentPart{{Kind: KindImage, Value: "aGk=", MediaType: "image/png", Detail: "low"}}},
			`{"role":"user","content":[{"kind":"image","value":"aGk=","mediaType":"image/png","detail":"low"}]}`},
		{Message{Role: "assistant", Content: []ContentPart{{Kind: KindToolCall, Value: `{"q":1}`, ID: "c1", ToolName: "search"}}},
			`{"role":"assistant","content":[{"kind":"tool_call","value":"{\"q\":1}","id":"c1","toolName":"search"}]}`},
		{Message{Role: "user", Content: []ContentPart{Text("")}, Disabled: true, Line: 9},
			`{"role":"user","content":[{"kind":"text","value":""}],"disabled":true}`},
	} {
		got, err := json.Marshal(tc.m)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != tc.want {
			t.Errorf("got  %s\nwant %s", got, tc.want)
		}
		var back Message
		if err := json.Unmarshal(got, &back); err != nil {
			t.Fatal(err)
		}
	}
	got, _ := json.Marshal(&Document{})
	if string(got) != `{"messages":[]}` {
		t.Errorf("empty document = %s", got)
	}
	got, _ = json.Marshal((&Document{Messages: []Message{{Role: "_head"}}}).LLMMessages())
	if string(got) != `[]` {
		t.Errorf("no LLM messages = %s", got)
	}
}

func TestLLMMessages(t *testing.T) {
	d := &Document{Messages: []Message{
		NewMessage("_head", "config"),
		NewMessage("system", "s"),
		{Role: "user", Content: []ContentPart{Text("off")}, Disabled: true},
		NewMessage("user", "u"),
		NewMessage("odd_role_", "kept"),
	}}
	got := d.LLMMessages()
	if len(got) != 3 || got[0].Role != "system" || got[1].Role != "user" || got[2].Role != "odd_role_" {
		t.Errorf("LLMMessages = %+v", got)
	}
	if len(d.Messages) != 5 {
		t.Error("LLMMessages changed the document")
	}
}

func TestEqualAndClone(t *testing.T) {
	a := &Document{Messages: []Message{{Role: "user", Content: []ContentPart{Text("x")}, Metadata: map[string]any{"k": []any{"v"}}, Line: 3}}}
	b := &Document{Meta: map[string]any{}, Messages: []Message{a.Messages[0].Clone()}}
	b.Messages[0].Line = 7
	if !Equal(a, b) {
		t.Fatal("Equal should ignore lines and nil-versus-empty maps")
	}
	b.Messages[0].Metadata["k"].([]any)[0] = "w"
	b.Messages[0].Content[0].Value = "y"
	if a.Messages[0].Metadata["k"].([]any)[0] != "v" || a.Messages[0].Content[0].Value != "x" {
		t.Fatal("Clone shares memory with the original")
	}
	if Equal(a, b) {
		t.Fatal("Equal missed a difference")
	}
	for _, c := range []Document{
		{Messages: []Message{NewMessage("assistant", "x")}},
		{Messages: []Message{{Role: "user", Name: "n", Content: []ContentPart{Text("x")}}}},
		{Messages: []Message{{Role: "user", Content: []ContentPart{Text("x")}, Disabled: true}}},
		{Meta: map[string]any{"a": 1}, Messages: a.Messages},
	} {
		if Equal(a, &c) {
			t.Errorf("Equal(%+v) should be false", c)
		}
	}
}

func TestText(t *testing.T) {
	m := Message{Content: []ContentPart{Text("a"), {Kind: KindImage, Value: "x"}, Text("b")}}
	if m.Text() != "ab" {
		t.Errorf("Text = %q", m.Text())
	}
}

func TestStrayField(t *testing.T) {
	for _, tc := range []struct {
		p    ContentPart
		want string
	}{
		{Text("x"), ""},
		{ContentPart{Kind: KindImage, Value: "u", MediaType: "image/png", Detail: "low", ID: "f", Filename: "a.png"}, ""},
		{ContentPart{Kind: KindToolCall, Value: "{}", ID: "c", ToolName: "f"}, ""},
		{ContentPart{Kind: KindToolResult, Value: "r", ID: "c", ToolName: "f"}, ""},
		{ContentPart{Kind: KindText, MediaType: "text/plain"}, "mediaType"},
		{ContentPart{Kind: KindToolCall, Detail: "low"}, "detail"},
		{ContentPart{Kind: KindToolResult, Filename: "a"}, "filename"},
		{ContentPart{Kind: KindText, ID: "a"}, "id"},
		{ContentPart{Kind: KindAudio, ToolName: "f"}, "toolName"},
	} {
		if got := tc.p.StrayField(); got != tc.want {
			t.Errorf("%+v: StrayField() = %q, want %q", tc.p, got, tc.want)
		}
	}
}

func TestEqualNaN(t *testing.T) {
	nan := math.NaN()
	a := &Document{Meta: map[string]any{"x": nan, "l": []any{nan, map[string]any{"k": 1}}}}
	b := &Document{Meta: map[string]any{"x": nan, "l": []any{nan, map[string]any{"k": 1}}}}
	if !Equal(a, b) {
		t.Error("NaN should equal NaN")
	}
	for _, m := range []map[string]any{
		{"x": nan, "l": []any{nan, map[string]any{"k": 2}}},
		{"x": nan, "l": []any{nan}},
		{"x": 1.0, "l": []any{nan, map[string]any{"k": 1}}},
		{"x": nan, "y": nan},
		{"x": nan, "l": []any{nan, map[string]any(nil)}},
	} {
		if Equal(a, &Document{Meta: m}) {
			t.Errorf("Equal(%v) should be false", m)
		}
	}
}

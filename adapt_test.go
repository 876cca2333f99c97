package promptfmt

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// strictWriter refuses what a small format cannot say: document metadata,
// names, metadata, disabled messages, roles other than user and assistant
// (and hidden ones), non-text parts, several text parts, text with white
// space at its ends, a user message after a user message, and, when one is
// true, more than one message.
func strictWriter(one bool) func(d *Document) error {
	return func(d *Document) error {
		var errs []error
		fail := func(i int, t Thing, what string) *UnsupportedError {
			e := &UnsupportedError{Format: "small", Index: i, What: what, Thing: t}
			if i >= 0 {
				e.Line = d.Messages[i].Line
			}
			errs = append(errs, e)
			return e
		}
		if len(d.Meta) > 0 {
			fail(-1, ThingMeta, "document metadata")
		}
		if one && len(d.Messages) != 1 {
			fail(-1, ThingMessages, "not one message")
		}
		for i, m := range d.Messages {
			if m.Role != "user" && m.Role != "assistant" {
				fail(i, ThingRole, "role "+m.Role)
			}
			if m.Name != "" {
				fail(i, ThingName, "a name")
			}
			for k := range m.Metadata {
				fail(i, ThingMetadata, "metadata").Key = k
			}
			if m.Disabled {
				fail(i, ThingDisabled, "disabled")
			}
			texts := 0
			for j, p := range m.Content {
				if p.Kind != KindText {
					fail(i, ThingPart, "a "+string(p.Kind)).Part = j
				} else {
					texts++
				}
			}
			if t := m.Text(); texts > 1 || strings.TrimSpace(t) != t {
				fail(i, ThingText, "text parts or white space")
			}
			if i > 0 && m.Role == "user" && d.Messages[i-1].Role == "user" {
				fail(i, ThingMessages, "two user messages in a row")
			}
		}
		return errors.Join(errs...)
	}
}

func TestAdapt(t *testing.T) {
	img := ContentPart{Kind: KindImage, Value: "aGk=", MediaType: "image/png"}
	doc := &Document{
		Meta: map[string]any{"title": "Notes", "tags": []any{"a"}},
		Messages: []Message{
			{Role: "_head", Content: []ContentPart{Text("head")}, Line: 1},
			{Role: "developer", Content: []ContentPart{Text(" be brief ")}, Line: 3},
			{Role: "user", Name: "Ross", Content: []ContentPart{Text("look"), img, Text(" here")}, Metadata: map[string]any{"n": int64(1)}, Line: 5},
			{Role: "user", Content: []ContentPart{Text("and this")}, Line: 8},
			{Role: "assistant", Disabled: true, Content: []ContentPart{Text("old")}, Line: 10},
			{Role: "ai", Content: []ContentPart{Text("done")}, Line: 12},
		},
	}
	before := cloneDocument(doc)
	got, changes, err := Adapt(doc, strictWriter(false))
	require.NoError(t, err)
	require.True(t, Equal(before, doc), "Adapt leaves its argument alone")
	require.True(t, EqualMessages([]Message{
		NewMessage("user", "be brief\n\nlook here\n\nand this"),
		NewMessage("assistant", "done"),
	}, got.Messages), "%+v", got.Messages)
	require.Nil(t, got.Meta)
	var lines []string
	for _, c := range changes {
		lines = append(lines, c.String())
	}
	require.Equal(t, []string{
		`message 1 (line 1): dropped the message (it never reaches a model) (small: role _head)`,
		`message 2 (line 3): changed the role "developer" to "system" (small: role developer)`,
		`message 2 (line 3): trimmed the white space at its ends (small: text parts or white space)`,
		`message 3 (line 5): dropped part 2 (image, image/png, 4 bytes) (small: a image)`,
		`message 3 (line 5): dropped the name "Ross" (small: a name)`,
		`message 3 (line 5): dropped metadata n = 1 (small: metadata)`,
		`message 3 (line 5): joined 2 text parts that were side by side (small: text parts or white space)`,
		`message 5 (line 10): dropped the message (it never reaches a model) (small: disabled)`,
		`message 6 (line 12): changed the role "ai" to "assistant" (small: role ai)`,
		`message 2 (line 3): changed the role "system" to "user" (small: role system)`,
		`message 3 (line 5): joined the message into message 2, after a blank line (small: two user messages in a row)`,
		`message 4 (line 8): joined the message into message 3, after a blank line (small: two user messages in a row)`,
		`document: dropped metadata tags = ["a"], title = "Notes" (small: document metadata)`,
	}, lines)
}

func TestAdaptJoinsIntoOne(t *testing.T) {
	doc := &Document{Messages: []Message{NewMessage("user", "a"), NewMessage("assistant", "b"), NewMessage("user", "")}}
	named := NewMessage("user", "c")
	named.Name = "Ann"
	two := &Document{Messages: []Message{NewMessage("user", "a"), named}}
	got, changes, err := Adapt(two, strictWriter(false))
	require.NoError(t, err)
	require.Equal(t, "a\n\nc", got.Messages[0].Text())
	require.Equal(t, []string{"dropped the name \"Ann\"", "joined the message into message 1, after a blank line"}, []string{changes[0].Done, changes[1].Done})

	got, changes, err = Adapt(doc, strictWriter(true))
	require.NoError(t, err)
	require.True(t, EqualMessages([]Message{NewMessage("user", "a\n\nb")}, got.Messages), "%+v", got.Messages)
	require.Len(t, changes, 1)
	require.Equal(t, "document: joined messages 1 to 3 into one, separated by blank lines (small: not one message)", changes[0].String())
}

func TestAdaptRefuses(t *testing.T) {
	other := func(d *Document) error {
		return errors.Join(&UnsupportedError{Format: "x", Index: 0, What: "a name", Thing: ThingName},
			&UnsupportedError{Format: "x", Index: -1, What: "the messages do not read back"})
	}
	_, _, err := Adapt(&Document{Messages: []Message{{Role: "user", Name: "a", Content: []ContentPart{Text("x")}}}}, other)
	require.ErrorContains(t, err, "do not read back", "ThingOther cannot be met")

	plain := errors.New("disk full")
	_, _, err = Adapt(&Document{}, func(*Document) error { return plain })
	require.ErrorIs(t, err, plain)

	// A text error that trimming does not cure: the second round fails
	// rather than loop.
	rounds := 0
	stubborn := func(d *Document) error {
		rounds++
		return &UnsupportedError{Format: "x", Index: 0, What: "a line reads as a boundary", Thing: ThingText}
	}
	_, changes, err := Adapt(&Document{Messages: []Message{NewMessage("user", " user: ")}}, stubborn)
	require.ErrorContains(t, err, "boundary")
	require.Equal(t, 2, rounds)
	require.Len(t, changes, 1)

	// A user message that the format refuses has nowhere to go: dropped.
	noUser := func(d *Document) error {
		for i, m := range d.Messages {
			if m.Role != "assistant" {
				return &UnsupportedError{Format: "x", Index: i, Thing: ThingRole, What: "role " + m.Role}
			}
		}
		return nil
	}
	got, changes, err := Adapt(&Document{Messages: []Message{NewMessage("critic", "x")}}, noUser)
	require.NoError(t, err)
	require.Empty(t, got.Messages)
	require.Len(t, changes, 2)
	require.Contains(t, changes[1].Done, "dropped the user message")
}

// A part dropped between two texts must not glue their words together,
// and the change says so.
func TestAdaptKeepsWordsApart(t *testing.T) {
	img := ContentPart{Kind: KindImage, Value: "aGk=", MediaType: "image/png"}
	for _, tc := range []struct {
		content []ContentPart
		want    string
		apart   bool
	}{
		{[]ContentPart{Text("look"), img, Text("here")}, "look\nhere", true},
		{[]ContentPart{Text("look "), img, Text("here")}, "look here", false},
		{[]ContentPart{Text("look"), img, Text("\nhere")}, "look\nhere", false},
		{[]ContentPart{Text("look"), img}, "look", false},
		{[]ContentPart{img, Text("here")}, "here", false},
		{[]ContentPart{Text("a"), img, img, Text("b")}, "a\nb", true},
	} {
		doc := &Document{Messages: []Message{{Role: "user", Content: tc.content, Line: 1}}}
		got, changes, err := Adapt(doc, strictWriter(false))
		require.NoError(t, err)
		require.Equal(t, tc.want, got.Messages[0].Text())
		said := false
		for _, c := range changes {
			said = said || strings.Contains(c.Done, "leaving a line break")
		}
		require.Equal(t, tc.apart, said, "%v", changes)
	}
}

// A writer that holds no comments refuses each; Adapt drops each and says
// so, and a dropped message's comments move before the next message.
func TestAdaptDropsComments(t *testing.T) {
	doc := &Document{
		Messages: []Message{NewMessage("user", "a"), {Role: "assistant", Disabled: true, Content: []ContentPart{Text("b")}}, NewMessage("assistant", "c")},
		Comments: []Comment{{Format: "stf", Text: ";# one", Message: 0, Part: -1, Line: 1}, {Format: "stf", Text: ";# two\n", Message: 1, Part: 0, Line: 4}},
	}
	noComments := func(d *Document) error {
		errs := CommentErrors(d, "small")
		for i, m := range d.Messages {
			if m.Disabled {
				errs = append(errs, &UnsupportedError{Format: "small", Index: i, Thing: ThingDisabled, What: "disabled"})
			}
		}
		return errors.Join(errs...)
	}
	err := noComments(doc)
	require.ErrorContains(t, err, `small: document: the stf comment ";# one" (small files hold no comments of another format)`)

	// Only the message: the comment inside it moves before the next one.
	keep := func(d *Document) error {
		err := noComments(d)
		errs, _ := unsupportedErrors(err)
		for _, e := range errs {
			if e.Thing == ThingDisabled {
				return e
			}
		}
		return nil
	}
	got, _, err := Adapt(doc, keep)
	require.NoError(t, err)
	require.Equal(t, Comment{Format: "stf", Text: ";# two\n", Message: 1, Part: -1, Line: 4}, got.Comments[1])

	got, changes, err := Adapt(doc, noComments)
	require.NoError(t, err)
	require.Empty(t, got.Comments)
	require.Len(t, doc.Comments, 2, "Adapt leaves its argument alone")
	var said []string
	for _, c := range changes {
		said = append(said, c.String())
	}
	require.Equal(t, []string{
		"message 2: dropped the message (it never reaches a model) (small: disabled)",
		`document: dropped the comment ";# one" (small: the stf comment ";# one" (small files hold no comments of another format))`,
		`document: dropped the comment ";# two" (small: the stf comment ";# two" (small files hold no comments of another format))`,
	}, said)
	require.Equal(t, 4, changes[2].Line)
}

// A writer's Nearest text was offered for the text before a part between
// two texts was dropped: it is not applied stale (the words would glue),
// the next round asks again.
func TestAdaptNearestNotStale(t *testing.T) {
	img := ContentPart{Kind: KindImage, Value: "aGk=", MediaType: "image/png"}
	doc := &Document{Messages: []Message{{Role: "user", Content: []ContentPart{Text("look"), img, Text("here")}, Line: 1}}}
	oneText := func(d *Document) error {
		var errs []error
		for i, m := range d.Messages {
			texts := 0
			for j, p := range m.Content {
				if p.Kind != KindText {
					errs = append(errs, &UnsupportedError{Format: "one", Index: i, Thing: ThingPart, Part: j, What: "a part"})
				} else {
					texts++
				}
			}
			if t := m.Text() + "\n"; texts > 1 {
				errs = append(errs, &UnsupportedError{Format: "one", Index: i, Thing: ThingText, Nearest: &t, What: "text parts"})
			}
		}
		return errors.Join(errs...)
	}
	got, _, err := Adapt(doc, oneText)
	require.NoError(t, err)
	require.Equal(t, []ContentPart{Text("look\nhere\n")}, got.Messages[0].Content)
}

// A part refused twice is changed once: dropping it twice would drop the
// part after it too.
func TestAdaptPartRefusedTwice(t *testing.T) {
	doc := &Document{Messages: []Message{{Role: "user", Content: []ContentPart{
		Text("keep me"), {Kind: KindAudio, Value: "aGk=", Detail: "low"}, Text("and me"),
	}}}}
	check := func(d *Document) error {
		var errs []error
		for j, p := range d.Messages[0].Content {
			if p.Kind == KindAudio {
				errs = append(errs,
					&UnsupportedError{Format: "x", Thing: ThingPart, Part: j, What: "audio"},
					&UnsupportedError{Format: "x", Thing: ThingPart, Part: j, What: "a detail"})
			}
		}
		return errors.Join(errs...)
	}
	got, changes, err := Adapt(doc, check)
	if err != nil {
		t.Fatal(err)
	}
	if len(changes) != 1 || got.Messages[0].Text() != "keep me\nand me" && got.Messages[0].Text() != "keep meand me" {
		t.Fatalf("changes %v, text %q", changes, got.Messages[0].Text())
	}
	if n := len(got.Messages[0].Content); n != 2 {
		t.Fatalf("%d parts left: %v", n, got.Messages[0].Content)
	}
}

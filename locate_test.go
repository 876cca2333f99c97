package promptfmt

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
)

// Locate points each refusal at its thing's own line.
func TestLocate(t *testing.T) {
	doc := &Document{
		KeyLines: map[string]int{"title": 2, "tags": 3},
		Messages: []Message{
			{Role: "user", Line: 5, TextLine: 6, KeyLines: map[string]int{"temperature": 9, "model": 8}},
			{Role: "assistant", Line: 12},
			{Role: "_head", KeyLines: map[string]int{"config": 14, "config.0": 14}},
		},
		Comments: []Comment{{Format: "stf", Text: ";# c", Line: 11}},
	}
	for _, tc := range []struct {
		e    UnsupportedError
		want int
	}{
		{UnsupportedError{Index: -1, Thing: ThingMessages}, 12},
		{UnsupportedError{Index: -1, Thing: ThingMeta, Key: "tags"}, 3},
		{UnsupportedError{Index: -1, Thing: ThingMeta}, 2},
		{UnsupportedError{Index: -1, Thing: ThingComment, Part: 0}, 11},
		{UnsupportedError{Index: 0, Line: 5, Thing: ThingMetadata, Key: "temperature"}, 9},
		{UnsupportedError{Index: 0, Line: 5, Thing: ThingMetadata}, 8},
		{UnsupportedError{Index: 0, Line: 5, Thing: ThingText, TextLine: 3}, 8},
		{UnsupportedError{Index: 0, Line: 5, Thing: ThingText}, 5},
		{UnsupportedError{Index: 1, Line: 12, Thing: ThingMetadata, Key: "x"}, 12},
		{UnsupportedError{Index: 0, Line: 5, Thing: ThingName}, 5},
		{UnsupportedError{Index: 2, Thing: ThingRole}, 14}, // no line of its own: its keys'

	} {
		e := tc.e
		Locate(doc, errors.Join(errors.New("other"), &e))
		require.Equal(t, tc.want, e.Line, "%+v", tc.e)
	}
}

package schema

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/jsonvalue"
	"github.com/stretchr/testify/require"
)

// The three test tables of upstream's crates/pdl/src/schema/tests.rs, from
// testdata/schema_cases.extract.json (see testdata/SOURCE.md), run in full.

type upstreamCases struct {
	Validate []struct {
		Schema   string  `json:"schema"`
		Input    string  `json:"input"`
		Expected *string `json:"expected_error"`
	} `json:"validate_cases"`
	Parse []struct {
		Schema string `json:"schema"`
		OK     bool   `json:"ok"`
	} `json:"parse_cases"`
	Value []struct {
		Schema   string          `json:"schema"`
		Input    string          `json:"input"`
		Expected json.RawMessage `json:"expected"`
	} `json:"value_cases"`
}

func loadUpstream(t *testing.T) upstreamCases {
	data, err := os.ReadFile("testdata/schema_cases.extract.json")
	require.NoError(t, err)
	var c upstreamCases
	require.NoError(t, json.Unmarshal(data, &c))
	return c
}

// generous is upstream's loose comparison: lower-case both, keep ASCII
// letters and digits only, then expected must be a substring of actual.
func generous(expected, actual string) bool {
	keep := func(s string) string {
		var b strings.Builder
		for _, c := range []byte(strings.ToLower(s)) {
			if 'a' <= c && c <= 'z' || '0' <= c && c <= '9' {
				b.WriteByte(c)
			}
		}
		return b.String()
	}
	return strings.Contains(keep(actual), keep(expected))
}

func TestGenerous(t *testing.T) {
	require.True(t, generous("missing fields: name, age", "Your output is missing fields : name, age. Make"))
	require.False(t, generous("missing fields: name", "Your output is missing a field: name"))
}

func TestUpstreamValidate(t *testing.T) {
	c := loadUpstream(t)
	require.Len(t, c.Validate, 54)
	for i, tc := range c.Validate {
		t.Run(fmt.Sprintf("%02d", i), func(t *testing.T) {
			s, err := Parse([]byte(tc.Schema))
			require.NoError(t, err, tc.Schema)
			v, err := s.Extract(tc.Input)
			if tc.Expected == nil {
				require.NoError(t, err, "schema %q input %q", tc.Schema, tc.Input)
				return
			}
			require.Error(t, err, "schema %q input %q gave %#v", tc.Schema, tc.Input, v)
			require.IsType(t, &ValueError{}, err)
			require.True(t, generous(*tc.Expected, err.Error()), "want %q in %q", *tc.Expected, err.Error())
		})
	}
}

// parseDeviations are the upstream parse cases we decide differently on
// purpose, with the reason. They still run, asserting our outcome.
var parseDeviations = map[string]string{
	"int { min: -3 }": "negative numbers are allowed in constraints; upstream cannot tokenize them",
}

func TestUpstreamParse(t *testing.T) {
	c := loadUpstream(t)
	require.Len(t, c.Parse, 11)
	for i, tc := range c.Parse {
		t.Run(fmt.Sprintf("%02d", i), func(t *testing.T) {
			s, err := Parse([]byte(tc.Schema))
			if reason, ok := parseDeviations[tc.Schema]; ok {
				require.Equal(t, !tc.OK, err == nil, "deviation (%s): %q gave %v", reason, tc.Schema, err)
				return
			}
			if tc.OK {
				require.NoError(t, err, tc.Schema)
				require.NotNil(t, s)
				return
			}
			require.Error(t, err, tc.Schema)
			var pe *promptfmt.ParseError
			require.ErrorAs(t, err, &pe)
			require.Equal(t, "pdl", pe.Format)
		})
	}
	// The deviation really is one: the case is in the table.
	for name := range parseDeviations {
		found := false
		for _, tc := range c.Parse {
			found = found || tc.Schema == name
		}
		require.True(t, found, name)
	}
}

func TestUpstreamValue(t *testing.T) {
	c := loadUpstream(t)
	require.Len(t, c.Value, 34)
	for i, tc := range c.Value {
		t.Run(fmt.Sprintf("%02d", i), func(t *testing.T) {
			s, err := Parse([]byte(tc.Schema))
			require.NoError(t, err)
			got, err := s.Extract(tc.Input)
			require.NoError(t, err, "schema %q input %q", tc.Schema, tc.Input)
			want, err := jsonvalue.Decode(tc.Expected)
			require.NoError(t, err)
			// int64 and float64 stay apart, as serde_json's Value equality
			// keeps integers and floats apart.
			require.Equal(t, want, got)
		})
	}
}

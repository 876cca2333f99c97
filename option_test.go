package promptfmt

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
)

// Options of this package go to Settings, a format's own to its target,
// another format's are an error naming them; Finish puts the file name on
// the error and the warnings.
func TestApplyOptions(t *testing.T) {
	type own struct{ role string }
	role := func(r string) Option {
		return NewOption("stf", "stf.DefaultRole", func(t any) { t.(*own).role = r })
	}
	var s Settings
	var o own
	require.NoError(t, ApplyOptions("stf", &s, &o, []Option{File("a.stf"), Limits(TemplateLimits{MaxSteps: 5}), role("user")}))
	require.Equal(t, "a.stf", s.File)
	require.Equal(t, int64(5), s.Limits.MaxSteps)
	require.Equal(t, "user", o.role)

	err := ApplyOptions("prapti", &s, &o, []Option{role("x"), {}})
	require.ErrorContains(t, err, "stf.DefaultRole is an option of stf, not of prapti")
	require.ErrorContains(t, err, "a zero promptfmt.Option")

	doc := &Document{Warnings: []Warning{{Format: "stf", Line: 1, Col: 1, Msg: "odd"}}}
	pe := &ParseError{Format: "stf", Line: 2, Col: 1, Msg: "bad"}
	pe2 := &ParseError{Format: "stf", Line: 3, Col: 1, Msg: "worse"}
	_, got := s.Finish(doc, errors.Join(pe, pe2))
	require.Equal(t, "a.stf:2:1: bad\na.stf:3:1: worse", got.Error())
	require.Equal(t, "a.stf:1:1: odd", doc.Warnings[0].String())
}

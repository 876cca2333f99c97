package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/promptfmt/promptfmt/internal/growth"
	"github.com/promptfmt/promptfmt/internal/lines"
)

// adversarialUnits are pieces of syntax that some format reads as
// structure: openers that nest, markers that start messages, line breaks
// of every kind, quotes and escapes. Repeated, each makes an input on
// which a parser that rescans, recounts or copies what it has read grows
// faster than the input.
var adversarialUnits = []string{
	"a\n", "\r", "\r\n", "\n\n", "\u2028", " ", "\t",
	"{", "[", "(", "<", "{{", "{%", "{#", "}}", "<|", "|>", "\"", "'", "\\", "`", "```\n", "~~~\n",
	"---\n", "# x\n", "### x\n", "- ", "* ", "1. ", "> ", "- x\n  ", "<!--", "-->", "<div>\n",
	"% x = 1\n", "% x = [", "### @user:\n", "### @user/a:\nx\n", ";user\n", ";;x\n", ";/*\n", ";# c\n", ";meta {a:[",
	"<|user|>\nx\n", "<|media(a.png)|>", "user:\n", "\\", "\\{{", "{{role \"user\"}}", "{{role \"user\"}}x\n", "{{#if a}}", "{{!--", "{{{", "{{media url=\"x\"}}", "user[a=\"b\"]:\nx\n", "x: {", "x:\n  ", "- [", "&a [1]\n", "? ",
}

// Every parser reads every repeated unit in time and memory linear in the
// input, after any front matter, header or opening message the format
// needs: allocation at n and 4n repetitions (growth.Linear).
func TestParsersAreLinear(t *testing.T) {
	growth.NotUnderRace(t)
	lines.CountWork()
	prefixes := map[string][]string{
		"prapti":     {"", "### @user:\n"},
		"stf":        {"", ";user\n"},
		"pdl":        {"", "<|user|>\n\n"},
		"promptfile": {"", "---\nprompt-id: P1\n---\n", "---\nx: "},
		"dotprompt":  {"---\nmodel: m\n---\n", "---\nmodel: m\n---\n{{role \"user\"}}\n"},
		"prompty":    {"", "---\nname: x\n---\n", "---\nx: "},
	}
	for i := range formats {
		f := &formats[i]
		for _, prefix := range prefixes[f.name] {
			for _, unit := range adversarialUnits {
				what := fmt.Sprintf("%s: %q + %q×n", f.name, prefix, unit)
				n := 32 << 10 / len(unit) // big enough that the runtime's own allocations are noise
				t.Run(what, func(t *testing.T) {
					growth.Linear(t, what, n, func(n int) float64 {
						src := []byte(prefix + strings.Repeat(unit, n))
						return growth.AllocBytes(func() { readAll(f, src) })
					})
					// Time too, by the work of finding positions, which
					// allocates nothing: a parser asking lines.Position
					// for each message rescans the input each time.
					growth.Linear(t, what+" (positions)", n, func(n int) float64 {
						src := []byte(prefix + strings.Repeat(unit, n))
						before := lines.Work()
						readAll(f, src)
						return float64(lines.Work()-before) + 1
					})
				})
			}
		}
	}
}

// Every parser reads a value nested n deep (opener×n, a middle, closer×n)
// in time and memory linear in n, or refuses it early.
func TestNestingIsLinear(t *testing.T) {
	growth.NotUnderRace(t)
	nests := map[string][][3]string{
		"prapti":     {{"% x = ", "[", "]"}, {"% x = ", "{a = ", "}"}, {"", "> ", "x"}, {"", "- ", "x"}},
		"stf":        {{";meta ", "{a:", "1}"}, {";meta ", "[", "]"}, {";user\n;call f ", "[", "]"}},
		"pdl":        {{"<|user|>\n\n{{ ", "(", ")"}, {"<|schema|>\n\n", "[", "]"}, {"<|schema|>\n\n", "{a: ", "}"}},
		"promptfile": {{"---\nx: ", "{a: ", "}"}, {"---\nx: ", "[", "]"}},
		"prompty":    {{"---\nx: ", "{a: ", "}"}, {"---\nx: ", "[", "]"}, {"---\ninputs: ", "{a: ", "}"}},
	}
	suffixes := map[string]string{"promptfile": "\n---\nbody\n", "prompty": "\n---\nuser:\nx\n", "pdl": " }}\n"}
	const n = 500
	for i := range formats {
		f := &formats[i]
		for _, nest := range nests[f.name] {
			what := fmt.Sprintf("%s: %q + %q×n + %q×n", f.name, nest[0], nest[1], nest[2])
			t.Run(what, func(t *testing.T) {
				growth.Linear(t, what, n, func(n int) float64 {
					src := []byte(nest[0] + strings.Repeat(nest[1], n) + "1" + strings.Repeat(nest[2], n) + suffixes[f.name])
					return growth.AllocBytes(func() { readAll(f, src) })
				})
			})
		}
	}
}

// readAll reads src every way the command can: parsed, and for a
// template loaded and rendered without inputs.
func readAll(f *formatInfo, src []byte) {
	_, _ = f.parse(src)
	if f.load != nil {
		if tpl, err := f.load(src, ""); err == nil {
			_, _, _ = tpl.Prepare(nil)
		}
	}
}

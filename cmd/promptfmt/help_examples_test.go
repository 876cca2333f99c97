package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// helpTexts returns every help text the command shows, by the arguments
// that show it: promptfmt -h, every command's and subcommand's -h (the
// subcommands read from each command's "Subcommands:" list) and every
// page of promptfmt help.
func helpTexts(t *testing.T) map[string]string {
	t.Helper()
	texts := map[string]string{}
	show := func(args ...string) string {
		out, errOut, status := runCmd(t, "", args...)
		require.Equal(t, exitOK, status, "%v: %s", args, errOut)
		texts[strings.Join(args, " ")] = out
		return out
	}
	show("-h")
	show("help")
	for _, f := range formats {
		show("help", f.name)
	}
	for _, name := range strings.Split(datasetNames(), ", ") {
		show("help", name)
	}
	for _, cmd := range commands {
		show("help", cmd.name)
		out := show(cmd.name, "-h")
		_, list, ok := strings.Cut(out, "\nSubcommands:\n")
		if !ok {
			continue
		}
		for _, line := range strings.Split(list, "\n") {
			fields := strings.Fields(line)
			if !strings.HasPrefix(line, "  ") || len(fields) == 0 {
				break
			}
			show(cmd.name, fields[0], "-h")
		}
	}
	return texts
}

// helpExample is one command line of a help text's Example: block.
type helpExample struct {
	line   string
	stdin  string
	args   []string // after "promptfmt"
	status int      // what it exits with: 0 unless a "# exit N" comment says
}

// examples returns the command lines of text's "Example:" blocks: the
// lines indented by two spaces after an "Example:" line, up to a blank
// one; a line ending in " \" goes on on the next, as in a shell (the
// help pages keep to 80 columns).
func examples(text string) []string {
	var lines []string
	in, cont := false, false
	for _, line := range strings.Split(text, "\n") {
		switch {
		case line == "Example:" || line == "Examples:":
			in = true
		case in && strings.HasPrefix(line, "  ") && strings.TrimSpace(line) != "":
			line = strings.TrimSpace(line)
			if cont {
				lines[len(lines)-1] += line
			} else {
				lines = append(lines, line)
			}
			if cont = strings.HasSuffix(line, " \\"); cont {
				last := lines[len(lines)-1]
				lines[len(lines)-1] = last[:len(last)-1]
			}
		default:
			in, cont = false, false
		}
	}
	return lines
}

// exitComment is an example's "# exit N": the status it is meant to end with.
var exitComment = regexp.MustCompile(`\s+# exit (\d+)$`)

// parseExample splits an example as a shell would, for the little shell
// an example may use: words, '...' and "..." quotes (no escapes), and
// "echo WORDS |" for standard input. Anything else (redirection,
// variables, globs) is refused, so every example stays runnable here.
func parseExample(line string) (helpExample, error) {
	ex := helpExample{line: line}
	if m := exitComment.FindStringSubmatch(line); m != nil {
		ex.status, _ = strconv.Atoi(m[1])
		line = line[:len(line)-len(m[0])]
	}
	var words []string
	var word strings.Builder
	inWord := false
	for i := 0; i < len(line); i++ {
		switch ch := line[i]; ch {
		case ' ':
			if inWord {
				words, inWord = append(words, word.String()), false
				word.Reset()
			}
		case '\'', '"':
			end := strings.IndexByte(line[i+1:], ch)
			if end < 0 {
				return ex, fmt.Errorf("unclosed %c", ch)
			}
			word.WriteString(line[i+1 : i+1+end])
			i += end + 1
			inWord = true
		case '$', '`', '\\', '<', '>', '*', '?', ';', '&', '#', '(', ')':
			return ex, fmt.Errorf("%q: an example is a plain command line", ch)
		case '|':
			if inWord {
				return ex, fmt.Errorf("| inside a word")
			}
			if len(words) == 0 || words[0] != "echo" || ex.stdin != "" {
				return ex, fmt.Errorf("only \"echo WORDS |\" may feed an example")
			}
			ex.stdin = strings.Join(words[1:], " ") + "\n"
			words = nil
		default:
			word.WriteByte(ch)
			inWord = true
		}
	}
	if inWord {
		words = append(words, word.String())
	}
	if len(words) == 0 || words[0] != "promptfmt" {
		return ex, fmt.Errorf("an example runs promptfmt")
	}
	ex.args = words[1:]
	return ex, nil
}

// TestHelpExamples runs every example of every help text as written, from
// the root of a copy of the repository's testdata (examples write: fmt -w,
// convert -o, promptfile new and fix), each in a copy of its own, and
// checks it ends as the text says: status 0 unless "# exit N".
func TestHelpExamples(t *testing.T) {
	testdata, err := filepath.Abs("../../testdata")
	require.NoError(t, err)
	texts := helpTexts(t)
	var topics []string
	for topic := range texts {
		topics = append(topics, topic)
	}
	slices.Sort(topics)
	seen := map[string]bool{}
	for _, topic := range topics {
		lines := examples(texts[topic])
		if topic != "-h" && topic != "help" {
			assert.NotEmpty(t, lines, "promptfmt %s shows no example", topic)
		}
		for _, line := range lines {
			if seen[line] {
				continue // help COMMAND shows COMMAND -h
			}
			seen[line] = true
			ex, err := parseExample(line)
			if !assert.NoError(t, err, "promptfmt %s: %s", topic, line) {
				continue
			}
			t.Run(line, func(t *testing.T) {
				root := t.TempDir()
				require.NoError(t, os.CopyFS(filepath.Join(root, "testdata"), os.DirFS(testdata)))
				t.Chdir(root)
				_, errOut, status := runCmd(t, ex.stdin, ex.args...)
				assert.Equal(t, ex.status, status, "promptfmt %s shows\n  %s\nwhich ends:\n%s", topic, line, errOut)
			})
		}
	}
	assert.GreaterOrEqual(t, len(seen), len(commands)+len(formats), "examples found")
}

// TestHelpSynopses: a help line that reads like a command line
// ("  promptfmt ...") outside an Example: block is a synopsis, with a
// placeholder in capitals (FILE, DIR), so that no runnable-looking line
// escapes TestHelpExamples.
func TestHelpSynopses(t *testing.T) {
	placeholder := regexp.MustCompile(`\b[A-Z]{2,}\b`)
	for topic, text := range helpTexts(t) {
		in := false
		for _, line := range strings.Split(text, "\n") {
			switch {
			case line == "Example:" || line == "Examples:":
				in = true
			case in && strings.HasPrefix(line, "  ") && strings.TrimSpace(line) != "":
			default:
				in = false
				if strings.HasPrefix(line, "  ") && strings.HasPrefix(strings.TrimSpace(line), "promptfmt ") {
					assert.Regexp(t, placeholder, line, "promptfmt %s: a command line outside Example: must be a synopsis", topic)
				}
			}
		}
	}
}

func TestParseExample(t *testing.T) {
	ex, err := parseExample(`echo 'Discard all  HTML.' | promptfmt promptfile new -dir "my prompts"`)
	require.NoError(t, err)
	assert.Equal(t, "Discard all  HTML.\n", ex.stdin)
	assert.Equal(t, []string{"promptfile", "new", "-dir", "my prompts"}, ex.args)
	ex, err = parseExample("promptfmt check bad.stf  # exit 1")
	require.NoError(t, err)
	assert.Equal(t, []string{"check", "bad.stf"}, ex.args)
	assert.Equal(t, 1, ex.status)
	for _, bad := range []string{"promptfmt fmt *.stf", "promptfmt fmt x > y", "cat x | promptfmt fmt", "promptfmt fmt 'x", "go run . fmt"} {
		_, err := parseExample(bad)
		assert.Error(t, err, bad)
	}
	assert.Equal(t, []string{"promptfmt a", "promptfmt b"}, examples("Usage: x\n\nExample:\n  promptfmt a\n  promptfmt b\n\n  promptfmt c\nExample: text\n"))
	assert.Equal(t, []string{"promptfmt a b c", "promptfmt d"}, examples("Example:\n  promptfmt a \\\n    b \\\n    c\n  promptfmt d\n"))
}

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/provider"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const jsonlData = "../../provider/testdata/jsonl/"

// records reads a dataset file's records (all must read).
func records(t *testing.T, d *provider.Dataset, file string) []provider.Record {
	t.Helper()
	f, err := os.Open(file)
	require.NoError(t, err)
	defer f.Close()
	r := d.NewReader(f)
	var out []provider.Record
	for {
		rec, err := r.Read()
		if err == io.EOF {
			return out
		}
		require.NoError(t, err)
		require.NoError(t, rec.Err)
		out = append(out, rec)
	}
}

// sameMessages reports whether two records send a model the same
// messages.
func sameMessages(a, b provider.Record) bool {
	return promptfmt.EqualMessages(a.Doc.ForModel().Messages, b.Doc.ForModel().Messages)
}

func lsDir(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// convert -t stf -o DIR splits a fine-tuning file into a file a record,
// named by line; convert -t openai-jsonl -o FILE DIR gathers them back
// into the same records (the weights of the guide's examples too).
func TestDatasetConvertFineTuning(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	src := jsonlData + "guide.jsonl"
	_, errOut, status := runCmd(t, "", "convert", "-t", "stf", "-o", out, src)
	require.Equal(t, exitOK, status, errOut)
	assert.Equal(t, "promptfmt: converted 5 records\n", errOut)
	require.Equal(t, []string{"line-000001.stf", "line-000002.stf", "line-000003.stf", "line-000004.stf", "line-000005.stf"}, lsDir(t, out))
	stf, err := os.ReadFile(filepath.Join(out, "line-000001.stf"))
	require.NoError(t, err)
	assert.Contains(t, string(stf), ";ai\nParis\n;extra\n{\n  weight: 0,\n}\n;end\n")

	back := filepath.Join(dir, "back.jsonl")
	_, errOut, status = runCmd(t, "", "convert", "-t", "openai-jsonl", "-o", back, out)
	require.Equal(t, exitOK, status, errOut)
	want, got := records(t, provider.OpenAIJSONL, src), records(t, provider.OpenAIJSONL, back)
	require.Len(t, got, len(want))
	for i := range want {
		assert.True(t, sameMessages(want[i], got[i]), "record %d", i+1)
		assert.Equal(t, want[i].Doc.Messages[len(want[i].Doc.Messages)-1].Metadata, got[i].Doc.Messages[len(got[i].Doc.Messages)-1].Metadata)
	}

	// Standard input and output: a stream in, a stream out.
	in, err := os.ReadFile(src)
	require.NoError(t, err)
	stdout, errOut, status := runCmd(t, string(in), "convert", "-f", "openai-jsonl", "-t", "openai-jsonl", "-")
	require.Equal(t, exitOK, status, errOut)
	require.Equal(t, 5, strings.Count(stdout, "\n"))
}

// A batch splits into files named by custom_id, and gathers back with
// the custom_ids the names give.
func TestDatasetConvertBatch(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "requests")
	src := jsonlData + "batch.jsonl"
	_, errOut, status := runCmd(t, "", "convert", "-t", "stf", "-o", out, src)
	require.Equal(t, exitOK, status, errOut)
	require.Equal(t, []string{"request-1.stf", "request-2.stf"}, lsDir(t, out))

	stdout, errOut, status := runCmd(t, "", "convert", "-t", "openai-batch", out)
	require.Equal(t, exitOK, status, errOut)
	back := filepath.Join(dir, "back.jsonl")
	require.NoError(t, os.WriteFile(back, []byte(stdout), 0o600))
	want, got := records(t, provider.OpenAIBatch, src), records(t, provider.OpenAIBatch, back)
	require.Len(t, got, 2)
	for i := range want {
		assert.Equal(t, want[i].ID, got[i].ID)
		assert.Equal(t, "/v1/chat/completions", got[i].URL)
		assert.True(t, sameMessages(want[i], got[i]), "request %d", i+1)
	}

	// Split into Responses bodies, a batch gathers back into /v1/responses
	// requests: the url follows the body's format.
	bodies := filepath.Join(dir, "bodies")
	_, errOut, status = runCmd(t, "", "convert", "-t", "openai-responses", "-o", bodies, src)
	require.Equal(t, exitOK, status, errOut)
	stdout, errOut, status = runCmd(t, "", "convert", "-t", "openai-batch", bodies)
	require.Equal(t, exitOK, status, errOut)
	require.NoError(t, os.WriteFile(back, []byte(stdout), 0o600))
	got = records(t, provider.OpenAIBatch, back)
	require.Len(t, got, 2)
	for i, r := range got {
		assert.Equal(t, want[i].ID, r.ID)
		assert.Equal(t, "/v1/responses", r.URL)
		assert.True(t, sameMessages(want[i], r), "request %d", i+1)
	}

	// -f DATASET: a directory stands for its datasets of that kind.
	data := filepath.Join(dir, "data")
	require.NoError(t, os.MkdirAll(data, 0o755))
	for _, name := range []string{"batch.jsonl", "guide.jsonl"} {
		b, err := os.ReadFile(jsonlData + name)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(data, name), b, 0o600))
	}
	stdout, errOut, status = runCmd(t, "", "convert", "-f", "openai-batch", "-t", "openai-batch", data)
	require.Equal(t, exitOK, status, errOut)
	assert.Equal(t, "promptfmt: converted 2 records\n", errOut, "batch.jsonl's; guide.jsonl is a fine-tuning file")
	assert.Equal(t, 2, strings.Count(stdout, `"custom_id":"request-`))

	// A fine-tuning file into a batch: each line named by its line.
	stdout, errOut, status = runCmd(t, "", "convert", "-t", "openai-batch", jsonlData+"guide.jsonl")
	require.Equal(t, exitOK, status, errOut)
	assert.True(t, strings.HasPrefix(stdout, `{"custom_id":"line-000001","method":"POST","url":"/v1/chat/completions","body":{"messages":[`), stdout)
	assert.Contains(t, stdout, `"custom_id":"line-000005"`)
}

// A bad record stops the run by default, with its FILE:LINE:COL; the
// files of the records before it are written, a gathered -o FILE is not.
// --keep-going reports each and goes on; the status is 1 either way.
func TestDatasetBadRecords(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.jsonl")
	require.NoError(t, os.WriteFile(bad, []byte(`{"messages":[{"role":"user","content":"hi"}]}
{"messages": [{"content": "no role"}]}
{"messages":[{"role":"critic","content":"ok"}]}
`+`{"messages":[{"role":"user","content":"bye"}]}`+"\n"), 0o600))

	out := filepath.Join(dir, "out")
	_, errOut, status := runCmd(t, "", "convert", "-t", "stf", "-o", out, bad)
	require.Equal(t, exitInvalid, status)
	assert.Equal(t, bad+":2:15: a message without a role\n"+
		"promptfmt: stopped at a record that failed, after 1 record; the files of the records before it are written (--keep-going skips such records)\n",
		headlines(errOut))
	assert.Contains(t, errOut, "   2 | {\"messages\": [{\"content\": \"no role\"}]}\n     |               ^\n", "the line, a caret under the column")
	assert.Equal(t, []string{"line-000001.stf"}, lsDir(t, out))

	_, errOut, status = runCmd(t, "", "convert", "--keep-going", "-t", "stf", "-o", out, bad)
	require.Equal(t, exitInvalid, status)
	assert.Equal(t, bad+":2:15: a message without a role\n"+
		bad+":3:22: unknown role \"critic\" (OpenAI's are system, developer, user, assistant and tool)\n"+
		"promptfmt: converted 2 records, 2 skipped\n", headlines(errOut))
	assert.Equal(t, []string{"line-000001.stf", "line-000004.stf"}, lsDir(t, out))

	// Gathered into one file: stopping writes nothing (the file keeps
	// what it held), going on writes the good records.
	target := filepath.Join(dir, "all.jsonl")
	require.NoError(t, os.WriteFile(target, []byte("old\n"), 0o644))
	_, errOut, status = runCmd(t, "", "convert", "-t", "openai-jsonl", "-o", target, bad)
	require.Equal(t, exitInvalid, status)
	assert.Contains(t, errOut, "promptfmt: stopped at a record that failed, after 1 record; "+target+" is not written")
	got, err := os.ReadFile(target)
	require.NoError(t, err)
	assert.Equal(t, "old\n", string(got))
	_, _, status = runCmd(t, "", "convert", "-t", "openai-jsonl", "-o", target, "--keep-going", bad)
	require.Equal(t, exitInvalid, status)
	got, err = os.ReadFile(target)
	require.NoError(t, err)
	assert.Equal(t, `{"messages":[{"role":"user","content":"hi"}]}`+"\n"+`{"messages":[{"role":"user","content":"bye"}]}`+"\n", string(got))
	assert.Empty(t, entriesLike(t, dir, ".all.jsonl"), "no temporary file left")

	// A record the target cannot express is a bad record too, at its line.
	img := filepath.Join(dir, "img.jsonl")
	require.NoError(t, os.WriteFile(img, []byte(`{"messages":[{"role":"user","content":[{"type":"input_audio","input_audio":{"data":"aGk=","format":"wav"}}]}]}`+"\n"), 0o600))
	_, errOut, status = runCmd(t, "", "convert", "-t", "prompty", "-o", filepath.Join(dir, "p"), img)
	require.Equal(t, exitInvalid, status)
	assert.Contains(t, errOut, img+":1: prompty: message 1 (line 1): ")
	_, errOut, status = runCmd(t, "", "convert", "--lossy", "-t", "prompty", "-o", filepath.Join(dir, "p"), img)
	require.Equal(t, exitOK, status, errOut)
	assert.Contains(t, errOut, img+":1: change: ")
}

func entriesLike(t *testing.T, dir, prefix string) []string {
	var out []string
	for _, n := range lsDir(t, dir) {
		if strings.HasPrefix(n, prefix) {
			out = append(out, n)
		}
	}
	return out
}

// Requests are written to files named by their custom_ids, escaped; two
// that would share a file (equal but for case) are refused, as is a
// custom_id too long for a name; gathering gives the custom_ids back.
func TestDatasetFileNames(t *testing.T) {
	dir := t.TempDir()
	body := `"method":"POST","url":"/v1/chat/completions","body":{"messages":[{"role":"user","content":"x"}]}`
	ids := []string{"Req/1", "req/1", "..", "CON", "a b%é", strings.Repeat("x", 300), "ok"}
	var src strings.Builder
	for _, id := range ids {
		b, _ := json.Marshal(id)
		fmt.Fprintf(&src, `{"custom_id":%s,%s}`+"\n", b, body)
	}
	file := filepath.Join(dir, "batch.jsonl")
	require.NoError(t, os.WriteFile(file, []byte(src.String()), 0o600))
	out := filepath.Join(dir, "out")
	_, errOut, status := runCmd(t, "", "convert", "-t", "stf", "-o", out, "--keep-going", file)
	require.Equal(t, exitInvalid, status)
	assert.Equal(t, file+`:2: the custom_id "req/1" would be written to req%2F1.stf, as the request of line 1 was (custom_ids are unique in a batch; names that differ only in case are one file on some systems)`+"\n"+
		file+`:6: the custom_id "`+strings.Repeat("x", 60)+`..." is too long for a file name (304 bytes escaped, most systems take 255)`+"\n"+
		"promptfmt: converted 5 records, 2 skipped\n", headlines(errOut))
	assert.Equal(t, []string{"%2E..stf", "%43ON.stf", "Req%2F1.stf", "a%20b%25%C3%A9.stf", "ok.stf"}, lsDir(t, out))

	stdout, errOut, status := runCmd(t, "", "convert", "-t", "openai-batch", out)
	require.Equal(t, exitOK, status, errOut)
	var got []string
	for _, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
		var req struct {
			ID string `json:"custom_id"`
		}
		require.NoError(t, json.Unmarshal([]byte(line), &req))
		got = append(got, req.ID)
	}
	assert.Equal(t, []string{"..", "CON", "Req/1", "a b%é", "ok"}, got, "each custom_id back, in the names' order")

	// Two files that give one custom_id: the second is refused.
	two := filepath.Join(dir, "two")
	require.NoError(t, os.MkdirAll(two, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(two, "a.stf"), []byte(";user\nhi\n"), 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(two, "a.md"), []byte("### @user:\nhi\n"), 0o600))
	_, errOut, status = runCmd(t, "", "convert", "-t", "openai-batch", two)
	require.Equal(t, exitInvalid, status)
	assert.Contains(t, errOut, filepath.Join(two, "a.stf")+`: the custom_id "a" is `+filepath.Join(two, "a.md")+`'s too (custom_ids are unique in a batch)`)

	// A batch given twice: each custom_id again, at its line.
	batch := jsonlData + "batch.jsonl"
	stdout, errOut, status = runCmd(t, "", "convert", "--keep-going", "-t", "openai-batch", batch, batch)
	require.Equal(t, exitInvalid, status)
	assert.Equal(t, batch+`:1: the custom_id "request-1" is `+batch+`:1's too (custom_ids are unique in a batch)`+"\n"+
		batch+`:2: the custom_id "request-2" is `+batch+`:2's too (custom_ids are unique in a batch)`+"\n"+
		"promptfmt: converted 2 records, 2 skipped\n", headlines(errOut))
	assert.Equal(t, 2, strings.Count(stdout, "\n"))
}

// The escape is reversible and its names are safe: ASCII, no separator,
// nothing hidden, no device name.
func TestEscapeName(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := []byte("aZ09-_./\\: %\x00\n\xff\xc3\xa9CONPRNUL1")
	for range 5000 {
		b := make([]byte, r.IntN(12))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		id := string(b)
		name := escapeName(id)
		require.Equal(t, id, unescapeName(name), "%q -> %q", id, name)
		for i := 0; i < len(name); i++ {
			c := name[i]
			require.True(t, c < 0x80 && c > ' ' && !strings.ContainsRune(`/\:*?"<>|`, rune(c)), "%q -> %q", id, name)
		}
		require.False(t, strings.HasPrefix(name, "."), "%q -> %q", id, name)
		require.False(t, reservedName(name), "%q -> %q", id, name)
	}
	assert.Equal(t, "request-1", escapeName("request-1"))
	assert.Equal(t, "%6Eul.x", escapeName("nul.x"))
	assert.Equal(t, "a%zz%4", unescapeName("a%zz%4"), "a % that escapes nothing is itself")
	assert.Equal(t, "sub/x", idOf(filepath.Join("d", "sub", "x.stf"), "d"))
	assert.Equal(t, "x y", idOf("x%20y.stf", ""))
}

// check reads every record (a directory's datasets too); messages prints
// an array of each record's messages; the commands that read one
// document refuse a dataset.
func TestDatasetCheckAndMessages(t *testing.T) {
	_, errOut, status := runCmd(t, "", "check", jsonlData+"guide.jsonl")
	require.Equal(t, exitOK, status, errOut)
	assert.Equal(t, "promptfmt: checked 5 records of "+jsonlData+"guide.jsonl\n", errOut)

	dir := t.TempDir()
	bad := filepath.Join(dir, "x.jsonl")
	require.NoError(t, os.WriteFile(bad, []byte("\uFEFF"+`{"messages":[{"role":"user","content":"hi"}]}`+"\n[]\n"), 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "notes.jsonl"), []byte(`{"event":"x"}`+"\n"), 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "a.stf"), []byte(";user\nhi\n"), 0o600))
	stdout, errOut, status := runCmd(t, "", "check", dir)
	require.Equal(t, exitInvalid, status)
	assert.Empty(t, stdout)
	assert.Equal(t, bad+":1:1: a byte order mark before the first record (ignored)\n"+
		bad+":2:1: a fine-tuning record must be an object, not an array\n"+
		"promptfmt: checked 2 records of "+bad+", 2 with problems\n"+
		"promptfmt: checked 1 file\n", headlines(errOut), "notes.jsonl is no dataset: left alone, as other JSON is")

	stdout, errOut, status = runCmd(t, "", "messages", jsonlData+"batch.jsonl")
	require.Equal(t, exitOK, status, errOut)
	var msgs [][]promptfmt.Message
	require.NoError(t, json.Unmarshal([]byte(stdout), &msgs), stdout)
	require.Len(t, msgs, 2)
	assert.Equal(t, "You are an unhelpful assistant.", msgs[1][0].Content[0].Value)
	one, _, _ := runCmd(t, `{"messages":[{"role":"user","content":"hi"}]}`, "messages", "-f", "openai", "-")
	fromData, _, status := runCmd(t, `{"messages":[{"role":"user","content":"hi"}]}`, "messages", "-f", "openai-jsonl", "-")
	require.Equal(t, exitOK, status)
	assert.Equal(t, "[\n  "+strings.ReplaceAll(strings.TrimSpace(one), "\n", "\n  ")+"\n]\n", fromData, "a record's messages as messages prints a file's")
	empty, _, status := runCmd(t, "\n", "messages", "-f", "openai-batch", "-")
	require.Equal(t, exitOK, status)
	assert.Equal(t, "[]\n", empty)

	stdout, errOut, status = runCmd(t, "", "messages", bad)
	require.Equal(t, exitInvalid, status)
	assert.Contains(t, errOut, bad+":2:1: a fine-tuning record must be an object")
	assert.Error(t, json.Unmarshal([]byte(stdout), &msgs), "what was printed before a bad record does not parse as the whole")

	for _, args := range [][]string{
		{"parse", jsonlData + "guide.jsonl"},
		{"fmt", jsonlData + "guide.jsonl"},
		{"request", "--as", "openai", jsonlData + "guide.jsonl"},
		{"messages", "--as", "openai", jsonlData + "guide.jsonl"},
		{"parse", "-f", "openai-batch", "-"},
	} {
		_, errOut, status := runCmd(t, "", args...)
		assert.Equal(t, exitUsage, status, "%v", args)
		assert.Contains(t, errOut, "is a dataset of conversations, one a line (openai-jsonl, openai-batch): convert, check and messages read it", "%v", args)
	}
}

// The mistakes of calling convert on a dataset, each a usage error.
func TestDatasetUsage(t *testing.T) {
	dir := t.TempDir()
	neither := filepath.Join(dir, "log.jsonl")
	require.NoError(t, os.WriteFile(neither, []byte(`{"event":"x"}`+"\n"), 0o600))
	data := jsonlData + "guide.jsonl"
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"convert", "-t", "stf", data}, "converting a dataset to stf writes a file a record: give -o DIR"},
		{[]string{"convert", "-t", "stf", "-o", dir, data, data}, "a dataset is split on its own"},
		{[]string{"convert", "-t", "promptfile", "-o", dir, data}, "a dataset converts to prompt files through another format"},
		{[]string{"convert", "-t", "openai-jsonl", "-o", dir, data}, "-o " + dir + " is a directory: with -t openai-jsonl, -o names the one file written"},
		{[]string{"convert", "-t", "stf", "-o", dir, neither}, "cannot tell whether " + neither + " is openai-jsonl or openai-batch from its first record: give -f FORMAT"},
		{[]string{"convert", "-t", "stf", "-o", dir, "-"}, "cannot tell the format of standard input"},
		{[]string{"convert", "--keep-going", "-t", "stf", "../../testdata/examples/review.md"}, "--keep-going applies to datasets"},
		{[]string{"convert", "-f", "openai-jsonl", "-t", "stf", "-o", dir, jsonlData}, jsonlData + " is a directory: a dataset is split from its file"},
	} {
		_, errOut, status := runCmd(t, "", tc.args...)
		assert.Equal(t, exitUsage, status, "%v: %s", tc.args, errOut)
		assert.Contains(t, errOut, tc.want, "%v", tc.args)
	}
}

func TestDatasetHelpPages(t *testing.T) {
	for _, name := range []string{"openai-jsonl", "openai-batch"} {
		out, errOut, status := runCmd(t, "", "help", name)
		require.Equal(t, exitOK, status, errOut)
		assert.Contains(t, out, "go doc ./provider")
		for _, line := range strings.Split(out, "\n") {
			assert.LessOrEqual(t, len([]rune(line)), 80, "%s: %q", name, line)
		}
		assert.LessOrEqual(t, strings.Count(out, "\n"), 60, "%s: one page", name)
	}
	out, _, _ := runCmd(t, "", "convert", "-h")
	assert.Contains(t, out, "--keep-going")
	assert.Contains(t, out, "promptfmt convert -t stf -o out/ testdata/examples/fine-tuning.jsonl")
}

// The bar: nothing when stderr is no terminal (the tests' buffers); on
// one, drawn only once the run has taken a second, at most ten times a
// second, and erased before any other line and at the end.
func TestProgress(t *testing.T) {
	c := &cli{stderr: &bytes.Buffer{}}
	require.Nil(t, c.startProgress(100, "bytes"))

	var term bytes.Buffer
	now := time.Unix(0, 0)
	p := &progress{out: &term, total: 1000, unit: "bytes", now: func() time.Time { return now }}
	p.start = now
	c = &cli{stderr: erasing{p}}
	p.update(10, 1)
	require.Empty(t, term.String(), "not in the first second")
	now = now.Add(1500 * time.Millisecond)
	p.update(500, 40)
	require.Equal(t, "\r[===============               ]  50% 40 records, 0.0 MB/s\x1b[K", term.String())
	now = now.Add(10 * time.Millisecond)
	p.update(600, 50)
	require.Equal(t, 1, strings.Count(term.String(), "records"), "not redrawn within 100 ms")
	term.Reset()
	fmt.Fprintln(c.stderr, "x.jsonl:3:1: bad")
	require.Equal(t, "\r\x1b[Kx.jsonl:3:1: bad\n", term.String(), "the bar is erased before a line")
	term.Reset()
	now = now.Add(10 * time.Millisecond)
	p.update(700, 60)
	require.Contains(t, term.String(), "60 records", "drawn again at once below the line")
	term.Reset()
	p.stop(c)
	require.Equal(t, "\r\x1b[K", term.String())
	require.Equal(t, &term, c.stderr, "stderr given back")

	files := &progress{total: 4, unit: "files"}
	files.done, files.recs = 1, 1
	assert.Equal(t, "[=======                       ]  25% 1 records (1 of 4 files)", files.line(time.Second))
	stdin := &progress{unit: "bytes"}
	stdin.done, stdin.recs = 3e6, 9
	assert.Equal(t, "9 records, 1.5 MB/s", stdin.line(2*time.Second))
}

// ordered hands results over in order however the loads finish, keeps
// at most a window of them ahead, and starts no load once use stops it.
func TestOrdered(t *testing.T) {
	var started, used, ahead atomic.Int64
	var got []int
	ordered(2000, func(i int) int {
		if n := started.Add(1) - used.Load(); n > ahead.Load() {
			ahead.Store(n) // racy max, enough to see a bound
		}
		time.Sleep(time.Duration(rand.IntN(50)) * time.Microsecond)
		return i
	}, func(i, v int) bool {
		used.Add(1)
		got = append(got, v)
		return i < 1499
	})
	require.Len(t, got, 1500)
	for i, v := range got {
		require.Equal(t, i, v)
	}
	window := int64(8 * runtime.GOMAXPROCS(0))
	assert.LessOrEqual(t, ahead.Load(), window+1, "loads ahead of use")
	time.Sleep(10 * time.Millisecond)
	assert.LessOrEqual(t, started.Load(), int64(1500)+window, "no load starts after use stops")
	ordered(0, func(int) int { panic("no load") }, func(int, int) bool { panic("no use") })
}

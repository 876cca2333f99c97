package promptfmt_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// snippetImports are the packages a README snippet may name without an
// import line: the standard ones the README uses and this module's.
var snippetImports = map[string]string{
	"bytes":      "bytes",
	"context":    "context",
	"errors":     "errors",
	"fmt":        "fmt",
	"io":         "io",
	"json":       "encoding/json",
	"log":        "log",
	"os":         "os",
	"strings":    "strings",
	"promptfmt":  "github.com/promptfmt/promptfmt",
	"formats":    "github.com/promptfmt/promptfmt/formats",
	"pdl":        "github.com/promptfmt/promptfmt/pdl",
	"schema":     "github.com/promptfmt/promptfmt/pdl/schema",
	"prapti":     "github.com/promptfmt/promptfmt/prapti",
	"promptfile": "github.com/promptfmt/promptfmt/promptfile",
	"prompty":    "github.com/promptfmt/promptfmt/prompty",
	"provider":   "github.com/promptfmt/promptfmt/provider",
	"stf":        "github.com/promptfmt/promptfmt/stf",
}

// snippet is one ```go block of a Markdown file.
type snippet struct {
	line int // of the block's first code line, 1-based
	code string
}

// goSnippets returns the ```go blocks of a Markdown file, in order.
func goSnippets(md string) []snippet {
	var out []snippet
	var cur *snippet
	var b strings.Builder
	for i, l := range strings.Split(md, "\n") {
		switch {
		case cur == nil && strings.TrimSpace(l) == "```go":
			cur = &snippet{line: i + 2}
			b.Reset()
		case cur != nil && strings.TrimSpace(l) == "```":
			cur.code = b.String()
			out = append(out, *cur)
			cur = nil
		case cur != nil:
			b.WriteString(l)
			b.WriteByte('\n')
		}
	}
	return out
}

// wrapSnippet makes a README snippet a Go file of package main. The
// wrapping rules, which let a snippet stay short but no shorter than Go:
//   - A block that starts with "package" is a whole file, taken as it is.
//   - Any other block is the body of func main(): statements only, and
//     every name it uses is declared in it or is a package.
//   - Its imports are left out: each package of snippetImports it names is
//     imported (a name not there must be declared, or the build fails).
//   - Each variable it declares at its top level is then used once (_ = v),
//     so that a snippet may stop at the value it shows
//     (msgs := doc.LLMMessages()) without Go's "declared and not used".
//
// A //line directive makes the compiler's positions README.md's.
func wrapSnippet(name string, s snippet) (string, error) {
	if strings.HasPrefix(strings.TrimSpace(s.code), "package ") {
		return fmt.Sprintf("//line %s:%d:1\n%s", name, s.line, s.code), nil
	}
	body := fmt.Sprintf("package main\n\nfunc main() {\n//line %s:%d:1\n%s}\n", name, s.line, s.code)
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, body, 0)
	if err != nil {
		return "", err
	}
	var imports []string
	for _, id := range f.Unresolved {
		if path, ok := snippetImports[id.Name]; ok && !contains(imports, path) {
			imports = append(imports, path)
		}
	}
	sort.Strings(imports)
	var declared []string
	for _, st := range f.Decls[0].(*ast.FuncDecl).Body.List {
		var names []*ast.Ident
		switch st := st.(type) {
		case *ast.AssignStmt:
			if st.Tok == token.DEFINE {
				for _, e := range st.Lhs {
					if id, ok := e.(*ast.Ident); ok {
						names = append(names, id)
					}
				}
			}
		case *ast.DeclStmt:
			if g, ok := st.Decl.(*ast.GenDecl); ok && g.Tok == token.VAR {
				for _, spec := range g.Specs {
					names = append(names, spec.(*ast.ValueSpec).Names...)
				}
			}
		}
		for _, id := range names {
			if id.Name != "_" && !contains(declared, id.Name) {
				declared = append(declared, id.Name)
			}
		}
	}
	var out strings.Builder
	out.WriteString("package main\n\n")
	for _, p := range imports {
		fmt.Fprintf(&out, "import %q\n", p)
	}
	fmt.Fprintf(&out, "\nfunc main() {\n//line %s:%d:1\n%s", name, s.line, s.code)
	if len(declared) > 0 {
		out.WriteString("//line readme_test.go:1\n") // the wrapper's own lines
		for _, d := range declared {
			fmt.Fprintf(&out, "_ = %s\n", d)
		}
	}
	out.WriteString("}\n")
	return out.String(), nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestReadmeSnippets compiles every ```go block of README.md, so that the
// README's code is code that builds against the module as it is. Each block
// becomes one package main (see wrapSnippet for the rules), and all of them
// are compiled by a single `go build` of this module (no binary is written
// when it builds several packages). The files are placed
// at testdata/readme/sN by -overlay, so nothing is written into the
// repository and the go.mod and go.sum are the module's own. An error
// names README.md and the snippet's line.
func TestReadmeSnippets(t *testing.T) {
	md, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	snippets := goSnippets(string(md))
	if len(snippets) < 5 {
		t.Fatalf("README.md: %d ```go blocks, expected at least 5 (is the fence still ```go?)", len(snippets))
	}
	root, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	overlay := map[string]map[string]string{"Replace": {}}
	var pkgs []string
	for i, s := range snippets {
		src, err := wrapSnippet("README.md", s)
		if err != nil {
			t.Errorf("README.md:%d: the snippet does not parse as statements or a file: %v", s.line, err)
			continue
		}
		file := filepath.Join(tmp, fmt.Sprintf("s%d.go", i))
		if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join("testdata", "readme", fmt.Sprintf("s%d", i))
		overlay["Replace"][filepath.Join(root, dir, "main.go")] = file
		pkgs = append(pkgs, "./"+filepath.ToSlash(dir))
	}
	ov, err := json.Marshal(overlay)
	if err != nil {
		t.Fatal(err)
	}
	ovFile := filepath.Join(tmp, "overlay.json")
	if err := os.WriteFile(ovFile, ov, 0o644); err != nil {
		t.Fatal(err)
	}
	// go test puts its own GOROOT/bin first in PATH, so this is the go
	// command that runs the test.
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("no go command to compile README snippets with: %v", err)
	}
	cmd := exec.Command(goCmd, append([]string{"build", "-overlay=" + ovFile}, pkgs...)...)
	cmd.Dir = root
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Errorf("README.md's Go snippets do not compile (%v):\n%s", err, out.String())
	}
}

// TestWrapSnippet checks the wrapping rules: imports found from the
// packages named, top-level variables used, positions kept.
func TestWrapSnippet(t *testing.T) {
	src, err := wrapSnippet("README.md", snippet{line: 40, code: "doc, err := prompty.Parse(nil)\nif err != nil {\n\tlog.Fatal(err)\n}\nfor _, m := range doc.Messages {\n\tv := m\n\t_ = v\n}\nvar n int\n"})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"import \"github.com/promptfmt/promptfmt/prompty\"\n",
		"import \"log\"\n",
		"//line README.md:40:1\ndoc, err := prompty.Parse(nil)\n",
	} {
		if !strings.Contains(src, want) {
			t.Errorf("wrapped snippet lacks %q:\n%s", want, src)
		}
	}
	// The top-level doc, err and n are used; the loop's m and v are not
	// in scope there.
	if want := "//line readme_test.go:1\n_ = doc\n_ = err\n_ = n\n}\n"; !strings.HasSuffix(src, want) {
		t.Errorf("wrapped snippet does not end with %q:\n%s", want, src)
	}
	if _, err := parser.ParseFile(token.NewFileSet(), "x.go", src, 0); err != nil {
		t.Errorf("wrapped snippet does not parse: %v\n%s", err, src)
	}
	whole := "package main\n\nfunc main() {}\n"
	src, err = wrapSnippet("README.md", snippet{line: 7, code: whole})
	if err != nil || src != "//line README.md:7:1\n"+whole {
		t.Errorf("a whole file was changed: %q, %v", src, err)
	}
}

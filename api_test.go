package promptfmt

import (
	"bytes"
	"go/ast"
	"go/doc"
	"go/parser"
	"go/printer"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// apiPackages are the module's public packages, by directory.
var apiPackages = []string{".", "formats", "stf", "prapti", "pdl", "pdl/schema", "promptfile", "prompty", "provider", "dotprompt"}

// The exported API of every public package is written down in api/, one
// file a package, a declaration a line, as Go's own api/ files are: a
// change to it fails this test until the file is updated on purpose
// (PROMPTFMT_UPDATE_API=1 go test -run TestAPI .), so the diff of a change
// shows what it does to the API.
func TestAPI(t *testing.T) {
	for _, dir := range apiPackages {
		got := apiOf(t, dir)
		name := filepath.Join("api", strings.ReplaceAll(strings.Trim(dir, "./"), "/", "_"))
		if dir == "." {
			name = filepath.Join("api", "promptfmt")
		}
		name += ".txt"
		if os.Getenv("PROMPTFMT_UPDATE_API") != "" {
			if err := os.MkdirAll("api", 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(name, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(name)
		if err != nil {
			t.Fatalf("%s: %v (PROMPTFMT_UPDATE_API=1 go test -run TestAPI . writes it)", dir, err)
		}
		if got != string(want) {
			t.Errorf("the API of %s changed; if that is meant, PROMPTFMT_UPDATE_API=1 go test -run TestAPI . and commit %s:\n%s", dir, name, lineDiff(string(want), got))
		}
	}
}

// apiOf lists the exported declarations of the package in dir, without
// comments or bodies, one a line, sorted.
func apiOf(t *testing.T, dir string) string {
	t.Helper()
	fset := token.NewFileSet()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var asts []*ast.File
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		asts = append(asts, file)
	}
	p, err := doc.NewFromFiles(fset, asts, "x")
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	add := func(node any) {
		var b bytes.Buffer
		if err := (&printer.Config{Mode: printer.RawFormat}).Fprint(&b, fset, node); err != nil {
			t.Fatal(err)
		}
		lines = append(lines, strings.Join(strings.Fields(b.String()), " "))
	}
	values := func(vs []*doc.Value) {
		for _, v := range vs {
			for _, spec := range v.Decl.Specs {
				add(&ast.GenDecl{Tok: v.Decl.Tok, Specs: []ast.Spec{spec}})
			}
		}
	}
	funcs := func(fs []*doc.Func) {
		for _, f := range fs {
			d := *f.Decl
			d.Body, d.Doc = nil, nil
			add(&d)
		}
	}
	values(p.Consts)
	values(p.Vars)
	funcs(p.Funcs)
	for _, typ := range p.Types {
		add(typ.Decl)
		values(typ.Consts)
		values(typ.Vars)
		funcs(typ.Funcs)
		funcs(typ.Methods)
	}
	slices.Sort(lines)
	return strings.Join(lines, "\n") + "\n"
}

// lineDiff lists the lines only in want (-) and only in got (+).
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	for _, l := range w {
		if !slices.Contains(g, l) {
			b.WriteString("- " + l + "\n")
		}
	}
	for _, l := range g {
		if !slices.Contains(w, l) {
			b.WriteString("+ " + l + "\n")
		}
	}
	return b.String()
}

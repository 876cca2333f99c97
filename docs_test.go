package promptfmt_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDocComments walks the module: every exported name of every package
// has a doc comment, every package has a package comment, and every
// package outside internal/ and cmd/ has an Example that go test runs.
// internal/gonja, a patched copy of gonja's packages, is left as gonja
// wrote it.
func TestDocComments(t *testing.T) {
	fset := token.NewFileSet()
	type pkg struct{ doc, example bool }
	pkgs := map[string]*pkg{}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && path != "." || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() && path != "." {
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
				return filepath.SkipDir // a module of its own (sdktest), not this one's API
			}
		}
		if d.IsDir() && path == filepath.Join("internal", "gonja") {
			return filepath.SkipDir // gonja's code, documented upstream (see its README)
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		dir := filepath.Dir(path)
		if pkgs[dir] == nil {
			pkgs[dir] = &pkg{}
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		if strings.HasSuffix(path, "_test.go") {
			for _, decl := range f.Decls {
				if fn, ok := decl.(*ast.FuncDecl); ok && strings.HasPrefix(fn.Name.Name, "Example") && hasOutput(f, fn) {
					pkgs[dir].example = true
				}
			}
			return nil
		}
		if f.Doc != nil {
			pkgs[dir].doc = true
		}
		for _, name := range undocumented(f) {
			t.Errorf("%s: %s has no doc comment", path, name)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for dir, p := range pkgs {
		if !p.doc {
			t.Errorf("%s: no package comment", dir)
		}
		// bench/ holds the measuring programs, commands like cmd/.
		public := !strings.HasPrefix(dir, "internal") && !strings.HasPrefix(dir, "cmd") && !strings.HasPrefix(dir, "bench")
		if public && !p.example {
			t.Errorf("%s: no Example function with an Output comment", dir)
		}
	}
}

// undocumented lists the exported declarations of f without a doc comment.
// A name in a documented group (const ( // The kinds. ...)) counts as
// documented, as go doc shows it with the group's comment; so does a
// method of an unexported type.
func undocumented(f *ast.File) []string {
	var out []string
	for _, decl := range f.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			if !d.Name.IsExported() || d.Doc != nil {
				continue
			}
			if d.Recv != nil && !exportedRecv(d.Recv) {
				continue
			}
			out = append(out, d.Name.Name)
		case *ast.GenDecl:
			if d.Tok == token.IMPORT {
				continue
			}
			for _, spec := range d.Specs {
				switch s := spec.(type) {
				case *ast.TypeSpec:
					if s.Name.IsExported() && s.Doc == nil && d.Doc == nil {
						out = append(out, s.Name.Name)
					}
				case *ast.ValueSpec:
					for _, n := range s.Names {
						if n.IsExported() && s.Doc == nil && d.Doc == nil && s.Comment == nil {
							out = append(out, n.Name)
						}
					}
				}
			}
		}
	}
	return out
}

func exportedRecv(recv *ast.FieldList) bool {
	typ := recv.List[0].Type
	if star, ok := typ.(*ast.StarExpr); ok {
		typ = star.X
	}
	if idx, ok := typ.(*ast.IndexExpr); ok {
		typ = idx.X
	}
	id, ok := typ.(*ast.Ident)
	return ok && id.IsExported()
}

// hasOutput reports whether an Example function has an Output comment, so
// that go test runs it rather than only compiles it.
func hasOutput(f *ast.File, fn *ast.FuncDecl) bool {
	for _, cg := range f.Comments {
		if cg.Pos() > fn.Body.Lbrace && cg.End() <= fn.Body.Rbrace {
			text := strings.TrimSpace(cg.Text())
			if strings.HasPrefix(text, "Output:") || strings.HasPrefix(text, "Unordered output:") {
				return true
			}
		}
	}
	return false
}

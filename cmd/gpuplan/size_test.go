package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// Size rules from the house issue: no non-test file over 900 lines, and no
// function over 80 lines unless its doc comment says why it stays whole
// ("… long on purpose: …"). Generated files are exempt.
const (
	maxFileLines = 900
	maxFuncLines = 80
)

func TestFileAndFunctionSizes(t *testing.T) {
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		if ast.IsGenerated(f) {
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		if n := fset.Position(f.End()).Line; n > maxFileLines {
			t.Errorf("%s: %d lines, over %d: split it along its parts", rel, n, maxFileLines)
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			n := fset.Position(fn.Body.Rbrace).Line - fset.Position(fn.Body.Lbrace).Line - 1
			if n > maxFuncLines && !strings.Contains(fn.Doc.Text(), "on purpose") {
				t.Errorf("%s:%d: %s is %d lines, over %d, and its comment does not say why it stays whole (\"… is long on purpose: …\")",
					rel, fset.Position(fn.Pos()).Line, fn.Name.Name, n, maxFuncLines)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

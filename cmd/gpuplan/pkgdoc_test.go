package main

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEveryPackageHasDoc: every package in the module says what it is for.
func TestEveryPackageHasDoc(t *testing.T) {
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		name := d.Name()
		if path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "vendor") {
			return filepath.SkipDir
		}
		pkgs, err := parser.ParseDir(token.NewFileSet(), path, func(fi fs.FileInfo) bool {
			return !strings.HasSuffix(fi.Name(), "_test.go")
		}, parser.ParseComments|parser.PackageClauseOnly)
		if err != nil {
			return err
		}
		for pname, p := range pkgs {
			has := false
			for _, f := range p.Files {
				if f.Doc != nil && strings.HasPrefix(f.Doc.Text(), "Package "+pname) || f.Doc != nil && pname == "main" && strings.HasPrefix(f.Doc.Text(), "Command ") {
					has = true
				}
			}
			if !has {
				t.Errorf("package %s in %s has no package doc comment", pname, path)
			}
		}
		return nil
	})
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
}

//go:build ignore

// Propnames checks that every rapid property test of the core module can be
// found by name, so that CI can run all of them with
// go test -run '^TestProp' -rapid.checks=10000:
//
//   - a function that calls rapid.Check is a test named TestPropX, and it
//     makes exactly one call, rapid.Check(t, propX);
//   - a test named TestProp… calls rapid.Check;
//   - rapid.MakeFuzz takes a prop… function (fuzz targets keep their Fuzz…
//     names).
//
// Run from the module root: go run .ci/propnames.go. It walks every _test.go
// file outside testdata, hidden directories and nested modules (adapters),
// prints each violation as file:line and exits 1 if there is one.
package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

func main() {
	fset := token.NewFileSet()
	var bad []string
	report := func(p token.Pos, format string, args ...any) {
		bad = append(bad, fset.Position(p).String()+": "+fmt.Sprintf(format, args...))
	}
	files := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if path != "." && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata") {
				return filepath.SkipDir
			}
			if path != "." {
				if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
					return filepath.SkipDir // a nested module
				}
			}
			return nil
		}
		if !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		files++
		checkFile(f, report)
		return nil
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "propnames:", err)
		os.Exit(2)
	}
	for _, b := range bad {
		fmt.Println(b)
	}
	if len(bad) > 0 {
		fmt.Printf("propnames: %d violation(s): a test calling rapid.Check is TestPropX and calls rapid.Check(t, propX) once\n", len(bad))
		os.Exit(1)
	}
	fmt.Printf("propnames: %d test files, every rapid property test is TestProp…\n", files)
}

// rapidCall reports whether call is rapid.<name>(…).
func rapidCall(call *ast.CallExpr, name string) bool {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != name {
		return false
	}
	id, ok := sel.X.(*ast.Ident)
	return ok && id.Name == "rapid"
}

func checkFile(f *ast.File, report func(token.Pos, string, ...any)) {
	for _, decl := range f.Decls {
		fn, ok := decl.(*ast.FuncDecl)
		if !ok || fn.Body == nil {
			continue
		}
		name := fn.Name.Name
		var checks []*ast.CallExpr
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			switch {
			case rapidCall(call, "Check"):
				checks = append(checks, call)
			case rapidCall(call, "MakeFuzz"):
				if !strings.HasPrefix(name, "Fuzz") {
					report(call.Pos(), "rapid.MakeFuzz in %s, not in a Fuzz… target", name)
				}
				if len(call.Args) != 1 || !isProp(call.Args[0]) {
					report(call.Pos(), "rapid.MakeFuzz in %s must take a prop… function", name)
				}
			}
			return true
		})
		isTestProp := fn.Recv == nil && strings.HasPrefix(name, "TestProp")
		switch {
		case len(checks) == 0 && isTestProp:
			report(fn.Pos(), "%s is named as a property test but calls no rapid.Check", name)
		case len(checks) == 0:
		case !isTestProp:
			report(fn.Pos(), "%s calls rapid.Check: name it TestProp…", name)
		case len(checks) > 1:
			report(fn.Pos(), "%s calls rapid.Check %d times: one property per TestProp test", name, len(checks))
		default:
			call := checks[0]
			if len(call.Args) != 2 || !isProp(call.Args[1]) {
				report(call.Pos(), "%s: rapid.Check must take a prop… function by name", name)
				break
			}
			prop := call.Args[1].(*ast.Ident).Name
			if want := "TestP" + prop[1:]; name != want {
				report(fn.Pos(), "%s checks %s: name it %s", name, prop, want)
			}
		}
	}
}

func isProp(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	return ok && strings.HasPrefix(id.Name, "prop") && len(id.Name) > len("prop")
}

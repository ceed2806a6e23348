// Package initwork finds the work a Go package's variables make a process
// do before main runs, rather than find laid out in its binary.
//
// A hook process lives for one call, so whatever its packages compute at
// start-up is paid on every call, and a table entry filled in at start-up
// writes its page of the binary's data: a copy-on-write fault each, ~7 µs
// on a virtual machine. The compiler lays a variable out statically when
// its initialiser is made of literals, constants, functions and addresses;
// it computes it at start-up when the initialiser calls a function, builds
// a map, or copies a value it cannot copy statically: a string variable
// (the linker's -X may set it), a struct or array variable holding slices
// or strings, another package's variable, or any variable once an earlier
// initialiser of the package has been computed. Every package of this
// module that a hook binary links is checked with it
// (TestHookPackagesComputeNothingAtStartUp).
package initwork

import (
	"fmt"
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"sort"
)

// Find lists, as "dir/file:line: what", the package-level variables of the Go
// packages in dirs (their files for this platform, tests aside) whose
// initialisers a process would compute at start-up. A sentinel error,
// errors.New of a constant, is allowed: one small allocation, and the idiom
// every Go reader expects. The packages are type-checked from source, their
// imports once for all.
func Find(dirs ...string) ([]string, error) {
	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "source", nil)
	var found []string
	for _, dir := range dirs {
		f, err := find(fset, imp, dir)
		if err != nil {
			return nil, err
		}
		found = append(found, f...)
	}
	return found, nil
}

func find(fset *token.FileSet, imp types.Importer, dir string) ([]string, error) {
	bp, err := build.ImportDir(dir, 0)
	if err != nil {
		return nil, fmt.Errorf("initwork: %w", err)
	}
	var files []*ast.File
	for _, n := range bp.GoFiles {
		f, err := parser.ParseFile(fset, filepath.Join(dir, n), nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Types: map[ast.Expr]types.TypeAndValue{}}
	conf := types.Config{Importer: imp}
	pkg, err := conf.Check(bp.ImportPath, fset, files, info)
	if err != nil {
		return nil, fmt.Errorf("initwork: %w", err)
	}
	// Every initialiser is checked, a blank one's (var _ I = (*T)(nil))
	// too; the named ones are also kept by variable, for copies of them.
	type initialiser struct {
		name string
		expr ast.Expr
	}
	var all []initialiser
	initialisers := map[types.Object]ast.Expr{}
	for _, f := range files {
		for _, d := range f.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.VAR {
				for _, s := range g.Specs {
					vs := s.(*ast.ValueSpec)
					for i, v := range vs.Values {
						if i < len(vs.Names) {
							all = append(all, initialiser{vs.Names[i].Name, v})
							if obj := pkg.Scope().Lookup(vs.Names[i].Name); obj != nil {
								initialisers[obj] = v
							}
						}
					}
				}
			}
		}
	}
	c := checker{fset: fset, pkg: pkg, info: info, initialisers: initialisers}
	for _, in := range all {
		c.expr(in.name, in.expr, false)
	}
	sort.Strings(c.found)
	return c.found, nil
}

type checker struct {
	fset         *token.FileSet
	pkg          *types.Package
	info         *types.Info
	initialisers map[types.Object]ast.Expr
	found        []string
}

func (c *checker) report(n ast.Node, format string, args ...any) {
	p := c.fset.Position(n.Pos())
	name := filepath.Join(filepath.Base(filepath.Dir(p.Filename)), filepath.Base(p.Filename))
	c.found = append(c.found, fmt.Sprintf("%s:%d: %s", filepath.ToSlash(name), p.Line, fmt.Sprintf(format, args...)))
}

// expr checks e, part of variable v's initialiser; addressed is set when
// e is the operand of &.
func (c *checker) expr(v string, e ast.Expr, addressed bool) {
	switch e := e.(type) {
	case *ast.FuncLit, *ast.BasicLit, nil:
	case *ast.ParenExpr:
		c.expr(v, e.X, addressed)
	case *ast.UnaryExpr:
		c.expr(v, e.X, e.Op == token.AND)
	case *ast.BinaryExpr:
		c.expr(v, e.X, false)
		c.expr(v, e.Y, false)
	case *ast.KeyValueExpr:
		if _, field := e.Key.(*ast.Ident); !field {
			c.expr(v, e.Key, false) // an array index or a map key
		}
		c.expr(v, e.Value, false)
	case *ast.CompositeLit:
		if _, ok := c.info.Types[e].Type.Underlying().(*types.Map); ok {
			c.report(e, "%s builds a map at start-up: use a slice of pairs or a switch", v)
		}
		for _, el := range e.Elts {
			c.expr(v, el, false)
		}
	case *ast.CallExpr:
		if tv := c.info.Types[e.Fun]; tv.IsType() && (c.info.Types[e].Value != nil || len(e.Args) == 1 && c.info.Types[e.Args[0]].IsNil()) {
			return // a conversion of a constant or of nil
		}
		if c.sentinelError(e) {
			return
		}
		c.report(e, "%s calls a function at start-up", v)
	case *ast.Ident:
		c.name(v, e, c.info.Uses[e], addressed)
	case *ast.SelectorExpr:
		if _, qualified := c.info.Uses[identOf(e.X)].(*types.PkgName); !qualified {
			c.expr(v, e.X, addressed) // a field of a variable: the variable is read
		}
		c.name(v, e, c.info.Uses[e.Sel], addressed)
	default:
		if c.info.Types[e].Value == nil {
			c.report(e, "%s is computed at start-up (%T)", v, e)
		}
	}
}

// identOf is e when it is an identifier, else nil.
func identOf(e ast.Expr) *ast.Ident {
	id, _ := e.(*ast.Ident)
	return id
}

// sentinelError reports whether e is errors.New of a constant.
func (c *checker) sentinelError(e *ast.CallExpr) bool {
	sel, ok := e.Fun.(*ast.SelectorExpr)
	if !ok || len(e.Args) != 1 || c.info.Types[e.Args[0]].Value == nil {
		return false
	}
	f, ok := c.info.Uses[sel.Sel].(*types.Func)
	return ok && f.Pkg() != nil && f.Pkg().Path() == "errors" && f.Name() == "New"
}

// name checks a name used in variable v's initialiser.
func (c *checker) name(v string, e ast.Expr, obj types.Object, addressed bool) {
	w, ok := obj.(*types.Var)
	if !ok || addressed || w.Parent() != w.Pkg().Scope() {
		return // a constant, a function, a type, or an address
	}
	if w.Pkg() != c.pkg {
		c.report(e, "%s copies %s.%s, another package's variable, at start-up", v, w.Pkg().Name(), w.Name())
		return
	}
	switch init := c.initialisers[w].(type) {
	case *ast.UnaryExpr:
		if _, lit := init.X.(*ast.CompositeLit); init.Op == token.AND && lit {
			return // the address of a literal: copied statically
		}
	case *ast.CompositeLit:
		if _, slice := w.Type().Underlying().(*types.Slice); slice {
			return // a slice literal: copied statically
		}
	}
	c.report(e, "%s copies the variable %s at start-up: use a constant, a literal or its address", v, w.Name())
}

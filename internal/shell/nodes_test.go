package shell

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// nodeSamples holds, for every mvdan/sh syntax node type the bash parser
// produces, a command whose parse contains that node.
var nodeSamples = map[string]string{
	"ArithmCmd":    "((i++))",
	"ArithmExp":    "echo $((1 + 2))",
	"ArrayElem":    "a=(x y)",
	"ArrayExpr":    "a=(x y)",
	"Assign":       "x=1",
	"BinaryArithm": "echo $((1 + 2))",
	"BinaryCmd":    "true && false",
	"BinaryTest":   "[[ a == b ]]",
	"Block":        "{ echo hi; }",
	"CStyleLoop":   "for ((i = 0; i < 3; i++)); do echo $i; done",
	"CallExpr":     "echo hi",
	"CaseClause":   "case x in a) echo a ;; esac",
	"CaseItem":     "case x in a) echo a ;; esac",
	"CmdSubst":     "echo $(date)",
	"CoprocClause": "coproc cat",
	"DblQuoted":    `echo "hi"`,
	"DeclClause":   "declare -r x=1",
	"ExtGlob":      "ls @(a|b)",
	"File":         "echo hi",
	"ForClause":    "for f in a b; do echo $f; done",
	"FuncDecl":     "f() { echo hi; }",
	"IfClause":     "if true; then echo a; else echo b; fi",
	"LetClause":    "let x=1",
	"Lit":          "echo hi",
	"ParamExp":     "echo ${HOME}",
	"ParenArithm":  "echo $(((1 + 2) * 3))",
	"ParenTest":    "[[ (a == b) ]]",
	"ProcSubst":    "diff <(ls a) <(ls b)",
	"Redirect":     "echo hi > out.txt",
	"SglQuoted":    "echo 'hi'",
	"Stmt":         "echo hi",
	"Subshell":     "(echo hi)",
	"TestClause":   "[[ -f x ]]",
	"TimeClause":   "time ls",
	"UnaryArithm":  "echo $((-1))",
	"UnaryTest":    "[[ -f x ]]",
	"WhileClause":  "while false; do echo hi; done",
	"Word":         "echo hi",
	"WordIter":     "for f in a b; do echo $f; done",
}

// nodesNotFromBash are node types the LangBash parser never produces (the
// package documents where each appears); the walk denies them by default.
var nodesNotFromBash = map[string]string{
	"BraceExp":    "only from syntax.SplitBraces",
	"Comment":     "only with syntax.KeepComments, which the walk's parser does not set",
	"FlagsArithm": "only with LangZsh",
	"TestDecl":    "only with LangBats",
}

// syntaxNodeTypes lists the node types (types with a Pos method) declared
// by the mvdan/sh syntax package this module builds with.
func syntaxNodeTypes(t *testing.T) []string {
	t.Helper()
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "mvdan.cc/sh/v3").Output()
	if err != nil {
		t.Skipf("cannot locate mvdan.cc/sh/v3 with go list (%v): the node enumeration needs its source", err)
	}
	dir := filepath.Join(strings.TrimSpace(string(out)), "syntax")
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	require.NoError(t, err)
	fset := token.NewFileSet()
	var names []string
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		require.NoError(t, err)
		for _, d := range file.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv == nil || fd.Name.Name != "Pos" || len(fd.Recv.List) != 1 {
				continue
			}
			typ := fd.Recv.List[0].Type
			if st, ok := typ.(*ast.StarExpr); ok {
				typ = st.X
			}
			if id, ok := typ.(*ast.Ident); ok && id.IsExported() {
				names = append(names, id.Name)
			}
		}
	}
	require.NotEmpty(t, names)
	return names
}

// TestEverySyntaxNodeIsHandled: every node type the parser can put in a
// file has a sample that parses to it and is analysed without "too
// complex"; a node type added by a newer mvdan/sh fails here until it has
// a sample (and, if it is a command, a case in the walk).
func TestEverySyntaxNodeIsHandled(t *testing.T) {
	for _, name := range syntaxNodeTypes(t) {
		if _, ok := nodesNotFromBash[name]; ok {
			continue
		}
		src, ok := nodeSamples[name]
		if !assert.Truef(t, ok, "syntax.%s has no sample in nodeSamples: add one (and handle it in the walk)", name) {
			continue
		}
		file, err := parse(src)
		require.NoError(t, err, src)
		found := false
		syntax.Walk(file, func(n syntax.Node) bool {
			if n != nil && reflect.TypeOf(n).Elem().Name() == name {
				found = true
			}
			return !found
		})
		assert.Truef(t, found, "%q does not parse to a syntax.%s", src, name)
		for _, h := range Analyze(src, testOpts).Hazards {
			assert.NotEqualf(t, TooComplex, h.Kind, "%q (syntax.%s): %s", src, name, h.Detail)
		}
	}
}

// TestUnknownCommandNodeFailsClosed: a command node the walk has no case
// for (here bats' @test, which the bash parser never produces) stops the
// analysis as too complex instead of being skipped.
func TestUnknownCommandNodeFailsClosed(t *testing.T) {
	src := "@test \"x\" {\n  rm -rf /\n}\n"
	file, err := syntax.NewParser(syntax.Variant(syntax.LangBats)).Parse(strings.NewReader(src), "")
	require.NoError(t, err)
	require.IsType(t, &syntax.TestDecl{}, file.Stmts[0].Cmd)
	a := &analyzer{opts: testOpts, res: &Result{}, varMarks: map[string]string{}, maxDepth: DefaultMaxDepth}
	st := &state{vars: map[string]expand.Variable{}, dir: testOpts.Dir}
	a.stmts(&frame{src: src}, st, file.Stmts, ioCtx{})
	require.NotEmpty(t, a.res.Hazards)
	assert.Equal(t, TooComplex, a.res.Hazards[0].Kind)
	assert.Contains(t, a.res.Hazards[0].Detail, "TestDecl")
}

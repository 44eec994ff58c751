package engine

import (
	"slices"
	"sync"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/tausik/tausik/engine/gate"
	"github.com/tausik/tausik/engine/policy"
	"github.com/tausik/tausik/facts"
)

func TestPrefetchNamesAreTheRegoGatesOwn(t *testing.T) {
	gates := []*gate.Gate{
		{Meta: gate.Meta{Name: "a", Language: gate.LangRego, Facts: []string{"surface", gate.NamespaceContent, "git"}}},
		{Meta: gate.Meta{Name: "b", Language: gate.LangCEL, Facts: []string{"files"}}},
		{Meta: gate.Meta{Name: "c", Language: gate.LangRego, Facts: []string{"git", gate.NamespaceDocuments, "python"}}},
	}
	if got, want := prefetchNames(gates), []string{"surface", "git", "python"}; !slices.Equal(got, want) {
		t.Errorf("prefetchNames = %q, want %q", got, want)
	}
}

// TestTermsConvertOnceAcrossGoroutines reads the same input's terms from
// the prefetch and from several policies at once: each namespace is
// converted once (every reader gets the same term) and to the plain
// form's value; the race detector checks the rest.
func TestTermsConvertOnceAcrossGoroutines(t *testing.T) {
	doc := facts.NewDocument()
	doc.Set("surface", facts.OK(facts.Surface{Classes: []facts.SurfaceClass{{Name: "C", Lang: "python", Path: "c.py", Line: 3, Count: 70}}}))
	doc.Set("files", facts.OK(facts.Files{Files: []facts.File{{Path: "a.py", Exists: true, Lines: 3}}}))
	base := policy.NewDocumentInput(doc, nil)
	prefetchTerms(base, []*gate.Gate{{Meta: gate.Meta{Language: gate.LangRego, Facts: []string{"surface", "files"}}}})
	const readers = 8
	got := make([][][2]*ast.Term, readers)
	var wg sync.WaitGroup
	for i := range readers {
		wg.Go(func() {
			terms, err := base.ForGate([]string{"surface", "files"}, nil).RegoTerms()
			if err != nil {
				t.Error(err)
			}
			got[i] = terms
		})
	}
	wg.Wait()
	for i := range readers {
		if len(got[i]) != len(got[0]) {
			t.Fatalf("reader %d saw %d namespaces, reader 0 %d", i, len(got[i]), len(got[0]))
		}
		for j := range got[i] {
			if got[i][j][1] != got[0][j][1] {
				t.Errorf("reader %d got another term for %v: converted twice", i, got[i][j][0])
			}
		}
	}
	for _, kv := range got[0] {
		ns := string(kv[0].Value.(ast.String))
		if ns == "schema" || ns == NamespaceRequest {
			continue
		}
		if want := genericTerm(t, doc.Namespaces[ns]); !kv[1].Equal(want) {
			t.Errorf("%s: term %v, want the plain form's %v", ns, kv[1], want)
		}
	}
}

// genericTerm is ns converted through its plain (generic) form.
func genericTerm(t *testing.T, ns facts.Namespace) *ast.Term {
	t.Helper()
	g, err := ns.Generic()
	if err != nil {
		t.Fatal(err)
	}
	v, err := ast.InterfaceToValue(g)
	if err != nil {
		t.Fatal(err)
	}
	return ast.NewTerm(v)
}

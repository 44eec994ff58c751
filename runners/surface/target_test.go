package surface

import (
	"strings"
	"testing"
)

// splitTarget is target as it read with strings.Split, before Cut: the
// reference the fuzz test holds target to.
func splitTarget(m *pyModules, p, dotted string) (string, string, bool) {
	parts := strings.Split(dotted, ".")
	b, ok := m.bindings[p][parts[0]]
	if !ok {
		return "", "", false
	}
	mod := []string{b.module}
	if b.attr != "" {
		if len(parts) == 1 {
			return b.module, b.attr, true
		}
		mod = append(mod, b.attr)
	}
	if len(parts) == 1 {
		return "", "", true
	}
	mod = append(mod, parts[1:len(parts)-1]...)
	return strings.Join(mod, "."), parts[len(parts)-1], true
}

// FuzzTarget: target, cutting the dotted base, gives what splitting it
// into its parts gave, for a module binding, an attribute binding and no
// binding, empty parts included.
func FuzzTarget(f *testing.F) {
	for _, s := range []string{"X", "m.X", "m.a.b.X", "sub.X", "sub.a.X", "m..X", "m.", "sub.", ".X", "", "nobody.X", "m.a..b."} {
		f.Add(s)
	}
	m := &pyModules{bindings: map[string]map[string]binding{"f.py": {
		"m": {module: "pkg.m"}, "sub": {module: "pkg", attr: "sub"}, "": {module: "empty"},
	}}}
	f.Fuzz(func(t *testing.T, dotted string) {
		gm, gn, gi := m.target("f.py", dotted)
		wm, wn, wi := splitTarget(m, "f.py", dotted)
		if gm != wm || gn != wn || gi != wi {
			t.Fatalf("target(%q) = %q %q %v, split gives %q %q %v", dotted, gm, gn, gi, wm, wn, wi)
		}
	})
}

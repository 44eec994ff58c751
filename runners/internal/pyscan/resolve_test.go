package pyscan

import (
	"strings"
	"testing"
)

// FuzzResolveRelative holds the resolver to importlib's rule: the result
// is the package with level-1 trailing parts dropped, then the module; it
// never climbs above the top-most package and never yields an empty part.
func FuzzResolveRelative(f *testing.F) {
	f.Add("a.b.c", 1, "m")
	f.Add("a.b", 2, "")
	f.Add("a", 2, "x.y")
	f.Add("", 1, "m")
	f.Add("a.b", 0, "os")
	f.Fuzz(func(t *testing.T, pkg string, level int, module string) {
		if strings.Contains(pkg, "..") || strings.HasPrefix(pkg, ".") || strings.HasSuffix(pkg, ".") ||
			strings.HasPrefix(module, ".") || strings.HasSuffix(module, ".") || strings.Contains(module, "..") {
			return // not names a scanner produces
		}
		got, ok := ResolveRelative(pkg, level, module)
		parts := 0
		if pkg != "" {
			parts = len(strings.Split(pkg, "."))
		}
		switch {
		case level <= 0:
			if got != module || ok != (module != "") {
				t.Fatalf("absolute %q gave %q %v", module, got, ok)
			}
		case level-1 >= parts:
			if ok || got != "" {
				t.Fatalf("pkg %q level %d climbs above the top and gave %q", pkg, level, got)
			}
		default:
			base := strings.Join(strings.Split(pkg, ".")[:parts-(level-1)], ".")
			want := base
			if module != "" {
				want += "." + module
			}
			if !ok || got != want || !strings.HasPrefix(pkg+".", base+".") {
				t.Fatalf("pkg %q level %d module %q gave %q %v, want %q", pkg, level, module, got, ok, want)
			}
		}
	})
}

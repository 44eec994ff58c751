package surface

import (
	"slices"
	"strings"

	"github.com/tausik/tausik/internal/pathpat"
)

// Params is what the gate reading the namespace decides about the scan,
// from its params of the same names (docs/facts.md, class_surface's
// gate.yaml): the roots scanned and the paths left out, and which classes
// the policy can have anything to say about.
type Params struct {
	Roots   []string
	Exclude []string
	// Cap is max_public_members: only classes at or over it, or that one
	// ambiguous candidate would take to it, are listed (0: every class).
	Cap int
	// Named holds the class names baseline keys end with ("Name",
	// "path:Name"): those classes are listed whatever their count.
	Named map[string]bool
	// IncludeTests is include_tests: the classes of test files are judged,
	// so they can be the base a subclass's finding is counted into.
	IncludeTests bool
}

// ParamsOf reads roots (a list of strings) and exclude (an object whose keys
// are the patterns) from a gate's resolved params; a value of another shape
// reads as none, which the policy reports.
func ParamsOf(p map[string]any) Params {
	var out Params
	switch rs := p["roots"].(type) {
	case []any:
		for _, r := range rs {
			if s, ok := r.(string); ok {
				out.Roots = append(out.Roots, s)
			}
		}
	case []string:
		out.Roots = slices.Clone(rs)
	}
	switch c := p["max_public_members"].(type) {
	case int64:
		out.Cap = int(max(c, 0))
	case int:
		out.Cap = max(c, 0)
	}
	out.IncludeTests, _ = p["include_tests"].(bool)
	out.Named = map[string]bool{}
	if bl, ok := p["baseline"].(map[string]any); ok {
		for k := range bl {
			out.Named[k[strings.LastIndex(k, ":")+1:]] = true
		}
	}
	if ex, ok := p["exclude"].(map[string]any); ok {
		for g := range ex {
			out.Exclude = append(out.Exclude, g)
		}
	}
	slices.Sort(out.Exclude)
	return out
}

// normRoot turns "./src/", "src" and "src/" into "src", and "." or "./" into
// "" (the whole repository).
func normRoot(r string) string {
	for strings.HasPrefix(r, "./") {
		r = r[2:]
	}
	r = strings.TrimRight(r, "/")
	if r == "." {
		return ""
	}
	return r
}

// underRoot reports whether p lies under the normalised root r, on a path
// segment boundary.
func underRoot(p, r string) bool {
	return r == "" || strings.HasPrefix(p, r+"/")
}

// compileExclude compiles an exclusion pattern (the path pattern language,
// package pathpat and docs/paths.md). ok is false for a pattern outside
// that language, or using one of [ ] { } \ which the policy refuses: the
// policy reports it and the scan does not apply it.
func compileExclude(g string) (pathpat.Pattern, bool) {
	if strings.TrimSpace(g) == "" || strings.HasPrefix(g, "/") || strings.ContainsAny(g, `[]{}\`) {
		return pathpat.Pattern{}, false
	}
	c, err := pathpat.Compile(g)
	return c, err == nil
}

package surface

import (
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"
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

// compileGlob turns an exclusion pattern into a regular expression over
// whole paths: "**" matches any run of characters, "*" any run without "/",
// "?" one character but "/", everything else itself. ok is false for a
// pattern outside that language (empty, absolute, or using one of [ ] { }
// \), which the policy reports and the scan does not apply.
func compileGlob(g string) (*regexp.Regexp, bool) {
	if strings.TrimSpace(g) == "" || strings.HasPrefix(g, "/") || strings.ContainsAny(g, `[]{}\`) {
		return nil, false
	}
	var b strings.Builder
	b.WriteString(`^`)
	for i := 0; i < len(g); i++ {
		switch {
		case strings.HasPrefix(g[i:], "**"):
			b.WriteString(`.*`)
			i++
		case g[i] == '*':
			b.WriteString(`[^/]*`)
		case g[i] == '?':
			b.WriteString(`[^/]`)
		default:
			_, n := utf8.DecodeRuneInString(g[i:])
			b.WriteString(regexp.QuoteMeta(g[i : i+n]))
			i += n - 1
		}
	}
	b.WriteString(`$`)
	re, err := regexp.Compile(b.String())
	return re, err == nil
}

// globMatcher is re.MatchString for the compiled form of glob g, skipping
// the regular expression for a path that lacks one of g's literal runs (the
// text between wildcards, which every match holds verbatim): most paths of
// a tree meet none of the exclusions, and the expressions were ~6% of
// Compute on the Python standard library. A run holding U+FFFD is not used,
// since the expression matches it against a byte that is not UTF-8.
func globMatcher(g string, re *regexp.Regexp) func(string) bool {
	var runs []string
	for _, r := range strings.FieldsFunc(g, func(c rune) bool { return c == '*' || c == '?' }) {
		if !strings.ContainsRune(r, utf8.RuneError) {
			runs = append(runs, r)
		}
	}
	prefix, suffix := "", ""
	if len(runs) > 0 && strings.HasPrefix(g, runs[0]) {
		prefix = runs[0]
	}
	if n := len(runs); n > 0 && strings.HasSuffix(g, runs[n-1]) {
		suffix = runs[n-1]
	}
	return func(p string) bool {
		if !strings.HasPrefix(p, prefix) || !strings.HasSuffix(p, suffix) {
			return false
		}
		for _, r := range runs {
			if !strings.Contains(p, r) {
				return false
			}
		}
		return re.MatchString(p)
	}
}

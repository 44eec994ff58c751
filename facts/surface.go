package facts

// Surface is the "surface" namespace that the surface runner fills: every
// Python class and Go struct of the scanned files with its composed public
// surface already counted (own public names united with those of every base
// it resolves, transitively), so that a policy only compares numbers. The
// scanned files are the Python and Go files under Roots minus those an
// Exclude pattern matches: the params of the gate reading the namespace,
// which decide what a base may resolve to.
type Surface struct {
	// Roots holds each root as given, with how many Python and Go files
	// lie under it before exclusion (the whole repository's for ".").
	Roots []SurfaceRoot `json:"roots"`
	// Exclude is the patterns applied, sorted: those the runner's pattern
	// language (*, **, ?) reads; others are left for the policy to report.
	Exclude []string `json:"exclude"`
	// Scanned is the number of files scanned.
	Scanned int `json:"scanned"`
	// Unparsed lists the scanned files that do not parse, by path.
	Unparsed []SurfaceError `json:"unparsed"`
	// Total is the number of classes and structs of the scanned files.
	Total int `json:"total"`
	// Cap is the cap the classes were listed for (the reading gate's
	// max_public_members; 0 lists them all).
	Cap int `json:"cap"`
	// Classes holds the classes of the Python files (by path, in source
	// order), then the structs of the Go files: those whose count is at or
	// over Cap, that one ambiguous candidate would take to Cap, or whose
	// name a baseline key of the reading gate ends with. A policy with that
	// cap misses no class over it, nor any a candidate would take over.
	Classes []SurfaceClass `json:"classes"`
	// AmbiguousBases lists every base with two or more candidates, once:
	// the classes whose closure holds its writer refer to it by index.
	AmbiguousBases []SurfaceAmbiguity `json:"ambiguous_bases"`
}

// SurfaceRoot is one scanned root.
type SurfaceRoot struct {
	Root string `json:"root"` // as the params give it
	// Whole is true for the whole repository ("." or "./").
	Whole bool `json:"whole"`
	Files int  `json:"files"`
}

// SurfaceError locates why a scanned file does not parse.
type SurfaceError struct {
	Path string `json:"path"`
	Line int    `json:"line"`
	Msg  string `json:"msg"`
}

// SurfaceClass is one Python class or Go struct.
type SurfaceClass struct {
	Name string `json:"name"`
	Lang string `json:"lang"` // "python" or "go"
	Path string `json:"path"`
	Line int    `json:"line"`
	// Own is the number of its own public names; Count that of its
	// composed surface.
	Own   int `json:"own"`
	Count int `json:"count"`
	// From names the other classes of its closure (the bases it resolves,
	// transitively), sorted and deduplicated; [] when none.
	From []string `json:"from"`
	// Breakdown is Count in words for a message: "5 own, 72 more from A,
	// B" (From joined), or "all its own" when From is empty. The runner
	// writes it because building it in Rego, for each of thousands of
	// classes over a cap, was about a third of the policy's time.
	Breakdown string `json:"breakdown"`
	// Ambiguous lists the ambiguous bases written anywhere in its closure,
	// which add nothing to Count; [] when none.
	Ambiguous []SurfaceAmbiguous `json:"ambiguous"`
	// Exempt says why the class is not judged by default, "" when it is:
	// "enum" (an enum base, by name or through a base that is one),
	// "protocol" (a Protocol base), "type_checking" (defined under
	// if TYPE_CHECKING:) or "test" (in a test file; the reading gate's
	// include_tests judges those).
	Exempt string `json:"exempt"`
	// Beyond is how many names of its surface none of its over-cap bases
	// has: the bases in its closure, outside its own cycle, whose count is
	// over Cap and that are judged. Count when it has none. A class whose
	// Beyond is within Cap is over the cap only through those bases.
	Beyond int `json:"beyond"`
	// Inherited is, for a class over Cap with Beyond over it, how many
	// judged classes are over Cap only through it (among other bases).
	Inherited int `json:"inherited"`
	// Sources lists, sorted, the files other than Path whose change can
	// alter what the class counts: those defining the classes of its
	// closure, declaring the Go methods they count, and holding the
	// candidates (with their closures) of an ambiguous base of its
	// closure. New-code evaluation attributes a finding about the class to
	// a change touching any of them. [] when none.
	Sources []string `json:"sources"`
}

// SurfaceAmbiguous is an ambiguous base seen from a class whose closure
// holds the class that wrote it.
type SurfaceAmbiguous struct {
	Ref int `json:"ref"` // its index in AmbiguousBases
	// Worst is the largest count the class would have with one candidate
	// resolved: its surface united with that candidate's.
	Worst int `json:"worst"`
}

// SurfaceAmbiguity is a base with two or more candidates.
type SurfaceAmbiguity struct {
	Writer string `json:"writer"` // the name of the class that wrote the base
	Base   string `json:"base"`   // as written: "T" (Python: the last name), "T" or "q.T" (Go)
	// Candidates are "path:line" of each class the base may name, sorted.
	Candidates []string `json:"candidates"`
}

// Plain implements Plainer: the namespace holds every class of the tree and
// is converted on each evaluation that reads it. It yields what a JSON round
// trip would: integers as int64, strings coerced to UTF-8, nil lists as null.
func (s Surface) Plain() map[string]any {
	roots := make([]any, len(s.Roots))
	for i, r := range s.Roots {
		roots[i] = map[string]any{"root": jsonText(r.Root), "whole": r.Whole, "files": int64(r.Files)}
	}
	unparsed := make([]any, len(s.Unparsed))
	for i, u := range s.Unparsed {
		unparsed[i] = map[string]any{"path": jsonText(u.Path), "line": int64(u.Line), "msg": jsonText(u.Msg)}
	}
	classes := make([]any, len(s.Classes))
	for i, c := range s.Classes {
		var amb any
		if c.Ambiguous != nil {
			list := make([]any, len(c.Ambiguous))
			for j, a := range c.Ambiguous {
				list[j] = map[string]any{"ref": int64(a.Ref), "worst": int64(a.Worst)}
			}
			amb = list
		}
		classes[i] = map[string]any{"name": jsonText(c.Name), "lang": jsonText(c.Lang), "path": jsonText(c.Path), "line": int64(c.Line),
			"own": int64(c.Own), "count": int64(c.Count), "from": plainStrings(c.From), "breakdown": jsonText(c.Breakdown), "ambiguous": amb,
			"exempt": jsonText(c.Exempt), "beyond": int64(c.Beyond), "inherited": int64(c.Inherited), "sources": plainStrings(c.Sources)}
	}
	ambs := make([]any, len(s.AmbiguousBases))
	for i, a := range s.AmbiguousBases {
		ambs[i] = map[string]any{"writer": jsonText(a.Writer), "base": jsonText(a.Base), "candidates": plainStrings(a.Candidates)}
	}
	return map[string]any{"roots": nilIfNil(s.Roots == nil, roots), "exclude": plainStrings(s.Exclude), "scanned": int64(s.Scanned), "total": int64(s.Total), "cap": int64(s.Cap),
		"unparsed": nilIfNil(s.Unparsed == nil, unparsed), "classes": nilIfNil(s.Classes == nil, classes), "ambiguous_bases": nilIfNil(s.AmbiguousBases == nil, ambs)}
}

// nilIfNil is list, or nil (JSON null) when the Go list was nil.
func nilIfNil(isNil bool, list []any) any {
	if isNil {
		return nil
	}
	return list
}

package gate

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"sort"
	"sync"

	"gopkg.in/yaml.v3"

	"github.com/tausik/tausik/engine/diag"
	"github.com/tausik/tausik/engine/policy"
	"github.com/tausik/tausik/internal/pathpat"
	"github.com/tausik/tausik/internal/yamlread"
	"github.com/tausik/tausik/runners"
)

// Triggers are the moments a gate can be asked to judge, in workflow order.
var Triggers = []string{"task-start", "pre-write", TriggerPostWrite, "commit", "verify", "task-done", "review"}

// Phases order gates within one evaluation: start gates first, post-scope last.
var Phases = []string{"start", "hook", "scoped", "post_scope"}

// Severities a gate can have. "block" blocks; "ask" blocks too, except
// where the host can ask a person, who may let the call through (see
// Verdict.Ask); "warn" never blocks.
const (
	SeverityBlock = policy.SeverityBlock
	SeverityAsk   = policy.SeverityAsk
	SeverityWarn  = policy.SeverityWarn
)

// ValidSeverity reports whether s is one of the severities.
func ValidSeverity(s string) bool {
	return s == SeverityBlock || s == SeverityAsk || s == SeverityWarn
}

// SeverityRank orders the severities from the weakest: a project may only
// raise a gate's rank.
func SeverityRank(s string) int {
	switch s {
	case SeverityBlock:
		return 2
	case SeverityAsk:
		return 1
	}
	return 0
}

// Languages a policy can be written in.
const (
	LangRego = "rego"
	LangCEL  = "cel"
)

// Compiled on first use, not at every process start (docs/performance.md).
var NameRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z][a-z0-9_]{1,62}$`) })

// Meta is a gate's gate.yaml: what the gate is, when it runs, what it reads.
type Meta struct {
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Prevents    string   `json:"prevents"`
	Phase       string   `json:"phase"`
	Triggers    []string `json:"triggers"`
	Severity    string   `json:"severity"`
	Enabled     bool     `json:"enabled"`
	Language    string   `json:"language"`
	Facts       []string `json:"facts"`
	// FactsAt narrows Facts at a trigger: the namespaces the policy reads
	// when it runs for that trigger, when fewer than all (memory_route
	// judges a write's paths before it, not git status, so a hook does not
	// run git for it).
	FactsAt map[string][]string `json:"facts_at,omitempty"`
	Params  []Param             `json:"params"`
	// Content and Documents are the globs of the files whose lines
	// (content) or parsed documents (documents) the gate reads; the
	// namespace holds only those files for this gate. ContentMaxBytes caps
	// the size of a file whose lines it reads (0: the runner's default).
	Content         []string `json:"content,omitempty"`
	Documents       []string `json:"documents,omitempty"`
	ContentMaxBytes int64    `json:"content_max_bytes,omitempty"`
	// Attribution says which of the gate's violations a request about a
	// change judges (the engine's attribution, judge.go): AttributionNone (the
	// default) every one, AttributionFile those whose file or sources the
	// change touched.
	Attribution string `json:"attribution,omitempty"`
}

// Namespaces whose files a gate names by glob (gate.yaml content:, documents:).
const (
	NamespaceContent   = "content"
	NamespaceDocuments = "documents"
)

// Globs returns the globs the gate declares for namespace ns.
func (m *Meta) Globs(ns string) []string {
	switch ns {
	case NamespaceContent:
		return m.Content
	case NamespaceDocuments:
		return m.Documents
	}
	return nil
}

// Param is one tunable of a gate. ProjectMay says what the committed project
// tier may do with it, so that a repository cannot quietly loosen a gate that
// a user or an organisation relies on.
type Param struct {
	Name        string `json:"name"`
	Type        string `json:"type"`
	Default     any    `json:"default"`
	Description string `json:"description"`
	ProjectMay  string `json:"project_may"`
	// Legacy is how a list of strings, the shape this param had before
	// every exclusion became an object of pattern → reason, is read
	// (pathpat.FromLegacy); "" when the param never was a list.
	Legacy string `json:"legacy_list,omitempty"`
}

// Param types.
const (
	TypeInt     = "int"
	TypeNumber  = "number"
	TypeString  = "string"
	TypeBool    = "bool"
	TypeStrings = "strings" // list of strings
	TypeObject  = "object"  // JSON object
	TypePaths   = "paths"   // object of path pattern (docs/paths.md) → written reason
)

// What the project tier may do with a param (Param.ProjectMay).
const (
	MaySet   = "set"   // anything: the param does not loosen the gate
	MayLower = "lower" // lower a number only (a maximum)
	MayRaise = "raise" // raise a number only (a minimum)
	MayAdd   = "add"   // add list items or object keys, never remove them
	MayNone  = "none"  // nothing: only the user or managed tier may change it
)

var paramTypes = []string{TypeInt, TypeNumber, TypeString, TypeBool, TypeStrings, TypeObject, TypePaths}

// Param returns the param called name.
func (m *Meta) Param(name string) (Param, bool) {
	for _, p := range m.Params {
		if p.Name == name {
			return p, true
		}
	}
	return Param{}, false
}

// parseMeta reads gate.yaml. dirName is the bundle directory's name, which
// the gate's name must equal so a gate is found where its name says.
func parseMeta(file, dirName string, b []byte, known func(ns string) bool, d *diag.Diagnostics) Meta {
	r := yamlread.Reader{File: file, D: d}
	root := r.Parse(b)
	if root == nil {
		return Meta{}
	}
	f := r.Fields(root, "gate.yaml", "name", "description", "prevents", "phase", "triggers",
		"severity", "enabled", "language", "facts", "facts_at", "params", "content", "documents", "content_max_bytes", "attribution")
	r.Require(root, f, "gate.yaml", "name", "description", "prevents", "phase", "triggers",
		"severity", "enabled", "language", "facts")
	m := Meta{
		Name:        r.Str(f["name"], "name"),
		Description: r.Str(f["description"], "description"),
		Prevents:    r.Str(f["prevents"], "prevents"),
		Phase:       r.Str(f["phase"], "phase"),
		Triggers:    r.Strs(f["triggers"], "triggers"),
		Severity:    r.Str(f["severity"], "severity"),
		Enabled:     r.Bool(f["enabled"], "enabled"),
		Language:    r.Str(f["language"], "language"),
		Facts:       r.Strs(f["facts"], "facts"),
	}
	mf := metaFields{r: r, f: f, line: func(k string) int { return yamlread.LineOf(f[k], root) }}
	mf.checkNames(&m, dirName)
	mf.checkKinds(&m, known)
	m.Attribution = AttributionNone
	if f["attribution"] != nil {
		m.Attribution = r.Str(f["attribution"], "attribution")
		if !slices.Contains(attributions, m.Attribution) {
			d.Add(file, mf.line("attribution"), "unknown attribution %q (known: %v)", m.Attribution, attributions)
		}
	}
	m.Params = parseParams(r, f["params"])
	mf.parseGlobs(&m)
	mf.parseFactsAt(&m)
	return m
}

// NeedsAt is the namespaces the gate reads when it runs for trigger.
func (m *Meta) NeedsAt(trigger string) []string {
	if ns, ok := m.FactsAt[trigger]; ok {
		return ns
	}
	return m.Facts
}

// parseFactsAt reads facts_at: per trigger of the gate's, the namespaces of
// facts it reads then, each one facts names.
func (mf metaFields) parseFactsAt(m *Meta) {
	r, file, d := mf.r, mf.r.File, mf.r.D
	for _, kv := range r.Pairs(mf.f["facts_at"], "facts_at") {
		t := kv[0].Value
		if !slices.Contains(m.Triggers, t) {
			d.Add(file, kv[0].Line, "facts_at: %q is not one of the gate's triggers %v", t, m.Triggers)
			continue
		}
		ns := r.Strs(kv[1], "facts_at."+t)
		for _, n := range ns {
			if !slices.Contains(m.Facts, n) {
				d.Add(file, kv[1].Line, "facts_at.%s: %q is not a namespace facts names", t, n)
			}
		}
		if m.FactsAt == nil {
			m.FactsAt = map[string][]string{}
		}
		m.FactsAt[t] = append([]string{}, ns...)
	}
}

// metaFields is a gate.yaml being read: its reader, its top-level fields and
// the line of each.
type metaFields struct {
	r    yamlread.Reader
	f    map[string]*yaml.Node
	line func(key string) int
}

// checkNames checks the name (the bundle directory's), the description
// and what the gate prevents.
func (mf metaFields) checkNames(m *Meta, dirName string) {
	file, d, f, line := mf.r.File, mf.r.D, mf.f, mf.line
	if f["name"] != nil {
		switch {
		case !NameRE().MatchString(m.Name):
			d.Add(file, line("name"), "name %q must match %s", m.Name, NameRE())
		case m.Name != dirName:
			d.Add(file, line("name"), "name %q must equal the bundle directory name %q", m.Name, dirName)
		}
	}
	for _, k := range []struct{ key, desc string }{{"description", m.Description}, {"prevents", m.Prevents}} {
		if f[k.key] != nil && len(k.desc) < 10 {
			d.Add(file, line(k.key), "%s must say something (at least 10 characters)", k.key)
		}
	}
}

// checkKinds checks the closed sets: phase, triggers, severity, language
// and the facts namespaces known to the engine.
func (mf metaFields) checkKinds(m *Meta, known func(ns string) bool) {
	file, d, f, line := mf.r.File, mf.r.D, mf.f, mf.line
	if f["phase"] != nil && !slices.Contains(Phases, m.Phase) {
		d.Add(file, line("phase"), "unknown phase %q (known: %v)", m.Phase, Phases)
	}
	if f["triggers"] != nil && len(m.Triggers) == 0 {
		d.Add(file, line("triggers"), "triggers must name at least one trigger")
	}
	for i, t := range m.Triggers {
		if !slices.Contains(Triggers, t) {
			d.Add(file, f["triggers"].Content[i].Line, "unknown trigger %q (known: %v)", t, Triggers)
		}
	}
	if f["severity"] != nil && !ValidSeverity(m.Severity) {
		d.Add(file, line("severity"), "unknown severity %q (known: block, ask, warn)", m.Severity)
	}
	if f["language"] != nil && m.Language != LangRego && m.Language != LangCEL {
		d.Add(file, line("language"), "unknown language %q (known: rego, cel)", m.Language)
	}
	for i, ns := range m.Facts {
		if !known(ns) {
			d.Add(file, f["facts"].Content[i].Line, "unknown facts namespace %q", ns)
		}
	}
}

// parseGlobs reads the content and documents globs and content_max_bytes,
// each only beside the facts namespace it feeds.
func (mf metaFields) parseGlobs(m *Meta) {
	r, file, d, f, line := mf.r, mf.r.File, mf.r.D, mf.f, mf.line
	m.Content, m.Documents = r.Strs(f["content"], "content"), r.Strs(f["documents"], "documents")
	for _, ns := range []string{NamespaceContent, NamespaceDocuments} {
		globs, declared := m.Globs(ns), slices.Contains(m.Facts, ns)
		switch {
		case f[ns] != nil && len(globs) == 0:
			d.Add(file, line(ns), "%s: list at least one glob of the files to read", ns)
		case f[ns] != nil && !declared:
			d.Add(file, line(ns), "%s: globs given, but facts does not name the %s namespace", ns, ns)
		case f[ns] == nil && declared:
			d.Add(file, line("facts"), "facts names %s: add a %s: list of the globs of the files to read", ns, ns)
		}
		for i, g := range globs {
			if !runners.ValidGlob(g) {
				d.Add(file, f[ns].Content[i].Line, "%s: invalid glob %q (relative, \"/\"-separated; ** spans directories)", ns, g)
			}
		}
	}
	if n := f["content_max_bytes"]; n != nil {
		v, err := CoerceParam(TypeInt, r.Value(n, "content_max_bytes"))
		if i, ok := v.(int64); err != nil || !ok || i <= 0 {
			d.Add(file, n.Line, "content_max_bytes: want a positive integer")
		} else {
			m.ContentMaxBytes = i
		}
		if f["content"] == nil {
			d.Add(file, n.Line, "content_max_bytes: only for a gate with content: globs")
		}
	}
}

func parseParams(r yamlread.Reader, n *yaml.Node) []Param {
	var out []Param
	for _, kv := range r.Pairs(n, "params") {
		k, v := kv[0], kv[1]
		what := "params." + k.Value
		f := r.Fields(v, what, "type", "default", "description", "project_may", "legacy_list")
		r.Require(v, f, what, "type", "default", "description")
		p := Param{
			Name:        k.Value,
			Type:        r.Str(f["type"], what+".type"),
			Description: r.Str(f["description"], what+".description"),
			ProjectMay:  MaySet,
		}
		if !NameRE().MatchString(p.Name) {
			r.D.Add(r.File, k.Line, "param name %q must match %s", p.Name, NameRE())
		}
		if f["type"] != nil && !slices.Contains(paramTypes, p.Type) {
			r.D.Add(r.File, f["type"].Line, "%s.type: unknown type %q (known: %v)", what, p.Type, paramTypes)
		}
		if f["project_may"] != nil {
			p.ProjectMay = r.Str(f["project_may"], what+".project_may")
			if err := checkProjectMay(p.Type, p.ProjectMay); err != nil {
				r.D.Add(r.File, f["project_may"].Line, "%s.project_may: %v", what, err)
			}
		}
		if f["legacy_list"] != nil {
			p.Legacy = r.Str(f["legacy_list"], what+".legacy_list")
			if p.Type != TypePaths || !slices.Contains(legacyShapes, p.Legacy) {
				r.D.Add(r.File, f["legacy_list"].Line, "%s.legacy_list: want one of %v, for a param of type paths", what, legacyShapes)
			}
		}
		if f["default"] != nil {
			def := r.Value(f["default"], what+".default")
			norm, err := CoerceParam(p.Type, def)
			if err != nil && slices.Contains(paramTypes, p.Type) {
				r.D.Add(r.File, f["default"].Line, "%s.default: %v", what, err)
			}
			p.Default = norm
		}
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func checkProjectMay(typ, may string) error {
	switch may {
	case MaySet, MayNone:
		return nil
	case MayLower, MayRaise:
		if typ == TypeInt || typ == TypeNumber {
			return nil
		}
	case MayAdd:
		if typ == TypeStrings || typ == TypeObject || typ == TypePaths {
			return nil
		}
	default:
		return fmt.Errorf("unknown value %q (known: set, lower, raise, add, none)", may)
	}
	return fmt.Errorf("%q does not apply to a param of type %s", may, typ)
}

// CoerceParam checks v against typ and returns it in the engine's plain form
// (int64, float64, string, bool, []any of strings, map[string]any).
func CoerceParam(typ string, v any) (any, error) {
	switch typ {
	case TypeInt:
		switch x := v.(type) {
		case int64:
			return x, nil
		case float64:
			if x == float64(int64(x)) {
				return int64(x), nil
			}
		}
		return nil, fmt.Errorf("want an integer, got %s", diag.Describe(v))
	case TypeNumber:
		switch x := v.(type) {
		case int64:
			return x, nil
		case float64:
			return x, nil
		}
		return nil, fmt.Errorf("want a number, got %s", diag.Describe(v))
	case TypeString:
		if s, ok := v.(string); ok {
			return s, nil
		}
		return nil, fmt.Errorf("want a string, got %s", diag.Describe(v))
	case TypeBool:
		if b, ok := v.(bool); ok {
			return b, nil
		}
		return nil, fmt.Errorf("want true or false, got %s", diag.Describe(v))
	case TypeStrings:
		list, ok := v.([]any)
		if !ok {
			return nil, fmt.Errorf("want a list of strings, got %s", diag.Describe(v))
		}
		for i, e := range list {
			if _, ok := e.(string); !ok {
				return nil, fmt.Errorf("item %d: want a string, got %s", i, diag.Describe(e))
			}
		}
		return list, nil
	case TypeObject:
		if m, ok := v.(map[string]any); ok {
			return m, nil
		}
		return nil, fmt.Errorf("want an object, got %s", diag.Describe(v))
	case TypePaths:
		return CoercePaths(v)
	}
	return nil, fmt.Errorf("unknown type %q", typ)
}

// TriggerPostWrite is the moment right after an agent's write or shell call
// ran: scope_write compares the work tree with the state each active scoped
// task recorded at its start (the backstop), since no parser knows
// everything a program writes.
const TriggerPostWrite = "post-write"

// What a gate's violations are attributed to (gate.yaml attribution:).
const (
	// AttributionNone: every violation of the gate is the request's, about
	// a change or not (a workflow gate, a tool's verdict on the files it
	// was given, a gate already scoped to the request's files).
	AttributionNone = "none"
	// AttributionFile: the gate measures the whole tree, and under a change
	// a violation is the change's when its file or one of its sources is
	// among the changed files; one without a file always is.
	AttributionFile = "file"
)

var attributions = []string{AttributionNone, AttributionFile}

// legacyShapes are the values of a paths param's legacy_list in gate.yaml.
var legacyShapes = []string{pathpat.LegacyGitignore, pathpat.LegacyDirs, pathpat.LegacyWholePath}

// CoercePaths checks the shape of a paths param: an object of pattern →
// reason, every reason a string. The patterns and the reasons' text are
// the config decoder's to check (applier.paths), or the policy's when a
// fixture hands it a bad one on purpose.
func CoercePaths(v any) (any, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("want an object of path pattern → reason, got %s", diag.Describe(v))
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if _, isStr := m[k].(string); !isStr {
			return nil, fmt.Errorf("%s: want the written reason (a string), got %s", k, diag.Describe(m[k]))
		}
	}
	return m, nil
}

// CloneValue deep-copies a JSON value (objects and lists), so a caller may
// change the copy without touching a param default.
func CloneValue(v any) any {
	switch x := v.(type) {
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = CloneValue(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = CloneValue(e)
		}
		return out
	}
	return v
}

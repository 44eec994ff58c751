// Package config is the gate configuration model below the evaluation core:
// the tiers' files (project, user, managed) read with a line for every error,
// their overrides applied to each gate (a project may only tighten), the
// evaluation limits, the command gates, host generators and allow-lists the
// tiers define, where the store lives, and the environment a tier may not
// point into the repository. The engine resolves a configuration once, in
// engine.New, and reads only the result.
package config

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/tausik/tausik/engine/diag"
	"github.com/tausik/tausik/engine/gate"
	"github.com/tausik/tausik/engine/internal/jsondoc"
	"github.com/tausik/tausik/internal/boundedread"
)

// Config tiers, lowest authority first. The project tier is committed with the
// code under review, so it may only tighten a gate; the user and managed tiers
// belong to the person and the organisation running tausik and may do anything.
const (
	TierProject = "project"
	TierUser    = "user"
	TierManaged = "managed"
)

// Paths names the configuration files of each tier. An empty path means
// the tier is absent; a named file that does not exist is absent too, except
// for the managed tier, whose path is set on purpose and fails closed.
type Paths struct {
	Project string // <root>/tausik/gates.json
	User    string // ~/.tausik/config.json
	Managed string // $TAUSIK_MANAGED_CONFIG
}

// File is one tier's parsed configuration.
type File struct {
	tier    string
	display string // the path as shown in messages
	doc     *jsondoc.Doc
	gates   map[string]*gateOverride
	top     map[string]any              // every top-level key, as written
	cfg     tierSections                // the top-level sections, decoded
	has     map[string]bool             // the sections the file has
	sum     [32]byte                    // sha256 of the file's bytes
	limits  map[string]map[string]int64 // limits class → key → value, as set here
}

// tierSections are the top-level keys a config file may have. The
// allow-lists and the store are typed where they are read, since the
// project tier is refused them whatever their value (commands.go,
// storeconf.go).
type tierSections struct {
	Schema        any            `cfg:"$schema" known:"-"`
	Gates         map[string]any `cfg:"gates" want:"an object of gate overrides"`
	Limits        any            `cfg:"limits"`
	Commands      map[string]any `cfg:"commands" want:"an object of command gates"`
	Allowlist     any            `cfg:"command_allowlist"`
	AllowCommands any            `cfg:"allow_commands"`
	Generators    map[string]any `cfg:"generators" want:"an object of host generators"`
	Python        string         `cfg:"python" want:"the interpreter's name or path"`
	CommandCache  bool           `cfg:"command_cache" want:"true or false"`
	Store         any            `cfg:"store"`
}

// keyLimits is the config section of evaluation limits (limitsconf.go).
const keyLimits = "limits"

// gateOverride is one tier's "gates.<gate>" object. A param's value is
// typed by the gate's declaration of it (CoerceParam), when it is applied.
type gateOverride struct {
	Enabled  bool           `cfg:"enabled"`
	Severity string         `cfg:"severity" want:"\"block\", \"ask\" or \"warn\""`
	Triggers []string       `cfg:"triggers" want:"a list of triggers"`
	Params   map[string]any `cfg:"params"`
	has      map[string]bool
	raw      map[string]any // as written, for the config view
}

// loadTier reads one tier's file. A missing optional file gives nil. The
// project tier's file, <root>/tausik/gates.json, is read only as a regular
// file inside the root; another tier's may be a symlink, but to a regular
// file (see boundedread). Either is at most boundedread.MaxConfig bytes.
func Load(tier, path, display string, required bool) (*File, error) {
	if path == "" {
		return nil, nil
	}
	var b []byte
	var err error
	if tier == TierProject {
		dir := filepath.Dir(path)
		b, err = boundedread.In(filepath.Dir(dir), filepath.Join(filepath.Base(dir), filepath.Base(path)), boundedread.MaxConfig)
	} else {
		b, err = boundedread.File(path, boundedread.MaxConfig)
	}
	if errors.Is(err, fs.ErrNotExist) && !required {
		return nil, nil
	}
	if err != nil {
		d := &diag.Diagnostics{Kind: diag.ErrConfig}
		d.Add(display, 0, "%v", err)
		return nil, d
	}
	t, err := parseTier(tier, display, b)
	if t != nil {
		t.sum = sha256.Sum256(b)
	}
	return t, err
}

// Digest is the digest of the tiers' files as read: each present
// tier's name and the sha256 of its bytes. No file at all is the digest of
// nothing, so an engine built without configuration still names it.
func Digest(tiers []*File) string {
	h := sha256.New()
	for _, t := range tiers {
		if t != nil {
			fmt.Fprintf(h, "%s %x\n", t.tier, t.sum)
		}
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

// parseTier parses the contents b of one tier's file.
func parseTier(tier, display string, b []byte) (*File, error) {
	d := &diag.Diagnostics{Kind: diag.ErrConfig}
	doc, err := jsondoc.Parse(b)
	if err != nil {
		var le *jsondoc.LineError
		if errors.As(err, &le) {
			d.Add(display, le.Line, "invalid JSON: %s", le.Msg)
		} else {
			d.Add(display, 0, "invalid JSON: %v", err)
		}
		return nil, d
	}
	top, ok := doc.Value.(map[string]any)
	if !ok {
		d.Add(display, 1, "the config must be a JSON object")
		return nil, d
	}
	t := &File{tier: tier, display: display, doc: doc, gates: map[string]*gateOverride{}, top: top}
	t.has, _ = cfgObject{t: t, d: d}.decode(top, &t.cfg, "a JSON object")
	if t.has[keyLimits] {
		t.limits = parseLimits(t, top[keyLimits], d)
	}
	if t.has[keyStore] {
		if msg := checkStoreKey(tier, top[keyStore]); msg != "" {
			d.Add(display, doc.Line(keyStore), "%s: %s", keyStore, msg)
		}
	}
	for _, name := range sortedKeys(t.cfg.Gates) {
		o := &gateOverride{}
		obj := cfgObject{t: t, path: []string{"gates", name}, d: d}
		if has, ok := obj.decode(t.cfg.Gates[name], o, "an object"); ok {
			o.has, o.raw = has, t.cfg.Gates[name].(map[string]any)
			t.gates[name] = o
		}
	}
	if err := d.Err(); err != nil {
		return nil, err
	}
	return t, nil
}

// Effective is a gate's configuration after every tier was applied.
type Effective struct {
	Enabled  bool           `json:"enabled"`
	Severity string         `json:"severity"`
	Triggers []string       `json:"triggers"`
	Params   map[string]any `json:"params"`
	// SetBy names, for each key that a tier changed, the tier that changed it
	// last ("params.max_lines" → "user").
	SetBy map[string]string `json:"set_by,omitempty"`
	// from holds, per paths param, where each pattern a tier added was
	// written ("tausik/gates.json:12"), for CheckLoopholes.
	from map[string]map[string]string
}

// resolveConfig applies the tiers to every gate. Refused weakenings come back
// as warnings; malformed values as an diag.ErrConfig diag.Diagnostics. unused (nil:
// none) names the command gates whose tool the project does not use, which
// the project tier may switch off (switchOffUnused).
func Resolve(gates []*gate.Gate, tiers []*File, unused ToolUse) (map[string]*Effective, []string, error) {
	d := &diag.Diagnostics{Kind: diag.ErrConfig}
	byName := map[string]*gate.Gate{}
	out := map[string]*Effective{}
	for _, g := range gates {
		byName[g.Name] = g
		eff := &Effective{Enabled: g.Enabled, Severity: g.Severity, Triggers: CanonicalTriggers(g.Triggers),
			Params: map[string]any{}, SetBy: map[string]string{}}
		for _, p := range g.Params {
			eff.Params[p.Name] = gate.CloneValue(p.Default)
		}
		out[g.Name] = eff
	}
	var warnings []string
	for _, t := range tiers {
		if t == nil {
			continue
		}
		for _, name := range sortedKeys(t.gates) {
			g := byName[name]
			if g == nil {
				if t.tier == TierProject {
					d.Add(t.display, t.doc.Line("gates", name), "gates.%s: no such gate", name)
				}
				continue // a user or managed file serves many projects
			}
			a := applier{t: t, g: g, eff: out[name], d: d, unused: unused}
			a.apply(t.gates[name])
			warnings = append(warnings, a.warnings...)
		}
	}
	if err := d.Err(); err != nil {
		return nil, nil, err
	}
	return out, warnings, nil
}

// applier applies one tier's override of one gate.
type applier struct {
	t        *File
	g        *gate.Gate
	eff      *Effective
	d        *diag.Diagnostics
	warnings []string
	unused   ToolUse
}

func (a *applier) key(parts ...string) string {
	return "gates." + a.g.Name + "." + strings.Join(parts, ".")
}

func (a *applier) bad(parts []string, format string, args ...any) {
	line := a.t.doc.Line(append([]string{"gates", a.g.Name}, parts...)...)
	a.d.Add(a.t.display, line, "%s: %s", a.key(parts...), fmt.Sprintf(format, args...))
}

// refuse records a weakening the project tier may not make.
func (a *applier) refuse(parts []string, why string) {
	line := a.t.doc.Line(append([]string{"gates", a.g.Name}, parts...)...)
	a.warnings = append(a.warnings, fmt.Sprintf("%s:%d: %s: refused: %s; only the user or managed tier may weaken a gate",
		a.t.display, line, a.key(parts...), why))
}

func (a *applier) project() bool { return a.t.tier == TierProject }

func (a *applier) apply(o *gateOverride) {
	if o.has["enabled"] {
		switch {
		case a.project() && a.eff.Enabled && !o.Enabled && !a.switchOffUnused():
			a.refuse([]string{"enabled"}, "it would switch the gate off")
		default:
			a.eff.Enabled = o.Enabled
			a.eff.SetBy["enabled"] = a.t.tier
		}
	}
	if s := o.Severity; o.has["severity"] {
		switch {
		case !gate.ValidSeverity(s):
			a.bad([]string{"severity"}, "want \"block\", \"ask\" or \"warn\", got %s", diag.Describe(s))
		case a.project() && gate.SeverityRank(s) < gate.SeverityRank(a.eff.Severity):
			a.refuse([]string{"severity"}, fmt.Sprintf("it would lower the severity from %s to %s", a.eff.Severity, s))
		default:
			a.eff.Severity = s
			a.eff.SetBy["severity"] = a.t.tier
		}
	}
	if o.has["triggers"] {
		a.triggers(o.Triggers)
	}
	for _, name := range sortedKeys(o.Params) {
		a.param(name, o.Params[name])
	}
}

func (a *applier) triggers(ts []string) {
	for _, s := range ts {
		if !slices.Contains(gate.Triggers, s) {
			a.bad([]string{"triggers"}, "unknown trigger %s (known: %s)", diag.Describe(s), strings.Join(gate.Triggers, ", "))
			return
		}
	}
	ts = slices.Clone(ts)
	if a.project() {
		var dropped []string
		for _, cur := range a.eff.Triggers {
			if !slices.Contains(ts, cur) {
				dropped = append(dropped, cur)
				ts = append(ts, cur)
			}
		}
		if len(dropped) > 0 {
			a.refuse([]string{"triggers"}, "it would remove the trigger(s) "+strings.Join(dropped, ", "))
		}
	}
	a.eff.Triggers = CanonicalTriggers(ts)
	a.eff.SetBy["triggers"] = a.t.tier
}

func (a *applier) param(name string, v any) {
	path := []string{"params", name}
	p, ok := a.g.Param(name)
	if !ok {
		known := make([]string, len(a.g.Params))
		for i, q := range a.g.Params {
			known[i] = q.Name
		}
		a.bad(path, "no such param (known: %s)", strings.Join(known, ", "))
		return
	}
	if p.Type == gate.TypePaths {
		m, ok := a.paths(p, v)
		if !ok {
			return
		}
		v = m
	}
	nv, err := gate.CoerceParam(p.Type, v)
	if err != nil {
		a.bad(path, "%v", err)
		return
	}
	cur := a.eff.Params[name]
	if p.Type == gate.TypePaths {
		defer a.notePaths(p, v.(map[string]any))
	}
	if a.project() {
		switch p.ProjectMay {
		case gate.MayNone:
			a.refuse(path, "the project tier may not change this param")
			return
		case gate.MayLower, gate.MayRaise:
			if weaker(p.ProjectMay, cur, nv) {
				a.refuse(path, fmt.Sprintf("%v would loosen the limit %v (the project may only %s it)", nv, cur, p.ProjectMay))
				return
			}
		case gate.MayAdd:
			nv = union(cur, nv)
		}
	}
	a.eff.Params[name] = nv
	a.eff.SetBy["params."+name] = a.t.tier
}

// ParamSetter locates a gate's param in the tier that set it last: the
// file and line of gates.GATE.params.PARAM there. ok is false when the
// value is the gate's default.
func ParamSetter(tiers []*File, gate string, eff *Effective, param string) (file string, line int, ok bool) {
	tier := eff.SetBy["params."+param]
	if tier == "" {
		return "", 0, false
	}
	for _, t := range tiers {
		if t != nil && t.tier == tier {
			return t.display, t.doc.Line("gates", gate, "params", param), true
		}
	}
	return "", 0, false
}

// weaker reports whether next loosens cur for a param that may only be lowered
// (a maximum) or raised (a minimum).
func weaker(may string, cur, next any) bool {
	c, n := toFloat(cur), toFloat(next)
	if may == gate.MayLower {
		return n > c
	}
	return n < c
}

func toFloat(v any) float64 {
	switch x := v.(type) {
	case int64:
		return float64(x)
	case float64:
		return x
	}
	return 0
}

// union adds next's items (a list) or keys (an object) to cur, keeping every
// item cur has and, for objects, cur's value of a key both have.
func union(cur, next any) any {
	switch c := cur.(type) {
	case []any:
		out := slices.Clone(c)
		for _, e := range next.([]any) {
			if !slices.Contains(out, e) {
				out = append(out, e)
			}
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(c))
		for k, v := range next.(map[string]any) {
			out[k] = v
		}
		for k, v := range c {
			out[k] = v
		}
		return out
	}
	return next
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// CanonicalTriggers returns ts deduplicated, in workflow order.
func CanonicalTriggers(ts []string) []string {
	out := slices.Clone(ts)
	sort.Slice(out, func(i, j int) bool { return slices.Index(gate.Triggers, out[i]) < slices.Index(gate.Triggers, out[j]) })
	return slices.Compact(out)
}

// ToolUse answers, for the project tier's switching a gate off, whether
// the gate is a command gate whose tool the project shows no sign of using.
// The stacks facts are gathered once, on the first question, so an engine
// whose project tier switches nothing off never looks.
type ToolUse func(gate string) (unused bool)

// switchOffUnused lets the project tier switch off a command gate whose
// tool the project shows no sign of using: a gate that would only say
// NOT_APPLICABLE weakens nothing. The switch is reported as a warning (and
// in every decision's tier settings); false leaves the refusal standing.
func (a *applier) switchOffUnused() bool {
	if a.unused == nil || !a.unused(a.g.Name) {
		return false
	}
	line := a.t.doc.Line("gates", a.g.Name, "enabled")
	a.warnings = append(a.warnings, fmt.Sprintf("%s:%d: %s: accepted: the project shows no sign of using %s (see `tausik facts --namespace stacks`), so the project tier may switch its gate off",
		a.t.display, line, a.key("enabled"), a.g.Name))
	return true
}

// Tier is the tier the file configures: TierProject, TierUser or TierManaged.
func (t *File) Tier() string { return t.tier }

// Display is the file's path as messages show it.
func (t *File) Display() string { return t.display }

// Line returns the line where the value at a key path starts, or 0.
func (t *File) Line(path ...string) int { return t.doc.Line(path...) }

// LoadTiers reads the project, user and managed configuration files, each
// shown relative to root when it lies under it; only the managed one must
// exist.
func LoadTiers(root string, paths Paths) ([]*File, error) {
	var tiers []*File
	for _, t := range []struct {
		tier, path string
		required   bool
	}{{TierProject, paths.Project, false}, {TierUser, paths.User, false}, {TierManaged, paths.Managed, true}} {
		display := t.path
		if rel, err := filepath.Rel(root, t.path); err == nil && filepath.IsLocal(rel) {
			display = filepath.ToSlash(rel)
		}
		tf, err := Load(t.tier, t.path, display, t.required)
		if err != nil {
			return nil, err
		}
		tiers = append(tiers, tf)
	}
	return tiers, nil
}

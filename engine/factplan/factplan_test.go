package factplan

import (
	"testing"

	"github.com/tausik/tausik/engine/gate"
	"github.com/tausik/tausik/runners"
	"github.com/tausik/tausik/runners/surface"
)

// TestParamsConflict: a second gate reading the surface namespace under
// params that change its facts (roots, exclude, cap, baseline) cannot run on
// the first gate's facts; params the runner does not read, and gates that
// do not read surface, are no conflict.
func TestParamsConflict(t *testing.T) {
	first := map[string]any{"roots": []any{"."}, "max_public_members": int64(60), "exclude": map[string]any{"testdata/**": "data"}, "ambiguous": "report"}
	s := &runners.Scope{}
	reg := runners.NewRegistry(surface.New())
	reader := &gate.Gate{Meta: gate.Meta{Name: "strict_surface", Facts: []string{surface.Namespace}}}
	SetOptions(s, reg, []*gate.Gate{{Meta: gate.Meta{Name: "class_surface", Facts: []string{surface.Namespace}}}, reader}, func(g *gate.Gate) map[string]any {
		return first
	})
	with := func(k string, v any) map[string]any {
		p := map[string]any{}
		for key, val := range first {
			p[key] = val
		}
		p[k] = v
		return p
	}
	for name, c := range map[string]struct {
		g        *gate.Gate
		params   map[string]any
		conflict bool
	}{
		"same params":            {reader, first, false},
		"a param not read":       {reader, with("ambiguous", "block"), false},
		"another cap":            {reader, with("max_public_members", int64(2)), true},
		"other roots":            {reader, with("roots", []any{"src"}), true},
		"another exclusion":      {reader, with("exclude", map[string]any{"vendor/**": "third party"}), true},
		"a baseline":             {reader, with("baseline", map[string]any{"Legacy": int64(70)}), true},
		"a gate without surface": {&gate.Gate{Meta: gate.Meta{Name: "filesize", Facts: []string{"files"}}}, with("max_public_members", int64(2)), false},
	} {
		r := ParamsConflict(s, reg, c.g, c.params)
		if (r != nil) != c.conflict || (r != nil && r.Code != "surface_params_conflict") {
			t.Errorf("%s: %+v, want conflict %v", name, r, c.conflict)
		}
	}
}

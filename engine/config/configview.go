package config

import (
	"encoding/hex"
	"slices"
	"strings"

	"github.com/tausik/tausik/engine/gate"
)

// ConfigFile is one configuration tier's file as the engine read it, for
// `tausik config show`: which tier, where, the digest of its bytes, and what
// it sets.
type ConfigFile struct {
	Tier   string `json:"tier"`
	File   string `json:"file"`
	Digest string `json:"digest"`
	// Sections are the file's top-level keys, sorted.
	Sections []string `json:"sections"`
	// Sets are the gate overrides the file makes, as written (before a
	// refusal or the project tier's union of lists), sorted by key.
	Sets []ConfigEntry `json:"sets"`
}

// ConfigEntry is one gate key a file sets: Key is "GATE.enabled",
// "GATE.severity", "GATE.triggers" or "GATE.params.NAME".
type ConfigEntry struct {
	Key   string `json:"key"`
	Line  int    `json:"line"`
	Value any    `json:"value"`
}

// Origin is where a tier set a gate's effective key: the tier, its file as
// shown in messages, and the line of the key there (0 when unknown).
type Origin struct {
	Tier string `json:"tier"`
	File string `json:"file"`
	Line int    `json:"line"`
}

// View is what the tiers' files said, kept after New for the commands
// that show configuration; the rest of the engine reads only Effective.
type View struct {
	files   []ConfigFile
	origins map[string]map[string]Origin // gate → key of Effective.SetBy → origin
}

// NewView records the tiers' files and where each effective key of
// every gate was set.
func NewView(tiers []*File, gates []*gate.Gate, eff map[string]*Effective) View {
	v := View{origins: map[string]map[string]Origin{}}
	byTier := map[string]*File{}
	for _, t := range tiers {
		if t == nil {
			continue
		}
		byTier[t.tier] = t
		f := ConfigFile{Tier: t.tier, File: t.display, Digest: "sha256:" + hex.EncodeToString(t.sum[:]),
			Sections: sortedKeys(t.top), Sets: []ConfigEntry{}}
		for _, gate := range sortedKeys(t.gates) {
			for _, key := range sortedKeys(t.gates[gate].raw) {
				val := t.gates[gate].raw[key]
				if ps, ok := val.(map[string]any); ok && key == "params" {
					for _, p := range sortedKeys(ps) {
						f.Sets = append(f.Sets, ConfigEntry{Key: gate + ".params." + p, Line: t.doc.Line("gates", gate, "params", p), Value: ps[p]})
					}
					continue
				}
				f.Sets = append(f.Sets, ConfigEntry{Key: gate + "." + key, Line: t.doc.Line("gates", gate, key), Value: val})
			}
		}
		v.files = append(v.files, f)
	}
	for _, g := range gates {
		e := eff[g.Name]
		if e == nil {
			continue
		}
		for key, tier := range e.SetBy {
			t := byTier[tier]
			if t == nil {
				continue
			}
			if v.origins[g.Name] == nil {
				v.origins[g.Name] = map[string]Origin{}
			}
			path := append([]string{"gates", g.Name}, strings.Split(key, ".")...)
			v.origins[g.Name][key] = Origin{Tier: tier, File: t.display, Line: t.doc.Line(path...)}
		}
	}
	return v
}

// Files returns the configuration files the view was built from, lowest
// tier first (project, user, managed); a tier without a file is absent.
func (v View) Files() []ConfigFile {
	out := slices.Clone(v.files)
	for i := range out {
		out[i].Sections = slices.Clone(out[i].Sections)
		out[i].Sets = slices.Clone(out[i].Sets)
	}
	return out
}

// SetAt returns where a tier set key ("enabled", "severity", "triggers" or
// "params.NAME") of gate's effective configuration; ok is false when the
// key holds the gate's own default.
func (v View) SetAt(gate, key string) (Origin, bool) {
	o, ok := v.origins[gate][key]
	return o, ok
}

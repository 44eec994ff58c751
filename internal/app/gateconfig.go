package app

import (
	"fmt"
	"strings"

	"github.com/tausik/tausik/engine"
	"github.com/tausik/tausik/engine/gate"
)

// SetByDefault is the set_by of a key that no tier changed: it holds the
// gate's own default (its gate.yaml).
const SetByDefault = "default"

// What the project tier may do with a gate's enabled, severity and
// triggers keys (a param says its own, engine.Param.ProjectMay).
const (
	MayEnable = "enable" // switch the gate on, never off
	MayRaise  = "raise"  // raise the severity from warn to block, never lower it
	MayAdd    = "add"    // add triggers, never remove one
)

// GateConfig is a gate's effective configuration with, for each key, the
// tier that set it and what the committed project may do with it.
type GateConfig struct {
	Name     string   `json:"name"`
	Severity string   `json:"severity"`
	Enabled  bool     `json:"enabled"`
	Triggers []string `json:"triggers"`
	// Settings are the enabled, severity and triggers keys, in that order.
	Settings []Setting   `json:"settings"`
	Params   []ParamView `json:"params"`
	// SwitchedOff says who switched the gate off; nil while it is on.
	SwitchedOff *Setting `json:"switched_off"`
	// Refused are the weakenings of this gate the project tier asked for
	// and was refused, each with its file and line.
	Refused []string `json:"refused"`
}

// Setting is one key of a gate's configuration and where its value came
// from.
type Setting struct {
	Key        string `json:"key"`
	Value      any    `json:"value"`
	Default    any    `json:"default"`
	SetBy      string `json:"set_by"` // SetByDefault, or the tier: project, user, managed
	SetAt      string `json:"set_at"` // FILE:LINE of the key in the tier's file; "" for the default
	ProjectMay string `json:"project_may"`
}

// ParamView is one param of a gate: its declaration, effective value and
// where that value came from.
type ParamView struct {
	Name        string `json:"name"`
	Type        string `json:"type"`
	Description string `json:"description"`
	Default     any    `json:"default"`
	Value       any    `json:"value"`
	ProjectMay  string `json:"project_may"`
	SetBy       string `json:"set_by"`
	SetAt       string `json:"set_at"`
}

// gateConfig builds g's GateConfig from the engine's resolved tiers.
func gateConfig(eng *engine.Engine, g *gate.Gate) GateConfig {
	eff, _ := eng.Effective(g.Name)
	origin := func(key string) (string, string) {
		o, ok := eng.SetAt(g.Name, key)
		if !ok {
			return SetByDefault, ""
		}
		return o.Tier, fmt.Sprintf("%s:%d", o.File, o.Line)
	}
	c := GateConfig{Name: g.Name, Severity: eff.Severity, Enabled: eff.Enabled, Triggers: nonNil(eff.Triggers),
		Params: []ParamView{}, Refused: refusedFor(eng.ConfigWarnings(), g.Name)}
	for _, s := range []Setting{
		{Key: "enabled", Value: eff.Enabled, Default: g.Enabled, ProjectMay: MayEnable},
		{Key: "severity", Value: eff.Severity, Default: g.Severity, ProjectMay: MayRaise},
		{Key: "triggers", Value: nonNil(eff.Triggers), Default: nonNil(g.Triggers), ProjectMay: MayAdd},
	} {
		s.SetBy, s.SetAt = origin(s.Key)
		c.Settings = append(c.Settings, s)
		if s.Key == "enabled" && !eff.Enabled {
			off := s
			c.SwitchedOff = &off
		}
	}
	for _, p := range g.Params {
		v := ParamView{Name: p.Name, Type: p.Type, Description: p.Description, Default: p.Default,
			Value: eff.Params[p.Name], ProjectMay: p.ProjectMay}
		v.SetBy, v.SetAt = origin("params." + p.Name)
		c.Params = append(c.Params, v)
	}
	return c
}

// refusedFor picks gate's refused weakenings out of the engine's warnings,
// which name the key as gates.GATE.KEY.
func refusedFor(warnings []string, gate string) []string {
	out := []string{}
	for _, w := range warnings {
		if strings.Contains(w, ": gates."+gate+".") {
			out = append(out, w)
		}
	}
	return out
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

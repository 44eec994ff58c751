package app

import (
	"slices"
	"strings"

	"github.com/tausik/tausik/engine/config"
	"github.com/tausik/tausik/engine/gate"

	"github.com/tausik/tausik/engine"
)

// ConfigFiles is what `tausik config show` reports: each tier's file that
// was found, lowest tier first.
type ConfigFiles struct {
	Files []config.ConfigFile `json:"files"`
}

// EffectiveConfig is what `tausik config show --effective` reports: every
// gate's resolved configuration, in gate-name order, with the refused
// weakenings and the gates switched off.
type EffectiveConfig struct {
	Gates []GateConfig `json:"gates"`
	// Refused are every weakening the project tier asked for and was
	// refused (gates and limits), as the engine reported them.
	Refused []string `json:"refused"`
	// SwitchedOff lists the gates that are off, with who switched them off.
	SwitchedOff []SwitchedOff `json:"switched_off"`
}

// SwitchedOff is a gate that will not run, and who decided so: SetBy
// SetByDefault when its own gate.yaml ships it off, else the tier.
type SwitchedOff struct {
	Gate  string `json:"gate"`
	SetBy string `json:"set_by"`
	SetAt string `json:"set_at"`
}

// ShowConfig lists the configuration files the engine was built from.
func ShowConfig(eng *engine.Engine) ConfigFiles {
	files := eng.ConfigFiles()
	if files == nil {
		files = []config.ConfigFile{}
	}
	return ConfigFiles{Files: files}
}

// ShowEffective resolves every gate's configuration with its origins.
func ShowEffective(eng *engine.Engine) EffectiveConfig {
	out := EffectiveConfig{Gates: []GateConfig{}, Refused: eng.ConfigWarnings(), SwitchedOff: []SwitchedOff{}}
	if out.Refused == nil {
		out.Refused = []string{}
	}
	gates := eng.Gates()
	slices.SortFunc(gates, func(a, b *gate.Gate) int { return strings.Compare(a.Name, b.Name) })
	for _, g := range gates {
		c := gateConfig(eng, g)
		out.Gates = append(out.Gates, c)
		if c.SwitchedOff != nil {
			out.SwitchedOff = append(out.SwitchedOff, SwitchedOff{Gate: g.Name, SetBy: c.SwitchedOff.SetBy, SetAt: c.SwitchedOff.SetAt})
		}
	}
	return out
}

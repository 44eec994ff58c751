package config

import (
	"slices"
	"strings"

	"github.com/tausik/tausik/engine/gate"
)

// TierSetting is one key of one gate's configuration that a tier above the
// built-in defaults set: which tier, from which file, to what value. Every
// decision carries them, so an auditor sees what configuration judged it,
// and above all which gates a tier switched off.
type TierSetting struct {
	Gate  string `json:"gate"`
	Key   string `json:"key"` // "enabled", "severity", "triggers" or "params.NAME"
	Tier  string `json:"tier"`
	File  string `json:"file"`
	Value any    `json:"value"`
	// Severity is the gate's own (built-in or bundle) severity, so a note
	// can say that a blocking gate was switched off.
	Severity string `json:"severity,omitempty"`
}

// Settings lists what the tiers set on every gate, sorted by gate and
// key: computed once in New, copied into each decision.
func Settings(gates []*gate.Gate, eff map[string]*Effective, tiers []*File) []TierSetting {
	files := map[string]string{}
	for _, t := range tiers {
		if t != nil {
			files[t.tier] = t.display
		}
	}
	var out []TierSetting
	for _, g := range gates {
		e := eff[g.Name]
		if e == nil {
			continue
		}
		for key, tier := range e.SetBy {
			s := TierSetting{Gate: g.Name, Key: key, Tier: tier, File: files[tier], Value: settingValue(e, key)}
			if key == "enabled" {
				s.Severity = g.Severity
			}
			out = append(out, s)
		}
	}
	slices.SortFunc(out, func(a, b TierSetting) int {
		if c := strings.Compare(a.Gate, b.Gate); c != 0 {
			return c
		}
		return strings.Compare(a.Key, b.Key)
	})
	return out
}

func settingValue(e *Effective, key string) any {
	switch key {
	case "enabled":
		return e.Enabled
	case "severity":
		return e.Severity
	case "triggers":
		return slices.Clone(e.Triggers)
	}
	if name, ok := strings.CutPrefix(key, "params."); ok {
		return e.Params[name]
	}
	return nil
}

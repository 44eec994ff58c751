package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"

	"github.com/tausik/tausik/engine/diag"
	"github.com/tausik/tausik/engine/gate"
)

// FuzzConfigKeys: a config the parser accepts has no repeated key at any
// depth (the decoded objects hold every key the text has), and limits it
// accepts are in range.
func FuzzConfigKeys(f *testing.F) {
	f.Add([]byte(`{"gates": {"big": {"params": {"max_lines": 2}}}, "limits": {"hook": {"cel_cost": 10}}}`))
	f.Add([]byte(`{"gates": {}, "gates": {}}`))
	f.Add([]byte("{\"gates\": {\"a\": {\"params\": {\"exempt_paths\": {\"x\": \"r\",\n\"x\": \"\"}}}}}"))
	f.Add([]byte(`{"limits": {"default": {"eval_timeout_ms": 0, "eval_memory_mb": 1e3}}}`))
	f.Add([]byte(`[{"a": 1, "a": 2}]`))
	f.Fuzz(func(t *testing.T, b []byte) {
		tier, err := parseTier(TierProject, "gates.json", b)
		if err != nil {
			return
		}
		if keys, tokens := decodedKeys(tier.doc.Value), keyTokens(json.NewDecoder(bytes.NewReader(b))); keys != tokens {
			t.Fatalf("accepted %q: %d keys in the text, %d once decoded (a repeated key)", b, tokens, keys)
		}
		for class, ks := range tier.limits {
			for k, v := range ks {
				if v < 1 || v > maxLimit {
					t.Fatalf("accepted limits.%s.%s = %d", class, k, v)
				}
			}
		}
		ResolveLimits([]*File{tier})
	})
}

// decodedKeys counts the keys of every object in v.
func decodedKeys(v any) int {
	n := 0
	switch x := v.(type) {
	case map[string]any:
		n += len(x)
		for _, e := range x {
			n += decodedKeys(e)
		}
	case []any:
		for _, e := range x {
			n += decodedKeys(e)
		}
	}
	return n
}

// keyTokens counts the object keys in the text of the JSON value dec reads.
func keyTokens(dec *json.Decoder) int {
	tok, err := dec.Token()
	if err != nil {
		return 0
	}
	n := 0
	switch tok {
	case json.Delim('{'):
		for dec.More() {
			if _, err := dec.Token(); err != nil {
				return n
			}
			n += 1 + keyTokens(dec)
		}
		_, _ = dec.Token()
	case json.Delim('['):
		for dec.More() {
			n += keyTokens(dec)
		}
		_, _ = dec.Token()
	}
	return n
}

// FuzzConfig: a config file of any bytes is either loaded or refused as
// ErrConfig, never a panic.
func FuzzConfig(f *testing.F) {
	f.Add([]byte(`{"gates": {"big": {"params": {"max_lines": 2}}}}`))
	f.Add([]byte(`{"gates": {"big": {"triggers": ["commit", 1]}}}`))
	f.Add([]byte(`{"gates": []}`))
	f.Add([]byte("{\n\"gates\": {\"big\": {\"enabled\": false}}}"))
	f.Fuzz(func(t *testing.T, b []byte) {
		tier, err := parseTier(TierProject, "gates.json", b)
		if err != nil {
			if !errors.Is(err, diag.ErrConfig) {
				t.Fatalf("refused as %v, not ErrConfig", err)
			}
			return
		}
		_ = tier.doc.Line("gates", "big")
		g := &gate.Gate{Meta: gate.Meta{Name: "big", Severity: gate.SeverityBlock, Triggers: []string{"commit"}, Enabled: true,
			Params: []gate.Param{{Name: "max_lines", Type: gate.TypeInt, Default: int64(3), ProjectMay: gate.MayLower}}}}
		_, _, _ = Resolve([]*gate.Gate{g}, []*File{tier}, nil)
	})
}

package hosts

import (
	"path/filepath"
	"strings"
	"testing"
)

// FuzzParse: no host's parser or the normalisation after it panics on any
// payload, and a call that comes through without error names only absolute
// paths.
func FuzzParse(f *testing.F) {
	for _, hc := range hostCases {
		for _, p := range []string{hc.inScope, hc.outScope, hc.shellOut, hc.read, hc.harmless, hc.malformed} {
			f.Add(hc.host, strings.ReplaceAll(p, "$ROOT", "/w"))
		}
	}
	f.Fuzz(func(t *testing.T, host, payload string) {
		h, ok := Lookup(host)
		if !ok {
			h = registry["claude"]
		}
		c, err := h.parse([]byte(payload))
		if err != nil {
			return
		}
		tc, err := normalise(h, c, Env{WD: "/w", Getenv: func(string) string { return "/home/u" }})
		if err != nil {
			return
		}
		for _, p := range tc.Writes {
			if !filepath.IsAbs(p) {
				t.Fatalf("%s %q: relative write %q", host, payload, p)
			}
		}
	})
}

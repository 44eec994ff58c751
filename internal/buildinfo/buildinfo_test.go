package buildinfo

import (
	"runtime/debug"
	"testing"
)

func TestFromBuild(t *testing.T) {
	clone := &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261203101500-abcdef012345"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "abcdef0123456789"}, {Key: "vcs.time", Value: "2026-12-03T10:15:00Z"}, {Key: "vcs.modified", Value: "true"}}}
	for _, c := range []struct {
		name          string
		bi            *debug.BuildInfo
		ldV, ldC, ldD string
		want          Info
	}{
		{"nothing known", nil, "", "", "", Info{Version: "(devel)"}},
		{"devel without a stamp", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "", "", "", Info{Version: "(devel)"}},
		{"a clone's stamp", clone, "", "", "", Info{Version: "v0.0.0-20261203101500-abcdef012345", Commit: "abcdef0123456789", Date: "2026-12-03T10:15:00Z", Modified: true}},
		{"a release over the stamp", clone, "v1.2.3", "fedcba9876543210", "2026-12-01T00:00:00Z",
			Info{Version: "v1.2.3", Commit: "fedcba9876543210", Date: "2026-12-01T00:00:00Z"}},
	} {
		if got := fromBuild(c.bi, c.ldV, c.ldC, c.ldD); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
}

// Package buildinfo says which tausik is running: its version, the commit
// it was built from and when. A release sets all three with -ldflags -X
// (see the Makefile's release target); a binary built from a clone reads
// them from the version-control stamp the go command embeds; a binary
// built without either says "(devel)" and leaves the rest empty.
package buildinfo

import (
	"runtime/debug"
	"sync"
)

// Set by -ldflags "-X github.com/tausik/tausik/internal/buildinfo.version=…"
// in a release build.
var version, commit, date string

// Info is what a binary knows of its own build.
type Info struct {
	Version  string // v1.2.3, a pseudo-version, or "(devel)"
	Commit   string // the full commit hash, "" when unknown
	Date     string // the commit's time (RFC 3339), "" when unknown
	Modified bool   // built from a work tree with uncommitted changes
}

// Read returns the running binary's build information.
var Read = sync.OnceValue(func() Info {
	bi, _ := debug.ReadBuildInfo()
	return fromBuild(bi, version, commit, date)
})

// fromBuild merges what the linker was given (a release) over the build
// information the go command embedded.
func fromBuild(bi *debug.BuildInfo, ldVersion, ldCommit, ldDate string) Info {
	info := Info{Version: "(devel)"}
	if bi != nil {
		if v := bi.Main.Version; v != "" {
			info.Version = v
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				info.Commit = s.Value
			case "vcs.time":
				info.Date = s.Value
			case "vcs.modified":
				info.Modified = s.Value == "true"
			}
		}
	}
	if ldVersion != "" {
		info.Version = ldVersion
	}
	if ldCommit != "" {
		info.Commit, info.Modified = ldCommit, false
	}
	if ldDate != "" {
		info.Date = ldDate
	}
	return info
}

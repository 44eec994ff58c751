//go:build windows

package hosts

import (
	"errors"
	"testing"

	"github.com/tausik/tausik/engine/toolcall"
	"github.com/tausik/tausik/internal/hosts/shellwrites"
)

// The paths Windows hosts send: drive letters in either case, backslashes
// or forward slashes, UNC shares. These run on a Windows machine; on
// every other, TestWindowsPathTestsBuild (module root) compiles them for
// both Windows release targets.

func TestWorkspaceRootWindows(t *testing.T) {
	roots := []any{`C:\Work\other`, `c:\work\proj`, `\\srv\share\team`}
	for _, c := range []struct{ cwd, want string }{
		{`C:\WORK\PROJ\src`, `c:\work\proj`}, // a drive and names in another case are the same directory
		{`c:/work/proj/src`, `c:\work\proj`}, // forward slashes
		{`C:\Work\other`, `C:\Work\other`},
		{`\\SRV\share\team\a`, `\\srv\share\team`}, // a UNC share
		{`D:\work\proj`, `C:\Work\other`},          // another drive: none holds it, the first
		{`C:\Work\otherwise`, `C:\Work\other`},     // a sibling that shares a prefix is not inside
	} {
		if got := workspaceRoot(roots, c.cwd); got != c.want {
			t.Errorf("workspaceRoot(%q) = %q, want %q", c.cwd, got, c.want)
		}
	}
}

func TestResolveWindows(t *testing.T) {
	env := Env{Getenv: func(k string) string {
		if k == "HOME" {
			return `C:\Users\me`
		}
		return ""
	}}
	for _, c := range []struct{ path, cwd, want string }{
		{`src\a.py`, `C:\proj`, `C:\proj\src\a.py`},
		{`src/a.py`, `C:\proj`, `C:\proj\src\a.py`},
		{`..\x.py`, `C:\proj\sub`, `C:\proj\x.py`},
		{`D:\elsewhere\y.py`, `C:\proj`, `D:\elsewhere\y.py`},
		{`\\srv\share\z.py`, `C:\proj`, `\\srv\share\z.py`},
		{`~/notes.md`, `C:\proj`, `C:\Users\me\notes.md`},
	} {
		got, err := resolve(shellwrites.Write{Path: c.path}, c.cwd, env)
		if err != nil || got != c.want {
			t.Errorf("resolve(%q in %q) = %q, %v; want %q", c.path, c.cwd, got, err, c.want)
		}
	}
	// A drive-relative path ("C:x") is not absolute and a cwd without a
	// drive is not a place: a payload error, never a guess.
	h, _ := Lookup("claude")
	for _, cwd := range []string{`C:proj`, `\proj`, `/c/proj`} {
		_, err := normalise(h, call{tool: "Write", kind: toolcall.KindWrite, paths: []string{"a.py"}, cwd: cwd}, Env{})
		if !errors.Is(err, ErrPayload) {
			t.Errorf("cwd %q: err = %v, want a payload error", cwd, err)
		}
	}
}

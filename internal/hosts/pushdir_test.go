package hosts

import (
	"testing"

	"github.com/tausik/tausik/internal/hosts/shellwrites"
)

// TestShellCommandDir pins the directory the tool namespace gets for each
// command: read from the call's cwd, ~ from HOME, absolute as it is, and
// "" when the analysis does not know it, the call names no cwd or HOME is
// not set.
func TestShellCommandDir(t *testing.T) {
	home := Env{Getenv: func(k string) string {
		if k == "HOME" {
			return "/home/a"
		}
		return ""
	}}
	for _, c := range []struct {
		dir     string
		unknown bool
		cwd     string
		env     Env
		want    string
	}{
		{"", false, "/p", home, "/p"},
		{"sub/../x", false, "/p", home, "/p/x"},
		{"../o", false, "/p/s", home, "/p/o"},
		{"/abs/", false, "/p", home, "/abs"},
		{"/abs", false, "", home, "/abs"},
		{"~/r", false, "/p", home, "/home/a/r"},
		{"~/r", false, "/p", Env{}, ""},
		{"sub", false, "", home, ""},
		{"", true, "/p", home, ""},
	} {
		got := shellCommand(shellwrites.Command{Argv: []string{"ls"}, Dynamic: []bool{false}, Dir: c.dir, DirUnknown: c.unknown}, c.cwd, c.env)
		if got.Dir != c.want {
			t.Errorf("dir %q (unknown %v) from cwd %q: %q, want %q", c.dir, c.unknown, c.cwd, got.Dir, c.want)
		}
	}
}

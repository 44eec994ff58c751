package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/tausik/tausik/cli"
	"github.com/tausik/tausik/internal/hosts/hostinit"
)

// TestEveryWrittenHookIsACommand runs every hook command init writes, for
// every host, through the real command line with an empty payload: each
// must reach its host's adapter (which refuses or ignores the empty payload
// in its own protocol), none may be a command tausik does not have.
func TestEveryWrittenHookIsACommand(t *testing.T) {
	p, err := hostinit.Build(hostinit.Options{Root: t.TempDir(), Hosts: hostinit.HostNames()})
	if err != nil {
		t.Fatal(err)
	}
	cmd := regexp.MustCompile(`tausik hook [a-z]+ (pre|post)-tool-use`)
	seen := map[string]bool{}
	for _, f := range p.Files {
		for _, c := range cmd.FindAllString(string(f.New), -1) {
			seen[c] = true
		}
		if strings.HasSuffix(f.Rel, "tausik.js") {
			for _, ev := range []string{hostinit.Pre, hostinit.Post} {
				seen["tausik hook opencode "+ev] = true
			}
		}
	}
	if len(seen) != 2*(len(hostinit.Hosts)-1) { // kilo shares opencode's plugin
		t.Errorf("hook commands written: %d, want two per host", len(seen))
	}
	for c := range seen {
		var out, errb bytes.Buffer
		args := strings.Fields(c)[1:]
		code := cli.Run(context.Background(), append([]string{"--root", t.TempDir()}, args...), strings.NewReader(""), &out, &errb)
		if strings.Contains(errb.String(), "unknown command") || strings.Contains(errb.String(), "name an event") {
			t.Errorf("%s: exit %d, %s", c, code, errb.String())
		}
		if strings.HasSuffix(c, hostinit.Pre) && code == 0 && !json.Valid(out.Bytes()) {
			t.Errorf("%s let an empty payload through: exit 0, stdout %q", c, out.String())
		}
	}
}

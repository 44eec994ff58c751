package hookd

import (
	"strings"
	"testing"
)

func TestEnvKey(t *testing.T) {
	base := []string{"HOME=/h", "PATH=/bin", "TAUSIK_USER_CONFIG=/u.json", "TERM=xterm"}
	same := []string{"TERM=dumb", "PATH=/bin", "TAUSIK_HOOKD=require", "HOME=/h", "TAUSIK_BIN=/x", "TAUSIK_USER_CONFIG=/u.json", "CLAUDECODE=1"}
	if envKey(base) != envKey(same) {
		t.Error("an order, the client's switches or an unrelated variable changed the key")
	}
	for _, kv := range []string{"HOME=/other", "PATH=/usr/bin", "TAUSIK_USER_CONFIG=/v.json", "GIT_DIR=/g", "CI=true", "TAUSIK_DB=/d"} {
		changed := append([]string{kv}, base...)
		if k, _, _ := strings.Cut(kv, "="); k == "HOME" || k == "PATH" || k == "TAUSIK_USER_CONFIG" {
			changed = changed[:0]
			for _, b := range base {
				if !strings.HasPrefix(b, k+"=") {
					changed = append(changed, b)
				}
			}
			changed = append(changed, kv)
		}
		if envKey(changed) == envKey(base) {
			t.Errorf("%s did not change the key", kv)
		}
	}
}

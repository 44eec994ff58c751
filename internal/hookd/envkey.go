package hookd

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strings"
)

// envKey digests the parts of an environment that change what tausik
// decides or where it keeps state (its own variables, git's, HOME, PATH,
// CI; not the client's own switches): an evaluator answers only a client whose key equals its own, so no
// call is judged under another process's settings.
func envKey(env []string) string {
	var kept []string
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		switch {
		case k == "TAUSIK_HOOKD", k == "TAUSIK_BIN":
			// the client's own switches, which the evaluator never reads
		case strings.HasPrefix(k, "TAUSIK_"), strings.HasPrefix(k, "GIT_"),
			k == "HOME", k == "PATH", k == "CI", k == "XDG_CONFIG_HOME":
			kept = append(kept, kv)
		}
	}
	slices.Sort(kept)
	h := sha256.New()
	for _, kv := range kept {
		h.Write([]byte(kv))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

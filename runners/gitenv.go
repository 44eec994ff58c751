package runners

import (
	"os"
	"slices"
	"strings"
)

// relocatingGitEnv are variables that point git at another repository or
// work tree than the directory it runs in. A hook or an outer git process
// sets them; left in place they would make a runner observe a different
// project than the scope's root.
var relocatingGitEnv = []string{
	"GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR", "GIT_NAMESPACE", "GIT_PREFIX",
}

// GitEnv is the environment every git a runner starts runs with: this
// process's own without relocatingGitEnv, plus the C locale (stable
// messages), no optional locks (status would otherwise refresh and rewrite
// the index, racing with the user's own git commands and other tausik
// processes) and no prompts.
func GitEnv() []string {
	env := make([]string, 0, len(os.Environ())+4)
	for _, kv := range os.Environ() {
		key, _, _ := strings.Cut(kv, "=")
		if !slices.Contains(relocatingGitEnv, key) {
			env = append(env, kv)
		}
	}
	return append(env,
		"LC_ALL=C",
		"LANGUAGE=",
		"GIT_OPTIONAL_LOCKS=0",
		"GIT_TERMINAL_PROMPT=0",
	)
}

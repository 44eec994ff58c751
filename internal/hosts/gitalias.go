package hosts

import (
	"os/exec"
	"path/filepath"
	"strings"
)

// gitAlias reads the definition of git alias name as git run in dir sees
// it (the repository's, the user's and the system's configuration), so a
// shell call's `git NAME` is judged as what it runs. No git, no alias, or
// a dir that is not absolute: not resolved.
func gitAlias(dir, name string) (string, bool) {
	if !filepath.IsAbs(dir) || name == "" || strings.HasPrefix(name, "-") {
		return "", false
	}
	out, err := exec.Command("git", "-C", dir, "config", "--get", "alias."+name).Output()
	if err != nil {
		return "", false
	}
	return strings.TrimSuffix(string(out), "\n"), true
}

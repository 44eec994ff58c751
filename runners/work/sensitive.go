package work

import (
	"path"
	"strings"

	"github.com/tausik/tausik/facts"
)

// SensitivePatterns are the built-in patterns that make a declared file look
// security-sensitive. Matching is case-insensitive:
//
//   - a pattern ending in "/" matches a directory segment ("auth/" matches
//     src/auth/login.py, not src/oauth/x.py);
//   - a pattern holding * ? or [ is a glob on the base name ("*.pem");
//   - anything else is a substring of the path ("secret" matches
//     config/client_secret.json).
//
// The list is an observation aid, not a rule: verify_first decides what a
// sensitive file means, and its sensitive_patterns param adds patterns in
// the same language.
var SensitivePatterns = []string{
	"auth/", ".ssh/", "payment", "billing/", "secret", "credential", "password",
	".env", "*.pem", "*.key", "*.p12", "*.pfx", "*.jks", "*.keystore", "id_rsa", "id_ecdsa", "id_ed25519",
}

// MatchSensitive returns the paths that match one of patterns, each with the
// first pattern that matched, in the order of paths.
func MatchSensitive(paths, patterns []string) []facts.SensitiveFile {
	out := []facts.SensitiveFile{}
	for _, p := range paths {
		for _, pat := range patterns {
			if SensitiveMatch(pat, p) {
				out = append(out, facts.SensitiveFile{Path: p, Pattern: pat})
				break
			}
		}
	}
	return out
}

// SensitiveMatch reports whether the repo-relative path p matches pattern
// (see SensitivePatterns for the language). An empty pattern matches nothing.
func SensitiveMatch(pattern, p string) bool {
	pattern, p = strings.ToLower(strings.TrimSpace(pattern)), strings.ToLower(p)
	switch {
	case pattern == "" || pattern == "/":
		return false
	case strings.HasSuffix(pattern, "/"):
		dir := strings.TrimSuffix(pattern, "/")
		segs := strings.Split(p, "/")
		for _, s := range segs[:len(segs)-1] {
			if s == dir {
				return true
			}
		}
		return false
	case strings.ContainsAny(pattern, "*?["):
		ok, err := path.Match(pattern, path.Base(p))
		return err == nil && ok
	default:
		return strings.Contains(p, pattern)
	}
}

package fs

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/tausik/tausik/runners"
	"github.com/tausik/tausik/runners/cache"
)

// attrSources is what git check-attr's answer for a path depends on, read
// with stat alone: the .gitattributes file of every directory from the work
// tree's top down to the path's own (absent ones too: creating one changes
// the answer), info/attributes, the index (git falls back to a
// .gitattributes the index holds when the work tree has none) and the
// config files. Two calls that see the same identities get the same answer
// from git, so a hook process asking about the same files again, or about
// files no attribute source can mark, does not start git at all.
type attrSources struct {
	top string
	// ids maps each source file to its identity ("-" when absent).
	ids map[string]string
	// shared are the sources every path depends on.
	shared []string
	// indexed holds the directories (relative to top, slash-separated, "."
	// for top) the index has a .gitattributes in.
	indexed map[string]bool
	// racy: a source changed so recently that its stamp may not show the
	// next change (cache.Stamp.Racy): nothing is remembered or recalled.
	racy bool
}

// attrMemo remembers git's answers by path and source identities, which
// directories an index (by its identity) holds a .gitattributes in, and
// which attribute files (by path and identity) name a linguist attribute;
// all are bounded, and cleared when full.
var attrMemo = struct {
	sync.Mutex
	answers  map[string]string
	indexed  map[string]map[string]bool
	mentions map[string]bool
}{answers: map[string]string{}, indexed: map[string]map[string]bool{}, mentions: map[string]bool{}}

// maxAttrMemo bounds the number of remembered answers.
const maxAttrMemo = 1 << 14

// readAttrSources stats what git would read for paths (relative to root)
// in the work tree whose top is top. ok is false when the answer cannot be
// told from the files alone: no readable git directory, a config that may
// point attributes elsewhere (attr.*, include), an environment that does
// (GIT_ATTR_SOURCE, command-line config, another index), a source stat
// cannot read, or a system whose stat cannot tell a rewritten file.
func readAttrSources(ctx context.Context, top, root string, paths []string) (*attrSources, bool) {
	for _, k := range []string{"GIT_ATTR_SOURCE", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT", "GIT_CONFIG", "GIT_INDEX_FILE"} {
		if os.Getenv(k) != "" {
			return nil, false
		}
	}
	gitDir, common := runners.GitDirs(top)
	if info, err := os.Stat(filepath.Join(gitDir, "HEAD")); gitDir == "" || err != nil || !info.Mode().IsRegular() {
		return nil, false
	}
	s := &attrSources{top: top, ids: map[string]string{}}
	configs := append(userConfigs(), filepath.Join(common, "config"), filepath.Join(gitDir, "config.worktree"))
	index := filepath.Join(gitDir, "index")
	s.shared = append([]string{filepath.Join(gitDir, "info", "attributes"), filepath.Join(common, "info", "attributes"), index}, configs...)
	for _, p := range s.shared {
		if !s.stat(p) {
			return nil, false
		}
	}
	for _, c := range configs {
		if s.ids[c] != "-" && s.says(c, "redirect", mayRedirectAttributes) {
			return nil, false
		}
	}
	for _, p := range paths {
		for _, d := range s.dirs(filepath.Join(root, p)) {
			if !s.statAttributes(filepath.Join(d, ".gitattributes")) {
				return nil, false
			}
		}
	}
	indexed, err := s.indexedAttrDirs(ctx, index)
	if err != nil {
		return nil, false
	}
	s.indexed = indexed
	return s, true
}

// userConfigs are the user's and the system's git config files, which a
// git that runs here reads (the system's where Debian and most builds keep
// it: a git built with another prefix reads its own).
func userConfigs() []string {
	var out []string
	if g := os.Getenv("GIT_CONFIG_GLOBAL"); g != "" {
		out = append(out, g)
	} else {
		if home, err := os.UserHomeDir(); err == nil {
			out = append(out, filepath.Join(home, ".gitconfig"), filepath.Join(home, ".config", "git", "config"))
		}
		if x := os.Getenv("XDG_CONFIG_HOME"); x != "" {
			out = append(out, filepath.Join(x, "git", "config"))
		}
	}
	switch {
	case os.Getenv("GIT_CONFIG_NOSYSTEM") != "":
	case os.Getenv("GIT_CONFIG_SYSTEM") != "":
		out = append(out, os.Getenv("GIT_CONFIG_SYSTEM"))
	default:
		out = append(out, "/etc/gitconfig")
	}
	return out
}

// mayRedirectAttributes reports whether a config file's text could make
// git read attributes from somewhere else than the work tree and index
// (attr.tree, or an included file that might set it).
func mayRedirectAttributes(b []byte) bool {
	low := bytes.ToLower(b)
	return bytes.Contains(low, []byte("attr")) || bytes.Contains(low, []byte("include"))
}

// mentionsLinguist reports whether an attribute file's text may name a
// linguist attribute.
func mentionsLinguist(b []byte) bool { return bytes.Contains(b, []byte("linguist-")) }

// stat records p's identity; false when it cannot be read or told.
func (s *attrSources) stat(p string) bool {
	return s.record(p, os.Stat)
}

// statAttributes records the identity of a work tree's .gitattributes:
// one that is a symbolic link (git reads the index's instead) has no
// stamp, and makes the answer git's to give.
func (s *attrSources) statAttributes(p string) bool {
	return s.record(p, os.Lstat)
}

func (s *attrSources) record(p string, stat func(string) (os.FileInfo, error)) bool {
	if _, ok := s.ids[p]; ok {
		return true
	}
	info, err := stat(p)
	switch {
	case err == nil && p == os.DevNull:
		s.ids[p] = "-" // a config git reads nothing from
	case err == nil:
		st, ok := cache.StampOf(info)
		if !ok {
			return false
		}
		s.ids[p] = fmt.Sprintf("%d:%d:%o:%d:%d:%d", st.Dev, st.Ino, st.Mode, st.Size, st.MtimeNS, st.CtimeNS)
		s.racy = s.racy || st.Racy(time.Now())
	case os.IsNotExist(err):
		s.ids[p] = "-"
	default:
		return false
	}
	return true
}

// dirs are the directories from top down to file's own.
func (s *attrSources) dirs(file string) []string {
	var out []string
	for d := filepath.Dir(file); ; d = filepath.Dir(d) {
		out = append(out, d)
		if d == s.top || d == filepath.Dir(d) {
			return out
		}
	}
}

// key is the memo key of git's answer for path (relative to root), "" when
// a racy source forbids remembering.
func (s *attrSources) key(root, path string) string {
	if s.racy {
		return ""
	}
	var b strings.Builder
	b.WriteString(filepath.Join(root, path))
	for _, p := range s.shared {
		b.WriteByte(0)
		b.WriteString(s.ids[p])
	}
	for _, d := range s.dirs(filepath.Join(root, path)) {
		b.WriteByte(0)
		b.WriteString(s.ids[filepath.Join(d, ".gitattributes")])
	}
	return b.String()
}

// unmarkable reports whether no attribute source can mark path: neither
// info/attributes nor a .gitattributes above it names a linguist attribute,
// and none that git would read from the index (where the work tree has
// none) is above it. An attribute's name is never quoted, and a macro
// that sets one names it where it is defined (the top-level .gitattributes
// or info/attributes, both above every path), so a file that does not
// contain "linguist-" cannot mark anything.
func (s *attrSources) unmarkable(root, path string) bool {
	for _, p := range s.shared[:2] {
		if s.ids[p] != "-" && s.says(p, "linguist", mentionsLinguist) {
			return false
		}
	}
	for _, d := range s.dirs(filepath.Join(root, path)) {
		f := filepath.Join(d, ".gitattributes")
		rel, err := filepath.Rel(s.top, d)
		switch {
		case err != nil:
			return false
		case s.ids[f] != "-":
			if s.says(f, "linguist", mentionsLinguist) {
				return false
			}
		case s.indexed[filepath.ToSlash(rel)]:
			return false
		}
	}
	return true
}

// maxAttrFile bounds the source file says reads; a larger one is taken to
// say it.
const maxAttrFile = 1 << 20

// says reports whether test holds for the text of source file p; true when
// it cannot be read. The answer is kept by p's identity, under what.
func (s *attrSources) says(p, what string, test func([]byte) bool) bool {
	key := what + "\x00" + p + "\x00" + s.ids[p]
	attrMemo.Lock()
	m, ok := attrMemo.mentions[key]
	attrMemo.Unlock()
	if ok && !s.racy {
		return m
	}
	m = true
	if f, err := os.Open(p); err == nil {
		b, err := io.ReadAll(io.LimitReader(f, maxAttrFile+1))
		f.Close()
		m = err != nil || len(b) > maxAttrFile || test(b)
	}
	if !s.racy {
		attrMemo.Lock()
		if len(attrMemo.mentions) >= 1024 {
			attrMemo.mentions = map[string]bool{}
		}
		attrMemo.mentions[key] = m
		attrMemo.Unlock()
	}
	return m
}

// indexedAttrDirs returns the directories whose .gitattributes the index
// holds, asking git once per index identity.
func (s *attrSources) indexedAttrDirs(ctx context.Context, index string) (map[string]bool, error) {
	top, indexID := s.top, s.ids[index]
	if indexID == "-" {
		return map[string]bool{}, nil
	}
	attrMemo.Lock()
	dirs, ok := attrMemo.indexed[indexID+"\x00"+top]
	attrMemo.Unlock()
	if ok && !s.racy {
		return dirs, nil
	}
	cmd := exec.CommandContext(ctx, "git", "ls-files", "-z", "--cached", "--", ":(glob,top)**/.gitattributes")
	cmd.Dir = top
	cmd.Env = append(runners.GitEnv(), "GIT_CEILING_DIRECTORIES="+filepath.Dir(top))
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git ls-files: %w", err)
	}
	dirs = map[string]bool{}
	for _, p := range bytes.Split(out, []byte{0}) {
		if len(p) > 0 {
			dirs[filepath.ToSlash(filepath.Dir(string(p)))] = true
		}
	}
	if s.racy {
		return dirs, nil
	}
	attrMemo.Lock()
	if len(attrMemo.indexed) >= 64 {
		attrMemo.indexed = map[string]map[string]bool{}
	}
	attrMemo.indexed[indexID+"\x00"+top] = dirs
	attrMemo.Unlock()
	return dirs, nil
}

// rememberedLinguist returns git's remembered answer for key ("" recalls
// nothing).
func rememberedLinguist(key string) (string, bool) {
	if key == "" {
		return "", false
	}
	attrMemo.Lock()
	defer attrMemo.Unlock()
	v, ok := attrMemo.answers[key]
	return v, ok
}

// rememberLinguist keeps git's answer for key ("" keeps nothing).
func rememberLinguist(key, v string) {
	if key == "" {
		return
	}
	attrMemo.Lock()
	defer attrMemo.Unlock()
	if len(attrMemo.answers) >= maxAttrMemo {
		attrMemo.answers = map[string]string{}
	}
	attrMemo.answers[key] = v
}

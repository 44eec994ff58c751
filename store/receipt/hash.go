package receipt

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/tausik/tausik/internal/canonjson"
)

// FilesHash returns "sha256:<hex>" over the sorted lines
// "path|size|sha256(content)\n" of the declared files, or "path|missing\n"
// for a declared file that does not exist. It reads content, never
// timestamps: touching a file keeps the hash, any edit changes it, and
// deleting or creating a declared file changes it too.
//
// Paths are repo-relative with "/" separators; "./" prefixes and duplicate
// spellings are normalised away. An absolute path, one that escapes root,
// one containing a line break, or a directory is ErrBadPath; an unreadable
// file is an error (fail closed: nothing unread is ever certified).
func FilesHash(root string, paths []string) (string, error) {
	seen := map[string]bool{}
	var norm []string
	for _, p := range paths {
		n, err := normalizePath(p)
		if err != nil {
			return "", fmt.Errorf("files hash: %w", err)
		}
		if !seen[n] {
			seen[n] = true
			norm = append(norm, n)
		}
	}
	sort.Strings(norm)
	h := sha256.New()
	for _, p := range norm {
		line, err := fileLine(root, p)
		if err != nil {
			return "", fmt.Errorf("files hash: %w", err)
		}
		io.WriteString(h, line+"\n")
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), nil
}

func normalizePath(p string) (string, error) {
	if strings.ContainsAny(p, "\n\r\x00") {
		return "", fmt.Errorf("%w: %q contains a control character", ErrBadPath, p)
	}
	s := path.Clean(filepath.ToSlash(p))
	if s == "." || path.IsAbs(s) || filepath.IsAbs(p) || s == ".." || strings.HasPrefix(s, "../") {
		return "", fmt.Errorf("%w: %q is not a path inside the project", ErrBadPath, p)
	}
	return s, nil
}

func fileLine(root, p string) (string, error) {
	full := filepath.Join(root, filepath.FromSlash(p))
	f, err := os.Open(full)
	if errors.Is(err, fs.ErrNotExist) {
		return p + "|missing", nil
	}
	if err != nil {
		return "", err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return "", err
	}
	if info.IsDir() {
		return "", fmt.Errorf("%w: %s is a directory", ErrBadPath, p)
	}
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return "", fmt.Errorf("read %s: %w", p, err)
	}
	return p + "|" + strconv.FormatInt(n, 10) + "|" + hex.EncodeToString(h.Sum(nil)), nil
}

// VerifyGate is one enabled verify gate as the gate signature sees it.
type VerifyGate struct {
	Name     string   `json:"name"`
	Command  []string `json:"command"` // argv; never a shell string
	Severity string   `json:"severity"`
}

// GateSignature returns "sha256:<hex>" over the canonical JSON list of the
// enabled verify gates, sorted by name (then by the whole entry), so the order gates
// are configured in does not matter but adding, removing or changing one —
// its command or its severity — does: a receipt from a weaker gate set must
// not certify a stronger one.
func GateSignature(gates []VerifyGate) string {
	type item struct {
		name string
		enc  []byte
	}
	items := make([]item, 0, len(gates))
	for _, g := range gates {
		if g.Command == nil {
			g.Command = []string{}
		}
		// A struct of strings always encodes; the error is impossible.
		b, _ := canonjson.Marshal(g)
		items = append(items, item{g.Name, b})
	}
	sort.Slice(items, func(i, j int) bool {
		if items[i].name != items[j].name {
			return items[i].name < items[j].name
		}
		return string(items[i].enc) < string(items[j].enc)
	})
	b := []byte{'['}
	for i, it := range items {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, it.enc...)
	}
	b = append(b, ']')
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// Package fs is the runner for the "files" namespace: size, line count, binary
// flag and sha256 of every file in the request's scope.
package fs

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"unicode/utf8"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners"
)

// Namespace is the key of the facts this runner gathers.
const Namespace = "files"

// sniffLen is how much of a file's head decides whether it is binary.
const sniffLen = 8 << 10

// Runner gathers the "files" namespace.
type Runner struct{}

// New returns the fs runner.
func New() *Runner { return &Runner{} }

// Namespace implements runners.Runner.
func (*Runner) Namespace() string { return Namespace }

// Gather implements runners.Runner. Any file that exists but cannot be read
// turns the whole namespace into an error: a partial listing would let a
// gate pass over the file it could not see.
func (*Runner) Gather(ctx context.Context, s *runners.Scope) facts.Namespace {
	paths, err := s.ScopedFiles(ctx)
	if err != nil {
		return facts.Error(err.Error())
	}
	files, err := Stat(ctx, s.Root, paths)
	if err != nil {
		return facts.Error(err.Error())
	}
	return facts.OK(facts.Files{Files: files})
}

// Stat describes each repo-relative path under root, in parallel, keeping the
// order of paths.
func Stat(ctx context.Context, root string, paths []string) ([]facts.File, error) {
	out := make([]facts.File, len(paths))
	errs := make([]error, len(paths))
	workers := min(runtime.GOMAXPROCS(0)*2, len(paths))
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			buf := make([]byte, 64<<10)
			for i := range next {
				out[i], errs[i] = describe(root, paths[i], buf)
			}
		})
	}
feed:
	for i := range paths {
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return out, errors.Join(errs...)
}

func describe(root, rel string, buf []byte) (facts.File, error) {
	f := facts.File{Path: rel, Name: path.Base(rel), Ext: Ext(rel)}
	full := filepath.Join(root, filepath.FromSlash(rel))
	info, err := os.Lstat(full)
	switch {
	case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
		f.Kind = "missing"
		return f, nil
	case err != nil:
		return f, fmt.Errorf("stat %s: %w", rel, err)
	case info.Mode()&fs.ModeSymlink != 0:
		f.Kind = "symlink"
		return f, nil
	case info.IsDir():
		f.Kind = "dir"
		return f, nil
	case !info.Mode().IsRegular():
		f.Kind = "other"
		return f, nil
	}
	fh, err := os.Open(full)
	if err != nil {
		return f, fmt.Errorf("open %s: %w", rel, err)
	}
	defer fh.Close()
	f.Kind, f.Exists = "file", true
	if err := scan(fh, buf, &f); err != nil {
		return f, fmt.Errorf("read %s: %w", rel, err)
	}
	return f, nil
}

// scan reads r once, filling size, line count, binary flag and sha256.
func scan(r io.Reader, buf []byte, f *facts.File) error {
	h := sha256.New()
	var head []byte
	var last byte
	for {
		n, err := r.Read(buf)
		if n > 0 {
			chunk := buf[:n]
			h.Write(chunk)
			f.Size += int64(n)
			f.Lines += int64(bytes.Count(chunk, []byte{'\n'}))
			last = chunk[n-1]
			if len(head) < sniffLen {
				head = append(head, chunk[:min(n, sniffLen-len(head))]...)
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
	}
	if f.Size > 0 && last != '\n' {
		f.Lines++
	}
	f.Binary = IsBinary(head, f.Size > int64(len(head)))
	f.SHA256 = hex.EncodeToString(h.Sum(nil))
	return nil
}

// IsBinary reports whether head, the first bytes of a file, marks it binary: a
// NUL byte, or bytes that are not UTF-8. When the file goes on past head
// (truncated), a multi-byte character cut at the end of head is not held
// against it.
func IsBinary(head []byte, truncated bool) bool {
	if bytes.IndexByte(head, 0) >= 0 {
		return true
	}
	if truncated {
		head = trimCutRune(head)
	}
	return !utf8.Valid(head)
}

// trimCutRune drops an incomplete UTF-8 sequence at the end of b.
func trimCutRune(b []byte) []byte {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				return b[:i]
			}
			return b
		}
	}
	return b
}

// Ext returns the lower-case extension of p with its dot, or "" when there is
// none. A dotfile's leading dot does not start an extension (".bashrc" has
// none, ".eslintrc.json" has ".json").
func Ext(p string) string {
	name := strings.TrimLeft(path.Base(p), ".")
	return strings.ToLower(path.Ext(name))
}

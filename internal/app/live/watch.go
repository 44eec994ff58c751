package live

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/tausik/tausik/internal/filehash"

	"github.com/tausik/tausik/internal/boundedread"
)

// stamp is what a stat says of one watched path: enough to notice a file
// written, replaced, created or removed without reading it.
type stamp struct {
	path  string
	size  int64
	mtime int64 // UnixNano
	ino   uint64
	ctime int64 // UnixNano; changes on every write, whatever the mtime says
	dir   bool
	gone  bool
}

func stampOf(path string, info fs.FileInfo) stamp {
	return stamp{path: path, size: info.Size(), mtime: info.ModTime().UnixNano(), ino: inode(info), ctime: ctime(info), dir: info.IsDir()}
}

// snapshot stamps the configuration files of every tier and every file and
// directory below the team policy directory, in a fixed order. A missing
// file is stamped as gone, so its creation is a change too.
func snapshot(files []string, teamDir string) []stamp {
	var out []stamp
	for _, f := range files {
		if f == "" {
			continue
		}
		info, err := os.Stat(f)
		if err != nil {
			out = append(out, stamp{path: f, gone: true})
			continue
		}
		out = append(out, stampOf(f, info))
	}
	_ = filepath.WalkDir(teamDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if path == teamDir {
				out = append(out, stamp{path: path, gone: true})
				return nil
			}
			// An entry that vanished mid-walk is a change the next look sees.
			out = append(out, stamp{path: path, gone: true})
			return nil
		}
		info, err := d.Info()
		if err != nil {
			out = append(out, stamp{path: path, gone: true})
			return nil
		}
		out = append(out, stampOf(path, info))
		return nil
	})
	return out
}

// digest hashes the names and contents of the files a snapshot stamped, so
// a file touched but not changed does not rebuild the engine.
func digest(stamps []stamp) string {
	h := sha256.New()
	for _, s := range stamps {
		switch {
		case s.gone:
			io.WriteString(h, "gone "+s.path+"\n")
		case s.dir:
			io.WriteString(h, "dir "+s.path+"\n")
		default:
			io.WriteString(h, "file "+s.path+"\n")
			// Read as the engine reads config and bundles: a FIFO or a
			// device in the watched tree is "unreadable", never a hang.
			b, err := boundedread.File(s.path, boundedread.MaxBundle)
			if err != nil {
				io.WriteString(h, "unreadable\n")
				continue
			}
			h.Write(b)
			io.WriteString(h, "\n")
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// exeWatch notices the tausik binary on disk being replaced while this
// process still runs the old one.
type exeWatch struct {
	path     string
	last     stamp
	startSum func() (string, error) // the running binary's digest
	replaced bool
}

// newExeWatch watches path. running is the file to digest for the binary
// that runs (on Linux /proc/self/exe, which stays the old image when the
// path is replaced); with none readable, path is digested now.
func newExeWatch(path, running string) *exeWatch {
	w := &exeWatch{path: path}
	if info, err := os.Stat(path); err == nil {
		w.last = stampOf(path, info)
	}
	if _, err := os.Stat(running); running != "" && err == nil {
		w.startSum = onceSum(running)
	} else {
		sum, err := filehash.SHA256(path)
		w.startSum = func() (string, error) { return sum, err }
	}
	return w
}

// check reports whether the binary at the watched path is no longer the
// one running: its stat changed and its digest differs (a rebuild with the
// same bytes is not a replacement), or it is gone.
func (w *exeWatch) check() bool {
	info, err := os.Stat(w.path)
	if err != nil {
		w.replaced = true
		return true
	}
	now := stampOf(w.path, info)
	if now == w.last {
		return w.replaced
	}
	w.last = now
	start, err1 := w.startSum()
	cur, err2 := filehash.SHA256(w.path)
	w.replaced = err1 != nil || err2 != nil || start != cur
	return w.replaced
}

func onceSum(path string) func() (string, error) {
	var sum string
	var err error
	done := false
	return func() (string, error) {
		if !done {
			sum, err = filehash.SHA256(path)
			done = true
		}
		return sum, err
	}
}

// sameStamps compares two snapshots.
func sameStamps(a, b []stamp) bool { return slices.Equal(a, b) }

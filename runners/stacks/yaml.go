package stacks

import (
	"bytes"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/tausik/tausik/internal/boundedread"
	"github.com/tausik/tausik/runners/cache"
)

// maxManifest caps a YAML file read to see whether it is a Kubernetes
// manifest or an Ansible playbook; a larger one is not looked at.
const maxManifest = 256 << 10

// yamlFile looks at a YAML file f, named name in dir: an Ansible role's
// tasks, a playbook, or Kubernetes manifests. A YAML file that does not
// parse is no manifest, and no tool's marker either: it is not reported.
func (d *detector) yamlFile(f, dir, name string) {
	segs := strings.Split(f, "/")
	if n := len(segs); n >= 4 && segs[n-4] == "roles" && segs[n-2] == "tasks" && strings.TrimSuffix(name, path.Ext(name)) == "main" {
		d.stack("ansible", parent(segs[:n-4]), strings.Join(segs[n-4:], "/"))
		return
	}
	if strings.HasPrefix(name, ".") || name == "Chart.yaml" || d.inChartTemplates(dir) {
		return
	}
	if kind := d.manifestKind(f, dir); kind != "" {
		d.stack(kind, dir, name)
	}
}

// manifestKind is what the YAML file f (relative to the root, in dir) is:
// "kubernetes" for manifests, "ansible" for a playbook, "" for neither or
// a file that cannot be read.
func (d *detector) manifestKind(f, dir string) string {
	abs := filepath.Join(d.root, filepath.FromSlash(f))
	seen := time.Now()
	before, stamped := stampOf(abs)
	stamped = stamped && d.plainDir(dir)
	if stamped {
		if kind, ok := manifests.get(abs, before); ok {
			return kind
		}
	}
	b, err := boundedread.In(d.root, f, maxManifest)
	if err != nil {
		return ""
	}
	kind := kindOf(b)
	// Remembered only when the file did not change while it was read and
	// its stamp, taken after seen, cannot hide a change (cache.Stamp.Racy).
	if after, ok := stampOf(abs); stamped && ok && after == before && !before.Racy(seen) {
		manifests.put(abs, before, kind)
	}
	return kind
}

// plainDir reports whether dir (relative to the root) and every directory
// between it and the root are directories, not symbolic links: a file's
// stamp taken through them is the stamp of the file boundedread reads,
// inside the root. Remembered for the detection.
func (d *detector) plainDir(dir string) bool {
	if dir == "." {
		return true
	}
	if ok, known := d.plain[dir]; known {
		return ok
	}
	ok := d.plainDir(path.Dir(dir))
	if ok {
		info, err := os.Lstat(filepath.Join(d.root, filepath.FromSlash(dir)))
		ok = err == nil && info.IsDir()
	}
	d.plain[dir] = ok
	return ok
}

// kindOf reads a YAML file's text as manifestKind does.
func kindOf(b []byte) string {
	k8s := bytes.Contains(b, []byte("apiVersion")) && bytes.Contains(b, []byte("kind"))
	play := bytes.Contains(b, []byte("hosts")) || bytes.Contains(b, []byte("import_playbook"))
	if !k8s && !play {
		return ""
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	for {
		var doc any
		if dec.Decode(&doc) != nil {
			return "" // the end, or no YAML
		}
		switch {
		case k8s && isManifest(doc):
			return "kubernetes"
		case play && isPlaybook(doc):
			return "ansible"
		}
	}
}

// stampOf is the stamp of the regular file at path, not following a final
// symbolic link (a link is read through boundedread every time; plainDir
// rules out links above it).
func stampOf(path string) (cache.Stamp, bool) {
	info, err := os.Lstat(path)
	if err != nil {
		return cache.Stamp{}, false
	}
	return cache.StampOf(info)
}

// manifests remembers manifestKind's answers by file and stamp: a resident
// evaluator detects the stacks after every write, and a project keeps
// hundreds of YAML files (CI, charts, gate definitions) that did not
// change. A stamp names one content (cache.Stamp), so a remembered kind
// stays true while the stamp does. Safe for concurrent use; bounded.
var manifests = &kindMemo{}

// maxManifests bounds the files manifests remembers (an entry is under 200
// bytes); past it, it starts afresh.
const maxManifests = 1 << 16

type kindMemo struct {
	mu sync.Mutex
	m  map[string]kindEntry
}

type kindEntry struct {
	stamp cache.Stamp
	kind  string
}

func (k *kindMemo) get(abs string, st cache.Stamp) (string, bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	e, ok := k.m[abs]
	return e.kind, ok && e.stamp == st
}

func (k *kindMemo) put(abs string, st cache.Stamp, kind string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.m == nil || len(k.m) >= maxManifests {
		k.m = map[string]kindEntry{}
	}
	k.m[abs] = kindEntry{st, kind}
}

// inChartTemplates reports whether dir is a Helm chart's templates
// directory, whose files are templates of manifests, not manifests.
func (d *detector) inChartTemplates(dir string) bool {
	segs := strings.Split(dir, "/")
	for i, s := range segs {
		if s == "templates" && d.present[path.Join(parent(segs[:i]), "Chart.yaml")] {
			return true
		}
	}
	return false
}

// isManifest reports whether a YAML document is a Kubernetes object: a
// mapping with a string apiVersion and kind.
func isManifest(doc any) bool {
	m, ok := doc.(map[string]any)
	if !ok {
		return false
	}
	v, okV := m["apiVersion"].(string)
	k, okK := m["kind"].(string)
	return okV && okK && v != "" && k != ""
}

// isPlaybook reports whether a YAML document is an Ansible playbook: a list
// of plays, each a mapping with hosts and what to do there, or an import of
// another playbook.
func isPlaybook(doc any) bool {
	plays, ok := doc.([]any)
	if !ok || len(plays) == 0 {
		return false
	}
	for _, p := range plays {
		m, ok := p.(map[string]any)
		if !ok {
			return false
		}
		_, hosts := m["hosts"]
		_, imp := m["import_playbook"]
		_, fqImp := m["ansible.builtin.import_playbook"]
		acts := false
		for _, k := range []string{"tasks", "roles", "pre_tasks", "post_tasks", "handlers"} {
			if _, ok := m[k]; ok {
				acts = true
			}
		}
		if !(hosts && acts) && !imp && !fqImp {
			return false
		}
	}
	return true
}

// parent joins directory segments into a repo-relative dir, "." for none.
func parent(segs []string) string {
	if len(segs) == 0 {
		return "."
	}
	return strings.Join(segs, "/")
}

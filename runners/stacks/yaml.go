package stacks

import (
	"bytes"
	"path"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/tausik/tausik/internal/boundedread"
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
	b, err := boundedread.In(d.root, f, maxManifest)
	if err != nil {
		return
	}
	k8s := bytes.Contains(b, []byte("apiVersion")) && bytes.Contains(b, []byte("kind"))
	play := bytes.Contains(b, []byte("hosts")) || bytes.Contains(b, []byte("import_playbook"))
	if !k8s && !play {
		return
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	for {
		var doc any
		if dec.Decode(&doc) != nil {
			return // the end, or no YAML
		}
		switch {
		case k8s && isManifest(doc):
			d.stack("kubernetes", dir, name)
			return
		case play && isPlaybook(doc):
			d.stack("ansible", dir, name)
			return
		}
	}
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

package command

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/internal/boundedread"
)

// maxManifestRead caps a manifest read to locate a kubeconform finding.
const maxManifestRead = 4 << 20

// kubeconformReport is `kubeconform -output json`; only what tausik reads.
type kubeconformReport struct {
	Resources *[]struct {
		Filename         string `json:"filename"`
		Kind             string `json:"kind"`
		Name             string `json:"name"`
		Version          string `json:"version"`
		Status           string `json:"status"`
		Msg              string `json:"msg"`
		ValidationErrors []struct {
			Path string `json:"path"`
			Msg  string `json:"msg"`
		} `json:"validationErrors"`
	} `json:"resources"`
}

// ParseKubeconform reads kubeconform's JSON output. Each validation error
// of an invalid resource is a diagnostic (severity "error", code the
// resource's kind) located at the line of the field it names, found in
// the manifest; a resource kubeconform could not judge (statusError: no
// schema, a document that does not parse) is a diagnostic of severity
// "could_not_judge". Valid and skipped resources say nothing.
func ParseKubeconform(stdout []byte, root string) ([]facts.Diagnostic, error) {
	var rep kubeconformReport
	dec := json.NewDecoder(bytes.NewReader(bytes.TrimSpace(stdout)))
	if err := dec.Decode(&rep); err != nil {
		return nil, fmt.Errorf("read kubeconform JSON: %w", err)
	}
	if dec.More() {
		return nil, errors.New("read kubeconform JSON: data after the report")
	}
	if rep.Resources == nil {
		return nil, errors.New("read kubeconform JSON: no resources list")
	}
	diags := []facts.Diagnostic{}
	docs := map[string][]*yaml.Node{}
	for _, r := range *rep.Resources {
		file := relPath(root, r.Filename)
		what := strings.TrimSpace(r.Kind + " " + r.Name)
		switch r.Status {
		case "statusInvalid":
			if _, seen := docs[file]; !seen {
				docs[file] = manifestDocs(root, file)
			}
			doc := findDoc(docs[file], r.Kind, r.Name)
			for _, ve := range r.ValidationErrors {
				diags = append(diags, facts.Diagnostic{File: file, Line: nodeLine(doc, ve.Path), Code: r.Kind, Severity: "error",
					Message: fmt.Sprintf("%s: %s: %s", what, ve.Path, ve.Msg)})
			}
			if len(r.ValidationErrors) == 0 {
				diags = append(diags, facts.Diagnostic{File: file, Line: nodeLine(doc, ""), Code: r.Kind, Severity: "error",
					Message: what + ": " + r.Msg})
			}
		case "statusError":
			diags = append(diags, facts.Diagnostic{File: file, Code: r.Kind, Severity: "could_not_judge", Message: strings.TrimSpace(what + ": " + r.Msg)})
		}
	}
	return diags, nil
}

// manifestDocs parses the documents of a manifest (root-relative file);
// none when it cannot be read.
func manifestDocs(root, file string) []*yaml.Node {
	b, err := boundedread.In(root, filepath.ToSlash(file), maxManifestRead)
	if err != nil {
		return nil
	}
	var out []*yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(b))
	for {
		var n yaml.Node
		if dec.Decode(&n) != nil {
			return out
		}
		if len(n.Content) == 1 {
			out = append(out, n.Content[0])
		}
	}
}

// findDoc returns the document holding the object kind/name.
func findDoc(docs []*yaml.Node, kind, name string) *yaml.Node {
	for _, d := range docs {
		k := child(d, "kind")
		n := child(child(d, "metadata"), "name")
		if k != nil && k.Value == kind && (name == "" || n != nil && n.Value == name) {
			return d
		}
	}
	return nil
}

// nodeLine returns the line of the node a JSON pointer ("/spec/ports/0/port")
// names in doc, or of the deepest node on the way that exists; 0 without
// a document.
func nodeLine(doc *yaml.Node, pointer string) int64 {
	if doc == nil {
		return 0
	}
	line := int64(doc.Line)
	n := doc
	for _, seg := range strings.Split(strings.Trim(pointer, "/"), "/") {
		if seg == "" {
			break
		}
		seg = strings.ReplaceAll(strings.ReplaceAll(seg, "~1", "/"), "~0", "~")
		var next, at *yaml.Node // the child, and the node whose line is its line (a key's)
		if n.Kind == yaml.SequenceNode {
			if i, err := strconv.Atoi(seg); err == nil && i >= 0 && i < len(n.Content) {
				next, at = n.Content[i], n.Content[i]
			}
		} else {
			at, next = keyValue(n, seg)
		}
		if next == nil {
			break
		}
		n, line = next, int64(at.Line)
	}
	return line
}

func child(n *yaml.Node, key string) *yaml.Node {
	_, v := keyValue(n, key)
	return v
}

func keyValue(n *yaml.Node, key string) (*yaml.Node, *yaml.Node) {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil, nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i], n.Content[i+1]
		}
	}
	return nil, nil
}

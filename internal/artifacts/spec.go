package artifacts

import (
	"fmt"
	"strings"
)

// NewSpec is what `tausik spec new` asks for.
type NewSpec struct {
	Slug, Type, Title string
	// Status defaults to draft.
	Status string
	Tasks  []string
}

// CreateSpec writes renar/specs/<slug>.md, version 1, with a body holding
// the title heading and the sections a requirement needs. It refuses a bad
// slug, type or status (ErrUsage), an empty title, and an existing file
// (ErrExists). It returns the file written, repo-relative.
func (r Repo) CreateSpec(in NewSpec) (string, error) {
	if in.Status == "" {
		in.Status = "draft"
	}
	if err := checkSlug("spec slug", in.Slug); err != nil {
		return "", err
	}
	if err := checkOneOf("--type", in.Type, SpecTypes); err != nil {
		return "", err
	}
	if err := checkOneOf("--status", in.Status, SpecStatuses); err != nil {
		return "", err
	}
	if strings.TrimSpace(in.Title) == "" {
		return "", fmt.Errorf("%w: --title is empty: a SPEC states its requirement in its title", ErrUsage)
	}
	for _, t := range in.Tasks {
		if err := checkSlug("--task", t); err != nil {
			return "", err
		}
	}
	now := r.now()
	d := &Doc{File: Rel(KindSpec, in.Slug), FrontStart: 2, Front: Map("artifact", KindSpec, "slug", in.Slug, "type", in.Type,
		"status", in.Status)}
	d.Set("version", Int(1))
	d.Set("title", Str(in.Title))
	d.Set("created_at", Str(now))
	d.Set("updated_at", Str(now))
	d.Set("linked_tasks", Strs(in.Tasks))
	d.Body = fmt.Appendf(nil, "# SPEC-%s: %s\n\n## Requirement\n\nWhat must hold, stated so it can be checked.\n\n"+
		"## Acceptance\n\nHow we know it holds.\n", in.Type, in.Title)
	return d.File, r.create(KindSpec, in.Slug, d)
}

// SetSpecStatus moves a SPEC to status and bumps updated_at: a requirement
// that changes state changes for every task verified against it. The same
// status again changes nothing (changed false). ErrUsage for a status
// outside the list, ErrNotFound for an unknown slug.
func (r Repo) SetSpecStatus(slug, status string) (changed bool, err error) {
	if err := checkOneOf("status", status, SpecStatuses); err != nil {
		return false, err
	}
	d, s, err := r.LoadSpec(slug)
	if err != nil {
		return false, err
	}
	if s.Status == status {
		return false, nil
	}
	d.Set("status", Str(status))
	d.Set("updated_at", Str(r.now()))
	return true, r.Save(d)
}

// AddSpecTask records task in a SPEC's linked_tasks (once).
func (r Repo) AddSpecTask(slug, task string) error {
	d, s, err := r.LoadSpec(slug)
	if err != nil {
		return err
	}
	for _, t := range s.LinkedTasks {
		if t == task {
			return nil
		}
	}
	d.Set("linked_tasks", Strs(append(s.LinkedTasks, task)))
	return r.Save(d)
}

package app

import "github.com/tausik/tausik/internal/artifacts"

// SpecRow is one SPEC as listed: its fields, or why its file did not
// parse.
type SpecRow struct {
	artifacts.Spec
	Error string `json:"error,omitempty"`
}

// ListSpecs returns every SPEC of repo by slug; one whose file does not
// parse is listed with its error.
func ListSpecs(repo artifacts.Repo) ([]SpecRow, error) {
	slugs, err := repo.Slugs(artifacts.KindSpec)
	if err != nil {
		return nil, err
	}
	rows := make([]SpecRow, 0, len(slugs))
	for _, slug := range slugs {
		_, s, err := repo.LoadSpec(slug)
		row := SpecRow{Spec: s}
		if err != nil {
			row.Spec = artifacts.Spec{File: artifacts.Rel(artifacts.KindSpec, slug), Slug: slug}
			row.Error = err.Error()
		}
		rows = append(rows, row)
	}
	return rows, nil
}

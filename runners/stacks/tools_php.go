package stacks

import (
	"encoding/json"
	"fmt"
	"path"
)

// The php stack's registry entries: phpcs, phpstan and phpunit each judge
// a PHP root (a composer.json) that configures the tool, or whose
// composer.json requires it.
func init() {
	for _, t := range []struct {
		name, pkg string
		configs   []string
	}{
		{"phpcs", "squizlabs/php_codesniffer", []string{"phpcs.xml", "phpcs.xml.dist", ".phpcs.xml", ".phpcs.xml.dist"}},
		{"phpstan", "phpstan/phpstan", []string{"phpstan.neon", "phpstan.neon.dist", "phpstan.dist.neon"}},
		{"phpunit", "phpunit/phpunit", []string{"phpunit.xml", "phpunit.xml.dist", "phpunit.dist.xml"}},
	} {
		RegisterTool(StackTool{Name: t.name, Stack: "php",
			Markers: fmt.Sprintf("%s, or %s in a composer.json's require or require-dev", joinOr(t.configs), t.pkg),
			Uses:    usesPHP(t.name, t.pkg, t.configs)})
	}
}

func joinOr(names []string) string {
	s := ""
	for i, n := range names {
		switch {
		case i == 0:
		case i == len(names)-1:
			s += " or "
		default:
			s += ", "
		}
		s += n
	}
	return s
}

// usesPHP accepts a root that has one of configs, or whose composer.json
// requires pkg.
func usesPHP(tool, pkg string, configs []string) func(r *RootView) Use {
	return func(r *RootView) Use {
		var u Use
		for _, c := range configs {
			if r.Has(c) {
				u.Markers = append(u.Markers, c)
			}
		}
		if r.d.composerRequires(path.Join(r.Dir, "composer.json"), pkg, tool) {
			u.Markers = append(u.Markers, pkg+" in composer.json")
		}
		return u
	}
}

// composerRequires reports whether the project file f, a composer.json,
// requires pkg; one that cannot be read or parsed is recorded as
// unreadable for tool.
func (d *detector) composerRequires(f, pkg, tool string) bool {
	if !d.present[f] {
		return false
	}
	b, ok := d.read(f, tool)
	if !ok {
		return false
	}
	var c struct {
		Require    map[string]any `json:"require"`
		RequireDev map[string]any `json:"require-dev"`
	}
	if err := json.Unmarshal(b, &c); err != nil {
		d.bad(f, fmt.Errorf("parse: %w", err), tool)
		return false
	}
	_, req := c.Require[pkg]
	_, dev := c.RequireDev[pkg]
	return req || dev
}

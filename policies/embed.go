// Package policies embeds tausik's built-in gate bundles, one directory per
// gate (DESIGN.md "Gate bundle"), so the binary judges a repository with no
// files of its own.
package policies

import "embed"

// FS holds the bundles. Non-directory entries at its root (this file) are
// not bundles and are skipped by the loader.
//
//go:embed all:*
var FS embed.FS

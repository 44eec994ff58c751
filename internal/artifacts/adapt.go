package artifacts

import (
	"crypto/ed25519"
	"errors"
	"fmt"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// NewAdapt is what `tausik adapt new` asks for.
type NewAdapt struct {
	Slug string
	// Spec is the SPEC the ADAPT interprets (its tz_ref); with a Parent it
	// may be empty and is then the parent's.
	Spec   string
	Parent string
	Title  string
	Tasks  []string
}

// CreateAdapt writes renar/adapts/<slug>.md in status draft: a base ADAPT
// (delta_n 0) of a SPEC, or with a parent a delta whose delta_n is the
// parent's plus one. It refuses a bad slug, a SPEC or parent that does not
// exist (ErrNotFound), a parent that is superseded or whose delta_n is not
// an integer (ErrUsage), and an existing file (ErrExists).
func (r Repo) CreateAdapt(in NewAdapt) (string, error) {
	if err := checkSlug("adapt slug", in.Slug); err != nil {
		return "", err
	}
	for _, t := range in.Tasks {
		if err := checkSlug("--task", t); err != nil {
			return "", err
		}
	}
	var delta int64
	tz := in.Spec
	parent := Null()
	if in.Parent != "" {
		_, p, err := r.LoadAdapt(in.Parent)
		if err != nil {
			return "", fmt.Errorf("--parent: %w", err)
		}
		switch {
		case p.Status == "superseded":
			return "", fmt.Errorf("%w: parent ADAPT %q is superseded (by %q): a delta of it would extend a dead reading; extend its successor",
				ErrUsage, in.Parent, p.SupersededBy)
		case p.DeltaInt == nil:
			return "", fmt.Errorf("%w: parent ADAPT %q has delta_n %q, not an integer (%s:%d)", ErrUsage, in.Parent, p.DeltaN, p.File, p.Lines["delta_n"])
		}
		delta, parent = *p.DeltaInt+1, Str(in.Parent)
		if tz == "" {
			tz = p.TzRef
		}
	}
	if tz == "" {
		return "", fmt.Errorf("%w: name the SPEC the ADAPT interprets with --spec (or a --parent to extend)", ErrUsage)
	}
	if _, err := r.Load(KindSpec, tz); err != nil {
		return "", fmt.Errorf("--spec: %w", err)
	}
	title := in.Title
	if strings.TrimSpace(title) == "" {
		title = "Interpretation of " + tz
	}
	links := []*yaml.Node{Map("target_slug", tz, "target_type", "spec")}
	for _, t := range in.Tasks {
		links = append(links, Map("target_slug", t, "target_type", "task"))
	}
	now := r.now()
	d := &Doc{File: Rel(KindAdapt, in.Slug), FrontStart: 2, Front: Map("artifact", KindAdapt, "slug", in.Slug, "title", title, "status", "draft")}
	d.Set("delta_n", Int(delta))
	d.Set("parent_adapt", parent)
	d.Set("tz_ref", Str(tz))
	d.Set("links", Seq(links...))
	d.Set("signatures", Seq())
	d.Set("created_at", Str(now))
	d.Set("updated_at", Str(now))
	d.Body = fmt.Appendf(nil, "# ADAPT: %s\n\n## Forward interpretations\n\n"+
		"<!-- One heading per reading: ### [<category>] (%s), category one of %s. -->\n\n"+
		"## Backward findings\n\n<!-- What the work found the requirement got wrong, same headings. -->\n",
		title, tz, strings.Join(Categories, ", "))
	return d.File, r.create(KindAdapt, in.Slug, d)
}

// SetAdaptStatus moves an ADAPT to status and bumps updated_at. It refuses
// a status outside the list (the legacy "signed" too: write "approved"),
// "superseded" (Supersede records the successor and the rationale), and
// approved or frozen without a valid architect signature.
func (r Repo) SetAdaptStatus(slug, status string) (changed bool, err error) {
	if status == "superseded" {
		return false, fmt.Errorf("%w: status superseded needs a successor and a rationale: `tausik adapt supersede %s --by NEW --rationale TEXT`", ErrUsage, slug)
	}
	if err := checkOneOf("status", status, AdaptStatuses); err != nil {
		return false, err
	}
	d, a, err := r.LoadAdapt(slug)
	if err != nil {
		return false, err
	}
	if a.StatusRaw == status {
		return false, nil
	}
	if status == "approved" || status == "frozen" {
		ring, _ := LoadKeyring(r.Root)
		ring.Verify(d, &a)
		if !hasValidArchitect(a) {
			return false, fmt.Errorf("%w: ADAPT %q cannot be %s without a valid architect signature: `tausik adapt sign %s --role architect` first",
				ErrUsage, slug, status, slug)
		}
	}
	d.Set("status", Str(status))
	d.Set("updated_at", Str(r.now()))
	return true, r.Save(d)
}

func hasValidArchitect(a Adapt) bool {
	for _, s := range a.Signatures {
		if s.Role == "architect" && s.Valid {
			return true
		}
	}
	return false
}

// Supersede marks ADAPT slug superseded by ADAPT by, with the rationale. It
// refuses an empty rationale, a successor that does not exist or is slug
// itself, and an ADAPT already superseded.
func (r Repo) Supersede(slug, by, rationale string) error {
	if strings.TrimSpace(rationale) == "" {
		return fmt.Errorf("%w: --rationale is empty: say why %q no longer holds", ErrUsage, slug)
	}
	if by == slug {
		return fmt.Errorf("%w: --by %q is the ADAPT itself", ErrUsage, by)
	}
	d, a, err := r.LoadAdapt(slug)
	if err != nil {
		return err
	}
	if a.Status == "superseded" {
		return fmt.Errorf("%w: ADAPT %q is already superseded by %q", ErrUsage, slug, a.SupersededBy)
	}
	if _, err := r.Load(KindAdapt, by); err != nil {
		return fmt.Errorf("--by: %w", err)
	}
	d.Set("status", Str("superseded"))
	d.Set("superseded_by", Str(by))
	d.Set("supersession_rationale", Str(rationale))
	d.Set("updated_at", Str(r.now()))
	return r.Save(d)
}

// Signed is what Sign did.
type Signed struct {
	Signature Signature
	// Published is the public key file written under renar/keys/, "" when
	// a committed file already held the key.
	Published string
}

// Sign signs ADAPT slug as role with key over its canonical content,
// replacing an earlier signature of the same role and key, and publishes
// the public key under renar/keys/ so others can check it. It refuses the
// withdrawn role "client" and any role outside the list, and an empty
// signer.
func (r Repo) Sign(slug, role, by string, key ed25519.PrivateKey) (Signed, error) {
	for _, w := range WithdrawnRoles {
		if role == w {
			return Signed{}, fmt.Errorf("%w: role %q is withdrawn; sign as one of %s", ErrUsage, role, strings.Join(Roles, ", "))
		}
	}
	if err := checkOneOf("--role", role, Roles); err != nil {
		return Signed{}, err
	}
	if strings.TrimSpace(by) == "" || strings.ContainsAny(by, "\x00\n") {
		return Signed{}, fmt.Errorf("%w: name the signer with --by", ErrUsage)
	}
	if key == nil {
		return Signed{}, errors.New("sign: no key")
	}
	d, _, err := r.LoadAdapt(slug)
	if err != nil {
		return Signed{}, err
	}
	now := time.Now
	if r.Now != nil {
		now = r.Now
	}
	s, err := sign(d, key, role, by, now())
	if err != nil {
		return Signed{}, err
	}
	if err := r.Save(d); err != nil {
		return Signed{}, err
	}
	pub, err := publishKey(r.Root, key.Public().(ed25519.PublicKey))
	return Signed{Signature: s, Published: pub}, err
}

// AddAdaptTask records a link to task in an ADAPT's links (once).
func (r Repo) AddAdaptTask(slug, task string) error {
	d, a, err := r.LoadAdapt(slug)
	if err != nil {
		return err
	}
	var items []*yaml.Node
	if n := d.Get("links"); n != nil && n.Kind == yaml.SequenceNode {
		items = n.Content
	}
	for _, l := range a.Links {
		if l.TargetType == "task" && l.TargetSlug == task {
			return nil
		}
	}
	d.Set("links", Seq(append(items, Map("target_slug", task, "target_type", "task"))...))
	return r.Save(d)
}

package app

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os/exec"
	"sort"
	"strings"

	"github.com/tausik/tausik/engine/diag"
	"github.com/tausik/tausik/runners"
)

// Checkpoints kept in git: each signed checkpoint is a file of a commit on a
// ref of its own (refs/tausik/checkpoints by convention), whose tree holds
// every checkpoint kept so far. CI pushes the ref with the code, so the
// anchors of the log live on every clone and forge the repository reaches,
// not only on the machine that signed them.

// checkpointDir is the folder of the ref's tree that holds the checkpoints.
const checkpointDir = "checkpoints"

// KeepCheckpoint adds the signed checkpoint data to ref in the repository at
// root, as a new commit whose parent is the ref's current commit (none for
// the first). A checkpoint the ref already holds adds nothing. The ref is
// moved only if nobody moved it meanwhile. It returns the ref's commit.
func KeepCheckpoint(ctx context.Context, root, ref string, data []byte) (string, error) {
	if err := checkRef(ref); err != nil {
		return "", err
	}
	size, err := checkpointSize(data)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(data)
	name := fmt.Sprintf("%012d-%s.txt", size, hex.EncodeToString(sum[:6]))
	parent, err := git(ctx, root, nil, "rev-parse", "--verify", "--quiet", ref+"^{commit}")
	if err != nil && !errors.Is(err, errNoRef) {
		return "", err
	}
	var entries []string
	if parent != "" {
		list, err := git(ctx, root, nil, "ls-tree", "-z", parent+":"+checkpointDir)
		if err != nil {
			return "", err
		}
		for _, e := range strings.Split(strings.TrimRight(list, "\x00"), "\x00") {
			if e == "" {
				continue
			}
			if strings.HasSuffix(e, "\t"+name) {
				return parent, nil
			}
			entries = append(entries, e)
		}
	}
	blob, err := git(ctx, root, data, "hash-object", "-w", "--stdin")
	if err != nil {
		return "", err
	}
	entries = append(entries, "100644 blob "+blob+"\t"+name)
	sort.Strings(entries) // mktree wants no order, but the tree hashes the same either way
	dir, err := git(ctx, root, []byte(strings.Join(entries, "\x00")+"\x00"), "mktree", "-z")
	if err != nil {
		return "", err
	}
	top, err := git(ctx, root, []byte("040000 tree "+dir+"\t"+checkpointDir+"\x00"), "mktree", "-z")
	if err != nil {
		return "", err
	}
	args := []string{"commit-tree", top, "-m", fmt.Sprintf("tausik checkpoint: %d decisions", size)}
	if parent != "" {
		args = append(args, "-p", parent)
	}
	commit, err := git(ctx, root, nil, args...)
	if err != nil {
		return "", err
	}
	// The old value makes the update a compare-and-swap: a checkpoint kept
	// by another process meanwhile is not lost, this one fails instead.
	old := parent
	if old == "" {
		old = strings.Repeat("0", len(commit))
	}
	if _, err := git(ctx, root, nil, "update-ref", "-m", "tausik log checkpoint", ref, commit, old); err != nil {
		return "", err
	}
	return commit, nil
}

// KeptCheckpoints reads every checkpoint the ref holds, named ref:path, in
// the order of the sizes they sign.
func KeptCheckpoints(ctx context.Context, root, ref string) ([]CheckpointFile, error) {
	if err := checkRef(ref); err != nil {
		return nil, err
	}
	if _, err := git(ctx, root, nil, "rev-parse", "--verify", "--quiet", ref+"^{commit}"); err != nil {
		if errors.Is(err, errNoRef) {
			return nil, fmt.Errorf("%w: --git-ref %s: no such ref here (fetch it: git fetch origin %s:%s)", diag.ErrUsage, ref, ref, ref)
		}
		return nil, err
	}
	list, err := git(ctx, root, nil, "ls-tree", "-z", "--name-only", ref+":"+checkpointDir)
	if err != nil {
		return nil, err
	}
	var out []CheckpointFile
	for _, name := range strings.Split(strings.TrimRight(list, "\x00"), "\x00") {
		if name == "" {
			continue
		}
		path := ref + ":" + checkpointDir + "/" + name
		data, err := gitRaw(ctx, root, nil, "cat-file", "blob", path)
		if err != nil {
			return nil, err
		}
		out = append(out, CheckpointFile{Name: path, Data: data})
	}
	return out, nil
}

// errNoRef: rev-parse --verify --quiet found no such ref.
var errNoRef = errors.New("no such ref")

// checkRef accepts a full ref name under refs/ that git accepts, and not a
// branch, tag or remote-tracking ref: the checkpoints' commits hold nothing
// but checkpoints, and must never replace or fork the code's history.
func checkRef(ref string) error {
	bad := func(why string) error {
		return fmt.Errorf("%w: --git-ref %q: %s; give a ref of its own such as refs/tausik/checkpoints", diag.ErrUsage, ref, why)
	}
	for _, code := range []string{"refs/heads/", "refs/tags/", "refs/remotes/"} {
		if strings.HasPrefix(ref, code) {
			return bad("a branch, tag or remote-tracking ref holds code")
		}
	}
	if !strings.HasPrefix(ref, "refs/") || exec.Command("git", "check-ref-format", ref).Run() != nil {
		return bad("not a full ref name git accepts")
	}
	return nil
}

// checkpointSize reads the tree size a C2SP checkpoint signs (its second line).
func checkpointSize(data []byte) (int64, error) {
	lines := strings.SplitN(string(data), "\n", 3)
	var n int64
	if len(lines) < 3 {
		return 0, fmt.Errorf("%w: not a checkpoint", diag.ErrUsage)
	}
	if _, err := fmt.Sscanf(lines[1], "%d", &n); err != nil || n < 0 {
		return 0, fmt.Errorf("%w: not a checkpoint: size line %q", diag.ErrUsage, lines[1])
	}
	return n, nil
}

// git runs git in root with stdin, and returns its output without the
// final newline.
func git(ctx context.Context, root string, stdin []byte, args ...string) (string, error) {
	out, err := gitRaw(ctx, root, stdin, args...)
	return strings.TrimSuffix(string(out), "\n"), err
}

// gitRaw runs git in root with stdin and returns its output as it is.
// rev-parse --verify --quiet failing with no output is errNoRef.
func gitRaw(ctx context.Context, root string, stdin []byte, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-c", "core.fsmonitor=false"}, args...)...)
	cmd.Dir, cmd.Env = root, append(runners.GitEnv(), checkpointIdentity...)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if args[0] == "rev-parse" && stderr.Len() == 0 && stdout.Len() == 0 {
			return nil, errNoRef
		}
		return nil, fmt.Errorf("%w: git %s: %v: %s", diag.ErrConfig, args[0], err, strings.TrimSpace(stderr.String()))
	}
	return stdout.Bytes(), nil
}

// checkpointIdentity signs the ref's commits as tausik: they record what
// the log signed, not a person's work, and need no user identity set up on
// a CI runner.
var checkpointIdentity = []string{
	"GIT_AUTHOR_NAME=tausik", "GIT_AUTHOR_EMAIL=tausik@localhost",
	"GIT_COMMITTER_NAME=tausik", "GIT_COMMITTER_EMAIL=tausik@localhost",
}

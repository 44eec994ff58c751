package app

import (
	"context"
	"fmt"
	"os"

	"github.com/tausik/tausik/engine/diag"
)

// usageError is a bad command-line argument: exit 2, and its message as
// it is.
type usageError struct{ err error }

func (e usageError) Error() string        { return e.err.Error() }
func (e usageError) Unwrap() error        { return e.err }
func (e usageError) Is(target error) bool { return target == diag.ErrUsage }

// CheckpointSources name what `log verify` and `log report` check the log
// against: checkpoint files, the checkpoints kept on a git ref, and the
// key that must have signed them.
type CheckpointSources struct {
	Files  []string
	GitRef string
	Pub    string
}

// LoadCheckpoints reads the trusted keys and the checkpoints (the files,
// then the git ref's) of the project at root. A file that cannot be read
// or a bad key is a usage error.
func LoadCheckpoints(ctx context.Context, root string, src CheckpointSources) ([]TrustedKey, []CheckpointFile, error) {
	var trusted []TrustedKey
	var err error
	if src.Pub != "" {
		if trusted, err = ParseTrustedKeys(src.Pub); err != nil {
			return nil, nil, err
		}
	}
	var files []CheckpointFile
	for _, name := range src.Files {
		f, err := ReadCheckpoint("--checkpoint", name)
		if err != nil {
			return nil, nil, err
		}
		files = append(files, *f)
	}
	if src.GitRef != "" {
		kept, err := KeptCheckpoints(ctx, root, src.GitRef)
		if err != nil {
			return nil, nil, err
		}
		files = append(files, kept...)
	}
	return trusted, files, nil
}

// ReadCheckpoint reads the checkpoint file name, given with flag; one that
// cannot be read is a usage error.
func ReadCheckpoint(flag, name string) (*CheckpointFile, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, usageError{fmt.Errorf("%s: %w", flag, err)}
	}
	return &CheckpointFile{Name: name, Data: data}, nil
}

// Args are the `log verify` flags that name src, for a report's
// reproduction line.
func (src CheckpointSources) Args() []string {
	var args []string
	for _, c := range src.Files {
		args = append(args, "--checkpoint", c)
	}
	if src.GitRef != "" {
		args = append(args, "--git-ref", src.GitRef)
	}
	if src.Pub != "" {
		args = append(args, "--pub", src.Pub)
	}
	return args
}

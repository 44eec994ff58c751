//go:build !unix

package hookwire

import "os"

// Stat identifies the file at path.
func Stat(path string) (Identity, error) {
	info, err := os.Stat(path)
	if err != nil {
		return Identity{}, err
	}
	return Identity{Path: path, Size: info.Size(), MTime: info.ModTime().UnixNano()}, nil
}

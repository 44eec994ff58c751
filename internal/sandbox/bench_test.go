package sandbox

import (
	"os/exec"
	"testing"
)

// BenchmarkConfine measures what the sandbox adds to one tool run: the
// re-executed init and the mounts, against the same command unconfined.
func BenchmarkConfine(b *testing.B) {
	dir := b.TempDir()
	for _, confined := range []bool{false, true} {
		name := "unconfined"
		if confined {
			name = "confined"
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				cmd := exec.Command("/bin/true")
				if confined {
					if err := Confine(cmd, dir); err != nil {
						b.Fatal(err)
					}
				}
				if err := cmd.Run(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

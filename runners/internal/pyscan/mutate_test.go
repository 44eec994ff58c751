package pyscan

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners/internal/pyscan/pyscantest"
)

// mutations are the small edits TestMutationsMatchCPython applies: the
// characters that steer a tokenizer, and whole-line edits.
var mutationBits = [][]byte{
	{'"'}, {'\''}, []byte(`"""`), []byte(`f"`), []byte(`rb'`), {'('}, {')'}, {'['}, {']'}, {'{'}, {'}'},
	{':'}, {'\\'}, {'\n'}, {'\r'}, {'\t'}, {' '}, {'#'}, {';'}, {'='}, {'@'}, {','}, {'.'}, {'\f'},
	[]byte("é"), {0xff}, []byte("class "), []byte("lambda "), {'0'}, []byte("_1"), []byte("\\N{"),
}

func mutate(r *rand.Rand, src []byte) []byte {
	out := bytes.Clone(src)
	for range 1 + r.IntN(2) {
		if len(out) == 0 {
			out = append(out, mutationBits[r.IntN(len(mutationBits))]...)
			continue
		}
		i := r.IntN(len(out))
		switch r.IntN(6) {
		case 0: // delete a byte
			out = append(out[:i], out[i+1:]...)
		case 1, 2: // insert a steering character
			bit := mutationBits[r.IntN(len(mutationBits))]
			out = append(out[:i], append(bytes.Clone(bit), out[i:]...)...)
		case 3: // duplicate a line
			s := bytes.LastIndexByte(out[:i], '\n') + 1
			e := bytes.IndexByte(out[i:], '\n')
			if e < 0 {
				e = len(out) - i
			}
			line := bytes.Clone(out[s : i+e])
			out = append(out[:s], append(append(line, '\n'), out[s:]...)...)
		case 4: // a tab for leading spaces
			s := bytes.LastIndexByte(out[:i], '\n') + 1
			if bytes.HasPrefix(out[s:], []byte("    ")) {
				out = append(out[:s], append([]byte{'\t'}, out[s+4:]...)...)
			}
		case 5: // truncate
			out = out[:i]
		}
	}
	return out
}

// TestMutationsMatchCPython mutates small files of the corpus at random
// (fixed seed; $TAUSIK_MUTATION_SEED picks another) and compares the
// scanner with CPython on every mutant, with the corpus test's rules: the
// same facts when CPython parses it, a rejection (same line) when its
// tokenizer rejects it.
func TestMutationsMatchCPython(t *testing.T) {
	if testing.Short() {
		t.Skip("SKIP in -short mode: runs CPython over a few thousand mutated files")
	}
	py := refPython(t)
	root := corpusRoot(t, py)
	seed := uint64(20250101)
	if s := os.Getenv("TAUSIK_MUTATION_SEED"); s != "" {
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		seed = v
	}
	r := rand.New(rand.NewPCG(seed, seed))
	var small []string
	for _, p := range pyscantest.ListPy(t, root) {
		if info, err := os.Stat(filepath.Join(root, p)); err == nil && info.Size() < 6000 {
			small = append(small, p)
		}
	}
	if len(small) < 50 {
		t.Fatalf("only %d small files under %s", len(small), root)
	}
	dir := t.TempDir()
	var paths []string
	srcs := map[string][]byte{}
	for i := range 3000 {
		src, err := os.ReadFile(filepath.Join(root, small[r.IntN(len(small))]))
		if err != nil {
			t.Fatal(err)
		}
		p := fmt.Sprintf("m%04d.py", i)
		srcs[p] = mutate(r, src)
		if err := os.WriteFile(filepath.Join(dir, p), srcs[p], 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	want := runRef(t, py, dir, paths, runtime.GOMAXPROCS(0))
	diffs, parsed := 0, 0
	got := map[string]facts.PythonFile{}
	var newer []string
	for _, p := range paths {
		w := want[p]
		if w.Parsed {
			parsed++
		}
		got[p] = Scan(p, srcs[p])
		if maybeNewer(w, got[p]) {
			newer = append(newer, p)
			continue
		}
		if d := compareRef(w, got[p]); d != "" {
			diffs++
			if dump := os.Getenv("TAUSIK_MUTATION_DUMP"); dump != "" {
				_ = os.WriteFile(filepath.Join(dump, fmt.Sprintf("s%d-%s", seed, p)), srcs[p], 0o644)
			}
			if diffs <= 10 {
				t.Errorf("seed %d, %s: %s\n%q", seed, p, d, srcs[p])
			}
		}
	}
	t.Logf("seed %d: %d mutants, %d parsed by CPython, %d differ", seed, len(paths), parsed, diffs)
	checkNewer(t, dir, newer, got)
}

package surface

import (
	"io"
	"os"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners"
	"github.com/tausik/tausik/runners/internal/pyscan"
)

// pyVersion versions the cached Python entries (encodePy's form): bump it
// whenever what a file's bytes give could change, and with pyscan.Version.
const pyVersion = "3." + pyscan.Version

// pyFile is what one Python file gives the runner: its class facts, as the
// python runner has them (pyscan.Scanner.ScanNames), and the names its bases resolve through.
type pyFile struct {
	File  facts.PythonFile `json:"file"`
	Names pyscan.Names     `json:"names"`
}

// pySources reads .py files once for both, with the shared Python scanner.
func pySources() runners.Sources[pyFile] {
	return runners.Sources[pyFile]{
		Namespace: "surface_python", Version: pyVersion, Ext: ".py",
		Open: func(name string) (io.ReadCloser, error) { return os.Open(name) },
		Scanner: func() func(string, []byte) pyFile {
			sc := pyscan.NewScanner()
			return func(p string, src []byte) pyFile {
				f, n := sc.ScanNames(p, src)
				return pyFile{f, n}
			}
		},
		Encode: func(f pyFile) (string, bool) { return encodePy(f), true },
		Decode: func(p string, _ int64, payload string) (pyFile, bool) {
			f, ok := decodePy(payload)
			ok = ok && f.File.Path == p && f.File.Classes != nil && len(f.Names.Bases) == len(f.File.Classes)*b2i(f.File.Parsed) &&
				len(f.Names.Flags) == len(f.Names.Bases)
			return f, ok
		},
	}
}

package render

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tausik/tausik/engine/config"
	"github.com/tausik/tausik/internal/project"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/tausik/tausik/engine"
	"github.com/tausik/tausik/internal/policytest"
)

// The published schemas the outputs are checked against, committed with
// their sources (testdata/schemas/README.md): SARIF 2.1.0 (OASIS), checked
// with github.com/santhosh-tekuri/jsonschema/v6; the Apache Ant JUnit XSD,
// the one Jenkins and most CI test tabs read, checked with xmllint
// (Debian's libxml2-utils).
const (
	sarifSchemaFile = "../../testdata/schemas/sarif-schema-2.1.0.json"
	junitSchemaFile = "../../testdata/schemas/junit.xsd"
)

// TestOutputsMatchPublishedSchemas renders, for every fixture case of every
// built-in gate, a decision holding the case's verdict (failed, passed,
// could not run, held by a baseline), as SARIF and as JUnit XML,
// and validates each against its published schema; plus the code-scanning
// rules the schema does not state: every result has a location and a
// partial fingerprint, the driver its version, each rule its help.
func TestOutputsMatchPublishedSchemas(t *testing.T) {
	xmllint, err := exec.LookPath("xmllint")
	if err != nil {
		t.Fatalf("xmllint (Debian's libxml2-utils) validates the JUnit output: %v", err)
	}
	sarifSchema := compileSARIFSchema(t)
	e := builtinEngine(t)
	verdicts, err := policytest.Verdicts(context.Background(), e)
	if err != nil {
		t.Fatal(err)
	}
	gates := map[string]bool{}
	decisions := map[string]*engine.Decision{"sample": sampleDecision()}
	for _, cv := range verdicts {
		gates[cv.Gate] = true
		decisions[cv.Gate+"-"+cv.Case] = &engine.Decision{ID: "01SCHEMA", Time: time.Unix(1_700_000_000, 0),
			Request: engine.RequestRecord{Trigger: "commit"}, Gates: []engine.Verdict{cv.Verdict}, Blocked: cv.Verdict.Blocks}
	}
	if len(gates) < 20 {
		t.Fatalf("only %d built-in gates with fixtures: the engine did not load them", len(gates))
	}
	dir := t.TempDir()
	outcomes := map[string]bool{}
	for name, d := range decisions {
		for _, v := range d.Gates {
			outcomes[v.Outcome] = true
		}
		var sarif bytes.Buffer
		if err := renderSARIF(&sarif, OptionsOf(e, func(string) string { return "" }), d); err != nil {
			t.Fatal(err)
		}
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(sarif.Bytes()))
		if err != nil {
			t.Fatalf("%s: SARIF is not JSON: %v", name, err)
		}
		if err := sarifSchema.Validate(inst); err != nil {
			t.Errorf("%s: SARIF fails the 2.1.0 schema: %v", name, err)
		}
		checkCodeScanning(t, name, sarif.Bytes(), len(d.Gates))

		var junit bytes.Buffer
		if err := renderJUnit(&junit, d); err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(dir, name+".xml")
		if err := os.WriteFile(file, junit.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command(xmllint, "--noout", "--schema", junitSchemaFile, file).CombinedOutput(); err != nil {
			t.Errorf("%s: JUnit XML fails the Ant schema: %v\n%s", name, err, out)
		}
	}
	for _, o := range []string{engine.Failed, engine.Passed, engine.CouldNotRun, engine.NotApplicable} {
		if !outcomes[o] {
			t.Errorf("no verdict %s among the fixtures: the validation does not cover it", o)
		}
	}
}

// TestSchemaValidatorsRefuse: both validators reject what code scanning
// and a JUnit reader would, so the test above can fail.
func TestSchemaValidatorsRefuse(t *testing.T) {
	sch := compileSARIFSchema(t)
	for _, bad := range []string{
		`{"version":"2.1.0","runs":[{"tool":{"driver":{}}}]}`,                                      // driver without a name
		`{"version":"2.0.0","runs":[]}`,                                                            // not 2.1.0
		`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"t"}},"results":[{"message":{}}]}]}`, // message without text
	} {
		inst, err := jsonschema.UnmarshalJSON(strings.NewReader(bad))
		if err != nil {
			t.Fatal(err)
		}
		if sch.Validate(inst) == nil {
			t.Errorf("the SARIF schema accepts %s", bad)
		}
	}
	file := filepath.Join(t.TempDir(), "bad.xml")
	// No timestamp, hostname, properties, system-out or system-err: what
	// tausik wrote before.
	if err := os.WriteFile(file, []byte(`<testsuite name="x" tests="0" failures="0" errors="0" time="0"></testsuite>`), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("xmllint", "--noout", "--schema", junitSchemaFile, file).CombinedOutput(); err == nil {
		t.Errorf("the JUnit schema accepts a suite without its required parts:\n%s", out)
	}
}

func compileSARIFSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open(sarifSchemaFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource("sarif-schema-2.1.0.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("sarif-schema-2.1.0.json")
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

// builtinEngine is an engine over an empty project: the built-in gates
// only, no store, no user or managed tier.
func builtinEngine(t *testing.T) *engine.Engine {
	t.Helper()
	home := t.TempDir()
	getenv := func(k string) string {
		switch k {
		case "HOME":
			return home
		case config.EnvUserConfig, config.EnvManagedConfig, config.EnvDB:
			return ""
		}
		return os.Getenv(k)
	}
	e, err := project.Open(context.Background(), project.Setup{Root: t.TempDir(), Getenv: getenv, Requester: "test", NoStore: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = e.Close() })
	return e
}

// checkCodeScanning checks what GitHub code scanning needs beyond the
// schema.
func checkCodeScanning(t *testing.T, name string, sarif []byte, gates int) {
	t.Helper()
	log := decodeSARIF(t, sarif)
	run := log.Runs[0]
	if run.Tool.Driver.Version == "" || run.Tool.Driver.InformationURI == "" || len(run.Tool.Driver.Rules) != gates {
		t.Errorf("%s: driver = %+v", name, run.Tool.Driver)
	}
	for i, r := range run.Results {
		where := fmt.Sprintf("%s: result %d (%s)", name, i, r.RuleID)
		if len(r.Locations) == 0 || r.Locations[0].PhysicalLocation.ArtifactLocation.URI == "" {
			t.Errorf("%s has no location", where)
		}
		if r.PartialFingerprints[sarifFingerprintKey] == "" {
			t.Errorf("%s has no partial fingerprint", where)
		}
	}
}

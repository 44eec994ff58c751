package render

import (
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/tausik/tausik/engine"
	"github.com/tausik/tausik/engine/gate"
)

// JUnit XML: one test case per gate, so CI test tabs show gates.

type junitSuite struct {
	XMLName   xml.Name    `xml:"testsuite"`
	Name      string      `xml:"name,attr"`
	Timestamp string      `xml:"timestamp,attr"`
	Hostname  string      `xml:"hostname,attr"`
	Tests     int         `xml:"tests,attr"`
	Failures  int         `xml:"failures,attr"`
	Errors    int         `xml:"errors,attr"`
	Skipped   int         `xml:"skipped,attr"`
	Time      string      `xml:"time,attr"`
	Props     junitProps  `xml:"properties"`
	Cases     []junitCase `xml:"testcase"`
	SystemOut string      `xml:"system-out"`
	SystemErr string      `xml:"system-err"`
}

// junitProps are the decision's id and trigger, so a CI test tab links
// back to the log (the Ant schema requires the element, even empty).
type junitProps struct {
	Items []junitProp `xml:"property"`
}

type junitProp struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitProblem `xml:"failure,omitempty"`
	Error     *junitProblem `xml:"error,omitempty"`
	Skipped   *junitSkip    `xml:"skipped,omitempty"`
}

type junitProblem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Body    string `xml:",chardata"`
}

// junitSkip has no type: the Ant schema allows a skipped element only a
// message.
type junitSkip struct {
	Message string `xml:"message,attr"`
	Body    string `xml:",chardata"`
}

func renderJUnit(w io.Writer, d *engine.Decision) error {
	s := junitSuite{Name: "tausik " + nonEmpty(d.Request.Trigger, "evaluation"), Time: seconds(d.Timings.TotalNS),
		Timestamp: d.Time.UTC().Format("2006-01-02T15:04:05"), Hostname: junitHost(),
		Props: junitProps{Items: []junitProp{{Name: "decision_id", Value: d.ID}, {Name: "trigger", Value: d.Request.Trigger}}}}
	for _, v := range d.Gates {
		c := junitCase{Name: v.Name, Classname: "tausik." + d.Request.Trigger, Time: seconds(v.EvalNS)}
		var lines []string
		for _, vi := range v.Judged() {
			lines = append(lines, violationLine(vi))
		}
		for _, r := range v.Reasons {
			lines = append(lines, strings.TrimSpace(r.Code+" "+r.Msg))
		}
		p := &junitProblem{Message: fmt.Sprintf("%s (%s)", v.Outcome, v.Severity), Type: v.Outcome, Body: strings.Join(lines, "\n")}
		switch v.Outcome {
		case engine.Failed:
			c.Failure = p
			s.Failures++
		case engine.CouldNotRun:
			c.Error = p
			s.Errors++
		case engine.NotApplicable:
			c.Skipped = &junitSkip{Message: p.Message, Body: p.Body}
			s.Skipped++
		}
		s.Tests++
		s.Cases = append(s.Cases, c)
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(s); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// junitHost names the machine, as the Ant schema requires one.
func junitHost() string {
	if h, err := os.Hostname(); err == nil && strings.TrimSpace(h) != "" {
		return h
	}
	return "localhost"
}

func seconds(ns int64) string { return fmt.Sprintf("%.3f", float64(ns)/1e9) }

// ghEscape escapes a workflow-command value (properties also escape : and ,).
func ghEscape(s string, property bool) string {
	r := strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	s = r.Replace(s)
	if property {
		s = strings.NewReplacer(":", "%3A", ",", "%2C").Replace(s)
	}
	return s
}

func lookupGate(lookup func(string) (*gate.Gate, bool), name string) (*gate.Gate, bool) {
	if lookup == nil {
		return nil, false
	}
	return lookup(name)
}

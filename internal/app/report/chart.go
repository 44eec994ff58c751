package report

import (
	"fmt"
	"strconv"
)

// The charts are inline SVG computed here and drawn by the page's template:
// no script, no font or image from anywhere. Each series has a colour from
// the Okabe–Ito palette (told apart by most colour-blind readers) and, in
// addition, a fill pattern and a legend label, so colour is never the only
// cue.

// Series colours; the browser test counts pixels of these.
const (
	ColorPassed  = "#0072b2" // blue, solid
	ColorBlocked = "#d55e00" // vermillion, hatched
	colorNA      = "#999999" // grey, solid
	colorCNR     = "#e69f00" // orange, dotted
)

// Bar is one drawn rectangle with the count it stands for.
type Bar struct {
	X, Y, W, H string
	Fill       string
	Title      string
	Q          string
}

// Tick is an axis label.
type Tick struct {
	X, Y, Line string
	Text       string
}

// Chart is one SVG chart.
type Chart struct {
	ID, Title, Desc string
	W, H            int
	Bars            []Bar
	YTicks, XTicks  []Tick
	Legend          []Legend
	AxisX0, AxisY0  string
	AxisX1, AxisY1  string
}

// Legend is one key of a chart.
type Legend struct {
	X, Fill, Label string
}

func num(f float64) string { return strconv.FormatFloat(f, 'f', 1, 64) }

// fills of each outcome and result.
var fills = map[string]string{
	"passed": ColorPassed, "blocked": "url(#hatch)",
	"PASSED": ColorPassed, "FAILED": "url(#hatch)", "NOT_APPLICABLE": colorNA, "COULD_NOT_RUN": "url(#dots)",
}

// niceMax rounds n up to 1, 2 or 5 times a power of ten.
func niceMax(n int) int {
	if n <= 1 {
		return 1
	}
	p := 1
	for {
		for _, m := range []int{1, 2, 5} {
			if m*p >= n {
				return m * p
			}
		}
		p *= 10
	}
}

// timeChart draws the decisions per bucket, passed below blocked.
func (r *Report) timeChart() Chart {
	const w, h, left, right, top, bottom = 960, 300, 56, 12, 36, 64
	c := Chart{ID: "time", W: w, H: h, Title: "Decisions over time by result",
		AxisX0: num(left), AxisY0: num(h - bottom), AxisX1: num(w - right), AxisY1: num(top)}
	unit := "day"
	if r.Hourly {
		unit = "hour"
	}
	c.Desc = fmt.Sprintf("Stacked bars, one per %s: passed (solid blue) below blocked (hatched vermillion). %d decisions, %d blocked.",
		unit, r.Total.N, r.Blocked.N)
	maxN := 0
	for _, b := range r.Buckets {
		maxN = max(maxN, b.Total.N)
	}
	top2 := niceMax(maxN)
	plotH, plotW := float64(h-top-bottom), float64(w-left-right)
	step := plotW / float64(max(len(r.Buckets), 1))
	scale := plotH / float64(top2)
	every := max(1, (len(r.Buckets)+11)/12)
	for i, b := range r.Buckets {
		x := float64(left) + float64(i)*step + step*0.1
		bw := step * 0.8
		y := float64(h - bottom)
		for _, s := range []struct {
			name string
			c    Count
		}{{"passed", b.Passed}, {"blocked", b.Blocked}} {
			if s.c.N == 0 {
				continue
			}
			bh := float64(s.c.N) * scale
			y -= bh
			c.Bars = append(c.Bars, Bar{X: num(x), Y: num(y), W: num(bw), H: num(bh), Fill: fills[s.name], Q: s.c.Q,
				Title: fmt.Sprintf("%s: %d %s", b.Label, s.c.N, s.name)})
		}
		if i%every == 0 {
			c.XTicks = append(c.XTicks, Tick{X: num(x + bw/2), Y: num(float64(h-bottom) + 16), Text: b.Label})
		}
	}
	for _, v := range []int{0, top2 / 2, top2} {
		y := float64(h-bottom) - float64(v)*scale
		c.YTicks = append(c.YTicks, Tick{X: num(left - 6), Y: num(y + 4), Line: num(y), Text: strconv.Itoa(v)})
	}
	c.Legend = []Legend{{X: num(left), Fill: fills["passed"], Label: "passed"}, {X: num(left + 120), Fill: fills["blocked"], Label: "blocked"}}
	return c
}

// gateChart draws each gate's verdicts by outcome as a horizontal bar.
func (r *Report) gateChart() Chart {
	const w, left, right, top, row = 960, 190, 12, 40, 26
	h := top + row*max(len(r.Gates), 1) + 30
	c := Chart{ID: "gates", W: w, H: h, Title: "Verdicts by gate and outcome",
		AxisX0: num(left), AxisY0: num(float64(h - 30)), AxisX1: num(w - right), AxisY1: num(top)}
	c.Desc = fmt.Sprintf("One stacked bar per gate (%d gates): PASSED solid blue, FAILED hatched vermillion, NOT_APPLICABLE solid grey, COULD_NOT_RUN dotted orange.", len(r.Gates))
	maxN := 0
	for _, g := range r.Gates {
		n := 0
		for _, o := range g.Outcomes {
			n += o.N
		}
		maxN = max(maxN, n)
	}
	top2 := niceMax(maxN)
	scale := float64(w-left-right) / float64(top2)
	for i, g := range r.Gates {
		y := float64(top + i*row + 4)
		x := float64(left)
		c.YTicks = append(c.YTicks, Tick{X: num(left - 6), Y: num(y + 13), Text: g.Name})
		for k, o := range g.Outcomes {
			if o.N == 0 {
				continue
			}
			bw := float64(o.N) * scale
			c.Bars = append(c.Bars, Bar{X: num(x), Y: num(y), W: num(bw), H: num(row - 8), Fill: fills[r.Outcomes[k]], Q: o.Q,
				Title: fmt.Sprintf("%s: %d %s", g.Name, o.N, r.Outcomes[k])})
			x += bw
		}
	}
	for _, v := range []int{0, top2 / 2, top2} {
		c.XTicks = append(c.XTicks, Tick{X: num(float64(left) + float64(v)*scale), Y: num(float64(h - 12)), Text: strconv.Itoa(v)})
	}
	for k, o := range r.Outcomes {
		c.Legend = append(c.Legend, Legend{X: num(float64(left + k*180)), Fill: fills[o], Label: o})
	}
	return c
}

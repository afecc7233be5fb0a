package main

import (
	"fmt"
	"image/color"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// policyColors are three colours told apart also in grey and by most colour
// blind readers (Okabe–Ito blue, vermilion, bluish green).
var policyColors = []color.Color{
	color.RGBA{0, 114, 178, 255},
	color.RGBA{213, 94, 0, 255},
	color.RGBA{0, 158, 115, 255},
}

// Plot writes one bar chart per period and metric into dir, like GP Fig. 3:
// the long job's arrival position on the x axis, the policies side by side.
// Files are named PERIOD_METRIC.png.
func Plot(dir string, out Output) error {
	metrics := []struct {
		name, label string
		get         func(Row) float64
	}{
		{"snp", "SNP (higher is better)", func(r Row) float64 { return r.SNP }},
		{"l1", "slowdown norm l1", func(r Row) float64 { return r.L1 }},
		{"l2", "slowdown norm l2", func(r Row) float64 { return r.L2 }},
		{"unfairness", "unfairness (CV of ANP)", func(r Row) float64 { return r.Unfairness }},
		{"avg_response", "average response time (s)", func(r Row) float64 { return r.AvgResp }},
		{"work_lost", "work lost (slot·s)", func(r Row) float64 { return r.WorkLost }},
	}
	for _, per := range periods {
		for _, m := range metrics {
			p := plot.New()
			p.Title.Text = fmt.Sprintf("%s period, %s workload, %s Fair Scheduler: %s", per.name, out.Workload, out.HFSModel, m.label)
			p.Y.Label.Text = m.label
			var names []string
			for _, pos := range out.Positions {
				names = append(names, fmt.Sprintf("long job %s", ordinal(pos)))
			}
			w := vg.Points(16)
			top := 0.0
			for k, pol := range policies {
				var v plotter.Values
				for _, pos := range out.Positions {
					for _, c := range out.Cells {
						if c.Period == per.name && c.Policy == pol.String() && c.Position == pos {
							v = append(v, m.get(c))
							top = max(top, m.get(c))
						}
					}
				}
				if len(v) == 0 {
					continue
				}
				bars, err := plotter.NewBarChart(v, w)
				if err != nil {
					return err
				}
				bars.Color = policyColors[k%len(policyColors)]
				bars.LineStyle.Width = 0
				bars.Offset = w * vg.Length(k-1)
				p.Add(bars)
				p.Legend.Add(pol.String(), bars)
			}
			// The legend sits in the headroom above the tallest bar.
			p.Legend.Top = true
			p.Y.Min, p.Y.Max = 0, 1.45*top
			p.Y.Tick.Marker = roundTicks{}
			p.NominalX(names...)
			file := filepath.Join(dir, per.name+"_"+m.name+".png")
			if err := p.Save(6*vg.Inch, 3.6*vg.Inch, file); err != nil {
				return err
			}
		}
	}
	return nil
}

// roundTicks labels the axis at 1, 2 or 5 × 10ⁿ steps, printed without
// trailing zeros ("0", "250", "0.5").
type roundTicks struct{}

// Ticks implements plot.Ticker.
func (roundTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) {
		return []plot.Tick{{Value: lo, Label: strconv.FormatFloat(lo, 'f', -1, 64)}}
	}
	raw := (hi - lo) / 6
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := mag
	for _, f := range []float64{2, 5, 10} { // the 1, 2, 5 × 10ⁿ step nearest raw
		if math.Abs(math.Log(f*mag/raw)) < math.Abs(math.Log(step/raw)) {
			step = f * mag
		}
	}
	digits := max(0, -int(math.Floor(math.Log10(step))))
	var ticks []plot.Tick
	for n := math.Ceil(lo / step); n*step <= hi+step*1e-9; n++ {
		v := n * step
		label := strconv.FormatFloat(v, 'f', digits, 64)
		if strings.Contains(label, ".") {
			label = strings.TrimRight(strings.TrimRight(label, "0"), ".")
		}
		ticks = append(ticks, plot.Tick{Value: v, Label: label})
	}
	return ticks
}

func ordinal(n int) string {
	suffix := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suffix = "st"
	case n%10 == 2:
		suffix = "nd"
	case n%10 == 3:
		suffix = "rd"
	}
	return fmt.Sprint(n, suffix)
}

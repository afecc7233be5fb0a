package main

import (
	"fmt"
	"path/filepath"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/schedkit/schedkit/examples/internal/plotstyle"
)

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
			p := plotstyle.New(fmt.Sprintf("%s period, %s workload, %s Fair Scheduler: %s", per.name, out.Workload, out.HFSModel, m.label), "", m.label)
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
				bars.Color, _ = plotstyle.Style(4 - k) // blue, vermillion, bluish green
				bars.LineStyle.Width = 0
				bars.Offset = w * vg.Length(k-1)
				p.Add(bars)
				p.Legend.Add(pol.String(), bars)
			}
			// The legend sits in the headroom above the tallest bar.
			p.Legend.Top = true
			p.Y.Min, p.Y.Max = 0, 1.45*top
			p.NominalX(names...)
			file := filepath.Join(dir, per.name+"_"+m.name+".png")
			if err := p.Save(6*vg.Inch, 3.6*vg.Inch, file); err != nil {
				return err
			}
		}
	}
	return nil
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

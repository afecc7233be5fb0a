package main

import (
	"fmt"
	"os"
	"path/filepath"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// Plot writes one bar chart per period and metric into dir, like 003 Fig. 3:
// the long job's arrival position on the x axis, baseline and GP side by
// side. Files are named PERIOD_METRIC.png.
func Plot(dir string, cells []Cell) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
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
		var positions []int
		for _, c := range cells {
			if c.Period == per.name && c.Policy == Baseline {
				positions = append(positions, c.Position)
			}
		}
		for _, m := range metrics {
			p := plot.New()
			p.Title.Text = fmt.Sprintf("%s period: %s", per.name, m.label)
			p.Y.Label.Text = m.label
			names := make([]string, len(positions))
			for i, pos := range positions {
				names[i] = fmt.Sprintf("long job %dth", pos)
			}
			w := vg.Points(18)
			for k, pol := range []Policy{Baseline, GP} {
				var v plotter.Values
				for _, c := range cells {
					if c.Period == per.name && c.Policy == pol {
						v = append(v, m.get(c.Mean))
					}
				}
				bars, err := plotter.NewBarChart(v, w)
				if err != nil {
					return err
				}
				bars.Color = plotutil.Color(k)
				bars.LineStyle.Width = 0
				bars.Offset = w * vg.Length(2*k-1) / 2
				p.Add(bars)
				p.Legend.Add(pol.String(), bars)
			}
			p.Legend.Top = true
			p.NominalX(names...)
			file := filepath.Join(dir, per.name+"_"+m.name+".png")
			if err := p.Save(5*vg.Inch, 3.5*vg.Inch, file); err != nil {
				return err
			}
		}
	}
	return nil
}

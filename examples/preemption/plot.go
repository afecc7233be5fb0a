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
				names[i] = fmt.Sprintf("long job arrives %s", ordinal(pos))
			}
			w := vg.Points(18)
			top := 0.0
			for k, pol := range []Policy{Baseline, GP} {
				var v plotter.Values
				for _, c := range cells {
					if c.Period == per.name && c.Policy == pol {
						v = append(v, m.get(c.Mean))
						top = max(top, m.get(c.Mean))
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
			p.Y.Min, p.Y.Max = 0, 1.3*top // room for the legend
			p.NominalX(names...)
			file := filepath.Join(dir, per.name+"_"+m.name+".png")
			if err := p.Save(5*vg.Inch, 3.5*vg.Inch, file); err != nil {
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

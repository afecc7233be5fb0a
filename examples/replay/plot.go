package main

import (
	"fmt"
	"math"
	"path/filepath"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/schedkit/schedkit/examples/internal/plotstyle"
)

// plotLatencies writes, per replay, the distribution of each decision's
// latency: the share of decisions (y) that took at most x µs, x on a log
// scale, to DIR/latency-<trace>.png.
func plotLatencies(dir string, results []Result) error {
	for _, r := range results {
		p := plotstyle.New(fmt.Sprintf("Decision latency, %s replay (%d slots, up to %d jobs queued)", r.Trace, r.Slots, r.PeakQueue),
			"latency (µs, log scale)", "share of decisions at most that long")
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = plot.LogTicks{Prec: -1}
		p.Y.Min, p.Y.Max = 0, 1
		p.Legend.Top, p.Legend.Left = false, false
		p.Legend.YOffs = vg.Points(60) // above the curves' feet
		for k := range numKinds {
			ns := r.samples[k]
			if len(ns) == 0 {
				continue
			}
			// At most 2,000 points: the sorted samples at even ranks.
			n := min(len(ns), 2000)
			pts := make(plotter.XYs, n)
			for i := range pts {
				j := (len(ns) - 1) * i / max(1, n-1)
				pts[i].X = math.Max(float64(ns[j])/1e3, 0.01)
				pts[i].Y = float64(j+1) / float64(len(ns))
			}
			line, err := plotter.NewLine(pts)
			if err != nil {
				return err
			}
			line.Color, _ = plotstyle.Style(4 - int(k)) // blue: MP, vermillion: admission, bluish green: GP
			line.Width = vg.Points(1.5)
			p.Add(line)
			p.Legend.Add(fmt.Sprintf("%s (p50 %.2f µs, p99 %.2f µs, n = %d)", kindNames[k], float64(r.Latency[k].P50Ns)/1e3, float64(r.Latency[k].P99Ns)/1e3, len(ns)), line)
		}
		name := filepath.Join(dir, "latency-"+r.Trace+".png")
		if err := p.Save(8*vg.Inch, 5*vg.Inch, name); err != nil {
			return fmt.Errorf("plot %s: %w", name, err)
		}
	}
	return nil
}

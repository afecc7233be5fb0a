package main

import (
	"os"
	"path/filepath"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// Plot writes dir/xen-response.png: the interactive VM's mean response
// time against request rate for each set-up (000 Fig. 5a).
func Plot(dir string, runs []Result) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	p := plot.New()
	p.Title.Text = "Interactive VM beside a CPU-bound batch VM (2 cores)"
	p.X.Label.Text = "request rate (per second)"
	p.Y.Label.Text = "mean response time (ms, log scale)"
	// Past its knee stock credit's open-loop response time runs away to
	// seconds: a log scale keeps the alone and MI curves readable.
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	var lines []any
	for _, sched := range []string{Alone, Credit, MI} {
		var xy plotter.XYs
		for _, r := range runs {
			if r.Scheduler == sched {
				xy = append(xy, plotter.XY{X: r.Rate, Y: r.MeanResponseMS})
			}
		}
		lines = append(lines, map[string]string{Alone: "alone", Credit: "credit, batch weight 1", MI: "MI, batch in background"}[sched], xy)
	}
	if err := plotutil.AddLinePoints(p, lines...); err != nil {
		return err
	}
	p.Legend.Top, p.Legend.Left = true, true
	return p.Save(6*vg.Inch, 4*vg.Inch, filepath.Join(dir, "xen-response.png"))
}

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

// Plot writes, for each traced scenario, NAME-progress.png (each job's
// fraction of tasks done over time under both policies, the bottom-left
// panels of Fig. 4.6 and 4.7) and NAME-share.png (each job's progress share
// over time, the bottom-right panels).
func Plot(dir string, runs []Comparison) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, r := range runs {
		if !r.Scenario.Trace {
			continue
		}
		for _, what := range []string{"progress", "share"} {
			p := plot.New()
			p.Title.Text = fmt.Sprintf("%s: %s over time", r.Scenario.Name, map[string]string{"progress": "progress (tasks done)", "share": "progress share"}[what])
			p.X.Label.Text = "time (s)"
			p.Y.Label.Text = map[string]string{"progress": "fraction of tasks done", "share": "progress share (Eq. 4.1)"}[what]
			var lines []any
			for _, res := range r.Results {
				for i, j := range r.Scenario.Jobs {
					// A step function: a sample's value holds until the next event.
					xy := make(plotter.XYs, 0, 2*len(res.Samples))
					for k, s := range res.Samples {
						y := s.Progress[i]
						if what == "share" {
							y = s.PS[i]
						}
						if k > 0 {
							xy = append(xy, plotter.XY{X: s.Time, Y: xy[len(xy)-1].Y})
						}
						xy = append(xy, plotter.XY{X: s.Time, Y: y})
					}
					lines = append(lines, fmt.Sprintf("%s, %s", j.Name, res.Policy), xy)
				}
			}
			if err := plotutil.AddLines(p, lines...); err != nil {
				return err
			}
			p.Legend.Top = what == "progress"
			p.Legend.Left = what == "progress"
			if err := p.Save(7*vg.Inch, 4*vg.Inch, filepath.Join(dir, r.Scenario.Name+"-"+what+".png")); err != nil {
				return err
			}
		}
	}
	return nil
}

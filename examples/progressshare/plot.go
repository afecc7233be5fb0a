package main

import (
	"fmt"
	"image/color"
	"os"
	"path/filepath"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/schedkit/schedkit/examples/internal/plotstyle"
)

// policyColor gives each policy its own colour of the shared palette;
// jobs are told apart by dashes.
var policyColor = map[string]color.Color{
	SlotShare:            plotstyle.Palette[4],
	ProgressShare:        plotstyle.Palette[3],
	ProgressShareAff:     plotstyle.Palette[2],
	ProgressShareBounded: plotstyle.Palette[5],
}

// policyWidth draws later policies with thinner lines, so a line that
// coincides with an earlier one (the two affinity variants often do) is
// seen on top of it.
var policyWidth = map[string]vg.Length{
	SlotShare: vg.Points(2.8), ProgressShare: vg.Points(2.3), ProgressShareAff: vg.Points(1.8), ProgressShareBounded: vg.Points(1.1),
}

// jobDashes tells up to four jobs apart.
var jobDashes = plotstyle.Dashes[:4]

// Plot writes, for each traced scenario, NAME-progress.png (each job's
// fraction of tasks done over time under every policy, the bottom-left
// panels of Fig. 4.6 and 4.7) and NAME-share.png (each job's progress share
// over time, the bottom-right panels), from the first seed's run. The
// legend sits to the right of the data.
func Plot(dir string, runs []Comparison) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, r := range runs {
		if !r.Scenario.Trace || len(r.Scenario.Jobs) > len(jobDashes) {
			continue
		}
		for _, what := range []string{"progress", "share"} {
			if err := plotOne(filepath.Join(dir, r.Scenario.Name+"-"+what+".png"), r, what); err != nil {
				return err
			}
		}
	}
	return nil
}

func plotOne(path string, r Comparison, what string) error {
	title := map[string]string{"progress": "progress (fraction of tasks done)", "share": "progress share (Eq. 4.1)"}[what]
	title = fmt.Sprintf("%s: %s over time", r.Scenario.Name, title)
	if r.Scenario.Seeds > 1 {
		title += fmt.Sprintf(" (seed %d)", r.Scenario.Seed)
	}
	p := plotstyle.New(title, "time (s)", map[string]string{"progress": "fraction of tasks done", "share": "progress share"}[what])
	p.Y.Min, p.Y.Max = 0, 1
	leg := plotstyle.NewLegend()
	leg.ThumbnailWidth = vg.Points(28)
	for _, res := range r.Results {
		for i, j := range r.Scenario.Jobs {
			// A step function: a sample's value holds until the next event.
			smp := res.First.Samples
			xy := make(plotter.XYs, 0, 2*len(smp))
			for k, s := range smp {
				y := s.Progress[i]
				if what == "share" {
					y = s.PS[i]
				}
				if k > 0 {
					xy = append(xy, plotter.XY{X: s.Time, Y: xy[len(xy)-1].Y})
				}
				xy = append(xy, plotter.XY{X: s.Time, Y: y})
			}
			l, err := plotter.NewLine(xy)
			if err != nil {
				return err
			}
			l.Color = policyColor[res.Policy]
			l.Width = policyWidth[res.Policy] // later policies thinner, so coinciding lines both show
			l.Dashes = jobDashes[i]
			p.Add(l)
			leg.Add(fmt.Sprintf("%s, %s", j.Name, res.Policy), l)
		}
	}
	return plotstyle.Save(path, p, leg, 6.8*vg.Inch, 4.5*vg.Inch)
}

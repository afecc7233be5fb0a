package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/schedkit/schedkit/examples/internal/hadoopsim"
)

// fileName turns a policy name into a file-name part: "MP+AC" → "MP-AC".
func fileName(s string) string { return strings.ReplaceAll(s, "+", "-") }

// plotAllocation writes fig15_<policy>.png: the number of slots each job
// holds over the first RecordUntil seconds (000 Fig. 15).
func plotAllocation(dir string, sc *hadoopsim.Scenario, results []hadoopsim.Result) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, r := range results {
		p := plot.New()
		p.Title.Text = fmt.Sprintf("Slot allocation, first %.0f min — %s (000 Fig. 15)", sc.RecordUntil/60, r.Policy)
		p.X.Label.Text = "time (s)"
		p.Y.Label.Text = "slots held"
		p.X.Max = sc.RecordUntil
		series := map[int]plotter.XYs{}
		var order []int
		for _, c := range r.Alloc {
			if _, ok := series[c.Job]; !ok {
				order = append(order, c.Job)
				series[c.Job] = plotter.XYs{{X: c.Time, Y: 0}}
			}
			series[c.Job] = append(series[c.Job], plotter.XY{X: c.Time, Y: float64(c.Running)})
		}
		for i, id := range order {
			xy := series[id]
			xy = append(xy, plotter.XY{X: sc.RecordUntil, Y: xy[len(xy)-1].Y})
			l, err := plotter.NewLine(xy)
			if err != nil {
				return err
			}
			l.StepStyle = plotter.PostStep
			l.Color = plotutil.Color(i)
			l.Width = vg.Points(1.2)
			p.Add(l)
			p.Legend.Add(fmt.Sprintf("%d %s", id, sc.Types[sc.Jobs[id].Type].Name), l)
		}
		p.Legend.Top = true
		if err := p.Save(9*vg.Inch, 4.5*vg.Inch, filepath.Join(dir, "fig15_"+fileName(r.Policy.String())+".png")); err != nil {
			return err
		}
	}
	return nil
}

// plotSweep writes fig11.png: met, missed and rejected against load, one
// line per policy (000 Fig. 11).
func plotSweep(dir string, points []sweepPoint) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	metrics := []struct {
		name string
		f    func(sweepPoint) int
	}{{"met", func(p sweepPoint) int { return p.Met }}, {"missed", func(p sweepPoint) int { return p.Missed }}, {"rejected", func(p sweepPoint) int { return p.Rejected }}}
	row := make([]*plot.Plot, len(metrics))
	for m, metric := range metrics {
		p := plot.New()
		p.Title.Text = "jobs " + metric.name + " (000 Fig. 11)"
		p.X.Label.Text = "offered utilization"
		p.Y.Label.Text = "jobs"
		for i, pol := range SweepPolicies {
			var xy plotter.XYs
			for _, pt := range points {
				if pt.Policy == pol.String() {
					xy = append(xy, plotter.XY{X: pt.Load, Y: float64(metric.f(pt))})
				}
			}
			l, s, err := plotter.NewLinePoints(xy)
			if err != nil {
				return err
			}
			l.Color, s.Color = plotutil.Color(i), plotutil.Color(i)
			s.Shape = plotutil.Shape(i)
			p.Add(l, s)
			p.Legend.Add(pol.String(), l, s)
		}
		p.Legend.Top, p.Legend.Left = true, true
		row[m] = p
	}
	img := vgimg.New(15*vg.Inch, 4.5*vg.Inch)
	dc := draw.New(img)
	tiles := draw.Tiles{Rows: 1, Cols: len(row), PadX: vg.Millimeter * 4, PadY: vg.Millimeter * 4,
		PadTop: vg.Millimeter * 2, PadBottom: vg.Millimeter * 2, PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 2}
	canvases := plot.Align([][]*plot.Plot{row}, tiles, dc)
	for i, p := range row {
		p.Draw(canvases[0][i])
	}
	f, err := os.Create(filepath.Join(dir, "fig11.png"))
	if err != nil {
		return err
	}
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

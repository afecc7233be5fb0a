package main

import (
	"fmt"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/schedkit/schedkit/examples/internal/hadoopsim"
	"github.com/schedkit/schedkit/examples/internal/plotstyle"
)

// savePlots draws the plots side by side, and the legend to their right,
// outside the data, into a PNG of the given size.
func savePlots(path string, plots []*plot.Plot, legend plot.Legend, legendWidth, w, h vg.Length) error {
	img := vgimg.New(w, h)
	dc := draw.New(img)
	left := draw.Crop(dc, 0, -legendWidth, 0, 0)
	tiles := draw.Tiles{Rows: 1, Cols: len(plots), PadX: vg.Millimeter * 6, PadTop: vg.Millimeter * 2,
		PadBottom: vg.Millimeter * 2, PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 2}
	for i, c := range plot.Align([][]*plot.Plot{plots}, tiles, left)[0] {
		plots[i].Draw(c)
	}
	right := draw.Crop(dc, w-legendWidth+vg.Millimeter*2, 0, 0, -vg.Millimeter*12)
	legend.Left, legend.Top = true, true
	legend.Draw(right)
	return plotstyle.WritePNG(path, img)
}

// fileName turns a policy name into a file-name part: "MP+AC" → "MP-AC".
func fileName(s string) string { return strings.ReplaceAll(s, "+", "-") }

// maxLegendJobs bounds the per-job legend of Fig. 15; with more jobs the
// legend lists the job types (colour) only.
const maxLegendJobs = 24

// plotAllocation writes fig15_<policy>.png: the number of slots each job
// holds over the first RecordUntil seconds of the first trace (MIMP
// Fig. 15). Colour is the job type, line style tells its jobs apart.
func plotAllocation(dir string, sc *hadoopsim.Scenario, results []hadoopsim.Result) error {
	for _, r := range results {
		p := plotstyle.New(fmt.Sprintf("Slots held per job, first %.0f min — %s (MIMP Fig. 15)", sc.RecordUntil/60, r.Policy), "time (s)", "slots held")
		p.X.Min, p.X.Max, p.Y.Min = 0, sc.RecordUntil, 0
		series := map[int]plotter.XYs{}
		var order []int
		for _, c := range r.Alloc {
			if _, ok := series[c.Job]; !ok {
				order = append(order, c.Job)
				series[c.Job] = plotter.XYs{{X: c.Time, Y: 0}}
			}
			series[c.Job] = append(series[c.Job], plotter.XY{X: c.Time, Y: float64(c.Running)})
		}
		legend := plot.NewLegend()
		perType := map[int]int{}
		typeShown := map[int]bool{}
		for _, id := range order {
			ty := sc.Jobs[id].Type
			xy := series[id]
			xy = append(xy, plotter.XY{X: sc.RecordUntil, Y: xy[len(xy)-1].Y})
			l, err := plotter.NewLine(xy)
			if err != nil {
				return err
			}
			l.StepStyle = plotter.PostStep
			l.Color = plotstyle.Palette[ty%len(plotstyle.Palette)]
			l.Dashes = plotstyle.Dashes[perType[ty]%len(plotstyle.Dashes)]
			perType[ty]++
			l.Width = vg.Points(1.5)
			p.Add(l)
			switch {
			case len(order) <= maxLegendJobs:
				legend.Add(fmt.Sprintf("job %d %s", id, sc.Types[ty].Name), l)
			case !typeShown[ty]:
				typeShown[ty] = true
				legend.Add(sc.Types[ty].Name, l)
			}
		}
		path := filepath.Join(dir, "fig15_"+fileName(r.Policy.String())+".png")
		if err := savePlots(path, []*plot.Plot{p}, legend, 1.8*vg.Inch, 10*vg.Inch, 4.5*vg.Inch); err != nil {
			return err
		}
	}
	return nil
}

// plotSweep writes fig11.png: met, missed and rejected against load, one
// line per policy (MIMP Fig. 11).
func plotSweep(dir string, points []sweepPoint) error {
	metrics := []struct {
		name string
		f    func(sweepPoint) int
	}{{"met", func(p sweepPoint) int { return p.Met }}, {"missed", func(p sweepPoint) int { return p.Missed }}, {"rejected", func(p sweepPoint) int { return p.Rejected }}}
	if len(points) == 0 {
		return fmt.Errorf("plotSweep: no points")
	}
	seeds := points[0].Seeds
	row := make([]*plot.Plot, len(metrics))
	legend := plot.NewLegend()
	for m, metric := range metrics {
		p := plotstyle.New(fmt.Sprintf("jobs %s, %d seeds summed (MIMP Fig. 11)", metric.name, seeds), "offered utilization (40 slots)", "jobs")
		p.Y.Min = 0
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
			l.Color, s.Color = plotstyle.Palette[i], plotstyle.Palette[i]
			l.Dashes = plotstyle.Dashes[i%len(plotstyle.Dashes)]
			l.Width = vg.Points(1.5)
			glyphs := []draw.GlyphDrawer{draw.CircleGlyph{}, draw.TriangleGlyph{}, draw.SquareGlyph{}, draw.PlusGlyph{}, draw.CrossGlyph{}}
			s.Shape = glyphs[i%len(glyphs)]
			s.Radius = vg.Points(3)
			p.Add(l, s)
			if m == 0 {
				legend.Add(pol.String(), l, s)
			}
		}
		row[m] = p
	}
	return savePlots(filepath.Join(dir, "fig11.png"), row, legend, 1.4*vg.Inch, 15*vg.Inch, 4.5*vg.Inch)
}

// errorBars is a series with a [min, max] range per point.
type errorBars struct {
	plotter.XYs
	lo, hi []float64
}

func (e errorBars) YError(i int) (float64, float64) {
	return e.XYs[i].Y - e.lo[i], e.hi[i] - e.XYs[i].Y
}

// plotSensitivity writes sensitivity.png: MP's saving over EDF (mean and
// range) with and without its IO check against the data nodes' capacity;
// the unconstrained row is drawn past the largest capacity.
func plotSensitivity(dir string, rows []sensitivityRow) error {
	p := plotstyle.New("MP's task-time saving over EDF against data-node capacity (MIMP §6.6 case study)", "read capacity per data node (MB/s)", "MP's saving over EDF (%): mean and range")
	p.Y.Min = 0
	top := 0.0
	for _, r := range rows {
		top = max(top, r.CapacityMBs)
	}
	free := top * 1.25
	x := func(r sensitivityRow) float64 {
		if r.Unconstrained {
			return free
		}
		return r.CapacityMBs
	}
	var ticks []plot.Tick
	for _, r := range rows {
		lbl := plotstyle.Label(r.CapacityMBs)
		if r.Unconstrained {
			lbl = "none"
		}
		ticks = append(ticks, plot.Tick{Value: x(r), Label: lbl})
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	p.X.Label.Text += " — none: unconstrained"
	legend := plot.NewLegend()
	for i, s := range []struct {
		name string
		f    func(sensitivityRow) stat
	}{{"MP", func(r sensitivityRow) stat { return r.Saving }}, {"MP, no IO check", func(r sensitivityRow) stat { return r.SavingNoIO }}} {
		var eb errorBars
		for _, r := range rows {
			v := s.f(r)
			eb.XYs = append(eb.XYs, plotter.XY{X: x(r), Y: v.Mean})
			eb.lo, eb.hi = append(eb.lo, v.Min), append(eb.hi, v.Max)
		}
		l, pts, err := plotter.NewLinePoints(eb.XYs)
		if err != nil {
			return err
		}
		bars, err := plotter.NewYErrorBars(eb)
		if err != nil {
			return err
		}
		l.Color, pts.Color, bars.Color = plotstyle.Palette[i+3], plotstyle.Palette[i+3], plotstyle.Palette[i+3]
		l.Dashes = plotstyle.Dashes[i]
		l.Width = vg.Points(1.5)
		pts.Shape = []draw.GlyphDrawer{draw.CircleGlyph{}, draw.TriangleGlyph{}}[i]
		p.Add(l, pts, bars)
		legend.Add(s.name, l, pts)
	}
	return savePlots(filepath.Join(dir, "sensitivity.png"), []*plot.Plot{p}, legend, 1.6*vg.Inch, 10*vg.Inch, 5*vg.Inch)
}

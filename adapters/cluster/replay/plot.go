package replay

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// Plots writes PNG plots of the results into dir:
//
//   - outcomes.png: deadlines met, missed and rejected (three panels)
//     against the load, one line per configuration through the median
//     over repetitions, with a bar from the smallest to the largest;
//   - eta-CONFIG.png for each configuration with the check: every
//     workload that waited, its predicted finish p50 (a point) with a bar
//     up to its p90, against its actual finish, both in seconds after the
//     ETA was read, one colour per load, and the line predicted = actual.
func Plots(dir string, rs []Result) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := outcomesPNG(filepath.Join(dir, "outcomes.png"), rs); err != nil {
		return err
	}
	for _, c := range []Config{Check, Schedkit} {
		var mine []Result
		for _, r := range rs {
			if r.Config == c {
				mine = append(mine, r)
			}
		}
		if len(mine) == 0 {
			continue
		}
		if err := etaPNG(filepath.Join(dir, "eta-"+string(c)+".png"), c, mine); err != nil {
			return err
		}
	}
	return nil
}

// outcomesPNG draws the three outcome panels side by side.
func outcomesPNG(path string, rs []Result) error {
	ls := loads(rs)
	var cs []Config
	for _, r := range rs {
		if !containsC(cs, r.Config) {
			cs = append(cs, r.Config)
		}
	}
	panels := []struct {
		title string
		f     func(Result) float64
	}{
		{"met", func(r Result) float64 { return float64(r.Met) }},
		{"missed", func(r Result) float64 { return float64(r.Missed) }},
		{"rejected", func(r Result) float64 { return float64(r.Rejected) }},
	}
	var row []*plot.Plot
	for _, pn := range panels {
		p := plot.New()
		p.Title.Text = "deadlines " + pn.title
		p.X.Label.Text, p.Y.Label.Text = "load", "jobs"
		p.NominalX(ls...)
		p.X.Min, p.X.Max = -0.5, float64(len(ls))-0.5
		p.Y.Min = 0
		for ci, c := range cs {
			var pts plotter.XYs
			var bars plotter.YErrors
			for li, l := range ls {
				var xs []float64
				for _, r := range rs {
					if r.Config == c && r.Load == l {
						xs = append(xs, pn.f(r))
					}
				}
				if len(xs) == 0 {
					continue
				}
				mid := quantile(xs, 0.5)
				// Configurations side by side within a load.
				x := float64(li) + 0.12*(float64(ci)-float64(len(cs)-1)/2)
				pts = append(pts, plotter.XY{X: x, Y: mid})
				bars = append(bars, struct{ Low, High float64 }{mid - slices.Min(xs), slices.Max(xs) - mid})
			}
			line, points, err := plotter.NewLinePoints(pts)
			if err != nil {
				return err
			}
			line.Color, points.Color = plotutil.Color(ci), plotutil.Color(ci)
			points.Shape = plotutil.Shape(ci)
			eb, err := errorBars(pts, bars, ci)
			if err != nil {
				return err
			}
			p.Add(line, points, eb)
			if pn.title == "met" {
				p.Legend.Add(string(c), line, points)
			}
		}
		p.Legend.Top = true
		row = append(row, p)
	}
	return savePNG(path, [][]*plot.Plot{row}, 15*vg.Inch, 4.5*vg.Inch)
}

// etaPNG draws predicted against actual finish for one configuration.
func etaPNG(path string, c Config, rs []Result) error {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s: predicted finish (p50, bar to p90) against actual", c)
	p.X.Label.Text = "actual finish, s after the ETA"
	p.Y.Label.Text = "predicted finish, s after the ETA"
	top := 1.0
	for li, l := range loads(rs) {
		var pts plotter.XYs
		var bars plotter.YErrors
		for _, r := range rs {
			if r.Load != l {
				continue
			}
			for _, o := range r.Outcomes {
				e := o.ETA
				if e == nil || o.Admitted.IsZero() || o.Finished.IsZero() {
					continue
				}
				act, p50, p90 := o.Finished.Sub(e.Seen).Seconds(), e.FinishP50.Sub(e.Seen).Seconds(), e.FinishP90.Sub(e.Seen).Seconds()
				pts = append(pts, plotter.XY{X: act, Y: p50})
				bars = append(bars, struct{ Low, High float64 }{0, math.Max(p90-p50, 0)})
				top = math.Max(top, math.Max(act, p90))
			}
		}
		if len(pts) == 0 {
			continue
		}
		sc, err := plotter.NewScatter(pts)
		if err != nil {
			return err
		}
		sc.Color, sc.Shape = plotutil.Color(li), plotutil.Shape(li)
		eb, err := errorBars(pts, bars, li)
		if err != nil {
			return err
		}
		p.Add(sc, eb)
		p.Legend.Add("load "+l, sc)
	}
	diag := plotter.NewFunction(func(x float64) float64 { return x })
	diag.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	p.Add(diag)
	p.Legend.Add("predicted = actual", diag)
	p.Legend.Top, p.Legend.Left = true, true
	p.X.Min, p.Y.Min, p.X.Max, p.Y.Max = 0, 0, top*1.05, top*1.05
	return savePNG(path, [][]*plot.Plot{{p}}, 7*vg.Inch, 6*vg.Inch)
}

// errorBars draws bars[i] below and above pts[i] in series i's colour.
func errorBars(pts plotter.XYs, bars plotter.YErrors, i int) (*plotter.YErrorBars, error) {
	eb, err := plotter.NewYErrorBars(struct {
		plotter.XYer
		plotter.YErrorer
	}{pts, bars})
	if err != nil {
		return nil, err
	}
	eb.Color = plotutil.Color(i)
	return eb, nil
}

// savePNG draws a grid of plots on one PNG canvas.
func savePNG(path string, grid [][]*plot.Plot, w, h vg.Length) error {
	img := vgimg.New(w, h)
	dc := draw.New(img)
	tiles := draw.Tiles{Rows: len(grid), Cols: len(grid[0]), PadX: vg.Millimeter * 4, PadY: vg.Millimeter * 4,
		PadTop: vg.Millimeter * 2, PadBottom: vg.Millimeter * 2, PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 2}
	canvases := plot.Align(grid, tiles, dc)
	for i := range grid {
		for j := range grid[i] {
			grid[i][j].Draw(canvases[i][j])
		}
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func containsC(cs []Config, c Config) bool {
	for _, x := range cs {
		if x == c {
			return true
		}
	}
	return false
}

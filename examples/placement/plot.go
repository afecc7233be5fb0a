package main

import (
	"fmt"
	"image/color"
	"path/filepath"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/schedkit/schedkit/examples/internal/plotstyle"
)

// evalTicks labels a logarithmic evaluations axis at 100, 300, 1000, 3000, …
type evalTicks struct{}

func (evalTicks) Ticks(lo, hi float64) []plot.Tick {
	var ticks []plot.Tick
	for d := 1.0; d <= hi; d *= 10 {
		for _, m := range []float64{1, 3} {
			if v := m * d; v >= lo && v <= hi {
				ticks = append(ticks, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', -1, 64)})
			}
		}
	}
	return ticks
}

// save writes p as a PNG with the legend in a column to the right of the
// data, so the legend never covers a point.
func save(p *plot.Plot, legend *plotstyle.Legend, path string) error {
	return plotstyle.Save(path, p, legend, 7.6*vg.Inch, 5*vg.Inch)
}

// writePlots writes fig3_10.png (Fig. 3.10: random candidates as dots,
// policies as lines) and convergence.png (best predicted time against
// evaluations) into dir, which the flag check has created.
func writePlots(dir string, r report) error {
	if err := plotFig310(filepath.Join(dir, "fig3_10.png"), r); err != nil {
		return err
	}
	return plotConvergence(filepath.Join(dir, "convergence.png"), r)
}

func plotFig310(path string, r report) error {
	p := plotstyle.New("Completion time of random candidates and policies (TARA Fig. 3.10)", "random candidate", "predicted completion time (s)")
	dots := make(plotter.XYs, len(r.Random))
	for i, f := range r.Random {
		dots[i] = plotter.XY{X: float64(i + 1), Y: f}
	}
	sc, err := plotter.NewScatter(dots)
	if err != nil {
		return err
	}
	sc.GlyphStyle.Shape = draw.CircleGlyph{}
	sc.GlyphStyle.Radius = vg.Points(1.5)
	sc.GlyphStyle.Color = color.Gray{Y: 0x80}
	p.Add(sc)
	legend := plotstyle.NewLegend()
	legend.Add(fmt.Sprintf("%d random candidates", len(r.Random)), sc)
	i := 0
	xMax := float64(max(len(r.Random), 2))
	for _, pol := range r.Policies {
		switch pol.Name {
		case "random-best", "random-mean", "random-worst":
			continue
		}
		l, err := plotstyle.Line(plotter.XYs{{X: 1, Y: pol.CompletionS}, {X: xMax, Y: pol.CompletionS}}, i)
		if err != nil {
			return err
		}
		p.Add(l)
		name := pol.Name
		if name == "TARA" {
			name = fmt.Sprintf("TARA, %d evaluations", r.Evaluations)
		}
		legend.Add(name, l)
		i++
	}
	l, err := plotstyle.Line(plotter.XYs{{X: 1, Y: r.TARA300MeanS}, {X: xMax, Y: r.TARA300MeanS}}, i)
	if err != nil {
		return err
	}
	p.Add(l)
	legend.Add("TARA, 300 (mean)", l)
	p.X.Min, p.X.Max = 0, xMax
	p.Y.Min = 0
	return save(p, legend, path)
}

func plotConvergence(path string, r report) error {
	if len(r.Convergence) == 0 {
		return nil // budget below one population: nothing to draw
	}
	p := plotstyle.New(fmt.Sprintf("Best predicted time against evaluations (mean of %d seeds)", r.Seeds), "evaluations", "best predicted completion time (s)")
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = evalTicks{}
	legend := plotstyle.NewLegend()
	series := []struct {
		name string
		y    func(convergencePoint) float64
	}{
		{"TARA, heuristic seeds", func(c convergencePoint) float64 { return c.TARAMeanS }},
		{"TARA, random start", func(c convergencePoint) float64 { return c.TARANoHeuristicSeedsS }},
		{"best random candidate", func(c convergencePoint) float64 { return c.RandomBestMeanS }},
	}
	for i, s := range series {
		pts := make(plotter.XYs, len(r.Convergence))
		for j, c := range r.Convergence {
			pts[j] = plotter.XY{X: float64(c.Evaluations), Y: s.y(c)}
		}
		l, err := plotstyle.Line(pts, i)
		if err != nil {
			return err
		}
		sc, err := plotter.NewScatter(pts)
		if err != nil {
			return err
		}
		sc.GlyphStyle.Color = l.Color
		sc.GlyphStyle.Radius = vg.Points(2.5)
		sc.GlyphStyle.Shape = []draw.GlyphDrawer{draw.CircleGlyph{}, draw.TriangleGlyph{}, draw.SquareGlyph{}}[i]
		p.Add(l, sc)
		legend.Add(s.name, l, sc)
	}
	p.Y.Min = 0
	return save(p, legend, path)
}

package main

import (
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/schedkit/schedkit/examples/internal/plotstyle"
)

// plotFits draws every data set as points and its fitted exp2 as a curve
// into a PNG at path, the legend beside the plot.
func plotFits(path string, sets []dataset) error {
	p := plotstyle.New("exp2 task completion time model (MIMP Eq. 1)", "x", "y")
	if len(sets) > 1 {
		p.X.Label.Text = "web VM CPU utilisation u"
		p.Y.Label.Text = "normalised TCT"
	}
	leg := plotstyle.NewLegend()
	glyphs := []draw.GlyphDrawer{draw.CircleGlyph{}, draw.TriangleGlyph{}, draw.SquareGlyph{}}
	for i, s := range sets {
		c, _ := plotstyle.Style(3 + i) // vermillion, blue, …
		pts := make(plotter.XYs, len(s.X))
		for k := range s.X {
			pts[k].X, pts[k].Y = s.X[k], s.Y[k]
		}
		sc, err := plotter.NewScatter(pts)
		if err != nil {
			return err
		}
		sc.GlyphStyle.Color = c
		sc.GlyphStyle.Shape = glyphs[i%len(glyphs)]
		sc.GlyphStyle.Radius = vg.Points(2.2)
		fn := plotter.NewFunction(s.Model.TCT)
		lo, hi := minMax(s.X)
		fn.XMin, fn.XMax = lo, hi
		fn.Samples = 200
		fn.Color, fn.Dashes = c, plotstyle.Dashes[i%len(plotstyle.Dashes)]
		fn.Width = vg.Points(1.6)
		p.Add(sc, fn)
		name := s.Short
		if name == "" {
			name = "data"
		}
		leg.Add(name+" data", sc)
		leg.Add(name+" exp2 fit", fn)
	}
	return plotstyle.Save(path, p, leg, 14*vg.Centimeter, 10*vg.Centimeter)
}

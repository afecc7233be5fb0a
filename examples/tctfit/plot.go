package main

import (
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// plotFits draws every data set as points and its fitted exp2 as a curve,
// and saves a 6×4-inch PNG at path.
func plotFits(path string, sets []dataset) error {
	p := plot.New()
	p.Title.Text = "exp2 task completion time model (000 Eq. 1)"
	p.X.Label.Text = "x"
	p.Y.Label.Text = "y"
	if len(sets) > 1 {
		p.X.Label.Text = "web VM CPU utilisation u"
		p.Y.Label.Text = "normalised TCT"
	}
	colors := []color.Color{
		color.RGBA{R: 200, G: 60, B: 40, A: 255},
		color.RGBA{R: 40, G: 90, B: 200, A: 255},
	}
	for i, s := range sets {
		c := colors[i%len(colors)]
		pts := make(plotter.XYs, len(s.X))
		for k := range s.X {
			pts[k].X, pts[k].Y = s.X[k], s.Y[k]
		}
		sc, err := plotter.NewScatter(pts)
		if err != nil {
			return err
		}
		sc.GlyphStyle.Color = c
		sc.GlyphStyle.Shape = draw.CircleGlyph{}
		sc.GlyphStyle.Radius = vg.Points(2)
		m := s.Model
		fn := plotter.NewFunction(m.TCT)
		lo, hi := minMax(s.X)
		fn.XMin, fn.XMax = lo, hi
		fn.Samples = 200
		fn.Color = c
		fn.Width = vg.Points(1.5)
		p.Add(sc, fn)
		name := s.Name
		if i < len(shortNames) && len(sets) > 1 {
			name = shortNames[i]
		}
		p.Legend.Add(name+" data", sc)
		p.Legend.Add(name+" exp2 fit", fn)
	}
	p.Legend.Top = true
	p.Legend.Left = true
	return p.Save(6*vg.Inch, 4*vg.Inch, path)
}

// shortNames label the default data sets in the legend.
var shortNames = []string{"CPU-bound", "IO-bound"}

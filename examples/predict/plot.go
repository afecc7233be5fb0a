package main

import (
	"fmt"
	"image/color"
	"math"
	"path/filepath"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

var lineStyles = []struct {
	dash  []vg.Length
	color color.Color
}{
	{nil, color.RGBA{R: 200, A: 255}},
	{[]vg.Length{vg.Points(6), vg.Points(3)}, color.RGBA{B: 200, A: 255}},
	{[]vg.Length{vg.Points(2), vg.Points(2)}, color.RGBA{G: 140, A: 255}},
}

// curve samples f on [lo, hi].
func curve(f func(float64) float64, lo, hi float64) plotter.XYs {
	const n = 200
	xy := make(plotter.XYs, 0, n+1)
	for i := range n + 1 {
		x := lo + (hi-lo)*float64(i)/n
		if y := f(x); finite(y) {
			xy = append(xy, plotter.XY{X: x, Y: y})
		}
	}
	return xy
}

// plotSort draws Fig. 5.14 (PDF of the fitted lognormal per worker count,
// as the thesis fits its simulated completion times) and Fig. 5.15 (the
// empirical CDF of the simulated completion times).
func plotSort(dir string, res sortResult) error {
	lo, hi := math.Inf(1), 0.0
	for _, d := range res.Dists {
		lo, hi = min(lo, d.Min()), max(hi, d.Max())
	}
	lo, hi = 0.8*lo, 1.1*hi
	pdf := plot.New()
	pdf.Title.Text = "Fig. 5.14: PDF of completion time, 500 GB sort"
	pdf.X.Label.Text = "completion time (s)"
	pdf.Y.Label.Text = "density (1/s)"
	cdf := plot.New()
	cdf.Title.Text = fmt.Sprintf("Fig. 5.15: CDF of completion time (deadline %.0f s)", sortDeadline)
	cdf.X.Label.Text = "completion time (s)"
	cdf.Y.Label.Text = "P(T ≤ t)"
	for i, d := range res.Dists {
		name := fmt.Sprintf("%d workers", res.Allocation[i].Workers)
		l, err := plotter.NewLine(curve(res.Fits[i].PDF, lo, hi))
		if err != nil {
			return err
		}
		l.Dashes, l.Color = lineStyles[i%3].dash, lineStyles[i%3].color
		pdf.Add(l)
		pdf.Legend.Add(name, l)
		c, err := plotter.NewLine(curve(func(x float64) float64 { p, _ := d.ProbWithin(x); return p }, lo, hi))
		if err != nil {
			return err
		}
		c.Dashes, c.Color = lineStyles[i%3].dash, lineStyles[i%3].color
		cdf.Add(c)
		cdf.Legend.Add(name, c)
	}
	dl, err := plotter.NewLine(plotter.XYs{{X: sortDeadline, Y: 0}, {X: sortDeadline, Y: 1}})
	if err != nil {
		return err
	}
	dl.Color = color.Gray{Y: 120}
	cdf.Add(dl)
	if err := pdf.Save(16*vg.Centimeter, 10*vg.Centimeter, filepath.Join(dir, "fig5_14_pdf.png")); err != nil {
		return err
	}
	return cdf.Save(16*vg.Centimeter, 10*vg.Centimeter, filepath.Join(dir, "fig5_15_cdf.png"))
}

// plotOnline draws one of Fig. 5.16–5.18: the actual remaining time, the
// predicted mean with ± one standard deviation error bars, and (when
// withAdded) the prediction if more workers joined at each moment.
func plotOnline(dir, file, title string, r onlineResult, withAdded bool) error {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "time since job start (s)"
	p.Y.Label.Text = "remaining time (s)"
	actual, pred, added := make(plotter.XYs, 0, len(r.Points)), make(plotter.XYs, 0, len(r.Points)), make(plotter.XYs, 0, len(r.Points))
	errs := make(plotter.YErrors, 0, len(r.Points))
	for _, pt := range r.Points {
		actual = append(actual, plotter.XY{X: pt.T, Y: pt.Actual})
		pred = append(pred, plotter.XY{X: pt.T, Y: pt.Mean})
		added = append(added, plotter.XY{X: pt.T, Y: pt.MeanAdded})
		errs = append(errs, struct{ Low, High float64 }{pt.SD, pt.SD})
	}
	la, err := plotter.NewLine(actual)
	if err != nil {
		return err
	}
	la.Dashes = []vg.Length{vg.Points(6), vg.Points(3)}
	p.Add(la)
	p.Legend.Add("actual", la)
	if err := addMarked(p, pred, draw.CircleGlyph{}, lineStyles[0].color, fmt.Sprintf("predicted, %d workers", r.Workers)); err != nil {
		return err
	}
	if !withAdded {
		eb, err := plotter.NewYErrorBars(struct {
			plotter.XYer
			plotter.YErrorer
		}{pred, errs})
		if err != nil {
			return err
		}
		p.Add(eb)
	} else if err := addMarked(p, added, draw.CrossGlyph{}, lineStyles[1].color, fmt.Sprintf("predicted, +%d workers now", r.Added)); err != nil {
		return err
	}
	p.Legend.Top = true
	return p.Save(16*vg.Centimeter, 10*vg.Centimeter, filepath.Join(dir, file))
}

// addMarked adds a line with a glyph at every point and a legend entry.
func addMarked(p *plot.Plot, xy plotter.XYs, glyph draw.GlyphDrawer, c color.Color, name string) error {
	l, s, err := plotter.NewLinePoints(xy)
	if err != nil {
		return err
	}
	s.Shape = glyph
	l.Color, s.Color = c, c
	p.Add(l, s)
	p.Legend.Add(name, l, s)
	return nil
}

// plotTrace draws a Fig. 5.2-style histogram of task durations with the
// fitted lognormal and normal densities.
func plotTrace(dir, file, title string, f traceFit) error {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "task duration (s)"
	p.Y.Label.Text = "density (1/s)"
	hi, _ := f.Dist.Quantile(0.99)
	var vals plotter.Values
	for _, x := range f.Dist.Sorted() {
		if x <= hi {
			vals = append(vals, x)
		}
	}
	h, err := plotter.NewHist(vals, 50)
	if err != nil {
		return err
	}
	h.Normalize(float64(len(vals)) / float64(f.Tasks))
	p.Add(h)
	ln, err := plotter.NewLine(curve(f.Lognormal.PDF, 0, hi))
	if err != nil {
		return err
	}
	ln.Color = color.RGBA{R: 220, A: 255}
	p.Add(ln)
	p.Legend.Add(fmt.Sprintf("lognormal (KS %.3f)", f.KSLognormal), ln)
	nl, err := plotter.NewLine(curve(f.Normal.Prob, 0, hi))
	if err != nil {
		return err
	}
	nl.Color = color.RGBA{G: 160, A: 255}
	p.Add(nl)
	p.Legend.Add(fmt.Sprintf("normal (KS %.3f)", f.KSNormal), nl)
	p.Legend.Top = true
	return p.Save(16*vg.Centimeter, 10*vg.Centimeter, filepath.Join(dir, file))
}

package main

import (
	"cmp"
	"fmt"
	"image/color"
	"math"
	"path/filepath"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/schedkit/schedkit/examples/internal/plotstyle"
)

// Figure sizes: the plot area; the legend strip is added to its right.
const (
	figW = 14 * vg.Centimeter
	figH = 10 * vg.Centimeter
)

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

// writePlots draws every figure of the default scenario into dir.
func writePlots(dir string, rep report) error {
	if err := plotSort(dir, rep.Sort); err != nil {
		return err
	}
	if err := plotSearch(dir, rep.Sort); err != nil {
		return err
	}
	figs := []struct {
		file, title string
		i           int
		added       bool
	}{
		{"fig5_16_online.png", "Fig. 5.16: online prediction, 200 reduce splits, 50 workers", 0, false},
		{"fig5_17_online_added.png", "Fig. 5.17: 200 reduce splits, 50 (+50) workers", 0, true},
		{"fig5_18_online_40.png", "Fig. 5.18: 40 reduce splits, 50 (+50) workers", 1, true},
	}
	for _, f := range figs {
		if err := plotOnline(dir, f.file, f.title, rep.Online[f.i], f.added); err != nil {
			return err
		}
	}
	return nil
}

// plotSort draws Fig. 5.14 (PDF of the fitted lognormal per worker count,
// as the thesis fits its simulated completion times) and Fig. 5.15 (the
// empirical CDF of the simulated completion times, with the deadline).
func plotSort(dir string, res sortResult) error {
	lo, hi := math.Inf(1), 0.0
	for _, d := range res.Dists {
		lo, hi = min(lo, d.Min()), max(hi, d.Max())
	}
	lo, hi = 0.95*lo, 1.02*hi
	pdf := plotstyle.New("Fig. 5.14: PDF of completion time, 500 GB sort", "completion time (s)", "density (1/s)")
	cdf := plotstyle.New(fmt.Sprintf("Fig. 5.15: CDF of completion time, deadline %.0f s", sortDeadline), "completion time (s)", "P(T ≤ t)")
	lp, lc := plotstyle.NewLegend(), plotstyle.NewLegend()
	for i, d := range res.Dists {
		name := fmt.Sprintf("%d workers", res.Allocation[i].Workers)
		l, err := plotstyle.Line(curve(res.Fits[i].PDF, lo, hi), i)
		if err != nil {
			return err
		}
		pdf.Add(l)
		lp.Add(name, l)
		c, err := plotstyle.Line(curve(func(x float64) float64 { p, _ := d.ProbWithin(x); return p }, lo, hi), i)
		if err != nil {
			return err
		}
		cdf.Add(c)
		lc.Add(fmt.Sprintf("%s: P(T ≤ D) = %.2f", name, res.Allocation[i].PMeet), c)
	}
	dl, err := plotstyle.Line(plotter.XYs{{X: sortDeadline, Y: 0}, {X: sortDeadline, Y: 1}}, 7)
	if err != nil {
		return err
	}
	dl.Width = vg.Points(1)
	cdf.Add(dl)
	lc.Add(fmt.Sprintf("deadline D = %.0f s", sortDeadline), dl)
	pdf.X.Min, pdf.X.Max, cdf.X.Min, cdf.X.Max = lo, hi, lo, hi
	pdf.Y.Min = 0
	cdf.Y.Min, cdf.Y.Max = 0, 1
	if err := plotstyle.Save(filepath.Join(dir, "fig5_14_pdf.png"), pdf, lp, figW, figH); err != nil {
		return err
	}
	return plotstyle.Save(filepath.Join(dir, "fig5_15_cdf.png"), cdf, lc, figW, figH)
}

// plotSearch draws every worker count each confidence's search evaluated:
// the estimate of P(T ≤ D) with its interval, and the confidence as a
// line, so the answer can be seen where the interval clears it.
func plotSearch(dir string, res sortResult) error {
	p := plotstyle.New(fmt.Sprintf("§5.4.1 worker search: P(T ≤ %.0f s) with its interval", sortDeadline), "workers", "P(T ≤ D)")
	leg := plotstyle.NewLegend()
	xmax := 0.0
	for _, r := range res.WorkersFor {
		for _, e := range r.Evaluated {
			xmax = max(xmax, float64(e.Workers))
		}
	}
	for i, r := range res.WorkersFor {
		ev := slices.Clone(r.Evaluated)
		slices.SortFunc(ev, func(a, b probeRow) int { return cmp.Compare(a.Workers, b.Workers) })
		pts := make(plotter.XYs, len(ev))
		errs := make(plotter.YErrors, len(ev))
		for k, e := range ev {
			pts[k] = plotter.XY{X: float64(e.Workers), Y: e.PMeet}
			errs[k].Low, errs[k].High = e.PMeet-e.PLow, e.PHigh-e.PMeet
		}
		col, _ := plotstyle.Style(i)
		s, err := plotter.NewScatter(pts)
		if err != nil {
			return err
		}
		s.Color, s.Shape, s.Radius = col, [](draw.GlyphDrawer){draw.CircleGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{}}[i%3], vg.Points(2.5)
		eb, err := errorBars(pts, errs, col)
		if err != nil {
			return err
		}
		target, err := plotstyle.Line(plotter.XYs{{X: 0, Y: r.Confidence}, {X: xmax, Y: r.Confidence}}, i)
		if err != nil {
			return err
		}
		target.Dashes, target.Width = plotstyle.Dashes[1], vg.Points(1)
		p.Add(target, eb, s)
		leg.Add(fmt.Sprintf("%.0f%%: tried counts", 100*r.Confidence), s)
		leg.Add(fmt.Sprintf("%.0f%%: answer %s", 100*r.Confidence, workersText(r)), target)
	}
	p.Y.Min, p.Y.Max, p.X.Min = 0, 1, 0
	if err := plotstyle.Save(filepath.Join(dir, "worker_search.png"), p, leg, figW, figH); err != nil {
		return err
	}
	for i, r := range res.WorkersFor {
		if r.Confidence == 0.8 && r.Verdict != "misses" {
			return plotSearchZoom(dir, "worker_search_80.png", r, i)
		}
	}
	return nil
}

// plotSearchZoom draws one confidence's search near its answer: every
// count tried within 30 workers of the noise band, with its interval, the
// confidence, and the band's ends.
func plotSearchZoom(dir, file string, r workersForRow, style int) error {
	lo, hi := float64(r.NoiseFrom-30), float64(r.AtWorkers+30)
	p := plotstyle.New(fmt.Sprintf("§5.4.1 worker search near the %.0f%% answer", 100*r.Confidence), "workers", "P(T ≤ D)")
	leg := plotstyle.NewLegend()
	var pts plotter.XYs
	var errs plotter.YErrors
	ymin, ymax := r.Confidence, r.Confidence
	for _, e := range r.Evaluated {
		if w := float64(e.Workers); w >= lo && w <= hi {
			pts = append(pts, plotter.XY{X: w, Y: e.PMeet})
			errs = append(errs, struct{ Low, High float64 }{e.PMeet - e.PLow, e.PHigh - e.PMeet})
			ymin, ymax = min(ymin, e.PLow), max(ymax, e.PHigh)
		}
	}
	col, _ := plotstyle.Style(style)
	s, err := plotter.NewScatter(pts)
	if err != nil {
		return err
	}
	s.Color, s.Shape, s.Radius = col, draw.SquareGlyph{}, vg.Points(2.5)
	eb, err := errorBars(pts, errs, col)
	if err != nil {
		return err
	}
	pad := 0.1 * (ymax - ymin)
	ymin, ymax = ymin-pad, ymax+pad
	target, err := plotstyle.Line(plotter.XYs{{X: lo, Y: r.Confidence}, {X: hi, Y: r.Confidence}}, 7)
	if err != nil {
		return err
	}
	target.Dashes, target.Width = plotstyle.Dashes[1], vg.Points(1)
	from, err := plotstyle.Line(plotter.XYs{{X: float64(r.NoiseFrom), Y: ymin}, {X: float64(r.NoiseFrom), Y: ymax}}, 5)
	if err != nil {
		return err
	}
	from.Dashes = plotstyle.Dashes[2]
	ans, err := plotstyle.Line(plotter.XYs{{X: float64(r.AtWorkers), Y: ymin}, {X: float64(r.AtWorkers), Y: ymax}}, 3)
	if err != nil {
		return err
	}
	p.Add(target, from, ans, eb, s)
	leg.Add("tried counts, with the interval", s)
	leg.Add(fmt.Sprintf("confidence %.0f%%", 100*r.Confidence), target)
	leg.Add(fmt.Sprintf("noise band from %d", r.NoiseFrom), from)
	leg.Add(fmt.Sprintf("answer %d workers", r.AtWorkers), ans)
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = lo, hi, ymin, ymax
	return plotstyle.Save(filepath.Join(dir, file), p, leg, figW, figH)
}

// plotOnline draws one of Fig. 5.16–5.18: the actual remaining time, the
// predicted mean with ± one standard deviation error bars, and (when
// withAdded) the prediction if more workers joined at each moment.
func plotOnline(dir, file, title string, r onlineResult, withAdded bool) error {
	p := plotstyle.New(title, "time since job start (s)", "remaining time (s)")
	leg := plotstyle.NewLegend()
	actual, pred, added := make(plotter.XYs, 0, len(r.Points)), make(plotter.XYs, 0, len(r.Points)), make(plotter.XYs, 0, len(r.Points))
	errs := make(plotter.YErrors, 0, len(r.Points))
	for _, pt := range r.Points {
		actual = append(actual, plotter.XY{X: pt.T, Y: pt.Actual})
		pred = append(pred, plotter.XY{X: pt.T, Y: pt.Mean})
		added = append(added, plotter.XY{X: pt.T, Y: pt.MeanAdded})
		errs = append(errs, struct{ Low, High float64 }{pt.SD, pt.SD})
	}
	la, err := plotstyle.Line(actual, 7)
	if err != nil {
		return err
	}
	la.Dashes = plotstyle.Dashes[1]
	p.Add(la)
	leg.Add("actual (simulated run)", la)
	if err := addMarked(p, leg, pred, draw.CircleGlyph{}, 4, fmt.Sprintf("predicted, %d workers", r.Workers)); err != nil {
		return err
	}
	if !withAdded {
		ebColor, _ := plotstyle.Style(4)
		eb, err := errorBars(pred, errs, ebColor)
		if err != nil {
			return err
		}
		p.Add(eb)
		// Error bars draw no legend thumbnail: the entry names them.
		leg.Add("(bars: ± 1 standard deviation)")
	} else if err := addMarked(p, leg, added, draw.CrossGlyph{}, 3, fmt.Sprintf("predicted, +%d workers now", r.Added)); err != nil {
		return err
	}
	p.X.Min, p.Y.Min = 0, 0
	return plotstyle.Save(filepath.Join(dir, file), p, leg, figW, figH)
}

// addMarked adds a line of series i's style with a glyph at every point
// and a legend entry.
func addMarked(p *plot.Plot, leg *plotstyle.Legend, xy plotter.XYs, glyph draw.GlyphDrawer, i int, name string) error {
	l, s, err := plotter.NewLinePoints(xy)
	if err != nil {
		return err
	}
	s.Shape = glyph
	l.Color, l.Dashes = plotstyle.Style(i)
	l.Width = vg.Points(plotstyle.LineWidth)
	s.Color = l.Color
	p.Add(l, s)
	leg.Add(name, l, s)
	return nil
}

// plotTrace draws a Fig. 5.2-style histogram of task durations (up to the
// 99th percentile) with the fitted lognormal and normal densities.
func plotTrace(dir, file, title string, f traceFit) error {
	p := plotstyle.New(title, "task duration (s)", "density (1/s)")
	leg := plotstyle.NewLegend()
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
	h.FillColor, h.LineStyle.Width = plotstyle.Palette[1], 0
	p.Add(h)
	leg.Add("task durations", h)
	ln, err := plotstyle.Line(curve(f.Lognormal.PDF, 0, hi), 3)
	if err != nil {
		return err
	}
	p.Add(ln)
	leg.Add(fmt.Sprintf("lognormal (KS %.3f)", f.KSLognormal), ln)
	nl, err := plotstyle.Line(curve(f.Normal.Prob, 0, hi), 4)
	if err != nil {
		return err
	}
	nl.Dashes = plotstyle.Dashes[1]
	p.Add(nl)
	leg.Add(fmt.Sprintf("normal (KS %.3f)", f.KSNormal), nl)
	p.X.Min, p.Y.Min = 0, 0
	return plotstyle.Save(filepath.Join(dir, file), p, leg, figW, figH)
}

// errorBars draws errs as vertical bars about pts, in colour c.
func errorBars(pts plotter.XYs, errs plotter.YErrors, c color.Color) (*plotter.YErrorBars, error) {
	eb, err := plotter.NewYErrorBars(struct {
		plotter.XYer
		plotter.YErrorer
	}{pts, errs})
	if err != nil {
		return nil, err
	}
	eb.Color = c
	return eb, nil
}

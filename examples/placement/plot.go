package main

import (
	"fmt"
	"image/color"
	"math"
	"path/filepath"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/schedkit/schedkit/examples/internal/plotstyle"
)

// colours is the Okabe–Ito palette, distinguishable with colour-blindness;
// every series also gets its own dash pattern.
var colours = []color.Color{
	color.RGBA{0x00, 0x72, 0xB2, 0xFF}, // blue
	color.RGBA{0xD5, 0x5E, 0x00, 0xFF}, // vermillion
	color.RGBA{0x00, 0x9E, 0x73, 0xFF}, // bluish green
	color.RGBA{0xCC, 0x79, 0xA7, 0xFF}, // reddish purple
	color.RGBA{0xE6, 0x9F, 0x00, 0xFF}, // orange
	color.RGBA{0x56, 0xB4, 0xE9, 0xFF}, // sky blue
	color.RGBA{0x00, 0x00, 0x00, 0xFF}, // black
}

var dashPatterns = [][]vg.Length{
	nil,
	{vg.Points(6), vg.Points(3)},
	{vg.Points(2), vg.Points(2)},
	{vg.Points(8), vg.Points(2), vg.Points(2), vg.Points(2)},
	{vg.Points(3), vg.Points(5)},
	{vg.Points(12), vg.Points(4)},
	nil,
}

// niceTicks labels an axis at multiples of 1, 2, 2.5 or 5 × 10^k, about
// eight of them, written without trailing zeros.
type niceTicks struct{}

func (niceTicks) Ticks(lo, hi float64) []plot.Tick {
	span := hi - lo
	if !(span > 0) {
		return []plot.Tick{{Value: lo, Label: strconv.FormatFloat(lo, 'f', -1, 64)}}
	}
	p := math.Pow(10, math.Floor(math.Log10(span/8)))
	step := 10 * p
	for _, f := range []float64{1, 2, 2.5, 5} {
		if f*p >= span/8 {
			step = f * p
			break
		}
	}
	var ticks []plot.Tick
	for v := math.Ceil(lo/step) * step; v <= hi+step*1e-9; v += step {
		v = math.Round(v/step) * step
		ticks = append(ticks, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', -1, 64)})
	}
	return ticks
}

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

// line returns the styled line through pts, series i.
func line(pts plotter.XYs, i int) (*plotter.Line, error) {
	l, err := plotter.NewLine(pts)
	if err != nil {
		return nil, err
	}
	l.Color = colours[i%len(colours)]
	l.Dashes = dashPatterns[i%len(dashPatterns)]
	l.Width = vg.Points(1.6)
	return l, nil
}

// save writes p as a PNG with legend in a column to the right of the data,
// so the legend never covers a point.
func save(p *plot.Plot, legend plot.Legend, path string) error {
	const width, height, column = 10 * vg.Inch, 5 * vg.Inch, 2.4 * vg.Inch
	canvas := vgimg.New(width, height)
	whole := draw.New(canvas)
	p.Draw(draw.Crop(whole, 0, -column, 0, 0))
	legend.Top, legend.Left = true, true
	legend.Draw(draw.Crop(whole, width-column+2*vg.Millimeter, 0, -vg.Millimeter*10, -vg.Millimeter*12))
	return plotstyle.WritePNG(path, canvas)
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
	p := plot.New()
	p.Title.Text = "Completion time of random candidates and policies (TARA Fig. 3.10)"
	p.X.Label.Text = "random candidate"
	p.Y.Label.Text = "predicted completion time (s)"
	p.X.Tick.Marker = niceTicks{}
	p.Y.Tick.Marker = niceTicks{}
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
	legend := plot.NewLegend()
	legend.Add(fmt.Sprintf("%d random candidates", len(r.Random)), sc)
	i := 0
	xMax := float64(max(len(r.Random), 2))
	for _, pol := range r.Policies {
		switch pol.Name {
		case "random-best", "random-mean", "random-worst":
			continue
		}
		l, err := line(plotter.XYs{{X: 1, Y: pol.CompletionS}, {X: xMax, Y: pol.CompletionS}}, i)
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
	l, err := line(plotter.XYs{{X: 1, Y: r.TARA300MeanS}, {X: xMax, Y: r.TARA300MeanS}}, i)
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
	p := plot.New()
	p.Title.Text = fmt.Sprintf("Best predicted time against evaluations (mean of %d seeds)", r.Seeds)
	p.X.Label.Text = "evaluations"
	p.Y.Label.Text = "best predicted completion time (s)"
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = evalTicks{}
	p.Y.Tick.Marker = niceTicks{}
	legend := plot.NewLegend()
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
		l, err := line(pts, i)
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

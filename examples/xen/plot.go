package main

import (
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/schedkit/schedkit/examples/internal/plotstyle"
)

// Plot writes dir/xen-response.png (the interactive VM's mean response time
// against the load, MIMP Fig. 5a) and dir/xen-runnable.png (its runnable
// VCPU-seconds, Table 1's runnable row), one line per set-up, with the
// legend beside the axes.
func Plot(dir string, sc Scenario, runs []Result) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, fig := range []struct {
		file, y string
		val     func(Result) float64
		log     bool
	}{
		{"xen-response.png", "mean response time (ms, log scale)", func(r Result) float64 { return r.MeanResponseMS }, true},
		{"xen-runnable.png", "runnable VCPU-seconds (Table 1's row)", func(r Result) float64 { return r.RunnableS }, false},
	} {
		if err := plotOne(filepath.Join(dir, fig.file), sc, runs, fig.y, fig.val, fig.log); err != nil {
			return err
		}
	}
	return nil
}

// Four set-ups: distinct colours, dashes and glyphs.
var (
	lineColors = []color.Color{
		color.RGBA{0, 0, 0, 255},       // alone: black
		color.RGBA{213, 94, 0, 255},    // credit: vermilion
		color.RGBA{0, 114, 178, 255},   // mi: blue
		color.RGBA{0, 158, 115, 255},   // other mi: green
		color.RGBA{204, 121, 167, 255}, // spare
	}
	lineDashes = [][]vg.Length{nil, {vg.Points(6), vg.Points(3)}, {vg.Points(2), vg.Points(2)}, {vg.Points(8), vg.Points(3), vg.Points(2), vg.Points(3)}, nil}
	glyphs     = []draw.GlyphDrawer{draw.CircleGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{}, draw.CrossGlyph{}, draw.PlusGlyph{}}
)

func plotOne(path string, sc Scenario, runs []Result, ylabel string, val func(Result) float64, logY bool) error {
	p := plot.New()
	closed := len(runs) > 0 && runs[0].Clients > 0
	p.Title.Text = "Interactive VM beside a CPU-bound batch VM (2 shared cores)"
	if closed {
		p.X.Label.Text = "closed-loop clients (7 s think time)"
	} else {
		p.X.Label.Text = "open-loop request rate (per second)"
	}
	p.Y.Label.Text = ylabel
	if logY {
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	} else {
		p.Y.Tick.Marker = roundTicks{}
	}
	p.X.Tick.Marker = roundTicks{}
	legend := plot.NewLegend()
	legend.TextStyle.Font.Size = vg.Points(9)
	for i, name := range setUps(sc) {
		var xy plotter.XYs
		for _, r := range runs {
			if r.Scheduler != name {
				continue
			}
			x, y := r.Rate, val(r)
			if closed {
				x = float64(r.Clients)
			}
			if logY {
				y = math.Max(y, 0.1) // a log axis has no 0
			}
			xy = append(xy, plotter.XY{X: x, Y: y})
		}
		l, pts, err := plotter.NewLinePoints(xy)
		if err != nil {
			return err
		}
		l.Color, l.Dashes, l.Width = lineColors[i], lineDashes[i], vg.Points(1.5)
		pts.Color, pts.Shape = lineColors[i], glyphs[i]
		p.Add(l, pts)
		legend.Add(label(sc, name), l, pts)
	}
	const w, h, legendW = 7.5 * vg.Inch, 4 * vg.Inch, 2.1 * vg.Inch
	img := vgimg.New(w, h)
	dc := draw.New(img)
	p.Draw(draw.Crop(dc, 0, -legendW, 0, 0))
	legend.Top, legend.Left = true, true
	legend.Draw(draw.Crop(dc, w-legendW+vg.Points(10), 0, 0, -vg.Points(30)))
	return plotstyle.WritePNG(path, img)
}

// label names a set-up in the legend, saying how MI treats the ratelimit.
func label(sc Scenario, name string) string {
	delayed := map[bool]string{true: "ratelimit delays bg", false: "bg exempt"}
	switch name {
	case Alone:
		return "alone"
	case Credit:
		return fmt.Sprintf("credit, batch weight %d", sc.BatchWeight)
	case MI:
		return "mi: " + delayed[sc.RatelimitDelaysBackground]
	case MIExempt, MIRatelimited:
		return name + ": " + delayed[!sc.RatelimitDelaysBackground]
	}
	return name
}

// roundTicks are plot.DefaultTicks labelled without trailing zeros ("250",
// not "250.00").
type roundTicks struct{}

func (roundTicks) Ticks(min, max float64) []plot.Tick {
	ts := plot.DefaultTicks{}.Ticks(min, max)
	for i := range ts {
		if ts[i].Label != "" {
			ts[i].Label = strconv.FormatFloat(ts[i].Value, 'f', -1, 64)
		}
	}
	return ts
}

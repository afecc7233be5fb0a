package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

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

// glyphs tell the set-ups apart besides their colours and dashes.
var glyphs = []draw.GlyphDrawer{draw.CircleGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{}, draw.CrossGlyph{}, draw.PlusGlyph{}}

func plotOne(path string, sc Scenario, runs []Result, ylabel string, val func(Result) float64, logY bool) error {
	closed := len(runs) > 0 && runs[0].Clients > 0
	xlabel := "open-loop request rate (per second)"
	if closed {
		xlabel = "closed-loop clients (7 s think time)"
	}
	p := plotstyle.New("Interactive VM beside a CPU-bound batch VM (2 shared cores)", xlabel, ylabel)
	if logY {
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	}
	legend := plotstyle.NewLegend()
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
		l.Color, l.Dashes = plotstyle.Style(i)
		l.Width = vg.Points(1.5)
		pts.Color, pts.Shape = l.Color, glyphs[i%len(glyphs)]
		p.Add(l, pts)
		legend.Add(label(sc, name), l, pts)
	}
	return plotstyle.Save(path, p, legend, 5.4*vg.Inch, 4*vg.Inch)
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

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

// policyColor gives each policy its own colour (Okabe–Ito, distinct for
// colour-blind readers); jobs are told apart by dashes.
var policyColor = map[string]color.Color{
	SlotShare:            color.RGBA{R: 0x00, G: 0x72, B: 0xB2, A: 0xFF}, // blue
	ProgressShare:        color.RGBA{R: 0xD5, G: 0x5E, B: 0x00, A: 0xFF}, // vermillion
	ProgressShareAff:     color.RGBA{R: 0x00, G: 0x9E, B: 0x73, A: 0xFF}, // bluish green
	ProgressShareBounded: color.RGBA{R: 0xCC, G: 0x79, B: 0xA7, A: 0xFF}, // reddish purple
}

// policyWidth draws later policies with thinner lines, so a line that
// coincides with an earlier one (the two affinity variants often do) is
// seen on top of it.
var policyWidth = map[string]vg.Length{
	SlotShare: vg.Points(2.8), ProgressShare: vg.Points(2.3), ProgressShareAff: vg.Points(1.8), ProgressShareBounded: vg.Points(1.1),
}

// jobDashes tells up to four jobs apart.
var jobDashes = [][]vg.Length{nil, {vg.Points(6), vg.Points(3)}, {vg.Points(2), vg.Points(2)}, {vg.Points(8), vg.Points(3), vg.Points(2), vg.Points(3)}}

// Plot writes, for each traced scenario, NAME-progress.png (each job's
// fraction of tasks done over time under every policy, the bottom-left
// panels of Fig. 4.6 and 4.7) and NAME-share.png (each job's progress share
// over time, the bottom-right panels), from the first seed's run. The
// legend sits to the right of the data.
func Plot(dir string, runs []Comparison) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, r := range runs {
		if !r.Scenario.Trace || len(r.Scenario.Jobs) > len(jobDashes) {
			continue
		}
		for _, what := range []string{"progress", "share"} {
			if err := plotOne(filepath.Join(dir, r.Scenario.Name+"-"+what+".png"), r, what); err != nil {
				return err
			}
		}
	}
	return nil
}

func plotOne(path string, r Comparison, what string) error {
	p := plot.New()
	title := map[string]string{"progress": "progress (fraction of tasks done)", "share": "progress share (Eq. 4.1)"}[what]
	p.Title.Text = fmt.Sprintf("%s: %s over time", r.Scenario.Name, title)
	if r.Scenario.Seeds > 1 {
		p.Title.Text += fmt.Sprintf(" (seed %d)", r.Scenario.Seed)
	}
	p.X.Label.Text = "time (s)"
	p.Y.Label.Text = map[string]string{"progress": "fraction of tasks done", "share": "progress share"}[what]
	p.X.Tick.Marker = roundTicks{}
	p.Y.Tick.Marker = roundTicks{}
	p.Y.Min, p.Y.Max = 0, 1
	leg := plot.NewLegend()
	for _, res := range r.Results {
		for i, j := range r.Scenario.Jobs {
			// A step function: a sample's value holds until the next event.
			smp := res.First.Samples
			xy := make(plotter.XYs, 0, 2*len(smp))
			for k, s := range smp {
				y := s.Progress[i]
				if what == "share" {
					y = s.PS[i]
				}
				if k > 0 {
					xy = append(xy, plotter.XY{X: s.Time, Y: xy[len(xy)-1].Y})
				}
				xy = append(xy, plotter.XY{X: s.Time, Y: y})
			}
			l, err := plotter.NewLine(xy)
			if err != nil {
				return err
			}
			l.Color = policyColor[res.Policy]
			l.Width = policyWidth[res.Policy] // later policies thinner, so coinciding lines both show
			l.Dashes = jobDashes[i]
			p.Add(l)
			leg.Add(fmt.Sprintf("%s, %s", j.Name, res.Policy), l)
		}
	}
	const w, h, legendW = 10.5 * vg.Inch, 4.5 * vg.Inch, 3.7 * vg.Inch
	img := vgimg.New(w, h)
	dc := draw.New(img)
	p.Draw(draw.Crop(dc, 0, -legendW, 0, 0))
	leg.Top, leg.Left = true, true
	leg.ThumbnailWidth = vg.Points(28)
	leg.Draw(draw.Crop(dc, w-legendW+vg.Points(8), 0, 0, -vg.Points(24)))
	return plotstyle.WritePNG(path, img)
}

// roundTicks labels an axis at round steps (1, 2 or 5 × 10^k, five to ten
// of them) with as few digits as each label needs: "0", "500", "0.2", never
// "0.00".
type roundTicks struct{}

func (roundTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) {
		return []plot.Tick{{Value: lo, Label: strconv.FormatFloat(lo, 'f', -1, 64)}}
	}
	step := math.Pow(10, math.Floor(math.Log10((hi-lo)/5)))
	for _, m := range []float64{1, 2, 5, 10} {
		if (hi-lo)/(step*m) <= 10 {
			step *= m
			break
		}
	}
	digits := max(0, -int(math.Floor(math.Log10(step)+1e-9)))
	var ticks []plot.Tick
	for k := math.Ceil(lo/step - 1e-9); k*step <= hi+step*1e-9; k++ {
		v := k * step
		// Rounded to the step's digits, then printed with as few as needed.
		label, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'f', digits, 64), 64)
		ticks = append(ticks, plot.Tick{Value: v, Label: strconv.FormatFloat(label+0, 'f', -1, 64)}) // +0 turns −0 into 0
		for k := 1; k < 5; k++ {                                                                     // unlabelled minor ticks
			if m := v + float64(k)*step/5; m <= hi {
				ticks = append(ticks, plot.Tick{Value: m})
			}
		}
	}
	return ticks
}

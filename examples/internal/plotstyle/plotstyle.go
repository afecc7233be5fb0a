// Package plotstyle is the look every example's figures share: a
// colour-blind-safe palette with dash patterns for more series than
// colours, round axis ticks ("0", "250", "0.5", never "250.00"), and a
// legend drawn beside the data, never over it.
package plotstyle

import (
	"image/color"
	"math"
	"os"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// Palette is the Okabe–Ito colour-blind-safe palette (black last).
var Palette = []color.Color{
	color.RGBA{0xE6, 0x9F, 0x00, 0xFF}, // orange
	color.RGBA{0x56, 0xB4, 0xE9, 0xFF}, // sky blue
	color.RGBA{0x00, 0x9E, 0x73, 0xFF}, // bluish green
	color.RGBA{0xD5, 0x5E, 0x00, 0xFF}, // vermillion
	color.RGBA{0x00, 0x72, 0xB2, 0xFF}, // blue
	color.RGBA{0xCC, 0x79, 0xA7, 0xFF}, // reddish purple
	color.RGBA{0xF0, 0xE4, 0x42, 0xFF}, // yellow
	color.RGBA{0x00, 0x00, 0x00, 0xFF}, // black
}

// Dashes are line patterns that tell apart series of one colour.
var Dashes = [][]vg.Length{
	nil,
	{vg.Points(6), vg.Points(3)},
	{vg.Points(1.5), vg.Points(2.5)},
	{vg.Points(7), vg.Points(2), vg.Points(1.5), vg.Points(2)},
	{vg.Points(2), vg.Points(5)},
	{vg.Points(10), vg.Points(3), vg.Points(2), vg.Points(3), vg.Points(2), vg.Points(3)},
}

// Style returns the colour and dash pattern of series i: the colours
// first, then each colour again with the next dash pattern, so that up to
// len(Palette)·len(Dashes) series are all distinct.
func Style(i int) (color.Color, []vg.Length) {
	return Palette[i%len(Palette)], Dashes[(i/len(Palette))%len(Dashes)]
}

// LineWidth is the width of a series' line, in points.
const LineWidth = 1.6

// Line returns the line through pts in series i's colour and dashes
// (Style) and LineWidth.
func Line(pts plotter.XYs, i int) (*plotter.Line, error) {
	l, err := plotter.NewLine(pts)
	if err != nil {
		return nil, err
	}
	l.Color, l.Dashes = Style(i)
	l.Width = vg.Points(LineWidth)
	return l, nil
}

// RoundTicks puts 4–10 major ticks at steps of 1, 2 or 5 × 10^k, labelled
// without trailing zeros.
type RoundTicks struct{}

// Ticks implements plot.Ticker.
func (RoundTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) || math.IsInf(hi-lo, 0) {
		return []plot.Tick{{Value: lo, Label: Label(lo)}}
	}
	raw := (hi - lo) / 6
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := 10 * mag
	for _, m := range []float64{1, 2, 5} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	var ticks []plot.Tick
	for k := math.Ceil(lo / step); k*step <= hi+step*1e-9; k++ {
		v := k * step // multiples, not a running sum: no drift
		if math.Abs(v) < step*1e-9 {
			v = 0
		}
		ticks = append(ticks, plot.Tick{Value: v, Label: Label(v)})
	}
	return ticks
}

// Label formats a tick value with as few digits as it needs.
func Label(v float64) string {
	return strconv.FormatFloat(math.Round(v*1e9)/1e9, 'f', -1, 64)
}

// New returns a plot with round ticks on both axes and a light grid.
func New(title, x, y string) *plot.Plot {
	p := plot.New()
	p.Title.Text, p.X.Label.Text, p.Y.Label.Text = title, x, y
	p.X.Tick.Marker, p.Y.Tick.Marker = RoundTicks{}, RoundTicks{}
	g := plotter.NewGrid()
	g.Vertical.Color, g.Horizontal.Color = color.Gray{Y: 225}, color.Gray{Y: 225}
	p.Add(g)
	return p
}

// A Legend is a plot.Legend that remembers how wide its widest entry is,
// so Save can give it the room it needs beside the data.
type Legend struct {
	plot.Legend
	width vg.Length // widest label
}

// NewLegend returns an empty legend in the plots' text style.
func NewLegend() *Legend {
	return &Legend{Legend: plot.NewLegend()}
}

// Add adds an entry (plot.Legend.Add) and records its width.
func (l *Legend) Add(label string, thumbs ...plot.Thumbnailer) {
	l.Legend.Add(label, thumbs...)
	l.width = max(l.width, l.TextStyle.Width(label))
}

// Width is the strip the legend needs: thumbnail, padding and the widest
// label.
func (l *Legend) Width() vg.Length {
	return l.ThumbnailWidth + 2*l.Padding + l.width + 4*vg.Millimeter
}

// Save draws p into a PNG of height h at path, with the legend to its
// right, outside the data: the plot area is plotWidth wide and the image
// as much wider as the legend needs.
func Save(path string, p *plot.Plot, legend *Legend, plotWidth, h vg.Length) error {
	lw := legend.Width()
	w := plotWidth + lw
	img := vgimg.New(w, h)
	dc := draw.New(img)
	p.Draw(draw.Crop(dc, 0, -lw, 0, 0))
	legend.Left, legend.Top = true, true
	legend.Legend.Draw(draw.Crop(dc, plotWidth+vg.Millimeter*2, 0, 0, -vg.Millimeter*8))
	return WritePNG(path, img)
}

// WritePNG writes img to path as a PNG; on a failed write it removes the
// partial file.
func WritePNG(path string, img *vgimg.Canvas) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(f); err != nil {
		f.Close()
		os.Remove(path)
		return err
	}
	return f.Close()
}

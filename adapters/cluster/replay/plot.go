package replay

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
)

// Plots writes two SVG plots into dir: outcomes.svg, deadlines met,
// missed and rejected per load for each configuration (repetition 1); and
// eta-CONFIG.svg for each configuration with the check, every waiting
// workload's predicted finish (p50, with a bar up to its p90) against its
// actual finish, seconds after the ETA was written, coloured by load.
func Plots(dir string, rs []Result) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var first []Result
	for _, r := range rs {
		if r.Rep == 1 {
			first = append(first, r)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "outcomes.svg"), []byte(outcomesSVG(first)), 0o644); err != nil {
		return err
	}
	for _, c := range []Config{Check, Schedkit} {
		var mine []Result
		for _, r := range first {
			if r.Config == c {
				mine = append(mine, r)
			}
		}
		if len(mine) == 0 {
			continue
		}
		if err := os.WriteFile(filepath.Join(dir, "eta-"+string(c)+".svg"), []byte(etaSVG(c, mine)), 0o644); err != nil {
			return err
		}
	}
	return nil
}

var palette = []string{"#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e", "#e6ab02"}

func svgHead(b *strings.Builder, w, h int, title string) {
	fmt.Fprintf(b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="12">`+"\n", w, h)
	fmt.Fprintf(b, `<rect width="%d" height="%d" fill="white"/><text x="%d" y="20" text-anchor="middle" font-size="14">%s</text>`+"\n", w, h, w/2, title)
}

// outcomesSVG: one group of bars per load, one stacked bar per
// configuration (met, missed, rejected, bottom to top).
func outcomesSVG(rs []Result) string {
	ls := loads(rs)
	var cs []Config
	maxJobs := 1
	for _, r := range rs {
		if !containsC(cs, r.Config) {
			cs = append(cs, r.Config)
		}
		maxJobs = max(maxJobs, r.Jobs)
	}
	const left, top, plotH, barW, gap = 60, 40, 300, 28, 30
	w := left + len(ls)*(len(cs)*barW+gap) + 160
	var b strings.Builder
	svgHead(&b, w, top+plotH+60, "Deadlines met, missed and rejected by load")
	y := func(n float64) float64 { return top + plotH - n/float64(maxJobs)*plotH }
	fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>`+"\n", left, top, left, top+plotH)
	for _, t := range ticks(float64(maxJobs)) {
		fmt.Fprintf(&b, `<text x="%d" y="%.1f" text-anchor="end">%g</text>`+"\n", left-5, y(t)+4, t)
	}
	fmt.Fprintf(&b, `<text x="15" y="%d" transform="rotate(-90 15 %d)" text-anchor="middle">jobs</text>`+"\n", top+plotH/2, top+plotH/2)
	colors := []string{"#1b9e77", "#d95f02", "#999999"}
	for li, l := range ls {
		x0 := left + 10 + li*(len(cs)*barW+gap)
		for ci, c := range cs {
			for _, r := range rs {
				if r.Load != l || r.Config != c {
					continue
				}
				x := x0 + ci*barW
				base := 0.0
				for k, n := range []int{r.Met, r.Missed, r.Rejected} {
					fmt.Fprintf(&b, `<rect x="%d" y="%.1f" width="%d" height="%.1f" fill="%s" stroke="white"/>`+"\n",
						x, y(base+float64(n)), barW-2, y(base)-y(base+float64(n)), colors[k])
					base += float64(n)
				}
				fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="end" transform="rotate(-45 %d %d)" font-size="10">%s</text>`+"\n",
					x+barW/2, top+plotH+12, x+barW/2, top+plotH+12, c)
			}
		}
		fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle">load %s</text>`+"\n", x0+len(cs)*barW/2, top+plotH+50, l)
	}
	lx := w - 140
	for k, name := range []string{"met", "missed", "rejected"} {
		fmt.Fprintf(&b, `<rect x="%d" y="%d" width="12" height="12" fill="%s"/><text x="%d" y="%d">%s</text>`+"\n",
			lx, top+k*20, colors[k], lx+18, top+k*20+11, name)
	}
	b.WriteString("</svg>\n")
	return b.String()
}

// etaSVG: predicted finish p50 (dot) and p90 (bar top) against the actual
// finish, both in seconds after the ETA was written, with the diagonal.
func etaSVG(c Config, rs []Result) string {
	type pt struct{ actual, p50, p90 float64 }
	pts := make([][]pt, len(rs))
	hi := 1.0
	for i, r := range rs {
		for _, o := range r.Outcomes {
			if o.ETA == nil || o.Admitted.IsZero() || o.Finished.IsZero() {
				continue
			}
			p := pt{o.Finished.Sub(o.ETA.Seen).Seconds(), o.ETA.FinishP50.Sub(o.ETA.Seen).Seconds(), o.ETA.FinishP90.Sub(o.ETA.Seen).Seconds()}
			pts[i] = append(pts[i], p)
			hi = max(hi, p.actual, p.p90)
		}
	}
	const left, top, size = 60, 40, 360
	var b strings.Builder
	svgHead(&b, left+size+140, top+size+50, fmt.Sprintf("ETA at submission vs actual finish (%s)", c))
	sx := func(v float64) float64 { return left + math.Max(v, 0)/hi*size }
	sy := func(v float64) float64 { return top + size - math.Max(v, 0)/hi*size }
	fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="black"/>`+"\n", left, top, size, size)
	fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#888" stroke-dasharray="4"/>`+"\n", sx(0), sy(0), sx(hi), sy(hi))
	for _, t := range ticks(hi) {
		fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="middle">%g</text>`+"\n", sx(t), top+size+15, t)
		fmt.Fprintf(&b, `<text x="%d" y="%.1f" text-anchor="end">%g</text>`+"\n", left-5, sy(t)+4, t)
	}
	fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle">actual finish, s after the ETA</text>`+"\n", left+size/2, top+size+35)
	fmt.Fprintf(&b, `<text x="15" y="%d" transform="rotate(-90 15 %d)" text-anchor="middle">predicted finish p50 (dot) … p90 (bar), s</text>`+"\n", top+size/2, top+size/2)
	for i, r := range rs {
		col := palette[i%len(palette)]
		for _, p := range pts[i] {
			fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-opacity="0.5"/>`+"\n", sx(p.actual), sy(p.p50), sx(p.actual), sy(p.p90), col)
			fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="2.5" fill="%s"/>`+"\n", sx(p.actual), sy(p.p50), col)
		}
		fmt.Fprintf(&b, `<circle cx="%d" cy="%d" r="4" fill="%s"/><text x="%d" y="%d">load %s: p90 covers %s</text>`+"\n",
			left+size+15, top+10+i*20, col, left+size+25, top+14+i*20, r.Load, pct(r.ETA.FinishCover90))
	}
	b.WriteString("</svg>\n")
	return b.String()
}

// ticks returns about five round values in [0, hi].
func ticks(hi float64) []float64 {
	step := math.Pow(10, math.Floor(math.Log10(hi/5)))
	for _, m := range []float64{1, 2, 5, 10} {
		if hi/(step*m) <= 6 {
			step *= m
			break
		}
	}
	var out []float64
	for v := 0.0; v <= hi+1e-9; v += step {
		out = append(out, v)
	}
	return out
}

func containsC(cs []Config, c Config) bool {
	for _, x := range cs {
		if x == c {
			return true
		}
	}
	return false
}

package replay

import (
	"fmt"
	"io"
	"math"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// Margin is the deadlines a configuration met beyond stock's in one
// repetition at one load (the same submissions): its Jobs met less
// stock's.
func (c Comparison) Margin() int {
	return c.StockMissedMet - c.StockMetRejected - c.StockMetMissed
}

// A Margin summarizes, for one load and configuration, the deadlines it
// met beyond stock's over the repetitions: each repetition's margin
// (Comparison.Margin), their mean, and Student's t intervals of the mean
// (the repetitions taken as independent draws of one margin): the
// two-sided 95 % interval [Low95, High95] and the one-sided 95 % lower
// bound Lower95 (the mean is above it with 95 % confidence, the test of
// "meets more than stock"). With one repetition the bounds are NaN.
type Margin struct {
	Load   string
	Config Config
	// Reps holds each repetition's margin, in the comparisons' order.
	Reps []int
	// Mean is their mean, SD their sample standard deviation (n − 1).
	Mean, SD float64
	// Low95 and High95 bound the two-sided 95 % interval of the mean,
	// Lower95 the one-sided: Mean ∓ t(n−1) quantile × SD/√n.
	Low95, High95, Lower95 float64
}

// Margins groups comparisons by load and configuration, in their first
// order, and summarizes each group's margins.
func Margins(cs []Comparison) []Margin {
	var out []Margin
	for _, g := range groupByLoadConfig(cs, func(c Comparison) (string, Config) { return c.Load, c.Config }) {
		m := Margin{Load: g[0].Load, Config: g[0].Config}
		for _, c := range g {
			m.Reps = append(m.Reps, c.Margin())
		}
		m.summarize()
		out = append(out, m)
	}
	return out
}

// summarize sets the mean, the sample standard deviation and the t
// intervals of m.Reps.
func (m *Margin) summarize() {
	xs := make([]float64, len(m.Reps))
	for i, d := range m.Reps {
		xs[i] = float64(d)
	}
	m.Mean = stat.Mean(xs, nil)
	m.SD, m.Low95, m.High95, m.Lower95 = math.NaN(), math.NaN(), math.NaN(), math.NaN()
	if len(xs) < 2 {
		return
	}
	n := float64(len(xs))
	m.SD = stat.StdDev(xs, nil)
	se := m.SD / math.Sqrt(n)
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: n - 1}
	h := t.Quantile(0.975) * se
	m.Low95, m.High95 = m.Mean-h, m.Mean+h
	m.Lower95 = m.Mean - t.Quantile(0.95)*se
}

// MarginTable writes one row per margin: each repetition's, the mean and
// its intervals.
func MarginTable(w io.Writer, ms []Margin) {
	if len(ms) == 0 {
		return
	}
	fmt.Fprintf(w, "\ndeadlines met beyond stock (same load and repetition), mean with Student's t 95 %% intervals:\n%5s %9s %4s %6s %5s %17s %14s  %s\n",
		"load", "config", "reps", "mean", "sd", "two-sided 95 %", "lower, 95 %", "each repetition")
	for _, m := range ms {
		fmt.Fprintf(w, "%5s %9s %4d %+6.1f %5s %17s %14s  %v\n", m.Load, m.Config, len(m.Reps), m.Mean,
			num(m.SD, "%.1f"), interval(m.Low95, m.High95), num(m.Lower95, "%+.1f"), signed(m.Reps))
	}
}

func num(x float64, f string) string {
	if math.IsNaN(x) {
		return "-"
	}
	return fmt.Sprintf(f, x)
}

func interval(lo, hi float64) string {
	if math.IsNaN(lo) {
		return "-"
	}
	return fmt.Sprintf("%+.1f to %+.1f", lo, hi)
}

func signed(ds []int) string {
	s := ""
	for i, d := range ds {
		if i > 0 {
			s += " "
		}
		s += fmt.Sprintf("%+d", d)
	}
	return s
}

package replay

import (
	"math"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// The eight 2× runs of the KTH window with EDF in Kueue's queue
// (README): schedkit met +2, +14, −1, +5, −3, +3, +4, +6 beyond stock.
// By hand: mean 3.75; squares of the deviations 183.5, SD √(183.5/7) =
// 5.1200, SE 5.1200/√8 = 1.8102; t(7) quantiles 2.3646 (0.975) and
// 1.8946 (0.95): two-sided 3.75 ∓ 4.2805 = −0.53 to 8.03, one-sided
// 3.75 − 3.4296 = 0.32.
func TestMarginsHandWorked(t *testing.T) {
	var cs []Comparison
	for i, d := range []int{2, 14, -1, 5, -3, 3, 4, 6} {
		// A margin d made of Jobs stock missed that schedkit met, less
		// one stock met that it rejected and one it missed.
		cs = append(cs, Comparison{Rep: i + 1, Load: "2×", Config: Schedkit, StockMetMet: 100, StockMissedMet: d + 2, StockMetRejected: 1, StockMetMissed: 1})
	}
	cs = append(cs, Comparison{Rep: 1, Load: "1×", Config: Check, StockMetRejected: 4, StockMissedMet: 1})
	ms := Margins(cs)
	if len(ms) != 2 || ms[0].Load != "2×" || ms[0].Config != Schedkit || ms[1].Config != Check {
		t.Fatalf("Margins grouped as %+v", ms)
	}
	m := ms[0]
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"Mean", m.Mean, 3.75}, {"SD", m.SD, 5.1200}, {"Low95", m.Low95, -0.5305},
		{"High95", m.High95, 8.0305}, {"Lower95", m.Lower95, 0.3204},
	} {
		if math.Abs(c.got-c.want) > 5e-4 {
			t.Errorf("%s = %.4f, want %.4f", c.name, c.got, c.want)
		}
	}
	one := ms[1]
	if one.Mean != -3 || len(one.Reps) != 1 || !math.IsNaN(one.SD) || !math.IsNaN(one.Low95) || !math.IsNaN(one.Lower95) {
		t.Errorf("one repetition: %+v, want mean −3 and NaN bounds", one)
	}
	var b strings.Builder
	MarginTable(&b, ms)
	for _, want := range []string{
		"   2×  schedkit    8   +3.8   5.1      -0.5 to +8.0           +0.3  +2 +14 -1 +5 -3 +3 +4 +6",
		"   1×     check    1   -3.0     -                 -              -  -3",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("MarginTable lacks %q:\n%s", want, b.String())
		}
	}
}

// A comparison's margin is its configuration's deadlines met less
// stock's, and the intervals lie around the mean in order.
func TestPropMargins(t *testing.T) { rapid.Check(t, propMargins) }

func FuzzMargins(f *testing.F) { f.Fuzz(rapid.MakeFuzz(propMargins)) }

func propMargins(t *rapid.T) {
	{
		kinds := []string{"met", "missed", "rejected"}
		n := rapid.IntRange(1, 30).Draw(t, "jobs")
		reps := rapid.IntRange(1, 6).Draw(t, "reps")
		var rs []Result
		var want []int
		for rep := 1; rep <= reps; rep++ {
			stock, sk := make([]string, n), make([]string, n)
			met := 0
			for i := range n {
				stock[i] = rapid.SampledFrom(kinds[:2]).Draw(t, "stock")
				sk[i] = rapid.SampledFrom(kinds).Draw(t, "schedkit")
				if sk[i] == "met" {
					met++
				}
				if stock[i] == "met" {
					met--
				}
			}
			want = append(want, met)
			rs = append(rs, Result{Config: Stock, Rep: rep, Load: "2×", Outcomes: outcomes(stock...)},
				Result{Config: Schedkit, Rep: rep, Load: "2×", Outcomes: outcomes(sk...)})
		}
		ms := Margins(Compare(rs))
		if len(ms) != 1 {
			t.Fatalf("%d margins, want 1", len(ms))
		}
		m := ms[0]
		for i, d := range m.Reps {
			if d != want[i] {
				t.Fatalf("rep %d: margin %d, want met − stock met = %d", i+1, d, want[i])
			}
		}
		if reps == 1 {
			if !math.IsNaN(m.Low95) {
				t.Fatalf("one repetition gave bounds %+v", m)
			}
			return
		}
		if !(m.Low95 <= m.Lower95 && m.Lower95 <= m.Mean && m.Mean <= m.High95) || math.Abs(m.Mean-m.Low95-(m.High95-m.Mean)) > 1e-9 {
			t.Fatalf("bounds out of order or not symmetric: %+v", m)
		}
	}
}

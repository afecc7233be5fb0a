package deadlinecheck

import (
	"math"
	"slices"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// delaysOf returns finished observations with the given delays in seconds
// and running ones (lower bounds) with the delays in running.
func delaysOf(finished, running []float64) []DelayObservation {
	var obs []DelayObservation
	for i, d := range finished {
		obs = append(obs, DelayObservation{Finished: time.Unix(int64(i), 0), Delay: time.Duration(d * float64(time.Second))})
	}
	for i, d := range running {
		obs = append(obs, DelayObservation{Finished: time.Unix(int64(100+i), 0), Delay: time.Duration(d * float64(time.Second)), Running: true})
	}
	return obs
}

// TestDelayDraws works the draws by hand. Delays 1…10 s: type-7 quantile
// at u is 1 + 9u. n = 1: u = ½ → 5.5. n = 2: u = ¼ → 3.25, u = ¾ → 7.75.
// A running lower bound of 21 s joins the distribution (1…10, 21: at u =
// ½, h = 5 → 6) but not the count of finished ones: with 9 finished there
// are no draws.
func TestDelayDraws(t *testing.T) {
	one := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	for _, tt := range []struct {
		name              string
		finished, running []float64
		n                 int
		want              []float64
	}{
		{"median", one, nil, 1, []float64{5.5}},
		{"quartiles", one, nil, 2, []float64{3.25, 7.75}},
		{"running late counts", one, []float64{21}, 1, []float64{6}},
		{"too few finished", one[:9], []float64{21}, 2, nil},
		{"no samples", one, nil, 0, nil},
	} {
		got, err := delayDraws(delaysOf(tt.finished, tt.running), tt.n)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if !slices.EqualFunc(got, tt.want, func(a, b float64) bool { return math.Abs(a-b) < 1e-9 }) || (got == nil) != (tt.want == nil) {
			t.Errorf("%s: draws %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestETADelayTimes works T = own − max(D − E, 0) + max(δ − E, 0) by
// hand with D = 30 s, draws δ = 5 and 15 s, decision samples own = 40 and
// 50 s (run 10 and 20 s plus D).
func TestETADelayTimes(t *testing.T) {
	e := etaDelay{decided: 30, draws: []float64{5, 15}}
	own := []float64{40, 50}
	for _, tt := range []struct {
		executed float64
		want     []float64
	}{
		{0, []float64{15, 35}},  // waiting: run + δ
		{10, []float64{20, 35}}, // admitted 10 s ago: own less the 20 s of D ahead (20, 30), plus δ − 10 (0, 5)
		{40, []float64{40, 50}}, // admitted past D and δ: own as it is
	} {
		if got := e.times(own, tt.executed); !slices.Equal(got, tt.want) {
			t.Errorf("executed %v: %v, want %v", tt.executed, got, tt.want)
		}
	}
	if got := (etaDelay{decided: 30}).times(own, 0); !slices.Equal(got, own) {
		t.Errorf("without draws: %v, want own %v", got, own)
	}
}

// TestETAFinishQuantiles: one workload waiting alone on an empty quota,
// an exact run time of 100 s, D = 30 s in its decision samples, and the
// learnt delays 1…10 s. It starts now; its finish p50 is 100 + 5.5 s (the
// delays' median: over 1,000 stratified draws the type-7 median is the
// mean of draws 499 and 500, 5.4955 and 5.5045), rounded to 106 s; its
// p90 100 + 9.0964 s (draw 899 plus a tenth of the step to draw 900,
// 9.0955 + 0.0009), 109 s. The decision's delay alone would give 130 s
// for both.
func TestETAFinishQuantiles(t *testing.T) {
	const n = 1000
	now := time.Unix(1_000_000, 0)
	own := make([]float64, n)
	for s := range own {
		own[s] = 130
	}
	ws := []Workload{{Key: "ns/a", UID: "a", Phase: Waiting, Pods: 1, Slots: 4, Deadline: now.Add(time.Hour)}}
	for _, tt := range []struct {
		name     string
		delay    etaDelay
		p50, p90 time.Duration
	}{
		{"learnt delays", etaDelay{decided: 30, draws: mustDraws(t, n)}, 106 * time.Second, 109 * time.Second},
		{"decision's delay", etaDelay{decided: 30}, 130 * time.Second, 130 * time.Second},
	} {
		outs := make([]Outcome, 1)
		if err := etas(Queue{Name: "cq"}, ws, []*work{{own: own}}, outs, now, n, tt.delay); err != nil {
			t.Fatal(err)
		}
		e := outs[0].ETA
		if e == nil {
			t.Fatalf("%s: no ETA", tt.name)
		}
		if !e.StartP50.Equal(now) || e.FinishP50.Sub(now) != tt.p50 || e.FinishP90.Sub(now) != tt.p90 {
			t.Errorf("%s: start %v, finish p50 +%v p90 +%v; want start now, +%v, +%v", tt.name, e.StartP50.Sub(now), e.FinishP50.Sub(now), e.FinishP90.Sub(now), tt.p50, tt.p90)
		}
	}
}

func mustDraws(t *testing.T, n int) []float64 {
	t.Helper()
	d, err := delayDraws(delaysOf([]float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, nil), n)
	if err != nil || d == nil {
		t.Fatalf("draws %v, %v", d, err)
	}
	return d
}

func TestPropETADelay(t *testing.T) { rapid.Check(t, propETADelay) }

// propETADelay: the draws are ascending, within the observed delays, and
// with n odd their middle one is the delays' median; T is never negative,
// is own itself when every draw equals D, and grows with the draws.
func propETADelay(t *rapid.T) {
	k := rapid.IntRange(MinDelayObservations, 40).Draw(t, "observations")
	xs := make([]float64, k)
	for i := range xs {
		xs[i] = float64(rapid.IntRange(0, 120_000).Draw(t, "delay ms")) / 1000
	}
	n := 2*rapid.IntRange(0, 50).Draw(t, "half samples") + 1
	draws, err := delayDraws(delaysOf(xs, nil), n)
	if err != nil || len(draws) != n {
		t.Fatalf("draws %v, %v", draws, err)
	}
	if !slices.IsSorted(draws) || draws[0] < slices.Min(xs)-1e-9 || draws[n-1] > slices.Max(xs)+1e-9 {
		t.Fatalf("draws %v not ascending within [%v, %v]", draws, slices.Min(xs), slices.Max(xs))
	}
	sorted := slices.Sorted(slices.Values(xs))
	h := float64(k-1) / 2
	median := sorted[int(h)] + (h-math.Floor(h))*(sorted[min(int(h)+1, k-1)]-sorted[int(h)])
	if math.Abs(draws[n/2]-median) > 1e-6 {
		t.Fatalf("middle draw %v, median %v", draws[n/2], median)
	}
	d := float64(rapid.IntRange(0, 3600).Draw(t, "D"))
	executed := float64(rapid.IntRange(0, 7200).Draw(t, "executed"))
	own := make([]float64, n)
	for s := range own {
		own[s] = float64(rapid.IntRange(0, 10_000).Draw(t, "run")) + max(d-executed, 0)
	}
	same := make([]float64, n)
	for s := range same {
		same[s] = d
	}
	if got := (etaDelay{decided: d, draws: same}).times(own, executed); !slices.EqualFunc(got, own, func(a, b float64) bool { return math.Abs(a-b) < 1e-9 }) {
		t.Fatalf("draws all D: %v, want own %v", got, own)
	}
	lo := (etaDelay{decided: d, draws: draws}).times(own, executed)
	more := slices.Clone(draws)
	for s := range more {
		more[s] += float64(rapid.IntRange(0, 100).Draw(t, "more"))
	}
	hi := (etaDelay{decided: d, draws: more}).times(own, executed)
	for s := range lo {
		if lo[s] < 0 || hi[s] < lo[s] {
			t.Fatalf("sample %d: T %v with the draws, %v with larger ones", s, lo[s], hi[s])
		}
	}
}

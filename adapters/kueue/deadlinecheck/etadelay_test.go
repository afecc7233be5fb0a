package deadlinecheck

import (
	"math"
	"slices"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// delaysOf returns finished observations with the given delays in seconds
// and running ones (lower bounds) with the delays in running; each takes
// decide and admit seconds from QuotaReserved to Ready and Ready to
// Admitted.
func delaysOf(finished, running []float64, decide, admit float64) []DelayObservation {
	sec := func(x float64) time.Duration { return time.Duration(x * float64(time.Second)) }
	var obs []DelayObservation
	for i, d := range finished {
		obs = append(obs, DelayObservation{Finished: time.Unix(int64(i), 0), Delay: sec(d), Decide: sec(decide), Admit: sec(admit)})
	}
	for i, d := range running {
		obs = append(obs, DelayObservation{Finished: time.Unix(int64(100+i), 0), Delay: sec(d), Running: true, Decide: sec(decide), Admit: sec(admit)})
	}
	return obs
}

func near(a, b []float64) bool {
	return (a == nil) == (b == nil) && slices.EqualFunc(a, b, func(x, y float64) bool { return math.Abs(x-y) < 1e-9 })
}

// TestDelayDraws works the draws by hand. Delays 1…10 s: the type-7
// quantile at u is 1 + 9u. n = 1: u = ½ → 5.5. n = 2: u = ¼ → 3.25,
// u = ¾ → 7.75. With 2 s from QuotaReserved to Ready and 1 s from Ready
// to Admitted on each, wait is 2 s more than δ and lead 3 s. A running
// lower bound of 21 s joins the distribution (1…10, 21: at u = ½, h = 5
// → 6) but not the count of finished ones: with 9 finished there are no
// draws.
func TestDelayDraws(t *testing.T) {
	one := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	for _, tt := range []struct {
		name              string
		finished, running []float64
		decide, admit     float64
		n                 int
		ready, wait, lead []float64
	}{
		{"median", one, nil, 0, 0, 1, []float64{5.5}, []float64{5.5}, []float64{0}},
		{"quartiles", one, nil, 0, 0, 2, []float64{3.25, 7.75}, []float64{3.25, 7.75}, []float64{0, 0}},
		{"decide and admit", one, nil, 2, 1, 2, []float64{3.25, 7.75}, []float64{5.25, 9.75}, []float64{3, 3}},
		{"running late counts", one, []float64{21}, 0, 0, 1, []float64{6}, []float64{6}, []float64{0}},
		{"too few finished", one[:9], []float64{21}, 0, 0, 2, nil, nil, nil},
		{"no samples", one, nil, 0, 0, 0, nil, nil, nil},
	} {
		e, err := delayDraws(delaysOf(tt.finished, tt.running, tt.decide, tt.admit), nil, tt.n, 30)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if e.decided != 30 || !near(e.ready, tt.ready) || !near(e.wait, tt.wait) || !near(e.leads, tt.lead) {
			t.Errorf("%s: %+v, want δ %v, wait %v, lead %v", tt.name, e, tt.ready, tt.wait, tt.lead)
		}
	}
}

// TestDelayDrawsWaited works the draws of a pending workload by hand:
// delays 1…10 s on every observation, 11…20 s on those that waited (each
// with 1 s from QuotaReserved to Ready and 1 s to Admitted; the others
// none). n = 2: δ at u = ¼, ¾ of 1…10 is 3.25 and 7.75; wait of 11…20
// is 13.25 and 17.75, plus the 1 s from QuotaReserved, lead 2 s. With
// nine finished that waited (and one running), the wait is drawn from
// all.
func TestDelayDrawsWaited(t *testing.T) {
	one := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	waited := delaysOf([]float64{11, 12, 13, 14, 15, 16, 17, 18, 19, 20}, nil, 1, 1)
	for _, tt := range []struct {
		name              string
		waited            []DelayObservation
		ready, wait, lead []float64
	}{
		{"ten waited", waited, []float64{3.25, 7.75}, []float64{14.25, 18.75}, []float64{2, 2}},
		{"nine waited", delaysOf(one[:9], []float64{20}, 1, 1), []float64{3.25, 7.75}, []float64{3.25, 7.75}, []float64{0, 0}},
		{"none", nil, []float64{3.25, 7.75}, []float64{3.25, 7.75}, []float64{0, 0}},
	} {
		e, err := delayDraws(delaysOf(one, nil, 0, 0), tt.waited, 2, 30)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if !near(e.ready, tt.ready) || !near(e.wait, tt.wait) || !near(e.leads, tt.lead) {
			t.Errorf("%s: %+v, want δ %v, wait %v, lead %v", tt.name, e, tt.ready, tt.wait, tt.lead)
		}
	}
}

// TestETADelayTimes works T by hand with D = 30 s, δ = 5 and 15 s, wait
// = 7 and 17 s, and decision samples own = 40 and 50 s (run 10 and 20 s
// plus D).
func TestETADelayTimes(t *testing.T) {
	e := etaDelay{decided: 30, ready: []float64{5, 15}, wait: []float64{7, 17}, leads: []float64{3, 3}}
	own := []float64{40, 50}
	for _, tt := range []struct {
		executed float64
		pending  bool
		want     []float64
	}{
		{0, true, []float64{17, 37}},   // waiting: run + wait
		{0, false, []float64{15, 35}},  // Ready, not yet admitted: run + δ
		{10, false, []float64{20, 35}}, // admitted 10 s ago: own less the 20 s of D ahead (20, 30), plus δ − 10 (0, 5)
		{40, false, []float64{40, 50}}, // admitted past D and δ: own as it is
	} {
		if got := e.times(own, tt.executed, tt.pending); !slices.Equal(got, tt.want) {
			t.Errorf("executed %v, pending %v: %v, want %v", tt.executed, tt.pending, got, tt.want)
		}
	}
	if got := (etaDelay{decided: 30}).times(own, 0, true); !slices.Equal(got, own) || (etaDelay{}).lead(1) != 0 {
		t.Errorf("without draws: %v, want own %v and no lead", got, own)
	}
}

// TestETAFinishQuantiles: one workload waiting alone on an empty quota,
// an exact run time of 100 s, D = 30 s in its decision samples, and the
// learnt delays 1…10 s, each workload decided 2 s after getting quota
// and admitted 1 s after the check's Ready. It gets quota now and is
// admitted 3 s later (start p50 = p90); its finish p50 is 100 + 2 + 5.5 s
// (over 1,000 stratified draws the type-7 median is the mean of draws 499
// and 500, 5.4955 and 5.5045), rounded to 108 s; its p90 100 + 2 +
// 9.0964 s (draw 899 plus a tenth of the step to draw 900, 9.0955 +
// 0.0009), rounded up (a p90 is an upper bound) to 112 s. The
// decision's delay alone gives a start now and 130 s for both.
func TestETAFinishQuantiles(t *testing.T) {
	const n = 1000
	now := time.Unix(1_000_000, 0)
	own := make([]float64, n)
	for s := range own {
		own[s] = 130
	}
	learnt, err := delayDraws(delaysOf([]float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, nil, 2, 1), nil, n, 30)
	if err != nil {
		t.Fatal(err)
	}
	ws := []Workload{{Key: "ns/a", UID: "a", Phase: Waiting, Pods: 1, Slots: 4, Deadline: now.Add(time.Hour)}}
	for _, tt := range []struct {
		name            string
		delay           etaDelay
		start, p50, p90 time.Duration
	}{
		{"learnt delays", learnt, 3 * time.Second, 108 * time.Second, 112 * time.Second},
		{"decision's delay", etaDelay{decided: 30}, 0, 130 * time.Second, 130 * time.Second},
	} {
		outs := make([]Outcome, 1)
		if err := etas(Queue{Name: "cq"}, ws, []*work{{own: own}}, outs, now, n, 0.9, tt.delay, arrivalInput{}, nil); err != nil {
			t.Fatal(err)
		}
		e := outs[0].ETA
		if e == nil {
			t.Fatalf("%s: no ETA", tt.name)
		}
		if e.StartP50.Sub(now) != tt.start || e.StartP90.Sub(now) != tt.start || e.FinishP50.Sub(now) != tt.p50 || e.FinishP90.Sub(now) != tt.p90 {
			t.Errorf("%s: start +%v/+%v, finish p50 +%v p90 +%v; want start +%v, +%v, +%v", tt.name, e.StartP50.Sub(now), e.StartP90.Sub(now),
				e.FinishP50.Sub(now), e.FinishP90.Sub(now), tt.start, tt.p50, tt.p90)
		}
	}
}

func TestPropETADelay(t *testing.T) { rapid.Check(t, propETADelay) }

// propETADelay: δ and wait are ascending, δ within the observed delays,
// and with n odd the middle δ is the delays' median; every lead is within
// the observed Decide + Admit; T is never negative, is own itself when
// every draw equals D, and grows with the draws.
func propETADelay(t *rapid.T) {
	k := rapid.IntRange(MinDelayObservations, 40).Draw(t, "observations")
	obs := make([]DelayObservation, k)
	xs := make([]float64, k)
	leads := make([]float64, k)
	for i := range obs {
		ms := func(label string) time.Duration {
			return time.Duration(rapid.IntRange(0, 120_000).Draw(t, label)) * time.Millisecond
		}
		obs[i] = DelayObservation{Finished: time.Unix(int64(i), 0), Delay: ms("delay"), Decide: ms("decide"), Admit: ms("admit")}
		xs[i], leads[i] = obs[i].Delay.Seconds(), (obs[i].Decide + obs[i].Admit).Seconds()
	}
	n := 2*rapid.IntRange(0, 50).Draw(t, "half samples") + 1
	d := float64(rapid.IntRange(0, 3600).Draw(t, "D"))
	e, err := delayDraws(obs, nil, n, d)
	if err != nil || len(e.ready) != n || len(e.wait) != n || len(e.leads) != n {
		t.Fatalf("draws %+v, %v", e, err)
	}
	if !slices.IsSorted(e.ready) || !slices.IsSorted(e.wait) || e.ready[0] < slices.Min(xs)-1e-9 || e.ready[n-1] > slices.Max(xs)+1e-9 {
		t.Fatalf("draws %v / %v not ascending, or δ outside [%v, %v]", e.ready, e.wait, slices.Min(xs), slices.Max(xs))
	}
	for _, l := range e.leads {
		if l < slices.Min(leads)-1e-9 || l > slices.Max(leads)+1e-9 {
			t.Fatalf("lead %v outside [%v, %v]", l, slices.Min(leads), slices.Max(leads))
		}
	}
	sorted := slices.Sorted(slices.Values(xs))
	h := float64(k-1) / 2
	median := sorted[int(h)] + (h-math.Floor(h))*(sorted[min(int(h)+1, k-1)]-sorted[int(h)])
	if math.Abs(e.ready[n/2]-median) > 1e-6 {
		t.Fatalf("middle δ %v, median %v", e.ready[n/2], median)
	}
	executed := float64(rapid.IntRange(0, 7200).Draw(t, "executed"))
	pending := rapid.Bool().Draw(t, "pending")
	own := make([]float64, n)
	same := make([]float64, n)
	for s := range own {
		own[s] = float64(rapid.IntRange(0, 10_000).Draw(t, "run")) + max(d-executed, 0)
		same[s] = d
	}
	if got := (etaDelay{decided: d, ready: same, wait: same, leads: same}).times(own, executed, pending); !near(got, own) {
		t.Fatalf("draws all D: %v, want own %v", got, own)
	}
	lo := e.times(own, executed, pending)
	more := etaDelay{decided: d, ready: slices.Clone(e.ready), wait: slices.Clone(e.wait), leads: e.leads}
	for s := range n {
		x := float64(rapid.IntRange(0, 100).Draw(t, "more"))
		more.ready[s] += x
		more.wait[s] += x
	}
	hi := more.times(own, executed, pending)
	for s := range lo {
		if lo[s] < 0 || hi[s] < lo[s] {
			t.Fatalf("sample %d: T %v with the draws, %v with larger ones", s, lo[s], hi[s])
		}
	}
}

package edf

import (
	"errors"
	"math"
	"testing"

	"pgregory.net/rapid"
)

// ratios is a test ErrorDistribution: its mean and one quantile for every p
// (or an error).
type ratios struct {
	mean, q float64
	err     error
}

func (d ratios) Mean() float64 { return d.mean }

func (d ratios) Quantile(float64) (float64, error) { return d.q, d.err }

// TestErrorAt: MIMP §6.3.1's errors as the case study draws them have
// E[ν] ≈ 1.075 and 0.97-quantile ≈ 2.175, so Spread ≈ 1.1; a quantile
// below the mean gives Spread 0; an exact model gives {1, 0}.
func TestErrorAt(t *testing.T) {
	for _, c := range []struct {
		name string
		d    ErrorDistribution
		p    float64
		want TCTError
	}{
		{"paper-sized errors", ratios{mean: 1.075, q: 2.175}, 0.97, TCTError{Mean: 1.075, Spread: 1.1}},
		{"quantile below the mean", ratios{mean: 1.2, q: 0.9}, 0.3, TCTError{Mean: 1.2}},
		{"exact model", ratios{mean: 1, q: 1}, 0.97, TCTError{Mean: 1}},
		{"pointer", &ratios{mean: 2, q: 3}, 1, TCTError{Mean: 2, Spread: 1}},
	} {
		got, err := ErrorAt(c.d, c.p)
		if err != nil || !near(got.Mean, c.want.Mean) || !near(got.Spread, c.want.Spread) {
			t.Errorf("%s: ErrorAt = %+v, %v; want %+v", c.name, got, err, c.want)
		}
		if err := (MPOptions{TCTError: got}).TCTError.check(); err != nil {
			t.Errorf("%s: MP refuses ErrorAt's %+v: %v", c.name, got, err)
		}
	}
}

func TestErrorAtBadInput(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	var nilPtr *ratios
	for _, c := range []struct {
		name  string
		d     ErrorDistribution
		p     float64
		field string
	}{
		{"nil", nil, 0.9, "ErrorDistribution"},
		{"typed nil pointer", nilPtr, 0.9, "ErrorDistribution"},
		{"p NaN", ratios{mean: 1, q: 1}, nan, "p"},
		{"p below 0", ratios{mean: 1, q: 1}, -0.1, "p"},
		{"p above 1", ratios{mean: 1, q: 1}, 1.1, "p"},
		{"mean 0", ratios{mean: 0, q: 1}, 0.9, "Mean()"},
		{"mean negative", ratios{mean: -1, q: 1}, 0.9, "Mean()"},
		{"mean NaN", ratios{mean: nan, q: 1}, 0.9, "Mean()"},
		{"mean +Inf", ratios{mean: inf, q: 1}, 0.9, "Mean()"},
		{"quantile fails", ratios{mean: 1, err: errNoSamples}, 0.9, "Quantile(p)"},
		{"quantile NaN", ratios{mean: 1, q: nan}, 0.9, "Quantile(p)"},
		{"quantile +Inf", ratios{mean: 1, q: inf}, 1, "Quantile(p)"},
		{"quantile negative", ratios{mean: 1, q: -1}, 0.9, "Quantile(p)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := ErrorAt(c.d, c.p)
			var ve *ValueError
			if !errors.Is(err, ErrBadInput) || !errors.As(err, &ve) || ve.Field != c.field || got != (TCTError{}) {
				t.Fatalf("ErrorAt = %+v, %v; want a *ValueError for %q", got, err, c.field)
			}
			if r, ok := c.d.(ratios); ok && r.err != nil && !errors.Is(err, r.err) {
				t.Errorf("ErrorAt's error %v does not wrap the distribution's %v", err, r.err)
			}
		})
	}
}

// errNoSamples is a distribution's own error, which ErrorAt wraps.
var errNoSamples = errors.New("no samples")

// TestMPTCTErrorByHand works both uses of TCTError{Mean: 1.5, Spread: 2}
// by hand.
//
// At-risk test: a job of TCT 10 s with 4 pending and 2 running tasks on
// dedicated slots (rate 0.2 tasks/s) and 60 s left completes 12 tasks by
// Eq. 3, against 6 remaining: on track for MIMP; cover(6) = 6·1.5 + √6·2 =
// 13.9 > 12: at risk. With 100 s left it completes 20 > 13.9: on track.
//
// Late-task rule, cover(1) = 3.5, model TCT(r) = 10/r, now 0: on a slot of
// r = 0.25 (40 s) a task ends by 140 s, on a dedicated one by 35 s. A job
// due at 100 s is refused the slow slot (35 ≤ 100 < 140); one due at 200 s
// is not (200 ≥ 140), nor one due at 30 s (30 < 35: late on any slot). On a
// dedicated slot none is refused.
func TestMPTCTErrorByHand(t *testing.T) {
	e := TCTError{Mean: 1.5, Spread: 2}
	for _, c := range []struct {
		left       float64
		mimp, with bool
	}{{60, false, true}, {100, false, false}} {
		q, _ := NewQueue(Config{})
		q.Add(Job{ID: 1, Deadline: c.left, Tasks: 6, Model: flat(10)})
		for range 2 {
			if _, err := q.Start(1, 1); err != nil {
				t.Fatal(err)
			}
		}
		s := q.find(1)
		if got := s.atRisk(0, q.riskOf(MPOptions{})); got != c.mimp {
			t.Errorf("%v s left: MIMP's test at risk = %v, want %v", c.left, got, c.mimp)
		}
		if got := s.atRisk(0, q.riskOf(MPOptions{TCTError: e})); got != c.with {
			t.Errorf("%v s left: with %+v at risk = %v, want %v", c.left, e, got, c.with)
		}
		d := mustMP(t, q, 1, 0, MPOptions{TCTError: e})
		if d.AtRisk != c.with {
			t.Errorf("%v s left: MP %+v, want at risk %v", c.left, d, c.with)
		}
	}

	inv := funcModel(func(r float64) float64 { return 10 / r })
	for _, c := range []struct {
		name      string
		deadlines []float64
		r         float64
		mimp      int64 // the ID MIMP's MP picks
		with      int64 // the ID MP with e picks
	}{
		{"due 100 refused, due 200 served", []float64{100, 200}, 0.25, 0, 1},
		{"due 30 is late anyway", []float64{30, 100, 200}, 0.25, 0, 0},
		{"dedicated slot refuses none", []float64{100, 200}, 1, 0, 0},
		{"every job refused: idle", []float64{100, 120}, 0.25, 0, -1},
	} {
		q, _ := NewQueue(Config{})
		for i, dl := range c.deadlines {
			if err := q.Add(Job{ID: int64(i), Deadline: dl, Tasks: 1, Model: inv}); err != nil {
				t.Fatal(err)
			}
		}
		if d := mustMP(t, q, c.r, 0, MPOptions{}); d.ID != c.mimp || !d.AtRisk {
			t.Errorf("%s: MIMP's MP %+v, want job %d at risk", c.name, d, c.mimp)
		}
		d := mustMP(t, q, c.r, 0, MPOptions{TCTError: e})
		if c.with < 0 {
			if d.Reason != ReasonIdle {
				t.Errorf("%s: MP %+v, want idle", c.name, d)
			}
			continue
		}
		if d.ID != c.with || !d.AtRisk || d.Reason != ReasonAtRisk {
			t.Errorf("%s: MP %+v, want job %d at risk", c.name, d, c.with)
		}
	}
}

// tctError draws a TCTError: off, an exact model, the case study's, or any
// within [0.2, 3] × [0, 3].
func tctError() *rapid.Generator[TCTError] {
	return rapid.OneOf(
		rapid.SampledFrom([]TCTError{{}, {Mean: 1}, {Mean: 1.075, Spread: 1.1}}),
		rapid.Custom(func(t *rapid.T) TCTError {
			return TCTError{Mean: rapid.Float64Range(0.2, 3).Draw(t, "mean"), Spread: rapid.Float64Range(0, 3).Draw(t, "spread")}
		}))
}

func TestPropTCTErrorExact(t *testing.T) { rapid.Check(t, propTCTErrorExact) }
func FuzzTCTErrorExact(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propTCTErrorExact)) }

// propTCTErrorExact: an exact model (TCTError{Mean: 1}) leaves Eq. 3 as it
// is, bit for bit — every job's at-risk test and threshold, at any margin —
// and, on a slot where the late-task rule refuses no job, MP decides
// exactly as MIMP's MP.
func propTCTErrorExact(t *rapid.T) {
	q, ids := randomQueue(t)
	now := float64(rapid.IntRange(-100, 1000).Draw(t, "now"))
	m := 1 + rapid.SampledFrom([]float64{0, 0.5, 1.17}).Draw(t, "slack")
	exact := TCTError{Mean: 1}
	for _, id := range ids {
		s := q.find(id)
		if a, b := s.atRisk(now, riskWith(m, TCTError{})), s.atRisk(now, riskWith(m, exact)); a != b {
			t.Fatalf("job %d: at risk %v for MIMP, %v for an exact model", s.ID, a, b)
		}
	}
	r := fraction(false).Draw(t, "r")
	opt := MPOptions{NoIOCheck: rapid.Bool().Draw(t, "noIO")}
	q.cfg.Margin = m
	q.MP(r, now, opt)
	theta := make([]float64, len(ids))
	for i, id := range ids {
		theta[i] = q.ix.nodes[q.byID[id]].theta
	}
	want, _ := q.MP(r, now, opt)
	opt.TCTError = exact
	got, err := q.MP(r, now, opt)
	if err != nil {
		t.Fatal(err)
	}
	for i, id := range ids {
		if a, b := theta[i], q.ix.nodes[q.byID[id]].theta; a != b && !(math.IsNaN(a) && math.IsNaN(b)) {
			t.Fatalf("job %d: threshold %v for MIMP, %v for an exact model", id, a, b)
		}
	}
	lt := newLate(opt, now)
	for _, s := range q.jobs {
		if s.Tasks > 0 && lt.refuses(s.Deadline, s.Model.TCT(r), s.dedicated) {
			return // the rule changes this slot's answer by design
		}
	}
	if got != want {
		t.Fatalf("no job refused on r = %v at %v: exact model %+v, MIMP %+v", r, now, got, want)
	}
}

func TestPropTCTErrorMonotone(t *testing.T) { rapid.Check(t, propTCTErrorMonotone) }
func FuzzTCTErrorMonotone(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propTCTErrorMonotone)) }

// propTCTErrorMonotone: a larger error is never less protective. With
// Mean and Spread both no smaller, every job at risk stays at risk and its
// threshold comes no later, at any margin; and an error with Mean ≥ 1 keeps
// every job MIMP's test puts at risk.
func propTCTErrorMonotone(t *rapid.T) {
	q, ids := randomQueue(t)
	now := float64(rapid.IntRange(-100, 1000).Draw(t, "now"))
	m := 1 + rapid.SampledFrom([]float64{0, 0.5, 1.17, 3}).Draw(t, "slack")
	e1 := TCTError{Mean: rapid.Float64Range(0.2, 3).Draw(t, "mean"), Spread: rapid.Float64Range(0, 3).Draw(t, "spread")}
	e2 := TCTError{Mean: e1.Mean + rapid.Float64Range(0, 2).Draw(t, "dMean"), Spread: e1.Spread + rapid.Float64Range(0, 2).Draw(t, "dSpread")}
	thresholds := func(e TCTError) []float64 {
		q.setRisk(riskWith(m, e))
		out := make([]float64, len(ids))
		for i, id := range ids {
			out[i] = q.ix.nodes[q.byID[id]].theta
		}
		return out
	}
	th0, th1, th2 := thresholds(TCTError{}), thresholds(e1), thresholds(e2)
	for i, id := range ids {
		s := q.find(id)
		a0 := s.atRisk(now, riskWith(m, TCTError{}))
		a1 := s.atRisk(now, riskWith(m, e1))
		a2 := s.atRisk(now, riskWith(m, e2))
		if (a1 && !a2) || th2[i] > th1[i] {
			t.Fatalf("job %d: at risk %v (θ %v) with %+v, %v (θ %v) with %+v", s.ID, a1, th1[i], e1, a2, th2[i], e2)
		}
		if e1.Mean >= 1 && ((a0 && !a1) || th1[i] > th0[i]) {
			t.Fatalf("job %d: at risk %v (θ %v) for MIMP, %v (θ %v) with %+v", s.ID, a0, th0[i], a1, th1[i], e1)
		}
	}
}

func TestPropLateTaskRule(t *testing.T) { rapid.Check(t, propLateTaskRule) }
func FuzzLateTaskRule(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propLateTaskRule)) }

// propLateTaskRule: with TCTError on, MP never gives a slot to a job the
// late-task rule refuses there; without the IO check it is idle only when
// every job with a pending task is refused or has no usable time on the
// slot.
func propLateTaskRule(t *rapid.T) {
	q, _ := randomQueue(t)
	now := float64(rapid.IntRange(-100, 1000).Draw(t, "now"))
	r := fraction(false).Draw(t, "r")
	opt := MPOptions{NoIOCheck: rapid.Bool().Draw(t, "noIO"),
		TCTError: TCTError{Mean: rapid.Float64Range(0.2, 3).Draw(t, "mean"), Spread: rapid.Float64Range(0, 3).Draw(t, "spread")}}
	d, err := q.MP(r, now, opt)
	if err != nil {
		t.Fatal(err)
	}
	lt := newLate(opt, now)
	servable := false
	for _, s := range q.jobs {
		if s.Tasks == 0 {
			continue
		}
		tt, _, _, _, fault := q.taskLoad(&s, r)
		refused := fault == loadOK && lt.refuses(s.Deadline, tt, s.dedicated)
		if d.Reason != ReasonIdle && s.ID == d.ID && refused {
			lo, hi := lateBand(now, tt, s.dedicated, lt.c)
			t.Fatalf("MP gave r = %v at %v to job %d due %v, refused for [%v, %v)", r, now, s.ID, s.Deadline, lo, hi)
		}
		servable = servable || (fault == loadOK && !refused)
	}
	if opt.NoIOCheck && servable && d.Reason == ReasonIdle {
		t.Fatalf("MP idle on r = %v at %v with a job it may serve", r, now)
	}
}

func TestPropErrorAt(t *testing.T) { rapid.Check(t, propErrorAt) }
func FuzzErrorAt(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propErrorAt)) }

// propErrorAt: ErrorAt never panics; it gives a TCTError MP accepts or an
// error naming the field, matching ErrBadInput.
func propErrorAt(t *rapid.T) {
	odd := rapid.SampledFrom([]float64{0, -1, math.NaN(), math.Inf(1), math.Inf(-1), math.MaxFloat64, 5e-324})
	num := rapid.OneOf(rapid.Float64Range(0, 10), odd)
	d := ratios{mean: num.Draw(t, "mean"), q: num.Draw(t, "q")}
	if rapid.IntRange(0, 9).Draw(t, "fails") == 0 {
		d.err = errors.New("no samples")
	}
	p := rapid.OneOf(rapid.Float64Range(0, 1), odd).Draw(t, "p")
	e, err := ErrorAt(d, p)
	if err != nil {
		var ve *ValueError
		if !errors.Is(err, ErrBadInput) || !errors.As(err, &ve) || ve.Field == "" || e != (TCTError{}) {
			t.Fatalf("ErrorAt(%+v, %v) = %+v, %v", d, p, e, err)
		}
		return
	}
	if err := e.check(); err != nil || !e.on() || e.Mean != d.mean {
		t.Fatalf("ErrorAt(%+v, %v) = %+v, which MP refuses: %v", d, p, e, err)
	}
}

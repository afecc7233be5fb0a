package admission

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// startedJob is a running job as a caller that rebuilds its queue on each
// decision describes it: a start (if any pod has one) and an estimate. Its
// JCT at now is what such a caller computes: the estimate less the time
// since min(start, now) (now when not started), never below 0, in
// time.Duration, converted with Seconds.
type startedJob struct {
	id                int64
	arrival, deadline float64
	estimate, start   int64
	started           bool
}

func (m startedJob) jct(now int64) float64 {
	started := now
	if m.started && m.start < now {
		started = m.start
	}
	left := time.Duration(m.estimate) - time.Duration(now-started)
	return max(left, 0).Seconds()
}

func (m startedJob) running() RunningJob {
	r := RunningJob{ID: m.id, Arrival: m.arrival, Deadline: m.deadline, Estimate: m.estimate, End: NotStarted}
	if m.started {
		r.End = m.start + m.estimate
	}
	return r
}

// rebuilt is the per-decision queue of such a caller: every job at now,
// sorted in EDF order.
func rebuilt(jobs map[int64]startedJob, now int64) []Job {
	q := make([]Job, 0, len(jobs))
	for _, m := range jobs {
		q = append(q, Job{ID: m.id, Arrival: m.arrival, Deadline: m.deadline, JCT: m.jct(now)})
	}
	slices.SortFunc(q, CompareEDF)
	return q
}

// unixSeconds is the seconds of time.Unix(0, ns) as a caller on package
// time's clock forms them.
func unixSeconds(ns int64) float64 {
	t := time.Unix(0, ns)
	return float64(t.Unix()) + float64(t.Nanosecond())/1e9
}

// Generators on a coarse grid, so that ties of EDF keys, starts at now,
// ends at now and sums exactly at a deadline are frequent.
func nanoGrid(t *rapid.T, label string) int64 {
	return rapid.Int64Range(-40, 40).Draw(t, label+"/s")*1e9 + rapid.SampledFrom([]int64{0, 0, 1, 5e8, 999_999_999}).Draw(t, label+"/ns")
}

func genStarted(t *rapid.T, id int64) startedJob {
	d := rapid.OneOf(rapid.Float64Range(-40, 80), rapid.SampledFrom([]float64{0, 10, 10.5, 20, NoDeadline()})).Draw(t, "deadline")
	return startedJob{
		id:       id,
		arrival:  float64(rapid.IntRange(-3, 3).Draw(t, "arrival")),
		deadline: d,
		estimate: rapid.OneOf(rapid.Int64Range(0, 30e9), rapid.SampledFrom([]int64{0, 1e9, 10e9, 1<<62 - 1})).Draw(t, "estimate"),
		start:    nanoGrid(t, "start"),
		started:  rapid.Bool().Draw(t, "started"),
	}
}

func sameRunningDecision(t *rapid.T, what string, got Decision, gotErr error, want Decision, wantErr error) {
	if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
		t.Fatalf("%s: error %v, want %v", what, gotErr, wantErr)
	}
	gc, wc := got.Checked, want.Checked
	got.Checked, want.Checked = nil, nil
	if g, w := fmt.Sprintf("%#v", got), fmt.Sprintf("%#v", want); g != w || !sameValues(gc, wc) {
		t.Fatalf("%s:\n got %s %#v\nwant %s %#v", what, g, gc, w, wc)
	}
}

// sameValues reports whether a and b hold the same values (floats printed
// exactly, so bit for bit but for NaN payloads), nil and empty alike.
func sameValues[T any](a, b []T) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if fmt.Sprintf("%#v", a[i]) != fmt.Sprintf("%#v", b[i]) {
			return false
		}
	}
	return true
}

// propRunningSet: through random Sets (new jobs, changed descriptions,
// bad ones), Removes and decisions at random times (earlier ones too),
// RunningSet.Decide equals Workspace.Decide over the queue a caller
// rebuilds per decision from each job's start and estimate, sorted, at
// the same now, bit for bit and errors included; Queue is that queue, and
// Seconds is package time's seconds.
func propRunningSet(t *rapid.T) {
	var s RunningSet
	model := map[int64]startedJob{}
	var ws Workspace
	t.Repeat(map[string]func(*rapid.T){
		"set": func(t *rapid.T) {
			m := genStarted(t, rapid.Int64Range(0, 12).Draw(t, "id"))
			r := m.running()
			bad := rapid.IntRange(0, 9).Draw(t, "bad")
			switch bad {
			case 1:
				r.Arrival = rapid.SampledFrom([]float64{math.NaN(), math.Inf(1), math.Inf(-1)}).Draw(t, "badArrival")
			case 2:
				r.Deadline = rapid.SampledFrom([]float64{math.NaN(), math.Inf(-1)}).Draw(t, "badDeadline")
			case 3:
				r.Estimate = -rapid.Int64Range(1, math.MaxInt64).Draw(t, "badEstimate")
			}
			err := s.Set(r)
			if (bad >= 1 && bad <= 3) != (err != nil) {
				t.Fatalf("Set(%+v) = %v", r, err)
			}
			if err != nil {
				if !errors.Is(err, ErrBadInput) {
					t.Fatalf("Set: %v does not match ErrBadInput", err)
				}
				return
			}
			model[m.id] = m
		},
		"remove": func(t *rapid.T) {
			id := rapid.Int64Range(0, 12).Draw(t, "id")
			_, held := model[id]
			if s.Remove(id) != held {
				t.Fatalf("Remove(%d) != %v", id, held)
			}
			delete(model, id)
		},
		"decide": func(t *rapid.T) {
			now := nanoGrid(t, "now")
			nj := Job{
				ID:       rapid.Int64Range(0, 14).Draw(t, "newID"),
				Arrival:  float64(rapid.IntRange(-3, 3).Draw(t, "newArrival")),
				Deadline: rapid.OneOf(rapid.Float64Range(-40, 120), rapid.SampledFrom([]float64{20, NoDeadline(), math.NaN()})).Draw(t, "newDeadline"),
				JCT:      rapid.OneOf(rapid.Float64Range(0, 40), rapid.SampledFrom([]float64{0, 10, -1})).Draw(t, "newJCT"),
			}
			opt := Options{Mode: rapid.SampledFrom([]Mode{ModeStrict, ModePaper}).Draw(t, "mode")}
			got, gotErr := s.Decide(nj, now, opt)
			q := rebuilt(model, now)
			want, wantErr := ws.Decide(q, nj, unixSeconds(now), opt)
			sameRunningDecision(t, "Decide", got, gotErr, want, wantErr)
			if g := s.Queue(now, nil); !sameValues(g, q) {
				t.Fatalf("Queue(%d) = %v, want %v", now, g, q)
			}
		},
		"": func(t *rapid.T) {
			if s.Len() != len(model) {
				t.Fatalf("Len %d, want %d", s.Len(), len(model))
			}
			for id := range model {
				if !s.Has(id) {
					t.Fatalf("job %d not held", id)
				}
			}
		},
	})
	ns := rapid.Int64().Draw(t, "ns")
	if math.Float64bits(Seconds(ns)) != math.Float64bits(unixSeconds(ns)) {
		t.Fatalf("Seconds(%d) = %v, want %v", ns, Seconds(ns), unixSeconds(ns))
	}
}

func TestPropRunningSet(t *testing.T) { rapid.Check(t, propRunningSet) }
func FuzzRunningSet(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propRunningSet)) }

// TestRemaining: hand-worked times left, in nanoseconds.
func TestRemaining(t *testing.T) {
	const s = int64(time.Second)
	tests := []struct {
		name string
		job  RunningJob
		now  int64
		want int64
	}{
		{"started 4 s ago, 10 s estimate", RunningJob{Estimate: 10 * s, End: 6 * s}, 0, 6 * s},
		{"at its end", RunningJob{Estimate: 10 * s, End: 6 * s}, 6 * s, 0},
		{"past its end", RunningJob{Estimate: 10 * s, End: 6 * s}, 7 * s, 0},
		{"one nanosecond before its end", RunningJob{Estimate: 10 * s, End: 6 * s}, 6*s - 1, 1},
		{"starts after now: its whole estimate", RunningJob{Estimate: 10 * s, End: 30 * s}, 0, 10 * s},
		{"starts at now", RunningJob{Estimate: 10 * s, End: 10 * s}, 0, 10 * s},
		{"not started", RunningJob{Estimate: 10 * s, End: NotStarted}, math.MaxInt64, 10 * s},
		{"zero estimate", RunningJob{End: 5 * s}, 0, 0},
		{"end and now at the extremes", RunningJob{Estimate: math.MaxInt64, End: math.MaxInt64 - 1}, math.MinInt64, math.MaxInt64},
		{"now at the end of time", RunningJob{Estimate: 3, End: math.MaxInt64 - 1}, math.MaxInt64 - 2, 1},
	}
	for _, tt := range tests {
		if got := tt.job.Remaining(tt.now); got != tt.want {
			t.Errorf("%s: Remaining(%d) = %d, want %d", tt.name, tt.now, got, tt.want)
		}
	}
}

// TestRunningSetDecision: two running jobs, hand-worked. At now = 100 s,
// a started at 90 s with a 30 s estimate (20 s left, deadline 130 s) and b
// not started with 10 s (deadline 200 s); Eq. 7 sums 20 and 30. A new job
// of 25 s with deadline 150 s comes between: 45 s ≤ 50 s, and b's 55 s ≤
// 100 s: admitted. With 40 s it is late (60 > 50). At now = 125 s a has
// nothing left, 0 + 25 ≤ 25: admitted.
func TestRunningSetDecision(t *testing.T) {
	const s = int64(time.Second)
	var set RunningSet
	for _, r := range []RunningJob{
		{ID: 2, Deadline: 200, Estimate: 10 * s, End: NotStarted},
		{ID: 1, Deadline: 130, Estimate: 30 * s, End: 120 * s},
	} {
		if err := set.Set(r); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		now        int64
		jct        float64
		admit      bool
		prefix     float64
		newIndex   int
		wantReason Reason
	}{
		{100 * s, 25, true, 45, 1, ReasonFits},
		{100 * s, 40, false, 60, 1, ReasonNewJobLate},
		{125 * s, 25, true, 25, 1, ReasonFits},
	}
	for _, tt := range tests {
		d, err := set.Decide(Job{ID: 3, Arrival: 100, Deadline: 150, JCT: tt.jct}, tt.now, Options{Mode: ModeStrict})
		if err != nil {
			t.Fatal(err)
		}
		if d.Admit != tt.admit || d.Reason != tt.wantReason || d.NewIndex != tt.newIndex || d.Checked[d.NewIndex].Prefix != tt.prefix {
			t.Errorf("now %d, JCT %v: %+v", tt.now, tt.jct, d)
		}
	}
}

// TestRunningSetBadInput: every bad input is an error naming the field,
// matching ErrBadInput, and leaves the set as it was.
func TestRunningSetBadInput(t *testing.T) {
	good := RunningJob{ID: 1, Arrival: 0, Deadline: 10, Estimate: 1, End: 5}
	sets := []struct {
		name  string
		job   RunningJob
		field string
	}{
		{"NaN arrival", RunningJob{ID: 2, Arrival: math.NaN(), Deadline: 10}, "RunningJob.Arrival"},
		{"+Inf arrival", RunningJob{ID: 2, Arrival: math.Inf(1), Deadline: 10}, "RunningJob.Arrival"},
		{"-Inf arrival", RunningJob{ID: 2, Arrival: math.Inf(-1), Deadline: 10}, "RunningJob.Arrival"},
		{"NaN deadline", RunningJob{ID: 2, Deadline: math.NaN()}, "RunningJob.Deadline"},
		{"-Inf deadline", RunningJob{ID: 2, Deadline: math.Inf(-1)}, "RunningJob.Deadline"},
		{"negative estimate", RunningJob{ID: 2, Deadline: 10, Estimate: -1}, "RunningJob.Estimate"},
		{"a held job made bad", RunningJob{ID: 1, Deadline: 10, Estimate: math.MinInt64}, "RunningJob.Estimate"},
	}
	decides := []struct {
		name  string
		job   Job
		now   int64
		opt   Options
		field string
	}{
		{"wave mode", Job{ID: 2, Deadline: 10}, 0, Options{}, "Options.Mode"},
		{"confidence mode", Job{ID: 2, Deadline: 10}, 0, Options{Mode: ModeConfidence}, "Options.Mode"},
		{"unknown mode", Job{ID: 2, Deadline: 10}, 0, Options{Mode: Mode(9)}, "Options.Mode"},
		{"new job's NaN arrival", Job{ID: 2, Arrival: math.NaN(), Deadline: 10}, 0, Options{Mode: ModeStrict}, "NewJob.Arrival"},
		{"new job's NaN deadline", Job{ID: 2, Deadline: math.NaN()}, 0, Options{Mode: ModeStrict}, "NewJob.Deadline"},
		{"new job's negative JCT", Job{ID: 2, Deadline: 10, JCT: -1}, 0, Options{Mode: ModePaper}, "NewJob.JCT"},
		{"new job's ID held", Job{ID: 1, Deadline: 10}, 0, Options{Mode: ModeStrict}, "NewJob.ID"},
	}
	var s RunningSet
	if err := s.Set(good); err != nil {
		t.Fatal(err)
	}
	want := s.Queue(0, nil)
	check := func(name, field string, err error) {
		t.Helper()
		var ve *ValueError
		if !errors.Is(err, ErrBadInput) || !errors.As(err, &ve) || ve.Field != field {
			t.Errorf("%s: error %v, want a *ValueError naming %s", name, err, field)
		}
		if got := s.Queue(0, nil); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: the set changed to %v", name, got)
		}
	}
	for _, tt := range sets {
		check(tt.name, tt.field, s.Set(tt.job))
	}
	for _, tt := range decides {
		d, err := s.Decide(tt.job, tt.now, tt.opt)
		check(tt.name, tt.field, err)
		if d.Admit || d.Checked != nil {
			t.Errorf("%s: decision %+v with an error", tt.name, d)
		}
	}
}

// TestRunningSetLimit: MaxJobs jobs are held, one more is refused, and a
// held one is still replaced.
func TestRunningSetLimit(t *testing.T) {
	var s RunningSet
	for i := range MaxJobs {
		if err := s.Set(RunningJob{ID: int64(i), Arrival: float64(i), Deadline: NoDeadline()}); err != nil {
			t.Fatal(err)
		}
	}
	var ve *ValueError
	if err := s.Set(RunningJob{ID: MaxJobs, Deadline: 1}); !errors.As(err, &ve) || ve.Field != "RunningSet.Len" {
		t.Fatalf("one beyond MaxJobs: %v", err)
	}
	if err := s.Set(RunningJob{ID: MaxJobs - 1, Arrival: MaxJobs - 1, Deadline: NoDeadline(), Estimate: 1}); err != nil {
		t.Fatalf("replacing at MaxJobs: %v", err)
	}
	if s.Len() != MaxJobs {
		t.Fatalf("Len %d", s.Len())
	}
}

// TestRunningSetSignedZero: a job set again with keys equal in EDF order
// but written differently (deadline −0, then 0) keeps its place and takes
// the new keys (rapid's shrunk case).
func TestRunningSetSignedZero(t *testing.T) {
	var s RunningSet
	for _, d := range []float64{math.Copysign(0, -1), 0} {
		if err := s.Set(RunningJob{ID: 4, Deadline: d}); err != nil {
			t.Fatal(err)
		}
	}
	if q := s.Queue(0, nil); len(q) != 1 || math.Signbit(q[0].Deadline) {
		t.Fatalf("Queue = %#v, want the deadline +0", q)
	}
}

package edf

import (
	"errors"
	"math"
	"testing"
)

// handQueue builds the hand-worked queue of TestPickersByHand.
//
//	A: ID 1, arrival 0, deadline 1000, 10 tasks, TCT = 100 − 50r (NormTCT(0.2) = 1.8), Read90 8
//	B: ID 2, arrival 5, deadline  500, 10 tasks, TCT =  30 − 20r (NormTCT(0.2) = 2.6), Read90 0
//	C: ID 3, arrival 2, no deadline,    5 tasks, TCT = 10 (flat, NormTCT = 1),         Read90 30
func handQueue(t *testing.T, dn DataNodes) *Queue {
	t.Helper()
	q, err := NewQueue(Config{DataNodes: dn})
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range []Job{
		{ID: 1, Arrival: 0, Deadline: 1000, Tasks: 10, Model: lin{100, 50}, Read90: 8},
		{ID: 2, Arrival: 5, Deadline: 500, Tasks: 10, Model: lin{30, 20}, Read90: 0},
		{ID: 3, Arrival: 2, Deadline: NoDeadline(), Tasks: 5, Model: lin{10, 0}, Read90: 30},
	} {
		if err := q.Add(j); err != nil {
			t.Fatal(err)
		}
	}
	return q
}

func mustMP(t *testing.T, q *Queue, r, now float64, opt MPOptions) Decision {
	t.Helper()
	d, err := q.MP(r, now, opt)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestPickersByHand(t *testing.T) {
	q := handQueue(t, DataNodes{Count: 2, Capacity: 10})
	if d := q.FIFO(); d.ID != 1 || d.Reason != ReasonOrder {
		t.Errorf("FIFO = %+v, want job 1 (arrived first)", d)
	}
	if d := q.EDF(); d.ID != 2 || d.Reason != ReasonOrder {
		t.Errorf("EDF = %+v, want job 2 (deadline 500)", d)
	}
	// No job holds a slot: A and B are at risk (Eq. 3 gives 0 < 10); B's deadline is closer.
	if d := mustMP(t, q, 0.2, 0, MPOptions{}); d.ID != 2 || d.Reason != ReasonAtRisk || !d.AtRisk {
		t.Errorf("MP = %+v, want job 2 at-risk", d)
	}
	// B on a dedicated slot: 500 s · 1/10 = 50 completable ≥ 10 → on track. A is next.
	if _, err := q.Start(2, 1); err != nil {
		t.Fatal(err)
	}
	if d := mustMP(t, q, 0.2, 0, MPOptions{}); d.ID != 1 || d.Reason != ReasonAtRisk {
		t.Errorf("MP = %+v, want job 1 at-risk", d)
	}
	ta, err := q.Start(1, 1) // A: 1000 · 1/50 = 20 ≥ 10 → on track; IO 8
	if err != nil {
		t.Fatal(err)
	}
	if !near(q.IO(), 8) || !near(ta.IO(), 8) {
		t.Fatalf("IO = %v, want 8", q.IO())
	}
	// Nobody at risk: best fit at r = 0.2 is C (NormTCT 1), but its IO 30 gives
	// (8+30)/2 = 19 > 10, so A (NormTCT 1.8, IO 8/1.8) is next: (8+4.44)/2 ≤ 10.
	d := mustMP(t, q, 0.2, 0, MPOptions{})
	if d.ID != 1 || d.Reason != ReasonIOSkip || !near(d.NormTCT, 1.8) || !near(d.IO, 8/1.8) {
		t.Errorf("MP = %+v, want job 1 io-skip NormTCT 1.8", d)
	}
	if d := mustMP(t, q, 0.2, 0, MPOptions{NoIOCheck: true}); d.ID != 3 || d.Reason != ReasonBestFit || !near(d.NormTCT, 1) {
		t.Errorf("MP without IO check = %+v, want job 3 best-fit", d)
	}
	// At r = 1 every NormTCT is 1: tie broken by the earlier deadline (B).
	if d := mustMP(t, q, 1, 0, MPOptions{NoIOCheck: true}); d.ID != 2 || d.Reason != ReasonBestFit {
		t.Errorf("MP tie = %+v, want job 2", d)
	}
	// Late in the game B is at risk again: at now = 450, 50 s · 0.1 = 5 < 10.
	if d := mustMP(t, q, 0.2, 450, MPOptions{}); d.ID != 2 || d.Reason != ReasonAtRisk {
		t.Errorf("MP at 450 = %+v, want job 2 at-risk", d)
	}
	// Releasing A's task removes its IO exactly.
	if err := q.End(ta, true); err != nil {
		t.Fatal(err)
	}
	if q.IO() != 0 {
		t.Errorf("IO after release = %v, want 0", q.IO())
	}
	if st, _ := q.Status(1); st.Tasks != 9 || st.Running != 0 || st.Rate != 0 {
		t.Errorf("A after completed release = %+v", st)
	}
}

func TestMPIOCheckAtRiskAndIdle(t *testing.T) {
	q, _ := NewQueue(Config{DataNodes: DataNodes{Count: 1, Capacity: 5}})
	q.Add(Job{ID: 1, Deadline: 100, Tasks: 3, Model: lin{10, 0}, Read90: 6}) // IO 6 > 5
	q.Add(Job{ID: 2, Deadline: 200, Tasks: 3, Model: lin{10, 0}, Read90: 4})
	// Both at risk; A (closer deadline) would overload: B with io-skip, still an at-risk pick.
	if d := mustMP(t, q, 1, 0, MPOptions{}); d.ID != 2 || d.Reason != ReasonIOSkip || !d.AtRisk {
		t.Errorf("MP = %+v, want job 2 io-skip at-risk", d)
	}
	if d := mustMP(t, q, 1, 0, MPOptions{NoIOCheckAtRisk: true}); d.ID != 1 || d.Reason != ReasonAtRisk {
		t.Errorf("MP (no IO check at risk) = %+v, want job 1", d)
	}
	// Fill the data nodes: nothing fits, the slot stays idle.
	q2, _ := NewQueue(Config{DataNodes: DataNodes{Count: 1, Capacity: 5}})
	q2.Add(Job{ID: 7, Deadline: NoDeadline(), Tasks: 3, Model: lin{10, 0}, Read90: 6})
	if d := mustMP(t, q2, 1, 0, MPOptions{}); d.Reason != ReasonIdle {
		t.Errorf("MP = %+v, want idle", d)
	}
	// A job with no pending task is never picked.
	q3, _ := NewQueue(Config{})
	q3.Add(Job{ID: 1, Deadline: 10, Tasks: 1, Model: lin{10, 0}})
	if _, err := q3.Start(1, 1); err != nil {
		t.Fatal(err)
	}
	for _, d := range []Decision{q3.FIFO(), q3.EDF(), mustMP(t, q3, 1, 0, MPOptions{})} {
		if d != (Decision{Reason: ReasonIdle}) {
			t.Errorf("decision %+v, want idle", d)
		}
	}
	if _, err := q3.Start(1, 1); !errors.Is(err, ErrBadInput) {
		t.Errorf("Start without pending task: %v", err)
	}
}

func TestQueueIDsAndEnd(t *testing.T) {
	var q Queue // the zero Queue is ready to use
	if err := q.Add(Job{ID: 1, Deadline: 10, Tasks: 2, Model: lin{10, 0}, Read90: 1}); err != nil {
		t.Fatal(err)
	}
	task, _ := q.Start(1, 0.5)
	if task.ID != 1 || task.TCT != 10 || task.PlannedEnd(3) != 13 {
		t.Errorf("task %+v: TCT 10 and planned end 13 wanted", task)
	}
	if !q.Remove(1) || q.Remove(1) {
		t.Fatal("Remove: want true, then false")
	}
	if q.IO() != 0 || q.Running() != 0 {
		t.Errorf("after Remove: IO %v running %v", q.IO(), q.Running())
	}
	q.Add(Job{ID: 2, Deadline: 10, Tasks: 2, Model: lin{10, 0}}) // takes job 1's handle
	if err := q.End(task, true); !errors.Is(err, ErrUnknownJob) {
		t.Errorf("task of a removed job ended: %v", err)
	}
	q.Add(Job{ID: 1, Deadline: 10, Tasks: 2, Model: lin{10, 0}}) // the ID again
	if err := q.End(task, true); !errors.Is(err, ErrBadInput) || errors.Is(err, ErrUnknownJob) {
		t.Errorf("task of an earlier job with the same ID ended: %v", err)
	}
	// A failed task goes back to pending.
	t2, _ := q.Start(2, 1)
	if err := q.End(t2, false); err != nil {
		t.Fatal(err)
	}
	if st, _ := q.Status(2); st.Tasks != 2 || st.Running != 0 {
		t.Errorf("after a failed task: %+v", st)
	}
	if err := q.End(t2, true); !errors.Is(err, ErrBadInput) {
		t.Errorf("double end: %v", err)
	}
	if ok, valid := q.AtRisk(2, 0); !ok || !valid {
		t.Errorf("AtRisk without slots = %v %v, want true", ok, valid)
	}
	if _, valid := q.AtRisk(99, 0); valid {
		t.Error("AtRisk of an unknown ID is valid")
	}
	if err := q.Add(Job{ID: 2, Model: lin{10, 0}}); !errors.Is(err, ErrBadInput) {
		t.Errorf("a second job with ID 2 added: %v", err)
	}
	if err := q.Add(Job{ID: 3}); err != nil { // no pending task: no model needed
		t.Errorf("a job without tasks or model: %v", err)
	}
}

// nilPtr is a model with a pointer receiver that dereferences it: a nil
// *nilPtr in a Model interface panics when called (issue 19, defect 7).
type nilPtr struct{ t float64 }

func (m *nilPtr) TCT(float64) float64 { return m.t }

// nilFunc is a func-typed model; a nil nilFunc panics when called.
type nilFunc func(float64) float64

func (f nilFunc) TCT(r float64) float64 { return f(r) }

func TestQueueBadInput(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	q, _ := NewQueue(Config{})
	q.Add(Job{ID: 1, Deadline: 10, Tasks: 1, Model: lin{10, 0}})
	var np *nilPtr
	cases := []struct {
		name  string
		f     func() error
		field string
		is    error // a sentinel the error must also match, or nil
	}{
		{"Config.Dedicated 2", func() error { _, e := NewQueue(Config{Dedicated: 2}); return e }, "Config.Dedicated", nil},
		{"Config.Dedicated NaN", func() error { _, e := NewQueue(Config{Dedicated: nan}); return e }, "Config.Dedicated", nil},
		{"Config.Dedicated -1", func() error { _, e := NewQueue(Config{Dedicated: -1}); return e }, "Config.Dedicated", nil},
		{"DataNodes.Count -1", func() error { _, e := NewQueue(Config{DataNodes: DataNodes{Count: -1}}); return e }, "Config.DataNodes.Count", nil},
		{"DataNodes.Capacity NaN", func() error { _, e := NewQueue(Config{DataNodes: DataNodes{Count: 1, Capacity: nan}}); return e }, "Config.DataNodes.Capacity", nil},
		{"DataNodes.Capacity Inf", func() error { _, e := NewQueue(Config{DataNodes: DataNodes{Count: 1, Capacity: inf}}); return e }, "Config.DataNodes.Capacity", nil},
		{"Config.Margin NaN", func() error { _, e := NewQueue(Config{Margin: nan}); return e }, "Config.Margin", nil},
		{"Config.Margin -0.1", func() error { _, e := NewQueue(Config{Margin: -0.1}); return e }, "Config.Margin", nil},
		{"Config.Margin beyond MaxMargin", func() error { _, e := NewQueue(Config{Margin: MaxMargin * 2}); return e }, "Config.Margin", nil},
		{"Job nil model", func() error { return q.Add(Job{Deadline: 1, Tasks: 1}) }, "Job.Model", ErrNilModel},
		// Issue 19, defect 7: a typed nil used to panic in Add's TCT(Dedicated) call.
		{"Job nil pointer model", func() error { return q.Add(Job{Deadline: 1, Tasks: 1, Model: np}) }, "Job.Model", ErrNilModel},
		{"Job nil func model", func() error { return q.Add(Job{Deadline: 1, Tasks: 1, Model: nilFunc(nil)}) }, "Job.Model", ErrNilModel},
		{"Job Arrival NaN", func() error { return q.Add(Job{Arrival: nan, Model: lin{1, 0}}) }, "Job.Arrival", nil},
		{"Job Arrival Inf", func() error { return q.Add(Job{Arrival: inf, Model: lin{1, 0}}) }, "Job.Arrival", nil},
		{"Job Deadline NaN", func() error { return q.Add(Job{Deadline: nan, Model: lin{1, 0}}) }, "Job.Deadline", nil},
		{"Job Deadline -Inf", func() error { return q.Add(Job{Deadline: -inf, Model: lin{1, 0}}) }, "Job.Deadline", nil},
		{"Job Tasks -1", func() error { return q.Add(Job{Tasks: -1, Model: lin{1, 0}}) }, "Job.Tasks", nil},
		{"Job Read90 NaN", func() error { return q.Add(Job{Read90: nan, Model: lin{1, 0}}) }, "Job.Read90", nil},
		{"Job Read90 -1", func() error { return q.Add(Job{Read90: -1, Model: lin{1, 0}}) }, "Job.Read90", nil},
		{"Job ID already queued", func() error { return q.Add(Job{ID: 1, Model: lin{1, 0}}) }, "Job.ID", nil},
		{"Start unknown", func() error { _, e := q.Start(42, 1); return e }, "ID", ErrUnknownJob},
		{"Start r NaN", func() error { _, e := q.Start(1, nan); return e }, "r", nil},
		{"Start r 1.5", func() error { _, e := q.Start(1, 1.5); return e }, "r", nil},
		{"Start no pending task", func() error {
			var q0 Queue
			q0.Add(Job{ID: 3, Deadline: 10, Tasks: 0, Model: lin{10, 0}})
			_, e := q0.Start(3, 1)
			return e
		}, "Job.Tasks", ErrNoPendingTask},
		{"Start model NaN", func() error {
			var q0 Queue
			q0.Add(Job{ID: 3, Tasks: 1, Model: bad{}})
			_, e := q0.Start(3, 1)
			return e
		}, "Job.Model.TCT(r)", nil},
		{"Start model beyond MaxDuration", func() error {
			var q0 Queue
			q0.Add(Job{ID: 3, Tasks: 1, Model: flat(2 * MaxDuration)})
			_, e := q0.Start(3, 1)
			return e
		}, "Job.Model.TCT(r)", nil},
		{"Start model 0 at the dedicated capacity", func() error {
			var q0 Queue
			q0.Add(Job{ID: 3, Tasks: 1, Model: lin{1, 1}}) // TCT(0.5) = 0.5, TCT(1) = 0
			_, e := q0.Start(3, 0.5)
			return e
		}, "Job.Model.TCT(r)", nil},
		// Issue 19, misleading fields: an IO-sum overflow caused by Read90
		// used to be blamed on "Job.Model.TCT(r) = 25".
		{"Start IO sum overflow names Read90", func() error {
			var q0 Queue
			q0.Add(Job{ID: 3, Deadline: 10, Tasks: 2, Model: lin{100, 50}, Read90: math.MaxFloat64})
			if _, e := q0.Start(3, 1); e != nil { // IO MaxFloat64: still finite
				return e
			}
			_, e := q0.Start(3, 0.5) // TCT 75 is fine; Σ IO = MaxFloat64 + MaxFloat64/1.5 overflows
			return e
		}, "Job.Read90", nil},
		{"Start rate overflow names the task time", func() error {
			var q0 Queue
			q0.Add(Job{ID: 3, Deadline: 10, Tasks: 2, Model: flat(5e-324)})
			_, e := q0.Start(3, 1)
			return e
		}, "Job.Model.TCT(r)", nil},
		{"End unknown", func() error { return q.End(Task{ID: 42}, true) }, "Task.ID", ErrUnknownJob},
		{"End not running", func() error {
			var q0 Queue
			q0.Add(Job{ID: 3, Deadline: 10, Tasks: 2, Model: lin{10, 0}})
			t0, _ := q0.Start(3, 1)
			_ = q0.End(t0, true)
			return q0.End(t0, true)
		}, "Task.ID", nil},
		// Issue 19, misleading fields: a forged Task for a queued job used
		// to say "unknown job handle".
		{"End forged Task of a queued job", func() error { return q.End(Task{ID: 1, inv: 1}, true) }, "Task", nil},
		{"End zero Task of job ID 0", func() error {
			var q0 Queue
			q0.Add(Job{ID: 0, Deadline: 10, Tasks: 2, Model: lin{10, 0}})
			if _, err := q0.Start(0, 1); err != nil {
				return err
			}
			return q0.End(Task{}, true)
		}, "Task", nil},
		{"End stale Task of an earlier job with the ID", func() error {
			var q0 Queue
			q0.Add(Job{ID: 1, Deadline: 10, Tasks: 2, Model: lin{10, 0}})
			t0, _ := q0.Start(1, 1)
			q0.Remove(1)
			q0.Add(Job{ID: 1, Deadline: 10, Tasks: 2, Model: lin{10, 0}})
			_, _ = q0.Start(1, 1)
			return q0.End(t0, true)
		}, "Task", nil},
		{"MP r NaN", func() error { _, e := q.MP(nan, 0, MPOptions{}); return e }, "r", nil},
		{"MP r -0.5", func() error { _, e := q.MP(-0.5, 0, MPOptions{}); return e }, "r", nil},
		{"MP now NaN", func() error { _, e := q.MP(1, nan, MPOptions{}); return e }, "now", nil},
		{"MP now Inf", func() error { _, e := q.MP(1, inf, MPOptions{}); return e }, "now", nil},
		{"MP TCTError mean NaN", func() error { _, e := q.MP(1, 0, MPOptions{TCTError: TCTError{Mean: nan}}); return e }, "MPOptions.TCTError.Mean", nil},
		{"MP TCTError mean -1", func() error { _, e := q.MP(1, 0, MPOptions{TCTError: TCTError{Mean: -1, Spread: 1}}); return e }, "MPOptions.TCTError.Mean", nil},
		{"MP TCTError mean +Inf", func() error { _, e := q.MP(1, 0, MPOptions{TCTError: TCTError{Mean: inf}}); return e }, "MPOptions.TCTError.Mean", nil},
		{"MP TCTError spread without mean", func() error { _, e := q.MP(1, 0, MPOptions{TCTError: TCTError{Spread: 1}}); return e }, "MPOptions.TCTError.Mean", nil},
		{"MP TCTError spread -0.5", func() error { _, e := q.MP(1, 0, MPOptions{TCTError: TCTError{Mean: 1, Spread: -0.5}}); return e }, "MPOptions.TCTError.Spread", nil},
		{"MP TCTError spread NaN", func() error { _, e := q.MP(1, 0, MPOptions{TCTError: TCTError{Mean: 1, Spread: nan}}); return e }, "MPOptions.TCTError.Spread", nil},
		{"MP TCTError spread +Inf", func() error { _, e := q.MP(1, 0, MPOptions{TCTError: TCTError{Mean: 1, Spread: inf}}); return e }, "MPOptions.TCTError.Spread", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.f()
			var ve *ValueError
			if !errors.Is(err, ErrBadInput) || !errors.As(err, &ve) || ve.Field != c.field {
				t.Fatalf("err = %v, want a *ValueError for %q matching ErrBadInput", err, c.field)
			}
			if c.is != nil && !errors.Is(err, c.is) {
				t.Errorf("err = %v does not match %v", err, c.is)
			}
			if c.is == ErrNilModel && ve.Value != 0 {
				t.Errorf("nil-model error %v carries value %v, want 0", err, ve.Value)
			}
			for _, s := range []error{ErrUnknownJob, ErrNoPendingTask, ErrNilModel} {
				if s != c.is && errors.Is(err, s) {
					t.Errorf("err = %v also matches %v", err, s)
				}
			}
		})
	}
}

// TestMPMargin: 10 tasks of TCT 10 s, two running on dedicated slots (rate
// 0.2 tasks/s), 100 s to the deadline: 20 completable tasks against 10
// remaining. On track at margin 1 and 2 (20 < 2·10 is false); at risk at
// margin 2.5 (20 < 25). MP then serves it ahead of a better-fitting job
// without deadline. A task's planned end is its start + TCT × margin.
func TestMPMargin(t *testing.T) {
	for _, c := range []struct {
		margin float64
		risk   bool
	}{{0, false}, {1, false}, {2, false}, {2.5, true}} {
		q, err := NewQueue(Config{Margin: c.margin})
		if err != nil {
			t.Fatal(err)
		}
		q.Add(Job{ID: 1, Deadline: 100, Tasks: 10, Model: lin{20, 10}}) // TCT(1) = 10, NormTCT(0.5) = 1.5
		for range 2 {
			task, err := q.Start(1, 1)
			if err != nil {
				t.Fatal(err)
			}
			if want := 5 + 10*max(c.margin, 1); task.PlannedEnd(5) != want {
				t.Errorf("margin %v: planned end %v, want %v", c.margin, task.PlannedEnd(5), want)
			}
		}
		q.Add(Job{ID: 3, Deadline: NoDeadline(), Tasks: 1, Model: flat(1)}) // NormTCT 1: the best fit everywhere
		if risk, ok := q.AtRisk(1, 0); !ok || risk != c.risk {
			t.Errorf("margin %v: AtRisk = %v %v, want %v", c.margin, risk, ok, c.risk)
		}
		d := mustMP(t, q, 0.5, 0, MPOptions{})
		if c.risk && (d.ID != 1 || d.Reason != ReasonAtRisk) || !c.risk && (d.ID != 3 || d.Reason != ReasonBestFit) {
			t.Errorf("margin %v: MP = %+v", c.margin, d)
		}
	}
}

// TestAtRiskCountsRunningTasks: Eq. 3's n_tasks is pending plus running.
// Four tasks running on dedicated slots with TCT 10 s complete 0.4 tasks/s:
// 20 s before the deadline that is 8 < 6 pending + 4 running (at risk), 25 s
// before it 10 ≥ 10 (on track). Counting only the 6 pending tasks would call
// both on track.
func TestAtRiskCountsRunningTasks(t *testing.T) {
	q, _ := NewQueue(Config{})
	for _, c := range []struct {
		deadline float64
		want     bool
	}{{20, true}, {25, false}} {
		id := int64(c.deadline)
		q.Add(Job{ID: id, Deadline: c.deadline, Tasks: 10, Model: flat(10)})
		for range 4 {
			if _, err := q.Start(id, 1); err != nil {
				t.Fatal(err)
			}
		}
		if risk, ok := q.AtRisk(id, 0); !ok || risk != c.want {
			t.Errorf("deadline %v: AtRisk = %v, want %v", c.deadline, risk, c.want)
		}
	}
}

// TestTieBreaksEndOnID: two jobs equal in deadline, arrival and model go
// to the smaller ID under every picker, whatever the insertion order.
func TestTieBreaksEndOnID(t *testing.T) {
	for _, ids := range [][2]int64{{5, 3}, {3, 5}} {
		q, _ := NewQueue(Config{})
		var alg2 []Alg2Job
		for _, id := range ids {
			q.Add(Job{ID: id, Arrival: 1, Deadline: 50, Tasks: 2, Model: flat(10)})
			alg2 = append(alg2, Alg2Job{ID: id, Arrival: 1, Deadline: 50, PendingMaps: 2, CompletedTasks: 1,
				Slots: MinSlots{Status: SlotsFeasible, Map: 1, Reduce: 1}})
		}
		ai, err := Algorithm2(alg2, MapSlot)
		if err != nil {
			t.Fatal(err)
		}
		picks := map[string]Decision{"FIFO": q.FIFO(), "EDF": q.EDF(), "Algorithm2": {ID: alg2[ai].ID},
			"MP at-risk": mustMP(t, q, 1, 0, MPOptions{})} // no job holds a slot: both at risk
		for _, id := range ids {
			if _, err := q.Start(id, 1); err != nil {
				t.Fatal(err)
			}
		}
		// 10^6 s before the deadline one slot each is plenty: best fit, NormTCT 1 for both.
		picks["MP best-fit"] = mustMP(t, q, 1, -1e6, MPOptions{})
		for name, d := range picks {
			if d.ID != 3 {
				t.Errorf("insertion %v, %s: picked %+v, want ID 3", ids, name, d)
			}
		}
		if d := picks["MP best-fit"]; d.Reason != ReasonBestFit {
			t.Errorf("MP = %+v, want best-fit", d)
		}
	}
}

// TestMPIOSkipIntoBestFit: at r = 0.5 the only at-risk job (TCT 100 − 50r,
// NormTCT 1.5) would overload the data nodes (IO 9/1.5 = 6 > 5), so MP falls
// through to best fit. The best-fit job (flat, NormTCT 1) is step 2's first
// choice and fits, but the reason is io-skip because step 1's choice was
// passed over.
func TestMPIOSkipIntoBestFit(t *testing.T) {
	q, _ := NewQueue(Config{DataNodes: DataNodes{Count: 1, Capacity: 5}})
	q.Add(Job{ID: 1, Deadline: 100, Tasks: 3, Model: lin{100, 50}, Read90: 9})
	q.Add(Job{ID: 2, Deadline: NoDeadline(), Tasks: 3, Model: flat(10), Read90: 1})
	if d := mustMP(t, q, 0.5, 0, MPOptions{}); d.ID != 2 || d.Reason != ReasonIOSkip || d.AtRisk || d.NormTCT != 1 {
		t.Errorf("MP = %+v, want job 2 io-skip (not at risk)", d)
	}
}

// TestQueueOverflowGuards pins three fuzz-style edge cases: a task time so
// small that its rate 1/TCT is +Inf (the job's rate sum went NaN on
// release), an IO load that overflows the data nodes' sum, and a deadline so
// far from now that the time left overflows to +Inf (∞·0 made a job holding
// no slot look on track).
func TestQueueOverflowGuards(t *testing.T) {
	q, _ := NewQueue(Config{})
	q.Add(Job{ID: 1, Deadline: 100, Tasks: 3, Model: flat(5e-324)})
	if _, err := q.Start(1, 1); !errors.Is(err, ErrBadInput) {
		t.Errorf("Start with rate 1/5e-324 = +Inf: err = %v, want ErrBadInput", err)
	}
	if d := mustMP(t, q, 1, 0, MPOptions{NoIOCheck: true}); d.Reason != ReasonIdle {
		t.Errorf("MP offered the slot to a job Start refuses: %+v", d)
	}
	if st, _ := q.Status(1); st.Rate != 0 || st.Running != 0 || st.Tasks != 3 {
		t.Errorf("refused Start changed the job: %+v", st)
	}

	q2, _ := NewQueue(Config{})
	q2.Add(Job{ID: 2, Deadline: 100, Tasks: 3, Model: flat(10), Read90: math.MaxFloat64})
	first, err := q2.Start(2, 1) // IO = MaxFloat64: still finite
	if err != nil || first.IO() != math.MaxFloat64 {
		t.Fatalf("first Start: %v, IO %v", err, first.IO())
	}
	if d := mustMP(t, q2, 1, 0, MPOptions{NoIOCheck: true}); d.Reason != ReasonIdle {
		t.Errorf("MP offered a task whose IO overflows the sum: %+v", d)
	}
	if _, err := q2.Start(2, 1); !errors.Is(err, ErrBadInput) {
		t.Errorf("second Start overflowing Σ IO: err = %v, want ErrBadInput", err)
	}
	if math.IsInf(q2.IO(), 0) || math.IsNaN(q2.IO()) {
		t.Errorf("IO = %v after a refused Start", q2.IO())
	}
	if err := q2.End(first, true); err != nil || q2.IO() != 0 {
		t.Errorf("End: %v, IO %v", err, q2.IO())
	}

	q3, _ := NewQueue(Config{})
	q3.Add(Job{ID: 3, Deadline: 1.7e308, Tasks: 5, Model: flat(1)})
	if risk, ok := q3.AtRisk(3, -1.7e308); !ok || !risk {
		t.Errorf("job with no slot and time left +Inf: AtRisk = %v %v, want at risk", risk, ok)
	}
	if d := mustMP(t, q3, 1, -1.7e308, MPOptions{}); d.ID != 3 || d.Reason != ReasonAtRisk {
		t.Errorf("MP = %+v, want job 3 at-risk", d)
	}
}

// TestCompareEDF: deadline first (no deadline last), then arrival, then
// ID; NaN first, as cmp.Compare.
func TestCompareEDF(t *testing.T) {
	inf := NoDeadline()
	for _, c := range []struct {
		a, b Job
		want int
	}{
		{Job{Deadline: 5, Arrival: 9, ID: 9}, Job{Deadline: 6}, -1},
		{Job{Deadline: inf}, Job{Deadline: 1e308, Arrival: 9, ID: 9}, 1},
		{Job{Deadline: 5, Arrival: 1, ID: 9}, Job{Deadline: 5, Arrival: 2}, -1},
		{Job{Deadline: 5, Arrival: 1, ID: 3}, Job{Deadline: 5, Arrival: 1, ID: 2}, 1},
		{Job{Deadline: inf, Arrival: 1, ID: 2}, Job{Deadline: inf, Arrival: 1, ID: 2}, 0},
		{Job{Deadline: math.NaN()}, Job{Deadline: -1e308}, -1},
	} {
		if got := CompareEDF(c.a, c.b); got != c.want {
			t.Errorf("CompareEDF(%+v, %+v) = %d, want %d", c.a, c.b, got, c.want)
		}
		if got := CompareEDF(c.b, c.a); got != -c.want {
			t.Errorf("CompareEDF(%+v, %+v) = %d, want %d", c.b, c.a, got, -c.want)
		}
	}
	if CompareDeadline(inf, 1) != 1 || CompareDeadline(1, 2) != -1 || CompareDeadline(3, 3) != 0 {
		t.Error("CompareDeadline")
	}
}

func TestReasonString(t *testing.T) {
	want := map[Reason]string{ReasonIdle: "idle", ReasonOrder: "order", ReasonAtRisk: "at-risk", ReasonBestFit: "best-fit", ReasonIOSkip: "io-skip", 99: "Reason(99)"}
	for r, s := range want {
		if r.String() != s {
			t.Errorf("%d.String() = %q, want %q", r, r.String(), s)
		}
	}
}

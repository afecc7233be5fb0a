package progressshare

import (
	"errors"
	"math"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
)

// twoTypes is the §4.3.1.1 cluster: 2 slots of N1 (type 0) on node 0 and 4
// slots of N2 (type 1) on nodes 1 and 2, one rack.
func twoTypes(t testing.TB, opt Options) *Scheduler {
	t.Helper()
	s, err := NewScheduler([]Slot{
		{Node: 0, Type: 0}, {Node: 0, Type: 0},
		{Node: 1, Type: 1}, {Node: 1, Type: 1}, {Node: 2, Type: 1}, {Node: 2, Type: 1},
	}, opt)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// everywhere is a block with a replica on each node of twoTypes.
var everywhere = Block{Replicas: []int{0, 1, 2}}

func TestProgressShareThesisExample(t *testing.T) {
	s := twoTypes(t, Options{})
	// Job A runs 3× faster on N1: CR = 3 on N1, 1 on N2, so Σ_S CR = 2·3+4·1 = 10.
	// Job B is equally fast: Σ_S CR = 6.
	a, b := []float64{3, 1}, []float64{1, 1}
	for _, tt := range []struct {
		name    string
		rates   []float64
		running []int
		ps, ss  float64
	}{
		{"A on 1 N1 + 2 N2", a, []int{1, 2}, 5.0 / 10, 0.5},
		{"A on 2 N1 + 1 N2", a, []int{2, 1}, 7.0 / 10, 0.5},
		{"A on 3 N2 (under-served, Fig. 4.6)", a, []int{0, 3}, 3.0 / 10, 0.5},
		{"A on 2 N1 only (Fig. 4.7)", a, []int{2}, 6.0 / 10, 1.0 / 3},
		{"B on 1 N1 + 2 N2", b, []int{1, 2}, 0.5, 0.5},
		{"B on 4 N2", b, []int{0, 4}, 4.0 / 6, 4.0 / 6},
		{"A everywhere", a, []int{2, 4}, 1, 1},
		{"A nowhere", a, nil, 0, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			j := Job{Weight: 1, Rates: tt.rates, Running: tt.running}
			ps, err := s.ProgressShare(j)
			if err != nil {
				t.Fatal(err)
			}
			ss, err := s.SlotShare(j)
			if err != nil {
				t.Fatal(err)
			}
			if !scalar.EqualWithinAbs(ps, tt.ps, 1e-15) || !scalar.EqualWithinAbs(ss, tt.ss, 1e-15) {
				t.Fatalf("PS, slot share = %v, %v; want %v, %v", ps, ss, tt.ps, tt.ss)
			}
		})
	}
	// Fig. 4.7: A on both N1 slots, B on the four N2 slots: Σ PS = 0.6 + 4/6 > 1,
	// the "effective assignment" of §4.3.1.1 (the sum exceeds 1 under job affinity).
	psA, _ := s.ProgressShare(Job{Weight: 1, Rates: a, Running: []int{2, 0}})
	psB, _ := s.ProgressShare(Job{Weight: 1, Rates: b, Running: []int{0, 4}})
	if !(psA+psB > 1) {
		t.Fatalf("Σ PS = %v, want > 1 with job affinity", psA+psB)
	}
	if _, err := s.ProgressShare(Job{Weight: 1, Rates: []float64{3}}); !errors.Is(err, ErrCalibrating) || errors.Is(err, ErrBadInput) {
		t.Fatalf("calibrating job: err = %v, want ErrCalibrating only", err)
	}
}

func TestPrefByHand(t *testing.T) {
	// Rack 0: node 0 (type 0, 2 slots), node 1 (type 1, 2 slots); rack 1: node 2 (type 1, 2 slots).
	s, err := NewScheduler([]Slot{
		{0, 0, 0}, {0, 0, 0}, {1, 1, 0}, {1, 1, 0}, {2, 1, 1}, {2, 1, 1},
	}, Options{ReadTime: [3]float64{0, 1, 2}, MaxDelay: 10})
	if err != nil {
		t.Fatal(err)
	}
	// Tp = 1 s on type 0, 2 s on type 1; the block is on node 1.
	// BS: node 0 rack-local 1/(1+1) = 0.5; node 1 local 1/(0+2) = 0.5; node 2 remote 1/(2+2) = 0.25.
	// Σ BS = 2·0.5 + 2·0.5 + 2·0.25 = 2.5, so Pref = 1, 1, 0.5/2.5 = 0.2.
	j := Job{Weight: 1, Rates: []float64{1, 0.5}, Pending: []Block{{Replicas: []int{1}}}}
	for _, tt := range []struct {
		slot int
		bs   float64
		loc  Locality
		pref float64
	}{{0, 0.5, RackLocal, 1}, {2, 0.5, NodeLocal, 1}, {4, 0.25, Remote, 0.2}} {
		bs, loc, err := s.BestScore(tt.slot, j, 0)
		if err != nil {
			t.Fatal(err)
		}
		p, err := s.Pref(tt.slot, j, 0)
		if err != nil {
			t.Fatal(err)
		}
		if bs != tt.bs || loc != tt.loc || !scalar.EqualWithinAbs(p, tt.pref, 1e-15) {
			t.Errorf("slot %d: BS %v %v Pref %v; want %v %v %v", tt.slot, bs, loc, p, tt.bs, tt.loc, tt.pref)
		}
	}
	// Algorithm 2 on slot 4 (Pref 0.2): launch iff 0.8 ≤ delay/10, i.e. delay ≥ 8 s.
	for _, tt := range []struct {
		delay  float64
		launch bool
	}{{0, false}, {7.9, false}, {8.1, true}, {100, true}} {
		j.LastLaunch = 100 - tt.delay
		d, err := s.PickProgressShare(4, []Job{j}, 100)
		if err != nil {
			t.Fatal(err)
		}
		if d.Launch != tt.launch {
			t.Errorf("delay %v: %+v, want launch %v", tt.delay, d, tt.launch)
		}
		if !tt.launch && (d.Reason != ReasonWaiting || d.Job != -1 || d.Examined != 1) {
			t.Errorf("delay %v: skip %+v", tt.delay, d)
		}
	}
}

func TestPickProgressShareTwoTypes(t *testing.T) {
	s := twoTypes(t, Options{MaxDelay: 10})
	// Both at PS 0.5 (A on 1 N1 + 2 N2, B on 1 N1 + 2 N2): A comes first by index.
	// On an N2 slot A's Pref is 4·1/(2·3+4·1) = 0.4, so A waits until delay ≥ 6 s;
	// B's Pref is 1 everywhere, so B takes the slot meanwhile.
	jobs := []Job{
		{Weight: 1, Rates: []float64{3, 1}, Running: []int{1, 2}, Pending: []Block{everywhere}, LastLaunch: 100},
		{Weight: 1, Rates: []float64{1, 1}, Running: []int{1, 2}, Pending: []Block{everywhere}, LastLaunch: 100},
	}
	for _, tt := range []struct {
		name     string
		slot     int
		now      float64
		job      int
		pref     float64
		examined int
	}{
		{"N1 slot: A at once", 0, 100, 0, 1, 1},
		{"N2 slot, A delayed 5.5 s: B (A declined by node type alone)", 2, 105.5, 1, 1, 1},
		{"N2 slot, A delayed 6.5 s: A", 2, 106.5, 0, 0.4, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d, err := s.PickProgressShare(tt.slot, jobs, tt.now)
			if err != nil {
				t.Fatal(err)
			}
			if !d.Launch || d.Reason != ReasonPreferred || d.Job != tt.job || d.Block != 0 || d.Examined != tt.examined ||
				!scalar.EqualWithinAbs(d.Pref, tt.pref, 1e-15) || d.Calibrating {
				t.Fatalf("got %+v, want job %d Pref %v examined %d", d, tt.job, tt.pref, tt.examined)
			}
		})
	}
	// Weighted: B with weight 2 has PS/w = 0.25 < 0.5, so it goes first.
	jobs[1].Weight = 2
	if d, _ := s.PickProgressShare(0, jobs, 100); d.Job != 1 {
		t.Fatalf("weighted order: got job %d, want 1", d.Job)
	}
	// Progress share, not slot share: A on 3 N2 slots has PS 0.3 < B's 0.5 though
	// both hold 3 slots, so A is served first on an N1 slot.
	jobs[1].Weight = 1
	jobs[0].Running = []int{0, 3}
	jobs[1].Running = []int{2, 1}
	if d, _ := s.PickProgressShare(0, jobs, 100); d.Job != 0 {
		t.Fatalf("got job %d, want A (0)", d.Job)
	}
	jobs[0].Running = []int{2, 1} // PS 0.7 vs B on 0 N1 + 3 N2: 0.5
	jobs[1].Running = []int{0, 3}
	if d, _ := s.PickProgressShare(0, jobs, 100); d.Job != 1 {
		t.Fatalf("got job %d, want B (1)", d.Job)
	}
}

func TestCalibrationFirst(t *testing.T) {
	s := twoTypes(t, Options{MaxDelay: 10})
	cal := Job{Weight: 1, Rates: []float64{2, 0}, Running: []int{1, 0}, Pending: []Block{everywhere}, LastLaunch: 0}
	done := Job{Weight: 1, Rates: []float64{1, 1}, Pending: []Block{everywhere}, LastLaunch: 0}
	// The calibrated job has PS 0 < the calibrating one's slot share 1/6, but on
	// an N2 slot (unmeasured for cal, nothing running there) calibration wins.
	d, err := s.PickProgressShare(2, []Job{done, cal}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !d.Launch || d.Reason != ReasonCalibration || d.Job != 1 || !d.Calibrating {
		t.Fatalf("got %+v, want a calibration launch of job 1", d)
	}
	// On N1 (measured for cal) the order is by share: done (0) first.
	if d, _ := s.PickProgressShare(0, []Job{done, cal}, 0); d.Job != 0 || d.Reason != ReasonPreferred {
		t.Fatalf("N1 slot: got %+v", d)
	}
	// A calibration task already runs on N2: no second one; done goes first.
	cal.Running = []int{1, 1}
	if d, _ := s.PickProgressShare(2, []Job{done, cal}, 0); d.Job != 0 || d.Reason != ReasonPreferred {
		t.Fatalf("calibration already running: got %+v", d)
	}
}

func TestPickSlotShareDelayScheduling(t *testing.T) {
	// Rack 0: nodes 0, 1; rack 1: node 2. One slot each, one type.
	s, err := NewScheduler([]Slot{{0, 0, 0}, {1, 0, 0}, {2, 0, 1}}, Options{RackDelay: 5, RemoteDelay: 10})
	if err != nil {
		t.Fatal(err)
	}
	onNode0 := Block{Replicas: []int{0}}
	for _, tt := range []struct {
		name   string
		slot   int
		delay  float64
		launch bool
		loc    Locality
	}{
		{"node-local at once", 0, 0, true, NodeLocal},
		{"rack-local waits", 1, 4.9, false, RackLocal},
		{"rack-local after d1", 1, 5, true, RackLocal},
		{"remote waits past d1", 2, 9.9, false, Remote},
		{"remote after d2", 2, 10, true, Remote},
	} {
		t.Run(tt.name, func(t *testing.T) {
			j := Job{Weight: 1, Pending: []Block{onNode0}, LastLaunch: 20 - tt.delay}
			d, err := s.PickSlotShare(tt.slot, []Job{j}, 20)
			if err != nil {
				t.Fatal(err)
			}
			if d.Launch != tt.launch || (tt.launch && (d.Locality != tt.loc || d.Reason != ReasonLocality)) {
				t.Fatalf("got %+v, want launch %v %v", d, tt.launch, tt.loc)
			}
		})
	}
	// The block read is the best one: on node 0 that is Pending[1] via replica 0.
	d, _ := s.PickSlotShare(0, []Job{{Weight: 1, Pending: []Block{{Replicas: []int{2}}, onNode0}}}, 0)
	if d.Block != 1 || d.Replica != 0 {
		t.Fatalf("got block %d replica %d, want 1, 0", d.Block, d.Replica)
	}
	// Slot share order: the job with fewer running tasks first.
	jobs := []Job{{Weight: 1, Running: []int{2}, Pending: []Block{onNode0}}, {Weight: 1, Running: []int{1}, Pending: []Block{onNode0}}}
	if d, _ := s.PickSlotShare(0, jobs, 0); d.Job != 1 {
		t.Fatalf("got job %d, want 1", d.Job)
	}
	if d, _ := s.PickSlotShare(0, []Job{{Weight: 1}}, 0); d.Launch || d.Reason != ReasonNoPendingTask {
		t.Fatalf("no pending: got %+v", d)
	}
}

func TestNewSchedulerBadInput(t *testing.T) {
	nan := math.NaN()
	good := []Slot{{0, 0, 0}, {1, 1, 0}}
	for _, tt := range []struct {
		name  string
		slots []Slot
		opt   Options
		field string
	}{
		{"no slots", nil, Options{}, "len(slots)"},
		{"negative node", []Slot{{-1, 0, 0}}, Options{}, "slots[0].Node"},
		{"type too big", []Slot{{0, MaxType + 1, 0}, {1, 0, 0}}, Options{}, "slots[0].Type"},
		{"node too big", []Slot{{MaxNode + 1, 0, 0}}, Options{}, "slots[0].Node"},
		{"negative rack", []Slot{{0, 0, -5}}, Options{}, "slots[0].Rack"},
		{"node with two types", []Slot{{0, 0, 0}, {0, 1, 0}}, Options{}, "slots[1].Type"},
		{"node in two racks", []Slot{{0, 0, 0}, {0, 0, 1}}, Options{}, "slots[1].Rack"},
		{"NaN read time", good, Options{ReadTime: [3]float64{nan, 0, 0}}, "Options.ReadTime[0]"},
		{"negative read", good, Options{ReadTime: [3]float64{0, -1, 0}}, "Options.ReadTime[1]"},
		{"huge read", good, Options{ReadTime: [3]float64{0, 0, math.Inf(1)}}, "Options.ReadTime[2]"},
		{"remote faster", good, Options{ReadTime: [3]float64{0, 2, 1}}, "Options.ReadTime[2]"},
		{"rack faster", good, Options{ReadTime: [3]float64{2, 1, 3}}, "Options.ReadTime[1]"},
		{"NaN max delay", good, Options{MaxDelay: nan}, "Options.MaxDelay"},
		{"negative d1", good, Options{RackDelay: -1}, "Options.RackDelay"},
		{"d2 < d1", good, Options{RackDelay: 5, RemoteDelay: 1}, "Options.RemoteDelay"},
		{"Inf d2", good, Options{RemoteDelay: math.Inf(1)}, "Options.RemoteDelay"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s, err := NewScheduler(tt.slots, tt.opt)
			assertField(t, err, tt.field)
			if s != nil {
				t.Fatal("non-nil Scheduler with an error")
			}
		})
	}
}

func assertField(t *testing.T, err error, field string) {
	t.Helper()
	var ve *ValueError
	if !errors.Is(err, ErrBadInput) || !errors.As(err, &ve) || ve.Field != field {
		t.Fatalf("err = %v, want a ValueError on %s", err, field)
	}
}

func TestPickBadInput(t *testing.T) {
	s := twoTypes(t, Options{MaxDelay: 10, RackDelay: 1, RemoteDelay: 2})
	nan, inf := math.NaN(), math.Inf(1)
	ok := Job{Weight: 1, Rates: []float64{1, 1}, Pending: []Block{everywhere}}
	with := func(f func(*Job)) []Job { j := ok; f(&j); return []Job{ok, j} }
	for _, tt := range []struct {
		name     string
		slot     int
		now      float64
		jobs     []Job
		field    string
		baseline bool // Algorithm 1 reports it too
	}{
		{"slot -1", -1, 0, []Job{ok}, "slot", true},
		{"slot past end", 6, 0, []Job{ok}, "slot", true},
		{"NaN now", 0, nan, []Job{ok}, "now", true},
		{"Inf now", 0, inf, []Job{ok}, "now", true},
		{"zero weight", 0, 0, with(func(j *Job) { j.Weight = 0 }), "jobs[1].Weight", true},
		{"NaN weight", 0, 0, with(func(j *Job) { j.Weight = nan }), "jobs[1].Weight", true},
		{"Inf weight", 0, 0, with(func(j *Job) { j.Weight = inf }), "jobs[1].Weight", true},
		{"launch in the future", 0, 0, with(func(j *Job) { j.LastLaunch = 1 }), "jobs[1].LastLaunch", true},
		{"NaN last launch", 0, 0, with(func(j *Job) { j.LastLaunch = nan }), "jobs[1].LastLaunch", true},
		{"-Inf last launch", 0, 0, with(func(j *Job) { j.LastLaunch = math.Inf(-1) }), "jobs[1].LastLaunch", true},
		{"negative rate", 0, 0, with(func(j *Job) { j.Rates = []float64{1, -1} }), "jobs[1].Rates[1]", false},
		{"NaN rate", 0, 0, with(func(j *Job) { j.Rates = []float64{nan} }), "jobs[1].Rates[0]", false},
		{"tiny rate", 0, 0, with(func(j *Job) { j.Rates = []float64{1e-300, 1} }), "jobs[1].Rates[0]", false},
		{"too many rates", 0, 0, with(func(j *Job) { j.Rates = []float64{1, 1, 1} }), "len(jobs[1].Rates)", false},
		{"negative running", 0, 0, with(func(j *Job) { j.Running = []int{-1} }), "jobs[1].Running[0]", true},
		{"more running than slots", 0, 0, with(func(j *Job) { j.Running = []int{3} }), "jobs[1].Running[0]", true},
		{"too many running", 0, 0, with(func(j *Job) { j.Running = []int{0, 0, 0} }), "len(jobs[1].Running)", true},
		{"block without replica", 0, 0, []Job{{Weight: 1, Rates: []float64{1, 1}, Pending: []Block{{}}}}, "jobs[0].Pending[0].Replicas", true},
		{"replica not a node", 0, 0, []Job{{Weight: 1, Rates: []float64{1, 1}, Pending: []Block{{Replicas: []int{7}}}}}, "jobs[0].Pending[0].Replicas[0]", true},
		{"negative replica", 0, 0, []Job{{Weight: 1, Rates: []float64{1, 1}, Pending: []Block{{Replicas: []int{-1}}}}}, "jobs[0].Pending[0].Replicas[0]", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := s.PickProgressShare(tt.slot, tt.jobs, tt.now)
			assertField(t, err, tt.field)
			_, err = s.PickSlotShare(tt.slot, tt.jobs, tt.now)
			if tt.baseline {
				assertField(t, err, tt.field)
			} else if err != nil {
				t.Fatalf("baseline reads no rates, got %v", err)
			}
			if tt.slot >= 0 && tt.slot < 6 {
				err := s.Validate(tt.jobs, tt.now)
				var ve *ValueError
				if !errors.Is(err, ErrBadInput) || !errors.As(err, &ve) || (ve.Field != tt.field && tt.field != "now") {
					t.Fatalf("Validate: %v, want %s", err, tt.field)
				}
			}
		})
	}
	if err := s.Validate([]Job{ok}, 0); err != nil {
		t.Fatalf("Validate(good) = %v", err)
	}
}

func TestSingleJobBadInput(t *testing.T) {
	s := twoTypes(t, Options{})
	ok := Job{Weight: 1, Rates: []float64{1, 1}, Pending: []Block{everywhere}}
	for _, tt := range []struct {
		name  string
		slot  int
		job   Job
		block int
		field string
	}{
		{"slot", 9, ok, 0, "slot"},
		{"block -1", 0, ok, -1, "block"},
		{"block past end", 0, ok, 1, "block"},
		{"bad replica", 0, Job{Weight: 1, Pending: []Block{{Replicas: []int{99}}}}, 0, "job.Pending[0].Replicas[0]"},
		{"bad rate", 0, Job{Weight: 1, Rates: []float64{math.Inf(1)}, Pending: []Block{everywhere}}, 0, "job.Rates[0]"},
		{"bad running", 0, Job{Weight: 1, Running: []int{0, 5}, Pending: []Block{everywhere}}, 0, "job.Running[1]"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := s.Pref(tt.slot, tt.job, tt.block)
			assertField(t, err, tt.field)
			_, _, err = s.BestScore(tt.slot, tt.job, tt.block)
			assertField(t, err, tt.field)
		})
	}
	_, err := s.ProgressShare(Job{Rates: []float64{1, math.NaN()}})
	assertField(t, err, "job.Rates[1]")
	_, err = s.SlotShare(Job{Running: []int{-2}})
	assertField(t, err, "job.Running[0]")
	assertField(t, s.Validate(nil, math.NaN()), "now")
	// A zero Scheduler (not made by NewScheduler) has no slot: errors, not 0/0.
	var zero Scheduler
	_, err = zero.ProgressShare(Job{Weight: 1})
	assertField(t, err, "Scheduler")
	_, err = zero.SlotShare(Job{Weight: 1})
	assertField(t, err, "Scheduler")
	_, err = zero.PickProgressShare(0, []Job{{Weight: 1}}, 0)
	assertField(t, err, "slot")
	assertField(t, zero.Validate([]Job{{Weight: 1}}, 0), "Scheduler")
}

func TestPendingIndexBadInput(t *testing.T) {
	s := twoTypes(t, Options{})
	x, err := s.NewPendingIndex([]Block{{Replicas: []int{1}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name  string
		err   error
		field string
	}{
		{"new with a bad block", func() error { _, err := s.NewPendingIndex([]Block{{Replicas: []int{1}}, {}}); return err }(), "job.Pending[1].Replicas"},
		{"add without replicas", x.Add(Block{}), "job.Pending[0].Replicas"},
		{"add on no node", x.Add(Block{Replicas: []int{0, 9}}), "job.Pending[0].Replicas[1]"},
		{"remove a block never added", x.Remove(Block{Replicas: []int{0}}), "job.Pending[0].Replicas[0]"},
		{"remove on a negative node", x.Remove(Block{Replicas: []int{-1}}), "job.Pending[0].Replicas[0]"},
		{"add to a zero index", new(PendingIndex).Add(Block{Replicas: []int{1}}), "PendingIndex"},
		{"remove from a nil index", (*PendingIndex)(nil).Remove(Block{Replicas: []int{1}}), "PendingIndex"},
	} {
		t.Run(tt.name, func(t *testing.T) { assertField(t, tt.err, tt.field) })
	}
	if x.Len() != 1 || (*PendingIndex)(nil).Len() != 0 {
		t.Fatalf("failed calls changed the index: Len %d", x.Len())
	}
	// A zero index on a job is not used: the picker reads the blocks.
	zero := Job{Weight: 1, Rates: []float64{1, 1}, Pending: []Block{{Replicas: []int{1}}}, Index: new(PendingIndex)}
	if d, err := s.PickProgressShare(2, []Job{zero}, 0); err != nil || !d.Launch || d.Locality != NodeLocal {
		t.Fatalf("zero index: %+v %v", d, err)
	}
	// An index out of step with Pending: no panic, no error, a valid block.
	stale, _ := s.NewPendingIndex([]Block{{Replicas: []int{0}}})
	j := Job{Weight: 1, Rates: []float64{1, 1}, Pending: []Block{{Replicas: []int{2}}, {Replicas: []int{1}}}, Index: stale}
	d, err := s.PickProgressShare(2, []Job{j}, 0)
	if err != nil || !d.Launch || d.Block < 0 || d.Block > 1 {
		t.Fatalf("stale index: %+v %v", d, err)
	}
}

func TestMustDeclineByHand(t *testing.T) {
	// One rack: node 0 has one slot of type 1 (Tp 8 s), nodes 1–5 one slot of
	// type 0 (Tp 1 s); Tr = 1, 3.5, 5 s. The only block is on node 0.
	// On slot 0 the block is node-local: BS = 1/(1+8) = 1/9. The five type-0
	// slots see it rack-local: BS = 1/(3.5+1) = 2/9 each. Eq. 4.4:
	// Pref = (1/9)/(1/9 + 10/9) = 1/11, so the job launches iff
	// delay/max_delay ≥ 10/11.
	// The shortcut knows only node types: type 0 beats slot 0 even remotely
	// (5+1 < 9), so X ≥ 5/6; type 1 adds at most N = 1/9. It declines while
	// ratio < (5/6)/(1/9 + 5/6) = 15/17 ≈ 0.882 without reading the block;
	// between 15/17 and 10/11 the block is read and the job declines.
	slots := []Slot{{0, 1, 0}}
	for n := 1; n <= 5; n++ {
		slots = append(slots, Slot{n, 0, 0})
	}
	s, err := NewScheduler(slots, Options{ReadTime: [3]float64{1, 3.5, 5}, MaxDelay: 11})
	if err != nil {
		t.Fatal(err)
	}
	j := Job{Weight: 1, Rates: []float64{1, 0.125}, Pending: []Block{{Replicas: []int{0}}}}
	if p, _ := s.Pref(0, j, 0); !scalar.EqualWithinAbs(p, 1.0/11, 1e-15) {
		t.Fatalf("Pref = %v, want 1/11", p)
	}
	for _, tt := range []struct {
		delay    float64 // max_delay is 11 s
		launch   bool
		examined int
	}{
		{9.5, false, 0},  // ratio 0.864 < 15/17: declined from node types alone
		{9.85, false, 1}, // ratio 0.895: in (15/17, 10/11), read and declined
		{10.03, true, 1}, // ratio 0.912 ≥ 10/11 (a bound with N too small, e.g. 1/13, would decline here)
	} {
		j.LastLaunch = 100 - tt.delay
		for _, indexed := range []bool{false, true} {
			j.Index = nil
			if indexed {
				j.Index, _ = s.NewPendingIndex(j.Pending)
			}
			d, err := s.PickProgressShare(0, []Job{j}, 100)
			if err != nil || d.Launch != tt.launch || d.Examined != tt.examined {
				t.Errorf("delay %v indexed %v: %+v %v; want launch %v examined %d", tt.delay, indexed, d, err, tt.launch, tt.examined)
			}
		}
	}
}

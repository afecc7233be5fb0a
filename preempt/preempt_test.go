package preempt

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
)

// handCluster: at now = 100, job 0 (share 2) runs four tasks started at 10,
// 20, 30, 40; job 1 (share 4) runs two started at 90 and 95; job 2 is the
// production job the slots are for (NoPreempt).
func handCluster() Cluster {
	return Cluster{
		Now: 100,
		Jobs: []Job{
			{Share: 2, Long: true},
			{Share: 4, Queued: 3},
			{Share: 10, Queued: 4, NoPreempt: true},
		},
		Tasks: []Task{
			{ID: 1, Job: 0, Start: 10, Slots: 1},
			{ID: 2, Job: 0, Start: 20, Slots: 1},
			{ID: 3, Job: 0, Start: 30, Slots: 1},
			{ID: 4, Job: 0, Start: 40, Slots: 1},
			{ID: 5, Job: 1, Start: 90, Slots: 1},
			{ID: 6, Job: 1, Start: 95, Slots: 1},
			{ID: 7, Job: 2, Start: 99, Slots: 1},
		},
	}
}

func ids(d Decision) []int64 {
	var out []int64
	for _, v := range d.Victims {
		out = append(out, v.ID)
	}
	return out
}

func TestHandWorked(t *testing.T) {
	busy := GPOptions{Busy: true, NTask: 5, Timeout: 360}
	tests := []struct {
		name    string
		c       func() Cluster
		k       int
		gp      bool
		opt     GPOptions
		want    []int64
		reasons []Reason
		freed   int
		lost    float64
	}{
		// Baseline: job 0 holds 4 > share 2, its overflow is tasks 4 then 3.
		{"baseline k=2", handCluster, 2, false, GPOptions{}, []int64{4, 3}, []Reason{ReasonOverflow, ReasonOverflow}, 2, 60 + 70},
		// Only two overflowing slots exist; job 1 is under its share.
		{"baseline k=5", handCluster, 5, false, GPOptions{}, []int64{4, 3}, []Reason{ReasonOverflow, ReasonOverflow}, 2, 130},
		// GP: the newest tasks cluster-wide, job 2's task is protected.
		{"GP k=2", handCluster, 2, true, GPOptions{}, []int64{6, 5}, []Reason{ReasonMostRecent, ReasonMostRecent}, 2, 5 + 10},
		// Busy and 7 queued slots > n_task 5: job 0 starves others. Before
		// T_timeout half of its 2 overflowing tasks go first (⌈0.5·2⌉ = 1).
		{"GP starving, graduated", handCluster, 2, true, busy, []int64{4, 6}, []Reason{ReasonStarvingLongJob, ReasonMostRecent}, 2, 60 + 5},
		{"GP starving, timed out", func() Cluster {
			c := handCluster()
			c.Jobs[0].StarvingFor = 360
			return c
		}, 3, true, busy, []int64{4, 3, 6}, []Reason{ReasonStarvingLongJob, ReasonStarvingLongJob, ReasonMostRecent}, 3, 60 + 70 + 5},
		// Starvation victims stop at k.
		{"GP starving, k=1", func() Cluster {
			c := handCluster()
			c.Jobs[0].StarvingFor = 360
			return c
		}, 1, true, busy, []int64{4}, []Reason{ReasonStarvingLongJob}, 1, 60},
		// 90%-of-queue exception: job 2 holds 40 of 43 queued slots (> 90%).
		{"GP dominated queue", func() Cluster {
			c := handCluster()
			c.Jobs[2].Queued = 40
			return c
		}, 2, true, busy, []int64{6, 5}, []Reason{ReasonMostRecent, ReasonMostRecent}, 2, 15},
		// The others' queue is exact next to a huge own queue: 3 + 4 = 7 >
		// n_task 6 beside math.MaxInt (a float64 sum would round 7 away).
		{"GP own queue MaxInt", func() Cluster {
			c := handCluster()
			c.Jobs[0].Queued = math.MaxInt
			return c
		}, 2, true, GPOptions{Busy: true, NTask: 6, Timeout: 360}, []int64{4, 6}, []Reason{ReasonStarvingLongJob, ReasonMostRecent}, 2, 60 + 5},
		// Queue not above n_task: no starvation.
		{"GP short queue", handCluster, 1, true, GPOptions{Busy: true, NTask: 7}, []int64{6}, []Reason{ReasonMostRecent}, 1, 5},
		// The long job's own 5 queued slots are not others starving: the
		// others queue 3 + 4 = 7, not above n_task 7 (all jobs' 12 would be).
		{"GP own queue not counted", func() Cluster {
			c := handCluster()
			c.Jobs[0].Queued = 5
			return c
		}, 1, true, GPOptions{Busy: true, NTask: 7}, []int64{6}, []Reason{ReasonMostRecent}, 1, 5},
		// Nor does it dilute the 90% exception: job 2 holds 40 of the others'
		// 43 queued slots (93%), dominated; with job 0's 10 it would be 40 of
		// 53 (75%).
		{"GP own queue, dominated", func() Cluster {
			c := handCluster()
			c.Jobs[0].Queued = 10
			c.Jobs[2].Queued = 40
			return c
		}, 2, true, busy, []int64{6, 5}, []Reason{ReasonMostRecent, ReasonMostRecent}, 2, 15},
		{"k=0", handCluster, 0, true, busy, nil, nil, 0, 0},
		// Ties on start: lower job first, then lower task ID.
		{"ties", func() Cluster {
			return Cluster{Now: 10, Jobs: []Job{{}, {}}, Tasks: []Task{
				{ID: 9, Job: 1, Start: 5, Slots: 1},
				{ID: 8, Job: 0, Start: 5, Slots: 1},
				{ID: 7, Job: 0, Start: 5, Slots: 1},
			}}
		}, 2, true, GPOptions{}, []int64{7, 8}, []Reason{ReasonMostRecent, ReasonMostRecent}, 2, 10},
		// Two-slot tasks only, k = 3: exact is impossible, overshoot by 1.
		{"overshoot", func() Cluster {
			return Cluster{Now: 10, Jobs: []Job{{}}, Tasks: []Task{
				{ID: 1, Job: 0, Start: 9, Slots: 2},
				{ID: 2, Job: 0, Start: 8, Slots: 2},
				{ID: 3, Job: 0, Start: 7, Slots: 2},
			}}
		}, 3, true, GPOptions{}, []int64{1, 2}, []Reason{ReasonMostRecent, ReasonMostRecent}, 4, 2 + 4},
		// A 2-slot task that does not fit is skipped for an older one-slot task.
		{"skip to fit", func() Cluster {
			return Cluster{Now: 10, Jobs: []Job{{}}, Tasks: []Task{
				{ID: 1, Job: 0, Start: 9, Slots: 1},
				{ID: 2, Job: 0, Start: 8, Slots: 2},
				{ID: 3, Job: 0, Start: 0, Slots: 1},
			}}
		}, 2, true, GPOptions{}, []int64{1, 3}, []Reason{ReasonMostRecent, ReasonMostRecent}, 2, 1 + 10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var d Decision
			var err error
			if tt.gp {
				d, err = GP(tt.c(), tt.k, tt.opt)
			} else {
				d, err = Baseline(tt.c(), tt.k)
			}
			if err != nil {
				t.Fatal(err)
			}
			var rs []Reason
			for _, v := range d.Victims {
				rs = append(rs, v.Reason)
			}
			if !slices.Equal(ids(d), tt.want) || !slices.Equal(rs, tt.reasons) || d.Freed != tt.freed || d.WorkLost != tt.lost {
				t.Fatalf("got %v %v freed %d lost %v; want %v %v %d %v", ids(d), rs, d.Freed, d.WorkLost, tt.want, tt.reasons, tt.freed, tt.lost)
			}
		})
	}
}

// With multi-slot tasks GP can lose more work than the baseline for the same
// k: job 0 (share 0) has one 2-slot task started at 80; job 1 (under its
// share) runs one-slot tasks started at 90 and 0. The baseline kills the
// 2-slot overflow task (40 slot·s); GP takes the newest task, then must skip
// the 2-slot one and take the oldest (10 + 100 slot·s).
func TestGPMultiSlotCanLoseMore(t *testing.T) {
	c := Cluster{Now: 100, Jobs: []Job{{Share: 0}, {Share: 5}}, Tasks: []Task{
		{ID: 1, Job: 0, Start: 80, Slots: 2},
		{ID: 2, Job: 1, Start: 90, Slots: 1},
		{ID: 3, Job: 1, Start: 0, Slots: 1},
	}}
	b, _ := Baseline(c, 2)
	g, _ := GP(c, 2, GPOptions{})
	if b.Freed != 2 || g.Freed != 2 || b.WorkLost != 40 || g.WorkLost != 110 {
		t.Fatalf("baseline %v, GP %v", b, g)
	}
}

func TestStarvingReported(t *testing.T) {
	d, err := GP(handCluster(), 0, GPOptions{Busy: true, NTask: 5})
	if err != nil || !slices.Equal(d.Starving, []int{0}) {
		t.Fatalf("starving %v, err %v; want [0]", d.Starving, err)
	}
	if !Starves(4, 2, true, 7, 5) || Starves(2, 2, true, 7, 5) || Starves(4, 2, false, 7, 5) || Starves(4, 2, true, 5, 5) {
		t.Fatal("Starves does not follow the three conditions")
	}
}

// Algorithm 1 lines 3–7 as written (StarvationBeyondK): the starving long
// job's overflowing tasks (IDs 4 and 3 in handCluster, newest first; half
// of them, rounded up, before T_timeout) are victims even beyond k and at
// k = 0; only what is left of k comes from the most recent tasks.
func TestStarvationBeyondK(t *testing.T) {
	for _, tt := range []struct {
		k       int
		timeout float64
		beyond  bool
		want    []int64
	}{
		{0, 0, true, []int64{4, 3}},
		{0, 60, true, []int64{4}},
		{1, 0, true, []int64{4, 3}},
		{3, 0, true, []int64{4, 3, 6}},
		{0, 0, false, nil},
		{1, 0, false, []int64{4}},
		{3, 0, false, []int64{4, 3, 6}},
	} {
		d, err := GP(handCluster(), tt.k, GPOptions{Busy: true, NTask: 5, Timeout: tt.timeout, StarvationBeyondK: tt.beyond})
		if err != nil || !slices.Equal(ids(d), tt.want) || d.Freed != len(tt.want) {
			t.Errorf("k %d timeout %v beyond %v: victims %v (freed %d), err %v; want %v", tt.k, tt.timeout, tt.beyond, ids(d), d.Freed, err, tt.want)
		}
	}
}

func TestBadInput(t *testing.T) {
	mod := func(f func(*Cluster)) Cluster {
		c := handCluster()
		f(&c)
		return c
	}
	tests := []struct {
		name  string
		c     Cluster
		k     int
		opt   GPOptions
		field string
	}{
		{"negative k", handCluster(), -1, GPOptions{}, "k"},
		{"NaN now", mod(func(c *Cluster) { c.Now = math.NaN() }), 1, GPOptions{}, "Cluster.Now"},
		{"Inf now", mod(func(c *Cluster) { c.Now = math.Inf(1) }), 1, GPOptions{}, "Cluster.Now"},
		{"job index negative", mod(func(c *Cluster) { c.Tasks[2].Job = -1 }), 1, GPOptions{}, "Tasks[2].Job"},
		{"job index too large", mod(func(c *Cluster) { c.Tasks[2].Job = 3 }), 1, GPOptions{}, "Tasks[2].Job"},
		{"NaN start", mod(func(c *Cluster) { c.Tasks[1].Start = math.NaN() }), 1, GPOptions{}, "Tasks[1].Start"},
		{"start after now", mod(func(c *Cluster) { c.Tasks[1].Start = 101 }), 1, GPOptions{}, "Tasks[1].Start"},
		{"zero slots", mod(func(c *Cluster) { c.Tasks[0].Slots = 0 }), 1, GPOptions{}, "Tasks[0].Slots"},
		{"huge slots", mod(func(c *Cluster) { c.Tasks[0].Slots = math.MaxInt }), 1, GPOptions{}, "Tasks[0].Slots"},
		{"NaN share", mod(func(c *Cluster) { c.Jobs[1].Share = math.NaN() }), 1, GPOptions{}, "Jobs[1].Share"},
		{"negative share", mod(func(c *Cluster) { c.Jobs[1].Share = -1 }), 1, GPOptions{}, "Jobs[1].Share"},
		{"Inf share", mod(func(c *Cluster) { c.Jobs[1].Share = math.Inf(1) }), 1, GPOptions{}, "Jobs[1].Share"},
		{"negative queued", mod(func(c *Cluster) { c.Jobs[2].Queued = -3 }), 1, GPOptions{}, "Jobs[2].Queued"},
		{"NaN starving", mod(func(c *Cluster) { c.Jobs[0].StarvingFor = math.NaN() }), 1, GPOptions{}, "Jobs[0].StarvingFor"},
		{"task of no job", Cluster{Now: 1, Tasks: []Task{{Job: 0, Slots: 1}}}, 1, GPOptions{}, "Tasks[0].Job"},
		{"NaN n_task", handCluster(), 1, GPOptions{NTask: math.NaN()}, "GPOptions.NTask"},
		{"negative timeout", handCluster(), 1, GPOptions{Timeout: -1}, "GPOptions.Timeout"},
		{"kill fraction > 1", handCluster(), 1, GPOptions{KillFraction: 2}, "GPOptions.KillFraction"},
		{"NaN dominant", handCluster(), 1, GPOptions{DominantFraction: math.NaN()}, "GPOptions.DominantFraction"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := GP(tt.c, tt.k, tt.opt)
			var ve *ValueError
			if !errors.Is(err, ErrBadInput) || !errors.As(err, &ve) || ve.Field != tt.field {
				t.Fatalf("GP error %v, want ValueError on %s", err, tt.field)
			}
			if !strings.HasPrefix(tt.field, "GPOptions") {
				if _, err := Baseline(tt.c, tt.k); !errors.As(err, &ve) || ve.Field != tt.field {
					t.Fatalf("Baseline error %v, want ValueError on %s", err, tt.field)
				}
			}
		})
	}
}

func TestEvaluateHand(t *testing.T) {
	// ANPs 0.5 and 1: SNP √0.5, l1 = (2+1)/2, l2 = √((4+1)/2),
	// unfairness = σ/μ = 0.25/0.75, average response 20.
	m, err := Evaluate([]float64{10, 20}, []float64{20, 20})
	if err != nil {
		t.Fatal(err)
	}
	want := Metrics{N: 2, SNP: math.Sqrt(0.5), MeanANP: 0.75, L1: 1.5, L2: math.Sqrt(2.5), Unfairness: 1.0 / 3, AvgResponse: 20}
	near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-15 }
	if m.N != 2 || !near(m.SNP, want.SNP) || !near(m.MeanANP, want.MeanANP) || !near(m.L1, want.L1) ||
		!near(m.L2, want.L2) || !near(m.Unfairness, want.Unfairness) || !near(m.AvgResponse, want.AvgResponse) {
		t.Fatalf("got %+v, want %+v", m, want)
	}
}

func TestEvaluateBadInput(t *testing.T) {
	tests := []struct {
		name          string
		ideal, actual []float64
		field         string
	}{
		{"length", []float64{1, 2}, []float64{1}, "actual"},
		{"nil actual", []float64{1}, nil, "actual"},
		{"NaN ideal", []float64{math.NaN()}, []float64{1}, "ideal[0]"},
		{"zero ideal", []float64{1, 0}, []float64{1, 1}, "ideal[1]"},
		{"negative actual", []float64{1}, []float64{-1}, "actual[0]"},
		{"Inf actual", []float64{1}, []float64{math.Inf(1)}, "actual[0]"},
		{"tiny actual", []float64{1}, []float64{1e-300}, "actual[0]"},
	}
	for _, tt := range tests {
		var ve *ValueError
		if _, err := Evaluate(tt.ideal, tt.actual); !errors.As(err, &ve) || ve.Field != tt.field || !errors.Is(err, ErrBadInput) {
			t.Errorf("%s: error %v, want ValueError on %s", tt.name, err, tt.field)
		}
	}
	if m, err := Evaluate(nil, nil); err != nil || m != (Metrics{}) {
		t.Errorf("empty: %+v %v", m, err)
	}
}

func TestScalarsHand(t *testing.T) {
	if v, _ := NTask(100, 0.5); v != 50 {
		t.Errorf("NTask(100, 0.5) = %v, want 50", v)
	}
	if v, _ := ExpectedANP(10, 2); v != 0.8 {
		t.Errorf("ExpectedANP(10, 2) = %v, want 0.8", v)
	}
	if v, _ := ExpectedANP(0, 0); v != 1 {
		t.Errorf("ExpectedANP(0, 0) = %v, want 1", v)
	}
	for _, c := range []struct {
		n        int
		for_, to float64
		want     int
	}{{5, 0, 360, 3}, {5, 359, 360, 3}, {5, 360, 360, 5}, {0, 0, 360, 0}, {1, 0, 360, 1}, {4, 0, 0, 4}} {
		if v, _ := GraduatedKill(c.n, c.for_, c.to, 0.5); v != c.want {
			t.Errorf("GraduatedKill(%d, %v, %v, 0.5) = %d, want %d", c.n, c.for_, c.to, v, c.want)
		}
	}
	if v, _ := QueueDominated([]int{95, 5}, 0.9); !v {
		t.Error("95 of 100 queued slots is dominated")
	}
	if v, _ := QueueDominated([]int{90, 10}, 0.9); v {
		t.Error("exactly 90% is not more than 90%")
	}
	if v, _ := QueueDominated(nil, 0.9); v {
		t.Error("an empty queue is not dominated")
	}
	if v, _ := RestartSooner(100, 40, 2); !v {
		t.Error("RestartSooner(100, 40, 2) = false")
	}
	if v, _ := RestartSooner(80, 40, 2); v {
		t.Error("RestartSooner(80, 40, 2): a tie must not restart")
	}
	if o, _ := DeficiencyOrder([]float64{4, 10, 2, 7}, []int{4, 3, 0, 0}, nil); !slices.Equal(o, []int{1, 3, 2, 0}) {
		t.Errorf("DeficiencyOrder = %v, want [1 3 2 0]", o)
	}
	if o, _ := DeficiencyOrder([]float64{3, 3}, []int{1, 1}, nil); !slices.Equal(o, []int{0, 1}) {
		t.Errorf("tie order %v, want [0 1]", o)
	}
	d, err1 := Deficiency(4, 6)
	a, err2 := ANP(10, 40)
	w, err3 := WorkLost(100, Task{Start: 40, Slots: 3})
	if d != -2 || a != 0.25 || w != 180 || err1 != nil || err2 != nil || err3 != nil {
		t.Errorf("Deficiency %v %v, ANP %v %v, WorkLost %v %v; want -2, 0.25, 180", d, err1, a, err2, w, err3)
	}
}

func TestScalarsBadInput(t *testing.T) {
	errs := []struct {
		name  string
		err   error
		field string
	}{
		{"NTask NaN L", second(NTask(math.NaN(), 0.5)), "L"},
		{"NTask pi > 1", second(NTask(10, 1.5)), "pi"},
		{"ExpectedANP Lq > L", second(ExpectedANP(1, 2)), "Lq"},
		{"ExpectedANP Inf L", second(ExpectedANP(math.Inf(1), 1)), "L"},
		{"GraduatedKill negative", second(GraduatedKill(-1, 0, 1, 0.5)), "overflow"},
		{"GraduatedKill NaN for", second(GraduatedKill(1, math.NaN(), 1, 0.5)), "starvingFor"},
		{"GraduatedKill Inf timeout", second(GraduatedKill(1, 0, math.Inf(1), 0.5)), "timeout"},
		{"GraduatedKill zero fraction", second(GraduatedKill(1, 0, 1, 0)), "fraction"},
		{"QueueDominated negative", second(QueueDominated([]int{1, -1}, 0.9)), "queued[1]"},
		{"QueueDominated NaN", second(QueueDominated([]int{1}, math.NaN())), "fraction"},
		{"RestartSooner NaN", second(RestartSooner(math.NaN(), 1, 1)), "remaining"},
		{"RestartSooner negative fresh", second(RestartSooner(1, -1, 1)), "fresh"},
		{"RestartSooner margin < 1", second(RestartSooner(1, 1, 0.5)), "margin"},
		{"DeficiencyOrder lengths", second(DeficiencyOrder([]float64{1}, nil, nil)), "running"},
		{"DeficiencyOrder NaN", second(DeficiencyOrder([]float64{math.NaN()}, []int{0}, nil)), "shares[0]"},
		{"DeficiencyOrder negative running", second(DeficiencyOrder([]float64{1}, []int{-1}, nil)), "running[0]"},
		{"window zero", second(NewOccupancyWindow(0, 0.9)), "window"},
		{"Deficiency NaN share", second(Deficiency(math.NaN(), 1)), "share"},
		{"Deficiency Inf share", second(Deficiency(math.Inf(1), 1)), "share"},
		{"Deficiency negative running", second(Deficiency(1, -1)), "running"},
		{"ANP zero ideal", second(ANP(0, 1)), "ideal"},
		{"ANP NaN actual", second(ANP(1, math.NaN())), "actual"},
		{"ANP zero actual", second(ANP(1, 0)), "actual"},
		{"WorkLost NaN now", second(WorkLost(math.NaN(), Task{Slots: 1})), "now"},
		{"WorkLost start after now", second(WorkLost(1, Task{Start: 2, Slots: 1})), "Task.Start"},
		{"WorkLost Inf start", second(WorkLost(1, Task{Start: math.Inf(-1), Slots: 1})), "Task.Start"},
		{"WorkLost zero slots", second(WorkLost(1, Task{Slots: 0})), "Task.Slots"},
		{"window p NaN", second(NewOccupancyWindow(10, math.NaN())), "p"},
	}
	for _, e := range errs {
		var ve *ValueError
		if !errors.As(e.err, &ve) || ve.Field != e.field || !errors.Is(e.err, ErrBadInput) {
			t.Errorf("%s: error %v, want ValueError on %s", e.name, e.err, e.field)
		}
	}
	w, _ := NewOccupancyWindow(10, 0.9)
	for _, a := range []struct {
		t        float64
		occ, tot int
		field    string
	}{{math.NaN(), 0, 1, "t"}, {0, -1, 1, "occupied"}, {0, 2, 1, "occupied"}, {0, 0, -1, "total"}} {
		var ve *ValueError
		if err := w.Add(a.t, a.occ, a.tot); !errors.As(err, &ve) || ve.Field != a.field {
			t.Errorf("Add(%v, %d, %d): %v, want ValueError on %s", a.t, a.occ, a.tot, err, a.field)
		}
	}
	var zero OccupancyWindow
	if err := zero.Add(0, 0, 0); !errors.Is(err, ErrBadInput) {
		t.Errorf("zero window Add: %v", err)
	}
	var nilw *OccupancyWindow
	if nilw.Len() != 0 || nilw.BusyFraction() != 0 || nilw.Busy(0) {
		t.Error("nil window is not empty")
	}
}

// Valid extremes next to the bad inputs: a count near math.MaxInt must not
// overflow (GraduatedKill(MaxInt, 0, 1, 1) returned MinInt).
func TestScalarsExtremes(t *testing.T) {
	for _, c := range []struct {
		name     string
		n        int
		for_, to float64
		frac     float64
		want     int
	}{
		{"MaxInt, all before timeout", math.MaxInt, 0, 1, 1, math.MaxInt},
		{"MaxInt, after timeout", math.MaxInt, 1, 1, 0.5, math.MaxInt},
		{"MaxInt, half", math.MaxInt, 0, 1, 0.5, 1 << 62},
		{"MaxInt, three quarters", math.MaxInt, 0, 1, 0.75, 3 << 61},                                         // ⌈0.75·(2⁶³−1)⌉ = 3·2⁶¹
		{"MaxInt−1, fraction just below 1", math.MaxInt - 1, 0, 1, math.Nextafter(1, 0), math.MaxInt - 1023}, // float64 gives 2⁶³−1024 (the exact ⌈·⌉ is 2⁶³−1025), within [0, n]
		{"2⁵³+1, all", 1<<53 + 1, 0, 1, 1, 1<<53 + 1},
		{"one task, tiny fraction", 1, 0, 1, 5e-324, 1},
		{"MaxFloat64 timeout", 7, math.MaxFloat64 / 2, math.MaxFloat64, 0.5, 4},
	} {
		v, err := GraduatedKill(c.n, c.for_, c.to, c.frac)
		if err != nil || v != c.want {
			t.Errorf("%s: GraduatedKill(%d, %v, %v, %v) = %d, %v; want %d", c.name, c.n, c.for_, c.to, c.frac, v, err, c.want)
		}
	}
}

func second[T any](_ T, err error) error { return err }

func TestOccupancyHand(t *testing.T) {
	w, _ := NewOccupancyWindow(10, 0.9)
	for _, s := range []struct{ t, occ float64 }{{0, 95}, {5, 50}, {10, 91}} {
		if err := w.Add(s.t, int(s.occ), 100); err != nil {
			t.Fatal(err)
		}
	}
	// At T = 10 the window (0, 10] holds the samples at 5 and 10: 1 of 2 busy.
	if w.Len() != 2 || w.BusyFraction() != 0.5 || !w.Busy(0.4) || w.Busy(0.5) {
		t.Fatalf("len %d busy %v", w.Len(), w.BusyFraction())
	}
}

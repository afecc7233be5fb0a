package preempt

import (
	"math"
	"testing"

	"github.com/schedkit/schedkit/internal/testkit"
)

// limitCluster is a cluster at every size limit at once: MaxTasks tasks of
// MaxSlots slots each spread over MaxJobs jobs, started at −MaxTime and
// checked at +MaxTime, so work lost and slot sums are as large as they get.
func limitCluster() Cluster {
	c := Cluster{Now: MaxTime, Tasks: make([]Task, MaxTasks), Jobs: make([]Job, MaxJobs)}
	for j := range c.Jobs {
		c.Jobs[j] = Job{Share: 0, Queued: math.MaxInt / MaxJobs, Long: j%2 == 0, StarvingFor: math.MaxFloat64}
	}
	for i := range c.Tasks {
		c.Tasks[i] = Task{ID: int64(i), Job: i % MaxJobs, Start: -MaxTime + float64(i%7), Slots: MaxSlots}
	}
	return c
}

// TestLimits runs each policy at every documented size limit at once and
// one beyond each: at the limit the decision is exact and finite and its
// memory is bounded (below); one beyond is refused up front, naming the
// field, before any work.
func TestLimits(t *testing.T) {
	c := limitCluster()
	opt := GPOptions{Busy: true, NTask: 0, Timeout: math.MaxFloat64, KillFraction: 5e-324}
	// Each decision at the limits takes about half a second of CPU, ten
	// times that under the race detector: there only the refusals run (CI
	// runs this test without it too).
	for _, p := range []struct {
		name string
		run  func(*Workspace) (Decision, error)
	}{
		{"Baseline", func(w *Workspace) (Decision, error) { return w.Baseline(c, math.MaxInt) }},
		{"GP", func(w *Workspace) (Decision, error) { return w.GP(c, math.MaxInt, opt) }},
	} {
		t.Run(p.name, func(t *testing.T) {
			if raceEnabled {
				return
			}
			var w Workspace
			var d Decision
			var err error
			got := testkit.Allocated(func() { d, err = p.run(&w) })
			if err != nil {
				t.Fatal(err)
			}
			// Every task is a victim: all slots freed, 2⁴⁰, exactly.
			if d.Freed != MaxTasks*MaxSlots || len(d.Victims) != MaxTasks {
				t.Fatalf("freed %d slots by %d victims, want %d by %d", d.Freed, len(d.Victims), MaxTasks*MaxSlots, MaxTasks)
			}
			if math.IsInf(d.WorkLost, 0) || !(d.WorkLost > 2*MaxTime*MaxSlots*(MaxTasks-1)) {
				t.Fatalf("work lost %v", d.WorkLost)
			}
			// The Workspace: 9 B per task and 20 B per job of scratch, and
			// 48 B per victim.
			limit := uint64(9*MaxTasks + 20*MaxJobs + 48*len(d.Victims) + 1<<16)
			t.Logf("%s at the limits: %.1f MiB (bound %.1f)", p.name, float64(got)/(1<<20), float64(limit)/(1<<20))
			if got > limit {
				t.Errorf("allocated %d B, over %d B", got, limit)
			}
			if !raceEnabled {
				if n := testing.AllocsPerRun(1, func() { p.run(&w) }); n != 0 {
					t.Errorf("a warmed Workspace allocated %v times, want 0", n)
				}
			}
		})
	}
	t.Run("beyond", func(t *testing.T) {
		over := c
		over.Tasks = append(c.Tasks[:MaxTasks:MaxTasks], Task{Slots: 1})
		_, err := GP(over, 1, GPOptions{})
		wantField(t, err, "Cluster.Tasks")
		over = c
		over.Jobs = append(c.Jobs[:MaxJobs:MaxJobs], Job{})
		_, err = Baseline(over, 1)
		wantField(t, err, "Cluster.Jobs")
		over = c
		over.Tasks = append([]Task(nil), c.Tasks[:3]...)
		over.Tasks[2].Slots = MaxSlots + 1
		_, err = GP(over, 1, GPOptions{})
		wantField(t, err, "Tasks[2].Slots")
		over.Tasks[2].Slots = MaxSlots
		over.Tasks[1].Start = math.Nextafter(-MaxTime, math.Inf(-1))
		_, err = Baseline(over, 1)
		wantField(t, err, "Tasks[1].Start")
		over.Tasks[1].Start = 0
		over.Now = math.Nextafter(MaxTime, math.Inf(1))
		_, err = Baseline(over, 1)
		wantField(t, err, "Cluster.Now")
		// Refused before any work: no scratch allocated, only the error.
		over = c
		over.Tasks = append(c.Tasks[:MaxTasks:MaxTasks], Task{Slots: 1})
		if n := testing.AllocsPerRun(5, func() { GP(over, 1, GPOptions{}) }); n > 5 && !raceEnabled {
			t.Errorf("refusing MaxTasks+1 allocated %v times, want only the error's (5, its Value boxed among them)", n)
		}
	})
}

// TestLimitsPerJob holds Evaluate, DeficiencyOrder and QueueDominated to
// MaxJobs: at the limit they answer (without allocating, given room), one
// beyond is refused naming the slice.
func TestLimitsPerJob(t *testing.T) {
	ideal := make([]float64, MaxJobs+1)
	actual := make([]float64, MaxJobs+1)
	shares := make([]float64, MaxJobs+1)
	running := make([]int, MaxJobs+1)
	queued := make([]int, MaxJobs+1)
	for j := range ideal {
		ideal[j], actual[j] = MinTime, MaxTime // ANP 1e-24, the smallest
		shares[j], running[j], queued[j] = math.MaxFloat64, math.MaxInt, math.MaxInt
	}
	m, err := Evaluate(ideal[:MaxJobs], actual[:MaxJobs])
	if err != nil || m.N != MaxJobs || math.IsInf(m.L2, 0) || math.IsNaN(m.Unfairness) {
		t.Fatalf("Evaluate at MaxJobs: %+v, %v", m, err)
	}
	dst := make([]int, 0, MaxJobs)
	order, err := DeficiencyOrder(shares[:MaxJobs], running[:MaxJobs], dst)
	if err != nil || len(order) != MaxJobs || order[0] != 0 || order[MaxJobs-1] != MaxJobs-1 {
		t.Fatalf("DeficiencyOrder at MaxJobs: %d jobs, %v", len(order), err)
	}
	if dom, err := QueueDominated(queued[:MaxJobs], 5e-324); err != nil || !dom {
		t.Fatalf("QueueDominated at MaxJobs: %v, %v", dom, err)
	}
	if !raceEnabled {
		for name, f := range map[string]func(){
			"Evaluate":        func() { Evaluate(ideal[:MaxJobs], actual[:MaxJobs]) },
			"DeficiencyOrder": func() { DeficiencyOrder(shares[:MaxJobs], running[:MaxJobs], dst) },
			"QueueDominated":  func() { QueueDominated(queued[:MaxJobs], 0.9) },
		} {
			if n := testing.AllocsPerRun(1, f); n != 0 {
				t.Errorf("%s at MaxJobs: %v allocations, want 0", name, n)
			}
		}
	}
	_, err = Evaluate(ideal, actual)
	wantField(t, err, "ideal")
	_, err = DeficiencyOrder(shares, running, dst)
	wantField(t, err, "shares")
	_, err = QueueDominated(queued, 0.9)
	wantField(t, err, "queued")
}

// TestLimitsWindow fills a window to MaxWindowSamples: the next sample inside
// the window is refused (naming t) and leaves it unchanged; a sample that
// pushes the oldest out is taken. Filling it allocates at most 48 MiB in all
// (45 MiB measured: the slices grow by appends).
func TestLimitsWindow(t *testing.T) {
	var w *OccupancyWindow
	got := testkit.Allocated(func() {
		w, _ = NewOccupancyWindow(MaxWindowSamples, 0.5)
		for i := range MaxWindowSamples {
			if err := w.Add(float64(i), i%2, 1); err != nil {
				t.Fatal(err)
			}
		}
	})
	if w.Len() != MaxWindowSamples {
		t.Fatalf("window holds %d samples, want MaxWindowSamples", w.Len())
	}
	if err := w.Add(MaxWindowSamples-1, 1, 1); err == nil {
		t.Fatal("a sample beyond MaxWindowSamples was taken")
	} else {
		wantField(t, err, "t")
	}
	if w.Len() != MaxWindowSamples || w.BusyFraction() != 0.5 {
		t.Fatalf("refused sample changed the window: %d, %v", w.Len(), w.BusyFraction())
	}
	if err := w.Add(MaxWindowSamples, 1, 1); err != nil || w.Len() != MaxWindowSamples {
		t.Fatalf("sample pushing the oldest out: %v, %d samples", err, w.Len())
	}
	t.Logf("window of %d samples: %.1f MiB allocated, %.1f MiB held", w.Len(), float64(got)/(1<<20), float64(cap(w.times)*9)/(1<<20))
	if got > 48<<20 {
		t.Errorf("window allocated %d B, over 48 MiB", got)
	}
	// The smallest window still holds its latest sample (t − Window rounds to
	// t at 5e-324: the window used to drop the sample it had just taken).
	tiny, _ := NewOccupancyWindow(5e-324, 0)
	if err := tiny.Add(1, 1, 1); err != nil || tiny.Len() != 1 || !tiny.Busy(0.5) {
		t.Fatalf("window of 5e-324 s after one busy sample: %d samples, %v", tiny.Len(), err)
	}
}

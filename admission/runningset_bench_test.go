package admission

import (
	"fmt"
	"slices"
	"testing"
	"time"
)

// Measured figures. BenchmarkRunningSet decides a new deadline job
// against n running jobs (deadlines 1 h apart, every tenth not started,
// the others started at one of 100 times, so some are past their
// estimate), the new job's deadline after every running one, in strict
// mode: "rebuilt" is what a caller rebuilding its queue per decision does
// (each job's time left from its start and estimate, the queue sorted,
// Workspace.Decide), "set" is RunningSet.Decide, "set+remove" one Remove
// and one Set of a job in the middle of the EDF order. 2 AMD EPYC cores
// shared with other work, load average 25 (times inflated several-fold;
// the ratios are of one run), 0 allocations in every row:
//
//	jobs     rebuilt    RunningSet.Decide   Remove + Set
//	100      157 µs     58 µs               11 µs
//	1,000    3.0 ms     0.21 ms             43 µs
//	10,000   28 ms      2.2 ms              0.24 ms
//
//	go test -run '^$' -bench RunningSet -benchtime 2000x -cpu 1 ./admission

func benchRunning(n int) (map[int64]startedJob, *RunningSet) {
	jobs := map[int64]startedJob{}
	var s RunningSet
	for i := range n {
		m := startedJob{id: int64(i), arrival: float64(i % 7), deadline: 3600 * float64(n-i),
			estimate: int64(time.Duration(i%50+1) * time.Minute), start: int64(i%100) * int64(time.Minute), started: i%10 != 0}
		jobs[m.id] = m
		if err := s.Set(m.running()); err != nil {
			panic(err)
		}
	}
	return jobs, &s
}

func BenchmarkRunningSet(b *testing.B) {
	for _, n := range []int{100, 1000, 10000} {
		jobs, s := benchRunning(n)
		nj := Job{ID: -1, Arrival: 0, Deadline: 3600 * float64(n+1), JCT: 60}
		opt := Options{Mode: ModeStrict}
		now := int64(50 * time.Minute)
		b.Run(fmt.Sprintf("jobs=%d/rebuilt", n), func(b *testing.B) {
			var ws Workspace
			q := make([]Job, 0, n)
			b.ReportAllocs()
			for b.Loop() {
				q = q[:0]
				for _, m := range jobs {
					q = append(q, Job{ID: m.id, Arrival: m.arrival, Deadline: m.deadline, JCT: m.jct(now)})
				}
				slices.SortFunc(q, CompareEDF)
				if d, err := ws.Decide(q, nj, Seconds(now), opt); err != nil || !d.Admit {
					b.Fatal(d, err)
				}
			}
		})
		b.Run(fmt.Sprintf("jobs=%d/set", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if d, err := s.Decide(nj, now, opt); err != nil || !d.Admit {
					b.Fatal(d, err)
				}
			}
		})
		b.Run(fmt.Sprintf("jobs=%d/set+remove", n), func(b *testing.B) {
			r := jobs[int64(n/2)].running()
			b.ReportAllocs()
			for b.Loop() {
				s.Remove(r.ID)
				if err := s.Set(r); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestRunningSetAllocs: once its buffers have grown, a decision allocates
// nothing, and neither do Remove and Set of a held ID.
func TestRunningSetAllocs(t *testing.T) {
	_, s := benchRunning(100)
	nj := Job{ID: -1, Deadline: 1e9, JCT: 60}
	r := s.jobs[50]
	f := func() {
		if _, err := s.Decide(nj, 0, Options{Mode: ModeStrict}); err != nil {
			t.Fatal(err)
		}
		s.Remove(r.ID)
		if err := s.Set(r); err != nil {
			t.Fatal(err)
		}
	}
	f()
	if n := testing.AllocsPerRun(100, f); n != 0 {
		t.Fatalf("%v allocations per decision, Remove and Set", n)
	}
}

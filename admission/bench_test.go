package admission

import (
	"fmt"
	"math"
	"slices"
	"testing"
)

// Measured figures. The package doc states the contracts (what each call
// costs in O-notation, what allocates); the figures below are what the
// benchmarks here and examples/mimp -sweep measured, with the machine and
// the command, and are re-measured rather than edited.
//
// Why wave mode is the default, in examples/mimp -sweep (40 slots, ten
// seeds, task times off the models by MIMP §6.3.1's errors): every one of
// the 621 jobs the paper rule admitted at load 1 took longer than its
// Eq. 7 sum (1.98× at the median), and at 3× overload 584 of the 658 it
// admitted missed; wave mode with the margin read from those errors let 6
// of 542 miss; strict mode let 467 of its 551 admitted jobs miss at 3×
// overload. A Pi job alone on the idle cluster has an Eq. 6 JCT of 23.9 s
// and an exact plan of 40.6 s; it runs 40.6 s when the fastest free slot
// is offered first (91 s when free slots are offered in random heartbeat
// order). The end-first plan alone let 3.5% of admitted jobs miss at load
// 3 (23 of 655, against 6 of 542 with both plans), nearly all Pi jobs with
// one task MP had started on a heavy slot (r ≈ 0.2, about 200 s against a
// 200 s deadline). examples/mimp's doc holds the sweep's current figures.
//
// The CPU time of one wave decision on 10,000 slots (BenchmarkDecideWave:
// 10 pending tasks per job, a tenth of the jobs without a deadline, the
// new job's deadline before every queued one, in the middle of the queue,
// or after every one), measured with go test -run '^$' -bench
// '^BenchmarkDecideWave$/^jobs=N$/^slots=10000$/^at=P$/^via=V$' -benchtime
// Kx -cpu 1 ./admission, each variant in its own process, as the
// difference of the user and system time (/usr/bin/time) of K decisions
// and of one, K from 3 to 101, two runs interleaved, on 2 AMD EPYC cores
// shared with other work (load average 13–20: wall times were inflated
// several-fold and varied by up to 3× between runs, so CPU times are
// given; they are inflated too, by the contention for caches). The ratio
// is Workspace.Decide over Queue.Decide with its plan kept, run by run:
//
//	jobs     new job   Workspace.Decide  Queue.Decide, kept  ratio      replanned
//	1,000    front     10–12 ms          4.5–4.9 ms          2.0–2.7×   11.5 ms
//	1,000    middle    6.5–8.0 ms        2.6–2.9 ms          2.5–2.8×   8.5–10 ms
//	1,000    end       6.0–6.5 ms        0.4–0.5 ms          12–16×     7.0–7.5 ms
//	10,000   front     116–128 ms        48–53 ms            2.4×       106–116 ms
//	10,000   middle    78–84 ms          25–27 ms            2.9–3.4×   64–80 ms
//	10,000   end       46–60 ms          1.0 ms              46–60×     58–60 ms
//	100,000  front     0.93–1.21 s       0.39–0.41 s         2.4–2.9×   0.74–0.86 s
//	100,000  middle    0.42–0.67 s       0.24 s              1.7–2.7×   0.71–0.75 s
//	100,000  end       0.39–0.44 s       2–16 ms             28–190×    0.46–0.48 s
//
// Again on an idle machine (2 Intel Xeon cores, load average below 0.5,
// 2026-11-29), wall time, go test -run '^$' -bench
// 'BenchmarkDecideWave/jobs=(1000|10000|100000)/' -benchtime 5x -count 2
// -cpu 1 -benchmem ./admission (42 s; the jobs now have no running task,
// as a queue records running tasks through Start; 0 allocs/op in every
// variant). The ratio is Workspace.Decide over Queue.Decide with its plan
// kept; cold is the plan rebuilt on every decision:
//
//	jobs     new job   Workspace.Decide  Queue.Decide, kept  ratio      cold
//	1,000    front     7.0 ms            3.3 ms              2.1×       6.7–7.5 ms
//	1,000    middle    5.5 ms            1.9 ms              2.9×       5.3–6.1 ms
//	1,000    end       4.1 ms            0.25 ms             17×        3.7–4.5 ms
//	10,000   front     65–66 ms          33 ms               2.0×       60–67 ms
//	10,000   middle    49–52 ms          18–20 ms            2.5–2.8×   43–51 ms
//	10,000   end       33 ms             0.29–0.31 ms        110×       27–34 ms
//	100,000  front     0.59–0.60 s       0.30 s              2.0×       0.56–0.75 s
//	100,000  middle    0.45–0.51 s       0.19 s              2.4–2.7×   0.39–0.46 s
//	100,000  end       0.30 s            0.68–0.77 ms        390–445×   0.24–0.33 s
//
// From 1,000 to 100,000 jobs on the same 10,000 slots a kept plan's
// decision grows 91× with the new job first, 99× in the middle and 3× at
// the end; Workspace.Decide 73–88×. A decision at a new time plans the
// queue again (cold), as Workspace.Decide does.
//
// The same way, in the same period (K up to 200,000):
//
//	                                  jobs=10        jobs=1,000    jobs=100,000
//	strict, Queue.Decide (tree)       0.4–0.6 µs     1.0 µs        1.2–1.8 µs
//	strict, Workspace.Decide (pass)   0.25–0.35 µs   43–45 µs      24–26 ms
//	paper, Queue.Decide (tree)        < 0.5 µs       0.35–0.45 µs  0.5–0.9 µs
//	paper, Workspace.Decide (pass)    0.5–0.7 µs     15–68 µs      23–27 ms
//	Queue Insert+Remove, 1,000 jobs   0.7–0.8 µs
//
// Queue Insert+Remove through the treap operations of internal/treap,
// shared with edf (generic, so every link access is an indirect call),
// against the package's own copy of them before, alternating test
// binaries, three runs each, 2 cores at load average 8–12: 2.39–2.50 µs
// against 1.63–1.92 µs, 0 allocs/op either way
// (go test -run '^$' -bench QueueInsertRemove -benchtime 200000x -cpu 1
// ./admission).
//
// (Interleaved with a variant deciding from the tree's sums alone, whose
// numbers may differ from the pass's in the last bits: 0.4–0.6 µs at 1,000
// jobs and 0.7–1.1 µs at 100,000, against 0.5–0.9 and 1.0–1.1 µs.) On a quieter machine (load average
// 1.5–2.4, wall time, -count 3): Workspace.Decide in strict mode 0.34 µs, 29–34
// µs and 4.6–4.8 ms at 10, 1,000 and 100,000 jobs; wave mode 21–22 µs for
// 20 jobs × 10 tasks on 40 slots and 4.3–4.6 ms for 1,000 jobs on 10,000
// slots; confidence mode 20–24 µs for 10 jobs × 1,000 samples and
// 0.19–0.21 ms for 1,000 jobs × 100 samples; JCT, 40 slots, exp2 model,
// 0.70 µs; MarginAt, lognormal, 36–55 ns (0 allocs/op).
//
// Eq. 6 for many jobs: a YARN controller's pass over 10,000 apps of six
// exp2 types on 50,000 dedicated containers (BenchmarkJCTCluster, the same
// way): 18 s of CPU through JCT, 6 ms through JCTOn, 0.6 µs an app. Its
// admission pass in strict mode (BenchmarkStrictPass: 6,667 running apps
// queued, 3,333 decided in submission order and queued when admitted):
// 7.0 s of CPU through Workspace.Decide on q.Jobs(), 25 ms through
// Queue.Decide, the same decisions.

// benchQueue builds n queued jobs in EDF order, every deadline met with room
// to spare (the expensive case: nothing stops the scan), one in ten without
// a deadline, and a new job whose deadline falls in the middle.
func benchQueue(n, samples int) ([]Job, Job) {
	q := benchIndexed(n, samples)
	return q.Jobs(), benchNewJob(n, samples)
}

// benchIndexed is benchQueue's queue itself. The jobs without deadline are
// inserted last, so every Insert appends.
func benchIndexed(n, samples int) *Queue {
	var q Queue
	for _, noDeadline := range []bool{false, true} {
		for i := range n {
			if (i%10 == 9) == noDeadline {
				benchInsert(&q, i, samples)
			}
		}
	}
	return &q
}

// benchInsert inserts benchQueue's job i.
func benchInsert(q *Queue, i, samples int) {
	j := Job{ID: int64(i + 1), Arrival: float64(i), Deadline: 1e6 + 100*float64(i), JCT: 10}
	if i%10 == 9 {
		j.Deadline = math.Inf(1)
	}
	if samples > 0 && j.HasDeadline() {
		j.Samples = make([]float64, samples)
		for s := range j.Samples {
			j.Samples[s] = 5 + float64((i*7+s*13)%11)
		}
	}
	if err := q.Insert(j); err != nil {
		panic(err)
	}
}

// benchNewJob is the new job of benchQueue: its deadline falls in the
// middle of the queue.
func benchNewJob(n, samples int) Job {
	job := Job{ID: 0, Arrival: float64(n), Deadline: 1e6 + 50*float64(n), JCT: 10}
	if samples > 0 {
		job.Samples = make([]float64, samples)
		for s := range job.Samples {
			job.Samples[s] = 10
		}
	}
	return job
}

// BenchmarkDecide: paper and strict mode, one pass over the queue
// (Workspace.Decide, via=pass) and through the queue's tree (Queue.Decide,
// via=queue), on queues where every deadline is met with room to spare, so
// the pass reads every job.
func BenchmarkDecide(b *testing.B) {
	for _, mode := range []Mode{ModeStrict, ModePaper} {
		for _, n := range []int{10, 1000, 100000} {
			q, job := benchIndexed(n, 0), benchNewJob(n, 0)
			b.Run(fmt.Sprintf("mode=%v/jobs=%d/via=pass", mode, n), func(b *testing.B) {
				var c Workspace
				_, _ = c.Decide(q.Jobs(), job, float64(n), Options{Mode: mode}) // grow the evidence buffer
				b.ReportAllocs()
				for b.Loop() {
					if _, err := c.Decide(q.Jobs(), job, float64(n), Options{Mode: mode}); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run(fmt.Sprintf("mode=%v/jobs=%d/via=queue", mode, n), func(b *testing.B) {
				_, _ = q.Decide(job, float64(n), Options{Mode: mode}) // grow the evidence buffer
				b.ReportAllocs()
				for b.Loop() {
					if _, err := q.Decide(job, float64(n), Options{Mode: mode}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

func BenchmarkDecideConfidence(b *testing.B) {
	for _, size := range [][2]int{{10, 1000}, {1000, 100}} {
		b.Run(fmt.Sprintf("jobs=%d/samples=%d", size[0], size[1]), func(b *testing.B) {
			q, job := benchQueue(size[0], size[1])
			var c Workspace
			_, _ = c.Decide(q, job, float64(size[0]), Options{Mode: ModeConfidence, Confidence: 0.9}) // grow the buffers
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.Decide(q, job, float64(size[0]), Options{Mode: ModeConfidence, Confidence: 0.9}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkQueueDecideConfidence: confidence mode on benchQueue's queue,
// through the queue (Queue.Decide, via=queue, which keeps its checked
// samples and running sums) and by one pass over its jobs
// (Workspace.Decide over q.Jobs(), via=pass, what Queue.Decide did before
// it kept them), each iteration a decision after an Insert and a Remove of
// an admitted job: at=end, a job after every queued one (a new job of a
// later deadline, the common arrival); at=middle, benchNewJob's place.
func BenchmarkQueueDecideConfidence(b *testing.B) {
	for _, size := range [][2]int{{1000, 1000}, {3750, 1000}} {
		n, samples := size[0], size[1]
		q := benchIndexed(n, samples)
		end := benchNewJob(n, samples)
		end.Deadline = 1e6 + 200*float64(n)
		for _, at := range []struct {
			name string
			job  Job
		}{{"end", end}, {"middle", benchNewJob(n, samples)}} {
			admitted := at.job
			admitted.ID = -1
			opt := Options{Mode: ModeConfidence, Confidence: 0.9}
			var c Workspace
			for _, via := range []string{"queue", "pass"} {
				b.Run(fmt.Sprintf("jobs=%d/samples=%d/at=%s/via=%s", n, samples, at.name, via), func(b *testing.B) {
					decide := func() {
						var err error
						if via == "queue" {
							_, err = q.Decide(at.job, 0, opt)
						} else {
							_, err = c.Decide(q.Jobs(), at.job, 0, opt)
						}
						if err != nil {
							b.Fatal(err)
						}
					}
					decide()
					b.ReportAllocs()
					for b.Loop() {
						if err := q.Insert(admitted); err != nil {
							b.Fatal(err)
						}
						q.Remove(admitted.ID)
						decide()
					}
				})
			}
		}
	}
}

func BenchmarkJCT(b *testing.B) {
	cluster := make([]Slot, 40) // the MIMP case study: 20 VMs × 2 slots
	for i := range cluster {
		cluster[i].R = float64(i%5+1) / 5
	}
	m := exp2{A: 20, B: -1.5, C: 4, D: 0.3}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := JCT(m, 100, cluster); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkJCTCluster is one pass of a YARN controller's Eq. 6 estimates:
// 10,000 apps of six exp2 job types with 1 to 200 remaining tasks each, on
// 50,000 containers, through JCT over the slice (via=JCT) and through
// JCTOn over the cluster read once (via=JCTOn, NewCapacities included),
// on dedicated containers (every R = 1) and on four node types in blocks.
func BenchmarkJCTCluster(b *testing.B) {
	types := []exp2{{20, -2, 5, -0.5}, {30, -1, 2, -0.2}, {15, -3, 10, -1}, {50, -0.3, 1, 0}, {25, -2.5, 3, -0.7}, {40, -1.5, 4, -0.1}}
	const apps, slots = 10000, 50000
	for _, kinds := range []int{1, 4} {
		cluster := make([]Slot, slots)
		for i := range cluster {
			cluster[i].R = 1 - float64(i*kinds/slots)/5
		}
		name := fmt.Sprintf("apps=%d/slots=%d/nodetypes=%d", apps, slots, kinds)
		b.Run(name+"/via=JCT", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for a := range apps {
					if _, err := JCT(types[a%6], 1+a%200, cluster); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
		b.Run(name+"/via=JCTOn", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				caps, err := NewCapacities(cluster)
				if err != nil {
					b.Fatal(err)
				}
				for a := range apps {
					if _, err := JCTOn(types[a%6], 1+a%200, caps); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

// BenchmarkStrictPass is a YARN controller's admission pass in strict
// mode: of 10,000 deadline apps on 50,000 containers, the two thirds that
// run are queued, and each of the others, in submission order, is decided
// against the queue and queued when admitted; JCTs are JCTOn's. Through
// Workspace.Decide on q.Jobs() (via=checker) and through Queue.Decide
// (via=queue), which decide alike, bit for bit (TestPropQueueDecide).
func BenchmarkStrictPass(b *testing.B) {
	const apps = 10000
	cluster := make([]Slot, 50000)
	for i := range cluster {
		cluster[i].R = 1
	}
	caps, _ := NewCapacities(cluster)
	m := exp2{A: 10}
	jobs := make([]Job, apps)
	for i := range jobs {
		jct, err := JCTOn(m, 20+i%200, caps)
		if err != nil {
			b.Fatal(err)
		}
		jobs[i] = Job{ID: int64(i + 1), Arrival: -float64(i % 600), Deadline: float64(60 + (i*37)%3600), JCT: jct}
	}
	for _, via := range []string{"checker", "queue"} {
		b.Run(fmt.Sprintf("apps=%d/via=%s", apps, via), func(b *testing.B) {
			var q Queue
			var c Workspace
			b.ReportAllocs()
			for b.Loop() {
				q.Reset()
				for i, j := range jobs {
					if i%3 != 0 {
						if err := q.Insert(j); err != nil {
							b.Fatal(err)
						}
					}
				}
				for i := 0; i < apps; i += 3 {
					var d Decision
					var err error
					if via == "checker" {
						d, err = c.Decide(q.Jobs(), jobs[i], 0, Options{Mode: ModeStrict})
					} else {
						d, err = q.Decide(jobs[i], 0, Options{Mode: ModeStrict})
					}
					if err != nil {
						b.Fatal(err)
					}
					if d.Admit {
						if err := q.Insert(jobs[i]); err != nil {
							b.Fatal(err)
						}
					}
				}
			}
		})
	}
}

func BenchmarkQueueInsertRemove(b *testing.B) {
	q, job := benchIndexed(1000, 0), benchNewJob(1000, 0)
	b.ReportAllocs()
	for b.Loop() {
		if err := q.Insert(job); err != nil {
			b.Fatal(err)
		}
		q.Remove(job.ID)
	}
}

// waveBench builds a wave-mode decision: n queued jobs in EDF order (one in
// ten without deadline), each with 10 pending tasks, none running (a
// queue records running tasks through Start, on distinct slots), and an
// exp2 model of one of six types, on a cluster of s slots (30% dedicated,
// 30% light, 30% medium, 10% heavy residual capacity), four in five busy
// for up to 60 s; deadlines leave every job on time, so nothing cuts the plan short,
// and the new job's deadline falls in the middle of the queue, so half the
// jobs are planned twice (with and without it).
func waveBench(n, s int) ([]Job, Job, Options) {
	types := []exp2{{20, -2, 5, -0.5}, {30, -1, 2, -0.2}, {15, -3, 10, -1}, {50, -0.3, 1, 0}, {25, -2.5, 3, -0.7}, {40, -1.5, 4, -0.1}}
	q := make([]Job, n)
	for i := range n {
		q[i] = Job{ID: int64(i + 1), Arrival: float64(i), Deadline: 1e6 + 100*float64(i), Tasks: 10, Model: types[i%len(types)]}
		if i%10 == 9 {
			q[i].Deadline = math.Inf(1)
		}
	}
	slices.SortFunc(q, CompareEDF)
	cluster := make([]Slot, s)
	for i := range cluster {
		r := []float64{1, 1, 1, 0.86, 0.86, 0.86, 0.55, 0.55, 0.55, 0.25}[i%10]
		free := 0.0
		if i%5 != 0 {
			free = float64((i * 7) % 61)
		}
		cluster[i] = Slot{R: r, Busy: true, FreeAt: free}
	}
	job := Job{ID: 0, Arrival: float64(n), Deadline: 1e6 + 50*float64(n), Tasks: 10, Model: types[0]}
	return q, job, Options{Cluster: cluster, Margin: 1.1}
}

// BenchmarkDecideWave: one wave decision on 10,000 slots (40 on the
// smallest queue) as the queue grows, the new job's deadline at the front
// of the queue, in the middle or at the end (after every queued deadline),
// through Workspace.Decide on the queue's slice (via=checker: every job
// planned on every decision, the reference) and through Queue.Decide with
// its plan of the queue kept (via=queue: the decisions of one instant) or
// rebuilt on every decision (via=queue-cold: now alternates between 0 and
// 0.5, as when every arrival comes at a new time).
func BenchmarkDecideWave(b *testing.B) {
	for _, size := range [][2]int{{20, 40}, {1000, 10000}, {10000, 10000}, {100000, 10000}} {
		n := size[0]
		b.Run(fmt.Sprintf("jobs=%d/slots=%d", n, size[1]), func(b *testing.B) {
			jobs, job, opt := waveBench(n, size[1])
			var q Queue
			for _, j := range jobs {
				if err := q.Insert(j); err != nil {
					b.Fatal(err)
				}
			}
			for _, at := range []struct {
				name     string
				deadline float64
			}{{"front", 1e6 - 1}, {"middle", job.Deadline}, {"end", 1e6 + 100*float64(n)}} {
				job.Deadline = at.deadline
				b.Run("at="+at.name+"/via=checker", func(b *testing.B) {
					var c Workspace
					if _, err := c.Decide(jobs, job, 0, opt); err != nil { // grow the buffers
						b.Fatal(err)
					}
					b.ReportAllocs()
					for b.Loop() {
						if _, err := c.Decide(jobs, job, 0, opt); err != nil {
							b.Fatal(err)
						}
					}
				})
				b.Run("at="+at.name+"/via=queue", func(b *testing.B) {
					if _, err := q.Decide(job, 0, opt); err != nil { // plan the queue
						b.Fatal(err)
					}
					b.ReportAllocs()
					for b.Loop() {
						if _, err := q.Decide(job, 0, opt); err != nil {
							b.Fatal(err)
						}
					}
				})
				b.Run("at="+at.name+"/via=queue-cold", func(b *testing.B) {
					now := 0.0
					b.ReportAllocs()
					for b.Loop() {
						now = 0.5 - now
						if _, err := q.Decide(job, now, opt); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		})
	}
}

func BenchmarkMarginAt(b *testing.B) {
	s2 := math.Log1p(0.01)
	var d Quantiler = lognormalRatio{Mu: -s2 / 2, Sigma: math.Sqrt(s2)}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := MarginAt(d, 0.9); err != nil {
			b.Fatal(err)
		}
	}
}

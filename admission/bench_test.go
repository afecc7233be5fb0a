package admission

import (
	"fmt"
	"math"
	"slices"
	"testing"
)

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
// ten without deadline), each with 10 pending tasks and an exp2 model of
// one of six types, on a cluster of s slots (30% dedicated, 30% light,
// 30% medium, 10% heavy residual capacity), four in five busy for up to
// 60 s; deadlines leave every job on time, so nothing cuts the plan short,
// and the new job's deadline falls in the middle of the queue, so half the
// jobs are planned twice (with and without it).
func waveBench(n, s int) ([]Job, Job, Options) {
	types := []exp2{{20, -2, 5, -0.5}, {30, -1, 2, -0.2}, {15, -3, 10, -1}, {50, -0.3, 1, 0}, {25, -2.5, 3, -0.7}, {40, -1.5, 4, -0.1}}
	q := make([]Job, n)
	for i := range n {
		q[i] = Job{ID: int64(i + 1), Arrival: float64(i), Deadline: 1e6 + 100*float64(i), Tasks: 10, Model: types[i%len(types)], Running: 1, RunningUntil: float64(i % 60)}
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

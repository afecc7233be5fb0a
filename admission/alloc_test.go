package admission

import "testing"

// TestSteadyStateAllocs pins the zero-allocation promise: once a Workspace's
// buffers fit the queue (and, in wave mode, the cluster), a decision
// allocates nothing; so do JCT with a concrete model and a Queue whose
// storage has grown.
func TestSteadyStateAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under -race")
	}
	q, job := benchQueue(1000, 0)
	qs, jobS := benchQueue(100, 64)
	var c Workspace
	cluster := rs(1, 0.5, 0.25, 0)
	ptrModel := &exp2{A: 20, B: -1}
	var ifaceModel Model = exp2{A: 20, B: -1}
	qw, jobW, optW := waveBench(1000, 10000)
	var queue Queue
	for _, j := range q {
		_ = queue.Insert(j)
	}
	big, bigJob := benchIndexed(100000, 0), benchNewJob(100000, 0)
	var waveQueue Queue
	for _, j := range qw {
		_ = waveQueue.Insert(j)
	}
	cases := map[string]func(){
		"Queue.Decide strict, 100,000 jobs": func() { _, _ = big.Decide(bigJob, 100000, Options{Mode: ModeStrict}) },
		"Queue.Decide paper, 100,000 jobs":  func() { _, _ = big.Decide(bigJob, 100000, Options{Mode: ModePaper}) },
		"Decide strict":                     func() { _, _ = c.Decide(q, job, 1000, Options{Mode: ModeStrict}) },
		"Decide paper":                      func() { _, _ = c.Decide(q, job, 1000, Options{Mode: ModePaper}) },
		"Decide wave, 1,000 jobs, 10,000 slots": func() {
			if d, err := c.Decide(qw, jobW, 0, optW); err != nil || !d.Admit {
				t.Fatal(d.Reason, err)
			}
		},
		"Queue.Decide wave, 1,000 jobs, 10,000 slots, plan kept": func() {
			if d, err := waveQueue.Decide(jobW, 0, optW); err != nil || !d.Admit {
				t.Fatal(d.Reason, err)
			}
		},
		"DecideConfidence": func() {
			_, _ = c.Decide(qs, jobS, 100, Options{Mode: ModeConfidence, Confidence: 0.9})
		},
		"AloneDeadline":       func() { _, _ = AloneDeadline(jobS.Samples, 0.9) },
		"JCT":                 func() { _, _ = JCT(exp2{A: 20, B: -1}, 50, cluster) },
		"JCT pointer model":   func() { _, _ = JCT(ptrModel, 50, cluster) },
		"JCT interface model": func() { _, _ = JCT(ifaceModel, 50, cluster) },
		"Queue insert+remove": func() {
			_ = queue.Insert(job)
			queue.Remove(job.ID)
		},
	}
	for name, f := range cases {
		f() // grow buffers
		if n := testing.AllocsPerRun(50, f); n != 0 {
			t.Errorf("%s: %v allocs per run, want 0", name, n)
		}
	}
}

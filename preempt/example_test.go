package preempt_test

import (
	"fmt"

	"github.com/schedkit/schedkit/preempt"
)

// A long job (job 0, share 2) has run four tasks for a while; a short job
// (job 1) has just launched two; a production job (job 2) needs 2 slots.
// The baseline kills the long job's overflowing tasks; GP kills the newest
// tasks cluster-wide and loses far less work.
func ExampleGP() {
	c := preempt.Cluster{
		Now: 100,
		Jobs: []preempt.Job{
			{Share: 2, Long: true},
			{Share: 4},
			{Share: 320, Queued: 250, NoPreempt: true},
		},
		Tasks: []preempt.Task{
			{ID: 1, Job: 0, Start: 10, Slots: 1},
			{ID: 2, Job: 0, Start: 20, Slots: 1},
			{ID: 3, Job: 0, Start: 30, Slots: 1},
			{ID: 4, Job: 0, Start: 40, Slots: 1},
			{ID: 5, Job: 1, Start: 90, Slots: 1},
			{ID: 6, Job: 1, Start: 95, Slots: 1},
		},
	}
	b, _ := preempt.Baseline(c, 2)
	g, _ := preempt.GP(c, 2, preempt.GPOptions{})
	for _, d := range []struct {
		name string
		d    preempt.Decision
	}{{"baseline", b}, {"GP", g}} {
		fmt.Printf("%-8s freed %d, work lost %g slot·s:", d.name, d.d.Freed, d.d.WorkLost)
		for _, v := range d.d.Victims {
			fmt.Printf(" task %d (%v)", v.ID, v.Reason)
		}
		fmt.Println()
	}
	// Output:
	// baseline freed 2, work lost 130 slot·s: task 4 (overflow) task 3 (overflow)
	// GP       freed 2, work lost 15 slot·s: task 6 (most-recent) task 5 (most-recent)
}

// The Table IV metrics of three jobs whose ideal times were 10, 20 and 30 s.
func ExampleEvaluate() {
	m, _ := preempt.Evaluate([]float64{10, 20, 30}, []float64{20, 20, 60})
	fmt.Printf("SNP %.3f l1 %.3f l2 %.3f unfairness %.3f avg response %.0f s\n",
		m.SNP, m.L1, m.L2, m.Unfairness, m.AvgResponse)
	// Output:
	// SNP 0.630 l1 1.667 l2 1.732 unfairness 0.354 avg response 33 s
}

package admission_test

import (
	"fmt"
	"math"

	"github.com/schedkit/schedkit/admission"
)

// exp2 stands in for tct.Exp2 (MIMP Eq. 1); any type with TCT(r) works.
type exp2 struct{ A, B, C, D float64 }

func (m exp2) TCT(r float64) float64 { return m.A*math.Exp(m.B*r) + m.C*math.Exp(m.D*r) }

// A scheduler keeps one Queue and asks it on every arrival.
func Example() {
	cluster := []admission.Slot{{R: 1}, {R: 1}, {R: 0.5}, {R: 0.25}} // residual capacity of each slot
	sort := exp2{A: 40}                                              // 40 s per task whatever the load
	pi := exp2{A: 10, B: -1.2, C: 5}                                 // slower on busy slots

	var q admission.Queue
	arrive := func(id int64, now, deadline float64, m exp2, tasks int) {
		jct, err := admission.JCT(m, tasks, cluster) // Eq. 6
		if err != nil {
			fmt.Println(err)
			return
		}
		job := admission.Job{ID: id, Arrival: now, Deadline: deadline, JCT: jct}
		d, err := q.Decide(job, now, admission.Options{Mode: admission.ModeStrict})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("job %d at t=%v: JCT %.1f s, admit=%v (%v)", id, now, jct, d.Admit, d.Reason)
		if !d.Admit {
			b := d.Checked[d.Blocking]
			fmt.Printf(", protects job %d: completes %.1f s after now, slack %.1f s", b.ID, b.Prefix, b.Slack)
		}
		fmt.Println()
		if d.Admit {
			_ = q.Insert(job)
		}
	}
	arrive(1, 0, 300, sort, 20)          // 20·40/4 = 200 s
	arrive(2, 10, 250, pi, 8)            // fits before job 1's deadline
	arrive(3, 20, 200, sort, 8)          // meets 200 but pushes job 1 past 300
	arrive(4, 30, math.Inf(1), sort, 99) // no deadline: always admitted
	// Output:
	// job 1 at t=0: JCT 200.0 s, admit=true (fits)
	// job 2 at t=10: JCT 19.5 s, admit=true (fits)
	// job 3 at t=20: JCT 80.0 s, admit=false (queued-job-hurt), protects job 1: completes 299.5 s after now, slack -19.5 s
	// job 4 at t=30: JCT 990.0 s, admit=true (no-deadline)
}

// Eq. 6 for a job of 12 remaining tasks on four slots, one of them fully
// taken by its web VM: 12 · (2·30e^-0.5 + 30e^-0.25) / 3² ≈ 79.67 s.
func ExampleJCT() {
	m := exp2{A: 30, B: -0.5} // 30·e^(-r/2) s per task
	jct, err := admission.JCT(m, 12, []admission.Slot{{R: 1}, {R: 1}, {R: 0.5}, {R: 0}})
	fmt.Printf("%.2f s %v\n", jct, err)
	// Output:
	// 79.67 s <nil>
}

// A YARN controller estimates every app on one cluster of 50,000 dedicated
// containers: the cluster is read once, and each estimate is JCT's value to
// the bit, without a walk over the containers. (The 50,000 additions of 0.1
// s round: the estimate is not exactly tasks · 0.1 / 50,000.)
func ExampleJCTOn() {
	cluster := make([]admission.Slot, 50000)
	for i := range cluster {
		cluster[i].R = 1 // a dedicated container
	}
	caps, err := admission.NewCapacities(cluster)
	if err != nil {
		fmt.Println(err)
		return
	}
	m := exp2{A: 0.1} // 0.1 s per task
	for _, tasks := range []int{20000, 100000} {
		on, _ := admission.JCTOn(m, tasks, caps)
		walk, _ := admission.JCT(m, tasks, cluster)
		fmt.Printf("%d tasks: %.17g s, equal to JCT: %v\n", tasks, on, on == walk)
	}
	// Output:
	// 20000 tasks: 0.040000000000005267 s, equal to JCT: true
	// 100000 tasks: 0.20000000000002635 s, equal to JCT: true
}

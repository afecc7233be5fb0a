package admission_test

import (
	"fmt"

	"github.com/schedkit/schedkit/admission"
)

// Wave mode, the default: each arrival is checked against a plan of every
// pending task on the cluster's slots. Two dedicated slots and one shared
// slot (residual capacity 0.5); slot 1 is busy until t = 20.
func Example_wave() {
	cluster := []admission.Slot{{R: 1}, {R: 1, Busy: true, FreeAt: 20}, {R: 0.5}}
	sort := exp2{A: 30}             // 30 s per task on any slot
	pi := exp2{A: 5, B: -1.6, C: 5} // 6 s dedicated, 7.2 s at r = 0.5
	opt := admission.Options{Cluster: cluster, Margin: 1.1}

	var q admission.Queue
	arrive := func(job admission.Job) {
		d, err := q.Decide(job, 0, opt)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("job %d: admit=%v (%v)", job.ID, d.Admit, d.Reason)
		if d.Admit {
			_ = q.Insert(job)
			fmt.Printf(", planned to complete at %.1f s", d.Checked[d.NewIndex].Prefix)
		} else {
			b := d.Checked[d.Blocking]
			fmt.Printf(": job %d would complete at %.1f s, %.1f s after its deadline", b.ID, b.Prefix, -b.Slack)
		}
		fmt.Println()
	}
	// 4 tasks × 33 s: slots 0 and 2 at 0–33, slot 1 at 20–53, slot 0 again
	// at 33–66: done at 66 ≤ 70.
	arrive(admission.Job{ID: 1, Deadline: 70, Tasks: 4, Model: sort})
	// Six Pi tasks (6.6 s on a dedicated slot, 8.0 s on the shared one) go
	// first in EDF order and push job 1's last task to 52.8–85.8.
	arrive(admission.Job{ID: 2, Deadline: 40, Tasks: 6, Model: pi})
	// Two Pi tasks still push it to 72.6.
	arrive(admission.Job{ID: 3, Deadline: 40, Tasks: 2, Model: pi})
	// A later deadline queues behind job 1: slot 2, free at 33, runs it.
	arrive(admission.Job{ID: 4, Deadline: 90, Tasks: 1, Model: pi})
	// Output:
	// job 1: admit=true (fits), planned to complete at 66.0 s
	// job 2: admit=false (queued-job-hurt): job 1 would complete at 85.8 s, 15.8 s after its deadline
	// job 3: admit=false (queued-job-hurt): job 1 would complete at 72.6 s, 2.6 s after its deadline
	// job 4: admit=true (fits), planned to complete at 41.0 s
}

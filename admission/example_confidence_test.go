package admission_test

import (
	"fmt"

	"github.com/schedkit/schedkit/admission"
)

// Confidence admission from completion-time samples (for example Monte-Carlo
// runs of tct's stochastic model), over a queue the caller holds. Draw s
// of every job is used together.
func ExampleWorkspace_Decide_confidence() {
	queue := []admission.Job{ // already in EDF order
		{ID: 1, Deadline: 100, Samples: []float64{20, 40, 60, 80}},
		{ID: 2, Deadline: 175, Samples: []float64{150, 50, 50, 0}},
	}
	job := admission.Job{ID: 3, Deadline: 150, Samples: []float64{10, 20, 30, 90}}
	var c admission.Workspace
	for _, p := range []float64{0.5, 0.9} {
		d, err := c.Decide(queue, job, 0, admission.Options{Mode: admission.ModeConfidence, Confidence: p})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("p=%.1f: P(all protected deadlines met)=%.2f admit=%v\n", p, d.Probability, d.Admit)
		for _, ch := range d.Checked {
			fmt.Printf("  job %d: mean completion %.1f s, P(meet)=%.2f protected=%v\n", ch.ID, ch.Prefix, ch.PMeet, ch.Protected)
		}
	}
	// Output:
	// p=0.5: P(all protected deadlines met)=0.50 admit=true
	//   job 1: mean completion 50.0 s, P(meet)=1.00 protected=false
	//   job 3: mean completion 87.5 s, P(meet)=0.75 protected=true
	//   job 2: mean completion 150.0 s, P(meet)=0.75 protected=true
	// p=0.9: P(all protected deadlines met)=0.50 admit=false
	//   job 1: mean completion 50.0 s, P(meet)=1.00 protected=false
	//   job 3: mean completion 87.5 s, P(meet)=0.75 protected=true
	//   job 2: mean completion 150.0 s, P(meet)=0.75 protected=true
}

package replay

import (
	"fmt"
	"io"
	"time"
)

// A PhaseStat is the time one step from a Job's creation to its completion
// took, p50 and p90 in seconds over the N admitted Jobs that completed and
// show the step.
type PhaseStat struct {
	Name string  `json:"name"`
	N    int     `json:"n"`
	P50  float64 `json:"p50Seconds"`
	P90  float64 `json:"p90Seconds"`
}

// phaseNames are the steps, in order.
var phaseNames = [...]string{
	"create→quota",   // Kueue reserves quota
	"quota→check",    // the check says Ready (configurations with the check)
	"check→admit",    // Kueue admits (from quota in stock)
	"admit→pods",     // the Job is unsuspended and its last pod created
	"pods→running",   // the last pod is bound and kwok starts it
	"running→ended",  // beyond the run time: kwok's completion delay
	"ended→complete", // the Job controller marks the Job complete
	// From the decision to admit — the check's Ready, else Kueue's quota
	// reservation — to completion, beyond the run time: the time the
	// check's -start-delay stands for, since its plan starts a Ready
	// workload's pods StartDelay after its decision.
	"decision→done",
}

// phases measures each step over the completed admitted Jobs.
func phases(outs []Outcome) []PhaseStat {
	xs := make([][]float64, len(phaseNames))
	add := func(i int, from, to time.Time) {
		if !from.IsZero() && !to.IsZero() {
			xs[i] = append(xs[i], to.Sub(from).Seconds())
		}
	}
	for _, o := range outs {
		if o.Admitted.IsZero() || o.Finished.IsZero() {
			continue
		}
		add(0, o.Created, o.QuotaReserved)
		add(1, o.QuotaReserved, o.CheckReady)
		if o.CheckReady.IsZero() {
			add(2, o.QuotaReserved, o.Admitted)
		} else {
			add(2, o.CheckReady, o.Admitted)
		}
		add(3, o.Admitted, o.PodsCreated)
		add(4, o.PodsCreated, o.PodsRunning)
		if !o.PodsRunning.IsZero() && !o.PodsEnded.IsZero() {
			xs[5] = append(xs[5], o.PodsEnded.Sub(o.PodsRunning).Seconds()-o.Sub.Run.Seconds())
		}
		add(6, o.PodsEnded, o.Finished)
		decided := o.CheckReady
		if decided.IsZero() {
			decided = o.QuotaReserved
		}
		if !decided.IsZero() {
			xs[7] = append(xs[7], o.Finished.Sub(decided).Seconds()-o.Sub.Run.Seconds())
		}
	}
	out := make([]PhaseStat, len(phaseNames))
	for i, name := range phaseNames {
		out[i] = PhaseStat{Name: name, N: len(xs[i]), P50: quantile(xs[i], 0.5), P90: quantile(xs[i], 0.9)}
	}
	return out
}

// PhaseTable writes, per result, each step's p50/p90 in seconds.
func PhaseTable(w io.Writer, rs []Result) {
	fmt.Fprintf(w, "\nfrom creation to completion, p50/p90 s over the admitted Jobs that completed:\n%3s %5s %9s", "rep", "load", "config")
	for _, n := range phaseNames {
		fmt.Fprintf(w, " %15s", n)
	}
	fmt.Fprintln(w)
	for _, r := range rs {
		fmt.Fprintf(w, "%3d %5s %9s", r.Rep, r.Load, r.Config)
		for _, p := range r.Phases {
			s := "-"
			if p.N > 0 {
				s = fmt.Sprintf("%.1f/%.1f", p.P50, p.P90)
			}
			fmt.Fprintf(w, " %15s", s)
		}
		fmt.Fprintln(w)
	}
}

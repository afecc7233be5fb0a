package deadlineadmission

import (
	"cmp"
	"slices"
	"time"

	"k8s.io/apimachinery/pkg/types"

	"github.com/schedkit/schedkit/adapters/kubesched/internal/tally"
)

// runningSet is the keys of the running jobs with a deadline, kept from the
// tally's changes so that a scheduling cycle reads only those jobs, not
// every pod of the cluster. It is read and written under the tally's lock
// (in tally.Read).
type runningSet map[types.UID]struct{}

// update applies the jobs changed since the last update.
func (r runningSet) update(v *tally.View) {
	if _, reset := v.Changes(r.set); reset {
		// Every job the tally holds was given, but keys of jobs it no
		// longer holds may remain.
		clear(r)
		v.EachJob(r.set)
	}
}

// set keeps key if its job runs (a pod assigned to a node, or assumed
// there) and has a deadline, and forgets it otherwise.
func (r runningSet) set(key types.UID, j *tally.Job) {
	if j != nil && j.Running > 0 && j.Attr.HasDeadline {
		r[key] = struct{}{}
	} else {
		delete(r, key)
	}
}

// running returns the running deadline jobs in job-key order, each started
// at its earliest pod's start (tally.Job.EarliestStart), and reports
// whether the job with key self runs.
func (pl *DeadlineAdmission) running(self types.UID, now time.Time) (out []RunningJob, admitted bool) {
	pl.tally.Read(func(v *tally.View) {
		pl.runningJobs.update(v)
		if j := v.Job(self); j != nil && j.Running > 0 {
			admitted = true
			return
		}
		out = make([]RunningJob, 0, len(pl.runningJobs))
		for key := range pl.runningJobs {
			j := v.Job(key)
			start, _ := j.EarliestStart(now)
			out = append(out, RunningJob{Job: j.Attr, Started: start})
		}
	})
	slices.SortFunc(out, func(a, b RunningJob) int { return cmp.Compare(a.Job.Key, b.Job.Key) })
	return out, admitted
}

package deadlineadmission

import (
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/schedkit/schedkit/adapters/kubesched/internal/podjob"
	"github.com/schedkit/schedkit/adapters/kubesched/internal/tally"
)

// runningSet is the keys of the running jobs with a deadline, kept from the
// tally's changes so that a scheduling cycle reads only those jobs, not
// every pod of the cluster. It is read and written under the tally's lock
// (in tally.Read) and under the plugin's.
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

// readRunning writes the running deadline jobs, each started at its
// earliest pod's start (tally.Job.EarliestStart), into pl.running (in no
// particular order: fill puts them in EDF order) and returns the pod's
// job, reporting whether it runs. The job is the tally's mapping when the
// tally holds the pod as its job's representative, else the pod mapped
// here. Call it with pl.mu held.
func (pl *DeadlineAdmission) readRunning(pod *v1.Pod, now time.Time) (job podjob.Job, admitted bool) {
	key := podjob.JobKey(pod)
	mapped := false
	pl.running = pl.running[:0]
	pl.tally.Read(func(v *tally.View) {
		pl.runningJobs.update(v)
		if j := v.Job(key); j != nil && j.Running > 0 {
			admitted = true
			return
		}
		job, mapped = v.Mapped(pod)
		for k := range pl.runningJobs {
			j := v.Job(k)
			start, _ := j.EarliestStart(now)
			pl.running = append(pl.running, RunningJob{Job: j.Attr, Started: start})
		}
	})
	if !admitted && !mapped {
		job = pl.jobs.Job(pod)
	}
	return job, admitted
}

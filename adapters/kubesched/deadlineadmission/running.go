package deadlineadmission

import (
	"math"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/schedkit/schedkit/admission"

	"github.com/schedkit/schedkit/adapters/kubesched/internal/podjob"
	"github.com/schedkit/schedkit/adapters/kubesched/internal/tally"
)

// runningJobs is the running jobs with a deadline, kept from the tally's
// changes in an admission.RunningSet (each by its end: its first pod's
// start plus its estimate), so that a scheduling cycle decides on them
// without reading, converting or sorting them. It is read and written
// under the tally's lock (in tally.Read) and under the plugin's.
//
// The set holds one job per ID. While two running jobs share an ID (a
// hash collision of their keys) or a job cannot be held (more than
// admission.MaxJobs), a cycle decides as the per-cycle computation does
// (MakeInput), which reports the collision or the size.
type runningJobs struct {
	// changes is the plugin's own record of the tally's changes (the
	// profile's other plugins read the same tally).
	changes *tally.Reader
	set     admission.RunningSet
	byKey   map[types.UID]heldJob
	byID    map[int64]types.UID // one key per ID held in set
	ids     map[int64]int       // keys per ID
	// shared counts the IDs of more than one key (the set holds one of
	// them), unheld the keys the set refused.
	shared, unheld int
}

// A heldJob is one running deadline job of runningJobs.
type heldJob struct {
	job     admission.RunningJob
	ref     string
	refused bool // the set refused it (admission.MaxJobs)
}

func newRunningJobs(changes *tally.Reader) runningJobs {
	return runningJobs{changes: changes, byKey: map[types.UID]heldJob{}, byID: map[int64]types.UID{}, ids: map[int64]int{}}
}

// exact reports whether set holds every running deadline job.
func (r *runningJobs) exact() bool { return r.shared == 0 && r.unheld == 0 }

// update applies the jobs changed since the last update.
func (r *runningJobs) update(v *tally.View, args *Args) {
	set := func(key types.UID, j *tally.Job) { r.setJob(key, j, args) }
	if _, reset := v.ChangesOf(r.changes, set); reset {
		// Every job the tally holds was given, but keys of jobs it no
		// longer holds may remain.
		*r = newRunningJobs(r.changes)
		v.EachJob(set)
	}
}

// setJob keeps key if its job runs (a pod assigned to a node, or assumed
// there) and has a deadline, and forgets it otherwise.
func (r *runningJobs) setJob(key types.UID, j *tally.Job, args *Args) {
	old, had := r.byKey[key]
	if j == nil || j.Running == 0 || !j.Attr.HasDeadline {
		if had {
			r.drop(key, old)
		}
		return
	}
	h := heldJob{job: runningJob(j, args), ref: j.Attr.Ref}
	id := h.job.ID
	if had && old.job.ID == id { // described anew
		if old.refused {
			r.unheld--
		}
		r.byKey[key] = h
		if r.ids[id] == 1 {
			r.hold(key)
		}
		return
	}
	if had {
		r.drop(key, old)
	}
	r.byKey[key] = h
	r.ids[id]++
	switch r.ids[id] {
	case 1:
		r.hold(key)
	case 2:
		r.shared++
	}
}

// hold puts the job of key, the only one with its ID, in the set.
func (r *runningJobs) hold(key types.UID) {
	h := r.byKey[key]
	if h.refused {
		r.unheld--
	}
	if h.refused = r.set.Set(h.job) != nil; h.refused {
		r.unheld++
	}
	r.byKey[key] = h
	r.byID[h.job.ID] = key
}

// drop forgets the job of key. When one key is left with its ID (a
// collision ends), that key's job takes the ID's place in the set.
func (r *runningJobs) drop(key types.UID, h heldJob) {
	delete(r.byKey, key)
	if h.refused {
		r.unheld--
	}
	id := h.job.ID
	r.ids[id]--
	switch r.ids[id] {
	case 0:
		delete(r.ids, id)
		delete(r.byID, id)
		r.set.Remove(id)
	case 1:
		r.shared--
		for k, o := range r.byKey { // rare: O(running deadline jobs)
			if o.job.ID == id {
				r.hold(k)
				return
			}
		}
	}
}

// runningJob is the tally's job as admission's running job: its estimate
// (0 without a usable one: admission cannot protect what it cannot
// predict), ending its estimate after its first pod's start (tally.Job.
// FirstStart), or admission.NotStarted when no pod has a start time.
func runningJob(j *tally.Job, args *Args) admission.RunningJob {
	est, _, err := estimate(j.Attr, args)
	if err != nil {
		est = 0
	}
	a := admissionJob(j.Attr, 0)
	r := admission.RunningJob{ID: a.ID, Arrival: a.Arrival, Deadline: a.Deadline, Estimate: int64(est), End: admission.NotStarted}
	if s, ok := j.FirstStart(); ok && s <= math.MaxInt64-int64(est) {
		r.End = s + int64(est)
	}
	return r
}

// readRunning updates the running deadline jobs and returns the pod's job,
// reporting whether it runs. The job is the tally's mapping when the tally
// holds the pod as its job's representative, else the pod mapped here.
// When the set does not hold every running deadline job (exact is false),
// it writes them, each started at its earliest pod's start
// (tally.Job.EarliestStart), into pl.running (in no particular order:
// fill puts them in EDF order). Call it with pl.mu held.
func (pl *DeadlineAdmission) readRunning(pod *v1.Pod, now time.Time) (job podjob.Job, admitted, exact bool) {
	key := podjob.JobKey(pod)
	mapped := false
	pl.running = pl.running[:0]
	r := &pl.runningJobs
	pl.tally.Read(func(v *tally.View) {
		r.update(v, pl.args)
		if j := v.Job(key); j != nil && j.Running > 0 {
			admitted = true
			return
		}
		job, mapped = v.Mapped(pod)
		if exact = r.exact(); exact {
			return
		}
		for k := range r.byKey {
			j := v.Job(k)
			start, _ := j.EarliestStart(now)
			pl.running = append(pl.running, RunningJob{Job: j.Attr, Started: start})
		}
	})
	if !admitted && !mapped {
		job = pl.jobs.Job(pod)
	}
	return job, admitted, exact
}

// ref names a running deadline job by its ID, for messages (exact only).
func (r *runningJobs) ref(id int64) string { return r.byKey[r.byID[id]].ref }

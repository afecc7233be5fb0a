package admission

import "github.com/schedkit/schedkit/internal/job"

// A Model predicts a job's task completion time: TCT(r) is the time in
// seconds one task of the job takes on a slot with residual CPU capacity r in
// [0, 1] (MIMP Eq. 1). tct.Exp2 satisfies it, so callers pass their models
// without admission importing tct. It is edf.Model too.
type Model = job.Model

// JCT returns MIMP Eq. 6, the estimated completion time of a job that has
// nRemaining tasks left, in seconds, if it ran alone on the whole cluster:
//
//	JCT(j, R) = nRemaining · Σ_{i=1..n} TCT_j(R_i) / n²
//
// that is, the mean task time over the cluster's slots times the number of
// task waves nRemaining/n. cluster is the slots as every call of this
// package takes them; JCT reads each slot's residual capacity R_i in [0, 1]
// (1 = a free dedicated slot, the web VM's leftover for a shared slot) and
// not whether another job holds the slot now (Slot.Busy, Slot.FreeAt): the
// paper estimates each job as if it ran by itself. Slots with R_i = 0 cannot run a task and
// are left out (n counts only slots with R_i > 0), as edf reads Eq. 3 and
// 4; a literal reading would count TCT_j(0), which exp2 makes finite.
//
// nRemaining should count the tasks not finished (not started plus running)
// so the estimate stays conservative as the paper intends. nRemaining = 0
// gives 0.
//
// Errors (all match ErrBadInput): nRemaining < 0; a NaN or out-of-range
// capacity ("Cluster[i].R"); no slot with R_i > 0 ("Cluster", ErrNoCapacity);
// a model value that is NaN, not > 0 or beyond MaxDuration
// ("TCT(Cluster[i])"); a result beyond MaxDuration ("JCT"), so that the
// result is always a valid Job.JCT; a nil model ("Model", Value 0: a nil
// interface, or a nil pointer, map, func or channel, alone or in an
// interface, whose method would use it). A nil model is detected, never
// called.
//
// JCT is generic so that a concrete model such as tct.Exp2 is called without
// boxing: it allocates nothing. It is O(len(cluster)); callers compute it on
// arrival and when a job's remaining tasks or the cluster change, and pass the
// result in Job.JCT. To estimate many jobs on one cluster, read the cluster
// once with NewCapacities and call JCTOn: the same result, without a walk
// over every slot per job.
func JCT[M Model](m M, nRemaining int, cluster []Slot) (float64, error) {
	if err := checkJCTArgs(m, nRemaining); err != nil {
		return 0, err
	}
	sum := 0.0
	n := 0
	for i := range cluster {
		r := cluster[i].R
		if !(r >= 0 && r <= 1) {
			return 0, capacityError(i, r)
		}
		if r == 0 {
			continue
		}
		t := m.TCT(r)
		if !(t > 0 && t <= MaxDuration) {
			return 0, tctError(i, t)
		}
		sum += t
		n++
	}
	return eq6(sum, n, nRemaining)
}

// checkJCTArgs checks JCT's model and task count.
func checkJCTArgs[M Model](m M, nRemaining int) error {
	if nilModel(m) {
		return &ValueError{Field: "Model", Value: 0, Reason: "nil model (a nil interface or a nil pointer, map, func or channel)"}
	}
	if nRemaining < 0 {
		return &ValueError{Field: "nRemaining", Value: nRemaining, Reason: "must be >= 0"}
	}
	return nil
}

// eq6 finishes Eq. 6 from the sum of the task times over the n usable
// slots, added in cluster order.
func eq6(sum float64, n, nRemaining int) (float64, error) {
	if n == 0 {
		return 0, ErrNoCapacity
	}
	if nRemaining == 0 {
		return 0, nil
	}
	fn := float64(n)
	jct := float64(nRemaining) * (sum / fn) / fn
	if !(jct <= MaxDuration) {
		return 0, &ValueError{Field: "JCT", Value: jct, Reason: "exceeds MaxDuration"}
	}
	return jct, nil
}

// ErrNoCapacity is returned by JCT when the cluster has no slot with residual
// capacity > 0: no task can run, so no completion time exists. It matches
// ErrBadInput.
var ErrNoCapacity error = &ValueError{Field: "Cluster", Value: 0, Reason: "no slot with residual capacity > 0"}

// nilModel reports whether m is a nil interface or holds a nil pointer,
// map, func or channel, without allocating for a concrete model.
func nilModel[M Model](m M) bool { return job.NilModel(m) }

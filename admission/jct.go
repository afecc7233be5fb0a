package admission

import (
	"fmt"
	"math"
	"reflect"
)

// A Model predicts a job's task completion time: TCT(r) is the time in
// seconds one task of the job takes on a slot with residual CPU capacity r in
// [0, 1] (000 Eq. 1). tct.Exp2 satisfies it, so callers pass their models
// without admission importing tct.
type Model interface {
	TCT(r float64) float64
}

// JCT returns 000 Eq. 6, the estimated completion time of a job that has
// nRemaining tasks left, in seconds, if it ran alone on the whole cluster:
//
//	JCT(j, R) = nRemaining · Σ_{i=1..n} TCT_j(R_i) / n²
//
// that is, the mean task time over the cluster's slots times the number of
// task waves nRemaining/n. cluster holds every slot's residual capacity R_i
// in [0, 1] (1 = a free dedicated slot, the web VM's leftover for a shared
// slot), whether or not another job holds the slot now: the paper estimates
// each job as if it ran by itself. Slots with R_i = 0 cannot run a task and
// are left out (n counts only slots with R_i > 0), as SPEC.md settles for
// Eq. 4; a literal reading would count TCT_j(0), which exp2 makes finite.
//
// nRemaining should count the tasks not finished (not started plus running)
// so the estimate stays conservative as the paper intends. nRemaining = 0
// gives 0.
//
// Errors (all match ErrBadInput): nRemaining < 0; a NaN or out-of-range
// capacity (Cluster[i]); no slot with R_i > 0 ("Cluster", ErrNoCapacity);
// a model value that is NaN, infinite or negative ("TCT(Cluster[i])"); a
// result that overflows float64; a nil model ("Model": a nil interface, or a
// nil pointer, alone or in an interface, whose method would dereference it).
//
// JCT is generic so that a concrete model such as tct.Exp2 is called without
// boxing: it allocates nothing. It is O(len(cluster)); callers compute it on
// arrival and when a job's remaining tasks or the cluster change, and pass the
// result in Job.JCT.
func JCT[M Model](m M, nRemaining int, cluster []float64) (float64, error) {
	if nilModel(m) {
		return 0, &ValueError{Field: "Model", Value: math.NaN(), Reason: "nil model"}
	}
	if nRemaining < 0 {
		return 0, &ValueError{Field: "nRemaining", Value: float64(nRemaining), Reason: "must be >= 0"}
	}
	sum := 0.0
	n := 0
	for i, r := range cluster {
		if !(r >= 0 && r <= 1) {
			return 0, &ValueError{Field: fmt.Sprintf("Cluster[%d]", i), Value: r, Reason: "residual capacity must be in [0, 1]"}
		}
		if r == 0 {
			continue
		}
		t := m.TCT(r)
		if !(t >= 0) || math.IsInf(t, 1) {
			return 0, &ValueError{Field: fmt.Sprintf("TCT(Cluster[%d])", i), Value: t, Reason: "model must give a finite task time >= 0"}
		}
		sum += t
		n++
	}
	if n == 0 {
		return 0, ErrNoCapacity
	}
	if nRemaining == 0 {
		return 0, nil
	}
	fn := float64(n)
	jct := float64(nRemaining) * (sum / fn) / fn
	if math.IsInf(jct, 0) || math.IsNaN(jct) {
		return 0, &ValueError{Field: "JCT", Value: jct, Reason: "overflows float64"}
	}
	return jct, nil
}

// ErrNoCapacity is returned by JCT when the cluster has no slot with residual
// capacity > 0: no task can run, so no completion time exists. It matches
// ErrBadInput.
var ErrNoCapacity error = &ValueError{Field: "Cluster", Value: 0, Reason: "no slot with residual capacity > 0"}

// nilModel reports whether m is a nil interface or a nil pointer (directly or
// inside an interface). Only pointer and interface types are inspected, and
// boxing a pointer allocates nothing, so a concrete value model such as
// tct.Exp2 costs a type check and no allocation.
func nilModel[M Model](m M) bool {
	switch reflect.TypeFor[M]().Kind() {
	case reflect.Interface, reflect.Pointer:
		v := reflect.ValueOf(any(m)) // any(m) is pointer-shaped here: no allocation
		return !v.IsValid() || v.Kind() == reflect.Pointer && v.IsNil()
	}
	return false
}

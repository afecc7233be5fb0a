package deadlinecheck

import (
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"time"

	"github.com/schedkit/schedkit/tct/jct"
)

// A work sample set holds, for one workload and each Monte-Carlo draw s,
// its remaining run time in the two forms the check uses:
//
//   - own[s]: the time until its last remaining pod finishes if it runs now
//     on the pods it requests (its pods run in parallel, as Kueue reserves
//     quota for all of them): the largest remaining pod time.
//   - fluid[s]: its remaining work in pod-seconds over the ClusterQueue's
//     capacity in pod units: the time the whole queue would spend on it,
//     MIMP Eq. 6 with the remaining pods and every slot dedicated
//     (JCT = n_remaining · TCT / n over n = Slots slots).
type work struct {
	own, fluid []float64
	alone      *aloneMemo // the alone test's threshold, found once
}

// seedOf maps a workload's UID to its random stream, so a workload's draws
// do not depend on the other workloads or on the order they are seen in.
func seedOf(uid string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(uid))
	return h.Sum64()
}

// drawWork draws n samples of w's remaining run time. Each remaining pod
// takes a draw of w.RunTime.Pod conditioned on having run w.Executed
// already (jct.Lognormal.DrawRemaining, Lee thesis §5.4.2): every pod not
// yet finished is taken to have run as long as the workload, less the
// control plane's start delay (Config.StartDelay), whose part not yet
// elapsed is added to every pod. A model without spread gives its exact
// time less the time executed.
func drawWork(w Workload, n int, seed uint64, delay time.Duration) (work, error) {
	out := work{own: make([]float64, n), fluid: make([]float64, n), alone: &aloneMemo{}}
	rng := rand.New(rand.NewPCG(seed, seedOf(string(w.UID))))
	left := w.Pods - w.Done
	ahead := max(delay-w.Executed, 0).Seconds()   // start delay still to come
	elapsed := max(w.Executed-delay, 0).Seconds() // time the pods have run
	slots := float64(w.Slots)
	for s := range n {
		sum, longest := 0.0, 0.0
		for range left {
			d := max(w.RunTime.Exact-elapsed, 0)
			if w.RunTime.Exact == 0 {
				var err error
				if d, err = w.RunTime.Pod.DrawRemaining(elapsed, rng); err != nil {
					return work{}, err
				}
			}
			d += ahead
			sum += d
			longest = max(longest, d)
		}
		if math.IsInf(sum, 0) {
			return work{}, fmt.Errorf("run-time model %s: %d pods sum to more than %g s", w.RunTime.Source, left, math.MaxFloat64)
		}
		out.own[s] = longest
		out.fluid[s] = sum / slots
	}
	return out, nil
}

// quantiles returns the p50 and p90 of xs (type-7 interpolation, jct).
func quantiles(xs []float64) (p50, p90 float64, err error) {
	d, err := jct.NewDistribution(xs)
	if err != nil {
		return 0, 0, err
	}
	if p50, err = d.Quantile(0.5); err != nil {
		return 0, 0, err
	}
	p90, err = d.Quantile(0.9)
	return p50, p90, err
}

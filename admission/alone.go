package admission

import (
	"fmt"
	"math"
)

// AloneDeadline returns the least time to deadline d (deadline − now, in
// seconds) at which ModeConfidence admits a deadline job alone — Decide
// with an empty queue, the job's completion-time samples and
// Options.Confidence = p — so that, for every finite d, that decision
// admits iff AloneDeadline(samples, p) ≤ d. A caller that keeps it per
// job tests the job alone with one comparison instead of a pass over its
// samples.
//
// The rule is ModeConfidence's with the queue empty: sample s meets the
// deadline iff samples[s] ≤ d, and the job is admitted iff
// meets / n ≥ p, the share computed in float64 as Decide computes it. The
// result is the k-th smallest sample for the least k in [0, n] with
// k / n ≥ p (such a k exists, since n / n = 1 ≥ p); k = 0 (p = 0, or
// p small enough that 0 / n ≥ p) gives −Inf: every deadline is met. A
// sample −0 counts as 0 and is returned as +0.
//
// It is pure and allocates nothing: the k-th smallest sample is found by
// radix selection over the samples' bit patterns (eight passes of n), not
// by sorting a copy.
//
// Errors (matching ErrBadInput), as Decide in ModeConfidence refuses the
// same job: p outside [0, 1] or NaN ("p"); samples empty or longer than
// MaxSamples ("len(samples)"); a sample that is NaN, infinite or outside
// [0, MaxDuration] ("samples[s]").
func AloneDeadline(samples []float64, p float64) (float64, error) {
	if !(p >= 0 && p <= 1) {
		return 0, &ValueError{Field: "p", Value: p, Reason: "confidence must be in [0, 1]"}
	}
	n := len(samples)
	if n == 0 {
		return 0, &ValueError{Field: "len(samples)", Value: 0, Reason: "need at least one sample"}
	}
	if n > MaxSamples {
		return 0, &ValueError{Field: "len(samples)", Value: n, Reason: "more than MaxSamples = 2^20"}
	}
	for s, t := range samples {
		if !(t >= 0 && t <= MaxDuration) {
			return 0, &ValueError{Field: fmt.Sprintf("samples[%d]", s), Value: t, Reason: "must be in [0, MaxDuration]"}
		}
	}
	fn := float64(n)
	k := max(int(math.Ceil(p*fn))-1, 0)
	for !(float64(k)/fn >= p) {
		k++
	}
	if k == 0 {
		return math.Inf(-1), nil
	}
	return kthSmallest(samples, k), nil
}

// kthSmallest returns the k-th smallest (1 ≤ k ≤ len(xs)) of xs, each in
// [0, MaxDuration], by radix selection on their bit patterns, which
// non-negative float64s order as their values (−0 taken as +0): eight
// passes, each counting the samples that share the bytes chosen so far by
// their next byte, and choosing the byte where the k-th falls.
func kthSmallest(xs []float64, k int) float64 {
	var prefix, mask uint64
	for shift := 56; shift >= 0; shift -= 8 {
		var count [256]int
		for _, t := range xs {
			if b := math.Float64bits(t + 0); b&mask == prefix {
				count[b>>shift&0xff]++
			}
		}
		for d, c := range count {
			if k <= c {
				prefix |= uint64(d) << shift
				break
			}
			k -= c
		}
		mask |= 0xff << shift
	}
	return math.Float64frombits(prefix)
}

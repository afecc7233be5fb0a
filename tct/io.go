package tct

import (
	"fmt"
	"math"
	"slices"
)

// IO returns the read rate a new task of this job type puts on the data
// nodes when it runs at residual capacity r, MIMP Eq. 5:
//
//	IO(r) = read90 / NormTCT(r)
//
// with the dedicated slot at r = 1. read90 is the 90th percentile of the read
// rate a dedicated worker was measured to issue (see Read90), in the
// caller's unit (for example requests per second per data node); the result
// is in the same unit. A task that runs k times slower than on a dedicated
// slot issues its reads k times more slowly. Errors as IOAt.
func (m Exp2) IO(r, read90 float64) (float64, error) {
	return m.IOAt(r, 1, read90)
}

// IOAt is IO with a configurable dedicated capacity (Eq. 2's r_dedicated).
// It returns a *ValueError (matching ErrBadInput) when read90 is negative or
// not finite, for every error of NormTCTAt, and when NormTCT(r) is not
// positive (a model that predicts a non-positive time at r cannot scale a
// rate). IO(r)·NormTCT(r) = read90 up to rounding. It allocates nothing on
// success.
func (m Exp2) IOAt(r, dedicated, read90 float64) (float64, error) {
	if !exp2Finite(read90) || !(read90 >= 0) {
		return 0, &ValueError{Field: "read90", Value: read90, Reason: "must be finite and ≥ 0"}
	}
	norm, err := m.NormTCTAt(r, dedicated)
	if err != nil {
		return 0, err
	}
	if !(norm > 0) {
		return 0, &ValueError{Field: "NormTCT(r)", Value: norm, Reason: "must be positive to scale a read rate"}
	}
	io := read90 / norm
	if math.IsInf(io, 0) {
		return 0, &ValueError{Field: "IO(r)", Value: io, Reason: "overflows"}
	}
	return io, nil
}

// Percentile returns the p-th percentile (p in [0, 100]) of samples by
// linear interpolation between closest ranks (the definition of R's and
// NumPy's defaults): with the samples sorted ascending as s[0..n−1], it is
// s[k] + (h−k)·(s[k+1]−s[k]) for h = (n−1)·p/100 and k = ⌊h⌋. So p = 0 gives
// the minimum, p = 100 the maximum, and one sample is its own percentile.
//
// It returns a *ValueError (matching ErrBadInput) for no samples, a NaN or
// infinite sample (naming its index), or p outside [0, 100] or NaN. samples
// is not modified; Percentile sorts a copy (one allocation).
func Percentile(samples []float64, p float64) (float64, error) {
	if len(samples) == 0 {
		return 0, &ValueError{Field: "len(samples)", Value: 0, Reason: "must be > 0"}
	}
	if !(p >= 0 && p <= 100) {
		return 0, &ValueError{Field: "p", Value: p, Reason: "must be in [0, 100]"}
	}
	for i, v := range samples {
		if !exp2Finite(v) {
			return 0, &ValueError{Field: fmt.Sprintf("samples[%d]", i), Value: v, Reason: "must be finite"}
		}
	}
	s := slices.Clone(samples)
	slices.Sort(s) // no NaN: < is a total order here
	h := float64(len(s)-1) * p / 100
	k := int(h)
	if k >= len(s)-1 {
		return s[len(s)-1], nil
	}
	frac := h - float64(k)
	lo, hi := s[k], s[k+1]
	v := lo + frac*(hi-lo)
	if math.IsInf(hi-lo, 0) {
		v = lo*(1-frac) + hi*frac // the difference overflows; this cannot
	}
	return min(max(v, lo), hi), nil // rounding never leaves [lo, hi]
}

// Read90 returns the 90th percentile of the read rates a dedicated worker was
// measured to issue, read90 of Eq. 5 (MIMP §5.1 uses the 90th percentile
// because reads during map tasks are erratic). It is Percentile(rates, 90)
// and additionally rejects negative rates.
func Read90(rates []float64) (float64, error) {
	for i, v := range rates {
		if v < 0 {
			return 0, &ValueError{Field: fmt.Sprintf("rates[%d]", i), Value: v, Reason: "must be ≥ 0"}
		}
	}
	return Percentile(rates, 90)
}

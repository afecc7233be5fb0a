package preempt

import (
	"fmt"
	"math"
)

// Metrics are the evaluation metrics of GP Table IV over N jobs.
type Metrics struct {
	N int // number of jobs
	// SNP, System Normalized Performance: the geometric mean of the ANPs.
	// 1 is ideal, larger is better.
	SNP float64
	// MeanANP is the arithmetic mean of the ANPs (E(ANP) of Eq. 2).
	MeanANP float64
	// L1 = (1/N)·Σ σ_j and L2 = sqrt((1/N)·Σ σ_j²), the slowdown norms, with
	// σ_j = 1/ANP_j. 1 is ideal, smaller is better.
	L1, L2 float64
	// Unfairness is the coefficient of variation of the ANPs: population
	// standard deviation (divide by N) over the mean. 0 is ideal.
	Unfairness float64
	// AvgResponse is the mean of the actual response times, in the unit of
	// the inputs (seconds in GP).
	AvgResponse float64
}

// ANP is the Application Normalized Performance of a job (GP §V, Table IV,
// from [3]): its execution time under ideal conditions (exclusive use of the
// cluster) over its time in the situation of interest, ideal/actual, a
// ratio in (0, +∞) (1 is ideal; above 1 when the run beat the estimate).
// Both times, in seconds, must be in [MinTime, MaxTime]; otherwise it returns
// 0 and an error matching ErrBadInput.
func ANP(ideal, actual float64) (float64, error) {
	if !(ideal >= MinTime && ideal <= MaxTime) {
		return 0, bad("ideal", ideal, "must be in [MinTime, MaxTime]")
	}
	if !(actual >= MinTime && actual <= MaxTime) {
		return 0, bad("actual", actual, "must be in [MinTime, MaxTime]")
	}
	return anp(ideal, actual), nil
}

func anp(ideal, actual float64) float64 { return ideal / actual }

// MinTime is the smallest response time Evaluate accepts (1 ns), so that
// every ANP lies in [1e-24, 1e24] and every metric is finite.
const MinTime = 1e-9

// Evaluate computes the Table IV metrics of jobs whose ideal and actual
// response times (seconds in [MinTime, MaxTime], one per job, at most
// MaxJobs) are given.
// Empty input gives Metrics{} with N = 0 and no error. An actual time below
// the ideal is allowed (ANP > 1).
func Evaluate(ideal, actual []float64) (Metrics, error) {
	if err := checkLen("ideal", len(ideal), MaxJobs, "MaxJobs"); err != nil {
		return Metrics{}, err
	}
	if len(ideal) != len(actual) {
		return Metrics{}, bad("actual", len(actual), fmt.Sprintf("length must equal len(ideal) = %d", len(ideal)))
	}
	for j := range ideal {
		if !(ideal[j] >= MinTime && ideal[j] <= MaxTime) {
			return Metrics{}, bad(fmt.Sprintf("ideal[%d]", j), ideal[j], "must be in [MinTime, MaxTime]")
		}
		if !(actual[j] >= MinTime && actual[j] <= MaxTime) {
			return Metrics{}, bad(fmt.Sprintf("actual[%d]", j), actual[j], "must be in [MinTime, MaxTime]")
		}
	}
	n := len(ideal)
	if n == 0 {
		return Metrics{}, nil
	}
	fn := float64(n)
	var sumLog, sumANP, s1, s2, sumResp float64
	for j := range ideal {
		a := anp(ideal[j], actual[j])
		sumLog += math.Log(a)
		sumANP += a
		s1 += 1 / a
		s2 += 1 / (a * a)
		sumResp += actual[j]
	}
	mean := sumANP / fn
	var dev float64 // two-pass variance: no cancellation
	for j := range ideal {
		d := anp(ideal[j], actual[j]) - mean
		dev += d * d
	}
	return Metrics{
		N:           n,
		SNP:         math.Exp(sumLog / fn),
		MeanANP:     mean,
		L1:          s1 / fn,
		L2:          math.Sqrt(s2 / fn),
		Unfairness:  math.Sqrt(dev/fn) / mean,
		AvgResponse: sumResp / fn,
	}, nil
}

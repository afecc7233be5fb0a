package hadoopsim

import (
	"math/rand/v2"

	"github.com/schedkit/schedkit/edf"
)

// Case-study constants (MIMP §6.6): a 2.5 h trace of 174 jobs.
const (
	CaseStudyDuration = 9000.0 // s
	CaseStudyJobs     = 174
	// Drain is how long after the last arrival a run may continue before
	// unfinished jobs count as failed (our choice).
	Drain = 3600.0
)

// LastArrival returns the latest arrival time of jobs (0 for none).
func LastArrival(jobs []JobSpec) float64 {
	last := 0.0
	for _, j := range jobs {
		last = max(last, j.Arrival)
	}
	return last
}

// CaseStudy returns the MIMP §6.6 scenario drawn from seed with prediction
// error e (PaperError is §6.3.1's): Poisson arrivals of the six
// CaseStudyTypes over 2.5 h conditioned on 174 jobs, task factors from e,
// the scheduler's estimates from e (WithEstimates), web-load streams and
// heartbeat order from the same seed, Fig. 15 recording over the first 10
// minutes, MP+AC's margin and MP's TCTError from e at AdmissionConfidence
// (AdmissionMargin, MPError).
// The arrivals depend on seed only, not on e. It panics only if e
// is invalid (PredictionError.Validate).
func CaseStudy(seed uint64, e PredictionError) Scenario {
	c := CaseStudyCluster()
	types := CaseStudyTypes(c, e)
	jobs := valid(ConditionedTrace(types, CaseStudyDuration, CaseStudyJobs, e, rand.New(rand.NewPCG(seed, 0xCA5E))))
	return Scenario{
		Cluster:     c,
		Types:       types,
		Jobs:        jobs,
		Seed:        seed,
		Horizon:     LastArrival(jobs) + Drain,
		RecordUntil: 600,
		Margin:      margin(e),
		TCTError:    mpError(e),
	}
}

// SweepDuration is the length of each Fig. 11 trace: 30 minutes (MIMP §6.5).
const SweepDuration = 1800.0

// Utilization returns the offered load of a scenario's job types at their
// Poisson rates: Σ_k (Maps_k · T̄_k / Period_k) / slots, where T̄_k is type
// k's world TCT averaged over the slots at mid-band web load. 1 means the
// jobs ask for exactly all slot time. A cluster without slots gives 0; so
// does a type whose Period is not positive.
func Utilization(c Cluster, types []JobType) float64 {
	if c.Slots() <= 0 {
		return 0
	}
	u := 0.0
	for _, jt := range types {
		if jt.Period > 0 {
			u += float64(jt.Maps) * meanTCT(c, jt) / jt.Period
		}
	}
	return u / float64(c.Slots())
}

// meanTCT is type jt's world TCT averaged over c's VMs at mid-band load (0
// for no VM).
func meanTCT(c Cluster, jt JobType) float64 {
	if len(c.VMs) == 0 {
		return 0
	}
	s := 0.0
	for _, k := range c.VMs {
		s += jt.TCT.TCT(Residual((k.WebLow + k.WebHigh) / 2))
	}
	return s / float64(len(c.VMs))
}

// SweepTypes returns the Pi and TeraSort types of MIMP §6.5 with periods
// set so that each contributes half of utilization 1 on cluster c;
// deadlines stay the case study's (Pi 200 s, TeraSort 360 s); estimates
// from e.
func SweepTypes(c Cluster, e PredictionError) []JobType {
	all := CaseStudyTypes(c, e)
	out := []JobType{all[0], all[2]}
	for i := range out {
		// Period that gives utilization 0.5 from this type alone.
		out[i].Period = float64(out[i].Maps) * meanTCT(c, out[i]) / (0.5 * float64(c.Slots()))
	}
	return out
}

// SweepScenario returns a 30-minute Pi + TeraSort scenario at the given
// utilization (arrival rates scaled by load; deadlines fixed at the case
// study's) with prediction error e, as CaseStudy. Unfinished jobs at the
// horizon (last arrival + Drain) count as failed; the sweep reports them as
// missed. It panics only if e is invalid.
func SweepScenario(seed uint64, load float64, e PredictionError) Scenario {
	c := CaseStudyCluster()
	types := SweepTypes(c, e)
	jobs := valid(PoissonTrace(types, SweepDuration, load, e, rand.New(rand.NewPCG(seed, 0x5EE9))))
	deadlines := CaseStudyTypes(c, e)
	for i := range jobs {
		jt := deadlines[[]int{0, 2}[jobs[i].Type]]
		jobs[i].Deadline = jobs[i].Arrival + jt.Period
	}
	return Scenario{Cluster: c, Types: types, Jobs: jobs, Seed: seed, Horizon: LastArrival(jobs) + Drain, Margin: margin(e), TCTError: mpError(e)}
}

// margin is e's AdmissionMargin at AdmissionConfidence.
func margin(e PredictionError) float64 { return valid(e.AdmissionMargin(AdmissionConfidence)) }

// mpError is e's MPError at AdmissionConfidence.
func mpError(e PredictionError) edf.TCTError { return valid(e.MPError(AdmissionConfidence)) }

// valid returns v, and panics with err when there is one: in the scenario
// builders only an invalid PredictionError can cause it, and they document
// that they panic then.
func valid[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// OfferedUtilization returns a scenario's offered load: the slot time its
// jobs ask for, Σ_jobs Maps · T̄_type (T̄ as in Utilization), over the slot
// time from 0 to the last arrival. It is 0 for no jobs, all arrivals at
// 0, a cluster without slots or a job of an unknown type.
func OfferedUtilization(s *Scenario) float64 {
	work, last := 0.0, LastArrival(s.Jobs)
	for _, j := range s.Jobs {
		if j.Type < 0 || j.Type >= len(s.Types) {
			return 0
		}
		work += float64(j.Maps) * meanTCT(s.Cluster, s.Types[j.Type])
	}
	if last == 0 || s.Cluster.Slots() <= 0 {
		return 0
	}
	return work / (last * float64(s.Cluster.Slots()))
}

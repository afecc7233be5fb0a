package hadoopsim

import (
	"math/rand/v2"
)

// Case-study constants (000 §6.6): a 2.5 h trace, ≈ 10% task noise.
const (
	CaseStudyDuration = 9000.0 // s
	CaseStudyJobs     = 174
	NoiseSD           = 0.10
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

// CaseStudy returns the 000 §6.6 scenario drawn from seed: Poisson arrivals
// of the six CaseStudyTypes over 2.5 h conditioned on 174 jobs, web-load streams from
// the same seed, Fig. 15 recording over the first 10 minutes.
func CaseStudy(seed uint64) Scenario {
	c := CaseStudyCluster()
	types := CaseStudyTypes(c)
	rng := rand.New(rand.NewPCG(seed, 0xCA5E))
	jobs := ConditionedTrace(types, CaseStudyDuration, CaseStudyJobs, NoiseSD, rng)
	return Scenario{
		Cluster:     c,
		Types:       types,
		Jobs:        jobs,
		WebSeed:     seed,
		Horizon:     LastArrival(jobs) + Drain,
		RecordUntil: 600,
	}
}

// SweepDuration is the length of each Fig. 11 trace: 30 minutes (000 §6.5).
const SweepDuration = 1800.0

// Utilization returns the offered load of a scenario's job types at their
// Poisson rates: Σ_k (Maps_k · T̄_k / Period_k) / slots, where T̄_k is type
// k's TCT averaged over the slots at mid-band web load. 1 means the jobs
// ask for exactly all slot time.
func Utilization(c Cluster, types []JobType) float64 {
	u := 0.0
	for _, jt := range types {
		u += float64(jt.Maps) * meanTCT(c, jt) / jt.Period
	}
	return u / float64(c.Slots())
}

func meanTCT(c Cluster, jt JobType) float64 {
	s := 0.0
	for _, k := range c.VMs {
		s += jt.Model.TCT(Residual((k.WebLow + k.WebHigh) / 2))
	}
	return s / float64(len(c.VMs))
}

// SweepTypes returns the Pi and TeraSort types of 000 §6.5 with periods set
// so that each contributes half of utilization 1 on cluster c; deadlines
// stay the case study's (Pi 200 s, TeraSort 360 s).
func SweepTypes(c Cluster) []JobType {
	all := CaseStudyTypes(c)
	out := []JobType{all[0], all[2]}
	for i := range out {
		// Period that gives utilization 0.5 from this type alone.
		out[i].Period = float64(out[i].Maps) * meanTCT(c, out[i]) / (0.5 * float64(c.Slots()))
	}
	return out
}

// SweepScenario returns a 30-minute Pi + TeraSort scenario at the given
// utilization (arrival rates scaled by load; deadlines fixed at the case
// study's). Unfinished jobs at the horizon (last arrival + Drain) count as
// failed; the sweep reports them as missed.
func SweepScenario(seed uint64, load float64) Scenario {
	c := CaseStudyCluster()
	types := SweepTypes(c)
	rng := rand.New(rand.NewPCG(seed, 0x5EE9))
	jobs := PoissonTrace(types, SweepDuration, load, NoiseSD, rng)
	deadlines := CaseStudyTypes(c)
	for i := range jobs {
		jt := deadlines[[]int{0, 2}[jobs[i].Type]]
		jobs[i].Deadline = jobs[i].Arrival + jt.Period
	}
	return Scenario{Cluster: c, Types: types, Jobs: jobs, WebSeed: seed, Horizon: LastArrival(jobs) + Drain}
}

// OfferedUtilization returns a scenario's offered load: the slot time its
// jobs ask for, Σ_jobs Maps · T̄_type (T̄ as in Utilization), over the slot
// time from 0 to the last arrival.
func OfferedUtilization(s *Scenario) float64 {
	work, last := 0.0, LastArrival(s.Jobs)
	for _, j := range s.Jobs {
		work += float64(j.Maps) * meanTCT(s.Cluster, s.Types[j.Type])
	}
	if last == 0 {
		return 0
	}
	return work / (last * float64(s.Cluster.Slots()))
}

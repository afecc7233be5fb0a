package progressshare

// The affinity rule of §4.3.1.4 (Options.AffinityFactor).

// RelativeRate returns job j's computing rate on slot relative to its own
// rates over the whole cluster,
//
//	CR(s, j) · |S| / Σ_{s'∈S} CR(s', j),
//
// the rate of slot s against the mean slot, for this job: 1 on a cluster
// where the job is equally fast everywhere, above 1 on its fast slots. §4.2
// warns that CR "is defined within the same job, so it is not useful to
// compare the fitness of a particular instance type to different jobs": a
// raw rate says as much about the job's task size as about the slot. The
// relative rate is free of that scale (multiplying a job's rates by any
// constant leaves it unchanged), so the affinity rule compares jobs by it.
//
// It returns ErrCalibrating for a job with an unmeasured rate on some node
// type, and an error matching ErrBadInput for a slot out of range or a bad
// rate or running count.
func (s *Scheduler) RelativeRate(slot int, j Job) (float64, error) {
	sl, err := s.slot(slot)
	if err != nil {
		return 0, err
	}
	if err := s.checkRatesRunning(j, -1); err != nil {
		return 0, err
	}
	if s.Calibrating(j) {
		return 0, ErrCalibrating
	}
	den := 0.0
	for t := range s.numTypes {
		den += float64(s.typeSlots[t]) * rateOf(j, t)
	}
	return j.Rates[sl.Type] * float64(len(s.slots)) / den, nil
}

// affinity applies the affinity rule to d, Algorithm 2's launch of the
// calibrated job d.Job on slot si. o.h holds the jobs Algorithm 2 had not
// reached (those before d.Job in its order declined the slot; jobs the
// shortcut left out decline it too) and s.rel their relative rates on the
// slot (−1 while calibrating).
//
// A job k qualifies when rel(k) ≥ AffinityFactor · rel(d.Job) and
// rel(k) > rel(d.Job). Qualifying jobs are tried in decreasing relative
// rate (ties: Algorithm 2's order, share/weight then index); the first
// whose best block passes Algorithm 2's line 4 takes the slot. With
// AffinityBounded nothing is tried unless d.Job holds at least its slot
// share. When no job takes the slot, d stands.
func (s *Scheduler) affinity(si int, jobs []Job, now float64, d Decision, o order) (Decision, error) {
	p := d.Job
	rp := s.rel[p]
	bar := s.opt.AffinityFactor * rp
	m := 0
	for _, k := range o.h {
		if r := s.rel[k]; r >= bar && r > rp {
			o.h[m] = k
			m++
		}
	}
	if m == 0 || (s.opt.AffinityBounded && !s.holdsSlotShare(jobs, p)) {
		return d, nil
	}
	c := order{keys: o.keys, rel: s.rel, h: o.h[:m]}
	c.init()
	for len(c.h) > 0 {
		k := c.pop()
		j := &jobs[k]
		d.Examined++
		a, ok, err := s.launches(si, *j, k, false, now)
		if err != nil {
			return Decision{}, err
		}
		if ok {
			a.Reason, a.Examined, a.Bypassed = ReasonAffinity, d.Examined, p
			return a, nil
		}
	}
	return d, nil
}

// holdsSlotShare reports whether job p runs at least its slot share: the
// number of slots the slot-share fair scheduler gives it, the weighted
// max-min fair split of the |S| slots over the jobs' demands (running plus
// pending tasks). With λ the level where Σ_k min(demand_k, w_k·λ) = |S|, p's
// share is min(demand_p, w_p·λ). p has a pending task, so it holds its share
// iff running_p ≥ w_p·λ, that is iff Σ_k min(demand_k, w_k·running_p/w_p) ≥
// |S| (the sum grows with λ) — one pass, no sort. When all demands fit in
// the cluster every job's share is its whole demand and p is below it.
func (s *Scheduler) holdsSlotShare(jobs []Job, p int) bool {
	mu := float64(runningTotal(jobs[p], s.numTypes)) / jobs[p].Weight
	var total, level float64
	for _, j := range jobs {
		demand := float64(runningTotal(j, s.numTypes) + len(j.Pending))
		total += demand
		level += min(demand, j.Weight*mu)
	}
	n := float64(len(s.slots))
	return total > n && level >= n
}

// runningTotal is the job's running tasks over all node types (checked).
func runningTotal(j Job, types int) int {
	n := 0
	for _, r := range j.Running[:min(len(j.Running), types)] {
		n += r
	}
	return n
}

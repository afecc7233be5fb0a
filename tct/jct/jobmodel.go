package jct

import "strconv"

// Limits on a JobModel's counts. They keep one simulated run bounded in
// time and memory whatever a caller passes; real jobs are far below them.
const (
	MaxWorkers = 1 << 20 // workers in one job model (w)
	MaxMaps    = 1 << 27 // map tasks (m)
	MaxReduces = 1 << 24 // shuffle/reduce tasks (r)
)

// A JobModel is the stochastic MapReduce job of Lee thesis §5.2.2: one
// lognormal per phase (durations in seconds) and the counts w, m, r.
//
// Shuffle1 is the first-wave shuffle (tasks started at the map barrier, one
// per worker, min(w, r) of them) and Shuffle2 the second-wave shuffle (the
// remaining r − w tasks, when r > w). Each reduce task takes one shuffle
// draw and one Reduce draw.
type JobModel struct {
	Arrival  Lognormal // worker arrival time after job start
	Map      Lognormal // map task duration
	Shuffle1 Lognormal // first-wave shuffle duration
	Shuffle2 Lognormal // second-wave shuffle duration
	Reduce   Lognormal // reduce task duration

	Workers int // w, in [1, MaxWorkers]
	Maps    int // m, in [0, MaxMaps]; 0 is a job with no map work
	Reduces int // r, in [0, MaxReduces]; 0 is a map-only job
}

// Validate checks every distribution (Lognormal.Validate) and the counts.
// The error is a *ValueError whose Field names the part, e.g.
// "JobModel.Map.Sigma" or "JobModel.Workers".
func (m JobModel) Validate() error {
	for _, p := range [...]struct {
		name string
		l    Lognormal
	}{
		{"JobModel.Arrival.", m.Arrival},
		{"JobModel.Map.", m.Map},
		{"JobModel.Shuffle1.", m.Shuffle1},
		{"JobModel.Shuffle2.", m.Shuffle2},
		{"JobModel.Reduce.", m.Reduce},
	} {
		if err := p.l.validate(p.name); err != nil {
			return err
		}
	}
	if err := mcCount("JobModel.Workers", m.Workers, 1, MaxWorkers); err != nil {
		return err
	}
	if err := mcCount("JobModel.Maps", m.Maps, 0, MaxMaps); err != nil {
		return err
	}
	return mcCount("JobModel.Reduces", m.Reduces, 0, MaxReduces)
}

// mcCount checks lo ≤ n ≤ hi.
func mcCount(field string, n, lo, hi int) error {
	if n < lo || n > hi {
		return &ValueError{Field: field, Value: n, Reason: "out of range [" + strconv.Itoa(lo) + ", " + strconv.Itoa(hi) + "]"}
	}
	return nil
}

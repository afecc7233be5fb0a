package trace

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/schedkit/schedkit/tct"
	"github.com/schedkit/schedkit/tct/jct"
)

// FitOptions tunes Fit. The zero value fits lognormals only.
type FitOptions struct {
	// HostCores, when > 0, also fits exp2 against residual capacity
	// (MIMP Eq. 1) under the assumption that each host has HostCores
	// cores shared equally by the attempts running on it: an attempt that
	// starts while k attempts (itself included) run on its host gets
	// residual capacity min(1, HostCores/k). None of the three trace
	// formats records residual capacity, so this is an assumption about
	// the cluster, not a measurement; the default leaves it out.
	HostCores int
}

// A JobFit is the map-attempt lognormal of one job, for reports.
type JobFit struct {
	ID   string
	Name string
	Maps int
	Map  LognormalFit
}

// minArrival is the smallest arrival or run time used (1 ms): a lognormal
// needs positive samples, and what a millisecond trace records as 0 took
// less than 1 ms.
const minArrival = 0.001

// TypeKey returns the job type key of a job: its name in lower case, or
// "unnamed".
func TypeKey(j Job) string {
	if j.Name == "" {
		return "unnamed"
	}
	return strings.ToLower(j.Name)
}

// Fit fits the models of every job type in jobs (grouped by TypeKey, types
// in order of first appearance) and of every job with a successful map
// attempt. It uses only schedkit's tct: LognormalFromSamples for the map,
// reduce and arrival lognormals, NewDistribution.KS and NRMSE for their
// quality, TrainExp2 for the optional exp2 fit. A job type with no
// successful map attempt is left out (it has nothing to fit); an invalid
// job is an error.
func Fit(jobs []Job, opt FitOptions) (Catalog, []JobFit, error) {
	if opt.HostCores < 0 {
		return Catalog{}, nil, fmt.Errorf("trace: FitOptions.HostCores = %d: must be ≥ 0", opt.HostCores)
	}
	var keys []string
	groups := map[string][]Job{}
	for _, j := range jobs {
		if err := j.Validate(); err != nil {
			return Catalog{}, nil, err
		}
		k := TypeKey(j)
		if _, ok := groups[k]; !ok {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], j)
	}
	var cat Catalog
	var perJob []JobFit
	for _, k := range keys {
		var maps, reduces, arrivals []float64
		var mapCounts, reduceCounts []int
		for _, j := range groups[k] {
			m, r := positive(j.Durations(Map)), positive(j.Durations(Reduce))
			if len(m) > 0 {
				f, err := fitLognormal(m)
				if err != nil {
					return Catalog{}, nil, fmt.Errorf("trace: job %s: map attempts: %w", j.ID, err)
				}
				perJob = append(perJob, JobFit{ID: j.ID, Name: j.Name, Maps: len(m), Map: f})
			}
			maps = append(maps, m...)
			reduces = append(reduces, r...)
			mapCounts = append(mapCounts, len(m))
			reduceCounts = append(reduceCounts, len(r))
			arrivals = append(arrivals, firstWave(j)...)
		}
		if len(maps) == 0 {
			continue
		}
		t := JobType{Name: k, Jobs: len(groups[k]), Maps: median(mapCounts), Reduces: median(reduceCounts)}
		var err error
		if t.Map, err = fitLognormal(maps); err != nil {
			return Catalog{}, nil, fmt.Errorf("trace: job type %q: map attempts: %w", k, err)
		}
		if len(reduces) > 0 {
			f, err := fitLognormal(reduces)
			if err != nil {
				return Catalog{}, nil, fmt.Errorf("trace: job type %q: reduce attempts: %w", k, err)
			}
			t.Reduce = &f
		}
		if t.Arrival, err = fitLognormal(arrivals); err != nil {
			return Catalog{}, nil, fmt.Errorf("trace: job type %q: arrivals: %w", k, err)
		}
		if opt.HostCores > 0 {
			if t.Exp2, err = fitExp2(groups[k], opt.HostCores); err != nil {
				return Catalog{}, nil, fmt.Errorf("trace: job type %q: exp2: %w", k, err)
			}
		}
		cat.Types = append(cat.Types, t)
	}
	return cat, perJob, nil
}

// fitLognormal fits by maximum likelihood and measures the fit.
func fitLognormal(xs []float64) (LognormalFit, error) {
	ln, err := jct.LognormalFromSamples(xs)
	if err != nil {
		return LognormalFit{}, err
	}
	d, err := jct.NewDistribution(xs)
	if err != nil {
		return LognormalFit{}, err
	}
	ks, err := d.KS(ln.CDF)
	if err != nil {
		return LognormalFit{}, err
	}
	sorted := d.Sorted()
	n := len(sorted)
	pred := make([]float64, n)
	for i := range pred {
		if pred[i], err = ln.Quantile((float64(i) + 0.5) / float64(n)); err != nil {
			return LognormalFit{}, err
		}
	}
	f := LognormalFit{Mu: ln.Mu, Sigma: ln.Sigma, Samples: n, MeanS: ln.Mean(), MedianS: ln.Median(),
		MinS: sorted[0], MaxS: sorted[n-1], KS: ks}
	if f.P90S, err = ln.Quantile(0.9); err != nil {
		return LognormalFit{}, err
	}
	if sorted[0] == sorted[n-1] {
		return f, nil // one value: the fit is exact (Sigma 0), NRMSE 0
	}
	if f.NRMSE, err = tct.NRMSE(sorted, pred); err != nil {
		return LognormalFit{}, err
	}
	return f, nil
}

// firstWave returns the arrival offsets, in seconds after submission, of a
// job's first wave of containers: its k earliest attempt starts, k being
// the largest number of its attempts running at one time.
func firstWave(j Job) []float64 {
	if len(j.Tasks) == 0 {
		return nil
	}
	starts := make([]int64, len(j.Tasks))
	for i, t := range j.Tasks {
		starts[i] = t.Start
	}
	slices.Sort(starts)
	k := peak(j.Tasks)
	out := make([]float64, k)
	for i := range out {
		out[i] = max(float64(starts[i]-j.Submit)/1000, minArrival)
	}
	return out
}

// peak returns the largest number of tasks running at one instant, a task
// running on [Start, Finish) (a zero-length one at its Start).
func peak(ts []Task) int {
	type ev struct {
		t int64
		d int
	}
	evs := make([]ev, 0, 2*len(ts))
	for _, t := range ts {
		evs = append(evs, ev{t.Start, +1}, ev{max(t.Finish, t.Start+1), -1})
	}
	slices.SortFunc(evs, func(a, b ev) int { return cmp.Or(cmp.Compare(a.t, b.t), cmp.Compare(a.d, b.d)) })
	cur, best := 0, 0
	for _, e := range evs {
		cur += e.d
		best = max(best, cur)
	}
	return best
}

// positive raises run times below 1 ms, which a millisecond trace records
// as 0, to 1 ms: a lognormal needs positive samples.
func positive(xs []float64) []float64 {
	for i, x := range xs {
		xs[i] = max(x, minArrival)
	}
	return xs
}

// median returns the lower median of xs (0 for none).
func median(xs []int) int {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[(len(s)-1)/2]
}

// fitExp2 fits exp2 to the successful map attempts of jobs against the
// residual capacity min(1, cores/k), k the attempts running on the
// attempt's host when it started (itself included), with the mean duration
// at residual 1 as the dedicated baseline (tct.TrainExp2).
func fitExp2(jobs []Job, cores int) (*Exp2Fit, error) {
	byHost := map[string][]Task{}
	for _, j := range jobs {
		for _, t := range j.Tasks {
			byHost[t.Host] = append(byHost[t.Host], t)
		}
	}
	var recs []tct.TaskRecord
	var base []float64
	for _, j := range jobs {
		for _, t := range j.Tasks {
			if !t.Succeeded || t.Type != Map || t.Host == "" || t.Duration() <= 0 {
				continue
			}
			k := 0
			for _, o := range byHost[t.Host] {
				if o.Start <= t.Start && t.Start < max(o.Finish, o.Start+1) {
					k++
				}
			}
			r := math.Min(1, float64(cores)/float64(k))
			d := float64(t.Duration()) / 1000
			recs = append(recs, tct.TaskRecord{Residual: r, Duration: d})
			if r == 1 {
				base = append(base, d)
			}
		}
	}
	if len(base) == 0 {
		return nil, fmt.Errorf("no attempt ran on an uncontended host (residual 1) to serve as the dedicated baseline with %d cores", cores)
	}
	var sum float64
	for _, b := range base {
		sum += b
	}
	baseline := sum / float64(len(base))
	tr, err := tct.TrainExp2(recs, baseline, tct.FitOptions{})
	if err != nil {
		return nil, err
	}
	return &Exp2Fit{Model: tr.Model, NRMSE: tr.Report.NRMSE, Samples: len(recs), Baseline: baseline, HostCores: cores}, nil
}

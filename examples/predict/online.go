package main

import (
	"math/rand/v2"

	"github.com/schedkit/schedkit/examples/internal/cli"
	"github.com/schedkit/schedkit/examples/internal/des"
	"github.com/schedkit/schedkit/tct/jct"
)

// span is one task of the "actual" execution: it starts, finishes its
// shuffle (reduce tasks only) and ends.
type span struct {
	start, shuffleEnd, end float64
	firstWave              bool
}

// execution is one recorded run of a job: the thesis compares its online
// predictions with a real run (the dashed "actual" line of Fig. 5.16); we
// have no Google cluster, so the "actual" run is one execution drawn from
// the same §5.2.2 model with its own seed and played out event by event.
type execution struct {
	arrivals []float64
	maps     []span
	reduces  []span
	end      float64
}

// Event kinds of the execution.
const (
	evWorkerFree = iota // A = worker: arrived, or finished a map
	evReduceDone        // A = worker: finished a reduce task
)

// execute plays job m out on a des.Queue: workers arrive, each free worker
// takes the next map; when every map is done and every worker has arrived
// (the §5.2.2 barrier, max W) the first wave of min(w, r) reduce tasks
// starts, one per worker, and every worker that finishes a reduce task
// takes the next second-wave task. An invalid model or a nil rng is an
// error.
func execute(m jct.JobModel, rng *rand.Rand) (execution, error) {
	if err := m.Validate(); err != nil {
		return execution{}, err
	}
	var err error
	draw := func(l jct.Lognormal) float64 {
		x, e := l.Draw(rng)
		if err == nil {
			err = e
		}
		return x
	}
	ex := execution{arrivals: make([]float64, m.Workers)}
	var q des.Queue
	for j := range ex.arrivals {
		ex.arrivals[j] = draw(m.Arrival)
		q.Push(des.Event{Time: ex.arrivals[j], Kind: evWorkerFree, A: j})
	}
	barrier := 0.0
	for {
		e, ok := q.Pop()
		if !ok {
			break
		}
		barrier = max(barrier, e.Time)
		if len(ex.maps) < m.Maps {
			d := draw(m.Map)
			ex.maps = append(ex.maps, span{start: e.Time, end: e.Time + d})
			q.Push(des.Event{Time: e.Time + d, Kind: evWorkerFree, A: e.A})
		}
	}
	ex.end = barrier
	q.Reset()
	startReduce := func(t float64, worker int, first bool) {
		sh := m.Shuffle2
		if first {
			sh = m.Shuffle1
		}
		s, r := draw(sh), draw(m.Reduce)
		ex.reduces = append(ex.reduces, span{start: t, shuffleEnd: t + s, end: t + s + r, firstWave: first})
		q.Push(des.Event{Time: t + s + r, Kind: evReduceDone, A: worker})
	}
	for j := range min(m.Workers, m.Reduces) {
		startReduce(barrier, j, true)
	}
	for {
		e, ok := q.Pop()
		if !ok {
			break
		}
		ex.end = max(ex.end, e.Time)
		if len(ex.reduces) < m.Reduces {
			startReduce(e.Time, e.A, false)
		}
	}
	if err != nil {
		return execution{}, err
	}
	return ex, nil
}

// stateAt is what a job tracker would report at time t of the execution.
func (ex execution) stateAt(t float64) jct.JobState {
	st := jct.JobState{Elapsed: t}
	for _, a := range ex.arrivals {
		if a <= t {
			st.WorkersPresent++
		}
	}
	for _, s := range ex.maps {
		switch {
		case s.end <= t:
			st.MapsDone++
		case s.start <= t:
			st.RunningMaps = append(st.RunningMaps, t-s.start)
		}
	}
	for _, s := range ex.reduces {
		switch {
		case s.end <= t:
			st.ReducesDone++
		case s.start <= t && t < s.shuffleEnd:
			stage := jct.StageShuffle2
			if s.firstWave {
				stage = jct.StageShuffle1
			}
			st.RunningReduces = append(st.RunningReduces, jct.RunningReduce{Stage: stage, Elapsed: t - s.start})
		case s.start <= t:
			st.RunningReduces = append(st.RunningReduces, jct.RunningReduce{Stage: jct.StageReduce, Elapsed: t - s.shuffleEnd})
		}
	}
	return st
}

// onlinePoint is one prediction during the execution (seconds).
type onlinePoint struct {
	T           float64 `json:"t_s"`      // time of the prediction since the job started
	Actual      float64 `json:"actual_s"` // the execution's real remaining time
	Mean        float64 `json:"pred_mean_s"`
	SD          float64 `json:"pred_sd_s"`
	MeanAdded   float64 `json:"added_mean_s"` // predicted remaining time if Added workers join at T
	SDAdded     float64 `json:"added_sd_s"`
	Benefit     float64 `json:"benefit_s"` // Mean − MeanAdded
	MapsDone    int     `json:"maps_done"`
	ReducesDone int     `json:"reduces_done"`
}

// onlineResult is one §5.4.2 scenario.
type onlineResult struct {
	Name         string        `json:"name"`
	Workers      int           `json:"workers"`
	Reduces      int           `json:"reduces"`
	Added        int           `json:"added"`
	End          float64       `json:"actual_completion_s"` // the execution's completion time
	BenefitEnds  float64       `json:"benefit_below_5pct_from_s"`
	Points       []onlinePoint `json:"points"`
	ex           execution
	model        jct.JobModel
	predictTimes []float64
}

// onlineScenarios are the §5.4.2 figures: 200 reduce splits (Fig.
// 5.16/5.17) and 40 (Fig. 5.18), on onlineWorkers workers.
var onlineScenarios = []struct {
	name    string
	reduces int
}{{"200 reduce splits", onlineReduces}, {"40 reduce splits", onlineFewReduce}}

// prepareOnline records one execution of the sort with the given reduce
// splits on onlineWorkers workers (its own seed stream, so it is the same
// whatever the prediction settings) and the times, every step seconds, at
// which its remaining time will be predicted.
func prepareOnline(name string, reduces int, step float64, seed uint64) (onlineResult, error) {
	m := sortModel(onlineWorkers, reduces)
	ex, err := execute(m, rand.New(rand.NewPCG(seed, 0x5eed)))
	if err != nil {
		return onlineResult{}, err
	}
	r := onlineResult{Name: name, Workers: onlineWorkers, Reduces: reduces, Added: onlineAdded, End: ex.end, ex: ex, model: m}
	for t := 0.0; t < ex.end; t += step {
		r.predictTimes = append(r.predictTimes, t)
	}
	return r, nil
}

// runOnline predicts the recorded execution's remaining time at each of
// its prediction times, with and without Added more workers (common random
// numbers: both predictions at a point use the same seed), one progress
// step per point.
func (r *onlineResult) runOnline(opt jct.Options, prog *cli.Progress) error {
	for _, t := range r.predictTimes {
		st := r.ex.stateAt(t)
		base, err := jct.PredictRemaining(r.model, st, 0, opt)
		if err != nil {
			return err
		}
		more, err := jct.PredictRemaining(r.model, st, r.Added, opt)
		if err != nil {
			return err
		}
		r.Points = append(r.Points, onlinePoint{
			T: t, Actual: r.ex.end - t,
			Mean: base.Mean(), SD: base.StdDev(),
			MeanAdded: more.Mean(), SDAdded: more.StdDev(),
			Benefit:  base.Mean() - more.Mean(),
			MapsDone: st.MapsDone, ReducesDone: st.ReducesDone,
		})
		prog.Add(1)
	}
	r.BenefitEnds = r.benefitEnds(0.05)
	return nil
}

// benefitEnds returns the first prediction time from which adding workers
// saves less than frac of the predicted remaining time at every later
// point (the "reduction becomes zero" moment of Fig. 5.17).
func (r onlineResult) benefitEnds(frac float64) float64 {
	t := r.End
	for i := len(r.Points) - 1; i >= 0; i-- {
		p := r.Points[i]
		if p.Benefit >= frac*p.Mean {
			break
		}
		t = p.T
	}
	return t
}

package jct

import "math"

// A ReduceStage says where a running reduce task is: in its first- or
// second-wave shuffle, or in the reduce proper.
type ReduceStage int

// The stages of a running reduce task; any other ReduceStage value is
// rejected by JobState.Validate.
const (
	StageShuffle1 ReduceStage = iota // first-wave shuffle (Shuffle1)
	StageShuffle2                    // second-wave shuffle (Shuffle2)
	StageReduce                      // shuffle done, reduce running (Reduce)
)

// A RunningReduce is one reduce task in progress.
type RunningReduce struct {
	Stage   ReduceStage
	Elapsed float64 // seconds spent in Stage so far, ≥ 0
}

// A JobState is what a job tracker knows about a running job at one moment
// (Lee thesis §5.4.2), for the job model it runs under. Times are seconds.
//
// The §5.2.2 model has a barrier at the end of the map phase, so a job is
// either in its map phase (no reduce task started: ReducesDone = 0 and no
// RunningReduces; the reduce phase is then simulated in full, first wave
// included) or in its reduce phase (every map done: MapsDone = Maps and no
// RunningMaps; reduce tasks not yet started are second-wave tasks).
type JobState struct {
	Elapsed float64 // time since the job started, ≥ 0

	// WorkersPresent is the number of workers that have arrived, in
	// [0, JobModel.Workers]. The other JobModel.Workers − WorkersPresent
	// workers arrive later, at a time drawn from the Arrival lognormal
	// conditioned on being later than Elapsed.
	WorkersPresent int

	MapsDone    int       // map tasks finished
	RunningMaps []float64 // elapsed time of each running map task, one per busy worker

	ReducesDone    int             // reduce tasks finished
	RunningReduces []RunningReduce // reduce tasks in progress, one per busy worker
}

// Start returns the state of any job at its start: nothing done, nothing
// running, no worker present yet. A prediction from it equals the full
// prediction (Simulator.RunFrom equals Simulator.Run, bit for bit).
func Start() JobState { return JobState{} }

// Validate checks st against model m (which must be valid). The error is a
// *ValueError naming the field, e.g. "JobState.RunningMaps[2]".
func (st JobState) Validate(m JobModel) error {
	if !(st.Elapsed >= 0 && st.Elapsed <= MaxDuration) {
		return &ValueError{Field: "JobState.Elapsed", Value: st.Elapsed, Reason: "must be in [0, 1e12] (MaxDuration)"}
	}
	if err := mcCount("JobState.WorkersPresent", st.WorkersPresent, 0, m.Workers); err != nil {
		return err
	}
	if err := mcCount("JobState.MapsDone", st.MapsDone, 0, m.Maps); err != nil {
		return err
	}
	if err := mcCount("len(JobState.RunningMaps)", len(st.RunningMaps), 0, min(m.Maps-st.MapsDone, st.WorkersPresent)); err != nil {
		return err
	}
	for i, e := range st.RunningMaps {
		if !(e >= 0 && e <= MaxDuration) {
			return &ValueError{Field: mcIndexed("JobState.RunningMaps", i), Value: e, Reason: "must be in [0, 1e12] (MaxDuration)"}
		}
	}
	if err := mcCount("JobState.ReducesDone", st.ReducesDone, 0, m.Reduces); err != nil {
		return err
	}
	if err := mcCount("len(JobState.RunningReduces)", len(st.RunningReduces), 0, min(m.Reduces-st.ReducesDone, st.WorkersPresent)); err != nil {
		return err
	}
	for i, r := range st.RunningReduces {
		if r.Stage < StageShuffle1 || r.Stage > StageReduce {
			return &ValueError{Field: mcIndexed("JobState.RunningReduces", i) + ".Stage", Value: r.Stage, Reason: "unknown stage"}
		}
		if !(r.Elapsed >= 0 && r.Elapsed <= MaxDuration) {
			return &ValueError{Field: mcIndexed("JobState.RunningReduces", i) + ".Elapsed", Value: r.Elapsed, Reason: "must be in [0, 1e12] (MaxDuration)"}
		}
	}
	if st.reducePhase() && (st.MapsDone != m.Maps || len(st.RunningMaps) > 0) {
		return &ValueError{Field: "JobState.MapsDone", Value: st.MapsDone,
			Reason: "reduce tasks have started, so every map must be done (the §5.2.2 model starts shuffles at the map barrier)"}
	}
	return nil
}

// reducePhase reports whether some reduce task has started.
func (st JobState) reducePhase() bool {
	return st.ReducesDone > 0 || len(st.RunningReduces) > 0
}

// RunFrom returns the remaining time in seconds (completion time minus
// st.Elapsed, ≥ 0) of run number run of a job of model m found in state st,
// with added extra workers joining now ("what if k workers are added now",
// §5.4.2). Added workers start up like any worker: each becomes available
// at Elapsed plus an Arrival draw.
//
// The simulation starts from st: a running map or reduce stage finishes
// after a draw from its lognormal conditioned on exceeding the time it has
// already run (Lognormal.DrawRemaining); idle present workers are free now;
// workers not yet present arrive at a conditional Arrival draw. In the map
// phase the remaining maps and the whole reduce phase follow Run's steps
// 2–6. In the reduce phase, running reduce tasks finish first on their
// workers and each reduce task not yet started is a second-wave task
// (Shuffle2 + Reduce) given to the earliest free worker.
//
// Added workers are not the job's own: they take maps like any worker, but
// one that is still absent when the last map finishes does not hold the
// map barrier (step 3) and joins the second wave when it arrives. The
// completion time is the latest task finish (or the barrier), so an added
// worker that never gets a task does not count, nor, in the reduce phase,
// does any idle worker. With these rules adding workers
// never lengthens a run (under the package's common random numbers) except
// through the first-wave shuffle: a task moved from the second wave into
// the first takes a Shuffle1 instead of a Shuffle2 draw (see doc.go).
//
// Streams are those of Run (see Simulator), consumed in the same order, so
// RunFrom(m, Start(), 0, seed, k) equals Run(m, seed, k) bit for bit. For
// a given (seed, run) the draws do not depend on added: running tasks and
// the job's own workers draw first, added workers' arrivals after them, so
// "without − with" is measured under common random numbers.
//
// A bad model or state, a negative added or run, or Workers + added above
// MaxWorkers gives a *ValueError.
func (s *Simulator) RunFrom(m JobModel, st JobState, added int, seed uint64, run int) (float64, error) {
	if err := mcCheckRemaining(&m, &st, added); err != nil {
		return 0, err
	}
	if run < 0 {
		return 0, &ValueError{Field: "run", Value: run, Reason: "must be ≥ 0"}
	}
	return s.runFrom(&m, &st, added, seed, run), nil
}

// mcCheckRemaining validates the inputs of RunFrom and PredictRemaining.
func mcCheckRemaining(m *JobModel, st *JobState, added int) error {
	if err := m.Validate(); err != nil {
		return err
	}
	if err := st.Validate(*m); err != nil {
		return err
	}
	return mcCount("added", added, 0, MaxWorkers-m.Workers)
}

// runFrom is RunFrom without validation.
func (s *Simulator) runFrom(m *JobModel, st *JobState, added int, seed uint64, run int) float64 {
	s.seed(seed, run)
	// Times are relative to now (st.Elapsed), so the remaining time keeps
	// its precision however long the job has run; only the conditional
	// draws see the absolute elapsed times.
	w := s.workers(m.Workers + added)
	arr := s.rng[mcStreamArrival]
	end := 0.0
	i := 0
	if !st.reducePhase() {
		mp := s.rng[mcStreamMap]
		for _, e := range st.RunningMaps {
			w[i] = m.Map.drawRemaining(e, mp)
			i++
		}
	} else {
		sh, rd := s.rng[mcStreamShuffle], s.rng[mcStreamReduce]
		for _, r := range st.RunningReduces {
			switch r.Stage {
			case StageShuffle1:
				w[i] = m.Shuffle1.drawRemaining(r.Elapsed, sh) + m.Reduce.draw(rd)
			case StageShuffle2:
				w[i] = m.Shuffle2.drawRemaining(r.Elapsed, sh) + m.Reduce.draw(rd)
			default:
				w[i] = m.Reduce.drawRemaining(r.Elapsed, rd)
			}
			end = max(end, w[i])
			i++
		}
	}
	for ; i < st.WorkersPresent; i++ {
		w[i] = 0
	}
	for ; i < m.Workers; i++ { // not yet arrived: Arrival | Arrival > Elapsed
		w[i] = m.Arrival.drawRemaining(st.Elapsed, arr)
	}
	for ; i < len(w); i++ { // added now: a fresh start-up delay each
		w[i] = m.Arrival.draw(arr)
	}
	if !st.reducePhase() {
		end = s.mapsThenReduces(m, w, m.Maps-st.MapsDone-len(st.RunningMaps), m.Workers)
	} else {
		end = max(end, s.secondWave(m, w, m.Reduces-st.ReducesDone-len(st.RunningReduces)))
	}
	return math.Max(end, 0)
}

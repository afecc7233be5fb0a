package hadoopsim

// world is what the simulated cluster does with a started task, kept apart
// from the scheduler's bookkeeping (edf.Queue) so the ground truth is never
// computed by the scheduler under test: how long the task runs and how much
// it reads from the data nodes.
//
// A task of type j started on a slot with residual capacity r and duration
// factor ε would run d₀ = TCT_j(r)·ε and read its ReadRate_j·TCT_j(1) MB at
// x = bytes/d₀ MB/s. If the running tasks' reads plus x exceed the data
// nodes' capacity, the task runs over = (Σ reads + x)/capacity times longer
// and reads at x/over — the same bytes (fixed at its start; running tasks
// are not slowed further).
type world struct {
	capacity float64   // DataNodes·NodeCapacity, MB/s; 0 = unconstrained
	read     []float64 // read rate of the task on each slot, MB/s
	dur      []float64 // run time of the task on each slot, s
	slow     []float64 // the part of dur due to overload, s
	readSum  float64   // Σ read over the running tasks
	nReading int       // running tasks that read
}

func newWorld(c Cluster) world {
	ns := c.Slots()
	w := world{read: make([]float64, ns), dur: make([]float64, ns), slow: make([]float64, ns)}
	if !c.Unconstrained() {
		w.capacity = float64(c.DataNodes) * c.NodeCapacity
	}
	return w
}

// start begins a task of type jt with factor eps on slot sl at residual
// capacity r and returns its run time and whether the data nodes were
// overloaded.
func (w *world) start(sl int, jt *JobType, r, eps float64) (d float64, overloaded bool) {
	d = jt.TCT.TCT(r) * eps
	w.dur[sl], w.slow[sl], w.read[sl] = d, 0, 0
	if jt.ReadRate == 0 {
		return d, false
	}
	x := jt.ReadRate * jt.TCT.TCT(1) / d
	if w.capacity > 0 {
		if over := (w.readSum + x) / w.capacity; over > 1 {
			w.slow[sl] = d * (over - 1)
			d *= over
			x /= over
			w.dur[sl] = d
			overloaded = true
		}
	}
	w.read[sl] = x
	w.readSum += x
	w.nReading++
	return d, overloaded
}

// end finishes the task on slot sl and returns its run time and slowdown.
func (w *world) end(sl int) (d, slow float64) {
	if w.read[sl] > 0 {
		w.nReading--
		w.readSum = max(0, w.readSum-w.read[sl])
		if w.nReading == 0 {
			w.readSum = 0 // no rounding residue carried over an idle spell
		}
		w.read[sl] = 0
	}
	return w.dur[sl], w.slow[sl]
}

// errorStats accumulates the scheduler's TCT prediction errors over
// completed tasks (MIMP §6.3.1's terms).
type errorStats struct {
	predicted         []float64 // per slot: the Model's TCT at the task's start
	nOver, nUnder     int
	sumOver, sumUnder float64
}

func (e *errorStats) add(pred, actual float64) {
	switch {
	case pred > actual:
		e.nOver++
		e.sumOver += (pred - actual) / actual
	case pred < actual:
		e.nUnder++
		e.sumUnder += (actual - pred) / actual
	}
}

// realised returns the share over-predicted and the mean relative errors
// (exact predictions count in neither mean, nor as over-predicted).
func (e *errorStats) realised() PredictionError {
	var pe PredictionError
	n := e.nOver + e.nUnder
	if n == 0 {
		return pe
	}
	pe.OverShare = float64(e.nOver) / float64(n)
	if e.nOver > 0 {
		pe.MeanOver = e.sumOver / float64(e.nOver)
	}
	if e.nUnder > 0 {
		pe.MeanUnder = e.sumUnder / float64(e.nUnder)
	}
	return pe
}

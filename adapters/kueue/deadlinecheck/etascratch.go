package deadlinecheck

import (
	"math"
	"slices"
	"time"
)

// An etaScratch is what an ETA pass (etas) reuses from one pass of a
// ClusterQueue's check to the next, so that a pass allocates nothing per
// workload: the jobs of the replay, every job's start per sample in one
// block, the delayed run times, the quantiles' working copy, and the
// Pending notes' text. Each pass allocates one block of ETAs and one
// string holding its notes (the outcomes keep them after the pass; what
// outlives the reconcile keeps its own copy, Outcome.detached). Its
// largest part is the starts, pending workloads × samples × 8 bytes (120
// MB at 15,000 workloads and 1,000 samples), as much again for the run
// times with learnt delays, kept while the reconciler keeps the
// ClusterQueue. It also holds the pass in progress between its slices
// (etapass.go), with its copies of the workloads and their outcomes (376
// bytes a workload: 5.6 MB at 15,000). The zero value is ready; one pass
// at a time.
type etaScratch struct {
	running []etaJob
	pend    []int        // indexes into ws, in Kueue order
	places  []queuePlace // per index into ws: its place in Kueue's queue
	jobs    []etaJob     // per position in pend
	runs    []float64    // the jobs' run times with the control plane's delays
	fills   []runFill    // the jobs whose runs the pass computes
	starts  []float64    // job k's start in sample s at k*samples + s
	rows    [][]float64  // job k's starts
	finish  []float64
	sel     []float64 // quantiles' working copy
	sim     simulation
	arr     etaArrivals // the pass's arrivals (arrivals.go)
	// distinct is setArrivals' scratch for the arrivals' priorities.
	distinct []int64
	// marks holds the creation times the pass's arrival rate counts.
	marks []time.Time
	etas  []ETA
	notes []byte
	spans []noteSpan

	// The pass in progress (etapass.go): its copies of the workloads and
	// outcomes it was started with, its inputs, the next fill to compute,
	// the next sample to replay and the next pending position to take
	// the quantiles of.
	ws      []Workload
	outs    []Outcome
	strict  bool
	now     time.Time
	samples int
	delay   etaDelay
	f, next int
	k       int
	live    bool
}

// A noteSpan is outs[i]'s Pending note, notes[from:to].
type noteSpan struct{ i, from, to int }

// begin readies sc for a pass over n workloads of samples samples.
func (sc *etaScratch) begin(n, samples int) {
	sc.running, sc.pend, sc.jobs, sc.runs, sc.fills = emptied(sc.running), sc.pend[:0], emptied(sc.jobs), sc.runs[:0], emptied(sc.fills)
	sc.places = slices.Grow(sc.places[:0], n)[:n]
	sc.finish = slices.Grow(sc.finish[:0], samples)[:samples]
	sc.etas, sc.notes, sc.spans = nil, sc.notes[:0], sc.spans[:0]
}

// times returns the run times of a job of the pass: own itself without
// draws; with them, a slice of sc.runs that the pass fills (a fill) before
// the replay, so that adding the delays is part of the pass's slices.
// The job is sc.running[at] (pending false) or sc.jobs[at]; placeFills
// gives it its slice once every job is known.
func (sc *etaScratch) times(delay etaDelay, own []float64, executed float64, pending bool, at int) []float64 {
	if delay.ready == nil || own == nil {
		return own
	}
	sc.fills = append(sc.fills, runFill{own: own, executed: executed, pending: pending, at: at})
	return nil
}

// A runFill is a job's run times with the control plane's delays, to be
// computed into dst (etaDelay.appendTimes of own, executed, pending).
type runFill struct {
	dst, own []float64
	executed float64
	pending  bool
	at       int // the job: sc.jobs[at] if pending, else sc.running[at]
}

// placeFills gives each fill's job its slice of sc.runs, one block.
func (sc *etaScratch) placeFills() {
	n := 0
	for _, f := range sc.fills {
		n += len(f.own)
	}
	sc.runs = slices.Grow(sc.runs[:0], n)[:n]
	off := 0
	for i := range sc.fills {
		f := &sc.fills[i]
		f.dst = sc.runs[off : off+len(f.own) : off+len(f.own)]
		off += len(f.own)
		if f.pending {
			sc.jobs[f.at].run = f.dst
		} else {
			sc.running[f.at].run = f.dst
		}
	}
}

// startRows returns n rows of samples starts, one block.
func (sc *etaScratch) startRows(n, samples int) [][]float64 {
	sc.starts = slices.Grow(sc.starts[:0], n*samples)[:n*samples]
	sc.rows = slices.Grow(sc.rows[:0], n)[:n]
	for k := range sc.rows {
		sc.rows[k] = sc.starts[k*samples : (k+1)*samples : (k+1)*samples]
	}
	return sc.rows
}

// eta returns a zero ETA of this pass: the pass's block holds one per
// pending workload.
func (sc *etaScratch) eta() *ETA {
	if sc.etas == nil {
		sc.etas = make([]ETA, 0, len(sc.pend))
	}
	sc.etas = append(sc.etas, ETA{})
	return &sc.etas[len(sc.etas)-1]
}

// note adds outs[i]'s Pending note for e (pendingETA).
func (sc *etaScratch) note(i int, e ETA) {
	from := len(sc.notes)
	sc.notes = appendPendingETA(sc.notes, e)
	sc.spans = append(sc.spans, noteSpan{i: i, from: from, to: len(sc.notes)})
}

// endNotes gives the outcomes their Pending notes, parts of one string.
func (sc *etaScratch) endNotes(outs []Outcome) {
	if len(sc.spans) == 0 {
		return
	}
	all := string(sc.notes)
	for _, n := range sc.spans {
		outs[n.i].Note = all[n.from:n.to]
	}
}

// quantiles is quantiles(xs), the same p50 and p90 bit for bit, by
// selection in sc's working copy instead of sorting a new one: the
// type-7 quantile at p is a + f(b − a) with a and b the order statistics
// at ⌊h⌋ and ⌊h⌋+1, h = (n − 1)p, f = h − ⌊h⌋ (the largest when ⌊h⌋ ≥
// n − 1). xs that quantiles refuses get its error.
func (sc *etaScratch) quantiles(xs []float64) (p50, p90 float64, err error) {
	for _, x := range xs {
		if !(x >= 0) || math.IsInf(x, 1) {
			return quantiles(xs)
		}
	}
	if len(xs) == 0 {
		return quantiles(xs)
	}
	a := append(sc.sel[:0], xs...)
	sc.sel = a
	n := len(a)
	h50, h90 := float64(n-1)*0.5, float64(n-1)*0.9
	lo50, lo90 := int(h50), int(h90)
	if lo50 >= n-1 { // n = 1
		return a[0], a[0], nil
	}
	selectNth(a, lo50)
	b50 := slices.Min(a[lo50+1:])
	p50 = a[lo50] + (h50-float64(lo50))*(b50-a[lo50])
	switch {
	case lo90 >= n-1:
		p90 = slices.Max(a[lo50:])
	case lo90 == lo50:
		p90 = a[lo50] + (h90-float64(lo90))*(b50-a[lo50])
	default:
		selectNth(a[lo50+1:], lo90-lo50-1)
		b90 := slices.Min(a[lo90+1:])
		p90 = a[lo90] + (h90-float64(lo90))*(b90-a[lo90])
	}
	return p50, p90, nil
}

// selectNth reorders a so that a[k] is the value a sorted a holds at k,
// with none larger before it and none smaller after it (quickselect,
// three-way partition around the median of three; a holds no NaN).
func selectNth(a []float64, k int) {
	lo, hi := 0, len(a)
	for hi-lo > 1 {
		x, y, z := a[lo], a[lo+(hi-lo)/2], a[hi-1]
		pivot := max(min(x, y), min(max(x, y), z))
		lt, i, gt := lo, lo, hi
		for i < gt {
			switch {
			case a[i] < pivot:
				a[lt], a[i] = a[i], a[lt]
				lt++
				i++
			case a[i] > pivot:
				gt--
				a[i], a[gt] = a[gt], a[i]
			default:
				i++
			}
		}
		switch {
		case k < lt:
			hi = lt
		case k >= gt:
			lo = gt
		default:
			return
		}
	}
}

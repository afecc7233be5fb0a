package edf

import (
	"math"

	"github.com/schedkit/schedkit/internal/enumname"
)

// A Reason says why a picker chose what it chose, for an adapter's log.
type Reason uint8

const (
	// ReasonIdle: no job was given the slot (no job has a pending task, or
	// every candidate would overload the data nodes). Decision.Job is noJob.
	ReasonIdle Reason = iota
	// ReasonOrder: FIFO, EDF or Algorithm 2 took the first eligible job in
	// its order.
	ReasonOrder
	// ReasonAtRisk: MP step 1, the job is predicted to miss its deadline with
	// its current slots (Eq. 3) and has the closest deadline among such jobs.
	ReasonAtRisk
	// ReasonBestFit: MP step 2, no job is at risk (or none that the IO check
	// allows) and the job has the smallest NormTCT (Eq. 2) for this slot.
	ReasonBestFit
	// ReasonIOSkip: MP step 3, the first choice of step 1 or 2 would
	// overload the data nodes (Eq. 5), and this job is the next one that fits.
	ReasonIOSkip
)

// String returns "idle", "order", "at-risk", "best-fit", "io-skip", or
// "Reason(n)" for any other value.
func (r Reason) String() string { return enumname.Of(r, "Reason", reasonNames[:]) }

var reasonNames = [...]string{
	ReasonIdle:    "idle",
	ReasonOrder:   "order",
	ReasonAtRisk:  "at-risk",
	ReasonBestFit: "best-fit",
	ReasonIOSkip:  "io-skip",
}

// A Decision is a picker's answer for one free slot. It is an outcome, not
// an error: an idle slot is a Decision with Reason ReasonIdle.
type Decision struct {
	ID     int64 // the chosen job's ID (0 when idle)
	Reason Reason
	// AtRisk is true when the chosen job was picked by MP step 1.
	AtRisk bool
	// NormTCT is Eq. 2 for the chosen job on this slot, and IO its Eq. 5
	// load (MP only; 0 for FIFO, EDF, Algorithm 2 and idle).
	NormTCT, IO float64
}

// edfBefore orders jobs by (deadline, arrival, ID): EDF order, MP's step-1
// order and Algorithm 2's deadline order. Jobs without deadline (+Inf) come
// after every job with one and among themselves by arrival (FIFO), then ID.
func edfBefore(da, aa float64, ia int64, db, ab float64, ib int64) bool {
	if da != db {
		return da < db
	}
	return fifoBefore(aa, ia, ab, ib)
}

// fifoBefore orders jobs by (arrival, ID): FIFO order.
func fifoBefore(aa float64, ia int64, ab float64, ib int64) bool {
	if aa != ab {
		return aa < ab
	}
	return ia < ib
}

func earlier(a, b *jobState) bool {
	return edfBefore(a.Deadline, a.Arrival, a.ID, b.Deadline, b.Arrival, b.ID)
}

// order returns the Decision for handle h of a FIFO or EDF pick.
func (q *Queue) order(h handle) Decision {
	if h == noJob {
		return Decision{Reason: ReasonIdle}
	}
	return Decision{ID: q.ix.nodes[h].id, Reason: ReasonOrder}
}

// FIFO returns the MIMP §5.2 FIFO choice: the earliest-arrived job with
// a pending task; ties by smaller ID. No IO check (MIMP's baseline).
// Idle when no job has a pending task. O(1): the queue keeps its jobs with
// a pending task in a heap in this order. No allocation.
func (q *Queue) FIFO() Decision { return q.order(q.ix.fifo.top()) }

// EDF returns the MIMP §5.2 EDF choice: the job with a pending task
// and the earliest deadline; ties by earlier arrival, then smaller ID. Jobs
// without deadline come after all jobs with one, FIFO among themselves. No
// IO check (MIMP's baseline). O(1): the queue keeps its jobs with a
// pending task in a heap in this order. No allocation.
func (q *Queue) EDF() Decision { return q.order(q.ix.edf.top()) }

// MPOptions tunes MP. The zero value is MIMP's MP with the IO check in
// both steps and no protection against estimation error (the queue's
// Config.Margin sets the at-risk test's margin).
type MPOptions struct {
	// NoIOCheck switches the Eq. 5 data-node check off entirely.
	NoIOCheck bool
	// NoIOCheckAtRisk skips the IO check in step 1 only: an at-risk job gets
	// the slot even if it overloads the data nodes.
	NoIOCheckAtRisk bool
	// TCTError is the estimation error of the models that MP protects
	// deadlines against (beyond MIMP; the TCTError type has the
	// derivation): step 1's at-risk test covers a job's n remaining tasks
	// by n·Mean + √n·Spread predicted task times instead of n, and the
	// late-task rule keeps a deadline job off a slot where its task would
	// end after the deadline at (Mean + Spread) times its predicted time
	// while a dedicated slot would end it in time. ErrorAt derives it from
	// a distribution of real/predicted task times at a confidence. The
	// zero value is MIMP's MP.
	TCTError TCTError
}

// ioFits is MP's data-node test: the running tasks' IO spread evenly over
// Count data nodes of Capacity each, (Σ running IO + x)/Count ≤ Capacity.
func (q *Queue) ioFits(x float64) bool {
	dn := q.cfg.DataNodes
	if dn.Count == 0 {
		return true
	}
	return (q.io+x)/float64(dn.Count) <= dn.Capacity
}

// MP returns the Maximum Progress choice of MIMP §5.2 for a free slot
// with residual capacity r ∈ [0, 1] at time now (seconds, same clock as the
// deadlines):
//
//  1. Among jobs with a pending task that are at risk — their pending plus
//     running tasks n, covered for opt.TCTError (n itself without it) and
//     times the queue's Config.Margin, exceed Eq. 3's CompletableTasks with
//     the slots they hold now — the one with the closest deadline (ties: earlier
//     arrival, then smaller ID) whose new task the IO check allows. Reason
//     at-risk.
//  2. Otherwise (no at-risk job, or none the IO check allows), among all jobs
//     with a pending task, the smallest NormTCT_j(r) (Eq. 2; ties: earlier
//     deadline, earlier arrival, smaller ID) that the IO check allows.
//     Reason best-fit.
//  3. IO check (Eq. 5): a job whose IO_j(r) = Read90_j / NormTCT_j(r) would
//     make (Σ running IO + IO_j(r)) / DataNodes.Count exceed
//     DataNodes.Capacity is passed over for the next job in the step's
//     order. When the step's first choice was passed over, the reason is
//     io-skip. When no job fits, the slot stays idle (reason idle).
//
// A job whose model predicts a non-finite or non-positive time at r, or
// whose task's rate or IO load would overflow a running sum, is never
// offered the slot (Start would refuse it); with opt.TCTError neither is a
// job the late-task rule refuses (its task would end after its deadline on
// this slot but not on a dedicated one; TCTError's doc). The result does
// not depend on the order jobs were added. Errors (matching ErrBadInput): r
// outside [0, 1], now NaN or infinite, opt.TCTError neither zero nor with
// Mean finite and > 0 and Spread finite and >= 0. No allocation.
//
// Cost: the queue groups its jobs by type (equal Model values with equal
// TCT at the dedicated capacity) and keeps each type's jobs in a search
// tree in EDF order (see Queue). MP evaluates each type's model once at r
// and finds the type's first candidate in O(log n): with T types and n
// jobs, O(T log n), whatever the number of running tasks. A job the IO
// check or an overflow guard passes over costs O(log n) more; the
// late-task rule costs one more search per type. Models are
// taken to be pure: equal models give equal times. A model type that
// cannot be compared with == (a func, map or slice, or an interface inside)
// or a model that differs from itself (NaN inside) makes each such job its
// own type. The first call with a TCTError other than the previous call's
// recomputes every job's at-risk threshold, O(n log n) once.
func (q *Queue) MP(r, now float64, opt MPOptions) (Decision, error) {
	if err := checkMP(r, now, opt); err != nil {
		return Decision{}, err
	}
	if 2*len(q.ix.live) > len(q.jobs) {
		return q.mpScan(r, now, opt), nil // about one type per job: one pass is cheaper
	}
	return q.mpIndexed(r, now, opt), nil
}

// checkMP validates MP's arguments.
func checkMP(r, now float64, opt MPOptions) error {
	if !(r >= 0 && r <= 1) {
		return checkFraction("r", r)
	}
	if math.IsNaN(now) || math.IsInf(now, 0) {
		return &ValueError{Field: "now", Value: now, Reason: "must be finite"}
	}
	return opt.TCTError.check()
}

// late is MP's late-task rule for one call: when on, a job with deadline D
// whose task takes t on this slot and ded on a dedicated one is refused the
// slot iff lo ≤ D < hi (lateBand, with c = TCTError.taskCover()).
type late struct {
	on     bool
	now, c float64
}

func newLate(opt MPOptions, now float64) late {
	return late{on: opt.TCTError.on(), now: now, c: opt.TCTError.taskCover()}
}

// refuses reports whether the rule keeps a job with deadline d, whose task
// takes t here and ded on a dedicated slot, off this slot.
func (l late) refuses(d, t, ded float64) bool {
	if !l.on {
		return false
	}
	lo, hi := lateBand(l.now, t, ded, l.c)
	return d >= lo && d < hi
}

// mpIndexed is MP through the index, O(T log n) for T types. The caller
// validated the arguments.
func (q *Queue) mpIndexed(r, now float64, opt MPOptions) Decision {
	if k := q.riskOf(opt); k != q.ix.risk {
		q.setRisk(k) // the thresholds are for another TCTError
	}
	x := &q.ix
	x.call++
	checkIO := !opt.NoIOCheck
	lt := newLate(opt, now)
	// Step 1: per type, its first at-risk job in EDF order that passes the
	// load guards and the late-task rule (top) and the IO check (best);
	// then the first over types.
	top, best := noJob, noJob
	var bestNorm float64
	for _, ti := range x.live {
		ty := &x.types[ti]
		if !(x.nodes[ty.root].minTheta <= now) {
			continue // no job of the type is at risk
		}
		if !q.typeLoad(ty, r) {
			continue
		}
		th := q.firstOutside(ty, now, false, lt)
		if th == noJob {
			continue
		}
		if top == noJob || x.before(th, top) {
			top = th
		}
		bh := th
		if checkIO && !opt.NoIOCheckAtRisk && !q.ioFits(x.nodes[th].read/ty.norm) {
			bh = q.firstOutside(ty, now, true, lt)
		}
		if bh != noJob && (best == noJob || x.before(bh, best)) {
			best, bestNorm = bh, ty.norm
		}
	}
	if best != noJob {
		d := Decision{ID: x.nodes[best].id, Reason: ReasonAtRisk, AtRisk: true, NormTCT: bestNorm, IO: x.nodes[best].read / bestNorm}
		if best != top {
			d.Reason = ReasonIOSkip
		}
		return d
	}
	skipped := top != noJob // an at-risk job existed but the IO check refused it
	// Step 2: per type (one NormTCT), its first job in EDF order; then the
	// least (NormTCT, EDF order) over types.
	top, best = noJob, noJob
	var topNorm float64
	for _, ti := range x.live {
		ty := &x.types[ti]
		if math.IsInf(x.nodes[ty.root].minRead, 1) {
			continue // no job of the type has a pending task
		}
		if !q.typeLoad(ty, r) {
			continue
		}
		th := q.firstOutside(ty, math.Inf(1), false, lt)
		if th == noJob {
			continue
		}
		if top == noJob || x.fitter(ty.norm, th, topNorm, top) {
			top, topNorm = th, ty.norm
		}
		bh := th
		if checkIO && !q.ioFits(x.nodes[th].read/ty.norm) {
			bh = q.firstOutside(ty, math.Inf(1), true, lt)
		}
		if bh != noJob && (best == noJob || x.fitter(ty.norm, bh, bestNorm, best)) {
			best, bestNorm = bh, ty.norm
		}
	}
	if best == noJob {
		return Decision{Reason: ReasonIdle}
	}
	d := Decision{ID: x.nodes[best].id, Reason: ReasonBestFit, NormTCT: bestNorm, IO: x.nodes[best].read / bestNorm}
	if best != top || skipped {
		d.Reason = ReasonIOSkip
	}
	return d
}

// fitter orders (NormTCT, deadline, arrival, ID) for MP step 2.
func (x *index) fitter(na float64, a handle, nb float64, b handle) bool {
	if na != nb {
		return na < nb
	}
	return x.before(a, b)
}

// typeLoad evaluates the type's model at r once per MP call: its task time
// TCT(r), rate 1/TCT(r) and NormTCT (Eq. 2), as taskLoad computes them for
// each of its jobs. It reports whether the model gives a usable time there:
// a valid task time (taskLoad's test, so MP never offers a slot Start
// refuses) and a finite NormTCT.
func (q *Queue) typeLoad(ty *jobType, r float64) bool {
	if ty.seen == q.ix.call {
		return ty.valid
	}
	ty.seen = q.ix.call
	t := ty.model.TCT(r)
	ty.valid = validTaskTime(t)
	if !ty.valid {
		return false
	}
	ty.tct, ty.inv, ty.norm = t, 1/t, t/ty.dedicated
	ty.valid = validTime(ty.norm)
	return ty.valid
}

// firstOutside is first over the type's whole tree, leaving out the jobs
// the late-task rule refuses: those with a deadline in [lo, hi) (lateBand).
// EDF order is deadline-major, so the jobs due before lo all come before
// those due at hi or later: the first of the former, else the first of the
// latter.
func (q *Queue) firstOutside(ty *jobType, bound float64, fits bool, lt late) handle {
	if lt.on {
		if lo, hi := lateBand(lt.now, ty.tct, ty.dedicated, lt.c); lo < hi {
			if h := q.first(ty.root, bound, ty, fits, math.Inf(-1), math.Nextafter(lo, math.Inf(-1))); h != noJob {
				return h
			}
			return q.first(ty.root, bound, ty, fits, hi, math.Inf(1))
		}
	}
	return q.first(ty.root, bound, ty, fits, math.Inf(-1), math.Inf(1))
}

// first returns the first job in EDF order below h whose task on the slot
// MP may offer: its deadline lies in [dmin, dmax], it has a pending task,
// is at risk by bound (θ ≤ bound; +Inf takes every job), its IO load
// Read90/NormTCT does not overflow the data nodes' sum, nor its rate the
// job's (taskLoad's guards), and with fits, the IO check allows it. The
// Read90 tests are monotone in Read90 and θ ≤ bound in θ, so a subtree
// whose least θ or least Read90 fails holds no candidate and is skipped;
// the tree is in EDF order, so a node due before dmin takes its left
// subtree with it, and one due after dmax its right subtree. noJob if none.
func (q *Queue) first(h handle, bound float64, ty *jobType, fits bool, dmin, dmax float64) handle {
	x := &q.ix
	for h != noJob {
		n := &x.nodes[h]
		if !(n.minTheta <= bound) || !q.readOK(n.minRead, ty.norm, fits) {
			return noJob
		}
		if n.deadline < dmin {
			h = n.Right
			continue
		}
		if n.deadline > dmax {
			h = n.Left
			continue
		}
		if c := q.first(n.Left, bound, ty, fits, dmin, dmax); c != noJob {
			return c
		}
		if n.active && n.theta <= bound && q.readOK(n.read, ty.norm, fits) &&
			q.jobs[q.pos[h]].rate+ty.inv <= math.MaxFloat64 {
			return h
		}
		h = n.Right
	}
	return noJob
}

// readOK is taskLoad's IO overflow guard and, with fits, the IO check, for
// a job reading read90 on a slot where its NormTCT is norm. Both only
// become harder to pass as read90 grows.
func (q *Queue) readOK(read90, norm float64, fits bool) bool {
	io := read90 / norm
	if !(q.io+io <= math.MaxFloat64) {
		return false
	}
	return !fits || q.ioFits(io)
}

// mpScan is MP as one pass over the jobs per step, O(n) model evaluations:
// MP's algorithm before the index, kept for queues with about as many types
// as jobs (where it is the cheaper of the two) and as the oracle the index
// is tested against. The caller validated the arguments.
func (q *Queue) mpScan(r, now float64, opt MPOptions) Decision {
	k := q.riskOf(opt)
	checkIO := !opt.NoIOCheck
	lt := newLate(opt, now)
	top, best := -1, -1
	var bestNorm, bestIO float64
	for i := range q.jobs {
		s := &q.jobs[i]
		if s.Tasks <= 0 || !s.atRisk(now, k) {
			continue
		}
		if best >= 0 && !earlier(s, &q.jobs[best]) {
			continue
		}
		t, _, norm, io, fault := q.taskLoad(s, r)
		if fault != loadOK || lt.refuses(s.Deadline, t, s.dedicated) {
			continue
		}
		if top < 0 || earlier(s, &q.jobs[top]) {
			top = i
		}
		if checkIO && !opt.NoIOCheckAtRisk && !q.ioFits(io) {
			continue
		}
		if best < 0 || earlier(s, &q.jobs[best]) {
			best, bestNorm, bestIO = i, norm, io
		}
	}
	if best >= 0 {
		d := Decision{ID: q.jobs[best].ID, Reason: ReasonAtRisk, AtRisk: true, NormTCT: bestNorm, IO: bestIO}
		if best != top {
			d.Reason = ReasonIOSkip
		}
		return d
	}
	skipped := top >= 0
	top, best = -1, -1
	var topNorm float64
	for i := range q.jobs {
		s := &q.jobs[i]
		if s.Tasks <= 0 {
			continue
		}
		t, _, norm, io, fault := q.taskLoad(s, r)
		if fault != loadOK || lt.refuses(s.Deadline, t, s.dedicated) {
			continue
		}
		if top < 0 || fitter(norm, s, topNorm, &q.jobs[top]) {
			top, topNorm = i, norm
		}
		if checkIO && !q.ioFits(io) {
			continue
		}
		if best < 0 || fitter(norm, s, bestNorm, &q.jobs[best]) {
			best, bestNorm, bestIO = i, norm, io
		}
	}
	if best < 0 {
		return Decision{Reason: ReasonIdle}
	}
	d := Decision{ID: q.jobs[best].ID, Reason: ReasonBestFit, NormTCT: bestNorm, IO: bestIO}
	if best != top || skipped {
		d.Reason = ReasonIOSkip
	}
	return d
}

// fitter orders (NormTCT, deadline, arrival, ID) for MP step 2.
func fitter(na float64, a *jobState, nb float64, b *jobState) bool {
	if na != nb {
		return na < nb
	}
	return earlier(a, b)
}

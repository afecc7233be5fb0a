package deadlinecheck

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/schedkit/schedkit/admission"
	"github.com/schedkit/schedkit/tct/jct"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
)

// MaxSamples bounds Config.Samples.
const MaxSamples = 100_000

// Config tunes the check's decisions. Validate it before use; Plan rejects
// a bad one.
type Config struct {
	// Confidence is the probability p in (0, 1] with which every protected
	// deadline must hold for a workload to be Ready (admission's confidence
	// mode).
	Confidence float64
	// Samples is the number N of Monte-Carlo draws of each workload's run
	// time, in [1, MaxSamples].
	Samples int
	// Seed selects the random streams; each workload's draws also depend on
	// its UID, so equal cluster states give equal decisions.
	Seed uint64
	// MinRetry and MaxRetry bound the requeueAfterSeconds of a Retry:
	// 1 s ≤ MinRetry ≤ MaxRetry ≤ 24 h.
	MinRetry, MaxRetry time.Duration
	// StartDelay is the time the control plane adds to every workload's
	// run, in [0, 1h]: from Kueue's admission to its pods running (the
	// job's controller unsuspending it and creating its pods, the
	// scheduler binding them, the nodes starting them) and from its pods'
	// end to the workload's finish. Each pod of a workload is taken to run
	// its model's time after StartDelay from admission; a workload admitted
	// less than StartDelay ago has the rest of it still ahead. 0: admission
	// is taken to start the pods at once.
	StartDelay time.Duration
}

// DefaultConfig is the configuration the manager starts with.
func DefaultConfig() Config {
	return Config{Confidence: 0.9, Samples: 1000, MinRetry: 10 * time.Second, MaxRetry: 5 * time.Minute}
}

// Validate returns every bad field, joined.
func (c Config) Validate() error {
	var errs []error
	if !(c.Confidence > 0 && c.Confidence <= 1) {
		errs = append(errs, fmt.Errorf("confidence = %v: must be in (0, 1]", c.Confidence))
	}
	if c.Samples < 1 || c.Samples > MaxSamples {
		errs = append(errs, fmt.Errorf("samples = %d: must be in [1, %d]", c.Samples, MaxSamples))
	}
	if c.MinRetry < time.Second || c.MinRetry > 24*time.Hour {
		errs = append(errs, fmt.Errorf("min-retry = %v: must be in [1s, 24h]", c.MinRetry))
	}
	if c.MaxRetry < c.MinRetry || c.MaxRetry > 24*time.Hour {
		errs = append(errs, fmt.Errorf("max-retry = %v: must be in [min-retry, 24h]", c.MaxRetry))
	}
	if c.StartDelay < 0 || c.StartDelay > time.Hour {
		errs = append(errs, fmt.Errorf("start-delay = %v: must be in [0s, 1h]", c.StartDelay))
	}
	return errors.Join(errs...)
}

// Reason says why a verdict came out as it did.
type Reason string

const (
	ReasonFits           Reason = "Fits"           // Ready: every protected deadline holds at the confidence
	ReasonNoDeadline     Reason = "NoDeadline"     // Ready: no deadline to check
	ReasonBadInput       Reason = "BadInput"       // Rejected: malformed annotation or model
	ReasonNoEstimate     Reason = "NoEstimate"     // Rejected: a deadline but no run-time model
	ReasonNeverFits      Reason = "NeverFits"      // Rejected: a pod does not fit the nominal quota
	ReasonDeadlinePassed Reason = "DeadlinePassed" // Rejected: the deadline is already past
	ReasonLateAlone      Reason = "LateAlone"      // Rejected: misses its deadline even alone, started now
	ReasonLateInQueue    Reason = "LateInQueue"    // Retry: misses its own deadline behind the promised workloads
	ReasonHurts          Reason = "Hurts"          // Retry: would push a promised workload past its deadline
)

// A Verdict is the check's decision on one workload.
type Verdict struct {
	State   kueue.CheckState // Ready, Retry or Rejected
	Reason  Reason
	Message string // one line: what was decided, the numbers behind it, what it protects
	// RequeueAfter is when Kueue should try again (Retry only), whole
	// seconds in [MinRetry, MaxRetry].
	RequeueAfter time.Duration
	// Protects is the promised workload a Retry protects (ReasonHurts).
	Protects string
}

// An ETA is a pending workload's predicted start and finish (absolute
// times, whole seconds). Finish is zero without a run-time estimate.
type ETA struct {
	StartP50, StartP90   time.Time
	FinishP50, FinishP90 time.Time
	Deadline             time.Time // zero: none
}

// HasFinish reports whether e predicts a finish.
func (e ETA) HasFinish() bool { return !e.FinishP50.IsZero() }

// An Outcome is what the check does about one workload.
type Outcome struct {
	Key string
	// Verdict is the decision to write on the check; nil: none now. With
	// Deactivate it is the rejection of a workload still waiting for quota,
	// for its message and event; the check's state then stays Pending.
	Verdict *Verdict
	// Deactivate: the check deactivates the workload now (spec.active
	// false): it is waiting for quota and the check already knows it will
	// reject it.
	Deactivate bool
	ETA        *ETA // nil: not pending, or no prediction possible
	// Note is the Pending check message when there is no verdict to write:
	// the ETA in words, why there is none, or the rejection of a
	// deactivated workload. Empty for promised workloads.
	Note string
	// etaUnknown: no ETA was computed for it (the reconciler's ETA pass
	// did not run); its ETA annotations and Pending note stay as they are.
	etaUnknown bool
}

// detached returns o with its own copy of its ETA and of its note. An ETA
// pass gives its outcomes parts of two blocks, one of ETAs and one string
// of notes (etaScratch), so an outcome kept after the pass keeps the whole
// pass alive; what the ETA writer and the hand-over keep (one outcome per
// waiting workload, from as many passes as the writer is behind) is
// detached first.
func (o Outcome) detached() Outcome {
	if o.ETA != nil {
		e := *o.ETA
		o.ETA = &e
	}
	o.Note = strings.Clone(o.Note)
	return o
}

// A Queue is the ClusterQueue a plan is for.
type Queue struct {
	Name string
	// StrictFIFO is Kueue's queueingStrategy StrictFIFO: a workload that
	// does not fit the free quota holds back those behind it. False is
	// BestEffortFIFO (Kueue's default): those behind it that fit go first.
	StrictFIFO bool
}

// QueueOf returns the Queue of a ClusterQueue.
func QueueOf(cq *kueue.ClusterQueue) Queue {
	return Queue{Name: cq.Name, StrictFIFO: cq.Spec.QueueingStrategy == kueue.StrictFIFO}
}

// Plan decides, for the workloads behind one check in one ClusterQueue,
// which are Ready, Retry or Rejected, which waiting ones to deactivate, and
// predicts when every pending one starts and finishes. It is pure: equal
// inputs give equal outcomes, bit for bit; the outcomes come in the order
// of ws.
//
// The decisions are admission's confidence mode (MIMP §5.3, Eq. 7, with
// completion-time samples): the ClusterQueue's nominal quota is a pool of
// slots, one per pod of the workload's mean request (each workload has its
// own Slots), serving the deadline workloads one after another in EDF
// order, each taking fluid = remaining pod-seconds / Slots (Eq. 6 on
// dedicated slots). Run times are drawn from jct lognormals. In EDF order
// of the workloads awaiting a decision:
//
//  1. A malformed deadline or model, or a deadline without any run-time
//     model, is Rejected naming the field and value. So is a workload with
//     a deadline whose pod does not fit the nominal quota, and one whose
//     deadline has already passed, naming the annotation.
//  2. Without a deadline: Ready (admission admits it, ReasonNoDeadline).
//  3. Alone: admission.Workspace.Decide in confidence mode on an empty queue with the
//     workload's own run time (its pods in parallel, started now). Failing
//     it at the confidence means it can never meet its deadline: Rejected.
//     The least deadline that passes it (admission.AloneDeadline) is found once per
//     workload's samples, so a workload whose deadline is beyond it passes
//     with one comparison.
//
// Steps 1 and 3 run for workloads still waiting for quota too. Kueue acts
// on a Rejected check only once it has reserved quota (before that it only
// keeps the workload out of its queue, pending for good), so a waiting
// workload the check would reject is deactivated at once (Deactivate), its
// rejection in its check message and event.
//
//  4. With quota reserved: admission.Queue.Decide in confidence mode with the promised
//     (Ready) deadline workloads' fluid samples as the queue. Admitted:
//     Ready, and it joins the queue for the next decision. Otherwise
//     Retry, after the median time until the first promised workload
//     finishes, no later than its latest start at the confidence, within
//     [MinRetry, MaxRetry].
//
// The ETAs follow the order Kueue admits in, not EDF (see ETAs): the
// workloads holding quota run their remaining time; the pending ones wait
// in Kueue's queue order (priority, then queue-order timestamp) and start
// as the queue's strategy lets them into the free nominal quota. A
// workload about to be deactivated gets its ETA at its place in that
// queue, and takes no quota from the others.
//
// cache, when not nil, keeps the samples of each workload between plans of
// the same queue (see WorkCache); the outcomes are the same with or
// without it. The samples are never modified after drawing.
func Plan(q Queue, ws []Workload, now time.Time, cfg Config, cache *WorkCache) ([]Outcome, error) {
	outs, works, err := decide(q, ws, now, cfg, cache, false)
	if err != nil {
		return nil, err
	}
	if err := etas(q, ws, works, outs, now, cfg.Samples, cfg.Confidence, etaDelay{decided: seconds(cfg.StartDelay)}, arrivalInput{}, nil); err != nil {
		return nil, err
	}
	return outs, nil
}

// Decide is Plan without the ETAs: the same verdicts, deactivations and
// the notes that do not depend on an ETA (a workload whose owner cannot be
// read, one that does not fit the nominal quota, a rejection restored on a
// deactivated workload), bit for bit; every outcome's ETA is nil. Its
// cost is the decisions': O(workloads) to order them, the alone test
// of each pending deadline workload (one comparison once its samples'
// threshold is known, O(samples) the first time), and the
// queue test of each one holding quota (admission.Queue.Decide: O(promised
// × samples) for the first, then the samples of the workloads from its EDF
// place on); Plan adds the replay
// of Kueue's admission for every pending workload's ETA.
//
// With a cache, a plan keeps what the last plan of its queue built and
// takes it again where it is provably the same (keptplan.go): the creation
// and EDF orders when still strictly sorted (O(n) comparisons instead of
// sorts), each position's samples without a map lookup, and the promised
// admission.Queue with the sums it keeps when it holds exactly the same
// jobs (the last plan's Ready ones taken out unless now promised). A plan
// one new workload later in the same second then costs O(workloads) in
// cheap comparisons plus that workload's queue test; a plan in a new
// second rebuilds the queue, since every job's times are relative to now
// and the running workloads' samples depend on their executed time.
func Decide(q Queue, ws []Workload, now time.Time, cfg Config, cache *WorkCache) ([]Outcome, error) {
	outs, _, err := decide(q, ws, now, cfg, cache, false)
	return outs, err
}

// decide is Plan's decisions; works are the workloads' samples, for etas.
// With reuse, the outcomes live in the cache's scratch of the queue and
// are valid until its next plan (the reconciler's use); without it they
// are the caller's.
func decide(q Queue, ws []Workload, now time.Time, cfg Config, cache *WorkCache, reuse bool) (outs []Outcome, works []*work, err error) {
	if err := cfg.Validate(); err != nil {
		return nil, nil, err
	}
	cq := q.Name
	gen := cache.begin(cq)
	defer func() { cache.end(cq, gen, err == nil) }()
	sc := gen.scratch()
	n := len(ws)
	if reuse {
		sc.outs = resize(sc.outs, n)
		outs = sc.outs
	} else {
		outs = make([]Outcome, n)
	}
	sc.jobs = resize(sc.jobs, n)
	sc.works = resize(sc.works, n)
	sc.problems = resize(sc.problems, n)
	jobs, problems := sc.jobs, sc.problems
	works = sc.works

	// IDs follow creation, then key: deterministic and unique. Job ID
	// rank+1 is workload order[rank].
	order := sc.creationOrder(ws)
	for rank, i := range order {
		w := &ws[i]
		outs[i].Key = w.Key
		problems[i] = w.Problem
		jobs[i] = admission.Job{ID: int64(rank + 1), Arrival: seconds(w.Created.Sub(now)), Deadline: math.Inf(1)}
		if w.HasDeadline() {
			jobs[i].Deadline = seconds(w.Deadline.Sub(now))
		}
		if w.Phase != Deactivated && w.Problem == nil && w.Blocked == nil && w.usable() {
			wk, err := gen.workAt(i, *w, cfg.Samples, cfg.Seed, cfg.StartDelay)
			if err != nil {
				problems[i] = err
				continue
			}
			works[i] = wk
		}
	}

	// The promised workloads: their deadlines are protected, their work is
	// ahead of every pending workload. The queue of the last decisions is
	// kept when it holds exactly these jobs (keepQueue).
	promised := sc.promised[:0]
	defer func() { sc.promised = emptied(promised) }()
	want := sc.want[:0]
	for _, i := range order {
		if ws[i].Phase != Promised {
			continue
		}
		if works[i] != nil {
			promised = append(promised, works[i])
			if ws[i].HasDeadline() {
				want = append(want, i)
			}
		}
	}
	sc.want = want
	q0 := &sc.q0
	if !sc.keepQueue(ws, order, jobs, works, want) {
		q0.Reset()
		for _, i := range want {
			if err := q0.Insert(withSamples(jobs[i], works[i].fluid)); err != nil {
				return nil, nil, fmt.Errorf("promised workload %s: %w", ws[i].Key, err)
			}
		}
	}

	pending := sc.pending[:0]
	for _, i := range order {
		switch ws[i].Phase {
		case Waiting, Deciding:
			pending = append(pending, i)
		case Deactivated:
			// Kueue's eviction of a workload the check rejected replaced
			// the check's message with its own: put the rejection back.
			if r := ws[i].Rejection; r != "" && !isRejectionNote(ws[i].CheckMessage) {
				outs[i].Note = restoredNote(r)
			}
		}
	}
	pending = sc.edfOrder(pending, jobs)

	space := &sc.space
	p := cfg.Confidence
	opt := admission.Options{Mode: admission.ModeConfidence, Confidence: p}
	for _, i := range pending {
		w := &ws[i]
		deciding := w.Phase == Deciding
		switch {
		case w.Blocked != nil:
			outs[i].Note = "Pending: " + w.Blocked.Error()
		case problems[i] != nil:
			r := ReasonBadInput
			if errors.Is(problems[i], ErrNoEstimate) {
				r = ReasonNoEstimate
			}
			outs[i].Verdict = rejectInput(r, problems[i], *w)
		case !w.HasDeadline():
			if !deciding {
				break
			}
			d, err := space.Decide(nil, jobs[i], 0, opt)
			if err != nil {
				return nil, nil, fmt.Errorf("workload %s: %w", w.Key, err)
			}
			if !d.Admit || d.Reason != admission.ReasonNoDeadline {
				return nil, nil, fmt.Errorf("workload %s: admission returned %v for a job without a deadline", w.Key, d.Reason)
			}
			outs[i].Verdict = &Verdict{State: kueue.CheckStateReady, Reason: ReasonNoDeadline, Message: readyNoDeadline()}
			if works[i] != nil {
				promised = append(promised, works[i])
			}
		case w.Pods > 0 && w.Slots == 0:
			outs[i].Verdict = rejectNeverFits(cq, *w)
		case !w.Deadline.After(now):
			outs[i].Verdict = rejectDeadlinePassed(*w)
		default:
			wk := works[i]
			if !wk.meetsAlone(jobs[i].Deadline, p) {
				alone, err := space.Decide(nil, withSamples(jobs[i], wk.own), 0, opt)
				if err != nil {
					return nil, nil, fmt.Errorf("workload %s: %w", w.Key, err)
				}
				if !alone.Admit {
					outs[i].Verdict = rejectLateAlone(*w, wk, now, alone.Probability, p)
					break
				}
			}
			if !deciding {
				break
			}
			job := withSamples(jobs[i], wk.fluid)
			d, err := q0.Decide(job, 0, opt)
			if err != nil {
				return nil, nil, fmt.Errorf("workload %s: %w", w.Key, err)
			}
			if d.Admit {
				protected := 0
				for _, c := range d.Checked {
					if c.Protected && !c.New {
						protected++
					}
				}
				outs[i].Verdict = ready(cq, *w, wk, now, d.Probability, p, protected)
				if err := q0.Insert(job); err != nil {
					return nil, nil, fmt.Errorf("workload %s: %w", w.Key, err)
				}
				sc.inserted = append(sc.inserted, job.ID)
				promised = append(promised, wk)
				break
			}
			after := retryAfter(promised, wk, jobs[i].Deadline, p, cfg)
			if d.BlockingID == job.ID {
				finish := finishInQueue(q0.Jobs(), job)
				outs[i].Verdict = retryLate(*w, finish, now, d.Checked[d.NewIndex].PMeet, p, after)
			} else {
				b := ws[order[d.BlockingID-1]]
				outs[i].Verdict = retryHurts(*w, wk, b, now, d.Checked[d.Blocking].PMeet, p, after)
			}
		}
		// A waiting workload the check would reject is deactivated now:
		// Kueue acts on a Rejected check only once it holds quota.
		if v := outs[i].Verdict; v != nil && !deciding {
			outs[i].Deactivate = true
			outs[i].Note = deactivatedNote(v.Message)
		}
		if outs[i].Verdict == nil && w.Blocked == nil && w.Pods > 0 && w.Slots == 0 {
			outs[i].Note = pendingNeverFits(cq, *w)
		}
	}

	return outs, works, nil
}

// resize returns xs with length n, every element zero, reusing its
// storage when large enough.
func resize[T any](xs []T, n int) []T {
	if cap(xs) < n {
		return make([]T, n)
	}
	return emptied(xs)[:n]
}

// emptied returns xs cut to length 0 with its whole backing array zeroed:
// a scratch slice reused shorter than before must not keep alive what its
// elements past the new length pointed to (an older pass's ETAs and
// notes, a plan's samples, workloads gone from the queue).
func emptied[T any](xs []T) []T {
	clear(xs[:cap(xs)])
	return xs[:0]
}

// retryAfter is when a held workload should be tried again: the median time
// until the first promised workload finishes (MaxRetry when none is
// known), no later than the latest start that still meets the deadline at
// the confidence, within [MinRetry, MaxRetry], rounded up to whole seconds.
func retryAfter(promised []*work, wk *work, deadline, p float64, cfg Config) time.Duration {
	after := cfg.MaxRetry.Seconds()
	if len(promised) > 0 {
		first := make([]float64, len(wk.own))
		for s := range first {
			first[s] = math.Inf(1)
			for _, pw := range promised {
				first[s] = min(first[s], pw.own[s])
			}
		}
		if d, err := jct.NewDistribution(first); err == nil {
			if m, err := d.Quantile(0.5); err == nil {
				after = m
			}
		}
	}
	if d, err := jct.NewDistribution(wk.own); err == nil {
		if need, err := d.Quantile(p); err == nil {
			after = min(after, deadline-need)
		}
	}
	// Whole seconds, rounding up what is above the millisecond (a model's
	// e^(ln 600) is 600 to within rounding, not 600.0000000001 s).
	after = min(max(after, cfg.MinRetry.Seconds()), cfg.MaxRetry.Seconds())
	after = math.Ceil(math.Round(after*1000) / 1000)
	return time.Duration(after) * time.Second
}

// finishInQueue returns, per sample, the completion of job in admission's
// sequential EDF model: the samples of the queued jobs before it in EDF
// order plus its own (the sums whose mean is admission's Check.Prefix).
func finishInQueue(queue []admission.Job, job admission.Job) []float64 {
	out := slices.Clone(job.Samples)
	for _, j := range queue {
		if j.HasDeadline() && admission.CompareEDF(j, job) < 0 {
			addTo(out, j.Samples)
		}
	}
	return out
}

func withSamples(j admission.Job, s []float64) admission.Job {
	j.Samples = s
	return j
}

func addTo(dst, src []float64) {
	for s := range dst {
		dst[s] += src[s]
	}
}

// seconds converts a duration to float seconds (time.Duration saturates
// at about ±292 years, so the result is finite).
func seconds(d time.Duration) float64 { return d.Seconds() }

// maxOffset keeps predicted times representable as time.Time offsets.
const maxOffset = float64(math.MaxInt64/int64(time.Second)) - 1

// at returns the instant now plus x seconds, rounded to the nearest
// second (the precision of the ETA's annotations and messages): for the
// p50s.
func at(now time.Time, x float64) time.Time { return offset(now, x).Round(time.Second) }

// atUp returns the instant now plus x seconds, rounded up to the second:
// for the p90s, upper bounds that rounding must not move earlier (a
// workload finishing at its p90 is within it as written).
func atUp(now time.Time, x float64) time.Time {
	t := offset(now, x)
	if u := t.Truncate(time.Second); u.Before(t) {
		return u.Add(time.Second)
	}
	return t
}

// offset returns now plus x seconds to the millisecond (coarser than the
// float arithmetic's error on x, so that a p90 of 5 s computed as
// 5.0000000001 stays 5 s), x bounded to ±maxOffset (in milliseconds, it
// and the nanoseconds it makes are exact in float64 and int64).
func offset(now time.Time, x float64) time.Time {
	x = min(max(x, -maxOffset), maxOffset)
	return now.Add(time.Duration(math.Round(x*1e3)) * time.Millisecond)
}

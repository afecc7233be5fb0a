package replay

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"time"
)

// Workload options: how a trace's jobs become the Jobs submitted to the
// cluster. Validate names any field out of range.
type Workload struct {
	// From and Span select the trace's jobs submitted in [From, From+Span)
	// seconds of the trace (Span 0: to the end).
	From, Span float64
	// Compress divides every run time and requested time of the trace: a
	// job that ran r seconds runs r / Compress seconds here.
	Compress float64
	// Load sets the arrival rate: the offered load, the jobs' pod-seconds
	// over the cluster's CPUs times the span of the submissions, is Load
	// (the submissions' spacing is scaled to it); 0 keeps the trace's own
	// spacing (divided by Compress like the run times).
	Load float64
	// CPUs is the cluster's CPU count; TraceProcs the traced machine's
	// processors. A job on p processors has ⌈p · CPUs / TraceProcs⌉ pods of
	// one CPU each, at most CPUs.
	CPUs, TraceProcs int
	// MinRun raises a compressed run time below it to it, and the job's
	// requested time in the same ratio (the control plane counts whole
	// seconds). MaxRun leaves out the jobs whose compressed run time is
	// above it (0: none), counted in Plan.LeftOut.
	MinRun, MaxRun time.Duration
	// MaxJobs keeps the first MaxJobs jobs of the window (0: all).
	MaxJobs int
	// Seed seeds the deadline factors of the jobs without an estimate
	// (drawFactor), drawn in submission order.
	Seed uint64
}

// A Submission is one Job of the replay.
type Submission struct {
	Name string
	// At is when it is submitted, from the replay's start; Run each pod's
	// run time; Deadline its deadline after its submission.
	At, Run, Deadline time.Duration
	Pods              int
	TraceID           string
}

// A Plan is the submissions built from a trace, with what was dropped and
// the offered load they carry.
type Plan struct {
	Subs []Submission
	// OwnLoad is the offered load of the trace's own spacing; Load the
	// submissions'.
	OwnLoad, Load float64
	// LeftOut counts the window's jobs above MaxRun; NoEstimate those
	// without a requested time (their deadline: submission + a factor
	// drawn as MIMP §6.6 gives deadlines × the run time; drawFactor).
	LeftOut, NoEstimate int
}

// Validate returns every field out of range, joined.
func (w Workload) Validate() error {
	var errs []error
	bad := func(field string, v any, want string) {
		errs = append(errs, fmt.Errorf("replay: Workload.%s = %v: %s", field, v, want))
	}
	fin := func(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
	if !fin(w.From) || w.From < 0 {
		bad("From", w.From, "must be finite and ≥ 0")
	}
	if !fin(w.Span) || w.Span < 0 {
		bad("Span", w.Span, "must be finite and ≥ 0")
	}
	if !fin(w.Compress) || w.Compress < 1 {
		bad("Compress", w.Compress, "must be finite and ≥ 1")
	}
	if !fin(w.Load) || w.Load < 0 || w.Load > 100 {
		bad("Load", w.Load, "must be in [0, 100] (0: the trace's own)")
	}
	if w.CPUs < 1 {
		bad("CPUs", w.CPUs, "must be ≥ 1")
	}
	if w.TraceProcs < 1 {
		bad("TraceProcs", w.TraceProcs, "must be ≥ 1")
	}
	if w.MinRun < time.Second {
		bad("MinRun", w.MinRun, "must be ≥ 1s")
	}
	if w.MaxRun != 0 && w.MaxRun < w.MinRun {
		bad("MaxRun", w.MaxRun, "must be 0 or ≥ MinRun")
	}
	if w.MaxJobs < 0 {
		bad("MaxJobs", w.MaxJobs, "must be ≥ 0")
	}
	return errors.Join(errs...)
}

// Build turns the trace's jobs into submissions. It is a pure function of
// its inputs: the same jobs and options give the same plan.
func (w Workload) Build(jobs []TraceJob) (Plan, error) {
	if err := w.Validate(); err != nil {
		return Plan{}, err
	}
	var p Plan
	type kept struct {
		j        TraceJob
		run, req float64 // compressed seconds
		pods     int
	}
	var ks []kept
	for _, j := range jobs {
		if j.Submit < w.From || w.Span > 0 && j.Submit >= w.From+w.Span {
			continue
		}
		run, req := j.Run/w.Compress, j.Requested/w.Compress
		if min := w.MinRun.Seconds(); run < min {
			req *= min / run
			run = min
		}
		if w.MaxRun > 0 && run > w.MaxRun.Seconds() {
			p.LeftOut++
			continue
		}
		pods := min(w.CPUs, int(math.Ceil(float64(j.Procs)*float64(w.CPUs)/float64(w.TraceProcs))))
		ks = append(ks, kept{j: j, run: run, req: req, pods: max(pods, 1)})
	}
	slices.SortStableFunc(ks, func(a, b kept) int { return cmp.Compare(a.j.Submit, b.j.Submit) })
	if w.MaxJobs > 0 && len(ks) > w.MaxJobs {
		ks = ks[:w.MaxJobs]
	}
	rng := rand.New(rand.NewPCG(w.Seed, 0xdead))
	for i := range ks {
		if ks[i].req <= 0 {
			p.NoEstimate++
			ks[i].req = drawFactor(rng) * ks[i].run
		}
		ks[i].req = max(ks[i].req, ks[i].run)
	}
	if len(ks) == 0 {
		return Plan{}, fmt.Errorf("replay: no job of the trace in [%g, %g) s with a run time of at most %v", w.From, w.From+w.Span, w.MaxRun)
	}
	var work float64
	for _, k := range ks {
		work += float64(k.pods) * k.run
	}
	// The span of submissions is taken as the trace's span plus one mean
	// gap, so that a single job or a burst still has a finite load.
	first, last := ks[0].j.Submit, ks[len(ks)-1].j.Submit
	span := (last - first) / w.Compress * float64(len(ks)) / math.Max(float64(len(ks)-1), 1)
	if span <= 0 {
		span = 1
	}
	p.OwnLoad = work / (float64(w.CPUs) * span)
	scale := 1 / w.Compress // trace seconds → replay seconds
	p.Load = p.OwnLoad
	if w.Load > 0 {
		scale *= p.OwnLoad / w.Load
		p.Load = w.Load
	}
	for i, k := range ks {
		p.Subs = append(p.Subs, Submission{
			Name:     fmt.Sprintf("j%05d", i),
			At:       seconds((k.j.Submit - first) * scale),
			Run:      seconds(k.run),
			Deadline: seconds(k.req),
			Pods:     k.pods,
			TraceID:  k.j.ID,
		})
	}
	return p, nil
}

// Window is the trace window the workload selects, in trace seconds:
// "[From, From+Span) s", or "[From s, end of trace)" when Span is 0.
func (w Workload) Window() string {
	f := func(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
	if w.Span == 0 {
		return "[" + f(w.From) + " s, end of trace)"
	}
	return "[" + f(w.From) + ", " + f(w.From+w.Span) + ") s"
}

// seconds rounds s seconds to the millisecond.
func seconds(s float64) time.Duration { return time.Duration(math.Round(s*1000)) * time.Millisecond }

// Describe is one line about a plan: its jobs, pods, pod-seconds, the
// span of its submissions and its last deadline.
func Describe(p Plan, load string) string {
	var work float64
	var last, end time.Duration
	for _, s := range p.Subs {
		work += float64(s.Pods) * s.Run.Seconds()
		last = max(last, s.At)
		end = max(end, s.At+s.Deadline)
	}
	return fmt.Sprintf("load %s: %d Jobs, %d pods, %.0f pod-s, submitted over %.0f s, last deadline at %.0f s (offered %.2f; the trace's own %.2f; %d left out above -max-run, %d without an estimate)",
		load, len(p.Subs), pods(p.Subs), work, last.Seconds(), end.Seconds(), p.Load, p.OwnLoad, p.LeftOut, p.NoEstimate)
}

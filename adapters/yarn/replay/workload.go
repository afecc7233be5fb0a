package replay

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/schedkit/schedkit/adapters/yarn/trace"
	"github.com/schedkit/schedkit/tct/jct"
)

// Workload options. The zero value of a field is replaced by its default
// (DefaultWorkload); Validate names any field out of range.
type Workload struct {
	// From and Span select the trace's jobs submitted in [From, From+Span)
	// seconds of the trace.
	From, Span float64
	// Compress divides the trace's time between submissions: an app is
	// submitted (Submit − first Submit) / Compress seconds into the run.
	Compress float64
	// Split is the input bytes of one map task; MaxMaps caps an app's
	// tasks (the cluster's slots less one for the ApplicationMaster).
	Split   int64
	MaxMaps int
	// Task is the lognormal a task's run time is drawn from, in seconds
	// (one draw per app: DistributedShell runs all of an app's containers
	// with the same command); TaskScale multiplies it.
	Task      jct.Lognormal
	TaskScale float64
	// AMStart is the time an ApplicationMaster takes from submission to
	// asking for containers on an idle cluster, in seconds; Slots the
	// cluster's containers. An app's alone time is AMStart plus its waves,
	// ⌈maps / (Slots − 1)⌉, times its task time.
	AMStart float64
	Slots   int
	// DeadlineFactor sets each app's deadline: its submission plus the
	// factor times its alone time.
	DeadlineFactor float64
	// Seed seeds the task-time draws.
	Seed uint64
}

// DefaultWorkload is the workload the replay command starts from: maps of
// 128 MiB splits, at most 15, task times from the map-attempt lognormal
// fitted to the TeraGen trace of Hadoop's SLS samples (μ = 3.0015,
// σ = 0.2388: median 20.1 s, mean 20.7 s; package trace), an
// ApplicationMaster start of 20 s, 16 slots, deadlines twice the alone
// time, time compressed 3×.
func DefaultWorkload() Workload {
	return Workload{Span: 1800, Compress: 3, Split: 128 << 20, MaxMaps: 15,
		Task: jct.Lognormal{Mu: 3.0015, Sigma: 0.2388}, TaskScale: 1, AMStart: 20, Slots: 16,
		DeadlineFactor: 2, Seed: 1}
}

// Validate returns every field out of range, joined.
func (w Workload) Validate() error {
	var errs []error
	bad := func(field string, v any, want string) {
		errs = append(errs, fmt.Errorf("replay: Workload.%s = %v: %s", field, v, want))
	}
	// atLeast checks a float field is finite and ≥ lo (> lo when strict).
	atLeast := func(field string, v, lo float64, strict bool) {
		ok := v >= lo && !(strict && v == lo) && !math.IsInf(v, 0)
		if !ok {
			op := "≥"
			if strict {
				op = ">"
			}
			bad(field, v, fmt.Sprintf("must be finite and %s %g", op, lo))
		}
	}
	atLeast("From", w.From, 0, false)
	atLeast("Span", w.Span, 0, true)
	atLeast("Compress", w.Compress, 1, false)
	atLeast("TaskScale", w.TaskScale, 0, true)
	atLeast("AMStart", w.AMStart, 0, false)
	atLeast("DeadlineFactor", w.DeadlineFactor, 1, false)
	if w.Split < 1 {
		bad("Split", w.Split, "must be ≥ 1")
	}
	if w.MaxMaps < 1 || w.MaxMaps > 10_000 {
		bad("MaxMaps", w.MaxMaps, "must be in [1, 10000]")
	}
	if err := w.Task.Validate(); err != nil {
		errs = append(errs, fmt.Errorf("replay: Workload.Task: %w", err))
	}
	if w.Slots < 2 {
		bad("Slots", w.Slots, "must be ≥ 2 (one for the ApplicationMaster)")
	}
	return errors.Join(errs...)
}

// An App is one trace job as the replay submits it: a DistributedShell
// app whose Maps containers each sleep Sleep.
type App struct {
	// Job is the trace job's ID.
	Job string
	// At is when it is submitted, from the start of the run.
	At time.Duration
	// Maps is its task containers; Sleep each one's run time.
	Maps  int
	Sleep time.Duration
	// Deadline is from the start of the run.
	Deadline time.Duration
}

// maxSleep bounds a drawn task time (a lognormal's far tail).
const maxSleep = time.Hour

// Apps maps the SWIM jobs submitted in w's window to apps, in submission
// order (stable for equal times). The same jobs and options give the same
// apps.
func (w Workload) Apps(jobs []trace.SWIMJob) ([]App, error) {
	if err := w.Validate(); err != nil {
		return nil, err
	}
	var in []trace.SWIMJob
	for _, j := range jobs {
		if j.Submit >= w.From && j.Submit < w.From+w.Span {
			in = append(in, j)
		}
	}
	if len(in) == 0 {
		return nil, fmt.Errorf("replay: no job submitted in [%g, %g) s of the trace", w.From, w.From+w.Span)
	}
	slices.SortStableFunc(in, func(a, b trace.SWIMJob) int { return cmp.Compare(a.Submit, b.Submit) })
	rng := rand.New(rand.NewPCG(w.Seed, 0x5e1f))
	t0 := in[0].Submit
	out := make([]App, len(in))
	for i, j := range in {
		maps := j.Maps(w.Split, w.MaxMaps)
		task := math.Exp(w.Task.Mu+w.Task.Sigma*rng.NormFloat64()) * w.TaskScale
		sleep := min(time.Duration(task*float64(time.Second)), maxSleep).Round(time.Millisecond)
		sleep = max(sleep, time.Millisecond)
		waves := (maps + w.Slots - 2) / (w.Slots - 1)
		alone := time.Duration(w.AMStart*float64(time.Second)) + time.Duration(waves)*sleep
		at := time.Duration((j.Submit - t0) / w.Compress * float64(time.Second)).Round(time.Millisecond)
		out[i] = App{Job: j.ID, At: at, Maps: maps, Sleep: sleep,
			Deadline: at + time.Duration(w.DeadlineFactor*float64(alone)).Round(time.Millisecond)}
	}
	return out, nil
}

// Catalog returns the job type the controller predicts the apps with,
// named model: their task lognormal (scaled) and, as the container
// arrival, a lognormal with median AMStart and σ 0.25; Maps is the apps'
// median map count.
func (w Workload) Catalog(model string, apps []App) (trace.Catalog, error) {
	if err := w.Validate(); err != nil {
		return trace.Catalog{}, err
	}
	if len(apps) == 0 {
		return trace.Catalog{}, errors.New("replay: Catalog: no apps")
	}
	maps := make([]int, len(apps))
	for i, a := range apps {
		maps[i] = a.Maps
	}
	slices.Sort(maps)
	task := jct.Lognormal{Mu: w.Task.Mu + math.Log(w.TaskScale), Sigma: w.Task.Sigma}
	arrival := jct.Lognormal{Mu: math.Log(max(w.AMStart, 0.001)), Sigma: 0.25}
	t := trace.JobType{Name: model, Jobs: len(apps), Maps: maps[len(maps)/2], Map: fit(task, len(apps)), Arrival: fit(arrival, len(apps))}
	if err := t.Validate(); err != nil {
		return trace.Catalog{}, err
	}
	return trace.Catalog{Source: "replay workload (task lognormal and ApplicationMaster start)", Types: []trace.JobType{t}}, nil
}

// fit describes a known lognormal as a trace.LognormalFit of n samples.
func fit(l jct.Lognormal, n int) trace.LognormalFit {
	mean := math.Exp(l.Mu + l.Sigma*l.Sigma/2)
	return trace.LognormalFit{Mu: l.Mu, Sigma: l.Sigma, Samples: n, MeanS: mean, MedianS: math.Exp(l.Mu),
		P90S: math.Exp(l.Mu + 1.2815515655446004*l.Sigma), MinS: 0, MaxS: 0}
}

package trace

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/schedkit/schedkit/adapters/yarn/rm"
)

// Bounds on SLS replication counts, so that a count field cannot make the
// importer allocate without limit.
const (
	MaxSLSCount = 100_000 // a task's count or a job's job.count
	MaxSLSTasks = 10_000_000
)

// slsJob is one job of SLS's native format (SchedulerLoadSimulator.md;
// SLSConfiguration's job.* keys as AMDefinitionSLS reads them) plus the
// two keys WriteSLS adds, job.name and job.deadline.ms, which SLS ignores.
// SLS reads the file as maps of strings, so numbers may be quoted.
type slsJob struct {
	AMType   rm.String  `json:"am.type"`
	Start    *rm.Int64  `json:"job.start.ms"`
	End      *rm.Int64  `json:"job.end.ms"`
	Queue    rm.String  `json:"job.queue.name"`
	ID       rm.String  `json:"job.id"`
	User     rm.String  `json:"job.user"`
	Count    *rm.Int64  `json:"job.count"`
	Name     rm.String  `json:"job.name"`
	Deadline *rm.Int64  `json:"job.deadline.ms"`
	Tasks    *[]slsTask `json:"job.tasks"`
}

type slsTask struct {
	Host           rm.String `json:"container.host"`
	Start          *rm.Int64 `json:"container.start.ms"`
	End            *rm.Int64 `json:"container.end.ms"`
	Duration       *rm.Int64 `json:"container.duration.ms"`
	DurationLegacy *rm.Int64 `json:"duration.ms"`
	Type           rm.String `json:"container.type"`
	Count          *rm.Int64 `json:"count"`
}

// ReadSLS reads an SLS job file: a stream of job objects. A task's run is
// container.start.ms to container.end.ms, or, without them, job.start.ms
// plus container.duration.ms (or the legacy duration.ms), as
// TaskContainerDefinition reads it; its type defaults to map; count
// replicates it. job.count replicates the job (IDs get "_1", "_2" …
// appended); a job without job.id is named sls_job_N. Every task counts as
// succeeded (SLS has no failures). job.name and job.deadline.ms, written
// by WriteSLS, are read back.
//
// Errors name the record (a *RecordError matching ErrBadRecord): malformed
// JSON, a job without job.start.ms or without tasks (SLS's "No task for
// the job!"), a task without start and end or duration, a type other than
// map or reduce, a negative time, an end before its start, a count outside
// [1, MaxSLSCount], or more than MaxSLSTasks tasks in all.
func ReadSLS(r io.Reader) ([]Job, error) {
	total := 0
	return readRecords(r, "sls", func(sj slsJob, n int) ([]Job, error) { return sj.jobs(n, &total) })
}

func (sj slsJob) jobs(n int, total *int) ([]Job, error) {
	id := string(sj.ID)
	bad := func(field, reason string) error {
		return &RecordError{Format: "sls", Job: n, JobID: id, Field: field, Reason: reason}
	}
	if id == "" {
		id = fmt.Sprintf("sls_job_%d", n)
	}
	if sj.Start == nil {
		return nil, bad("job.start.ms", "missing")
	}
	start := int64(*sj.Start)
	if start < 0 {
		return nil, bad("job.start.ms", fmt.Sprintf("%d is negative", start))
	}
	j := Job{ID: id, Name: string(sj.Name), User: string(sj.User), Queue: string(sj.Queue), Submit: start}
	if sj.End != nil {
		if end := int64(*sj.End); end != 0 {
			if end < start {
				return nil, bad("job.end.ms", fmt.Sprintf("%d before job.start.ms %d", end, start))
			}
			j.Finish = end
		}
	}
	if sj.Deadline != nil {
		if d := int64(*sj.Deadline); d != 0 {
			if d < start {
				return nil, bad("job.deadline.ms", fmt.Sprintf("%d before job.start.ms %d", d, start))
			}
			j.Deadline = d
		}
	}
	if sj.Tasks == nil || len(*sj.Tasks) == 0 {
		return nil, bad("job.tasks", "no task for the job")
	}
	for i, t := range *sj.Tasks {
		field := fmt.Sprintf("job.tasks[%d]", i)
		typ := string(t.Type)
		if typ == "" {
			typ = Map
		}
		if typ != Map && typ != Reduce {
			return nil, bad(field+".container.type", fmt.Sprintf("%q is neither map nor reduce", typ))
		}
		var ts, te int64
		switch {
		case t.Start != nil && t.End != nil:
			ts, te = int64(*t.Start), int64(*t.End)
		case t.Duration != nil || t.DurationLegacy != nil:
			d := t.Duration
			if d == nil {
				d = t.DurationLegacy
			}
			if *d < 0 || int64(*d) > math.MaxInt64-start {
				return nil, bad(field+".container.duration.ms", fmt.Sprintf("%d is out of range", *d))
			}
			ts, te = start, start+int64(*d)
		default:
			return nil, bad(field, "neither container.start.ms and container.end.ms nor a duration")
		}
		if ts < 0 {
			return nil, bad(field+".container.start.ms", fmt.Sprintf("%d is negative", ts))
		}
		if te < ts {
			return nil, bad(field+".container.end.ms", fmt.Sprintf("%d before container.start.ms %d", te, ts))
		}
		count := int64(1)
		if t.Count != nil {
			count = int64(*t.Count)
		}
		if count < 1 || count > MaxSLSCount {
			return nil, bad(field+".count", fmt.Sprintf("%d is outside [1, %d]", count, MaxSLSCount))
		}
		if *total += int(count); *total > MaxSLSTasks {
			return nil, bad(field+".count", fmt.Sprintf("more than %d tasks in the file", MaxSLSTasks))
		}
		for range count {
			j.Tasks = append(j.Tasks, Task{Type: typ, Host: string(t.Host), Start: ts, Finish: te, Succeeded: true})
		}
	}
	jc := int64(1)
	if sj.Count != nil {
		jc = int64(*sj.Count)
	}
	if jc < 1 || jc > MaxSLSCount {
		return nil, bad("job.count", fmt.Sprintf("%d is outside [1, %d]", jc, MaxSLSCount))
	}
	if jc == 1 {
		return []Job{j}, nil
	}
	if *total += int(jc-1) * len(j.Tasks); *total > MaxSLSTasks {
		return nil, bad("job.count", fmt.Sprintf("more than %d tasks in the file", MaxSLSTasks))
	}
	out := make([]Job, jc)
	for k := range out {
		c := j
		c.ID = fmt.Sprintf("%s_%d", j.ID, k+1)
		c.Tasks = slices.Clone(j.Tasks)
		out[k] = c
	}
	return out, nil
}

// SLSOptions tunes WriteSLS. The zero value writes no deadlines.
type SLSOptions struct {
	// DeadlineFactor, when > 0, gives each job the deadline
	// job.start.ms + ⌈DeadlineFactor · (job.end.ms − job.start.ms)⌉: the
	// factor times the run time the trace recorded (SLS's synthetic
	// generator uses the same form for its deadline_factor). Zero keeps a
	// job's own Deadline, if any. NaN, infinite or negative is an error.
	DeadlineFactor float64
}

type slsOutJob struct {
	AMType   string       `json:"am.type"`
	Start    int64        `json:"job.start.ms"`
	End      int64        `json:"job.end.ms"`
	Queue    string       `json:"job.queue.name"`
	ID       string       `json:"job.id"`
	User     string       `json:"job.user"`
	Name     string       `json:"job.name,omitempty"`
	Deadline int64        `json:"job.deadline.ms,omitempty"`
	Tasks    []slsOutTask `json:"job.tasks"`
}

type slsOutTask struct {
	Host     string `json:"container.host"`
	Start    int64  `json:"container.start.ms"`
	End      int64  `json:"container.end.ms"`
	Priority int    `json:"container.priority"`
	Type     string `json:"container.type"`
}

// WriteSLS writes jobs as an SLS job file that SLS replays: one
// pretty-printed job object per job, times relative to the earliest
// submission or attempt start (RumenToSLSConverter's baseline is the first
// job's submission; for a time-ordered trace they are the same), one container
// per task attempt — failed and killed attempts included, since they held
// containers — with container.priority 20 for maps and 10 for reduces, as
// RumenToSLSConverter writes them. job.end.ms is the job's Finish, or its
// last attempt's finish when the trace has none. The schedkit keys
// job.name and job.deadline.ms (see SLSOptions) are added; SLS ignores
// keys it does not know (AMDefinitionSLS reads only its own).
//
// Jobs without task attempts are left out, since SLS refuses them; the
// number written is returned. An invalid job (Job.Validate) is an error and
// nothing is written.
func WriteSLS(w io.Writer, jobs []Job, opt SLSOptions) (int, error) {
	if !(opt.DeadlineFactor >= 0) || math.IsInf(opt.DeadlineFactor, 0) {
		return 0, fmt.Errorf("trace: SLSOptions.DeadlineFactor = %v: must be finite and ≥ 0", opt.DeadlineFactor)
	}
	origin := int64(math.MaxInt64)
	for _, j := range jobs {
		if err := j.Validate(); err != nil {
			return 0, err
		}
		if len(j.Tasks) > 0 {
			origin = min(origin, j.Submit)
			for _, t := range j.Tasks {
				origin = min(origin, t.Start)
			}
		}
	}
	written := 0
	for _, j := range jobs {
		if len(j.Tasks) == 0 {
			continue
		}
		end := j.Finish
		for _, t := range j.Tasks {
			if j.Finish == 0 {
				end = max(end, t.Finish)
			}
		}
		o := slsOutJob{AMType: "mapreduce", Start: j.Submit - origin, End: end - origin, Queue: j.Queue,
			ID: j.ID, User: j.User, Name: j.Name}
		switch {
		case opt.DeadlineFactor > 0:
			run := float64(end - j.Submit)
			d := math.Ceil(opt.DeadlineFactor * run)
			if d > float64(math.MaxInt64/2) {
				return written, fmt.Errorf("trace: job %s: deadline %g ms after its start is out of range", j.ID, d)
			}
			o.Deadline = o.Start + int64(d)
		case j.Deadline != 0:
			o.Deadline = j.Deadline - origin
		}
		for _, t := range j.Tasks {
			p := 20
			if t.Type == Reduce {
				p = 10
			}
			o.Tasks = append(o.Tasks, slsOutTask{Host: t.Host, Start: t.Start - origin, End: t.Finish - origin, Priority: p, Type: t.Type})
		}
		b, err := json.MarshalIndent(o, "", "  ")
		if err != nil {
			return written, err
		}
		b = append(b, '\n')
		if _, err := w.Write(b); err != nil {
			return written, err
		}
		written++
	}
	return written, nil
}

package trace

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Task types.
const (
	Map    = "map"
	Reduce = "reduce"
)

// A Job is one MapReduce job of a trace. Times are milliseconds: since the
// epoch for Rumen and JobHistory input, since the trace's origin for SLS
// input (SLS files are relative).
type Job struct {
	ID    string
	Name  string
	User  string
	Queue string
	// Submit is when the job was submitted; Finish when it finished, 0 if
	// the trace does not say.
	Submit, Finish int64
	// Deadline is the job's deadline (same clock), 0 if it has none. Only
	// SLS files written by WriteSLS carry one.
	Deadline int64
	// Tasks are the job's task attempts, each of which ran in a container.
	Tasks []Task
}

// A Task is one task attempt: the container it ran in and when.
type Task struct {
	ID   string // attempt ID (task ID where the source has no attempts)
	Type string // Map or Reduce
	Host string // "/rack/host" where known
	// Start and Finish bound the attempt's run, Finish ≥ Start.
	Start, Finish int64
	// Succeeded is false for a failed or killed attempt.
	Succeeded bool
}

// Duration returns the attempt's run time in milliseconds.
func (t Task) Duration() int64 { return t.Finish - t.Start }

// ErrBadRecord is matched (errors.Is) by every error an importer returns
// for a record it cannot use.
var ErrBadRecord = errors.New("trace: bad record")

// A RecordError names the record that could not be read: the format, the
// position of the job in the input (1-based), the job's ID when known, and
// the field.
type RecordError struct {
	Format string // "rumen", "sls", "jobhistory"
	Job    int    // 1-based position in the input, 0 if not known
	JobID  string // the job's ID, if it was read
	Field  string // e.g. "mapTasks[3].attempts[0].finishTime"
	Reason string
}

// Error returns the format, record and reason on one line.
func (e *RecordError) Error() string {
	where := fmt.Sprintf("job %d", e.Job)
	if e.JobID != "" {
		where += " (" + e.JobID + ")"
	}
	if e.Field != "" {
		where += ": " + e.Field
	}
	return fmt.Sprintf("trace: %s %s: %s", e.Format, where, e.Reason)
}

// Is reports whether target is ErrBadRecord.
func (e *RecordError) Is(target error) bool { return target == ErrBadRecord }

// Validate checks the invariants every importer guarantees: an ID, Finish
// either 0 or ≥ Submit, a Deadline either 0 or ≥ Submit, and tasks each
// with a type of Map or Reduce and Finish ≥ Start ≥ 0. A job without task
// attempts is valid (a job killed before any task ran); WriteSLS leaves it
// out, since SLS refuses a job without tasks.
func (j Job) Validate() error {
	bad := func(field, reason string) error {
		return &RecordError{Format: "job", JobID: j.ID, Field: field, Reason: reason}
	}
	switch {
	case j.ID == "":
		return bad("ID", "empty")
	case j.Submit < 0:
		return bad("Submit", fmt.Sprintf("%d is negative", j.Submit))
	case j.Finish != 0 && j.Finish < j.Submit:
		return bad("Finish", fmt.Sprintf("%d before Submit %d", j.Finish, j.Submit))
	case j.Deadline != 0 && j.Deadline < j.Submit:
		return bad("Deadline", fmt.Sprintf("%d before Submit %d", j.Deadline, j.Submit))
	}
	for i, t := range j.Tasks {
		switch {
		case t.Type != Map && t.Type != Reduce:
			return bad(fmt.Sprintf("Tasks[%d].Type", i), fmt.Sprintf("%q is neither map nor reduce", t.Type))
		case t.Start < 0:
			return bad(fmt.Sprintf("Tasks[%d].Start", i), fmt.Sprintf("%d is negative", t.Start))
		case t.Finish < t.Start:
			return bad(fmt.Sprintf("Tasks[%d].Finish", i), fmt.Sprintf("%d before Start %d", t.Finish, t.Start))
		}
	}
	return nil
}

// Durations returns the run times in seconds of the job's successful
// attempts of type typ, in input order.
func (j Job) Durations(typ string) []float64 {
	var out []float64
	for _, t := range j.Tasks {
		if t.Succeeded && t.Type == typ {
			out = append(out, float64(t.Duration())/1000)
		}
	}
	return out
}

// readRecords decodes the JSON objects of r one after another and returns
// what jobs makes of each, in order (n is the object's 1-based position).
// Malformed JSON is a *RecordError of format naming the position; an error
// of jobs is returned as it is.
func readRecords[R any](r io.Reader, format string, jobs func(rec R, n int) ([]Job, error)) ([]Job, error) {
	dec := json.NewDecoder(r)
	var all []Job
	for n := 1; ; n++ {
		var rec R
		err := dec.Decode(&rec)
		if errors.Is(err, io.EOF) {
			return all, nil
		}
		if err != nil {
			return nil, &RecordError{Format: format, Job: n, Reason: "malformed JSON: " + err.Error()}
		}
		js, err := jobs(rec, n)
		if err != nil {
			return nil, err
		}
		all = append(all, js...)
	}
}

package tracefile

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// Google task event types (clusterdata-2011-2 format, v2.1 schema).
const (
	googleSubmit   = 0
	googleSchedule = 1
	googleFinish   = 4
	googleMaxEvent = 8
)

// googleFields is the column count of a task_events line.
const googleFields = 13

// MaxGoogleTasks bounds the tasks ReadGoogle follows (a shard of
// clusterdata-2011-2 holds about 200,000).
const MaxGoogleTasks = 10_000_000

// A GoogleJob is one job of a Google clusterdata-2011 task_events file
// that was submitted inside the trace's window: its first task SUBMIT is
// at a time > 0 (time 0 marks what was there before the window opened,
// and such jobs are left out).
type GoogleJob struct {
	ID int64
	// Submit is the job's first task SUBMIT, seconds from the trace's
	// origin.
	Submit float64
	// Tasks counts the distinct task indices submitted; Finished those
	// that ran from a SCHEDULE to a FINISH inside the file.
	Tasks, Finished int
	// Run is the longest of those runs, SCHEDULE → FINISH, seconds (0 when
	// none finished).
	Run float64
}

// ReadGoogle reads a Google clusterdata-2011 task_events file (13-column
// CSV, gzip-compressed or plain; time in microseconds) and returns the
// jobs submitted inside its window, by submit time then ID. A task's run
// is from its last SCHEDULE before its FINISH. Errors are *LineErrors
// naming the line and column: not 13 columns, a time, job ID or task
// index that is not an integer ≥ 0, an event type outside 0–8, more than
// MaxGoogleTasks tasks.
func ReadGoogle(r io.Reader) ([]GoogleJob, error) {
	type task struct{ job, index int64 }
	type state struct {
		job     GoogleJob
		before  bool // an event at time 0: there before the window
		started bool // a SUBMIT seen
	}
	jobs := map[int64]*state{}
	scheduled := map[task]int64{} // last SCHEDULE, µs
	seen := map[task]bool{}
	err := scan(r, "google", func(line int, text string) error {
		bad := func(field, reason string) error {
			return &LineError{Format: "google", Line: line, Field: field, Reason: reason}
		}
		f := strings.Split(text, ",")
		if len(f) != googleFields {
			return bad("", fmt.Sprintf("%d comma-separated columns, want %d", len(f), googleFields))
		}
		var v [4]int64
		for i, c := range []struct {
			col  int
			name string
		}{{0, "time"}, {2, "job ID"}, {3, "task index"}, {5, "event type"}} {
			x, err := strconv.ParseInt(f[c.col], 10, 64)
			if err != nil || x < 0 {
				return bad(c.name, fmt.Sprintf("%q is not an integer ≥ 0", f[c.col]))
			}
			v[i] = x
		}
		at, t, event := v[0], task{v[1], v[2]}, v[3]
		if event > googleMaxEvent {
			return bad("event type", fmt.Sprintf("%d is not in 0–%d", event, googleMaxEvent))
		}
		s := jobs[t.job]
		if s == nil {
			s = &state{job: GoogleJob{ID: t.job}}
			jobs[t.job] = s
		}
		if at == 0 {
			s.before = true
		}
		switch event {
		case googleSubmit:
			if !seen[t] {
				if len(seen) == MaxGoogleTasks {
					return bad("", fmt.Sprintf("more than %d tasks", MaxGoogleTasks))
				}
				seen[t] = true
				s.job.Tasks++
			}
			if sec := float64(at) / 1e6; !s.started || sec < s.job.Submit {
				s.job.Submit, s.started = sec, true
			}
		case googleSchedule:
			scheduled[t] = at
		case googleFinish:
			if from, ok := scheduled[t]; ok && at >= from {
				s.job.Finished++
				s.job.Run = max(s.job.Run, float64(at-from)/1e6)
				delete(scheduled, t)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	var out []GoogleJob
	for _, s := range jobs {
		if s.started && !s.before {
			out = append(out, s.job)
		}
	}
	slices.SortFunc(out, func(a, b GoogleJob) int { return cmp.Or(cmp.Compare(a.Submit, b.Submit), cmp.Compare(a.ID, b.ID)) })
	return out, nil
}

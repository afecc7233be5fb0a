package tracefile

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// MaxSWIMJobs bounds the jobs ReadSWIM reads, so that an input cannot make
// it allocate without limit (the SWIM Facebook days hold 5,894 and 24,442).
const MaxSWIMJobs = 1_000_000

// A SWIMJob is one job of a SWIM workload (the Facebook Hadoop days of the
// SWIM project, workloadSuite/FB-20*_samples_24_times_1hr_*.tsv): when it
// was submitted and the bytes its phases moved. SWIM records no task
// times and no deadlines.
type SWIMJob struct {
	ID string
	// Submit is seconds from the start of the workload.
	Submit float64
	// Input is the map input, Shuffle the shuffle (0: a map-only job) and
	// Output the reduce output, in bytes.
	Input, Shuffle, Output int64
}

// Maps returns the job's map tasks with the usual Hadoop rule, one per
// split of split bytes of input (⌈Input / split⌉, at least 1), capped at
// limit when limit > 0.
func (j SWIMJob) Maps(split int64, limit int) int {
	if split < 1 {
		split = 1
	}
	n := j.Input / split
	if j.Input%split != 0 || n == 0 {
		n++ // ⌈Input/split⌉, at least 1, without overflowing
	}
	if limit > 0 && n > int64(limit) {
		return limit
	}
	if n > math.MaxInt32 {
		return math.MaxInt32
	}
	return int(n)
}

// ReadSWIM reads a SWIM workload: tab-separated lines of job ID, submit
// time (s), gap since the previous submission (s, not checked), map input,
// shuffle and reduce output bytes. Blank lines are skipped. Errors name
// the line and field (a *LineError with Format "swim", matching
// ErrBadRecord): fewer than six fields, an empty ID, a submit time that is
// not a finite number ≥ 0, a byte count that is not an integer ≥ 0, more
// than MaxSWIMJobs jobs, a line over 1 MiB.
func ReadSWIM(r io.Reader) ([]SWIMJob, error) {
	var jobs []SWIMJob
	err := scan(r, "swim", func(line int, text string) error {
		bad := func(field, reason string) error {
			return &LineError{Format: "swim", Line: line, Field: field, Reason: reason}
		}
		f := strings.Split(text, "\t")
		if len(f) < 6 {
			return bad("", fmt.Sprintf("%d tab-separated fields, want 6 (id, submit, gap, input, shuffle, output bytes)", len(f)))
		}
		if len(jobs) == MaxSWIMJobs {
			return bad("", fmt.Sprintf("more than %d jobs", MaxSWIMJobs))
		}
		j := SWIMJob{ID: strings.TrimSpace(f[0])}
		if j.ID == "" {
			return bad("new_unique_job_id", "empty")
		}
		sub, err := strconv.ParseFloat(strings.TrimSpace(f[1]), 64)
		if err != nil || !(sub >= 0) || math.IsInf(sub, 0) {
			return bad("submit_time_seconds", fmt.Sprintf("%q is not a finite number ≥ 0", f[1]))
		}
		j.Submit = sub
		for i, p := range []*int64{&j.Input, &j.Shuffle, &j.Output} {
			name := []string{"map_input_bytes", "shuffle_bytes", "reduce_output_bytes"}[i]
			v, err := strconv.ParseInt(strings.TrimSpace(f[3+i]), 10, 64)
			if err != nil || v < 0 {
				return bad(name, fmt.Sprintf("%q is not an integer ≥ 0", f[3+i]))
			}
			*p = v
		}
		jobs = append(jobs, j)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return jobs, nil
}

package tally

// FirstStart is the earliest status.startTime of the job's running pods, in
// Unix nanoseconds; ok is false when none runs or none of them has one.
// Unlike EarliestStart it does not depend on the time: EarliestStart(now)
// is min(FirstStart, now), or now when ok is false.
func (j *Job) FirstStart() (ns int64, ok bool) {
	if j.Running == 0 || len(j.starts) == 0 {
		return 0, false
	}
	return j.starts[0], true
}

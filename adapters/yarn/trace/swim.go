package trace

import (
	"errors"
	"io"

	"github.com/schedkit/schedkit/adapters/internal/tracefile"
)

// MaxSWIMJobs bounds the jobs ReadSWIM reads (tracefile.MaxSWIMJobs).
const MaxSWIMJobs = tracefile.MaxSWIMJobs

// A SWIMJob is one job of a SWIM workload (tracefile.SWIMJob): when it was
// submitted and the bytes its phases moved, with its map count by the
// usual Hadoop rule (Maps).
type SWIMJob = tracefile.SWIMJob

// ReadSWIM reads a SWIM workload with tracefile.ReadSWIM; an error naming
// a line is a *RecordError with Format "swim" and Job the line number,
// matching ErrBadRecord.
func ReadSWIM(r io.Reader) ([]SWIMJob, error) {
	jobs, err := tracefile.ReadSWIM(r)
	if le := (*tracefile.LineError)(nil); errors.As(err, &le) {
		return nil, &RecordError{Format: "swim", Job: le.Line, Field: le.Field, Reason: le.Reason}
	}
	return jobs, err
}

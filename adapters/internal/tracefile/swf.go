package tracefile

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// A SWFJob is one record of a Standard Workload Format log (Parallel
// Workloads Archive, SWF v2.2): the fields a replay reads. Times are
// seconds.
type SWFJob struct {
	ID        int64
	Submit    float64 // field 2: from the log's start
	Run       float64 // field 4
	Procs     int     // field 5, allocated processors (else field 8, requested)
	Requested float64 // field 9: the user's wall-clock estimate; 0 when unknown
}

// swfFields is the number of whitespace-separated numbers of an SWF record.
const swfFields = 18

// MaxSWFJobs bounds the records ReadSWF keeps (the archive's largest logs
// hold a few million).
const MaxSWFJobs = 10_000_000

// ReadSWF reads an SWF log, gzip-compressed or plain. Header lines (";")
// and blank lines are skipped; records with an unknown (−1) or zero run
// time or processor count, or a negative submit time, are skipped too
// (they cannot be replayed) and counted in skipped. A record that is not
// 18 numbers is a *LineError naming its line and field.
func ReadSWF(r io.Reader) (jobs []SWFJob, skipped int, err error) {
	err = scan(r, "swf", func(line int, text string) error {
		if text = strings.TrimSpace(text); strings.HasPrefix(text, ";") {
			return nil
		}
		f := strings.Fields(text)
		if len(f) != swfFields {
			return &LineError{Format: "swf", Line: line, Reason: fmt.Sprintf("%d fields, want %d", len(f), swfFields)}
		}
		if len(jobs) == MaxSWFJobs {
			return &LineError{Format: "swf", Line: line, Reason: fmt.Sprintf("more than %d jobs", MaxSWFJobs)}
		}
		var v [swfFields]float64
		for i, s := range f {
			x, err := strconv.ParseFloat(s, 64)
			if err != nil || x != x || x > 1e15 || x < -1e15 {
				return &LineError{Format: "swf", Line: line, Field: fmt.Sprintf("field %d", i+1), Reason: fmt.Sprintf("%q is not a number in ±1e15", s)}
			}
			v[i] = x
		}
		j := SWFJob{ID: int64(v[0]), Submit: v[1], Run: v[3], Procs: int(v[4]), Requested: max(v[8], 0)}
		if j.Procs <= 0 {
			j.Procs = int(v[7])
		}
		if j.Run <= 0 || j.Procs <= 0 || j.Submit < 0 {
			skipped++
			return nil
		}
		jobs = append(jobs, j)
		return nil
	})
	if err != nil {
		return nil, 0, err
	}
	return jobs, skipped, nil
}

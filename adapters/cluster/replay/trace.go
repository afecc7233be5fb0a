package replay

import (
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strconv"

	"github.com/schedkit/schedkit/adapters/internal/tracefile"
	"github.com/schedkit/schedkit/tct/jct"
)

// A TraceJob is one job of a trace, as the replay reads it from any
// format. Times are seconds of the trace.
type TraceJob struct {
	ID          string
	Submit, Run float64
	// Procs is the job's processors (SWF), map tasks (SWIM) or tasks
	// (Google) on the traced machine.
	Procs int
	// Requested is the user's wall-clock estimate, 0 when the trace has
	// none (the deadline is then drawn, Workload.Build).
	Requested float64
}

// Formats are the trace formats ReadTrace reads.
var Formats = []string{"swf", "swim", "google"}

// SWIMTask is the run-time model of a SWIM job, whose trace records
// bytes and no times: each map task's time is drawn from the lognormal
// package yarn/trace fits to the map attempts of the TeraGen trace of
// Hadoop's SLS samples (μ = 3.0015, σ = 0.2388: median 20.1 s), as the
// YARN replay does (adapters/yarn/replay.DefaultWorkload).
var SWIMTask = jct.Lognormal{Mu: 3.0015, Sigma: 0.2388}

// SWIMSplit is the bytes of map input per map task (⌈input / split⌉, the
// usual Hadoop rule).
const SWIMSplit = 128 << 20

// ReadTrace reads a trace file of the given format and returns its jobs in
// the replay's terms, with the count of records it skipped (they cannot be
// replayed):
//
//   - swf: every record with a run time and processors; Requested is the
//     user's requested time (field 9).
//   - swim: Procs = ⌈map input / 128 MiB⌉, Run one draw of SWIMTask per job
//     (the job's maps run in one wave), from a source seeded with seed and
//     drawn in file order; no estimate.
//   - google: the jobs submitted inside the file's window whose every task
//     ran from SCHEDULE to FINISH inside it (the others are skipped: their
//     run time is unknown); Procs = tasks, Run the longest task's run; no
//     estimate.
func ReadTrace(r io.Reader, format string, seed uint64) ([]TraceJob, int, error) {
	var out []TraceJob
	switch format {
	case "swf":
		jobs, skipped, err := tracefile.ReadSWF(r)
		if err != nil {
			return nil, 0, err
		}
		for _, j := range jobs {
			out = append(out, TraceJob{ID: strconv.FormatInt(j.ID, 10), Submit: j.Submit, Run: j.Run, Procs: j.Procs, Requested: j.Requested})
		}
		return out, skipped, nil
	case "swim":
		jobs, err := tracefile.ReadSWIM(r)
		if err != nil {
			return nil, 0, err
		}
		rng := rand.New(rand.NewPCG(seed, 0x5817))
		for _, j := range jobs {
			run, err := SWIMTask.Draw(rng)
			if err != nil {
				return nil, 0, err
			}
			out = append(out, TraceJob{ID: j.ID, Submit: j.Submit, Run: run, Procs: j.Maps(SWIMSplit, 0)})
		}
		return out, 0, nil
	case "google":
		jobs, err := tracefile.ReadGoogle(r)
		if err != nil {
			return nil, 0, err
		}
		skipped := 0
		for _, j := range jobs {
			if j.Finished < j.Tasks || j.Run <= 0 {
				skipped++
				continue
			}
			out = append(out, TraceJob{ID: strconv.FormatInt(j.ID, 10), Submit: j.Submit, Run: j.Run, Procs: j.Tasks})
		}
		return out, skipped, nil
	}
	return nil, 0, fmt.Errorf("replay: format %q: want one of %v", format, Formats)
}

// ReadTraceFile is ReadTrace of the file at path.
func ReadTraceFile(path, format string, seed uint64) ([]TraceJob, int, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	jobs, skipped, err := ReadTrace(f, format, seed)
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", path, err)
	}
	return jobs, skipped, nil
}

// Package trace imports Hadoop job traces and fits schedkit's tct and tct/jct models to
// them.
//
// # Importers
//
// ReadRumen reads Rumen job histories (LoggedJob JSON, the input of
// Hadoop's Scheduler Load Simulator), ReadSLS SLS job files and
// ReadJobHistoryTasks the MapReduce JobHistory server's task lists
// (/ws/v1/history/mapreduce/jobs/{id}/tasks). Each gives Jobs whose Tasks
// are the containers the job ran, with their start and finish to the
// millisecond. Readers take an io.Reader, never panic, and name the record
// and field of anything they cannot use (*RecordError, ErrBadRecord); what
// they return passes Job.Validate.
//
// # Models
//
// Fit groups jobs by name (lower case: the key an app's schedkit.io/job-type tag
// names) and fits, with tct and tct/jct only:
//
//   - the lognormal of a map attempt's run time, and of a reduce attempt's
//     (shuffle included), by maximum likelihood (jct.LognormalFromSamples,
//     Lee thesis §5.2.1);
//   - the lognormal of a container's arrival after the job's submission,
//     from each job's first wave (its earliest attempts, as many as it ran
//     at once at its peak);
//   - with FitOptions.HostCores, exp2 against residual capacity (MIMP
//     Eq. 1, tct.TrainExp2). None of the three formats records the residual
//     capacity of a task's slot, so by default there is no exp2 fit; the
//     option derives one from an assumption — each host's cores shared
//     equally by the attempts running on it — and says so.
//
// A lognormal's quality is its Kolmogorov–Smirnov distance and the NRMSE
// (MIMP Eq. 9) of its Q–Q line: the sorted samples against the fitted quantiles
// at (i − ½)/n, over the samples' range. On the TeraGen trace of Hadoop's
// SLS samples (192 map attempts of two jobs) the map fit is μ = 3.0015,
// σ = 0.2388 (median 20.1 s, mean 20.7 s), NRMSE 0.0716, KS 0.177.
//
// WriteSLS writes jobs back as an SLS job file that SLS replays, one
// container per attempt as RumenToSLSConverter writes them, with the
// schedkit keys job.name and job.deadline.ms, which SLS ignores.
package trace

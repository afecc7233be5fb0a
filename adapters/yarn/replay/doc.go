// Package replay replays a slice of a real job trace as real YARN
// applications on Hadoop's MiniYARNCluster and compares deadlines met with
// the stock Capacity Scheduler alone and with the schedkit controller
// acting (package controller), each on a fresh cluster with the same
// nodes, in one call (Compare.Do; the command is schedkit-yarn replay).
//
// # Workload (Workload.Apps)
//
// The trace is a SWIM workload (trace.ReadSWIM; the Facebook Hadoop days
// under shared/traces/swim-facebook): job arrivals and map input bytes.
// SWIM records no task times and no deadlines; the mapping supplies them
// and says so:
//
//   - Jobs submitted in [From, From+Span) seconds of the trace are kept;
//     an app is submitted (Submit − first Submit) / Compress seconds into
//     the run.
//   - Maps = ⌈input / Split⌉, at least 1, at most MaxMaps (default 128 MiB
//     and 15: the 16-slot test cluster less the ApplicationMaster's).
//   - Each app is a DistributedShell app whose Maps containers sleep one
//     task time drawn from Task × TaskScale — by default the map-attempt
//     lognormal fitted to the real TeraGen trace of Hadoop's SLS samples
//     (μ = 3.0015, σ = 0.2388, median 20.1 s) — with a seeded generator
//     (Seed): the same options give the same apps.
//   - Its alone time is AMStart (the ApplicationMaster's start, 20 s by
//     default, as seen on this machine) plus ⌈Maps / (Slots − 1)⌉ waves of
//     its task time; its deadline is its submission plus DeadlineFactor
//     (2) times its alone time — the construction of a deadline as a
//     multiple of the job's stand-alone run time. On a busy RM a
//     submission that comes late moves its deadline with it.
//   - The controller predicts the apps with one job type
//     (Workload.Catalog): the task lognormal itself and, as container
//     arrival, a lognormal of median AMStart. Its admission (MIMP Eq. 6)
//     spreads an app's tasks over all slots and has no term for the
//     ApplicationMaster's start, so it is optimistic for small apps.
//
// # Outcomes (Run.Do, Summarize)
//
// An app met its deadline when it FINISHED, SUCCEEDED, by it; it was
// killed when the controller killed it (its diagnostics carry
// "schedkit: not admitted"); every other app missed — finished late,
// failed, or was still ACCEPTED or RUNNING when the run ended, Grace after
// the last deadline, and was killed then. The share of kept apps that
// missed leaves the killed ones out. Container time is the apps'
// vcore-seconds (every container has one vcore; the ApplicationMaster's
// counts).
//
// The apps carry the controller's tags (schedkit.io/deadline, an RFC 3339
// time to the millisecond; schedkit.io/job-type; schedkit.io/tasks) and a
// tag naming the run.
// Stock and schedkit runs are identical but for the controller, which
// makes a pass every Interval (kills, priorities; reservations with
// Controller.PlanQueue).
package replay

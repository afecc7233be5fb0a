// Package embedding shows how a scheduler embeds schedkit: its example
// (go doc -all ./examples/embedding, or example_test.go) is the short program
// README.md's "Embedding schedkit" section prints, run by go test so that it
// cannot fall out of step with the API.
//
// The program is the loop of a deadline-aware slot scheduler on a small
// shared cluster. It keeps two queues of the same jobs, both keyed by one
// int64 job ID:
//
//   - admission.Queue, the admitted jobs in EDF order, which the wave-mode
//     admission check (admission.ModeWave, the default) plans on the
//     cluster's slots;
//   - edf.Queue, the same jobs with their running tasks, from which MP
//     (edf.Queue.MP, MIMP's Maximum Progress) picks the job for each free
//     slot.
//
// The invariant is that a job is in both queues or in neither:
//
//   - on arrival, admission.Checker.Decide; if admitted, edf.Queue.Add and
//     admission.Queue.Insert (undoing the Add if Insert fails); a rejection
//     is logged with the job it protects and by how much that job would be
//     late;
//   - on a free slot, edf.Queue.MP, then edf.Queue.Assign, and
//     admission.Queue.SetProgress with the job's pending tasks and the
//     planned end of its running ones;
//   - on a task end, edf.Queue.Release, then SetProgress again;
//   - on a job end (no pending and no running task), edf.Queue.Remove and
//     admission.Queue.Remove.
//
// Every decision is logged with its reason (admission's fits, no deadline,
// new job late, queued job hurt; MP's at-risk, best-fit, io-skip). The
// margin on planned task times comes from admission.MarginAt over the
// spread of the task-time model's errors (tct.LognormalFromMoments), and MP's
// slack (edf.MPOptions.Slack) is that margin minus one, so MP keeps each
// deadline job ahead of the plan it was admitted on.
//
// Tasks in the example run 10% longer than their models predict, inside the
// margin, so every admitted deadline is met. The example simulates time only
// to drive the loop; a real scheduler calls the same three handlers from its
// own events (job submitted, heartbeat with a free slot, task finished).
package embedding

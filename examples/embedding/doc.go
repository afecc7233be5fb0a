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
//     cluster's slots (admission.Options.Cluster, the scheduler's slots);
//   - edf.Queue, the same jobs with their running tasks, from which MP
//     (edf.Queue.MP, MIMP's Maximum Progress) picks the job for each free
//     slot.
//
// Both take a job's ID, Arrival, Deadline, Tasks and Model with the same
// checks, and both are told the same events, so a job is in both queues or
// in neither, with the same pending count — in any order of the calls
// (TestPropBothQueues drives random events through both):
//
//   - on arrival, admission.Queue.Decide; if admitted, admission.Queue.Insert
//     and edf.Queue.Add; a rejection is logged with the job it protects and
//     by how much that job would be late;
//   - on a free slot, edf.Queue.MP, then edf.Queue.Start, and
//     admission.Queue.Start with the slot and the task's planned end
//     (edf.Task.PlannedEnd);
//   - on a task end, edf.Queue.End and admission.Queue.End;
//   - on a job end (no pending and no running task), Remove from both.
//
// The scheduler scans no slots and copies no counts: each queue keeps what
// it derives from the events. Every decision is logged with its reason
// (admission's fits, no-deadline, new-job-late, queued-job-hurt; MP's
// at-risk, best-fit, io-skip). The margin on planned task times comes from
// admission.MarginAt over the spread of the task-time model's errors
// (jct.LognormalFromMoments); it is admission.Options.Margin and
// edf.Config.Margin, one number with which admission plans every task and
// MP keeps each deadline job ahead of the plan it was admitted on.
//
// Tasks in the example run 10% longer than their models predict, inside the
// margin, so every admitted deadline is met. The example simulates time only
// to drive the loop; a real scheduler calls the same three handlers from its
// own events (job submitted, heartbeat with a free slot, task finished).
package embedding

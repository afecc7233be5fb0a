package trace

import (
	"fmt"
	"io"
)

// rumenJob is the part of a Rumen LoggedJob the importer reads. Pointers
// tell a missing field from a zero one.
type rumenJob struct {
	JobID       *string     `json:"jobID"`
	JobName     string      `json:"jobName"`
	User        string      `json:"user"`
	Queue       string      `json:"queue"`
	SubmitTime  *int64      `json:"submitTime"`
	FinishTime  *int64      `json:"finishTime"`
	MapTasks    []rumenTask `json:"mapTasks"`
	ReduceTasks []rumenTask `json:"reduceTasks"`
}

type rumenTask struct {
	TaskID   string         `json:"taskID"`
	Attempts []rumenAttempt `json:"attempts"`
}

type rumenAttempt struct {
	AttemptID  string `json:"attemptID"`
	HostName   string `json:"hostName"`
	StartTime  *int64 `json:"startTime"`
	FinishTime *int64 `json:"finishTime"`
	Result     string `json:"result"`
}

// ReadRumen reads a Rumen job trace (Hadoop's LoggedJob JSON, as written by
// Rumen's TraceBuilder and read by SLS's RumenToSLSConverter): a stream of
// job objects one after another, times in epoch milliseconds. Each task
// attempt becomes a Task with the attempt's start and finish, host and
// result (SUCCESS counts as succeeded), as RumenToSLSConverter turns each
// attempt into a container. A task without attempts never ran and adds
// nothing. Job.Finish is 0 when finishTime is missing or -1.
//
// Errors name the record (a *RecordError matching ErrBadRecord): malformed
// JSON, a job without jobID or submitTime, a successful attempt without
// startTime or finishTime, negative times, or a finish before the start.
// A failed or killed attempt whose times are missing or -1 is left out, as
// Rumen writes -1 for what it did not see.
func ReadRumen(r io.Reader) ([]Job, error) {
	return readRecords(r, "rumen", func(rj rumenJob, n int) ([]Job, error) {
		j, err := rj.job(n)
		if err != nil {
			return nil, err
		}
		return []Job{j}, nil
	})
}

func (rj rumenJob) job(n int) (Job, error) {
	bad := func(id, field, reason string) error {
		return &RecordError{Format: "rumen", Job: n, JobID: id, Field: field, Reason: reason}
	}
	if rj.JobID == nil || *rj.JobID == "" {
		return Job{}, bad("", "jobID", "missing")
	}
	id := *rj.JobID
	if rj.SubmitTime == nil {
		return Job{}, bad(id, "submitTime", "missing")
	}
	if *rj.SubmitTime < 0 {
		return Job{}, bad(id, "submitTime", fmt.Sprintf("%d is negative", *rj.SubmitTime))
	}
	j := Job{ID: id, Name: rj.JobName, User: rj.User, Queue: rj.Queue, Submit: *rj.SubmitTime}
	if rj.FinishTime != nil && *rj.FinishTime > 0 {
		if *rj.FinishTime < j.Submit {
			return Job{}, bad(id, "finishTime", fmt.Sprintf("%d before submitTime %d", *rj.FinishTime, j.Submit))
		}
		j.Finish = *rj.FinishTime
	}
	for _, list := range []struct {
		name, typ string
		tasks     []rumenTask
	}{{"mapTasks", Map, rj.MapTasks}, {"reduceTasks", Reduce, rj.ReduceTasks}} {
		for ti, t := range list.tasks {
			for ai, a := range t.Attempts {
				field := fmt.Sprintf("%s[%d].attempts[%d]", list.name, ti, ai)
				ok := a.Result == "SUCCESS"
				if a.StartTime == nil || a.FinishTime == nil || *a.StartTime < 0 || *a.FinishTime < 0 {
					if !ok {
						continue
					}
					switch {
					case a.StartTime == nil:
						return Job{}, bad(id, field+".startTime", "missing")
					case a.FinishTime == nil:
						return Job{}, bad(id, field+".finishTime", "missing")
					case *a.StartTime < 0:
						return Job{}, bad(id, field+".startTime", fmt.Sprintf("%d is negative", *a.StartTime))
					default:
						return Job{}, bad(id, field+".finishTime", fmt.Sprintf("%d is negative", *a.FinishTime))
					}
				}
				if *a.FinishTime < *a.StartTime {
					return Job{}, bad(id, field+".finishTime", fmt.Sprintf("%d before startTime %d", *a.FinishTime, *a.StartTime))
				}
				tid := a.AttemptID
				if tid == "" {
					tid = t.TaskID
				}
				j.Tasks = append(j.Tasks, Task{ID: tid, Type: list.typ, Host: a.HostName,
					Start: *a.StartTime, Finish: *a.FinishTime, Succeeded: ok})
			}
		}
	}
	return j, nil
}

package trace

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/schedkit/schedkit/adapters/yarn/rm"
)

// historyTask is one task of the JobHistory server's task list
// (HistoryServerRest.md, "Elements of the task object").
type historyTask struct {
	ID         rm.String `json:"id"`
	Type       rm.String `json:"type"`
	State      rm.String `json:"state"`
	StartTime  *rm.Int64 `json:"startTime"`
	FinishTime *rm.Int64 `json:"finishTime"`
}

// ReadJobHistoryTasks reads the answer of the MapReduce JobHistory server's
// GET /ws/v1/history/mapreduce/jobs/{jobid}/tasks:
// {"tasks":{"task":[…]}}. Each task that started (startTime not -1) and
// finished (finishTime > 0) becomes a Task of its type (MAP or REDUCE) with
// the task's start and finish — the task list has no attempts, so the run
// includes any wait for a container and retries. SUCCEEDED counts as
// succeeded. The task list carries no submission time: Job.Submit is the
// earliest task start and Job.Finish the latest finish.
//
// jobID names the job; empty means take it from the first task ID
// (task_<cluster>_<seq>_m_<n> belongs to job_<cluster>_<seq>).
//
// Errors name the record (a *RecordError matching ErrBadRecord): malformed
// JSON, no tasks object, a task without id, type or startTime, a type other
// than MAP or REDUCE, a finish before the start, or no job ID.
func ReadJobHistoryTasks(r io.Reader, jobID string) (Job, error) {
	bad := func(field, reason string) error {
		return &RecordError{Format: "jobhistory", Job: 1, JobID: jobID, Field: field, Reason: reason}
	}
	var in struct {
		Tasks *struct {
			Task rm.List[historyTask] `json:"task"`
		} `json:"tasks"`
	}
	dec := json.NewDecoder(r)
	if err := dec.Decode(&in); err != nil {
		return Job{}, bad("", "malformed JSON: "+err.Error())
	}
	if in.Tasks == nil {
		return Job{}, bad("tasks", "missing")
	}
	if jobID == "" && len(in.Tasks.Task) > 0 {
		jobID = jobOfTask(string(in.Tasks.Task[0].ID))
	}
	if jobID == "" {
		return Job{}, bad("tasks.task[0].id", "no job ID given and none derivable from a task ID")
	}
	j := Job{ID: jobID}
	first := true
	for i, t := range in.Tasks.Task {
		field := fmt.Sprintf("tasks.task[%d]", i)
		if t.ID == "" {
			return Job{}, bad(field+".id", "missing")
		}
		var typ string
		switch strings.ToUpper(string(t.Type)) {
		case "MAP":
			typ = Map
		case "REDUCE":
			typ = Reduce
		case "":
			return Job{}, bad(field+".type", "missing")
		default:
			return Job{}, bad(field+".type", fmt.Sprintf("%q is neither MAP nor REDUCE", string(t.Type)))
		}
		if t.StartTime == nil {
			return Job{}, bad(field+".startTime", "missing")
		}
		start := int64(*t.StartTime)
		if start < 0 {
			continue // -1: never started
		}
		if t.FinishTime == nil || *t.FinishTime <= 0 {
			continue // still running, or killed before it finished
		}
		finish := int64(*t.FinishTime)
		if finish < start {
			return Job{}, bad(field+".finishTime", fmt.Sprintf("%d before startTime %d", finish, start))
		}
		j.Tasks = append(j.Tasks, Task{ID: string(t.ID), Type: typ, Start: start, Finish: finish,
			Succeeded: strings.EqualFold(string(t.State), "SUCCEEDED")})
		if first || start < j.Submit {
			j.Submit = start
		}
		j.Finish = max(j.Finish, finish)
		first = false
	}
	return j, nil
}

// jobOfTask returns job_<cluster>_<seq> for task_<cluster>_<seq>_m_<n>, or "".
func jobOfTask(id string) string {
	rest, ok := strings.CutPrefix(id, "task_")
	if !ok {
		return ""
	}
	for _, sep := range []string{"_m_", "_r_"} {
		if i := strings.LastIndex(rest, sep); i > 0 {
			return "job_" + rest[:i]
		}
	}
	return ""
}

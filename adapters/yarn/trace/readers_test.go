package trace

import (
	"errors"
	"strings"
	"testing"
)

func TestReadersBadRecords(t *testing.T) {
	rumen := []struct{ in, want string }{
		{`{`, "job 1: malformed JSON"},
		{`[1]`, "job 1: malformed JSON"},
		{`{"submitTime":1}`, "jobID: missing"},
		{`{"jobID":"j"}`, "(j): submitTime: missing"},
		{`{"jobID":"j","submitTime":-5}`, "submitTime: -5 is negative"},
		{`{"jobID":"j","submitTime":10,"finishTime":5}`, "finishTime: 5 before submitTime 10"},
		{`{"jobID":"j","submitTime":1,"mapTasks":[{"attempts":[{"result":"SUCCESS","finishTime":9}]}]}`, "mapTasks[0].attempts[0].startTime: missing"},
		{`{"jobID":"j","submitTime":1,"reduceTasks":[{"attempts":[{"result":"SUCCESS","startTime":9,"finishTime":-1}]}]}`, "reduceTasks[0].attempts[0].finishTime: -1 is negative"},
		{`{"jobID":"j","submitTime":1,"mapTasks":[{"attempts":[{"result":"KILLED","startTime":9,"finishTime":3}]}]}`, "finishTime: 3 before startTime 9"},
		{`{"jobID":"a","submitTime":1} {"jobID":"b"}`, "job 2 (b): submitTime: missing"},
	}
	for _, tt := range rumen {
		_, err := ReadRumen(strings.NewReader(tt.in))
		if !errors.Is(err, ErrBadRecord) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ReadRumen(%s) = %v, want %q", tt.in, err, tt.want)
		}
	}
	// Rumen writes -1 for what it did not see: a failed attempt without
	// times is left out, a task without attempts adds nothing.
	jobs, err := ReadRumen(strings.NewReader(`{"jobID":"j","submitTime":1,"finishTime":-1,"mapTasks":[{"taskID":"t0","attempts":[]},` +
		`{"taskID":"t1","attempts":[{"result":"FAILED","startTime":-1,"finishTime":-1},{"attemptID":"a1","result":"SUCCESS","startTime":5,"finishTime":7}]}]}`))
	if err != nil || len(jobs) != 1 || jobs[0].Finish != 0 || len(jobs[0].Tasks) != 1 || jobs[0].Tasks[0].ID != "a1" {
		t.Errorf("-1 times: %+v, %v", jobs, err)
	}

	sls := []struct{ in, want string }{
		{`{"job.id":"x"}`, "job.start.ms: missing"},
		{`{"job.id":"x","job.start.ms":"-3","job.tasks":[{}]}`, "-3 is negative"},
		{`{"job.start.ms":0}`, "(sls_job_1): job.tasks: no task for the job"},
		{`{"job.start.ms":0,"job.tasks":[{"container.start.ms":1}]}`, "job.tasks[0]: neither container.start.ms"},
		{`{"job.start.ms":0,"job.tasks":[{"container.start.ms":5,"container.end.ms":2}]}`, "container.end.ms: 2 before container.start.ms 5"},
		{`{"job.start.ms":0,"job.tasks":[{"duration.ms":1,"container.type":"shuffle"}]}`, `"shuffle" is neither map nor reduce`},
		{`{"job.start.ms":0,"job.tasks":[{"duration.ms":1,"count":0}]}`, "count: 0 is outside"},
		{`{"job.start.ms":0,"job.tasks":[{"duration.ms":1,"count":1000000000}]}`, "count: 1000000000 is outside"},
		{`{"job.start.ms":0,"job.count":-1,"job.tasks":[{"duration.ms":1}]}`, "job.count: -1 is outside"},
		{`{"job.start.ms":9,"job.end.ms":3,"job.tasks":[{"duration.ms":1}]}`, "job.end.ms: 3 before job.start.ms 9"},
		{`{"job.start.ms":9,"job.deadline.ms":3,"job.tasks":[{"duration.ms":1}]}`, "job.deadline.ms: 3 before"},
		{`{"job.start.ms":"soon"}`, "malformed JSON"},
	}
	for _, tt := range sls {
		_, err := ReadSLS(strings.NewReader(tt.in))
		if !errors.Is(err, ErrBadRecord) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ReadSLS(%s) = %v, want %q", tt.in, err, tt.want)
		}
	}
	// SLS's legacy and current duration keys, counts and job.count.
	jobs, err = ReadSLS(strings.NewReader(`{"job.id":"x","job.start.ms":"100","job.count":2,"job.tasks":[{"duration.ms":7,"count":3},{"container.duration.ms":"4","container.type":"reduce"}]}`))
	if err != nil || len(jobs) != 2 || jobs[1].ID != "x_2" || len(jobs[0].Tasks) != 4 || jobs[0].Tasks[2].Finish != 107 || jobs[0].Tasks[3].Type != Reduce {
		t.Errorf("durations and counts: %+v, %v", jobs, err)
	}

	history := []struct{ in, id, want string }{
		{`{"tasks":`, "", "malformed JSON"},
		{`{}`, "job_1", "tasks: missing"},
		{`{"tasks":{"task":[]}}`, "", "no job ID given"},
		{`{"tasks":{"task":[{"id":"task_1_2_m_0","type":"MAP"}]}}`, "", "(job_1_2): tasks.task[0].startTime: missing"},
		{`{"tasks":{"task":[{"id":"t","type":"SHUFFLE","startTime":1}]}}`, "job_1", `"SHUFFLE" is neither MAP nor REDUCE`},
		{`{"tasks":{"task":[{"type":"MAP","startTime":1}]}}`, "job_1", "tasks.task[0].id: missing"},
		{`{"tasks":{"task":[{"id":"t","type":"MAP","startTime":9,"finishTime":4}]}}`, "job_1", "finishTime: 4 before startTime 9"},
	}
	for _, tt := range history {
		_, err := ReadJobHistoryTasks(strings.NewReader(tt.in), tt.id)
		if !errors.Is(err, ErrBadRecord) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ReadJobHistoryTasks(%s) = %v, want %q", tt.in, err, tt.want)
		}
	}
}

// TestJobHistoryExample reads the JSON response example of
// HistoryServerRest.md "Tasks API".
func TestJobHistoryExample(t *testing.T) {
	body := `{"tasks" : {"task" : [
	  {"progress" : 100, "elapsedTime" : 6777, "state" : "SUCCEEDED", "startTime" : 1326381446541, "id" : "task_1326381300833_2_2_m_0",
	   "type" : "MAP", "successfulAttempt" : "attempt_1326381300833_2_2_m_0_0", "finishTime" : 1326381453318},
	  {"progress" : 100, "elapsedTime" : 135559, "state" : "SUCCEEDED", "startTime" : 1326381446544, "id" : "task_1326381300833_2_2_r_0",
	   "type" : "REDUCE", "successfulAttempt" : "attempt_1326381300833_2_2_r_0_0", "finishTime" : 1326381582103}]}}`
	j, err := ReadJobHistoryTasks(strings.NewReader(body), "")
	if err != nil {
		t.Fatal(err)
	}
	if j.ID != "job_1326381300833_2_2" || j.Submit != 1326381446541 || j.Finish != 1326381582103 || len(j.Tasks) != 2 {
		t.Fatalf("%+v", j)
	}
	// elapsedTime in the example is finish − start.
	if j.Tasks[0].Duration() != 6777 || j.Tasks[1].Duration() != 135559 || j.Tasks[1].Type != Reduce || !j.Tasks[1].Succeeded {
		t.Errorf("tasks %+v", j.Tasks)
	}
	// A single task is written as an object; a task never started (-1) or
	// not finished is left out.
	j, err = ReadJobHistoryTasks(strings.NewReader(`{"tasks":{"task":{"id":"task_5_6_m_1","type":"map","state":"RUNNING","startTime":10,"finishTime":0}}}`), "")
	if err != nil || j.ID != "job_5_6" || len(j.Tasks) != 0 {
		t.Errorf("running task: %+v, %v", j, err)
	}
}

func TestWriteSLSOptions(t *testing.T) {
	for _, f := range []float64{-1} {
		if _, err := WriteSLS(&strings.Builder{}, nil, SLSOptions{DeadlineFactor: f}); err == nil {
			t.Errorf("factor %v accepted", f)
		}
	}
	bad := []Job{{ID: "j", Submit: 5, Finish: 2}}
	if _, err := WriteSLS(&strings.Builder{}, bad, SLSOptions{}); !errors.Is(err, ErrBadRecord) {
		t.Errorf("invalid job written: %v", err)
	}
	var b strings.Builder
	n, err := WriteSLS(&b, []Job{{ID: "empty", Submit: 1}, {ID: "j", Submit: 10, Tasks: []Task{{Type: Reduce, Start: 12, Finish: 20}}}}, SLSOptions{DeadlineFactor: 2})
	if err != nil || n != 1 || strings.Contains(b.String(), "empty") || !strings.Contains(b.String(), `"job.end.ms": 10`) ||
		!strings.Contains(b.String(), `"job.deadline.ms": 20`) || !strings.Contains(b.String(), `"container.priority": 10`) {
		t.Errorf("WriteSLS = %d, %v:\n%s", n, err, b.String())
	}
}

func TestFitAndCatalog(t *testing.T) {
	if _, _, err := Fit(nil, FitOptions{HostCores: -1}); err == nil {
		t.Error("HostCores -1 accepted")
	}
	jobs := []Job{{ID: "a", Name: "Sort", Submit: 0, Tasks: []Task{
		{Type: Map, Start: 1000, Finish: 3000, Succeeded: true}, {Type: Map, Start: 1000, Finish: 5000, Succeeded: true},
		{Type: Map, Start: 1000, Finish: 1000, Succeeded: true}, {Type: Reduce, Start: 5000, Finish: 9000, Succeeded: true},
		{Type: Map, Start: 1500, Finish: 9000, Succeeded: false}}}, {ID: "b", Name: "other", Submit: 0}}
	cat, per, err := Fit(jobs, FitOptions{})
	if err != nil || len(cat.Types) != 1 || len(per) != 1 {
		t.Fatalf("Fit = %+v, %+v, %v", cat, per, err)
	}
	typ := cat.Types[0]
	// A 0 ms attempt counts as 1 ms; the failed attempt is not fitted; the
	// first wave is the 3 attempts running at once at 1.5 s (the 0 ms one
	// has ended).
	if typ.Name != "sort" || typ.Map.Samples != 3 || typ.Map.MinS != 0.001 || typ.Reduce == nil || typ.Reduce.Samples != 1 ||
		typ.Arrival.Samples != 3 || typ.Maps != 3 || typ.Reduces != 1 {
		t.Errorf("type %+v", typ)
	}
	if m, err := typ.JobModel(10, 2); err != nil || m.Reduce != typ.Reduce.Lognormal() {
		t.Errorf("JobModel = %+v, %v", m, err)
	}
	var b strings.Builder
	if err := WriteCatalog(&b, cat); err != nil {
		t.Fatal(err)
	}
	back, err := ReadCatalog(strings.NewReader(b.String()))
	if err != nil || len(back.Types) != 1 || back.Types[0] != cat.Types[0] && back.Types[0].Name != "sort" {
		t.Errorf("catalog round trip: %+v, %v", back, err)
	}
	if got, ok := back.Lookup("SORT"); !ok || got.Map.Mu != typ.Map.Mu {
		t.Errorf("Lookup(SORT) = %+v, %v", got, ok)
	}
	for _, tt := range []struct{ in, want string }{
		{`{"types":[{"name":"Sort","map":{"mu":1,"mean_s":1},"arrival":{"mean_s":1}}]}`, "lower case"},
		{`{"types":[{"name":"s","map":{"mu":1,"sigma":-1,"mean_s":1},"arrival":{"mean_s":1}}]}`, "Sigma"},
		{`{"types":[{"name":"s","map":{"mu":1},"arrival":{"mean_s":1}}]}`, "map.mean_s"},
		{`{"types":[{"name":"s","map":{"mean_s":1},"arrival":{"mean_s":1}},{"name":"s","map":{"mean_s":1},"arrival":{"mean_s":1}}]}`, "twice"},
		{`{"types":[{"name":"s","color":"red"}]}`, "unknown field"},
		{`{"types":[{"name":"s","map":{"mean_s":1},"arrival":{"mean_s":1},"exp2":{"model":{"A":-1}}}]}`, "exp2 TCT(1)"},
		{`{"types":[{"name":"","map":{"mean_s":1}}]}`, "without a name"},
	} {
		if _, err := ReadCatalog(strings.NewReader(tt.in)); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ReadCatalog(%s) = %v, want %q", tt.in, err, tt.want)
		}
	}
}

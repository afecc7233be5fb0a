package admission

import (
	"errors"
	"math"
	"reflect"
	"testing"

	"pgregory.net/rapid"
)

// propInsertAll: InsertAll leaves the queue exactly as Insert one job after
// another in the same order does — the same tree, node for node and bit for
// bit, the same jobs, the same decisions — whether the queue was empty (the
// bulk build, with nodes freed by earlier Removes to reuse) or not; a batch
// with a bad job, a repeated ID or a queued ID changes nothing.
func propInsertAll(t *rapid.T) {
	var bulk, one Queue
	pre := validJobs(t, 6, "pre")
	for _, j := range pre {
		j.ID += 1000
		if err := bulk.Insert(j); err != nil {
			t.Fatal(err)
		}
		if err := one.Insert(j); err != nil {
			t.Fatal(err)
		}
	}
	if rapid.Bool().Draw(t, "emptyFirst") {
		for _, j := range pre {
			bulk.Remove(j.ID + 1000)
			one.Remove(j.ID + 1000)
		}
	}
	jobs := validJobs(t, 40, "jobs")
	jobs = rapid.Permutation(jobs).Draw(t, "order")
	if len(jobs) > 0 && rapid.IntRange(0, 4).Draw(t, "bad") == 0 {
		bad := append([]Job(nil), jobs...)
		k := rapid.IntRange(0, len(bad)-1).Draw(t, "badAt")
		switch rapid.IntRange(0, 2).Draw(t, "badKind") {
		case 0:
			bad[k].JCT = math.NaN()
		case 1:
			bad[k].ID = bad[(k+1)%len(bad)].ID
		default:
			bad[k].Running = 1
		}
		if len(bad) == 1 && bad[0].ID == jobs[0].ID && !math.IsNaN(bad[0].JCT) && bad[0].Running == 0 {
			bad[0].Running = 1 // a one-job batch cannot repeat an ID
		}
		before := bulk.ix
		before.nodes = append([]anode(nil), bulk.ix.nodes...)
		if err := bulk.InsertAll(bad); !errors.Is(err, ErrBadInput) {
			t.Fatalf("InsertAll of a bad batch: %v", err)
		}
		if !reflect.DeepEqual(before.nodes, bulk.ix.nodes) || before.root != bulk.ix.root || before.seq != bulk.ix.seq {
			t.Fatal("a refused batch changed the queue")
		}
	}
	if err := bulk.InsertAll(jobs); err != nil {
		t.Fatal(err)
	}
	for _, j := range jobs {
		if err := one.Insert(j); err != nil {
			t.Fatal(err)
		}
	}
	if !reflect.DeepEqual(bulk.ix.nodes, one.ix.nodes) || bulk.ix.root != one.ix.root || bulk.ix.seq != one.ix.seq ||
		!reflect.DeepEqual(bulk.ix.free, one.ix.free) || !reflect.DeepEqual(bulk.ix.byID, one.ix.byID) {
		t.Fatal("InsertAll built another tree than Insert one by one")
	}
	if !reflect.DeepEqual(bulk.Jobs(), one.Jobs()) {
		t.Fatalf("jobs\n%v\nwant\n%v", bulk.Jobs(), one.Jobs())
	}
	for range rapid.IntRange(1, 3).Draw(t, "decisions") {
		nj := newDeadlineJob(t, 0)
		mode := rapid.SampledFrom([]Mode{ModeStrict, ModePaper}).Draw(t, "mode")
		db, errB := bulk.Decide(nj, 0, Options{Mode: mode})
		do, errO := one.Decide(nj, 0, Options{Mode: mode})
		if (errB == nil) != (errO == nil) || !reflect.DeepEqual(db, do) {
			t.Fatalf("Decide after InsertAll %+v, %v; after Insert %+v, %v", db, errB, do, errO)
		}
	}
}

func TestPropInsertAll(t *testing.T) { rapid.Check(t, propInsertAll) }
func FuzzInsertAll(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propInsertAll)) }

func TestInsertAllBadInput(t *testing.T) {
	q := queueOfOne(t)
	tests := []struct {
		name  string
		js    []Job
		field string
	}{
		{"NaN deadline of the second", []Job{{ID: 2, Deadline: 5}, {ID: 3, Deadline: math.NaN()}}, "Queue[1].Deadline"},
		{"infinite arrival", []Job{{ID: 2, Arrival: math.Inf(1), Deadline: 5}}, "Queue[0].Arrival"},
		{"JCT above MaxDuration", []Job{{ID: 2, Deadline: 5, JCT: math.Nextafter(MaxDuration, math.Inf(1))}}, "Queue[0].JCT"},
		{"running tasks", []Job{{ID: 2, Deadline: 5, Running: 2}}, "Queue[0].Running"},
		{"negative tasks", []Job{{ID: 2, Deadline: 5, Tasks: -1}}, "Queue[0].Tasks"},
		{"ID queued already", []Job{{ID: 2, Deadline: 5}, {ID: 1, Deadline: 5}}, "Job.ID"},
		{"ID given twice", []Job{{ID: 2, Deadline: 5}, {ID: 2, Deadline: 6}}, "Job.ID"},
		{"above MaxJobs", make([]Job, MaxJobs), "Queue.Len"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wantField(t, q.InsertAll(tt.js), tt.field)
			if q.Len() != 1 {
				t.Fatalf("a refused batch changed the queue: %d jobs", q.Len())
			}
		})
	}
}

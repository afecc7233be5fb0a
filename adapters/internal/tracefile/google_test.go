package tracefile

import (
	"strings"
	"testing"
)

// A job there before the window (an event at time 0) is left out; a task
// rescheduled after an eviction runs from its last SCHEDULE; a job whose
// task never finishes has Finished < Tasks and Run 0.
func TestReadGoogle(t *testing.T) {
	in := strings.Join([]string{
		"0,,1,0,,0,u,0,0,0.1,0.1,0,0",
		"5000000,,1,0,m,4,u,0,0,0.1,0.1,0,0",
		"2000000,,7,0,,0,u,0,0,0.1,0.1,0,0",
		"2000000,,7,1,,0,u,0,0,0.1,0.1,0,0",
		"3000000,,7,0,m,1,u,0,0,0.1,0.1,0,0",
		"3500000,,7,1,m,1,u,0,0,0.1,0.1,0,0",
		"4000000,,7,0,m,2,u,0,0,0.1,0.1,0,0",
		"6000000,,7,0,m,1,u,0,0,0.1,0.1,0,0",
		"9000000,,7,0,m,4,u,0,0,0.1,0.1,0,0",
		"9500000,,7,1,m,4,u,0,0,0.1,0.1,0,0",
		"1000000,,9,0,,0,u,0,0,0.1,0.1,0,0",
		"",
	}, "\n")
	jobs, err := ReadGoogle(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := []GoogleJob{{ID: 9, Submit: 1, Tasks: 1}, {ID: 7, Submit: 2, Tasks: 2, Finished: 2, Run: 6}}
	if len(jobs) != len(want) || jobs[0] != want[0] || jobs[1] != want[1] {
		t.Errorf("ReadGoogle = %+v, want %+v", jobs, want)
	}
}

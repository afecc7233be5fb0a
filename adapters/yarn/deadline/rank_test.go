package deadline

import (
	"errors"
	"strings"
	"testing"

	"github.com/schedkit/schedkit/adapters/yarn/rm"
	"github.com/schedkit/schedkit/adapters/yarn/trace"
	"github.com/schedkit/schedkit/edf"
	"github.com/schedkit/schedkit/tct"
)

// TestRankNamesRefusedApp: an app holding a container under a job type
// whose TCT(1) is no valid task time (beyond edf.MaxDuration) makes the
// ranking an error naming the app and its job type, wrapping edf's
// ErrBadInput; the same app with no container is ranked last under MP
// (never chosen) and by its deadline under EDF.
func TestRankNamesRefusedApp(t *testing.T) {
	mk := func(seq int, typ string, m tct.Exp2, deadline float64, remaining, running int) *job {
		j := &job{app: &rm.App{ID: id(seq)}, key: int64(seq), typ: trace.JobType{Name: typ, Exp2: &trace.Exp2Fit{Model: m}},
			deadline: deadline, remaining: remaining, running: running}
		j.desc = edf.Job{ID: j.key, Deadline: deadline, Tasks: remaining, Model: j.typ.TCT()}
		return j
	}
	ok, huge := tct.Exp2{A: 10}, tct.Exp2{A: 2 * edf.MaxDuration}
	var pl Planner
	_, err := pl.rank([]*job{mk(1, "t", ok, 50, 4, 1), mk(2, "slow", huge, 60, 3, 1)}, OrderMP)
	if !errors.Is(err, edf.ErrBadInput) || !strings.Contains(err.Error(), id(2)) || !strings.Contains(err.Error(), "job type slow") {
		t.Fatalf("error %v, want one naming %s and job type slow", err, id(2))
	}
	for order, want := range map[string][]int64{OrderMP: {1, 2}, OrderEDF: {2, 1}} {
		got, err := pl.rank([]*job{mk(1, "t", ok, 50, 4, 1), mk(2, "slow", huge, 40, 3, 0)}, order)
		if err != nil || len(got) != 2 || got[0].key != want[0] || got[1].key != want[1] {
			t.Errorf("%s: %v, %v; want keys %v", order, got, err, want)
		}
	}
}

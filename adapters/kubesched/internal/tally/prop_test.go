package tally

import (
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/types"
	"pgregory.net/rapid"

	tt "github.com/schedkit/schedkit/adapters/kubesched/internal/tally/tallytest"
)

const (
	ours      = tt.Scheduler
	typeLabel = tt.TypeLabel
)

var t0 = tt.T0

func summarize(j *Job, now time.Time) tt.Summary {
	s := tt.Summary{Attr: j.Attr, Pending: j.Pending, Running: j.Running, ByType: maps.Clone(j.ByType), Unstarted: j.Unstarted}
	if s.ByType == nil {
		s.ByType = map[string]int{}
	}
	if e, ok := j.EarliestStart(now); ok {
		s.Earliest = e.UnixNano()
	}
	if l, ok := j.LatestStart(now); ok {
		s.Latest = l.UnixNano()
	}
	return s
}

// mirror is what a plugin derives through Changes: a copy of every job.
type mirror map[types.UID]tt.Summary

func (m mirror) update(v *View, now time.Time) {
	if _, reset := v.Changes(func(key types.UID, j *Job) {
		if j == nil {
			delete(m, key)
		} else {
			m[key] = summarize(j, now)
		}
	}); reset {
		clear(m)
		v.EachJob(func(key types.UID, j *Job) { m[key] = summarize(j, now) })
	}
}

// propRecount: after every event of a random sequence (tallytest's
// actions: pod adds, updates that change anything, rebinding and job-key
// changes included, resyncs of the same object, deletes, assumptions and
// their end, node adds, relabels and deletes, owner changes), the tally's
// jobs equal a recount from the world, and a mirror kept only through
// Changes equals it too.
func propRecount(t *rapid.T) {
	w := tt.New()
	tl := New(ours, typeLabel, w.MapJob)
	m := mirror{}
	now := t0
	actions := w.Actions(tl)
	actions["tick"] = func(t *rapid.T) {
		now = now.Add(time.Duration(rapid.IntRange(0, 20).Draw(t, "dt")) * time.Second)
		clear(m) // summaries hold times relative to now
		tl.Read(func(v *View) {
			v.EachJob(func(key types.UID, j *Job) { m[key] = summarize(j, now) })
		})
	}
	actions[""] = func(t *rapid.T) {
		want := w.Recount(now)
		got := map[types.UID]tt.Summary{}
		pendingJobs := 0
		var nodes []Node
		tl.Read(func(v *View) {
			for key, j := range v.t.jobs {
				got[key] = summarize(j, now)
			}
			m.update(v, now)
			pendingJobs = v.PendingJobs()
			nodes = v.Nodes()
		})
		var wantNodes []Node
		for _, n := range w.Nodes {
			wantNodes = append(wantNodes, Node{Name: n.Name, Type: n.Labels[typeLabel], Capacity: int(n.Status.Allocatable.Pods().Value())})
		}
		byName := func(a, b Node) int { return strings.Compare(a.Name, b.Name) }
		slices.SortFunc(nodes, byName)
		slices.SortFunc(wantNodes, byName)
		if !slices.Equal(nodes, wantNodes) {
			t.Fatalf("nodes %v, want %v", nodes, wantNodes)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("tally\n%+v\nrecount\n%+v", got, want)
		}
		if !reflect.DeepEqual(map[types.UID]tt.Summary(m), want) {
			t.Fatalf("mirror kept through Changes\n%+v\nrecount\n%+v", m, want)
		}
		n := 0
		for _, s := range want {
			if s.Pending > 0 {
				n++
			}
		}
		if pendingJobs != n {
			t.Fatalf("PendingJobs %d, recount %d", pendingJobs, n)
		}
	}
	t.Repeat(actions)
}

func TestPropRecount(t *testing.T) { rapid.Check(t, propRecount) }

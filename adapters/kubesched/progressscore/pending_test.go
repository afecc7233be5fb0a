package progressscore

import (
	"maps"
	"slices"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/types"
	"pgregory.net/rapid"

	ps "github.com/schedkit/schedkit/progressshare"

	"github.com/schedkit/schedkit/adapters/kubesched/internal/podjob"
	"github.com/schedkit/schedkit/adapters/kubesched/internal/tally"
	tt "github.com/schedkit/schedkit/adapters/kubesched/internal/tally/tallytest"
)

func annotatedRates(j podjob.Job) map[string]float64 { return j.Rates }

// recounted is the JobState of every job with pending pods, and of self,
// recounted from the world pod by pod, as the plugin once computed them on
// every cycle: rates from the job's mapping, running pods by node type,
// LastLaunch the latest start of a running pod or the job's creation.
func recounted(w *tt.World, self podjob.Job, now time.Time) []JobState {
	var out []JobState
	state := func(key types.UID, attr podjob.Job, s tt.Summary) JobState {
		last := attr.Created
		if s.Running > 0 && time.Unix(0, s.Latest).After(last) {
			last = time.Unix(0, s.Latest)
		}
		return JobState{Key: key, Ref: attr.Ref, Created: attr.Created, Rates: annotatedRates(attr),
			Running: s.ByType, Pending: s.Pending, LastLaunch: last}
	}
	all := w.Recount(now)
	for key, s := range all {
		if s.Pending > 0 && key != self.Key {
			out = append(out, state(key, s.Attr, s))
		}
	}
	s := all[self.Key]
	return append(out, state(self.Key, self, s))
}

// propQueue: whatever the events and whenever the plugin reads its tally,
// the scores the queue gives a pod equal Score on Cluster.Jobs of the job
// states recounted from the world (the recount the plugin once ran on
// every cycle), with and without the affinity rule, and the queue skips
// exactly when no recounted job has a rate other than 1.
func propQueue(t *rapid.T) {
	w := tt.New()
	tl := tally.New(tt.Scheduler, tt.TypeLabel, w.MapJob)
	q := newQueue(annotatedRates, tt.T0)
	opt := ps.Options{MaxDelay: rapid.SampledFrom([]float64{0, 10, 60}).Draw(t, "maxDelay")}
	if rapid.Bool().Draw(t, "affinity") {
		opt.AffinityFactor, opt.AffinityBounded = 1.2, rapid.Bool().Draw(t, "bounded")
	}
	now := tt.T0
	actions := w.Actions(tl)
	actions["tick"] = func(t *rapid.T) {
		now = now.Add(time.Duration(rapid.IntRange(0, 20).Draw(t, "dt")) * time.Second)
	}
	actions["read"] = func(t *rapid.T) {
		tl.Read(func(v *tally.View) { _ = q.update(v, opt, now) })
	}
	actions[""] = func(t *rapid.T) {
		if len(w.Pods) == 0 {
			return
		}
		uid := rapid.SampledFrom(slices.Sorted(maps.Keys(w.Pods))).Draw(t, "self pod")
		self := w.MapJob(w.Pods[uid])
		states := recounted(w, self, now)
		var nodes []Node
		for _, n := range w.Nodes {
			nodes = append(nodes, Node{Name: n.Name, Type: n.Labels[tt.TypeLabel], Capacity: int(n.Status.Allocatable.Pods().Value())})
		}
		var (
			got  map[string]int64
			err  error
			skip bool
		)
		tl.Read(func(v *tally.View) {
			if err = q.update(v, opt, now); err != nil {
				return
			}
			skip = !q.anyRated(self.Key, annotatedRates(self))
			byType := make([]int64, len(q.cluster.Types))
			if err = q.scores(byType, self, annotatedRates(self), v.Job(self.Key)); err != nil {
				t.Fatalf("scores: %v", err)
			}
			got = map[string]int64{}
			for i, name := range q.cluster.Types {
				got[name] = byType[i]
			}
		})
		c, cerr := NewCluster(nodes)
		if (err == nil) != (cerr == nil) {
			t.Fatalf("queue's cluster error %v, the recount's %v", err, cerr)
		}
		if err != nil {
			return
		}
		s, err := ps.NewScheduler(c.Slots, opt)
		if err != nil {
			t.Fatal(err)
		}
		jobs, selfIdx := c.Jobs(states, self.Key, now)
		want, err := Score(s, c, jobs, selfIdx)
		if err != nil {
			t.Fatal(err)
		}
		if !equal(got, want) {
			t.Fatalf("queue scores %v, recount %v; recounted jobs (self %d)\n%+v", got, want, selfIdx, jobs)
		}
		anyRated := false
		for _, s := range states {
			anyRated = anyRated || rated(s.Rates)
		}
		if skip == anyRated {
			t.Fatalf("queue skips %v, but a recounted job has a rate other than 1: %v", skip, anyRated)
		}
	}
	t.Repeat(actions)
}

func TestPropQueue(t *testing.T) { rapid.Check(t, propQueue) }

package progressscore

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"pgregory.net/rapid"

	ps "github.com/schedkit/schedkit/progressshare"

	"github.com/schedkit/schedkit/adapters/kubesched/internal/tally"

	"github.com/schedkit/schedkit/adapters/kubesched/internal/podjob"
)

var t0 = time.Date(2026, 7, 1, 12, 0, 0, 0, time.UTC)

func TestValidateArgs(t *testing.T) {
	args, err := DecodeArgs(nil)
	if err != nil || args.NodeTypeLabel != DefaultNodeTypeLabel || args.MaxDelay.Duration != DefaultMaxDelay {
		t.Fatalf("defaults: %+v, %v", args, err)
	}
	args, err = DecodeArgs(&runtime.Unknown{Raw: []byte(`{"nodeTypeLabel":"example.com/gpu","maxDelay":"0s","jobTypes":[{"name":"crypto","rates":{"a100":3}}]}`)})
	if err != nil || args.NodeTypeLabel != "example.com/gpu" || args.MaxDelay.Duration != 0 || args.JobTypes[0].Rates["a100"] != 3 {
		t.Fatalf("decoded %+v, %v", args, err)
	}
	bad := &Args{
		NodeTypeLabel:  "not a label",
		AffinityFactor: 0.5,
		MaxDelay:       &metav1.Duration{Duration: -time.Second},
		JobTypes: []JobType{
			{Name: "crypto", Rates: map[string]float64{"a100": 0, "": 2}},
			{Name: "crypto"},
		},
	}
	if err := (&Args{NodeTypeLabel: DefaultNodeTypeLabel, MaxDelay: &metav1.Duration{}, AffinityBounded: true}).Validate(nil); err == nil ||
		!strings.Contains(err.Error(), "affinityBounded: Invalid value: true: needs affinityFactor ≥ 1") {
		t.Errorf("affinityBounded without a factor: %v", err)
	}
	err = bad.Validate(nil)
	if err == nil {
		t.Fatal("bad args accepted")
	}
	for _, want := range []string{
		`nodeTypeLabel: Invalid value: "not a label"`,
		"maxDelay: Invalid value",
		"jobTypes[0].rates[a100]: Invalid value: 0",
		"jobTypes[0].rates[]: Invalid value",
		`jobTypes[1].name: Duplicate value: "crypto"`,
		"affinityFactor: Invalid value: 0.5",
		"jobTypes[1].rates: Required value",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not report %q", err, want)
		}
	}
}

// gpuCluster is the scenario's cluster: two gpu-a100 and two cpu-standard
// nodes of 110 pods each.
func gpuCluster(t *testing.T) (Cluster, *ps.Scheduler) {
	t.Helper()
	c, err := NewCluster([]Node{
		{Name: "gpu-2", Type: "gpu-a100", Capacity: 110}, {Name: "cpu-1", Type: "cpu-standard", Capacity: 110}, {Name: "gpu-1", Type: "gpu-a100", Capacity: 110}, {Name: "cpu-2", Type: "cpu-standard", Capacity: 110},
	})
	if err != nil {
		t.Fatal(err)
	}
	s, err := ps.NewScheduler(c.Slots, ps.Options{MaxDelay: 60})
	if err != nil {
		t.Fatal(err)
	}
	return c, s
}

// TestScore works the scenario's first decisions by hand. Crypto runs 3
// times faster on gpu-a100: Pref on a CPU slot is 220·1/(220·3 + 220·1)
// = 0.25, on a GPU slot 1. Sort has no rates: Pref 1 everywhere. Both
// just arrived (delay 0), so a job takes only a slot where 1 − Pref ≤ 0.
func TestScore(t *testing.T) {
	c, s := gpuCluster(t)
	crypto := JobState{Key: "crypto", Ref: "Job ns/crypto", Created: t0, Rates: map[string]float64{"gpu-a100": 3}, Pending: 2, LastLaunch: t0, Running: map[string]int{}}
	sort := JobState{Key: "sort", Ref: "Job ns/sort", Created: t0, Pending: 2, LastLaunch: t0, Running: map[string]int{}}

	// A sort pod: on equal shares crypto comes first and takes GPU slots
	// (Pref 1), declines CPU slots (1 − 0.25 > 0), which sort then takes.
	jobs, self := c.Jobs([]JobState{sort, crypto}, "sort", t0)
	got, err := Score(s, c, jobs, self)
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]int64{"gpu-a100": 50, "cpu-standard": 100}; !equal(got, want) {
		t.Errorf("sort pod: %v, want %v", got, want)
	}
	// A crypto pod: sort comes first and takes any slot; crypto keeps its
	// preference: 50·1 on GPU, 50·0.25 → 13 on CPU.
	jobs, self = c.Jobs([]JobState{sort, crypto}, "crypto", t0)
	if got, _ := Score(s, c, jobs, self); !equal(got, map[string]int64{"gpu-a100": 50, "cpu-standard": 13}) {
		t.Errorf("crypto pod: %v", got)
	}
	// Once sort runs a pod, crypto (progress share 0) is first: GPU slots
	// are its own (50 + 50).
	sort.Running = map[string]int{"cpu-standard": 1}
	jobs, self = c.Jobs([]JobState{sort, crypto}, "crypto", t0)
	if got, _ := Score(s, c, jobs, self); !equal(got, map[string]int64{"gpu-a100": 100, "cpu-standard": 13}) {
		t.Errorf("crypto pod behind sort: %v", got)
	}
	// After waiting 45 s of the 60 s max delay, crypto accepts CPU slots
	// (1 − 0.25 ≤ 45/60).
	crypto.LastLaunch = t0.Add(-45 * time.Second)
	jobs, self = c.Jobs([]JobState{sort, crypto}, "crypto", t0)
	if got, _ := Score(s, c, jobs, self); !equal(got, map[string]int64{"gpu-a100": 100, "cpu-standard": 63}) {
		t.Errorf("crypto pod after 45 s: %v", got)
	}
}

// TestScoreAffinity: sort is behind (crypto already runs a GPU pod), so
// Algorithm 2 offers every node type to sort first and sort, equally fast
// everywhere, takes it: a sort pod scores 100 on both types. With the
// affinity rule at factor 1.2, crypto's relative rate on gpu-a100,
// 3·440/(220·3 + 220·1) = 1.5, is at least 1.2 times sort's 1, so the GPU
// type goes to crypto and the sort pod scores 50 there.
func TestScoreAffinity(t *testing.T) {
	c, _ := gpuCluster(t)
	crypto := JobState{Key: "crypto", Ref: "Job ns/crypto", Created: t0, Rates: map[string]float64{"gpu-a100": 3}, Pending: 1, LastLaunch: t0,
		Running: map[string]int{"gpu-a100": 1}}
	sort := JobState{Key: "sort", Ref: "Job ns/sort", Created: t0, Pending: 2, LastLaunch: t0, Running: map[string]int{}}
	for _, tt := range []struct {
		args Args
		want map[string]int64
	}{
		{Args{MaxDelay: &metav1.Duration{Duration: time.Minute}}, map[string]int64{"gpu-a100": 100, "cpu-standard": 100}},
		{Args{MaxDelay: &metav1.Duration{Duration: time.Minute}, AffinityFactor: 1.2}, map[string]int64{"gpu-a100": 50, "cpu-standard": 100}},
		{Args{MaxDelay: &metav1.Duration{Duration: time.Minute}, AffinityFactor: 1.6}, map[string]int64{"gpu-a100": 100, "cpu-standard": 100}},
	} {
		s, err := ps.NewScheduler(c.Slots, tt.args.options())
		if err != nil {
			t.Fatal(err)
		}
		jobs, self := c.Jobs([]JobState{sort, crypto}, "sort", t0)
		got, err := Score(s, c, jobs, self)
		if err != nil || !equal(got, tt.want) {
			t.Errorf("affinity factor %v: sort pod scores %v (%v), want %v", tt.args.AffinityFactor, got, err, tt.want)
		}
	}
}

func equal(a, b map[string]int64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func genNodes(t *rapid.T) []Node {
	n := rapid.IntRange(1, 8).Draw(t, "nodes")
	out := make([]Node, n)
	for i := range out {
		out[i] = Node{
			Name:     fmt.Sprintf("n%d", i),
			Type:     rapid.SampledFrom([]string{"", "a100", "t4", "cpu"}).Draw(t, "type"),
			Capacity: rapid.IntRange(0, 4).Draw(t, "capacity"),
		}
	}
	return out
}

func genJobs(t *rapid.T) []JobState {
	n := rapid.IntRange(1, 5).Draw(t, "jobs")
	out := make([]JobState, n)
	for i := range out {
		rates := map[string]float64{}
		for _, ty := range []string{"a100", "t4", "cpu"} {
			if rapid.Bool().Draw(t, "rated") {
				rates[ty] = rapid.Float64Range(0.1, 10).Draw(t, "rate")
			}
		}
		running := map[string]int{}
		for _, ty := range []string{"", "a100", "t4", "cpu"} {
			running[ty] = rapid.IntRange(0, 6).Draw(t, "running")
		}
		out[i] = JobState{
			Key: types.UID(fmt.Sprintf("j%d", i)), Ref: fmt.Sprintf("Job ns/j%d", i),
			Created: t0.Add(-time.Duration(rapid.IntRange(0, 3).Draw(t, "created")) * time.Second),
			Rates:   rates, Running: running,
			Pending:    rapid.IntRange(1, 3).Draw(t, "pending"),
			LastLaunch: t0.Add(-time.Duration(rapid.IntRange(-10, 120).Draw(t, "delay")) * time.Second),
		}
	}
	return out
}

// propMapping: every node maps, by name, to its own type; progressshare
// accepts every mapped cluster and job set; the pod's own job is last;
// running counts fit the slots; scores lie in [0, 100], at least 50 where
// Algorithm 2 would launch the job and at most 50 where it would not, 50
// or 100 on the job's fastest type (Pref 1); and neither node nor job
// order changes a score.
func propMapping(t *rapid.T) {
	nodes := genNodes(t)
	c, err := NewCluster(nodes)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range nodes {
		if ti, ok := c.NodeType[n.Name]; !ok || c.Types[ti] != n.Type {
			t.Fatalf("node %s of type %q maps to type index %d (%v) of %v", n.Name, n.Type, ti, ok, c.Types)
		}
	}
	s, err := ps.NewScheduler(c.Slots, ps.Options{MaxDelay: float64(rapid.IntRange(0, 60).Draw(t, "maxDelay"))})
	if err != nil {
		t.Fatalf("progressshare rejects the mapped cluster: %v", err)
	}
	jobs := genJobs(t)
	self := jobs[rapid.IntRange(0, len(jobs)-1).Draw(t, "self")].Key
	psJobs, idx := c.Jobs(jobs, self, t0)
	if idx != len(psJobs)-1 {
		t.Fatalf("self at %d of %d", idx, len(psJobs))
	}
	slots := c.SlotsOfType()
	for _, j := range psJobs {
		for ty, r := range j.Running {
			if r > slots[ty] {
				t.Fatalf("running %d > %d slots of type %s", r, slots[ty], c.Types[ty])
			}
		}
	}
	if err := s.Validate(psJobs, 0); err != nil {
		t.Fatalf("progressshare rejects the mapped jobs: %v", err)
	}
	scores, err := Score(s, c, psJobs, idx)
	if err != nil {
		t.Fatal(err)
	}
	best := 0.0
	for _, r := range psJobs[idx].Rates {
		best = max(best, r)
	}
	for ty, v := range scores {
		if v < 0 || v > 100 {
			t.Fatalf("score %d for %q out of [0, 100]", v, ty)
		}
		d, err := s.PickProgressShare(c.First[ty], psJobs, 0)
		if err != nil {
			t.Fatal(err)
		}
		launch := d.Launch && d.Job == idx
		if (launch && v < 50) || (!launch && v > 50) {
			t.Fatalf("type %q: score %d, but Algorithm 2 launches the job there: %v", ty, v, launch)
		}
		ti, _ := slices.BinarySearch(c.Types, ty)
		if psJobs[idx].Rates[ti] == best && v != 50 && v != 100 {
			t.Fatalf("type %q is the job's fastest (Pref 1) but scores %d", ty, v)
		}
	}

	c2, _ := NewCluster(rapid.Permutation(nodes).Draw(t, "nodes shuffled"))
	s2, _ := ps.NewScheduler(c2.Slots, s.Options())
	psJobs2, idx2 := c2.Jobs(rapid.Permutation(jobs).Draw(t, "jobs shuffled"), self, t0)
	scores2, err := Score(s2, c2, psJobs2, idx2)
	if err != nil || !equal(scores, scores2) {
		t.Fatalf("order changed the scores: %v vs %v (%v)", scores, scores2, err)
	}
	if !slices.Equal(c.Types, c2.Types) {
		t.Fatalf("types %v vs %v", c.Types, c2.Types)
	}
}

func TestPropMapping(t *testing.T) { rapid.Check(t, propMapping) }

// BenchmarkScore is one scheduling cycle's ProgressShare work for 100
// pending jobs (10 pending pods each, 0–99 running) on 1,000 nodes of two
// types (110,000 slots): "mapping" maps job states to progressshare's
// input with Cluster.Jobs and scores them (the pod pass that counted the
// states is not included); "queue" is the plugin's cycle on its tally: one
// pod assumed or forgotten (a Reserve or Unreserve since the last cycle),
// the queue updated, its input written and scored.
func BenchmarkScore(b *testing.B) {
	nodes := make([]Node, 1000)
	for i := range nodes {
		nodes[i] = Node{Name: fmt.Sprintf("n%04d", i), Type: "cpu", Capacity: 110}
		if i%4 == 0 {
			nodes[i].Type = "a100"
		}
	}
	c, err := NewCluster(nodes)
	if err != nil {
		b.Fatal(err)
	}
	opt := ps.Options{MaxDelay: 60}
	s, err := ps.NewScheduler(c.Slots, opt)
	if err != nil {
		b.Fatal(err)
	}
	var jobs []JobState
	for i := range 100 {
		jobs = append(jobs, JobState{Key: types.UID(fmt.Sprint(i)), Ref: fmt.Sprint(i), Created: t0, Rates: map[string]float64{"a100": float64(1 + i%3)},
			Running: map[string]int{"cpu": i, "a100": i % 7}, Pending: 10, LastLaunch: t0})
	}
	b.Run("mapping", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			psJobs, self := c.Jobs(jobs, "7", t0)
			if _, err := Score(s, c, psJobs, self); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("queue", func(b *testing.B) {
		tl, self := benchTally(nodes, jobs)
		q := newQueue(func(j podjob.Job) map[string]float64 { return j.Rates }, t0)
		dst := make([]int64, len(c.Types))
		selfRates := map[string]float64{"a100": 2}
		tl.Read(func(v *tally.View) { _ = q.update(v, opt, t0) }) // the cluster, mapped once
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			if i++; i%2 == 0 {
				tl.Assume("7-pending-0", "n0001")
			} else {
				tl.Forget("7-pending-0")
			}
			var err error
			tl.Read(func(v *tally.View) {
				if err = q.update(v, opt, t0); err == nil {
					err = q.scores(dst, self, selfRates, v.Job(self.Key))
				}
			})
			if err != nil {
				b.Fatal(err)
			}
		}
	})
}

// benchTally returns a tally holding the nodes and the jobs' pods (each
// job's pods carry its rates; running pods started at t0 on the first
// nodes of their type), and the job of key "7".
func benchTally(nodes []Node, jobs []JobState) (*tally.Tally, podjob.Job) {
	const label = "node.kubernetes.io/instance-type"
	tl := tally.New("schedkit-scheduler", label, func(p *v1.Pod) podjob.Job { return podjob.Of(p, nil) })
	byType := map[string][]string{}
	for _, n := range nodes {
		tl.SetNode(&v1.Node{ObjectMeta: metav1.ObjectMeta{Name: n.Name, Labels: map[string]string{label: n.Type}},
			Status: v1.NodeStatus{Allocatable: v1.ResourceList{v1.ResourcePods: *resource.NewQuantity(int64(n.Capacity), resource.DecimalSI)}}})
		byType[n.Type] = append(byType[n.Type], n.Name)
	}
	var self podjob.Job
	for _, j := range jobs {
		owner := metav1.OwnerReference{APIVersion: "batch/v1", Kind: "Job", Name: j.Ref, UID: j.Key, Controller: new(true)}
		pod := func(name, node string) *v1.Pod {
			p := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: name, UID: types.UID(name),
				CreationTimestamp: metav1.NewTime(t0), OwnerReferences: []metav1.OwnerReference{owner},
				Annotations: map[string]string{"schedkit.io/rates": fmt.Sprintf("a100=%v", j.Rates["a100"])}},
				Spec: v1.PodSpec{SchedulerName: "schedkit-scheduler", NodeName: node}}
			if node != "" {
				p.Status.StartTime = new(metav1.NewTime(t0))
			}
			return p
		}
		for k := range j.Pending {
			p := pod(fmt.Sprintf("%s-pending-%d", j.Key, k), "")
			tl.Set(p)
			if j.Key == "7" && k == 0 {
				self = podjob.Of(p, nil)
			}
		}
		for t, n := range j.Running {
			for k := range n {
				tl.Set(pod(fmt.Sprintf("%s-%s-%d", j.Key, t, k), byType[t][k%len(byType[t])]))
			}
		}
	}
	return tl, self
}

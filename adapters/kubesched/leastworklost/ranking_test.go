package leastworklost

import (
	"fmt"
	"strings"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework/preemption"
	"k8s.io/utils/ptr"
	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/preempt"
)

var t0 = time.Date(2026, 7, 1, 12, 0, 0, 0, time.UTC)

func TestValidateArgs(t *testing.T) {
	p := func(v int32) *int32 { return &v }
	tests := []struct {
		name string
		args Args
		want []string
	}{
		{"defaults", Args{p(100), p(100)}, nil},
		{"kube's defaults", Args{p(10), p(100)}, nil},
		{"out of range", Args{p(101), p(-1)}, []string{"minCandidateNodesPercentage: Invalid value: 101", "minCandidateNodesAbsolute: Invalid value: -1"}},
		{"both zero", Args{p(0), p(0)}, []string{"cannot be zero at the same time as minCandidateNodesAbsolute", "cannot be zero at the same time as minCandidateNodesPercentage"}},
		{"missing", Args{}, []string{"minCandidateNodesPercentage: Required", "minCandidateNodesAbsolute: Required"}},
	}
	for _, tt := range tests {
		err := (&tt.args).Validate(nil)
		if (err == nil) != (tt.want == nil) {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q does not report %q", tt.name, err, w)
			}
		}
	}
	args, err := DecodeArgs(&runtime.Unknown{Raw: []byte(`{"minCandidateNodesPercentage": 20}`)})
	if err != nil || *args.MinCandidateNodesPercentage != 20 || *args.MinCandidateNodesAbsolute != DefaultMinCandidateNodesAbsolute {
		t.Errorf("DecodeArgs = %+v, %v", args, err)
	}
}

func TestNumCandidates(t *testing.T) {
	p := func(v int32) *int32 { return &v }
	for _, tt := range []struct {
		pct, abs, n, want int32
	}{
		{100, 100, 7, 7}, {10, 100, 5000, 500}, {10, 100, 500, 100}, {0, 3, 50, 3}, {50, 0, 9, 4}, {10, 100, 20, 20},
	} {
		a := Args{p(tt.pct), p(tt.abs)}
		if got := a.NumCandidates(tt.n); got != tt.want {
			t.Errorf("%d%%, %d absolute, %d nodes: %d candidates, want %d", tt.pct, tt.abs, tt.n, got, tt.want)
		}
	}
}

func mkPod(name string, owner string, age time.Duration, started bool) *v1.Pod {
	p := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "ns", UID: types.UID("uid-" + name)}}
	if owner != "" {
		p.OwnerReferences = []metav1.OwnerReference{{APIVersion: "batch/v1", Kind: "Job", Name: owner, UID: types.UID("job-" + owner), Controller: ptr.To(true)}}
	}
	if started {
		p.Status.StartTime = ptr.To(metav1.NewTime(t0.Add(-age)))
	}
	return p
}

func TestRanks(t *testing.T) {
	pods := []*v1.Pod{
		mkPod("old", "j1", time.Hour, true),
		mkPod("young", "j2", 2*time.Minute, true),
		mkPod("pending-start", "j1", 0, false), // bound, not started: 0 s
		mkPod("tie-b", "j2", 10*time.Minute, true),
		mkPod("tie-a", "j2", 10*time.Minute, true),
	}
	var ws preempt.Workspace
	r := ranksAt0(t, pods, &ws)
	// Newest first; ties in start time by job, then pod (name order).
	order := []string{"pending-start", "young", "tie-a", "tie-b", "old"}
	lost := map[string]float64{"pending-start": 0, "young": 120, "tie-a": 600, "tie-b": 600, "old": 3600}
	for i, name := range order {
		got := r[types.UID("uid-"+name)]
		if got.Order != i || got.WorkLost != lost[name] {
			t.Errorf("%s: rank %+v, want order %d work lost %v", name, got, i, lost[name])
		}
	}
}

// ranksAt0 is Ranks at t0 on ws; an error fails t.
func ranksAt0(t interface {
	Helper()
	Fatal(...any)
}, pods []*v1.Pod, ws *preempt.Workspace) map[types.UID]Rank {
	t.Helper()
	r, err := Ranks(pods, t0, ws)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func genPods(t *rapid.T) []*v1.Pod {
	n := rapid.IntRange(0, 12).Draw(t, "pods")
	out := make([]*v1.Pod, n)
	for i := range out {
		owner := rapid.SampledFrom([]string{"", "j1", "j2", "j3"}).Draw(t, "owner")
		age := time.Duration(rapid.IntRange(-5, 120).Draw(t, "age")) * time.Minute // negative: kubelet clock ahead
		out[i] = mkPod(fmt.Sprintf("p%02d", i), owner, age, rapid.IntRange(0, 5).Draw(t, "started") > 0)
	}
	return out
}

// propRanks: every pod gets a distinct rank; a pod that started later comes
// first; work lost is its run time, never negative; the order pods come in
// changes nothing.
func propRanks(t *rapid.T) {
	pods := genPods(t)
	var ws preempt.Workspace
	r := ranksAt0(t, pods, &ws)
	if len(r) != len(pods) {
		t.Fatalf("%d ranks for %d pods", len(r), len(pods))
	}
	seen := map[int]bool{}
	for _, p := range pods {
		got := r[p.UID]
		if seen[got.Order] || got.Order < 0 || got.Order >= len(pods) {
			t.Fatalf("rank %d of %s repeated or out of range", got.Order, p.Name)
		}
		seen[got.Order] = true
		age := 0.0
		if p.Status.StartTime != nil {
			age = max(0, t0.Sub(p.Status.StartTime.Time).Seconds())
		}
		if got.WorkLost != age {
			t.Fatalf("%s: work lost %v, want %v", p.Name, got.WorkLost, age)
		}
	}
	for _, a := range pods {
		for _, b := range pods {
			if r[a.UID].WorkLost < r[b.UID].WorkLost && r[a.UID].Order > r[b.UID].Order {
				t.Fatalf("%s (%v s) ranked after %s (%v s): the younger must go first", a.Name, r[a.UID].WorkLost, b.Name, r[b.UID].WorkLost)
			}
		}
	}
	again := ranksAt0(t, rapid.Permutation(pods).Draw(t, "shuffled"), &ws)
	for uid, rank := range r {
		if again[uid] != rank {
			t.Fatalf("input order changed %s's rank: %+v vs %+v", uid, rank, again[uid])
		}
	}
}

func TestPropRanks(t *testing.T) { rapid.Check(t, propRanks) }

// propRanksSubset: ranking any subset of the pods (one node's) orders them
// as ranking all of them does, and gives each the same work lost.
func propRanksSubset(t *rapid.T) {
	pods := genPods(t)
	var ws preempt.Workspace
	all := ranksAt0(t, pods, &ws)
	var sub []*v1.Pod
	for i, p := range pods {
		if rapid.Bool().Draw(t, fmt.Sprintf("on node %d", i)) {
			sub = append(sub, p)
		}
	}
	part := ranksAt0(t, sub, &ws)
	for _, a := range sub {
		if part[a.UID].WorkLost != all[a.UID].WorkLost {
			t.Fatalf("%s: work lost %v alone, %v among all", a.Name, part[a.UID].WorkLost, all[a.UID].WorkLost)
		}
		for _, b := range sub {
			if (part[a.UID].Order < part[b.UID].Order) != (all[a.UID].Order < all[b.UID].Order) {
				t.Fatalf("%s and %s: order %d, %d in the subset but %d, %d among all", a.Name, b.Name,
					part[a.UID].Order, part[b.UID].Order, all[a.UID].Order, all[b.UID].Order)
			}
		}
	}
}

func TestPropRanksSubset(t *testing.T) { rapid.Check(t, propRanksSubset) }

func victim(t interface {
	Helper()
	Fatal(...any)
}, p *v1.Pod, prio int32) preemption.Victim {
	t.Helper()
	p.Spec.Priority = ptr.To(prio)
	v, err := preemption.NewVictim([]fwk.PodInfo{&framework.PodInfo{Pod: p}}, prio, fwk.PodKeyType)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestMoreImportant: priority first (kube's rule), then preempt's order:
// the older pod is the more important.
func TestMoreImportant(t *testing.T) {
	pl := &LeastWorkLostPreemption{}
	now := t0
	pl.now.Store(&now)
	old, young := mkPod("old", "j", time.Hour, true), mkPod("young", "j", time.Minute, true)
	vo, vy := victim(t, old, 10), victim(t, young, 10)
	if !pl.moreImportant(vo, vy) || pl.moreImportant(vy, vo) {
		t.Errorf("equal priority: the older pod must be the more important")
	}
	if pl.moreImportant(vo, vo) {
		t.Errorf("a pod is not more important than itself")
	}
	vyHigh := victim(t, mkPod("young", "j", time.Minute, true), 20)
	if !pl.moreImportant(vyHigh, vo) || pl.moreImportant(vo, vyHigh) {
		t.Errorf("a higher priority must be the more important, whatever its age")
	}
	// Outside a preemption kube's order applies, which also keeps older
	// pods.
	pl.now.Store(nil)
	if !pl.moreImportant(vo, vy) {
		t.Errorf("fallback: the older pod must be the more important")
	}
}

// propMoreImportant: among pods of one priority, moreImportant, which
// compares two pods at a time, orders any two as Ranks (preempt.GP over
// all of them) does: the one GP takes later is the more important. So the
// dry runs choose the victims that ranking each node's pods with GP chose.
func propMoreImportant(t *rapid.T) {
	pods := genPods(t)
	var ws preempt.Workspace
	r := ranksAt0(t, pods, &ws)
	pl := &LeastWorkLostPreemption{}
	now := t0
	pl.now.Store(&now)
	vs := make([]preemption.Victim, len(pods))
	for i, p := range pods {
		vs[i] = victim(t, p, 0)
	}
	for i, a := range pods {
		for j, b := range pods {
			if got, want := pl.moreImportant(vs[i], vs[j]), r[a.UID].Order > r[b.UID].Order; got != want {
				t.Fatalf("moreImportant(%s, %s) = %v, GP's ranks %d and %d", a.Name, b.Name, got, r[a.UID].Order, r[b.UID].Order)
			}
		}
		if w := workLost(a, t0); w != r[a.UID].WorkLost {
			t.Fatalf("%s: work lost %v, GP's %v", a.Name, w, r[a.UID].WorkLost)
		}
	}
}

func TestPropMoreImportant(t *testing.T) { rapid.Check(t, propMoreImportant) }

func TestMillis(t *testing.T) {
	for s, want := range map[float64]int64{0: 0, 1.5: 1500, 3600: 3_600_000, 1e300: 1<<63 - 1} {
		if got := millis(s); got != want {
			t.Errorf("millis(%v) = %d, want %d", s, got, want)
		}
	}
}

// BenchmarkRanks ranks 1,000 pods of 100 jobs at once: an upper bound on
// what the dry runs of one preemption rank, node by node, on a cluster of
// 1,000 lower-priority pods.
func BenchmarkRanks(b *testing.B) {
	pods := make([]*v1.Pod, 1000)
	for i := range pods {
		pods[i] = mkPod(fmt.Sprintf("p%04d", i), fmt.Sprintf("j%02d", i%100), time.Duration(i*7%600)*time.Second, true)
	}
	var ws preempt.Workspace
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Ranks(pods, t0, &ws); err != nil {
			b.Fatal(err)
		}
	}
}

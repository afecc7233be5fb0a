package leastworklost

import (
	"context"
	"fmt"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework/preemption"
	schedmetrics "k8s.io/kubernetes/pkg/scheduler/metrics"
	"k8s.io/utils/ptr"
	"pgregory.net/rapid"
)

// preemption is one PostFilter's outcome as the bound must keep it.
type preemptionOutcome struct {
	code    fwk.Code
	node    string
	victims []string
	// dryRuns and skipped are the nodes dry-run (candidates found) and
	// the nodes skipped by their bound.
	dryRuns, skipped int
}

// preemptOnce runs LeastWorkLostPreemption's PostFilter once for c's
// preemptor, on a fresh framework over c, every node a candidate
// (minCandidateNodesPercentage 100), with the bound on or off.
func preemptOnce(t testing.TB, c preemptionCluster, bound bool) preemptionOutcome {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	f, state := c.handle(t, ctx)
	pl := buildOn(t, ctx, f, 100)
	pl.unbounded = !bound
	r, s := pl.PostFilter(ctx, state, c.preemptor, c.statuses)
	return outcomeOf(pl, state, c.preemptor, r, s)
}

// TestPropBoundKeepsChoice: on random clusters (nodes of several sizes and
// pod capacities; pods of priorities below, at and above the preemptor's,
// of various CPU and memory requests, started at repeated times or not
// at all), the bound changes neither the chosen node nor its victims, and
// dry-runs no more nodes.
func TestPropBoundKeepsChoice(t *testing.T) {
	schedmetrics.Register()
	skipping := 0
	rapid.Check(t, func(rt *rapid.T) {
		c := genPreemptionCluster(rt)
		with, without := preemptOnce(t, c, true), preemptOnce(t, c, false)
		if with.skipped > 0 {
			skipping++
		}
		if with.code != without.code || with.node != without.node || fmt.Sprint(with.victims) != fmt.Sprint(without.victims) {
			rt.Fatalf("bound changed the preemption: with %+v, without %+v", with, without)
		}
		if without.skipped != 0 || with.dryRuns > without.dryRuns {
			rt.Fatalf("dry runs: with the bound %+v, without %+v", with, without)
		}
	})
	if skipping == 0 {
		t.Error("no cluster had a node skipped by its bound: the property tested nothing")
	}
	t.Logf("%d clusters had nodes skipped", skipping)
}

func genPreemptionCluster(t *rapid.T) preemptionCluster {
	quantity := func(m int64) resource.Quantity { return *resource.NewMilliQuantity(m, resource.DecimalSI) }
	var c preemptionCluster
	byNode := map[string]*fwk.Status{}
	nodes := rapid.IntRange(1, 8).Draw(t, "nodes")
	for i := range nodes {
		name := fmt.Sprintf("node-%d", rapid.IntRange(0, 99).Draw(t, "nodeName"))
		if _, dup := byNode[name]; dup {
			continue
		}
		alloc := v1.ResourceList{
			v1.ResourceCPU:    quantity(rapid.SampledFrom([]int64{1000, 2000, 4000}).Draw(t, "nodeCPU")),
			v1.ResourceMemory: resource.MustParse(rapid.SampledFrom([]string{"2Gi", "8Gi"}).Draw(t, "nodeMemory")),
			v1.ResourcePods:   resource.MustParse(rapid.SampledFrom([]string{"2", "4", "110"}).Draw(t, "nodePods")),
		}
		c.nodes = append(c.nodes, &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: name}, Status: v1.NodeStatus{Capacity: alloc, Allocatable: alloc}})
		byNode[name] = fwk.NewStatus(fwk.Unschedulable, "Insufficient cpu")
		for j := range rapid.IntRange(0, 5).Draw(t, "pods") {
			p := fmt.Sprintf("p-%d-%d", i, j)
			pod := &v1.Pod{
				ObjectMeta: metav1.ObjectMeta{Name: p, Namespace: "ns", UID: types.UID(p)},
				Spec: v1.PodSpec{NodeName: name, Priority: ptr.To(rapid.SampledFrom([]int32{0, 0, 1, 5, 9}).Draw(t, "priority")),
					Containers: []v1.Container{{Name: "c", Resources: v1.ResourceRequirements{Requests: v1.ResourceList{
						v1.ResourceCPU:    quantity(rapid.SampledFrom([]int64{0, 100, 500, 900, 1500}).Draw(t, "cpu")),
						v1.ResourceMemory: resource.MustParse(rapid.SampledFrom([]string{"0", "256Mi", "1Gi", "3Gi"}).Draw(t, "memory")),
					}}}}},
				Status: v1.PodStatus{Phase: v1.PodRunning},
			}
			if age := rapid.IntRange(-1, 4).Draw(t, "age"); age >= 0 {
				pod.Status.StartTime = ptr.To(metav1.NewTime(t0.Add(-time.Duration(age*age*30) * time.Second)))
			}
			c.pods = append(c.pods, pod)
		}
	}
	for i := range rapid.IntRange(0, 3).Draw(t, "nominated") {
		if len(c.nodes) == 0 {
			break
		}
		p := fmt.Sprintf("nominated-%d", i)
		c.nominated = append(c.nominated, &v1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: p, Namespace: "ns", UID: types.UID(p)},
			Spec: v1.PodSpec{Priority: ptr.To(rapid.SampledFrom([]int32{0, 5, 9}).Draw(t, "nominatedPriority")),
				Containers: []v1.Container{{Name: "c", Resources: v1.ResourceRequirements{Requests: v1.ResourceList{
					v1.ResourceCPU: quantity(rapid.SampledFrom([]int64{0, 500, 1500}).Draw(t, "nominatedCPU")),
				}}}}},
			Status: v1.PodStatus{Phase: v1.PodPending, NominatedNodeName: rapid.SampledFrom(c.nodes).Draw(t, "nominatedNode").Name},
		})
	}
	c.preemptor = &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "high", Namespace: "ns", UID: "high"},
		Spec: v1.PodSpec{Priority: ptr.To[int32](5), Containers: []v1.Container{{Name: "c", Resources: v1.ResourceRequirements{Requests: v1.ResourceList{
			v1.ResourceCPU:    quantity(rapid.SampledFrom([]int64{0, 500, 1000, 2000, 4000}).Draw(t, "preemptorCPU")),
			v1.ResourceMemory: resource.MustParse(rapid.SampledFrom([]string{"0", "1Gi", "4Gi"}).Draw(t, "preemptorMemory")),
		}}}}},
	}
	c.statuses = framework.NewNodeToStatus(byNode, fwk.NewStatus(fwk.UnschedulableAndUnresolvable))
	return c
}

// TestBoundSkipsDryRuns: in the scheduler_perf Preemption shape (every node
// of 4 CPUs full with four 0.9-CPU pods, a 3-CPU preemptor: three victims
// anywhere), the bound leaves most of 500 nodes without a dry run, with the
// same choice: when the pods' run times differ; when no pod has a start
// time (run time 0, the harness's pods: every node loses 0 s and the name
// decides); and when earlier preemptors of the same priority are
// nominated to the first eight nodes, whose victims have left (one
// 0.9-CPU pod left beside a nominated 3-CPU pod: no room there, which the
// bound sees only by counting the nominated pods).
func TestBoundSkipsDryRuns(t *testing.T) {
	schedmetrics.Register()
	for _, tc := range []string{"started", "not started", "nominated"} {
		t.Run(tc, func(t *testing.T) {
			c := newPreemptionCluster(500)
			if tc != "started" {
				c.unstarted()
			}
			if tc == "nominated" {
				c.nominateEarlier(8)
			}
			with, without := preemptOnce(t, c, true), preemptOnce(t, c, false)
			if with.code != fwk.Success || with.node != without.node || fmt.Sprint(with.victims) != fmt.Sprint(without.victims) {
				t.Fatalf("with the bound %+v, without %+v", with, without)
			}
			want := 500
			if tc == "nominated" {
				want = 492 // the eight nominated nodes are no candidates
			}
			if len(with.victims) != 3 || without.dryRuns != want || with.dryRuns > 2 {
				t.Errorf("victims %v, dry runs %d with the bound (%d skipped), %d without; want 3 victims and at most 2 dry runs against %d",
					with.victims, with.dryRuns, with.skipped, without.dryRuns, want)
			}
			t.Logf("node %s, dry runs %d with the bound, %d without", with.node, with.dryRuns, without.dryRuns)
		})
	}
}

// TestLowerKey works the bound out by hand on one node of 4 CPUs and
// 8 GiB holding pods a (priority 0, 1 CPU, run 300 s), b (0, 1 CPU, 100 s),
// c (0, 0.5 CPU, 60 s), d (1, 1.5 CPU, 10 s) and e (9, 0 CPU, 5 s).
func TestLowerKey(t *testing.T) {
	node := &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n"}, Status: v1.NodeStatus{Allocatable: v1.ResourceList{
		v1.ResourceCPU: resource.MustParse("4"), v1.ResourceMemory: resource.MustParse("8Gi"), v1.ResourcePods: resource.MustParse("110")}}}
	pod := func(name string, prio int32, milliCPU int64, ran time.Duration) *v1.Pod {
		return &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "ns", UID: types.UID(name)},
			Spec: v1.PodSpec{NodeName: "n", Priority: ptr.To(prio), Containers: []v1.Container{{Name: "c", Resources: v1.ResourceRequirements{
				Requests: v1.ResourceList{v1.ResourceCPU: *resource.NewMilliQuantity(milliCPU, resource.DecimalSI)}}}}},
			Status: v1.PodStatus{StartTime: ptr.To(metav1.NewTime(t0.Add(-ran)))}}
	}
	info := framework.NewNodeInfo(pod("a", 0, 1000, 300*time.Second), pod("b", 0, 1000, 100*time.Second),
		pod("c", 0, 500, 60*time.Second), pod("d", 1, 1500, 10*time.Second), pod("e", 9, 0, 5*time.Second))
	info.SetNode(node)
	var victims []*preemption.DomainVictim
	for _, pi := range info.GetPods() {
		victims = append(victims, &preemption.DomainVictim{Victim: preemption.NewPodVictim(pi, nil, nil)})
	}
	// Free CPU: 4000 − 4000 = 0 millicores.
	for _, tt := range []struct {
		name    string
		request podRequest
		want    nodeKey
	}{
		// Without NodeResourcesFit's request: one victim at least, of
		// priority 0, the youngest of those, c, ran 60 s.
		{"no request", nil, nodeKey{highest: 0, workLost: 59_999, victims: 1, node: "n"}},
		// 0.5 CPU: one pod.
		{"500m", request{cpu: 500}, nodeKey{highest: 0, workLost: 59_999, victims: 1, node: "n"}},
		// 2 CPUs: d (1.5) + a or b (1): two pods; the two youngest of
		// priority 0 are c and b, 160 s.
		{"2 CPUs", request{cpu: 2000}, nodeKey{highest: 0, workLost: 159_999, victims: 2, node: "n"}},
		// 3.5 CPUs: d + a + b = 3.5: three pods; all of priority 0 (a, b,
		// c) ran 460 s.
		{"3.5 CPUs", request{cpu: 3500}, nodeKey{highest: 0, workLost: 459_999, victims: 3, node: "n"}},
		// 4.5 CPUs: all four victims free 4 CPUs only.
		{"4.5 CPUs", request{cpu: 4500}, unreachable},
		// Memory is free: no more victims than one.
		{"memory", request{memory: 1 << 30}, nodeKey{highest: 0, workLost: 59_999, victims: 1, node: "n"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := lowerKey(info, 5, mustLowerPods(t, info, 5, victims), nominatedLoad{}, tt.request, t0, nil)
			if !ok || got != tt.want {
				t.Errorf("lowerKey = %+v, %v; want %+v", got, ok, tt.want)
			}
		})
	}

	// A pod of 1 CPU nominated to the node takes it before the preemptor.
	nominated := nominatedLoad{pods: 1, milliCPU: 1000}
	for _, tt := range []struct {
		name    string
		request podRequest
		want    nodeKey
	}{
		// 0.5 CPU: 1.5 missing, d alone.
		{"500m", request{cpu: 500}, nodeKey{highest: 0, workLost: 59_999, victims: 1, node: "n"}},
		// 2 CPUs: 3 missing: d + a + b.
		{"2 CPUs", request{cpu: 2000}, nodeKey{highest: 0, workLost: 459_999, victims: 3, node: "n"}},
		// 3.5 CPUs: 4.5 missing, more than all four victims hold.
		{"3.5 CPUs", request{cpu: 3500}, unreachable},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := lowerKey(info, 5, mustLowerPods(t, info, 5, victims), nominated, tt.request, t0, nil)
			if !ok || got != tt.want {
				t.Errorf("lowerKey(one nominated pod) = %+v, %v; want %+v", got, ok, tt.want)
			}
		})
	}

	// Pod capacity: 5 pods on a node of 5 leave room for the preemptor
	// only after 1 victim; on a node of 3, after 3.
	node.Status.Allocatable[v1.ResourcePods] = resource.MustParse("3")
	info.SetNode(node)
	if got, _ := lowerKey(info, 5, mustLowerPods(t, info, 5, victims), nominatedLoad{}, nil, t0, nil); got.victims != 3 || got.workLost != 459_999 {
		t.Errorf("pod capacity 3: lowerKey = %+v; want 3 victims, 459,999 ms", got)
	}
	// With a nominated pod, 4 victims: more than the 3 of priority 0, so
	// their 460 s.
	if got, _ := lowerKey(info, 5, mustLowerPods(t, info, 5, victims), nominated, nil, t0, nil); got.victims != 4 || got.workLost != 459_999 {
		t.Errorf("pod capacity 3, one nominated pod: lowerKey = %+v; want 4 victims, 459,999 ms", got)
	}
	// A preemptor of priority 0 has no victims here: no bound.
	if _, ok := lowerKey(info, 0, mustLowerPods(t, info, 0, victims), nominatedLoad{}, nil, t0, nil); ok {
		t.Error("lowerKey bounded a node without victims")
	}
}

// mustLowerPods is lowerPods' answer, which must have one.
func mustLowerPods(t *testing.T, info fwk.NodeInfo, prio int32, victims []*preemption.DomainVictim) []fwk.PodInfo {
	pods, ok := lowerPods(info, prio, victims)
	if !ok {
		t.Fatal("lowerPods: no answer")
	}
	return pods
}

// TestLowerPodsGroup: a victim of two pods (a pod group) has no bound.
func TestLowerPodsGroup(t *testing.T) {
	node := &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n"}}
	a := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "a", UID: "a"}, Spec: v1.PodSpec{NodeName: "n"}}
	b := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "b", UID: "b"}, Spec: v1.PodSpec{NodeName: "m"}}
	info := framework.NewNodeInfo(a)
	info.SetNode(node)
	group, err := preemption.NewVictim([]fwk.PodInfo{info.GetPods()[0], mustPodInfo(t, b)}, 0, fwk.PodGroupKeyType)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := lowerPods(info, 5, []*preemption.DomainVictim{{Victim: group}}); ok {
		t.Error("lowerPods answered for a pod group")
	}
	if pods, ok := lowerPods(info, 0, []*preemption.DomainVictim{{Victim: group}}); !ok || len(pods) != 0 {
		t.Errorf("lowerPods(preemptor priority 0) = %v, %v; want none, true", pods, ok)
	}
}

func mustPodInfo(t *testing.T, p *v1.Pod) fwk.PodInfo {
	pi, err := framework.NewPodInfo(p)
	if err != nil {
		t.Fatal(err)
	}
	return pi
}

// request is a podRequest of fixed amounts.
type request struct{ cpu, memory, storage int64 }

func (r request) GetMilliCPU() int64         { return r.cpu }
func (r request) GetMemory() int64           { return r.memory }
func (r request) GetEphemeralStorage() int64 { return r.storage }

// TestRequestOf: the preemptor's request is read from NodeResourcesFit's
// own PreFilter state (a defect here turns the resource part of the bound
// off without a sign, so the key and its type are checked against the
// real plugin).
func TestRequestOf(t *testing.T) {
	c := newPreemptionCluster(1)
	_, state := c.handle(t, context.Background())
	r := requestOf(state, c.preemptor)
	if r == nil || r.GetMilliCPU() != 3000 || r.GetMemory() != 500<<20 {
		t.Fatalf("requestOf = %#v; want 3000 millicores and 500 MiB", r)
	}
	bound := c.preemptor.DeepCopy()
	bound.Spec.NodeName = "node-0000"
	if r := requestOf(state, bound); r != nil {
		t.Errorf("requestOf(bound preemptor) = %#v; want nil", r)
	}
}

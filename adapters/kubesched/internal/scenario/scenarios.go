package scenario

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/component-base/metrics/testutil"

	"github.com/schedkit/schedkit/adapters/internal/annotation"
	"github.com/schedkit/schedkit/adapters/kubesched/leastworklost"
)

func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// preferRank makes a pod prefer nodes labelled rank=1 over rank=2 and so
// on, so that the order pods are scheduled in shows in where they land.
func preferRank(n int) *v1.Affinity {
	var terms []v1.PreferredSchedulingTerm
	for r := 1; r <= n; r++ {
		terms = append(terms, v1.PreferredSchedulingTerm{
			Weight: int32(100 - 15*(r-1)),
			Preference: v1.NodeSelectorTerm{MatchExpressions: []v1.NodeSelectorRequirement{
				{Key: "rank", Operator: v1.NodeSelectorOpIn, Values: []string{fmt.Sprint(r)}},
			}},
		})
	}
	return &v1.Affinity{NodeAffinity: &v1.NodeAffinity{PreferredDuringSchedulingIgnoredDuringExecution: terms}}
}

// EDFOrder: six pods wait in the queue when the scheduler starts; six
// one-CPU nodes ranked 1…6, every pod preferring lower ranks. The pod
// scheduled first lands on rank 1, the next on rank 2 and so on, so the
// bindings show the Deadline queue order: earliest deadline first (one from
// the owning Job's relative annotation, one relative on the pod, two
// absolute and equal, the higher priority first), then the pods without a
// deadline, higher priority first.
func EDFOrder(t *testing.T, b *Backend) {
	e := NewEnv(t, b)
	e.CreatePriorityClasses()
	for r := 1; r <= 6; r++ {
		e.CreateNode(fmt.Sprintf("n%d", r), "1", map[string]string{"rank": fmt.Sprint(r)})
	}
	ten := map[string]string{annotation.Runtime: "10m"}
	with := func(extra map[string]string) map[string]string {
		m := maps.Clone(ten)
		maps.Copy(m, extra)
		return m
	}
	job := e.CreateJob("early-job", map[string]string{annotation.Deadline: "30m"})
	late := stamp(e.T0.Add(3 * time.Hour))
	// Created in the reverse of the expected order, so FIFO would invert it.
	e.CreatePod(PodSpec{Name: "none", CPU: "1", Affinity: preferRank(6)})
	e.CreatePod(PodSpec{Name: "urgent", CPU: "1", Priority: High, Affinity: preferRank(6)})
	e.CreatePod(PodSpec{Name: "late", CPU: "1", Annotations: with(map[string]string{annotation.Deadline: late}), Affinity: preferRank(6)})
	e.CreatePod(PodSpec{Name: "late-high", CPU: "1", Priority: High, Annotations: with(map[string]string{annotation.Deadline: late}), Affinity: preferRank(6)})
	e.CreatePod(PodSpec{Name: "mid", CPU: "1", Annotations: with(map[string]string{annotation.Deadline: "1h"}), Affinity: preferRank(6)})
	e.CreatePod(PodSpec{Name: "early", CPU: "1", Owner: job, Annotations: ten, Affinity: preferRank(6)})
	e.StartScheduler()

	got := e.WaitBound("early", "mid", "late-high", "late", "urgent", "none")
	want := map[string]string{"early": "n1", "mid": "n2", "late-high": "n3", "late": "n4", "urgent": "n5", "none": "n6"}
	if !maps.Equal(got, want) {
		t.Errorf("bindings (pod → node, node rank = scheduling order) = %v, want %v", got, want)
	}
}

// Admission: a running deadline job a (30 min left, deadline in 40 min)
// and pods arriving beside it. DeadlineAdmission rejects the one that would
// make a late, the hopeless one, and those it cannot check; it admits the
// feasible ones, with estimates from the pod and from the args' job type
// via the owning Job, and the pod of a workload Kueue admitted (its
// kueue.x-k8s.io/podset label), although on its own it would be held.
func Admission(t *testing.T, b *Backend) {
	e := NewEnv(t, b)
	e.CreatePriorityClasses()
	e.CreateNode("n1", "4", nil)
	e.CreateNode("n2", "4", nil)
	at := func(d time.Duration) string { return stamp(e.T0.Add(d)) }
	ann := func(deadline, runtime string) map[string]string {
		m := map[string]string{annotation.Deadline: deadline}
		if runtime != "" {
			m[annotation.Runtime] = runtime
		}
		return m
	}
	e.CreatePod(PodSpec{Name: "a", CPU: "1", Node: "n1", Annotations: ann(at(40*time.Minute), "30m")})
	e.CreatePod(PodSpec{Name: "b", CPU: "1", Annotations: ann(at(20*time.Minute), "15m")})
	e.CreatePod(PodSpec{Name: "c", CPU: "1", Annotations: ann(at(10*time.Minute), "15m")})
	e.CreatePod(PodSpec{Name: "d", CPU: "1", Annotations: ann(at(2*time.Hour), "30m")})
	e.CreatePod(PodSpec{Name: "e", CPU: "1", Annotations: ann("tomorrow", "10m")})
	e.CreatePod(PodSpec{Name: "f", CPU: "1", Annotations: ann("3h", "")})
	etl := e.CreateJob("etl", map[string]string{annotation.Deadline: "3h", annotation.JobType: "etl"})
	e.CreatePod(PodSpec{Name: "g", CPU: "1", Owner: etl})
	e.CreatePod(PodSpec{Name: "h", CPU: "1", Annotations: map[string]string{annotation.Deadline: "3h", annotation.JobType: "nope"}})
	// e's inputs, but Kueue admitted its workload: Kueue is the admission.
	// (Its malformed deadline also keeps it out of the others' decisions
	// once it runs.)
	e.CreatePod(PodSpec{Name: "k", CPU: "1", Labels: map[string]string{"kueue.x-k8s.io/podset": "main"}, Annotations: ann("tomorrow", "10m")})
	e.StartScheduler()

	e.WaitBound("d", "g", "k")
	want := map[string]string{
		"b": fmt.Sprintf("admitting Pod default/b would make running Pod default/a finish at %s (in 45m0s), 5m0s after its deadline %s; rejected to protect Pod default/a",
			at(45*time.Minute), at(40*time.Minute)),
		"c": fmt.Sprintf("Pod default/c would finish at %s (in 15m0s, after 0 running deadline jobs ahead of it in EDF order), 5m0s after its deadline %s",
			at(15*time.Minute), at(10*time.Minute)),
		"e": `pod default/e: annotation schedkit.io/deadline="tomorrow": neither an RFC 3339 time (2026-11-24T18:00:00Z) nor a duration such as 90m`,
		"f": "Pod default/f has a deadline but no run-time estimate: set schedkit.io/runtime or schedkit.io/job-type",
		"h": `Pod default/h has schedkit.io/job-type="nope", which the DeadlineAdmission args do not list`,
	}
	for _, name := range slices.Sorted(maps.Keys(want)) {
		c := e.WaitUnschedulable(name)
		if c.Reason != v1.PodReasonUnschedulable || !strings.Contains(c.Message, want[name]) {
			t.Errorf("pod %s: PodScheduled=False reason %q message %q; want reason %q and the message to contain %q",
				name, c.Reason, c.Message, v1.PodReasonUnschedulable, want[name])
		}
		if p, err := e.Pod(name); err != nil || p.Spec.NodeName != "" {
			t.Errorf("pod %s: bound to %q (err %v), want unbound", name, p.Spec.NodeName, err)
		}
	}
}

// PreemptionResult is what one preemption did.
type PreemptionResult struct {
	Profile  string
	Node     string   // where the preemptor was bound
	Victims  []string // pods deleted
	WorkLost float64  // Σ victims' run times, seconds
	Event    string   // LeastWorkLostPreemption's event on the preemptor
}

// The preemption cluster, one CPU-4 node each:
//
//	n-a: a-old    4 CPU, started 60 min ago, priority low
//	n-b: b-old    2 CPU, 50 min ago; b-young1 1 CPU, 3 min; b-young2 1 CPU, 2 min (low)
//	n-c: c-high   4 CPU, 10 min ago, priority high (equal to the preemptor)
//
// A high-priority preemptor asks for 2 CPU. Evicting a-old frees n-a with
// one victim (3,600 s of work lost); evicting b-young1 and b-young2 frees 2
// CPU on n-b with two victims (180 + 120 = 300 s); c-high may not be evicted.
var preemptionPods = []PodSpec{
	{Name: "a-old", CPU: "4", Node: "n-a", StartedAgo: 60 * time.Minute, Labels: map[string]string{"app": "a-old"}},
	{Name: "b-old", CPU: "2", Node: "n-b", StartedAgo: 50 * time.Minute, Labels: map[string]string{"app": "b-old"}},
	{Name: "b-young1", CPU: "1", Node: "n-b", StartedAgo: 3 * time.Minute, Labels: map[string]string{"app": "young"}},
	{Name: "b-young2", CPU: "1", Node: "n-b", StartedAgo: 2 * time.Minute, Labels: map[string]string{"app": "young"}},
	{Name: "c-high", CPU: "4", Node: "n-c", StartedAgo: 10 * time.Minute, Priority: High},
}

// Preempt builds the preemption cluster on b (with the PDBs given as
// name → selector, minAvailable 2), creates the preemptor for profile
// with priority prio, and returns what happened once it is bound (or,
// when wantBound is false, once it is unschedulable).
func Preempt(t *testing.T, b *Backend, profile, prio string, pdbs map[string]map[string]string, wantBound bool) PreemptionResult {
	e := NewEnv(t, b)
	e.CreatePriorityClasses()
	for _, n := range []string{"n-a", "n-b", "n-c"} {
		e.CreateNode(n, "4", nil)
	}
	names := make([]string, len(preemptionPods))
	started := map[string]time.Duration{}
	for i, p := range preemptionPods {
		e.CreatePod(p)
		names[i], started[p.Name] = p.Name, p.StartedAgo
	}
	for name, sel := range pdbs {
		e.CreatePDB(name, 2, sel)
	}
	e.CreatePod(PodSpec{Name: "preemptor", CPU: "2", Priority: prio, Scheduler: profile})
	e.StartScheduler()

	r := PreemptionResult{Profile: profile}
	if wantBound {
		r.Node = e.WaitBound("preemptor")["preemptor"]
	} else {
		c := e.WaitUnschedulable("preemptor")
		if !strings.Contains(c.Message, "preemption:") {
			t.Errorf("preemptor: PodScheduled=False message %q does not report the preemption attempt", c.Message)
		}
		// Give an eviction, if one were (wrongly) under way, time to land.
		time.Sleep(2 * time.Second)
	}
	left, err := e.Existing(names...)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		if !slices.Contains(left, n) {
			r.Victims = append(r.Victims, n)
			r.WorkLost += started[n].Seconds()
		}
	}
	if profile != DefaultPreemption && len(r.Victims) > 0 {
		e.Eventually("waiting for the LeastWorkLostPreemption event", func() (bool, error) {
			evs, err := e.Events("preemptor", leastworklost.Name)
			if err != nil || len(evs) == 0 {
				return false, err
			}
			r.Event = evs[0].Note
			return true, nil
		})
	}
	return r
}

// Preemption runs the cluster once per profile, each on a fresh backend
// from newBackend, and checks that LeastWorkLostPreemption evicts the
// youngest eligible pods and loses less work than DefaultPreemption. It
// returns both results (DefaultPreemption first).
func Preemption(t *testing.T, newBackend func(*testing.T) *Backend) [2]PreemptionResult {
	lost := func() float64 {
		v, err := testutil.GetCounterMetricValue(leastworklost.WorkLostSecondsTotal.WithLabelValues(Schedkit))
		if err != nil {
			t.Fatalf("reading %s: %v", "schedkit_preemption_work_lost_seconds_total", err)
		}
		return v
	}
	var res [2]PreemptionResult
	t.Run(DefaultPreemption, func(t *testing.T) {
		res[0] = Preempt(t, newBackend(t), DefaultPreemption, High, nil, true)
	})
	before := lost()
	t.Run(Schedkit, func(t *testing.T) {
		res[1] = Preempt(t, newBackend(t), Schedkit, High, nil, true)
	})
	d, l := res[0], res[1]
	t.Logf("DefaultPreemption: node %s, victims %v, work lost %.0f s", d.Node, d.Victims, d.WorkLost)
	t.Logf("LeastWorkLostPreemption: node %s, victims %v, work lost %.0f s", l.Node, l.Victims, l.WorkLost)
	t.Logf("LeastWorkLostPreemption event: %s", l.Event)

	if !slices.Equal(d.Victims, []string{"a-old"}) || d.Node != "n-a" {
		t.Errorf("DefaultPreemption evicted %v for node %s; kube's order (fewest victims) should evict [a-old] on n-a", d.Victims, d.Node)
	}
	if !slices.Equal(l.Victims, []string{"b-young1", "b-young2"}) || l.Node != "n-b" {
		t.Errorf("LeastWorkLostPreemption evicted %v for node %s, want the youngest eligible pods [b-young1 b-young2] on n-b", l.Victims, l.Node)
	}
	if !(l.WorkLost < d.WorkLost) {
		t.Errorf("work lost: LeastWorkLostPreemption %.0f s, DefaultPreemption %.0f s; want less", l.WorkLost, d.WorkLost)
	}
	// n-b's bound (two victims, the two youngest: 5m0s) comes first, and
	// its dry run finds 5m0s: n-a (at least an hour) and n-c (no pod of
	// lower priority) are not dry-run.
	wantEvent := "preempting 2 lower-priority pods on node n-b, work lost 5m0s of run time: default/b-young1 (3m0s), default/b-young2 (2m0s); 2 more nodes not dry-run: none could rank before n-b"
	if l.Event != wantEvent {
		t.Errorf("event on the preemptor:\n got %q\nwant %q", l.Event, wantEvent)
	}
	if got := lost() - before; got != l.WorkLost {
		t.Errorf("schedkit_preemption_work_lost_seconds_total grew by %v, want %v", got, l.WorkLost)
	}
	return res
}

// PreemptionWindow: with two of the three nodes candidates (the Window
// profile), the preemptor's window holds n-a and n-b wherever its offset
// puts it, since n-c has no pod of lower priority and is not counted, so
// LeastWorkLostPreemption evicts the youngest pods on n-b as with every
// node a candidate; only n-b is dry-run.
func PreemptionWindow(t *testing.T, b *Backend) {
	r := Preempt(t, b, Window, High, nil, true)
	if !slices.Equal(r.Victims, []string{"b-young1", "b-young2"}) || r.Node != "n-b" {
		t.Errorf("in its window LeastWorkLostPreemption evicted %v for node %s, want the youngest eligible pods [b-young1 b-young2] on n-b", r.Victims, r.Node)
	}
	want := regexp.MustCompile(`^preempting 2 lower-priority pods on node n-b, work lost 5m0s of run time: default/b-young1 \(3m0s\), default/b-young2 \(2m0s\); [12] more nodes? not dry-run: none could rank before n-b$`)
	if !want.MatchString(r.Event) {
		t.Errorf("event on the preemptor %q: want it to match %s", r.Event, want)
	}
}

// PreemptionPDB: PodDisruptionBudgets that allow no disruption outrank
// work lost. With one over the young pods, LeastWorkLostPreemption keeps
// them and evicts b-old (3,000 s lost, still less than a-old's 3,600 s);
// with one over b-old too, every victim set on n-b violates a budget and it
// evicts a-old on n-a, which violates none, although it loses the most.
func PreemptionPDB(t *testing.T, newBackend func(*testing.T) *Backend) {
	t.Run("young", func(t *testing.T) {
		r := Preempt(t, newBackend(t), Schedkit, High, map[string]map[string]string{"young": {"app": "young"}}, true)
		if !slices.Equal(r.Victims, []string{"b-old"}) || r.Node != "n-b" {
			t.Errorf("with a PDB over the young pods, LeastWorkLostPreemption evicted %v for node %s; want [b-old] on n-b", r.Victims, r.Node)
		}
	})
	t.Run("young+b-old", func(t *testing.T) {
		r := Preempt(t, newBackend(t), Schedkit, High, map[string]map[string]string{"young": {"app": "young"}, "b-old": {"app": "b-old"}}, true)
		if !slices.Equal(r.Victims, []string{"a-old"}) || r.Node != "n-a" {
			t.Errorf("with PDBs over every pod of n-b, LeastWorkLostPreemption evicted %v for node %s; want [a-old] on n-a", r.Victims, r.Node)
		}
		// n-b would lose less than a-old's hour, and the event says why it
		// was passed over; n-c has no pod of lower priority and is not
		// dry-run.
		want := regexp.MustCompile(`; other candidate nodes would lose n-b \S+ \(passed over: [12] PodDisruptionBudget violations?, n-a has 0\); 1 more node not dry-run: none could rank before n-a$`)
		if !want.MatchString(r.Event) {
			t.Errorf("event on the preemptor %q: want it to match %s", r.Event, want)
		}
	})
}

// PreemptionEqualPriority: a preemptor of low priority, equal to every pod's
// but c-high's, finds no victim: nothing is evicted and it stays pending.
func PreemptionEqualPriority(t *testing.T, b *Backend) {
	r := Preempt(t, b, Schedkit, Low, nil, false)
	if len(r.Victims) != 0 {
		t.Errorf("a low-priority preemptor evicted %v; pods of equal or higher priority must never be evicted", r.Victims)
	}
}

// ProgressShare: two one-CPU nodes of type gpu-a100, two of type
// cpu-standard; the crypto Job (job class crypto: 3 times faster on
// gpu-a100) and the sort Job (no rates) have two one-CPU pods each. The
// crypto pods land on the GPU nodes and the sort pods on the others, whichever
// job's pods the queue offers first (cryptoFirst).
//
// The first job's pods have the higher priority, so the queue offers both
// of them before the other job's: the informer delivers pods in no fixed
// order, and with the jobs interleaved the outcome is a tie that
// Algorithm 2 does not settle (a sort pod offered while sort runs nothing
// and crypto one pod is behind in progress share and takes any slot, a GPU
// as readily as a CPU node).
func ProgressShare(t *testing.T, b *Backend, cryptoFirst bool) {
	e := NewEnv(t, b)
	e.CreatePriorityClasses()
	const label = "node.kubernetes.io/instance-type"
	for _, n := range []string{"gpu-1", "gpu-2"} {
		e.CreateNode(n, "1", map[string]string{label: "gpu-a100"})
	}
	for _, n := range []string{"cpu-1", "cpu-2"} {
		e.CreateNode(n, "1", map[string]string{label: "cpu-standard"})
	}
	crypto := e.CreateJob("crypto", map[string]string{annotation.JobType: "crypto"})
	sort := e.CreateJob("sort", nil)
	cp, sp := "crypto-", "sort-"
	cprio, sprio := Low, High
	if cryptoFirst {
		cprio, sprio = High, Low
	}
	for i := range 2 {
		e.CreatePod(PodSpec{Name: fmt.Sprint(cp, i), CPU: "1", Owner: crypto, Priority: cprio})
		e.CreatePod(PodSpec{Name: fmt.Sprint(sp, i), CPU: "1", Owner: sort, Priority: sprio})
	}
	e.StartScheduler()

	got := e.WaitBound(cp+"0", cp+"1", sp+"0", sp+"1")
	for pod, node := range got {
		want := "cpu-"
		if strings.HasPrefix(pod, cp) {
			want = "gpu-"
		}
		if !strings.HasPrefix(node, want) {
			t.Errorf("pod %s bound to %s, want a %s* node (all bindings %v)", pod, node, want, got)
		}
	}
}

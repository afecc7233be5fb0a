package tally

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/adapters/kubesched/internal/podjob"
)

const (
	ours      = "schedkit-scheduler"
	typeLabel = "node.kubernetes.io/instance-type"
)

var t0 = time.Date(2026, 7, 1, 12, 0, 0, 0, time.UTC)

// world is the recount's input: the objects as the informers last gave
// them, the assumptions, and the order pods were first added in.
type world struct {
	pods    map[types.UID]*v1.Pod
	seq     map[types.UID]int
	next    int
	assumed map[types.UID]string
	nodes   map[string]*v1.Node
	owners  map[types.UID]*batchv1.Job
}

func newWorld() *world {
	return &world{pods: map[types.UID]*v1.Pod{}, seq: map[types.UID]int{}, assumed: map[types.UID]string{},
		nodes: map[string]*v1.Node{}, owners: map[types.UID]*batchv1.Job{}}
}

// mapJob maps a pod with its owner from the world's owners, as
// owner.Resolver.Job does from the Job lister.
func (w *world) mapJob(p *v1.Pod) podjob.Job {
	var o *batchv1.Job
	if ref := metav1.GetControllerOf(p); ref != nil {
		o = w.owners[ref.UID]
	}
	return podjob.Of(p, o)
}

// summary is what a test compares of one job.
type summary struct {
	Attr      podjob.Job
	Pending   int
	Running   int
	ByType    map[string]int
	Unstarted int
	Earliest  int64 // Unix ns; 0 when none runs
	Latest    int64
}

func summarize(j *Job, now time.Time) summary {
	s := summary{Attr: j.Attr, Pending: j.Pending, Running: j.Running, ByType: maps.Clone(j.ByType), Unstarted: j.Unstarted}
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

// recount computes every job's summary from the world, pod by pod.
func (w *world) recount(now time.Time) map[types.UID]summary {
	out := map[types.UID]summary{}
	rep := map[types.UID]types.UID{}
	for uid, p := range w.pods {
		key, _ := podjob.Key(p)
		s, ok := out[key]
		if !ok {
			s.ByType = map[string]int{}
		}
		if r, ok := rep[key]; !ok || w.seq[uid] < w.seq[r] {
			rep[key] = uid
		}
		node := p.Spec.NodeName
		if node == "" {
			node = w.assumed[uid]
		}
		live := p.DeletionTimestamp == nil && p.Status.Phase != v1.PodSucceeded && p.Status.Phase != v1.PodFailed
		if live && node == "" && p.Spec.SchedulerName == ours {
			s.Pending++
		}
		if live && node != "" {
			s.Running++
			if n, ok := w.nodes[node]; ok {
				s.ByType[n.Labels[typeLabel]]++
			}
			if p.Status.StartTime == nil {
				s.Unstarted++
			}
			start := podjob.Started(p, now).UnixNano()
			if s.Running == 1 || start < s.Earliest {
				s.Earliest = start
			}
			if s.Running == 1 || start > s.Latest {
				s.Latest = start
			}
		}
		out[key] = s
	}
	for key, uid := range rep {
		s := out[key]
		s.Attr = w.mapJob(w.pods[uid])
		out[key] = s
	}
	return out
}

// mirror is what a plugin derives through Changes: a copy of every job.
type mirror map[types.UID]summary

func (m mirror) update(v *View, now time.Time) {
	if _, reset := v.Changes(func(key types.UID, j *Job) {
		if j == nil {
			delete(m, key)
		} else {
			m[key] = summarize(j, now)
		}
	}); reset {
		clear(m)
		for key := range v.t.jobs {
			m[key] = summarize(v.Job(key), now)
		}
	}
}

var (
	uids      = []types.UID{"p0", "p1", "p2", "p3", "p4", "p5"}
	ownerUIDs = []types.UID{"job-a", "job-b"}
	nodeNames = []string{"n0", "n1", "n2"}
)

func genPod(t *rapid.T, uid types.UID) *v1.Pod {
	p := &v1.Pod{ObjectMeta: metav1.ObjectMeta{
		Namespace: "ns", Name: string(uid), UID: uid,
		CreationTimestamp: metav1.NewTime(t0.Add(-time.Duration(rapid.IntRange(0, 3).Draw(t, "age")) * time.Second)),
		ResourceVersion:   fmt.Sprint(rapid.IntRange(0, 1<<20).Draw(t, "rv")),
	}}
	if o := rapid.IntRange(-1, len(ownerUIDs)-1).Draw(t, "owner"); o >= 0 {
		p.OwnerReferences = []metav1.OwnerReference{{APIVersion: "batch/v1", Kind: "Job", Name: string(ownerUIDs[o]),
			UID: ownerUIDs[o], Controller: new(true)}}
	}
	if rapid.Bool().Draw(t, "annotated") {
		p.Annotations = map[string]string{"schedkit.io/rates": rapid.SampledFrom([]string{"a100=3", "t4=2", "bad"}).Draw(t, "rates")}
	}
	p.Spec.SchedulerName = rapid.SampledFrom([]string{ours, "default-scheduler"}).Draw(t, "scheduler")
	if rapid.Bool().Draw(t, "bound") {
		p.Spec.NodeName = rapid.SampledFrom(append(nodeNames, "gone")).Draw(t, "node")
	}
	p.Status.Phase = rapid.SampledFrom([]v1.PodPhase{v1.PodPending, v1.PodRunning, v1.PodSucceeded, v1.PodFailed}).Draw(t, "phase")
	if rapid.IntRange(0, 5).Draw(t, "deleting") == 0 {
		p.DeletionTimestamp = new(metav1.NewTime(t0))
	}
	if rapid.Bool().Draw(t, "started") {
		p.Status.StartTime = new(metav1.NewTime(t0.Add(time.Duration(rapid.IntRange(-100, 10).Draw(t, "start")) * time.Second)))
	}
	return p
}

func genNode(t *rapid.T, name string) *v1.Node {
	n := &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: name}}
	if ty := rapid.SampledFrom([]string{"", "a100", "cpu"}).Draw(t, "type"); ty != "" {
		n.Labels = map[string]string{typeLabel: ty}
	}
	n.Status.Allocatable = v1.ResourceList{v1.ResourcePods: *resource.NewQuantity(int64(rapid.IntRange(0, 3).Draw(t, "capacity")), resource.DecimalSI)}
	return n
}

// propRecount: after every event of a random sequence (pod adds, updates
// that change anything, rebinding and job-key changes included, resyncs of
// the same object, deletes with or without a tombstone, assumptions and
// their end, node adds, relabels and deletes, owner changes), the tally's
// jobs equal a recount from the world, and a mirror kept only through
// Changes equals it too.
func propRecount(t *rapid.T) {
	w := newWorld()
	tl := New(ours, typeLabel, w.mapJob)
	m := mirror{}
	now := t0
	t.Repeat(map[string]func(*rapid.T){
		"set pod": func(t *rapid.T) {
			uid := rapid.SampledFrom(uids).Draw(t, "uid")
			p := genPod(t, uid)
			if _, ok := w.pods[uid]; !ok {
				w.next++
				w.seq[uid] = w.next
			}
			w.pods[uid] = p
			if p.Spec.NodeName != "" {
				delete(w.assumed, uid)
			}
			tl.Set(p)
		},
		"resync pod": func(t *rapid.T) {
			if len(w.pods) == 0 {
				t.Skip("no pods")
			}
			uid := rapid.SampledFrom(slices.Sorted(maps.Keys(w.pods))).Draw(t, "uid")
			tl.Set(w.pods[uid])
		},
		"delete pod": func(t *rapid.T) {
			uid := rapid.SampledFrom(uids).Draw(t, "uid")
			delete(w.pods, uid)
			delete(w.seq, uid)
			delete(w.assumed, uid)
			tl.Delete(uid)
		},
		"assume": func(t *rapid.T) {
			uid := rapid.SampledFrom(uids).Draw(t, "uid")
			node := rapid.SampledFrom(nodeNames).Draw(t, "node")
			if p, ok := w.pods[uid]; !ok || p.Spec.NodeName == "" {
				w.assumed[uid] = node
			}
			tl.Assume(uid, node)
		},
		"forget": func(t *rapid.T) {
			uid := rapid.SampledFrom(uids).Draw(t, "uid")
			delete(w.assumed, uid)
			tl.Forget(uid)
		},
		"set node": func(t *rapid.T) {
			n := genNode(t, rapid.SampledFrom(nodeNames).Draw(t, "name"))
			w.nodes[n.Name] = n
			tl.SetNode(n)
		},
		"delete node": func(t *rapid.T) {
			name := rapid.SampledFrom(nodeNames).Draw(t, "name")
			delete(w.nodes, name)
			tl.DeleteNode(name)
		},
		"owner": func(t *rapid.T) {
			uid := rapid.SampledFrom(ownerUIDs).Draw(t, "owner")
			if rapid.Bool().Draw(t, "deleted") {
				delete(w.owners, uid)
			} else {
				o := &batchv1.Job{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: string(uid), UID: uid,
					CreationTimestamp: metav1.NewTime(t0.Add(-time.Hour))}}
				if rapid.Bool().Draw(t, "annotated") {
					o.Annotations = map[string]string{"schedkit.io/rates": "a100=5"}
				}
				w.owners[uid] = o
			}
			tl.OwnerChanged(uid)
		},
		"tick": func(t *rapid.T) {
			now = now.Add(time.Duration(rapid.IntRange(0, 20).Draw(t, "dt")) * time.Second)
			clear(m) // summaries hold times relative to now
			tl.Read(func(v *View) {
				for key := range v.t.jobs {
					m[key] = summarize(v.Job(key), now)
				}
			})
		},
		"": func(t *rapid.T) {
			want := w.recount(now)
			got := map[types.UID]summary{}
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
			for _, n := range w.nodes {
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
			if !reflect.DeepEqual(map[types.UID]summary(m), want) {
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
		},
	})
}

func TestPropRecount(t *testing.T) { rapid.Check(t, propRecount) }

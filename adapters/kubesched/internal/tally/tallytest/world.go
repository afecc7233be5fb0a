// Package tallytest is the recount that package tally's counts are checked
// against, and random event sequences to feed both: the objects as the
// informers last gave them, the scheduler's assumptions and the order pods
// were first added in, counted pod by pod.
package tallytest

import (
	"fmt"
	"maps"
	"slices"
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
	// Scheduler is the scheduler name whose pending pods are counted.
	Scheduler = "schedkit-scheduler"
	// TypeLabel is the node-type label.
	TypeLabel = "node.kubernetes.io/instance-type"
)

// T0 is the time the generated objects are around.
var T0 = time.Date(2026, 7, 1, 12, 0, 0, 0, time.UTC)

// A World is the recount's input.
type World struct {
	Pods    map[types.UID]*v1.Pod
	Seq     map[types.UID]int
	next    int
	Assumed map[types.UID]string
	Nodes   map[string]*v1.Node
	Owners  map[types.UID]*batchv1.Job
}

// New returns an empty world.
func New() *World {
	return &World{Pods: map[types.UID]*v1.Pod{}, Seq: map[types.UID]int{}, Assumed: map[types.UID]string{},
		Nodes: map[string]*v1.Node{}, Owners: map[types.UID]*batchv1.Job{}}
}

// MapJob maps a pod with its owner from the world's owners, as
// owner.Resolver.Job does from the Job lister.
func (w *World) MapJob(p *v1.Pod) podjob.Job {
	var o *batchv1.Job
	if ref := metav1.GetControllerOf(p); ref != nil {
		o = w.Owners[ref.UID]
	}
	return podjob.Of(p, o)
}

// A Summary is one job as the recount sees it (package tally's doc).
type Summary struct {
	Attr      podjob.Job
	Pending   int
	Running   int
	ByType    map[string]int
	Unstarted int
	Earliest  int64 // Unix ns of the earliest podjob.Started; 0 when none runs
	Latest    int64
}

// Recount computes every job's summary from the world, pod by pod.
func (w *World) Recount(now time.Time) map[types.UID]Summary {
	out := map[types.UID]Summary{}
	rep := map[types.UID]types.UID{}
	for uid, p := range w.Pods {
		key, _ := podjob.Key(p)
		s, ok := out[key]
		if !ok {
			s.ByType = map[string]int{}
		}
		if r, ok := rep[key]; !ok || w.Seq[uid] < w.Seq[r] {
			rep[key] = uid
		}
		node := p.Spec.NodeName
		if node == "" {
			node = w.Assumed[uid]
		}
		live := p.DeletionTimestamp == nil && p.Status.Phase != v1.PodSucceeded && p.Status.Phase != v1.PodFailed
		if live && node == "" && p.Spec.SchedulerName == Scheduler {
			s.Pending++
		}
		if live && node != "" {
			s.Running++
			if n, ok := w.Nodes[node]; ok {
				s.ByType[n.Labels[TypeLabel]]++
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
		s.Attr = w.MapJob(w.Pods[uid])
		out[key] = s
	}
	return out
}

// A Sink takes the events (a *tally.Tally).
type Sink interface {
	Set(*v1.Pod)
	Delete(types.UID)
	Assume(uid types.UID, node string)
	Forget(types.UID)
	SetNode(*v1.Node)
	DeleteNode(name string)
	OwnerChanged(types.UID)
}

var (
	// UIDs are the pods' UIDs.
	UIDs      = []types.UID{"p0", "p1", "p2", "p3", "p4", "p5"}
	ownerUIDs = []types.UID{"job-a", "job-b"}
	nodeNames = []string{"n0", "n1", "n2"}
)

// Pod draws a pod with the given UID: any owner or none, rates or a
// malformed rates annotation, either scheduler, bound or not (to a known
// node or one that never exists), any phase, deleting or not, started or
// not.
func Pod(t *rapid.T, uid types.UID) *v1.Pod {
	p := &v1.Pod{ObjectMeta: metav1.ObjectMeta{
		Namespace: "ns", Name: string(uid), UID: uid,
		CreationTimestamp: metav1.NewTime(T0.Add(-time.Duration(rapid.IntRange(0, 3).Draw(t, "age")) * time.Second)),
		ResourceVersion:   fmt.Sprint(rapid.IntRange(0, 1<<20).Draw(t, "rv")),
	}}
	if o := rapid.IntRange(-1, len(ownerUIDs)-1).Draw(t, "owner"); o >= 0 {
		p.OwnerReferences = []metav1.OwnerReference{{APIVersion: "batch/v1", Kind: "Job", Name: string(ownerUIDs[o]),
			UID: ownerUIDs[o], Controller: new(true)}}
	}
	if rapid.Bool().Draw(t, "annotated") {
		p.Annotations = map[string]string{"schedkit.io/rates": rapid.SampledFrom([]string{"a100=3", "t4=2", "bad"}).Draw(t, "rates")}
	}
	p.Spec.SchedulerName = rapid.SampledFrom([]string{Scheduler, "default-scheduler"}).Draw(t, "scheduler")
	if rapid.Bool().Draw(t, "bound") {
		p.Spec.NodeName = rapid.SampledFrom(append(slices.Clone(nodeNames), "gone")).Draw(t, "node")
	}
	p.Status.Phase = rapid.SampledFrom([]v1.PodPhase{v1.PodPending, v1.PodRunning, v1.PodSucceeded, v1.PodFailed}).Draw(t, "phase")
	if rapid.IntRange(0, 5).Draw(t, "deleting") == 0 {
		p.DeletionTimestamp = new(metav1.NewTime(T0))
	}
	if rapid.Bool().Draw(t, "started") {
		p.Status.StartTime = new(metav1.NewTime(T0.Add(time.Duration(rapid.IntRange(-100, 10).Draw(t, "start")) * time.Second)))
	}
	return p
}

// Node draws a node with the given name: no type or one of two, 0 to 3
// pods.
func Node(t *rapid.T, name string) *v1.Node {
	n := &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: name}}
	if ty := rapid.SampledFrom([]string{"", "a100", "cpu"}).Draw(t, "type"); ty != "" {
		n.Labels = map[string]string{TypeLabel: ty}
	}
	n.Status.Allocatable = v1.ResourceList{v1.ResourcePods: *resource.NewQuantity(int64(rapid.IntRange(0, 3).Draw(t, "capacity")), resource.DecimalSI)}
	return n
}

// Actions are rapid actions that change the world and give the same event
// to sink: pod adds and updates that change anything (rebinding and
// job-key changes included), resyncs of the same object, deletes,
// assumptions and their end, node adds, relabels and deletes, owner
// changes.
func (w *World) Actions(sink Sink) map[string]func(*rapid.T) {
	return map[string]func(*rapid.T){
		"set pod": func(t *rapid.T) {
			uid := rapid.SampledFrom(UIDs).Draw(t, "uid")
			p := Pod(t, uid)
			if _, ok := w.Pods[uid]; !ok {
				w.next++
				w.Seq[uid] = w.next
			}
			w.Pods[uid] = p
			if p.Spec.NodeName != "" {
				delete(w.Assumed, uid)
			}
			sink.Set(p)
		},
		"resync pod": func(t *rapid.T) {
			if len(w.Pods) == 0 {
				t.Skip("no pods")
			}
			uid := rapid.SampledFrom(slices.Sorted(maps.Keys(w.Pods))).Draw(t, "uid")
			sink.Set(w.Pods[uid])
		},
		"delete pod": func(t *rapid.T) {
			uid := rapid.SampledFrom(UIDs).Draw(t, "uid")
			delete(w.Pods, uid)
			delete(w.Seq, uid)
			delete(w.Assumed, uid)
			sink.Delete(uid)
		},
		"assume": func(t *rapid.T) {
			uid := rapid.SampledFrom(UIDs).Draw(t, "uid")
			node := rapid.SampledFrom(nodeNames).Draw(t, "node")
			if p, ok := w.Pods[uid]; !ok || p.Spec.NodeName == "" {
				w.Assumed[uid] = node
			}
			sink.Assume(uid, node)
		},
		"forget": func(t *rapid.T) {
			uid := rapid.SampledFrom(UIDs).Draw(t, "uid")
			delete(w.Assumed, uid)
			sink.Forget(uid)
		},
		"set node": func(t *rapid.T) {
			n := Node(t, rapid.SampledFrom(nodeNames).Draw(t, "name"))
			w.Nodes[n.Name] = n
			sink.SetNode(n)
		},
		"delete node": func(t *rapid.T) {
			name := rapid.SampledFrom(nodeNames).Draw(t, "name")
			delete(w.Nodes, name)
			sink.DeleteNode(name)
		},
		"owner": func(t *rapid.T) {
			uid := rapid.SampledFrom(ownerUIDs).Draw(t, "owner")
			if rapid.Bool().Draw(t, "deleted") {
				delete(w.Owners, uid)
			} else {
				o := &batchv1.Job{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: string(uid), UID: uid,
					CreationTimestamp: metav1.NewTime(T0.Add(-time.Hour))}}
				if rapid.Bool().Draw(t, "annotated") {
					o.Annotations = map[string]string{"schedkit.io/rates": "a100=5"}
				}
				w.Owners[uid] = o
			}
			sink.OwnerChanged(uid)
		},
	}
}

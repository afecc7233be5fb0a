// Package tally keeps, from the scheduler's informer events, the per-job
// counts the schedkit plugins decide on: each job's pending pods, its
// running pods (by node type) and their start times, and the job's
// attributes read from one of its pods. A plugin reads them in O(1) per
// job instead of listing every pod of the cluster on every scheduling
// cycle.
//
// # What is counted
//
// A job is the pods with one controller owner, or a pod without one
// (podjob.Key). Every pod the informer holds belongs to its job; of those:
//
//   - a pod is assigned when spec.nodeName is set or the scheduler has
//     assumed it on a node (Assume, from a Reserve plugin, until Forget or
//     until the pod is bound), and live when it has no deletionTimestamp
//     and its phase is neither Succeeded nor Failed;
//   - Running counts a job's assigned live pods, on any node; ByType the
//     same by the node type (the value of the node-type label) of nodes the
//     tally knows; a pod on a node it does not know is in Running only;
//   - Pending counts a job's live pods of the tally's scheduler
//     (spec.schedulerName) that are not assigned;
//   - Unstarted counts the running pods without status.startTime, and the
//     start times of the others are kept in order (EarliestStart,
//     LatestStart).
//
// A job's attributes (podjob.Job: reference, creation, annotations) are
// mapped from its representative, the pod that was added first of those
// the tally holds, with its owner as the Resolver finds it; they are
// mapped again when the representative changes or is updated, and when the
// owning batch/v1 Job is added, updated or deleted.
//
// # Events
//
// Set, Delete, Assume, Forget, SetNode, DeleteNode and OwnerChanged may
// come in any order: each leaves the counts equal to a recount from the
// objects last Set, the assumptions and the nodes (TestPropRecount checks
// that after every event of random sequences, with updates, rebinding,
// resyncs and deletes in any order). An informer resync (an update with an
// unchanged object) changes nothing. Changes marks the jobs whose counts or
// attributes changed since it was last called, so that a plugin updates
// what it derives from them in O(changed jobs).
//
// A Tally is safe for concurrent use: every method takes its lock.
package tally

import (
	"slices"
	"sync"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/schedkit/schedkit/adapters/kubesched/internal/podjob"
)

// A Job is one job's counts and attributes. The tally owns it: read it
// only under Tally.Read or in the function Changes calls.
type Job struct {
	Key types.UID
	// Attr is the job as its representative pod maps it.
	Attr podjob.Job
	// Pending, Running, ByType and Unstarted are described in the package
	// doc.
	Pending   int
	Running   int
	ByType    map[string]int
	Unstarted int

	starts []int64 // start times (Unix ns) of running pods with one, ascending
	stale  bool    // Attr must be mapped again
	first  *pod    // the pods of the job in the order they were added
	last   *pod
}

// EarliestStart is the earliest start among the running pods at now:
// podjob.Started of each (a pod without a start time, or one after now,
// counts as now). ok is false when none runs.
func (j *Job) EarliestStart(now time.Time) (t time.Time, ok bool) {
	if j.Running == 0 {
		return time.Time{}, false
	}
	if len(j.starts) == 0 {
		return now, true
	}
	return minTime(time.Unix(0, j.starts[0]), now), true
}

// LatestStart is the latest start among the running pods at now, as
// EarliestStart. ok is false when none runs.
func (j *Job) LatestStart(now time.Time) (t time.Time, ok bool) {
	if j.Running == 0 {
		return time.Time{}, false
	}
	if j.Unstarted > 0 {
		return now, true
	}
	return minTime(time.Unix(0, j.starts[len(j.starts)-1]), now), true
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// A Node is a node as the tally knows it.
type Node struct {
	Name string
	// Type is the value of the node-type label ("" when absent).
	Type string
	// Capacity is status.allocatable pods.
	Capacity int
}

// pod is one pod the tally holds.
type pod struct {
	uid       types.UID
	obj       *v1.Pod
	job       *Job
	seq       uint64 // order of first Set
	node      string // effective node: spec.nodeName, else the assumption
	pending   bool
	running   bool
	started   bool  // the pod has status.startTime
	start     int64 // status.startTime, Unix ns
	prev, nxt *pod
}

type nodeEntry struct {
	node  Node
	known bool
	jobs  map[types.UID]int // running pods on the node, by job
}

// Tally is the per-job counts of one scheduler's view. Make it with New.
type Tally struct {
	mu           sync.Mutex
	scheduler    string
	typeLabel    string
	mapJob       func(*v1.Pod) podjob.Job
	seq          uint64
	pods         map[types.UID]*pod
	jobs         map[types.UID]*Job
	nodes        map[string]*nodeEntry
	assumed      map[types.UID]string
	changed      map[types.UID]struct{} // jobs changed since Changes
	stale        map[types.UID]struct{} // jobs whose Attr must be mapped again
	reset        bool                   // changed overflowed: Changes reports every job
	nodesChanged bool
	readers      []*Reader // the changes of other readers (NewReader)
	knownNodes   int
	pendingJobs  int
	view         View // Read's view of t
}

// New returns an empty tally counting pending pods of the named scheduler,
// reading node types from typeLabel ("" for none: every node has type "")
// and mapping a job's representative pod with mapJob (owner.Resolver.Job).
func New(scheduler, typeLabel string, mapJob func(*v1.Pod) podjob.Job) *Tally {
	t := &Tally{
		scheduler: scheduler, typeLabel: typeLabel, mapJob: mapJob,
		pods: map[types.UID]*pod{}, jobs: map[types.UID]*Job{}, nodes: map[string]*nodeEntry{},
		assumed: map[types.UID]string{}, changed: map[types.UID]struct{}{}, stale: map[types.UID]struct{}{},
	}
	t.view.t = t
	return t
}

// Set records the pod as the informer holds it now (an add, an update or
// a resync).
func (t *Tally) Set(p *v1.Pod) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.set(p)
}

func (t *Tally) set(obj *v1.Pod) {
	p, ok := t.pods[obj.UID]
	key := podjob.JobKey(obj)
	if ok && p.obj == obj {
		return // a resync of the same object
	}
	if !ok {
		t.seq++
		p = &pod{uid: obj.UID, seq: t.seq}
		t.pods[obj.UID] = p
	} else {
		t.uncount(p)
		if p.job.Key != key {
			t.unlink(p)
		}
	}
	p.obj = obj
	if p.job == nil {
		t.link(p, key)
	} else if p.job.first == p {
		t.restale(p.job) // the representative changed: map it again
	}
	t.count(p)
}

// Delete forgets the pod with the given UID (and any assumption of it).
func (t *Tally) Delete(uid types.UID) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.assumed, uid)
	p, ok := t.pods[uid]
	if !ok {
		return
	}
	t.uncount(p)
	t.unlink(p)
	delete(t.pods, uid)
}

// Assume records that the scheduler assumed the pod on node (Reserve): the
// pod is assigned there until it is bound (spec.nodeName set), Forget or
// Delete. An assumption may come before the pod's first Set.
func (t *Tally) Assume(uid types.UID, node string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if n, ok := t.assumed[uid]; ok && n == node {
		return // the same assumption, from another plugin's Reserve
	}
	t.assumed[uid] = node
	t.recount(uid)
}

// Forget drops the assumption of the pod (Unreserve).
func (t *Tally) Forget(uid types.UID) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if _, ok := t.assumed[uid]; !ok {
		return
	}
	delete(t.assumed, uid)
	t.recount(uid)
}

// recount counts the pod with the given UID again after its assumption
// changed.
func (t *Tally) recount(uid types.UID) {
	if p, ok := t.pods[uid]; ok {
		t.uncount(p)
		t.count(p)
	}
}

// SetNode records a node (an add or an update).
func (t *Tally) SetNode(n *v1.Node) {
	t.mu.Lock()
	defer t.mu.Unlock()
	node := Node{Name: n.Name, Capacity: int(n.Status.Allocatable.Pods().Value())}
	if t.typeLabel != "" {
		node.Type = n.Labels[t.typeLabel]
	}
	e := t.node(n.Name)
	if e.known && e.node == node {
		return
	}
	if e.known {
		t.moveType(e, -1)
	} else {
		t.knownNodes++
	}
	e.node, e.known = node, true
	t.moveType(e, +1)
	t.nodesChanged = true
	t.readersNodesChanged()
}

// DeleteNode forgets a node. Pods still assigned to it stay in Running.
func (t *Tally) DeleteNode(name string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	e, ok := t.nodes[name]
	if !ok || !e.known {
		return
	}
	t.moveType(e, -1)
	e.known = false
	t.knownNodes--
	t.nodesChanged = true
	t.readersNodesChanged()
	t.dropNode(e)
}

// OwnerChanged maps the job whose key is uid (a batch/v1 Job's UID) again:
// its owner was added, updated or deleted.
func (t *Tally) OwnerChanged(uid types.UID) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if j, ok := t.jobs[uid]; ok {
		t.restale(j)
	}
}

// Read calls f with the tally locked; f may call the Job methods and read
// the jobs Lookup returns, and must not keep them.
func (t *Tally) Read(f func(*View)) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.remap()
	f(&t.view)
}

// A View reads a locked tally.
type View struct{ t *Tally }

// Job returns the job with the given key, or nil.
func (v *View) Job(key types.UID) *Job { return v.t.jobs[key] }

// Mapped returns the attributes of the pod's job when the tally holds this
// very object (the informer's pointer) as its job's representative: they
// are then what the tally's mapJob gives for it, mapped once and not per
// call. ok is false otherwise, and the caller maps the pod itself.
func (v *View) Mapped(obj *v1.Pod) (j podjob.Job, ok bool) {
	p, held := v.t.pods[obj.UID]
	if !held || p.obj != obj || p.job.first != p {
		return podjob.Job{}, false
	}
	return p.job.Attr, true
}

// Changes calls f for each job whose counts or attributes changed since
// the last call (with nil for a job that no longer has pods), in no
// particular order, and reports whether the nodes (their set, types or
// capacities) changed. When more jobs changed than the tally keeps track
// of (more than twice the jobs it holds, plus 1,024: a plugin that has not
// read its tally for a long time), reset is true and f is called for every
// job the tally holds: the caller forgets what it derived before.
func (v *View) Changes(f func(key types.UID, j *Job)) (nodesChanged, reset bool) {
	t := v.t
	return v.changes(t.changed, &t.reset, &t.nodesChanged, f)
}

// EachJob calls f for every job the tally holds, in no particular order.
func (v *View) EachJob(f func(key types.UID, j *Job)) {
	for key, j := range v.t.jobs {
		f(key, j)
	}
}

// Nodes returns the known nodes, in no particular order.
func (v *View) Nodes() []Node {
	out := make([]Node, 0, v.t.knownNodes)
	for _, e := range v.t.nodes {
		if e.known {
			out = append(out, e.node)
		}
	}
	return out
}

// PendingJobs is the number of jobs with a pending pod.
func (v *View) PendingJobs() int { return v.t.pendingJobs }

// remap maps the representative of every stale job again.
func (t *Tally) remap() {
	for key := range t.stale {
		j := t.jobs[key]
		j.Attr, j.stale = t.mapJob(j.first.obj), false
	}
	clear(t.stale)
}

// mark records that the job changed, for Changes.
func (t *Tally) mark(j *Job) {
	for _, r := range t.readers {
		markIn(r.changed, &r.reset, j.Key, len(t.jobs))
	}
	markIn(t.changed, &t.reset, j.Key, len(t.jobs))
}

// restale marks the job changed and its attributes to be mapped again.
func (t *Tally) restale(j *Job) {
	t.mark(j)
	if !j.stale {
		j.stale = true
		t.stale[j.Key] = struct{}{}
	}
}

func (t *Tally) node(name string) *nodeEntry {
	e, ok := t.nodes[name]
	if !ok {
		e = &nodeEntry{node: Node{Name: name}, jobs: map[types.UID]int{}}
		t.nodes[name] = e
	}
	return e
}

// dropNode forgets a node entry that is neither known nor holds pods.
func (t *Tally) dropNode(e *nodeEntry) {
	if !e.known && len(e.jobs) == 0 {
		delete(t.nodes, e.node.Name)
	}
}

// moveType adds (sign +1) or removes (−1) the running pods on a known node
// to or from their jobs' ByType.
func (t *Tally) moveType(e *nodeEntry, sign int) {
	for key, n := range e.jobs {
		j := t.jobs[key]
		addType(j, e.node.Type, sign*n)
		t.mark(j)
	}
}

func addType(j *Job, typ string, n int) {
	if j.ByType == nil {
		j.ByType = map[string]int{}
	}
	j.ByType[typ] += n
	if j.ByType[typ] == 0 {
		delete(j.ByType, typ)
	}
}

// link appends the pod to its job's pods, making the job if needed, in
// the order of first Set (a pod whose job key changed keeps its place).
func (t *Tally) link(p *pod, key types.UID) {
	j, ok := t.jobs[key]
	if !ok {
		j = &Job{Key: key}
		t.jobs[key] = j
	}
	p.job = j
	after := j.last
	for after != nil && after.seq > p.seq {
		after = after.prev
	}
	p.prev = after
	if after == nil {
		p.nxt, j.first = j.first, p
	} else {
		p.nxt, after.nxt = after.nxt, p
	}
	if p.nxt == nil {
		j.last = p
	} else {
		p.nxt.prev = p
	}
	if j.first == p {
		t.restale(j)
	}
}

// unlink removes the pod from its job, forgetting the job when it was the
// last.
func (t *Tally) unlink(p *pod) {
	j := p.job
	if p.prev == nil {
		j.first = p.nxt
		if j.first != nil {
			t.restale(j)
		}
	} else {
		p.prev.nxt = p.nxt
	}
	if p.nxt == nil {
		j.last = p.prev
	} else {
		p.nxt.prev = p.prev
	}
	p.prev, p.nxt, p.job = nil, nil, nil
	if j.first == nil {
		t.mark(j)
		delete(t.jobs, j.Key)
		delete(t.stale, j.Key)
	}
}

// count adds the pod's contribution to its job's counts.
func (t *Tally) count(p *pod) {
	obj, j := p.obj, p.job
	live := obj.DeletionTimestamp == nil && obj.Status.Phase != v1.PodSucceeded && obj.Status.Phase != v1.PodFailed
	p.node = obj.Spec.NodeName
	if p.node == "" {
		p.node = t.assumed[p.uid]
	} else {
		delete(t.assumed, p.uid) // bound: the assumption has ended
	}
	p.pending = live && p.node == "" && obj.Spec.SchedulerName == t.scheduler
	p.running = live && p.node != ""
	p.started = obj.Status.StartTime != nil
	if p.started {
		p.start = obj.Status.StartTime.UnixNano()
	}
	if p.pending {
		if j.Pending == 0 {
			t.pendingJobs++
		}
		j.Pending++
		t.mark(j)
	}
	if p.running {
		t.addRunning(p, +1)
	}
}

// uncount removes the pod's contribution, as count added it.
func (t *Tally) uncount(p *pod) {
	j := p.job
	if p.pending {
		j.Pending--
		if j.Pending == 0 {
			t.pendingJobs--
		}
		t.mark(j)
	}
	if p.running {
		t.addRunning(p, -1)
	}
	p.pending, p.running = false, false
}

func (t *Tally) addRunning(p *pod, sign int) {
	j := p.job
	j.Running += sign
	e := t.node(p.node)
	e.jobs[j.Key] += sign
	if e.jobs[j.Key] == 0 {
		delete(e.jobs, j.Key)
	}
	if e.known {
		addType(j, e.node.Type, sign)
	}
	if sign < 0 {
		t.dropNode(e)
	}
	if !p.started {
		j.Unstarted += sign
	} else {
		i, _ := slices.BinarySearch(j.starts, p.start)
		if sign > 0 {
			j.starts = slices.Insert(j.starts, i, p.start)
		} else {
			j.starts = slices.Delete(j.starts, i, i+1)
		}
	}
	t.mark(j)
}

package deadlinecheck

import (
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	"github.com/schedkit/schedkit/adapters/kueue/api/v1alpha1"
)

// A viewCache keeps Map's views of one ClusterQueue's workloads for one
// check between reconciles, so that a workload that did not change costs
// a map lookup instead of Map (its annotations parsed, its pod request
// divided out of its pod sets, its model compiled in).
//
// A view is Map of the workload, its owner, the check, the ClusterQueue's
// quota and the check's models, at now. The API server gives an object a
// new resourceVersion on every change, so a workload's entry is keyed by
// its UID and holds for as long as its resourceVersion, and its owner's
// UID and resourceVersion (or its having none), are those it was taken
// at; the whole cache holds while the quota and the check's parameters
// are semantically those it was filled with. Only Executed depends on now
// (the time run in the current admission): an entry keeps the rest
// (stillView) and adds it at each use, as Map does. The views are then
// those of Map, bit for bit (TestPropViewCache).
//
// Entries of workloads a reconcile did not see are dropped once they
// outnumber those it saw, plus 64. A viewCache is used by one reconcile
// at a time: the reconciler keeps one per ClusterQueue and check
// (queueReconciler.views), and one ClusterQueue is never reconciled
// twice at once.
type viewCache struct {
	quota   corev1.ResourceList
	params  *v1alpha1.DeadlineParameters // nil: the check has none
	models  Models
	entries map[types.UID]*viewEntry
	// at is the entry each position of the last reconcile's list used:
	// a workload at the same place as before is found without hashing.
	at   []*viewEntry
	pass uint64 // reconciles begun
	used int    // entries this reconcile saw
}

// A viewEntry is one workload's still view and what it was taken from.
type viewEntry struct {
	uid        types.UID
	rv         string // the workload's resourceVersion
	needsOwner bool   // NeedsOwner at rv
	owner      ownerID
	s          stillView
	ok         bool // Map's ok
	pass       uint64
	// The delay learner's runningStill of the workload, once asked for,
	// and the owner it was read with.
	late      lateStill
	lateOK    bool
	lateSet   bool
	lateOwner ownerID
}

// ownerID is who an owner's metadata is: its UID and resourceVersion;
// zero for no owner.
type ownerID struct {
	uid types.UID
	rv  string
}

func ownerIDOf(m *metav1.ObjectMeta) ownerID {
	if m == nil {
		return ownerID{}
	}
	return ownerID{uid: m.UID, rv: m.ResourceVersion}
}

// begin starts a reconcile's use of the cache with the ClusterQueue's
// quota and the check's parameters, emptying it when either differs from
// what its entries were taken with. It returns the check's models.
func (c *viewCache) begin(quota corev1.ResourceList, params *v1alpha1.DeadlineParameters) Models {
	if c.entries == nil || !equality.Semantic.DeepEqual(c.quota, quota) || !sameParams(c.params, params) {
		c.entries = map[types.UID]*viewEntry{}
		clear(c.at)
		c.quota = quota
		c.params = params.DeepCopy()
		c.models = CompileModels(c.params)
	}
	c.pass++
	c.used = 0
	return c.models
}

func sameParams(a, b *v1alpha1.DeadlineParameters) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Name == b.Name && equality.Semantic.DeepEqual(a.Spec, b.Spec)
}

// end drops the entries of workloads this reconcile did not see once they
// outnumber those it saw, plus 64.
func (c *viewCache) end() {
	if len(c.entries) <= 2*c.used+64 {
		return
	}
	for uid, e := range c.entries {
		if e.pass != c.pass {
			delete(c.entries, uid)
		}
	}
	for i, e := range c.at {
		if e != nil && e.pass != c.pass {
			c.at[i] = nil
		}
	}
}

// view returns Map(wl, owner, check, c's quota, c's models, now), and the
// error reading wl's owner when it needs one (owner is asked only then);
// i is wl's position in the reconcile's list. A workload whose
// resourceVersion cannot key its content (a reconcile's own copy, changed
// in place by its writes: fresh) is mapped and not kept.
func (c *viewCache) view(i int, wl *kueue.Workload, fresh bool, check kueue.AdmissionCheckReference, now time.Time,
	owner func(*kueue.Workload) (*metav1.ObjectMeta, error)) (Workload, bool, error) {
	e := c.find(i, wl)
	kept := e != nil && !fresh
	if kept {
		e.markSeen(c)
	} else {
		e = &viewEntry{uid: wl.UID, rv: wl.ResourceVersion, needsOwner: NeedsOwner(wl)}
	}
	var m *metav1.ObjectMeta
	var err error
	if e.needsOwner {
		m, err = owner(wl)
	}
	if kept && e.owner == ownerIDOf(m) {
		return e.s.at(now), e.ok, err
	}
	e.s, e.ok = mapStill(wl, m, check, c.quota, c.models)
	e.owner = ownerIDOf(m)
	if !fresh && wl.ResourceVersion != "" {
		c.entries[wl.UID] = e
		e.markSeen(c)
		for len(c.at) <= i {
			c.at = append(c.at, nil)
		}
		c.at[i] = e
	}
	return e.s.at(now), e.ok, err
}

// late returns runningStill(wl, owner, check, c's models), where owner
// is wl's owner when NeedsOwner(wl), else nil; i is wl's position in the
// reconcile's list, fresh as for view. It is kept in wl's entry when the
// entry is at wl's resourceVersion (view made it) and its owner is the
// same.
func (c *viewCache) late(i int, wl *kueue.Workload, fresh bool, check kueue.AdmissionCheckReference,
	owner func(*kueue.Workload) (*metav1.ObjectMeta, error)) (lateStill, bool) {
	e := c.find(i, wl)
	kept := e != nil && !fresh
	var m *metav1.ObjectMeta
	if kept && e.needsOwner || !kept && NeedsOwner(wl) {
		m, _ = owner(wl)
	}
	if !kept {
		return runningStill(wl, m, check, c.models)
	}
	if !e.lateSet || e.lateOwner != ownerIDOf(m) {
		e.late, e.lateOK = runningStill(wl, m, check, c.models)
		e.lateSet, e.lateOwner = true, ownerIDOf(m)
	}
	return e.late, e.lateOK
}

// find returns wl's entry at its resourceVersion, or nil.
func (c *viewCache) find(i int, wl *kueue.Workload) *viewEntry {
	var e *viewEntry
	if i < len(c.at) && c.at[i] != nil && c.at[i].uid == wl.UID {
		e = c.at[i]
	} else {
		e = c.entries[wl.UID]
	}
	if e == nil || e.rv != wl.ResourceVersion {
		return nil
	}
	return e
}

// markSeen counts e as seen by the current reconcile.
func (e *viewEntry) markSeen(c *viewCache) {
	if e.pass != c.pass {
		e.pass = c.pass
		c.used++
	}
}

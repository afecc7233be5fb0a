package deadlinecheck

import (
	"context"
	"slices"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
)

// An etaTask is the ETA outcome of one pending workload, as a reconcile
// computed it from the workload it read.
type etaTask struct {
	cq    string
	check kueue.AdmissionCheckReference
	wl    *kueue.Workload
	w     Workload
	o     Outcome
	now   time.Time
}

// An etaWriter writes ETAs (annotations and Pending messages) in the
// background, etaWritesInFlight workloads at once, at most budget
// workloads a second over all ClusterQueues, each workload's latest outcome once, in the
// order they first came, except that a workload with no ETA yet goes
// before every workload whose ETA is an update: a user waits for the
// first ETA of a new workload, while an update moves an ETA already
// shown. Every write carries the resourceVersion it was
// computed from: a workload that changed meanwhile (say, the check made it
// Ready) is left alone, and its next ETA comes with the next reconcile.
// One write at most is in flight per workload: a task that comes while
// its workload is being written waits until that write is done. Two
// writes of one workload at once would refuse each other (each carries
// the version the other changes) and load the API server, and Kueue's
// webhooks that every Workload write goes through, for nothing.
type etaWriter struct {
	r      *queueReconciler
	budget *budget
	// inFlight is how many workloads' writes are in flight at most.
	inFlight int
	// write writes one task, first waiting for wait; r.actETA unless set.
	write func(ctx context.Context, t etaTask, wait func(context.Context) bool) (bool, error)

	// first reports whether a task is its workload's first ETA (nil: no
	// task goes first).
	first func(etaTask) bool
	// failed is told of a task whose write failed (nil: nobody).
	failed func(etaTask)
	mu     sync.Mutex
	tasks  map[types.UID]etaTask
	firsts []types.UID // tasks of workloads with no ETA yet, in order
	order  []types.UID // the other tasks, in order
	// writing holds the workloads whose write is in flight.
	writing map[types.UID]bool
	wake    chan struct{}
}

// etaWritesInFlight is how many workloads' ETAs the ETA writer writes at
// once. An ETA is for people and yields to admission: on an API server
// that has more requests than CPU, each request in flight gets about an
// equal share of it, so a writer with many writes in flight takes the
// share that Kueue's own writes (quota, admission) need, and the
// workloads whose ETAs it writes wait longer. With two in flight the
// writer's rate follows the API server's latency: at 50 ms a write (two
// per ETA) it is bounded by the budget, at a second a write it is one
// workload a second, and the writes it could not make yet are merged
// (a workload's latest ETA only).
const etaWritesInFlight = 2

func newETAWriter(r *queueReconciler, perSecond float64) *etaWriter {
	return &etaWriter{r: r, budget: newBudget(perSecond), inFlight: etaWritesInFlight, write: r.actETA, first: firstETA, failed: r.forgetHanded, tasks: map[types.UID]etaTask{},
		writing: map[types.UID]bool{}, wake: make(chan struct{}, 1)}
}

// firstETA reports whether t's workload carries no ETA yet.
func firstETA(t etaTask) bool { return !hasETA(t.wl) }

// hasETA reports whether wl carries the check's ETA annotations: the
// check gave it an ETA while it waited (a workload made Ready keeps them).
func hasETA(wl *kueue.Workload) bool {
	_, ok := wl.Annotations[StartP50Annotation]
	return ok
}

// put queues t, replacing the workload's task not yet written.
func (e *etaWriter) put(t etaTask) {
	e.mu.Lock()
	if _, ok := e.tasks[t.wl.UID]; !ok {
		if e.first != nil && e.first(t) {
			e.firsts = append(e.firsts, t.wl.UID)
		} else {
			e.order = append(e.order, t.wl.UID)
		}
	}
	e.tasks[t.wl.UID] = t
	e.mu.Unlock()
	select {
	case e.wake <- struct{}{}:
	default:
	}
}

// next takes the next task whose workload has no write in flight and
// marks it in flight; done ends it.
func (e *etaWriter) next() (etaTask, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	t, ok := e.pop(&e.firsts)
	if !ok {
		t, ok = e.pop(&e.order)
	}
	if ok {
		e.writing[t.wl.UID] = true
	}
	return t, ok
}

// done ends the write of a workload next handed out.
func (e *etaWriter) done(uid types.UID) {
	e.mu.Lock()
	delete(e.writing, uid)
	e.mu.Unlock()
	select {
	case e.wake <- struct{}{}:
	default:
	}
}

// pop takes the first task of q still queued whose workload has no write
// in flight; a task whose workload has one keeps its place. e.mu is held.
func (e *etaWriter) pop(q *[]types.UID) (etaTask, bool) {
	for i := 0; i < len(*q); {
		uid := (*q)[i]
		t, ok := e.tasks[uid]
		switch {
		case !ok: // replaced by a later put, or taken: drop the entry
			*q = slices.Delete(*q, i, i+1)
		case e.writing[uid]:
			i++
		default:
			*q = slices.Delete(*q, i, i+1)
			delete(e.tasks, uid)
			return t, true
		}
	}
	return etaTask{}, false
}

// Start runs the writer until ctx ends (a manager.Runnable: it runs on
// the elected leader only).
func (e *etaWriter) Start(ctx context.Context) error {
	var wg sync.WaitGroup
	for range e.inFlight {
		wg.Go(func() { e.loop(ctx) })
	}
	wg.Wait()
	return nil
}

func (e *etaWriter) loop(ctx context.Context) {
	log := ctrl.LoggerFrom(ctx)
	for {
		t, ok := e.next()
		if !ok {
			select {
			case <-ctx.Done():
				return
			case <-e.wake:
			case <-time.After(100 * time.Millisecond):
			}
			continue
		}
		wrote, err := e.write(ctx, t, e.wait)
		if err != nil && e.failed != nil {
			e.failed(t) // the next reconcile hands it over again
		}
		e.done(t.wl.UID)
		switch {
		case err != nil && !apierrors.IsConflict(err) && !apierrors.IsNotFound(err) && ctx.Err() == nil:
			log.V(1).Info("writing an ETA", "workload", t.o.Key, "error", err.Error())
		case log.V(2).Enabled():
			log.V(2).Info("ETA write", "workload", t.o.Key, "wrote", wrote, "conflict", apierrors.IsConflict(err),
				"computedAgo", time.Since(t.now).String(), "sinceCreation", time.Since(t.wl.CreationTimestamp.Time).String())
		}
	}
}

// wait blocks until the budget allows one more workload's ETA (false:
// ctx ended).
func (e *etaWriter) wait(ctx context.Context) bool {
	for !e.budget.take(time.Now()) {
		select {
		case <-ctx.Done():
			return false
		case <-time.After(time.Duration(float64(time.Second) / max(e.budget.rate, 1))):
		}
	}
	return true
}

package deadlinecheck

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
	kueueac "sigs.k8s.io/kueue/client-go/applyconfiguration/kueue/v1beta2"

	"github.com/schedkit/schedkit/adapters/kueue/api/v1alpha1"
)

// Index keys the reconciler registers on the manager's cache.
const (
	// IndexWorkloadQueue indexes Workloads by "namespace/spec.queueName".
	IndexWorkloadQueue = "schedkit.io/workload-queue"
	// IndexWorkloadClusterQueue indexes Workloads by status.admission.clusterQueue.
	IndexWorkloadClusterQueue = "schedkit.io/workload-cluster-queue"
	// IndexLocalQueueClusterQueue indexes LocalQueues by spec.clusterQueue.
	IndexLocalQueueClusterQueue = "schedkit.io/localqueue-cluster-queue"
)

// maxMessage is the longest admission check message Kueue's API accepts.
const maxMessage = 32768

// maxEventNote is the longest note of an events.k8s.io Event.
const maxEventNote = 1024

// staleRetry is how soon a ClusterQueue is looked at again when the cache
// has not yet caught up with the check's own last write.
const staleRetry = 250 * time.Millisecond

type eventRecorder interface {
	Eventf(regarding runtime.Object, related runtime.Object, eventtype, reason, action, note string, args ...interface{})
}

// queueReconciler decides and predicts for one ClusterQueue at a time:
// the reconcile key is the ClusterQueue's name, so the decisions of one
// queue are never taken concurrently and each sees the previous ones.
type queueReconciler struct {
	client   client.Client
	recorder eventRecorder
	clock    clock.PassiveClock
	cfg      Config
	metrics  *Metrics
	cache    *WorkCache
	refresh  time.Duration // how often ETAs are recomputed without events
	tol      time.Duration // an ETA annotation moves only by at least this much
	// etaEvery is the shortest time from the end of one ETA pass of a
	// ClusterQueue's check to the start of the next; 0: every reconcile.
	etaEvery time.Duration
	// etaSlice is the most work of an ETA pass one reconcile does, in
	// predicted starts (etapass.go); 0: the whole pass.
	etaSlice int
	// noETA: no ETA pass, and the ETA annotations are left as they are.
	noETA bool

	// written remembers, per workload UID, the resourceVersions a workload
	// had before the check's last writes to it: while the cache still shows
	// one of them it has not seen the writes, and deciding on it could
	// admit two workloads that each fit only without the other.
	mu      sync.Mutex
	written map[types.UID][]string
	// etaWritten is the same for the check's writes of ETAs only: while
	// the cache shows a workload as before one, its ETA is left alone.
	etaWritten map[types.UID][]string
	// etaPasses keeps each ClusterQueue's check's last ETA pass.
	etaPasses map[etaPassKey]*etaPass
	// etaWriter writes the ETAs of all ClusterQueues in the background;
	// nil: each reconcile writes its own after its decisions.
	etaWriter *etaWriter
	// rejectionWriter writes the deactivations of all ClusterQueues in
	// the background (rejectionwriter.go); nil: each reconcile writes its
	// own before it returns.
	rejectionWriter *etaWriter
	// reader reads past the cache (a refused verdict's fresh copy); nil:
	// a refused verdict requeues its ClusterQueue.
	reader client.Reader
	// wroteOn remembers, per workload UID, a verdict written onto a fresh
	// copy: until the cache shows the check in that state (or staleFor
	// has passed), the ClusterQueue's decisions wait.
	wroteOn map[types.UID]wroteState
	// badKinds remembers owner kinds that could not be read, for a while.
	badKinds map[schema.GroupVersionKind]badKind
	// delays learns each queue's start delay; nil: cfg.StartDelay.
	delays *delayLearner
	// edfBoost: write the EDF priority boost (priorityboost.go).
	edfBoost bool
	// arrivals learns each queue's arrivals for the ETA; nil: none.
	arrivals *arrivalLearner
	// writes times the check's status writes for the ETA's skip cost
	// (skips.go); nil: none, and no requeue batch either.
	writes *statusWrites
	// requeueBatch is Kueue's requeue batch period in the ETA (skips.go).
	requeueBatch time.Duration
	// views keeps Map's views of each ClusterQueue's check (viewCache).
	views map[etaPassKey]*viewCache
	// etaScratch keeps each ClusterQueue's check's ETA pass scratch.
	etaScratch map[etaPassKey]*etaScratch
	// handoffs remembers what each ClusterQueue's check handed the ETA
	// writer (etaHandoff).
	handoffs map[etaPassKey]*etaHandoff
	// orders keeps each ClusterQueue's listOrder, by etaPassKey{queue}.
	orders map[etaPassKey]*listOrder
	// series keeps each ClusterQueue's ETA series of its last reconcile,
	// by etaPassKey{queue}, to fill again.
	series map[etaPassKey]*[]seriesEntry
}

type etaPassKey struct {
	queue string
	check kueue.AdmissionCheckReference
}

// An etaPass is the ETAs and Pending notes of one ETA pass over a
// ClusterQueue, by workload UID, when it was started (the time its ETAs
// are counted from) and when it ended.
type etaPass struct {
	at, ended time.Time
	byID      map[types.UID]etaMemo
}

type etaMemo struct {
	eta  *ETA
	note string
}

// parallelWrites is how many of one reconcile's writes are in flight at
// once, each to a different workload.
const parallelWrites = 8

// A budget is a token bucket: rate tokens a second, at most burst held;
// nil allows everything. It is safe for concurrent use.
type budget struct {
	mu          sync.Mutex
	rate, burst float64
	tokens      float64
	last        time.Time
}

func newBudget(rate float64) *budget {
	if rate <= 0 {
		return nil
	}
	burst := max(rate, 1)
	return &budget{rate: rate, burst: burst, tokens: burst}
}

// take takes a token if one is there at now.
func (b *budget) take(now time.Time) bool {
	if b == nil {
		return true
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.last.IsZero() {
		b.tokens = min(b.burst, b.tokens+now.Sub(b.last).Seconds()*b.rate)
	}
	b.last = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

type badKind struct {
	until time.Time
	err   error
}

func (r *queueReconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	log := ctrl.LoggerFrom(ctx)
	defer r.metrics.timed("reconcile", time.Now())
	cq := &kueue.ClusterQueue{}
	if err := r.client.Get(ctx, req.NamespacedName, cq); err != nil {
		if apierrors.IsNotFound(err) {
			r.metrics.forgetQueue(req.Name)
			r.forgetViews(req.Name)
			return reconcile.Result{}, nil
		}
		return reconcile.Result{}, err
	}
	checks, err := r.checksOf(ctx, cq)
	if err != nil {
		return reconcile.Result{}, err
	}
	if len(checks) == 0 {
		r.metrics.forgetQueue(cq.Name)
		return reconcile.Result{}, nil
	}
	wls, err := r.workloadsOf(ctx, cq.Name)
	if err != nil {
		return reconcile.Result{}, err
	}
	stale, etaStale := r.stale(wls)
	if stale {
		log.V(3).Info("cache behind the check's last write; looking again shortly")
		return reconcile.Result{RequeueAfter: staleRetry}, nil
	}

	// Decisions are taken on whole seconds, the resolution of the times
	// Kueue records, so that the samples of running workloads are drawn
	// again at most once a second.
	now := r.clock.Now().Truncate(time.Second)
	quota := Quota(cq)
	queue := QueueOf(cq)
	seriesBuf := r.seriesOf(cq.Name)
	series := (*seriesBuf)[:0]
	var errs []error
	active, conflicts := false, false
	var etaLater time.Duration     // when a skipped ETA pass is due
	etaMore := false               // an ETA pass is in progress
	pending := 0                   // workloads waiting behind a check
	var own ownCopies              // the copies this reconcile writes through
	var finished []*kueue.Workload // finished since the last reconcile, for the delay learner
	if r.delays != nil {
		finished = r.delays.take(cq.Name)
	}
	for _, ch := range checks {
		key := etaPassKey{queue: cq.Name, check: ch.name}
		vc := r.viewsOf(key)
		vc.begin(quota, ch.params)
		views := make([]Workload, 0, len(wls))
		objs := make([]*kueue.Workload, 0, len(wls))
		owner := r.ownerReader(ctx)
		for at, wl := range wls {
			seen := own.seen(wl)
			w, ok, ownerErr := vc.view(at, seen, seen != wl, ch.name, now, owner)
			wl = seen
			if !ok {
				continue
			}
			if ownerErr != nil {
				log.Error(ownerErr, "cannot read a workload's owner", "workload", w.Key)
				w.Blocked = ownerErr
			}
			r.withBoost(&w)
			views = append(views, w)
			objs = append(objs, wl)
		}
		cfg, err := r.decisionConfig(ctx, key, finished, wls, vc, own, now)
		if err != nil {
			return reconcile.Result{}, fmt.Errorf("check %s: %w", ch.name, err)
		}
		t0 := time.Now()
		outs, works, err := decide(queue, views, now, cfg, r.cache, true)
		if err != nil {
			return reconcile.Result{}, fmt.Errorf("check %s: %w", ch.name, err)
		}
		vc.end()
		r.metrics.timed("decisions", t0)
		if r.noETA {
			for i := range outs {
				outs[i].etaUnknown = true // no pass: the ETA annotations stay as they are
			}
		} else {
			if r.arrivals != nil {
				r.arrivals.observe(key, views, works, outs)
			}
			more, later, err := r.advanceETAs(ctx, key, queue, views, works, outs, now, cfg)
			if err != nil {
				return reconcile.Result{}, fmt.Errorf("check %s: %w", ch.name, err)
			}
			etaMore = etaMore || more
			if later > 0 {
				etaLater = min(cmp.Or(etaLater, later), later)
			}
		}
		for i, o := range outs {
			if waitsBehind(views[i], o) {
				pending++
			}
		}
		t0 = time.Now()
		// The outcomes are written one by one. If some write fails, the
		// others still hold: every decision assumed all the plan's Ready
		// verdicts, so a Ready that was not written only leaves more room.
		// The verdicts Kueue waits on (workloads holding quota) go first,
		// so that the deactivations of a burst of hopeless or malformed
		// workloads waiting for quota do not hold them up. Up to
		// parallelWrites writes (of different workloads) are in flight at
		// once. The ETAs of the others go to the ETA writer, which writes
		// them in the background at its own pace: decisions never wait
		// for them.
		var mu sync.Mutex // guards errs, conflicts
		var wg sync.WaitGroup
		sem := make(chan struct{}, parallelWrites)
		write := func(i int, o Outcome) {
			defer func() { <-sem }()
			_, err := r.act(ctx, cq.Name, ch.name, objs[i], views[i], o, now) // objs[i]: own copy
			mu.Lock()
			defer mu.Unlock()
			switch {
			case apierrors.IsConflict(err) || apierrors.IsNotFound(err):
				// Changed or gone since the cache showed it: look again.
				conflicts = true
			case err != nil:
				errs = append(errs, fmt.Errorf("workload %s: %w", o.Key, err))
			}
		}
		// The ETAs go to the ETA writer before the verdicts are written, so
		// that a waiting workload's ETA does not wait for them.
		// Only the outcomes that changed since they were last handed over
		// (etaHandoff), each on the reconcile's own copy.
		if r.etaWriter != nil {
			h := r.handoffOf(key)
			h.begin()
			for i, o := range outs {
				// Without ETAs only the Pending notes that are not ETAs
				// (decide's: why a workload cannot be decided or never
				// fits, a rejection put back after Kueue's eviction).
				if o.Verdict == nil && !o.Deactivate && !etaStale[views[i].UID] && (!r.noETA || o.Note != "" || r.boostDue(objs[i], views[i])) && h.due(objs[i], o) { // else the cache has not seen the last ETA written
					r.etaWriter.put(etaTask{cq: cq.Name, check: ch.name, wl: own.of(objs[i]), w: views[i], o: o.detached(), now: now})
				}
			}
			h.end()
		}
		order := writeOrder(outs)
		var etaOnly, deactivations []int
		for _, i := range order {
			o := outs[i]
			active = true
			if o.ETA != nil && !o.Deactivate {
				series = append(series, seriesEntry{key: o.Key, namespace: objs[i].Namespace, workload: objs[i].Name, eta: *o.ETA})
			}
			if o.Verdict == nil && !o.Deactivate {
				etaOnly = append(etaOnly, i)
				continue
			}
			if o.Deactivate && r.rejectionWriter != nil {
				deactivations = append(deactivations, i)
				continue
			}
			objs[i] = own.of(objs[i])
			sem <- struct{}{}
			wg.Go(func() { write(i, o) })
		}
		wg.Wait()
		r.metrics.timed("writes", t0)
		for _, i := range deactivations {
			if !etaStale[views[i].UID] { // else being written, or written and not yet seen
				r.rejectionWriter.put(etaTask{cq: cq.Name, check: ch.name, wl: own.of(objs[i]), w: views[i], o: outs[i].detached(), now: now})
			}
		}
		for _, i := range etaOnly {
			o := outs[i]
			if etaStale[views[i].UID] || r.etaWriter != nil {
				continue // the cache has not seen the last ETA written; or put above
			}
			objs[i] = own.of(objs[i])
			sem <- struct{}{}
			wg.Go(func() { write(i, o) })
		}
		wg.Wait()
	}
	r.metrics.setQueue(cq.Name, series, pending)
	*seriesBuf = series
	if err := errors.Join(errs...); err != nil {
		return reconcile.Result{}, err
	}
	if etaMore {
		return reconcile.Result{RequeueAfter: etaSlicePause}, nil
	}
	if conflicts {
		return reconcile.Result{RequeueAfter: staleRetry}, nil
	}
	if etaLater > 0 {
		return reconcile.Result{RequeueAfter: min(etaLater, r.refresh)}, nil
	}
	if active {
		return reconcile.Result{RequeueAfter: r.refresh}, nil
	}
	return reconcile.Result{}, nil
}

// viewsOf returns the view cache of a ClusterQueue's check.
func (r *queueReconciler) viewsOf(key etaPassKey) *viewCache {
	r.mu.Lock()
	defer r.mu.Unlock()
	return keptFor(&r.views, key)
}

// handoffOf returns what a ClusterQueue's check handed the ETA writer.
func (r *queueReconciler) handoffOf(key etaPassKey) *etaHandoff {
	r.mu.Lock()
	defer r.mu.Unlock()
	return keptFor(&r.handoffs, key)
}

// forgetHanded makes the next reconcile hand t's workload's ETA outcome
// to the writer again (a write that failed).
func (r *queueReconciler) forgetHanded(t etaTask) {
	r.handoffOf(etaPassKey{queue: t.cq, check: t.check}).forget(t.wl.UID)
}

// seriesOf returns a ClusterQueue's buffer of ETA series.
func (r *queueReconciler) seriesOf(cq string) *[]seriesEntry {
	r.mu.Lock()
	defer r.mu.Unlock()
	return keptFor(&r.series, etaPassKey{queue: cq})
}

// etaScratchOf returns the ETA pass scratch of a ClusterQueue's check.
func (r *queueReconciler) etaScratchOf(key etaPassKey) *etaScratch {
	r.mu.Lock()
	defer r.mu.Unlock()
	return keptFor(&r.etaScratch, key)
}

// keptFor returns (*m)[key], a new zero value kept there if there is none.
func keptFor[V any](m *map[etaPassKey]*V, key etaPassKey) *V {
	if *m == nil {
		*m = map[etaPassKey]*V{}
	}
	v := (*m)[key]
	if v == nil {
		v = new(V)
		(*m)[key] = v
	}
	return v
}

// forgetViews drops the view caches, ETA scratch, hand-over memory,
// series buffer, list order and arrivals of a ClusterQueue that is gone.
func (r *queueReconciler) forgetViews(cq string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	maps.DeleteFunc(r.views, func(k etaPassKey, _ *viewCache) bool { return k.queue == cq })
	maps.DeleteFunc(r.etaScratch, func(k etaPassKey, _ *etaScratch) bool { return k.queue == cq })
	maps.DeleteFunc(r.handoffs, func(k etaPassKey, _ *etaHandoff) bool { return k.queue == cq })
	maps.DeleteFunc(r.series, func(k etaPassKey, _ *[]seriesEntry) bool { return k.queue == cq })
	maps.DeleteFunc(r.orders, func(k etaPassKey, _ *listOrder) bool { return k.queue == cq })
	if r.arrivals != nil {
		r.arrivals.forget(cq)
	}
}

// writeOrder returns the indexes of outs in the order their writes go:
// the Ready and Retry verdicts first, then the rejections of workloads
// holding quota, then the rest, each group in plan order.
func writeOrder(outs []Outcome) []int {
	order := make([]int, 0, len(outs))
	group := func(o Outcome) int {
		switch {
		case o.Verdict == nil || o.Deactivate:
			return 2
		case o.Verdict.State == kueue.CheckStateRejected:
			return 1
		}
		return 0
	}
	for pass := range 3 {
		for i, o := range outs {
			if group(o) == pass {
				order = append(order, i)
			}
		}
	}
	return order
}

type checkRef struct {
	name   kueue.AdmissionCheckReference
	params *v1alpha1.DeadlineParameters
}

// checksOf returns the schedkit.io/deadline checks a ClusterQueue uses
// whose parameters can be read, in name order.
func (r *queueReconciler) checksOf(ctx context.Context, cq *kueue.ClusterQueue) ([]checkRef, error) {
	if cq.Spec.AdmissionChecksStrategy == nil {
		return nil, nil
	}
	var out []checkRef
	for _, rule := range cq.Spec.AdmissionChecksStrategy.AdmissionChecks {
		ac := &kueue.AdmissionCheck{}
		if err := r.client.Get(ctx, client.ObjectKey{Name: string(rule.Name)}, ac); err != nil {
			if apierrors.IsNotFound(err) {
				continue
			}
			return nil, err
		}
		if ac.Spec.ControllerName != ControllerName {
			continue
		}
		p, err := parameters(ctx, r.client, ac)
		var bad *refError
		if errors.As(err, &bad) {
			continue // the check is inactive; Kueue admits nothing through it
		}
		if err != nil {
			return nil, err
		}
		out = append(out, checkRef{name: rule.Name, params: p})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out, nil
}

// workloadsOf lists the Workloads submitted to a ClusterQueue (through its
// LocalQueues) or holding quota in it, each once, in namespace/name order
// (the ClusterQueue's listOrder). They are the cache's own objects, not
// copies (UnsafeDisableDeepCopy): a reconcile reads them and writes
// through its own copies (ownCopies). A workload in both lists is taken
// from the ClusterQueue's, read last.
func (r *queueReconciler) workloadsOf(ctx context.Context, cq string) ([]*kueue.Workload, error) {
	lqs := &kueue.LocalQueueList{}
	if err := r.client.List(ctx, lqs, client.MatchingFields{IndexLocalQueueClusterQueue: cq}); err != nil {
		return nil, err
	}
	lists := make([]kueue.WorkloadList, len(lqs.Items)+1)
	n := 0
	for i, lq := range lqs.Items {
		if err := r.client.List(ctx, &lists[i], client.MatchingFields{IndexWorkloadQueue: lq.Namespace + "/" + lq.Name}, client.UnsafeDisableDeepCopy); err != nil {
			return nil, err
		}
		n += len(lists[i].Items)
	}
	l := &lists[len(lqs.Items)]
	if err := r.client.List(ctx, l, client.MatchingFields{IndexWorkloadClusterQueue: cq}, client.UnsafeDisableDeepCopy); err != nil {
		return nil, err
	}
	all := make([]listedWorkload, 0, n+len(l.Items))
	for i := range lists {
		list := 0
		if i == len(lqs.Items) {
			list = 1
		}
		for j := range lists[i].Items {
			all = append(all, listedWorkload{wl: &lists[i].Items[j], list: list})
		}
	}
	r.mu.Lock()
	o := keptFor(&r.orders, etaPassKey{queue: cq})
	r.mu.Unlock()
	return o.order(all), nil
}

// stale reports whether the cache still shows a workload as it was before
// the check's last decision written to it, and the workloads it shows as
// before the check's last ETA written to them; it forgets writes the cache
// has seen.
func (r *queueReconciler) stale(wls []*kueue.Workload) (bool, map[types.UID]bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	stale := false
	var etaStale map[types.UID]bool
	for _, wl := range wls {
		if ws, ok := r.wroteOn[wl.UID]; ok {
			if st := CheckState(wl, ws.check); st != nil && st.State != ws.state && r.clock.Now().Before(ws.until) {
				stale = true
			} else {
				delete(r.wroteOn, wl.UID)
			}
		}
		if rvs, ok := r.written[wl.UID]; ok {
			if slices.Contains(rvs, wl.ResourceVersion) {
				stale = true
			} else {
				delete(r.written, wl.UID)
			}
		}
		if rvs, ok := r.etaWritten[wl.UID]; ok {
			if slices.Contains(rvs, wl.ResourceVersion) {
				if etaStale == nil {
					etaStale = map[types.UID]bool{}
				}
				etaStale[wl.UID] = true
			} else {
				delete(r.etaWritten, wl.UID)
			}
		}
	}
	return stale, etaStale
}

// wroteState is a verdict written onto a freshly read copy: the check's
// state, and until when it holds decisions back.
type wroteState struct {
	check kueue.AdmissionCheckReference
	state kueue.CheckState
	until time.Time
}

// wroteOver records a verdict written onto a freshly read copy of a
// workload decided on at resourceVersion decided: the cache is behind
// while it shows that version, or any other in which the check is not
// yet in state, for at most staleFor.
func (r *queueReconciler) wroteOver(uid types.UID, decided string, check kueue.AdmissionCheckReference, state kueue.CheckState) {
	r.wrote(uid, decided, false, true)
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.wroteOn == nil {
		r.wroteOn = map[types.UID]wroteState{}
	}
	r.wroteOn[uid] = wroteState{check: check, state: state, until: r.clock.Now().Add(staleFor)}
}

// wrote records that the check wrote to a workload whose resourceVersion
// was before; first says whether it is the first write of this reconcile
// to it; decision, whether the write carries a decision (else an ETA only).
func (r *queueReconciler) wrote(uid types.UID, before string, first, decision bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	m := r.etaWritten
	if decision {
		m = r.written
	}
	if m == nil {
		m = map[types.UID][]string{}
		if decision {
			r.written = m
		} else {
			r.etaWritten = m
		}
	}
	if first {
		m[uid] = nil
	}
	m[uid] = append(m[uid], before)
}

// etaDue reports whether this reconcile of a ClusterQueue's check starts
// an ETA pass (when none is in progress): the last one ended etaEvery ago
// (or there is none), or a workload is deactivated now whose ETA the last
// one does not know (the deactivation carries it when the pass ends in
// this reconcile).
func (r *queueReconciler) etaDue(key etaPassKey, now time.Time, ws []Workload, outs []Outcome) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	p := r.etaPasses[key]
	if p == nil || r.etaEvery <= 0 || now.Sub(p.ended) >= r.etaEvery {
		return true
	}
	for i, o := range outs {
		if _, ok := p.byID[ws[i].UID]; o.Deactivate && !ok {
			return true
		}
	}
	return false
}

// rememberETAs keeps the ETAs and Pending notes of an ETA pass started at
// at over ws and ended at ended.
func (r *queueReconciler) rememberETAs(key etaPassKey, at, ended time.Time, ws []Workload, outs []Outcome) {
	p := &etaPass{at: at, ended: ended, byID: map[types.UID]etaMemo{}}
	for i, o := range outs {
		if ws[i].Phase == Waiting || ws[i].Phase == Deciding {
			p.byID[ws[i].UID] = etaMemo{eta: o.ETA, note: o.Note}
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.etaPasses == nil {
		r.etaPasses = map[etaPassKey]*etaPass{}
	}
	r.etaPasses[key] = p
}

// recallETAs gives the outcomes of a reconcile without an ETA pass the
// ETAs of the last one: a pending workload without a verdict its ETA and
// Pending note, one sent to Retry or deactivated its ETA. A pending
// workload the last pass did not know keeps the ETA it has (etaUnknown).
// It returns how long until the next pass is due when some workload
// waits for its first ETA, else 0. Before the first pass has ended every
// pending workload keeps the ETA it has.
func (r *queueReconciler) recallETAs(key etaPassKey, now time.Time, ws []Workload, outs []Outcome) time.Duration {
	r.mu.Lock()
	defer r.mu.Unlock()
	p := r.etaPasses[key]
	if p == nil {
		p = &etaPass{ended: now}
	}
	unknown := false
	for i := range outs {
		o := &outs[i]
		if ws[i].Phase != Waiting && ws[i].Phase != Deciding {
			continue
		}
		m, ok := p.byID[ws[i].UID]
		switch {
		case o.Verdict == nil && !o.Deactivate && o.Note == "":
			if ok {
				o.ETA, o.Note = m.eta, m.note
			} else {
				o.etaUnknown, unknown = true, true
			}
		case o.Deactivate || (o.Verdict != nil && o.Verdict.State == kueue.CheckStateRetry):
			if ok {
				o.ETA = m.eta
			} else {
				o.etaUnknown = true
			}
		}
	}
	if !unknown {
		return 0
	}
	return max(p.ended.Add(r.etaEvery).Sub(now), time.Second)
}

// ownerTimeout bounds a read of an owner's metadata: the first read of a
// kind starts a watch, which never syncs without list/watch permission.
const ownerTimeout = 5 * time.Second

// badOwnerKindFor is how long a kind whose owners could not be read fails
// fast, instead of waiting ownerTimeout again for every workload.
const badOwnerKindFor = time.Minute

// owner returns the metadata of wl's controlling owner when Map needs it
// (NeedsOwner: a key of the contract missing from its pod templates and its
// own annotations, or a relative deadline, counted from the owner's
// creation); nil when it does not, has no owner, or the owner is gone. An
// error says the owner exists but cannot be read (most often: no
// get/list/watch permission on its kind).
func (r *queueReconciler) owner(ctx context.Context, wl *kueue.Workload) (*metav1.ObjectMeta, error) {
	if !NeedsOwner(wl) {
		return nil, nil
	}
	return r.controllerOwner(ctx, wl)
}

// ownerReader returns controllerOwner with ctx, as a viewCache reads
// owners.
func (r *queueReconciler) ownerReader(ctx context.Context) func(*kueue.Workload) (*metav1.ObjectMeta, error) {
	return func(wl *kueue.Workload) (*metav1.ObjectMeta, error) { return r.controllerOwner(ctx, wl) }
}

// controllerOwner is owner for a workload that needs its owner.
func (r *queueReconciler) controllerOwner(ctx context.Context, wl *kueue.Workload) (*metav1.ObjectMeta, error) {
	ref := metav1.GetControllerOf(wl)
	if ref == nil {
		return nil, nil
	}
	gv, err := schema.ParseGroupVersion(ref.APIVersion)
	if err != nil {
		return nil, nil
	}
	gvk := gv.WithKind(ref.Kind)
	r.mu.Lock()
	bad, isBad := r.badKinds[gvk]
	r.mu.Unlock()
	if isBad && r.clock.Now().Before(bad.until) {
		return nil, fmt.Errorf("cannot read the annotations of its owner %s %s: %w", ref.Kind, ref.Name, bad.err)
	}
	m := &metav1.PartialObjectMetadata{}
	m.SetGroupVersionKind(gvk)
	cctx, cancel := context.WithTimeout(ctx, ownerTimeout)
	defer cancel()
	// The cache's own metadata, not a copy (read only: Map and the delay
	// learner read its annotations and creation): a reconcile reads the
	// owner of every workload that needs one.
	if err := r.client.Get(cctx, client.ObjectKey{Namespace: wl.Namespace, Name: ref.Name}, m, client.UnsafeDisableDeepCopy); err != nil {
		if apierrors.IsNotFound(err) {
			return nil, nil
		}
		r.mu.Lock()
		r.badKinds[gvk] = badKind{until: r.clock.Now().Add(badOwnerKindFor), err: err}
		r.mu.Unlock()
		return nil, fmt.Errorf("cannot read the annotations of its owner %s %s (grant get, list and watch on its kind): %w", ref.Kind, ref.Name, err)
	}
	if m.UID != ref.UID {
		return nil, nil
	}
	return &m.ObjectMeta, nil
}

// act writes one outcome: a decision on the check (a rejection first in
// RejectionAnnotation), a deactivation, the Pending message, and the
// check's annotations. It reports whether it wrote anything.
func (r *queueReconciler) act(ctx context.Context, cq string, check kueue.AdmissionCheckReference, wl *kueue.Workload, w Workload, o Outcome, now time.Time) (bool, error) {
	w0 := writer{r: r, wl: wl, decision: o.Verdict != nil || o.Deactivate}
	err := w0.act(ctx, cq, check, w, o, now)
	return w0.writes > 0, err
}

// actETA writes an ETA outcome, first waiting for wait (the ETA writer's
// budget) when it is about to write.
func (r *queueReconciler) actETA(ctx context.Context, t etaTask, wait func(context.Context) bool) (bool, error) {
	w0 := writer{r: r, wl: t.wl, wait: wait}
	err := w0.act(ctx, t.cq, t.check, t.w, t.o, t.now)
	if apierrors.IsConflict(err) {
		return w0.actFresh(ctx, t, err)
	}
	return w0.writes > 0, err
}

func (w0 *writer) act(ctx context.Context, cq string, check kueue.AdmissionCheckReference, w Workload, o Outcome, now time.Time) error {
	r, wl := w0.r, w0.wl
	w0.boost, w0.hasBoost, w0.manageBoost = r.boostOf(w)
	st := CheckState(wl, check)
	switch {
	case w.Phase == Deactivated:
		// Only the rejection message, put back after Kueue's eviction
		// reset it; the last ETA stays as it was. Not while the workload
		// still holds quota: Kueue's eviction is then under way (its
		// Job's reconciler stops the Job and takes the quota back,
		// writing the workload meanwhile), a write then refuses theirs
		// or is refused, and their next write resets it again. Taking
		// the quota back changes the workload, which brings the
		// reconcile that writes it.
		if o.Note != "" && st.Message != o.Note && !apimeta.IsStatusConditionTrue(wl.Status.Conditions, kueue.WorkloadQuotaReserved) {
			_, err := w0.setCheck(ctx, check, kueue.CheckStatePending, o.Note, 0, now)
			return err
		}
		return nil
	case o.Deactivate:
		// The check's message first: once spec.active is false, Kueue's
		// eviction changes the workload at once, and a message written
		// after it would conflict.
		v := o.Verdict
		if _, err := w0.setCheck(ctx, check, kueue.CheckStatePending, o.Note, 0, now); err != nil {
			return err
		}
		if err := w0.setMeta(ctx, o.ETA, o.etaUnknown, v.Message, true); err != nil {
			return err
		}
		r.metrics.decided(cq, v)
		r.recorder.Eventf(wl, nil, corev1.EventTypeWarning, "Deadline"+string(v.State), "Deactivate", "%s", truncate(o.Note, maxEventNote))
		return nil
	case o.Verdict != nil:
		v := o.Verdict
		rejection := ""
		if v.State == kueue.CheckStateRejected {
			rejection = v.Message
			if err := w0.setMeta(ctx, o.ETA, o.etaUnknown, rejection, false); err != nil {
				return err
			}
		}
		wrote, err := w0.setCheck(ctx, check, v.State, v.Message, v.RequeueAfter, now)
		if err != nil {
			return err
		}
		if wrote {
			r.metrics.decided(cq, v)
			kind := corev1.EventTypeNormal
			if v.State == kueue.CheckStateRejected {
				kind = corev1.EventTypeWarning
			}
			r.recorder.Eventf(wl, nil, kind, "Deadline"+string(v.State), "AdmissionCheck", "%s", truncate(v.Message, maxEventNote))
		}
		return w0.setMeta(ctx, o.ETA, o.etaUnknown || v.State == kueue.CheckStateReady, rejection, false)
	case o.Note != "" && st.State == kueue.CheckStatePending:
		// The ETA annotations go before the Pending note that repeats
		// them: each is a round trip through the API server and Kueue's
		// webhooks (seconds on a loaded control plane), and the
		// annotations are what tools read. Whether the note is due is
		// decided on the annotations as they were.
		note := st.Message != o.Note && (o.ETA == nil || !etaClose(wl.Annotations, *o.ETA, r.tol) || !isPendingNote(st.Message))
		if err := w0.setMeta(ctx, o.ETA, o.etaUnknown, "", false); err != nil || !note {
			return err
		}
		_, err := w0.setCheck(ctx, check, kueue.CheckStatePending, o.Note, 0, now)
		return err
	}
	// A workload the check made Ready keeps the ETA annotations it waited
	// with, its last prediction: removing them would write while Kueue
	// admits it and its Job's controller starts it.
	return w0.setMeta(ctx, o.ETA, o.etaUnknown || st.State == kueue.CheckStateReady, "", false)
}

// A writer writes one workload's outcome, remembering the resourceVersions
// it wrote over for the stale guard.
type writer struct {
	r        *queueReconciler
	wl       *kueue.Workload
	decision bool // the outcome carries a decision (else an ETA only)
	writes   int
	// wait, when set, is called once before the first write (the ETA
	// writer's budget); false stops the write.
	wait func(context.Context) bool
	// refreshed: the workload was read again after a conflict (fresh).
	refreshed bool
	// boost is the priority boost setMeta writes (none: !hasBoost), when
	// manageBoost (priorityboost.go).
	boost                 int32
	hasBoost, manageBoost bool
}

// ready calls wait before the first write.
func (w *writer) ready(ctx context.Context) error {
	if w.wait == nil {
		return nil
	}
	ok := w.wait(ctx)
	w.wait = nil
	if !ok {
		return ctx.Err()
	}
	return nil
}

func (w *writer) wrote(before string) {
	w.r.wrote(w.wl.UID, before, w.writes == 0, w.decision)
	w.writes++
}

// setCheck writes the check's state on the workload's status by
// server-side apply, as Kueue's own admission-check controllers do: the
// check's entry only (admissionChecks is a map keyed by name), field owner
// ControllerName, with the resourceVersion it was computed from, so that
// if the workload changed since it was read the write fails and the
// ClusterQueue is reconciled again. It reports whether it wrote (nothing
// is written when the check already says so).
func (w *writer) setCheck(ctx context.Context, check kueue.AdmissionCheckReference, state kueue.CheckState, msg string, after time.Duration, now time.Time) (bool, error) {
	wl := w.wl
	st := CheckState(wl, check)
	msg = truncate(msg, maxMessage)
	var requeue *int32
	if state == kueue.CheckStateRetry {
		s := int32(min(after.Seconds(), math.MaxInt32))
		requeue = &s
	}
	if st == nil {
		return false, fmt.Errorf("workload %s/%s no longer carries check %s", wl.Namespace, wl.Name, check)
	}
	// requeueAfterSeconds is the check's only in Retry: Kueue keeps it
	// through its eviction's reset (for the backoff), and an apply that
	// leaves it out does not take it from Kueue.
	if st.State == state && st.Message == msg && (state != kueue.CheckStateRetry || equalPtr(st.RequeueAfterSeconds, requeue)) {
		return false, nil
	}
	ltt := st.LastTransitionTime
	if st.State != state || ltt.IsZero() {
		ltt = metav1.NewTime(now)
	}
	entry := kueueac.AdmissionCheckState().WithName(check).WithState(state).WithMessage(msg).WithLastTransitionTime(ltt)
	if requeue != nil {
		entry.WithRequeueAfterSeconds(*requeue)
	}
	apply := kueueac.Workload(wl.Name, wl.Namespace).WithUID(wl.UID).WithResourceVersion(wl.ResourceVersion).
		WithStatus(kueueac.WorkloadStatus().WithAdmissionChecks(entry))
	before := wl.ResourceVersion
	if err := w.ready(ctx); err != nil {
		return false, err
	}
	sent := time.Now()
	err := w.r.client.Status().Apply(ctx, apply, client.FieldOwner(ControllerName), client.ForceOwnership)
	if err == nil && w.r.writes != nil {
		w.r.writes.record(time.Since(sent))
	}
	if apierrors.IsConflict(err) {
		if cur := w.fresh(ctx, check); cur != nil {
			decided := wl.ResourceVersion
			w.wl = cur
			if wrote, err := w.setCheck(ctx, check, state, msg, after, now); err != nil || !wrote {
				return wrote, err
			}
			w.r.wroteOver(cur.UID, decided, check, state)
			*wl = *w.wl
			return true, nil
		}
	}
	if err != nil {
		return false, err
	}
	w.wrote(before)
	st.State, st.Message, st.RequeueAfterSeconds, st.LastTransitionTime = state, msg, requeue, ltt
	if apply.ResourceVersion != nil {
		wl.ResourceVersion = *apply.ResourceVersion
	}
	return true, nil
}

// setMeta writes the check's annotations: the ETA ones (e; nil removes
// them; left alone while every value is within the tolerance, or when
// unknown), the
// rejection (RejectionAnnotation; "" removes it) and, with deactivate,
// spec.active false. The deactivation carries the resourceVersion the
// outcome was computed from: a workload that changed meanwhile (say, Kueue
// reserved quota for it) is reconciled again rather than deactivated.
func (w *writer) setMeta(ctx context.Context, e *ETA, unknown bool, rejection string, deactivate bool) error {
	wl := w.wl
	want := etaAnnotations(e)
	keepETA := unknown || e != nil && etaClose(wl.Annotations, *e, w.r.tol)
	changed := deactivate
	set := func(k, v string, has bool) {
		cur, had := wl.Annotations[k]
		if has != had || v != cur {
			changed = true
		}
	}
	if !keepETA {
		for _, k := range ETAAnnotations {
			v, has := want[k]
			set(k, v, has)
		}
	}
	set(RejectionAnnotation, rejection, rejection != "")
	if w.manageBoost {
		set(PriorityBoostAnnotation, FormatBoost(w.boost), w.hasBoost)
	}
	if !changed {
		return nil
	}
	orig := wl.DeepCopy()
	put := func(k, v string, has bool) {
		if has {
			if wl.Annotations == nil {
				wl.Annotations = map[string]string{}
			}
			wl.Annotations[k] = v
		} else {
			delete(wl.Annotations, k)
		}
	}
	if !keepETA {
		for _, k := range ETAAnnotations {
			v, has := want[k]
			put(k, v, has)
		}
	}
	put(RejectionAnnotation, rejection, rejection != "")
	if w.manageBoost {
		put(PriorityBoostAnnotation, FormatBoost(w.boost), w.hasBoost)
	}
	var patch client.Patch = client.MergeFrom(orig)
	if deactivate || !w.decision {
		// A deactivation, and an ETA written after the reconcile that
		// computed it: only onto the workload it was computed from.
		patch = client.MergeFromWithOptions(orig, client.MergeFromWithOptimisticLock{})
	}
	if deactivate {
		wl.Spec.Active = new(false)
	}
	before := wl.ResourceVersion
	if err := w.ready(ctx); err != nil {
		return err
	}
	if err := w.r.client.Patch(ctx, wl, patch); err != nil {
		if deactivate {
			return err
		}
		return client.IgnoreNotFound(err)
	}
	w.wrote(before)
	return nil
}

func etaAnnotations(e *ETA) map[string]string {
	if e == nil {
		return nil
	}
	m := map[string]string{
		StartP50Annotation: formatTime(e.StartP50),
		StartP90Annotation: formatTime(e.StartP90),
	}
	if e.HasFinish() {
		m[FinishP50Annotation] = formatTime(e.FinishP50)
		m[FinishP90Annotation] = formatTime(e.FinishP90)
	}
	return m
}

// etaClose reports whether the annotations already hold e's values within
// tol (and the same set of them).
func etaClose(ann map[string]string, e ETA, tol time.Duration) bool {
	want := []struct {
		key string
		t   time.Time
	}{{StartP50Annotation, e.StartP50}, {StartP90Annotation, e.StartP90}, {FinishP50Annotation, e.FinishP50}, {FinishP90Annotation, e.FinishP90}}
	for _, x := range want {
		cur, ok := ann[x.key]
		if x.t.IsZero() {
			if ok {
				return false
			}
			continue
		}
		if !ok {
			return false
		}
		t, err := time.Parse(time.RFC3339, cur)
		if err != nil {
			return false
		}
		if d := t.Sub(x.t); d >= tol || d <= -tol {
			return false
		}
	}
	return true
}

func isPendingNote(msg string) bool { return len(msg) >= 8 && msg[:8] == "Pending:" }

func equalPtr(a, b *int32) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n-3] + "..."
}

func unix(t time.Time) float64 { return float64(t.Unix()) }

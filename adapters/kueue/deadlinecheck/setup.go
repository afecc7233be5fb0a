package deadlinecheck

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	crmetrics "sigs.k8s.io/controller-runtime/pkg/metrics"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	"sigs.k8s.io/controller-runtime/pkg/source"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	"github.com/schedkit/schedkit/adapters/kueue/api/v1alpha1"
)

// Options configure the controller. Zero fields take the defaults noted.
type Options struct {
	// Config tunes the decisions; the zero value means DefaultConfig().
	Config Config
	// ETARefresh is how often a ClusterQueue's ETAs are recomputed when
	// nothing changes (time passing moves them); default 30 s.
	ETARefresh time.Duration
	// ETATolerance: an ETA annotation is rewritten only when one of its
	// times moves by at least this much; default 30 s. It keeps the
	// Workloads (and the events Kueue derives from the check message) from
	// churning on Monte-Carlo noise.
	ETATolerance time.Duration
	// ETAInterval is the shortest time from the end of one ETA pass of a
	// ClusterQueue to the start of the next (each replays Kueue's
	// admission for every pending workload); default 5 s, at most
	// ETARefresh. Decisions do not wait for it: every reconcile decides,
	// and between passes a workload keeps the ETA of the last one (a new
	// workload waits for its first ETA until the next pass ends; one
	// deactivated at once gets its ETA when a pass starts and ends in the
	// same reconcile).
	ETAInterval time.Duration
	// ETASliceStarts bounds the work of an ETA pass in one reconcile, in
	// predicted starts (one pending workload in one sample of the replay;
	// a workload's quantiles count a quarter of its samples, so a pass is
	// 1.25 × pending workloads × Config.Samples): a pass larger than
	// that runs over the reconciles that follow (each asked for 10 ms
	// later, each deciding first), on the queue as it was when the pass
	// started, and its ETAs land when it ends. Default
	// DefaultETASliceStarts; negative: the whole pass in one reconcile.
	ETASliceStarts int
	// ETAWritesPerSecond bounds how many workloads a second get their ETA
	// written (annotations and Pending message: two requests each), over
	// all ClusterQueues, so that ETAs moving in long queues do not load
	// the API server or hold up decisions; a workload held back gets its
	// ETA a moment later. Decisions are not counted. Default 10; negative:
	// no bound. Two workloads' ETAs are written at once at most, so a
	// slow API server slows the ETA writes below the bound.
	ETAWritesPerSecond float64
	// NoETA: the check predicts and writes no ETA. No ETA pass runs;
	// waiting workloads get neither the ETA annotations nor the Pending
	// message that gives their ETA, and no per-workload ETA metrics; the
	// check writes its decisions (verdicts, deactivations with their
	// messages, Retry with its requeueAfterSeconds, none of which reads an
	// ETA) and the Pending messages that are not ETAs (an owner it cannot
	// read, a pod larger than the quota, a rejection put back after
	// Kueue's eviction). It neither writes nor removes ETA annotations:
	// those an earlier run wrote stay until a run with ETAs replaces them.
	NoETA bool
	// NoETAArrivals: the ETAs count only the workloads there are, not
	// those the ClusterQueue's arrivals so far say will come (arrivals.go).
	NoETAArrivals bool
	// NoETASkips: the ETAs take no time for Kueue's scheduler to walk its
	// queue: neither the waiting workloads ahead it tries and does not
	// admit nor its requeue batch (skips.go).
	NoETASkips bool
	// KueueRequeueBatch is Kueue's batch period for putting the workloads
	// it set aside back into the queue when quota frees (skips.go): set it
	// to 10 s where Kueue runs with its SchedulerLongRequeueInterval
	// feature gate. Default DefaultKueueRequeueBatch; negative: none.
	KueueRequeueBatch time.Duration
	// EDFPriorityBoost: the check writes Kueue's priority boost
	// (PriorityBoostAnnotation) on the workloads waiting behind it, so
	// that Kueue's queue is in earliest-deadline-first order
	// (priorityboost.go). Kueue reads the boost only with its
	// PriorityBoost feature gate on.
	EDFPriorityBoost bool
	// StartDelayQuantile, when in (0, 1], makes each ClusterQueue's check
	// decide with the StartDelayQuantile-quantile of the start delay it
	// observed on its latest StartDelayWindow finished workloads
	// (ObservedDelay, EstimateDelay) instead of Config.StartDelay, which
	// stays in use until MinDelayObservations have finished. 0: off.
	StartDelayQuantile float64
	// StartDelayWindow: default DefaultDelayWindow.
	StartDelayWindow int
	// Workers is how many ClusterQueues are reconciled at once; default 4.
	// One ClusterQueue is never reconciled twice at once.
	Workers int
	// Clock is the time source; nil means the wall clock.
	Clock clock.PassiveClock
	// Registerer receives the metrics; nil means controller-runtime's
	// registry, served on the manager's metrics endpoint.
	Registerer prometheus.Registerer
}

// Defaults and bounds of Options.
const (
	DefaultETAInterval        = 5 * time.Second
	DefaultETASliceStarts     = 250_000
	DefaultWorkers            = 4
	DefaultETAWritesPerSecond = 10
	MaxWorkers                = 64
)

// Setup registers the controller with mgr: the field indexes, the
// AdmissionCheck reconciler that keeps schedkit.io/deadline checks Active,
// and the ClusterQueue reconciler that decides and predicts. mgr's scheme
// must know Kueue's v1beta2 types and v1alpha1.DeadlineParameters.
func Setup(ctx context.Context, mgr manager.Manager, opts Options) error {
	if opts.Config == (Config{}) {
		opts.Config = DefaultConfig()
	}
	if err := opts.Config.Validate(); err != nil {
		return err
	}
	if opts.ETARefresh == 0 {
		opts.ETARefresh = 30 * time.Second
	}
	if opts.ETATolerance == 0 {
		opts.ETATolerance = 30 * time.Second
	}
	if opts.ETAInterval == 0 {
		opts.ETAInterval = min(DefaultETAInterval, opts.ETARefresh)
	}
	if opts.ETAWritesPerSecond == 0 {
		opts.ETAWritesPerSecond = DefaultETAWritesPerSecond
	}
	if opts.Workers == 0 {
		opts.Workers = DefaultWorkers
	}
	if opts.KueueRequeueBatch == 0 {
		opts.KueueRequeueBatch = DefaultKueueRequeueBatch
	}
	if opts.ETASliceStarts == 0 {
		opts.ETASliceStarts = DefaultETASliceStarts
	}
	if opts.ETARefresh < 0 || opts.ETATolerance < 0 || opts.ETAInterval < 0 || opts.ETAInterval > opts.ETARefresh {
		return fmt.Errorf("ETARefresh = %v, ETATolerance = %v, ETAInterval = %v: must be >= 0, ETAInterval at most ETARefresh", opts.ETARefresh, opts.ETATolerance, opts.ETAInterval)
	}
	if opts.Workers < 0 || opts.Workers > MaxWorkers {
		return fmt.Errorf("Workers = %d: must be in [0, %d]", opts.Workers, MaxWorkers)
	}
	if opts.StartDelayWindow == 0 {
		opts.StartDelayWindow = DefaultDelayWindow
	}
	if opts.StartDelayQuantile != 0 {
		if _, err := EstimateDelay(nil, opts.StartDelayQuantile, opts.StartDelayWindow, 0); err != nil {
			return err
		}
	}
	if opts.Clock == nil {
		opts.Clock = clock.RealClock{}
	}
	if opts.Registerer == nil {
		opts.Registerer = crmetrics.Registry
	}
	if err := SetupIndexes(ctx, mgr.GetFieldIndexer()); err != nil {
		return err
	}
	m, err := NewMetrics(opts.Registerer)
	if err != nil {
		return err
	}
	c := mgr.GetClient()
	if err := ctrl.NewControllerManagedBy(mgr).
		Named("schedkit_deadline_admissioncheck").
		For(&kueue.AdmissionCheck{}).
		Watches(&v1alpha1.DeadlineParameters{}, handler.EnqueueRequestsFromMapFunc(func(ctx context.Context, o client.Object) []reconcile.Request {
			return checksUsing(ctx, c, o.GetName())
		})).
		Complete(&checkReconciler{client: c, clock: opts.Clock}); err != nil {
		return err
	}
	r := &queueReconciler{
		client:   c,
		reader:   mgr.GetAPIReader(),
		recorder: mgr.GetEventRecorder("schedkit-deadline"),
		clock:    opts.Clock,
		cfg:      opts.Config,
		metrics:  m,
		cache:    NewWorkCache(),
		refresh:  opts.ETARefresh,
		tol:      opts.ETATolerance,
		etaEvery: opts.ETAInterval,
		etaSlice: max(opts.ETASliceStarts, 0),
		noETA:    opts.NoETA,
		edfBoost: opts.EDFPriorityBoost,
		written:  map[types.UID][]string{},
		badKinds: map[schema.GroupVersionKind]badKind{},
	}
	if opts.StartDelayQuantile != 0 {
		r.delays = newDelayLearner(opts.StartDelayQuantile, opts.StartDelayWindow)
	}
	if !opts.NoETA && !opts.NoETAArrivals {
		r.arrivals = newArrivalLearner()
	}
	if !opts.NoETA && !opts.NoETASkips {
		r.writes = &statusWrites{}
		r.requeueBatch = max(opts.KueueRequeueBatch, 0)
	}
	r.etaWriter = newETAWriter(r, opts.ETAWritesPerSecond)
	if err := mgr.Add(r.etaWriter); err != nil {
		return err
	}
	r.rejectionWriter = newRejectionWriter(r)
	if err := mgr.Add(r.rejectionWriter); err != nil {
		return err
	}
	var workloads handler.TypedEventHandler[*kueue.Workload, reconcile.Request] = handler.TypedEnqueueRequestsFromMapFunc(func(ctx context.Context, wl *kueue.Workload) []reconcile.Request {
		return queueOf(ctx, c, wl)
	})
	if r.delays != nil {
		workloads = delayFeed{TypedEventHandler: workloads, l: r.delays}
	}
	return ctrl.NewControllerManagedBy(mgr).
		Named("schedkit_deadline_clusterqueue").
		WithOptions(controller.Options{MaxConcurrentReconciles: opts.Workers}).
		For(&kueue.ClusterQueue{}, builder.WithPredicates(predicate.GenerationChangedPredicate{})).
		WatchesRawSource(source.Kind(mgr.GetCache(), &kueue.Workload{}, workloads, notesOnly)).
		Watches(&kueue.LocalQueue{}, handler.EnqueueRequestsFromMapFunc(func(_ context.Context, o client.Object) []reconcile.Request {
			lq, ok := o.(*kueue.LocalQueue)
			if !ok || lq.Spec.ClusterQueue == "" {
				return nil
			}
			return []reconcile.Request{{NamespacedName: types.NamespacedName{Name: string(lq.Spec.ClusterQueue)}}}
		})).
		Watches(&kueue.AdmissionCheck{}, handler.EnqueueRequestsFromMapFunc(func(ctx context.Context, o client.Object) []reconcile.Request {
			return queuesUsing(ctx, c, o.GetName())
		})).
		Watches(&v1alpha1.DeadlineParameters{}, handler.EnqueueRequestsFromMapFunc(func(ctx context.Context, o client.Object) []reconcile.Request {
			var out []reconcile.Request
			for _, ac := range checksUsing(ctx, c, o.GetName()) {
				out = append(out, queuesUsing(ctx, c, ac.Name)...)
			}
			return out
		})).
		Complete(r)
}

// SetupIndexes registers the field indexes the reconciler lists by.
func SetupIndexes(ctx context.Context, idx client.FieldIndexer) error {
	return errors.Join(
		idx.IndexField(ctx, &kueue.Workload{}, IndexWorkloadQueue, WorkloadQueueIndex),
		idx.IndexField(ctx, &kueue.Workload{}, IndexWorkloadClusterQueue, WorkloadClusterQueueIndex),
		idx.IndexField(ctx, &kueue.LocalQueue{}, IndexLocalQueueClusterQueue, LocalQueueClusterQueueIndex),
	)
}

// WorkloadQueueIndex is the IndexWorkloadQueue function.
func WorkloadQueueIndex(o client.Object) []string {
	wl, ok := o.(*kueue.Workload)
	if !ok || wl.Spec.QueueName == "" {
		return nil
	}
	return []string{wl.Namespace + "/" + string(wl.Spec.QueueName)}
}

// WorkloadClusterQueueIndex is the IndexWorkloadClusterQueue function.
func WorkloadClusterQueueIndex(o client.Object) []string {
	wl, ok := o.(*kueue.Workload)
	if !ok || wl.Status.Admission == nil {
		return nil
	}
	return []string{string(wl.Status.Admission.ClusterQueue)}
}

// LocalQueueClusterQueueIndex is the IndexLocalQueueClusterQueue function.
func LocalQueueClusterQueueIndex(o client.Object) []string {
	lq, ok := o.(*kueue.LocalQueue)
	if !ok || lq.Spec.ClusterQueue == "" {
		return nil
	}
	return []string{string(lq.Spec.ClusterQueue)}
}

// queueOf maps a Workload to its ClusterQueue: the one it holds quota in,
// else its LocalQueue's.
func queueOf(ctx context.Context, c client.Client, o client.Object) []reconcile.Request {
	wl, ok := o.(*kueue.Workload)
	if !ok {
		return nil
	}
	var out []reconcile.Request
	if wl.Status.Admission != nil {
		out = append(out, reconcile.Request{NamespacedName: types.NamespacedName{Name: string(wl.Status.Admission.ClusterQueue)}})
	}
	if wl.Spec.QueueName != "" {
		lq := &kueue.LocalQueue{}
		if err := c.Get(ctx, client.ObjectKey{Namespace: wl.Namespace, Name: string(wl.Spec.QueueName)}, lq); err == nil && lq.Spec.ClusterQueue != "" {
			r := reconcile.Request{NamespacedName: types.NamespacedName{Name: string(lq.Spec.ClusterQueue)}}
			if len(out) == 0 || out[0] != r {
				out = append(out, r)
			}
		}
	}
	return out
}

// queuesUsing lists the ClusterQueues whose admission checks include the
// named one.
func queuesUsing(ctx context.Context, c client.Client, check string) []reconcile.Request {
	l := &kueue.ClusterQueueList{}
	if err := c.List(ctx, l); err != nil {
		return nil
	}
	var out []reconcile.Request
	for _, cq := range l.Items {
		if cq.Spec.AdmissionChecksStrategy == nil {
			continue
		}
		for _, r := range cq.Spec.AdmissionChecksStrategy.AdmissionChecks {
			if string(r.Name) == check {
				out = append(out, reconcile.Request{NamespacedName: types.NamespacedName{Name: cq.Name}})
				break
			}
		}
	}
	return out
}

// checksUsing lists the schedkit.io/deadline AdmissionChecks whose
// parameters name the DeadlineParameters object.
func checksUsing(ctx context.Context, c client.Client, params string) []reconcile.Request {
	l := &kueue.AdmissionCheckList{}
	if err := c.List(ctx, l); err != nil {
		return nil
	}
	var out []reconcile.Request
	for _, ac := range l.Items {
		p := ac.Spec.Parameters
		if ac.Spec.ControllerName == ControllerName && p != nil && p.APIGroup == v1alpha1.GroupVersion.Group && p.Kind == v1alpha1.Kind && p.Name == params {
			out = append(out, reconcile.Request{NamespacedName: types.NamespacedName{Name: ac.Name}})
		}
	}
	return out
}

// delayFeed is the Workload watch's handler when the start delay is
// learnt: it offers every workload it sees to the learner (which keeps the
// finished ones) and forgets deleted ones, then enqueues as the handler it
// wraps.
type delayFeed struct {
	handler.TypedEventHandler[*kueue.Workload, reconcile.Request]
	l *delayLearner
}

func (f delayFeed) Create(ctx context.Context, e event.TypedCreateEvent[*kueue.Workload], q workqueue.TypedRateLimitingInterface[reconcile.Request]) {
	if e.Object != nil {
		f.l.offer(e.Object)
	}
	f.TypedEventHandler.Create(ctx, e, q)
}

func (f delayFeed) Update(ctx context.Context, e event.TypedUpdateEvent[*kueue.Workload], q workqueue.TypedRateLimitingInterface[reconcile.Request]) {
	if e.ObjectNew != nil {
		f.l.offer(e.ObjectNew)
	}
	f.TypedEventHandler.Update(ctx, e, q)
}

func (f delayFeed) Delete(ctx context.Context, e event.TypedDeleteEvent[*kueue.Workload], q workqueue.TypedRateLimitingInterface[reconcile.Request]) {
	if e.Object != nil {
		f.l.forget(e.Object.GetUID())
	}
	f.TypedEventHandler.Delete(ctx, e, q)
}

package deadlinecheck

import (
	"errors"
	"slices"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
)

// Metrics are the check's Prometheus metrics, served on the manager's
// metrics endpoint:
//
//	schedkit_deadline_workload_predicted_start_timestamp_seconds{cluster_queue,namespace,workload,quantile}
//	schedkit_deadline_workload_predicted_finish_timestamp_seconds{cluster_queue,namespace,workload,quantile}
//	schedkit_deadline_workload_deadline_timestamp_seconds{cluster_queue,namespace,workload}
//	schedkit_deadline_pending_workloads{cluster_queue}
//	schedkit_deadline_decisions_total{cluster_queue,state,reason}
//	schedkit_deadline_plan_seconds{part}
//
// schedkit_deadline_plan_seconds is a histogram of the check's own work
// per reconcile of a ClusterQueue, by part: "decisions" (mapping the
// workloads and deciding), "etas" (the reconcile's slice of the ETA
// pass, which predicts every pending workload's start and finish),
// "writes" (the API calls writing the decisions),
// "eta_writes" (those writing ETAs) and "reconcile" (all of it, reads
// included).
// schedkit_deadline_pending_workloads counts the workloads waiting behind
// the check (for quota, or for its decision) that it has not deactivated
// or decided Ready or Rejected, with or without an ETA.
// The per-workload series exist while the workload is pending behind the
// check and has an ETA (quantile is "0.5" or "0.9"; times are Unix seconds) and are
// deleted when it is admitted, rejected, finished or gone.
type Metrics struct {
	start, finish *prometheus.GaugeVec
	deadline      *prometheus.GaugeVec
	pending       *prometheus.GaugeVec
	decisions     *prometheus.CounterVec
	plan          *prometheus.HistogramVec

	mu     sync.Mutex
	series map[string]*queueSeries // by cluster queue
}

// queueSeries are the per-workload series written for one ClusterQueue.
type queueSeries struct {
	byKey map[string]*seriesKey // workload key → what was written
	round uint64                // setQueue calls
	last  []seriesEntry         // the last setQueue call's series
}

// A seriesEntry is one workload's ETA series: its key (namespace/name),
// labels and ETA.
type seriesEntry struct {
	key, namespace, workload string
	eta                      ETA
}

// seriesKey is what was written for one workload: its labels and ETA,
// and the last setQueue call that had it.
type seriesKey struct {
	namespace, workload string
	eta                 ETA
	round               uint64
}

func (k *seriesKey) finish() bool   { return k.eta.HasFinish() }
func (k *seriesKey) deadline() bool { return !k.eta.Deadline.IsZero() }

// NewMetrics creates the metrics and registers them with reg.
func NewMetrics(reg prometheus.Registerer) (*Metrics, error) {
	m := &Metrics{
		start: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "schedkit_deadline_workload_predicted_start_timestamp_seconds",
			Help: "Predicted start of a pending workload behind a schedkit.io/deadline check, Unix seconds, by quantile (0.5, 0.9).",
		}, []string{"cluster_queue", "namespace", "workload", "quantile"}),
		finish: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "schedkit_deadline_workload_predicted_finish_timestamp_seconds",
			Help: "Predicted finish of a pending workload behind a schedkit.io/deadline check, Unix seconds, by quantile (0.5, 0.9).",
		}, []string{"cluster_queue", "namespace", "workload", "quantile"}),
		deadline: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "schedkit_deadline_workload_deadline_timestamp_seconds",
			Help: "Deadline of a pending workload behind a schedkit.io/deadline check, Unix seconds.",
		}, []string{"cluster_queue", "namespace", "workload"}),
		pending: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "schedkit_deadline_pending_workloads",
			Help: "Workloads pending behind a schedkit.io/deadline check, by ClusterQueue.",
		}, []string{"cluster_queue"}),
		decisions: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "schedkit_deadline_decisions_total",
			Help: "Decisions of the schedkit.io/deadline check, by ClusterQueue, check state and reason.",
		}, []string{"cluster_queue", "state", "reason"}),
		plan: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "schedkit_deadline_plan_seconds",
			Help:    "The check's work per reconcile of a ClusterQueue, seconds, by part (decisions, etas, writes, eta_writes, reconcile).",
			Buckets: prometheus.ExponentialBuckets(0.0005, 2, 18),
		}, []string{"part"}),
		series: map[string]*queueSeries{},
	}
	if err := errors.Join(
		register(reg, &m.start), register(reg, &m.finish), register(reg, &m.deadline),
		register(reg, &m.pending), register(reg, &m.decisions), register(reg, &m.plan),
	); err != nil {
		return nil, err
	}
	return m, nil
}

// register registers *c, or replaces *c with the collector already
// registered under its name (a controller set up again in the same
// process): the gauges are then cleared, since the new controller does not
// know the old series, and counters keep counting. NewMetrics registers
// every collector and joins the errors.
func register[C interface {
	prometheus.Collector
	*prometheus.GaugeVec | *prometheus.CounterVec | *prometheus.HistogramVec
}](reg prometheus.Registerer, c *C) error {
	err := reg.Register(*c)
	var are prometheus.AlreadyRegisteredError
	if errors.As(err, &are) {
		existing, ok := are.ExistingCollector.(C)
		if !ok {
			return err
		}
		if g, ok := any(existing).(*prometheus.GaugeVec); ok {
			g.Reset()
		}
		*c = existing
		return nil
	}
	return err
}

// timed records the seconds since start under part.
func (m *Metrics) timed(part string, start time.Time) {
	m.plan.WithLabelValues(part).Observe(time.Since(start).Seconds())
}

func (m *Metrics) decided(cq string, v *Verdict) {
	m.decisions.WithLabelValues(cq, string(v.State), string(v.Reason)).Inc()
}

// setQueue replaces the ETA series of one ClusterQueue with etas (a
// workload listed twice takes its last entry) and sets its pending
// workloads to pending. When etas are the last call's, entry for entry,
// only the pending gauge is set: between two ETA passes a reconcile of a
// long queue recalls the same ETAs, and comparing them in order costs
// no lookup. Otherwise only the series of workloads whose labels or ETA
// changed since the last call are written (a queue of 15,000 unchanged
// ETAs costs lookups, not 75,000 gauge writes); those of workloads no
// longer in etas are deleted.
func (m *Metrics) setQueue(cq string, etas []seriesEntry, pending int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	qs := m.series[cq]
	if qs == nil {
		qs = &queueSeries{byKey: map[string]*seriesKey{}}
		m.series[cq] = qs
	}
	defer m.pending.WithLabelValues(cq).Set(float64(pending))
	if slices.EqualFunc(qs.last, etas, sameEntry) {
		return
	}
	qs.last = append(qs.last[:0], etas...)
	qs.round++
	for _, x := range etas {
		key, e, nn := x.key, x.eta, [2]string{x.namespace, x.workload}
		old := qs.byKey[key]
		if old != nil && old.namespace == nn[0] && old.workload == nn[1] && sameTimes(old.eta, e) {
			old.round = qs.round
			continue
		}
		if old != nil && (old.namespace != nn[0] || old.workload != nn[1]) {
			m.deleteSeries(cq, old, nil)
			old = nil
		}
		k := &seriesKey{namespace: nn[0], workload: nn[1], eta: e, round: qs.round}
		m.start.WithLabelValues(cq, k.namespace, k.workload, "0.5").Set(unix(e.StartP50))
		m.start.WithLabelValues(cq, k.namespace, k.workload, "0.9").Set(unix(e.StartP90))
		if k.finish() {
			m.finish.WithLabelValues(cq, k.namespace, k.workload, "0.5").Set(unix(e.FinishP50))
			m.finish.WithLabelValues(cq, k.namespace, k.workload, "0.9").Set(unix(e.FinishP90))
		}
		if k.deadline() {
			m.deadline.WithLabelValues(cq, k.namespace, k.workload).Set(unix(e.Deadline))
		}
		if old != nil {
			m.deleteSeries(cq, old, k)
		}
		qs.byKey[key] = k
	}
	for key, k := range qs.byKey {
		if k.round != qs.round {
			m.deleteSeries(cq, k, nil)
			delete(qs.byKey, key)
		}
	}
}

// forgetQueue deletes every series of a ClusterQueue.
func (m *Metrics) forgetQueue(cq string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if qs := m.series[cq]; qs != nil {
		for _, k := range qs.byKey {
			m.deleteSeries(cq, k, nil)
		}
	}
	delete(m.series, cq)
	m.pending.DeleteLabelValues(cq)
}

// sameEntry reports whether a and b are the same series: key, labels and
// instants.
func sameEntry(a, b seriesEntry) bool {
	return a.key == b.key && a.namespace == b.namespace && a.workload == b.workload && sameTimes(a.eta, b.eta)
}

// deleteSeries deletes the series written for old that now, written for
// the same labels, does not have (now nil: all of them).
func (m *Metrics) deleteSeries(cq string, old, now *seriesKey) {
	for _, q := range []string{"0.5", "0.9"} {
		if now == nil {
			m.start.DeleteLabelValues(cq, old.namespace, old.workload, q)
		}
		if old.finish() && (now == nil || !now.finish()) {
			m.finish.DeleteLabelValues(cq, old.namespace, old.workload, q)
		}
	}
	if old.deadline() && (now == nil || !now.deadline()) {
		m.deadline.DeleteLabelValues(cq, old.namespace, old.workload)
	}
}

// sameTimes reports whether a and b hold the same instants.
func sameTimes(a, b ETA) bool {
	return a.StartP50.Equal(b.StartP50) && a.StartP90.Equal(b.StartP90) && a.FinishP50.Equal(b.FinishP50) &&
		a.FinishP90.Equal(b.FinishP90) && a.Deadline.Equal(b.Deadline)
}

// waitsBehind reports whether w, with outcome o, waits behind the check
// (for quota, or for its decision) and is not deactivated or decided
// Ready or Rejected: a workload schedkit_deadline_pending_workloads counts.
func waitsBehind(w Workload, o Outcome) bool {
	if w.Phase != Waiting && w.Phase != Deciding || o.Deactivate {
		return false
	}
	return o.Verdict == nil || o.Verdict.State == kueue.CheckStateRetry
}

package deadlinecheck

import (
	"errors"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
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
// workloads and deciding), "etas" (predicting every pending workload's
// start and finish), "writes" (the API calls writing the decisions),
// "eta_writes" (those writing ETAs) and "reconcile" (all of it, reads
// included).
// The per-workload series exist while the workload is pending behind the
// check (quantile is "0.5" or "0.9"; times are Unix seconds) and are
// deleted when it is admitted, rejected, finished or gone.
type Metrics struct {
	start, finish *prometheus.GaugeVec
	deadline      *prometheus.GaugeVec
	pending       *prometheus.GaugeVec
	decisions     *prometheus.CounterVec
	plan          *prometheus.HistogramVec

	mu     sync.Mutex
	series map[string]map[string]seriesKey // cluster queue → workload key → labels written
}

type seriesKey struct {
	namespace, workload string
	finish, deadline    bool
}

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
		series: map[string]map[string]seriesKey{},
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

// setQueue replaces the ETA series of one ClusterQueue with etas (keyed by
// namespace/name; a nil map forgets the queue).
func (m *Metrics) setQueue(cq string, etas map[string]ETA, names map[string][2]string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	old := m.series[cq]
	now := make(map[string]seriesKey, len(etas))
	for key, e := range etas {
		nn := names[key]
		k := seriesKey{namespace: nn[0], workload: nn[1], finish: e.HasFinish(), deadline: !e.Deadline.IsZero()}
		m.start.WithLabelValues(cq, k.namespace, k.workload, "0.5").Set(unix(e.StartP50))
		m.start.WithLabelValues(cq, k.namespace, k.workload, "0.9").Set(unix(e.StartP90))
		if k.finish {
			m.finish.WithLabelValues(cq, k.namespace, k.workload, "0.5").Set(unix(e.FinishP50))
			m.finish.WithLabelValues(cq, k.namespace, k.workload, "0.9").Set(unix(e.FinishP90))
		}
		if k.deadline {
			m.deadline.WithLabelValues(cq, k.namespace, k.workload).Set(unix(e.Deadline))
		}
		now[key] = k
	}
	for key, k := range old {
		n, still := now[key]
		if !still || (k.finish && !n.finish) {
			for _, q := range []string{"0.5", "0.9"} {
				if !still {
					m.start.DeleteLabelValues(cq, k.namespace, k.workload, q)
				}
				m.finish.DeleteLabelValues(cq, k.namespace, k.workload, q)
			}
		}
		if k.deadline && (!still || !n.deadline) {
			m.deadline.DeleteLabelValues(cq, k.namespace, k.workload)
		}
	}
	if etas == nil {
		delete(m.series, cq)
		m.pending.DeleteLabelValues(cq)
		return
	}
	m.series[cq] = now
	m.pending.WithLabelValues(cq).Set(float64(len(etas)))
}

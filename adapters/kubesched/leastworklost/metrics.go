package leastworklost

import (
	"sync"

	"k8s.io/component-base/metrics"
	"k8s.io/component-base/metrics/legacyregistry"
)

// Metrics, exposed on the scheduler's /metrics endpoint. Work lost is the
// victims' run time so far, in pod·seconds (preempt's slot·seconds with one
// slot per pod).
var (
	WorkLostSeconds = metrics.NewHistogramVec(&metrics.HistogramOpts{
		Subsystem:      "schedkit",
		Name:           "preemption_work_lost_seconds",
		Help:           "Work lost per preemption by LeastWorkLostPreemption: the sum of the victims' run times, in pod-seconds.",
		Buckets:        metrics.ExponentialBuckets(1, 4, 12), // 1 s … 48 days
		StabilityLevel: metrics.ALPHA,
	}, []string{"profile"})
	WorkLostSecondsTotal = profileCounter("preemption_work_lost_seconds_total",
		"Total work lost to LeastWorkLostPreemption's preemptions, in pod-seconds.")
	VictimsTotal = profileCounter("preemption_victims_total",
		"Pods preempted by LeastWorkLostPreemption.")
)

// profileCounter is the ALPHA counter schedkit_<name>, labelled by the
// scheduler profile.
func profileCounter(name, help string) *metrics.CounterVec {
	return metrics.NewCounterVec(&metrics.CounterOpts{
		Subsystem:      "schedkit",
		Name:           name,
		Help:           help,
		StabilityLevel: metrics.ALPHA,
	}, []string{"profile"})
}

var registerOnce sync.Once

func registerMetrics() {
	registerOnce.Do(func() {
		legacyregistry.MustRegister(WorkLostSeconds, WorkLostSecondsTotal, VictimsTotal)
	})
}

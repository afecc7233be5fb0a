//go:build e2e

package e2e

import (
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	ctrlmetrics "sigs.k8s.io/controller-runtime/pkg/metrics"
	kueuemetrics "sigs.k8s.io/kueue/pkg/metrics"
)

// counters are the counters of a metrics exposition and its histograms'
// _sum and _count, keyed by name and the labels kept (perfLabelsDropped
// are summed over).
type counters map[string]float64

// perfLabelsDropped are summed over: the per-ClusterQueue and per-priority
// splits of Kueue's metrics, whose ClusterQueues are the configuration's.
var perfLabelsDropped = []string{"cluster_queue", "priority_class", "replica_role"}

func flatten(fams map[string]*dto.MetricFamily) counters {
	c := counters{}
	for name, f := range fams {
		for _, m := range f.GetMetric() {
			var labels []string
			for _, l := range m.GetLabel() {
				if !slices.Contains(perfLabelsDropped, l.GetName()) {
					labels = append(labels, l.GetName()+"="+l.GetValue())
				}
			}
			key := name + "{" + strings.Join(labels, ",") + "}"
			switch {
			case m.Counter != nil:
				c[key] += m.Counter.GetValue()
			case m.Histogram != nil:
				c[name+"_sum{"+strings.Join(labels, ",")+"}"] += m.Histogram.GetSampleSum()
				c[name+"_count{"+strings.Join(labels, ",")+"}"] += float64(m.Histogram.GetSampleCount())
			}
		}
	}
	return c
}

// scraped reads a text exposition (the check's /metrics).
func scraped(t *testing.T, text string) counters {
	t.Helper()
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(strings.NewReader(text))
	if err != nil {
		t.Fatalf("parsing the check's metrics: %v", err)
	}
	return flatten(fams)
}

var registerKueueMetrics sync.Once

// inProcess returns the counters of this process's controller-runtime
// registry: Kueue's own metrics (registered on first use, as Kueue's main
// does), its controllers' and webhooks', and the runner's.
func inProcess(t *testing.T) counters {
	t.Helper()
	registerKueueMetrics.Do(kueuemetrics.Register)
	var g prometheus.Gatherer = ctrlmetrics.Registry
	fams, err := g.Gather()
	if err != nil {
		t.Fatalf("gathering Kueue's metrics: %v", err)
	}
	byName := map[string]*dto.MetricFamily{}
	for _, f := range fams {
		byName[f.GetName()] = f
	}
	return flatten(byName)
}

// logSince logs, in key order, what changed from prev to now among the
// keys whose name has one of prefixes.
func logSince(t *testing.T, config, source string, prev, now counters, prefixes ...string) {
	t.Helper()
	for _, k := range slices.Sorted(maps.Keys(now)) {
		d := now[k] - prev[k]
		if d == 0 || !slices.ContainsFunc(prefixes, func(p string) bool { return strings.HasPrefix(k, p) }) {
			continue
		}
		t.Logf("%s: %s %s %.6g", config, source, k, d)
	}
}

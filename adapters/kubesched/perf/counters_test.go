package perf

import (
	"maps"
	"testing"

	"k8s.io/component-base/metrics"
)

// The scheduler's opportunistic batching counters, by their label.
const (
	batchAttempts = "scheduler_batch_attempts_total"      // by result
	batchFlushes  = "scheduler_batch_cache_flushed_total" // by reason
)

// counters returns a counter vector's values by label, summed over its
// other labels; nil when the registry has none of it yet.
func counters(g metrics.Gatherer, name, label string) map[string]float64 {
	families, err := g.Gather()
	if err != nil {
		return nil
	}
	var out map[string]float64
	for _, f := range families {
		if f.GetName() != name {
			continue
		}
		for _, m := range f.GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == label && m.GetCounter() != nil {
					if out == nil {
						out = map[string]float64{}
					}
					out[l.GetValue()] += m.GetCounter().GetValue()
				}
			}
		}
	}
	return out
}

// since returns end − start by key, leaving out keys that did not grow;
// nil when none did.
func since(start, end map[string]float64) map[string]float64 {
	var out map[string]float64
	for k, v := range end {
		if d := v - start[k]; d > 0 {
			if out == nil {
				out = map[string]float64{}
			}
			out[k] = d
		}
	}
	return out
}

// TestCounters: a counter vector's values by one label, summed over the
// other (two profiles), nil for a metric the registry lacks; since keeps
// the keys that grew.
func TestCounters(t *testing.T) {
	reg := metrics.NewKubeRegistry()
	vec := metrics.NewCounterVec(&metrics.CounterOpts{Name: "batch_attempts_total", Help: "test"}, []string{"profile", "result"})
	reg.MustRegister(vec)
	vec.WithLabelValues("a", "hint_used").Add(3)
	vec.WithLabelValues("b", "hint_used").Add(2)
	vec.WithLabelValues("b", "no_hint").Add(7)
	got := counters(reg, "batch_attempts_total", "result")
	if want := map[string]float64{"hint_used": 5, "no_hint": 7}; !maps.Equal(got, want) {
		t.Errorf("counters = %v, want %v", got, want)
	}
	if got := counters(reg, "none_total", "result"); got != nil {
		t.Errorf("a missing metric: %v, want nil", got)
	}
	if got := counters(reg, "batch_attempts_total", "none"); got != nil {
		t.Errorf("a missing label: %v, want nil", got)
	}
	for _, c := range []struct{ start, end, want map[string]float64 }{
		{nil, nil, nil},
		{nil, map[string]float64{"no_hint": 4}, map[string]float64{"no_hint": 4}},
		{map[string]float64{"hint_used": 1, "no_hint": 4}, map[string]float64{"hint_used": 5, "no_hint": 4, "x": 2},
			map[string]float64{"hint_used": 4, "x": 2}},
		{map[string]float64{"no_hint": 4}, map[string]float64{"no_hint": 4}, nil},
	} {
		if got := since(c.start, c.end); !maps.Equal(got, c.want) || (c.want == nil) != (got == nil) {
			t.Errorf("since(%v, %v) = %v, want %v", c.start, c.end, got, c.want)
		}
	}
}

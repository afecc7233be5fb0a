package deadlinecheck

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"pgregory.net/rapid"
)

// propSetQueueIncremental checks setQueue, which writes only what changed,
// against metrics set once: after any sequence of calls over two
// ClusterQueues (workloads coming and going, ETAs moving, gaining and
// losing a finish or a deadline, a workload key renamed, a workload
// listed twice, a call repeating the queue's last one, a queue
// forgotten), the ETA series and pending gauges are those a fresh
// Metrics gets from each queue's last call alone.
func propSetQueueIncremental(t *rapid.T) {
	reg := prometheus.NewRegistry()
	m, err := NewMetrics(reg)
	if err != nil {
		t.Fatal(err)
	}
	type call struct {
		etas    []seriesEntry
		pending int
		forget  bool
	}
	last := map[string]call{}
	for range rapid.IntRange(1, 8).Draw(t, "calls") {
		cq := rapid.SampledFrom([]string{"cq1", "cq2"}).Draw(t, "queue")
		var c call
		switch prev, ok := last[cq]; {
		case ok && !prev.forget && rapid.Bool().Draw(t, "repeat?"):
			c = call{etas: slices.Clone(prev.etas), pending: rapid.IntRange(0, 9).Draw(t, "pending")}
		case rapid.Bool().Draw(t, "forget?") && rapid.Bool().Draw(t, "really"):
			c = call{forget: true}
		default:
			c = call{etas: []seriesEntry{}, pending: rapid.IntRange(0, 9).Draw(t, "pending")}
			for range rapid.IntRange(0, 6).Draw(t, "entries") {
				i := rapid.IntRange(0, 4).Draw(t, "workload")
				sec := func(label string) time.Time {
					return t0.Add(time.Duration(rapid.IntRange(0, 3).Draw(t, label)) * time.Second)
				}
				e := ETA{StartP50: sec("s50"), StartP90: sec("s90")}
				if rapid.Bool().Draw(t, "finish?") {
					e.FinishP50, e.FinishP90 = sec("f50"), sec("f90")
				}
				if rapid.Bool().Draw(t, "deadline?") {
					e.Deadline = sec("deadline")
				}
				c.etas = append(c.etas, seriesEntry{key: fmt.Sprintf("ns/w%d", i), namespace: "ns",
					workload: fmt.Sprintf("w%d-%d", i, rapid.IntRange(0, 1).Draw(t, "name")), eta: e})
			}
		}
		if c.forget {
			m.forgetQueue(cq)
		} else {
			m.setQueue(cq, c.etas, c.pending)
		}
		last[cq] = c
	}
	reg2 := prometheus.NewRegistry()
	m2, err := NewMetrics(reg2)
	if err != nil {
		t.Fatal(err)
	}
	for cq, c := range last {
		if c.forget {
			continue
		}
		// Set at once: each workload's last entry, each once.
		at := map[string]int{}
		for i, x := range c.etas {
			at[x.key] = i
		}
		var once []seriesEntry
		for i, x := range c.etas {
			if at[x.key] == i {
				once = append(once, x)
			}
		}
		m2.setQueue(cq, once, c.pending)
	}
	if got, want := gathered(t, reg), gathered(t, reg2); got != want {
		t.Fatalf("series after the calls:\n%s\nset at once:\n%s", got, want)
	}
}

// gathered is every gauge series of reg, one sorted line each.
func gathered(t *rapid.T, reg *prometheus.Registry) string {
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, mf := range mfs {
		for _, mt := range mf.GetMetric() {
			if mt.GetGauge() == nil {
				continue
			}
			var ls []string
			for _, l := range mt.GetLabel() {
				ls = append(ls, l.GetName()+"="+l.GetValue())
			}
			lines = append(lines, fmt.Sprintf("%s{%s} %v", mf.GetName(), strings.Join(ls, ","), mt.GetGauge().GetValue()))
		}
	}
	slices.Sort(lines)
	return strings.Join(lines, "\n")
}

func TestPropSetQueueIncremental(t *testing.T) { rapid.Check(t, propSetQueueIncremental) }

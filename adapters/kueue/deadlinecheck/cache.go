package deadlinecheck

import (
	"sync"
	"time"

	"github.com/schedkit/schedkit/tct/jct"
	"k8s.io/apimachinery/pkg/types"
)

// A WorkCache keeps the Monte-Carlo samples of each workload between plans
// of the same ClusterQueue: drawing them is most of a plan's cost (pods ×
// samples lognormal draws per workload), and a waiting workload's samples
// never change. Entries are keyed by everything the draws depend on (UID,
// pods left, time executed, slots, model, sample count, seed, start
// delay), so a plan
// with a cache gives exactly the outcomes of one without. Each plan keeps
// only the entries it used, so the cache holds the live workloads of each
// queue and no more. The zero value is not usable: call NewWorkCache. It
// is safe for concurrent use by plans of different queues.
type WorkCache struct {
	mu     sync.Mutex
	queues map[string]map[workKey]work
}

type workKey struct {
	uid      types.UID
	left     int
	executed time.Duration
	slots    int
	pod      jct.Lognormal
	exact    float64
	samples  int
	seed     uint64
	delay    time.Duration
}

// NewWorkCache returns an empty cache.
func NewWorkCache() *WorkCache { return &WorkCache{queues: map[string]map[workKey]work{}} }

// generation is the set of samples one plan of one queue uses.
type generation struct {
	old, next map[workKey]work
}

func (c *WorkCache) begin(queue string) *generation {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return &generation{old: c.queues[queue], next: map[workKey]work{}}
}

func (c *WorkCache) end(queue string, g *generation) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.queues[queue] = g.next
}

// work returns w's samples, drawn or remembered.
func (g *generation) work(w Workload, n int, seed uint64, delay time.Duration) (work, error) {
	if g == nil {
		return drawWork(w, n, seed, delay)
	}
	k := workKey{uid: w.UID, left: w.Pods - w.Done, executed: w.Executed, slots: w.Slots, pod: w.RunTime.Pod, exact: w.RunTime.Exact, samples: n, seed: seed, delay: delay}
	if wk, ok := g.next[k]; ok {
		return wk, nil
	}
	if wk, ok := g.old[k]; ok {
		g.next[k] = wk
		return wk, nil
	}
	wk, err := drawWork(w, n, seed, delay)
	if err == nil {
		g.next[k] = wk
	}
	return wk, err
}

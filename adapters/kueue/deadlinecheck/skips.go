package deadlinecheck

import (
	"math"
	"slices"
	"sync"
	"time"

	"github.com/schedkit/schedkit/tct/jct"
)

// The time Kueue's scheduler spends on the workloads it skips. Kueue
// v0.19's scheduler takes, in each scheduling cycle, the head of each
// ClusterQueue's queue. A head that fits the free quota gets it (the
// write that records it is made in the background: the next cycle starts
// at once); a head that does not fit is set aside as inadmissible, and
// its Workload's status gets the reason (QuotaReserved false, "… N more
// needed") in a write the cycle waits for whenever the reason changed.
// When a workload of the ClusterQueue finishes and frees quota, every
// workload set aside goes back into the queue, and the walk starts again
// from the head. So a workload that fits the quota freed at t gets it
// only after the cycles of the waiting workloads ahead of it that do not
// fit, one status write each: on a loaded control plane, seconds for a
// few dozen (the replay of adapters/cluster measured bursts of 3-pod
// Jobs getting quota 10–18 s after it was free, behind 5–28 older
// Workloads).
//
// The workloads set aside do not go back at once: Kueue's requeuer puts
// them back into the queue a batch period B after the quota frees (1 s in
// Kueue v0.19; 10 s with its SchedulerLongRequeueInterval feature gate),
// and a quota that frees again within B joins the same batch.
//
// The ETA replays that walk. With a skip cost c (seconds) and the batch
// period B, a job the replay finds fitting at instant t gets quota at
//
//	q = max(t, w + c·m)
//
// where w is when the walk began (B after the last instant at or before t
// at which quota freed; now at the start of the replay) and m is the number
// of jobs and arrivals ahead of it in the queue, entered and not started
// at that instant: those the walk tried and set aside. Its quota is held
// from t in the replay (nothing ahead of it fits it in between) and it
// runs from q. Jobs that fit cost nothing: they are admitted in cycles
// that do not wait. c is the median round trip of the check's own latest
// StatusWriteWindow Workload status writes (server-side apply of its
// admission-check state, through the same API server and Kueue's
// webhooks as Kueue's status write), once MinStatusWrites of them are
// measured; 0 before. B is Options.KueueRequeueBatch (-kueue-requeue-batch,
// default DefaultKueueRequeueBatch). With Options.NoETASkips neither
// counts: q = t.
//
// Approximations: a job that enters the queue within B of the quota
// freeing is tried by Kueue when it enters, ahead of the batch; the
// replay gives it w as it does the batch. Quota that frees again within
// B joins Kueue's pending batch; the replay moves w to B after the later
// freeing (up to B later). A walk interrupted by quota freeing again
// starts over in Kueue, visiting the jobs ahead once more; the replay
// keeps the quota time it gave a job when it found it fitting. A skipped head whose
// reason did not change costs Kueue no write; the replay counts one for
// every job ahead. Jobs entering the queue (arrivals, Retry's requeue) do
// not start a walk: Kueue tries them when they come, behind the heads not
// yet tried. And a scheduling cycle takes more than one status write: it
// takes a snapshot of Kueue's cache, and one that admits nothing backs
// off (1 ms doubling to 10 ms), which the replay does not count. On the
// three-day replay of adapters/cluster at 2× (2026-11-28, without B) the
// checks learnt c = 25–74 ms, so the skips added 0.2–2 s over the workloads
// ahead, while the late Jobs got quota 2–19 s after their p90 start, and
// the p90 finish covered 61–70 % of the Workloads. With B (and the p90s
// rounded up, plan.go's atUp), two runs at 2× covered 81–88 % (c learnt
// 26–150 ms); the Workloads still late by more than 3 s were all
// admitted 3–14 s after their p90 start, behind a burst.

// DefaultKueueRequeueBatch is Kueue v0.19's batch period for putting the
// workloads set aside back into the queue when quota frees.
const DefaultKueueRequeueBatch = time.Second

// A walkPace is how Kueue's scheduler walks its queue, in the ETA's
// replay: skip, the time it takes on each waiting job it tries and does
// not admit, and requeue, the batch period from quota freeing to the walk
// (seconds; zero: none).
type walkPace struct{ skip, requeue float64 }

const (
	// StatusWriteWindow is how many of the check's latest status writes
	// the skip cost is the median of.
	StatusWriteWindow = 50
	// MinStatusWrites is how many status writes the check measures before
	// the ETA counts a skip cost.
	MinStatusWrites = 10
)

// statusWrites keeps the round trips of the check's latest status writes
// (every ClusterQueue's: the control plane is one). Safe for concurrent
// use: reconciles and the ETA writer record into it.
type statusWrites struct {
	mu   sync.Mutex
	ring [StatusWriteWindow]time.Duration
	n    int     // writes recorded, in all
	told float64 // the skip cost last logged
}

// record adds the round trip d of one status write.
func (w *statusWrites) record(d time.Duration) {
	w.mu.Lock()
	w.ring[w.n%StatusWriteWindow] = d
	w.n++
	w.mu.Unlock()
}

// skip returns the skip cost in seconds: the median (jct's type 7) of
// the latest StatusWriteWindow round trips, 0 with fewer than
// MinStatusWrites.
func (w *statusWrites) skip() float64 {
	w.mu.Lock()
	m := min(w.n, StatusWriteWindow)
	xs := make([]float64, m)
	for i, d := range w.ring[:m] {
		xs[i] = d.Seconds()
	}
	w.mu.Unlock()
	if m < MinStatusWrites {
		return 0
	}
	d, err := jct.NewDistribution(xs)
	if err != nil {
		return 0 // samples jct refuses give no cost
	}
	c, err := d.Quantile(0.5)
	if err != nil {
		return 0
	}
	return c
}

// changed reports whether skip, a skip cost, differs from the one last
// reported changed by a quarter or more (the first nonzero one does), and
// remembers it if so.
func (w *statusWrites) changed(skip float64) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if math.Abs(skip-w.told) < 0.25*w.told || skip == w.told {
		return false
	}
	w.told = skip
	return true
}

// A presence counts, by queue position, the jobs of a replay in the queue
// and not started: a Fenwick tree over positions, n[i] for i in 1..size.
type presence struct{ n []int32 }

// init empties pr for size positions, reusing its slice.
func (pr *presence) init(size int) {
	pr.n = slices.Grow(pr.n[:0], size+1)[:size+1]
	clear(pr.n)
}

// leaf counts one job at position p as add does, without the tree above
// it; build then makes the tree of every leaf at once.
func (pr *presence) leaf(p int) { pr.n[p+1] = 1 }

// build turns n[1..size], one count per position, into the tree.
func (pr *presence) build() {
	for i := 1; i < len(pr.n); i++ {
		if j := i + i&-i; j < len(pr.n) {
			pr.n[j] += pr.n[i]
		}
	}
}

// add adds d at position p.
func (pr *presence) add(p int, d int32) {
	for i := p + 1; i < len(pr.n); i += i & -i {
		pr.n[i] += d
	}
}

// below returns the count at the positions before p.
func (pr *presence) below(p int) int32 {
	var c int32
	for i := p; i > 0; i -= i & -i {
		c += pr.n[i]
	}
	return c
}

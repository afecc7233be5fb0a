package deadlinecheck

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"pgregory.net/rapid"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
)

// inFlightRecorder stands in for a writer's writes: it counts the writes
// in flight, the most at once, and each workload's notes in the order
// written.
type inFlightRecorder struct {
	mu      sync.Mutex
	now     int
	most    int
	perWl   map[types.UID]int
	twice   bool // two writes of one workload in flight at once
	written map[types.UID][]string
	hold    time.Duration
}

func (rec *inFlightRecorder) write(_ context.Context, t etaTask, wait func(context.Context) bool) (bool, error) {
	rec.mu.Lock()
	rec.now++
	rec.most = max(rec.most, rec.now)
	rec.perWl[t.wl.UID]++
	if rec.perWl[t.wl.UID] > 1 {
		rec.twice = true
	}
	rec.mu.Unlock()
	time.Sleep(rec.hold)
	rec.mu.Lock()
	rec.now--
	rec.perWl[t.wl.UID]--
	rec.written[t.wl.UID] = append(rec.written[t.wl.UID], t.o.Note)
	rec.mu.Unlock()
	return true, nil
}

func inFlightTask(wl int, note string) etaTask {
	name := fmt.Sprintf("w%d", wl)
	return etaTask{wl: &kueue.Workload{ObjectMeta: metav1.ObjectMeta{Name: name, UID: types.UID("uid-" + name)}}, o: Outcome{Note: note}}
}

// runWriter puts tasks, runs e until every workload's last task is written
// (or 10 s pass) and returns what rec saw.
func runWriter(t interface{ Fatalf(string, ...any) }, e *etaWriter, rec *inFlightRecorder, tasks []etaTask) {
	e.write, e.failed = rec.write, nil
	last := map[types.UID]string{}
	for _, task := range tasks {
		e.put(task)
		last[task.wl.UID] = task.o.Note
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- e.Start(ctx) }()
	defer func() { cancel(); <-done }()
	deadline := time.Now().Add(10 * time.Second)
	for {
		rec.mu.Lock()
		all := true
		for uid, note := range last {
			w := rec.written[uid]
			if len(w) == 0 || w[len(w)-1] != note {
				all = false
			}
		}
		rec.mu.Unlock()
		if all {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("not every workload's last task written after 10 s: %v", rec.written)
		}
		time.Sleep(time.Millisecond)
	}
}

// The ETA writer has etaWritesInFlight (2) workloads' writes in flight at
// most, the rejection writer parallelWrites (8): 20 workloads whose
// writes each take 20 ms, put at once, reach those and no more.
func TestWriterInFlight(t *testing.T) {
	for _, tc := range []struct {
		name string
		new  func(*queueReconciler) *etaWriter
		want int
	}{
		{"ETA writer", func(r *queueReconciler) *etaWriter { return newETAWriter(r, -1) }, 2},
		{"rejection writer", func(r *queueReconciler) *etaWriter {
			e := newRejectionWriter(r)
			e.budget = nil
			return e
		}, 8},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := &inFlightRecorder{perWl: map[types.UID]int{}, written: map[types.UID][]string{}, hold: 20 * time.Millisecond}
			var tasks []etaTask
			for i := range 20 {
				tasks = append(tasks, inFlightTask(i, "n"))
			}
			runWriter(t, tc.new(heldQueue(t).r), rec, tasks)
			if rec.most != tc.want {
				t.Errorf("%d writes in flight at most, want %d", rec.most, tc.want)
			}
		})
	}
}

// propETAWriterInFlight: whatever tasks are put (workloads repeated, each
// put replacing the one not yet written), the ETA writer never has more
// than etaWritesInFlight writes in flight, never two of one workload, and
// writes every workload's last task, last.
func propETAWriterInFlight(t *rapid.T) {
	n := rapid.IntRange(1, 30).Draw(t, "tasks")
	workloads := rapid.IntRange(1, 10).Draw(t, "workloads")
	var tasks []etaTask
	for i := range n {
		tasks = append(tasks, inFlightTask(rapid.IntRange(0, workloads-1).Draw(t, fmt.Sprintf("workload%d", i)), fmt.Sprint(i)))
	}
	rec := &inFlightRecorder{perWl: map[types.UID]int{}, written: map[types.UID][]string{},
		hold: time.Duration(rapid.IntRange(0, 2000).Draw(t, "holdMicros")) * time.Microsecond}
	e := newETAWriter(&queueReconciler{}, -1)
	runWriter(t, e, rec, tasks)
	if rec.most > etaWritesInFlight {
		t.Fatalf("%d writes in flight, want at most %d", rec.most, etaWritesInFlight)
	}
	if rec.twice {
		t.Fatal("two writes of one workload in flight at once")
	}
}

func TestPropETAWriterInFlight(t *testing.T) { rapid.Check(t, propETAWriterInFlight) }

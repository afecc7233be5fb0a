package deadlinecheck

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
)

// The ETA writer writes the ETAs a reconcile handed it, after the
// reconcile has returned with its decisions written.
func TestETAWriterWritesInBackground(t *testing.T) {
	g := heldQueue(t)
	g.r.etaWriter = newETAWriter(g.r, 1000)
	g.reconcile(t)
	if got := g.workload(t, "p").Annotations[StartP50Annotation]; got != "" {
		t.Fatalf("ETA %q written before the writer ran", got)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- g.r.etaWriter.Start(ctx) }()
	defer func() { cancel(); <-done }()
	deadline := time.Now().Add(10 * time.Second)
	for g.workload(t, "p").Annotations[StartP50Annotation] != "2026-11-24T12:10:00Z" {
		if time.Now().After(deadline) {
			t.Fatalf("p's ETA not written: %v", g.workload(t, "p").Annotations)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// A budget of r a second allows its burst at once, then one every 1/r s.
func TestBudget(t *testing.T) {
	b := newBudget(2)
	at := t0
	for i := range 2 {
		if !b.take(at) {
			t.Fatalf("take %d of the burst refused", i)
		}
	}
	if b.take(at) {
		t.Error("a third take at once allowed")
	}
	if !b.take(at.Add(500 * time.Millisecond)) {
		t.Error("a take half a second later refused")
	}
	if newBudget(0) != nil || !newBudget(-1).take(at) {
		t.Error("a budget of no rate bounds something")
	}
}

// A reconcile hands the ETA writer its ETAs before it writes its
// verdicts: when v's verdict is written, p's ETA is already queued.
func TestETAsQueuedBeforeVerdicts(t *testing.T) {
	a := wl("a", 4, kueue.CheckStateReady, true, map[string]string{JobTypeAnnotation: "fixed"})
	a.Status.Conditions = append(a.Status.Conditions, cond(kueue.WorkloadAdmitted, metav1.ConditionTrue, t0))
	p := wl("p", 1, kueue.CheckStatePending, false, fixedType("2h"))
	v := wl("v", 1, kueue.CheckStatePending, true, fixedType("2h"))
	var ew *etaWriter
	queued := map[bool]int{}
	cl := fakeBuilder(t, interceptor.Funcs{SubResourceApply: func(ctx context.Context, c client.Client, sub string, o runtime.ApplyConfiguration, opts ...client.SubResourceApplyOption) error {
		ew.mu.Lock()
		_, ok := ew.tasks["uid-p"]
		ew.mu.Unlock()
		queued[ok]++
		return applyAsMerge(nil)(ctx, c, sub, o, opts...)
	}}, append(cluster(), a, p, v)...).Build()
	g := newRig(t, cl)
	ew = newETAWriter(g.r, 1000)
	g.r.etaWriter = ew
	g.reconcile(t)
	if queued[true] == 0 || queued[false] > 0 {
		t.Errorf("verdict writes with p's ETA queued: %d, without: %d; want all with", queued[true], queued[false])
	}
}

// A workload with no ETA yet is written before workloads whose ETA is an
// update, whatever order they came in; each group keeps its order. The
// rejection writer keeps the order deactivations came in.
func TestETAWriterFirstETAsFirst(t *testing.T) {
	task := func(name string, hasETA bool) etaTask {
		w := &kueue.Workload{ObjectMeta: metav1.ObjectMeta{Name: name, UID: types.UID("uid-" + name)}}
		if hasETA {
			w.Annotations = map[string]string{StartP50Annotation: "2026-11-24T12:10:00Z"}
		}
		return etaTask{wl: w}
	}
	order := func(e *etaWriter) string {
		var got []string
		for t, ok := e.next(); ok; t, ok = e.next() {
			got = append(got, t.wl.Name)
		}
		return strings.Join(got, " ")
	}
	g := heldQueue(t)
	e := newETAWriter(g.r, 1000)
	for _, t := range []etaTask{task("u1", true), task("n1", false), task("u2", true), task("n2", false), task("u1", true)} {
		e.put(t)
	}
	if got, want := order(e), "n1 n2 u1 u2"; got != want {
		t.Errorf("ETA writer wrote %q, want %q", got, want)
	}
	rej := newRejectionWriter(g.r)
	for _, t := range []etaTask{task("u1", true), task("n1", false), task("u2", true)} {
		rej.put(t)
	}
	if got, want := order(rej), "u1 n1 u2"; got != want {
		t.Errorf("rejection writer wrote %q, want %q", got, want)
	}
}

// With NoETA, a reconcile runs no ETA pass and writes its verdicts: a
// waiting workload keeps the ETA annotations it had (written by an
// earlier run with ETAs) and gets no Pending ETA message and no ETA
// series; a Pending message that is not an ETA (a workload without a
// deadline whose pod is larger than the quota) still goes to the writer;
// the pending gauge counts both.
func TestReconcileNoETA(t *testing.T) {
	a := wl("a", 4, kueue.CheckStateReady, true, map[string]string{JobTypeAnnotation: "fixed"})
	a.Status.Conditions = append(a.Status.Conditions, cond(kueue.WorkloadAdmitted, metav1.ConditionTrue, t0))
	p := wl("p", 1, kueue.CheckStatePending, false, fixedType("2h"))
	p.Annotations[StartP50Annotation] = "2026-11-24T11:00:00Z"
	big := wl("big", 1, kueue.CheckStatePending, false, map[string]string{JobTypeAnnotation: "fixed"})
	big.Spec.PodSets = []kueue.PodSet{podSet("main", 1, "8", "1Gi")}
	v := wl("v", 1, kueue.CheckStatePending, true, fixedType("2h"))
	g := newRig(t, newFakeClient(t, append(cluster(), a, p, big, v)...))
	g.r.noETA = true
	ew := newETAWriter(g.r, 1000)
	g.r.etaWriter = ew
	g.reconcile(t)
	if len(g.r.etaPasses) != 0 || g.r.etaScratchOf(etaPassKey{queue: "cq", check: testCheck}).inProgress() {
		t.Errorf("an ETA pass ran: %v", g.r.etaPasses)
	}
	if st := CheckState(g.workload(t, "v"), testCheck); st.State == kueue.CheckStatePending {
		t.Errorf("v's check %s %q: want its verdict written", st.State, st.Message)
	}
	var queued []string
	for uid, task := range ew.tasks {
		queued = append(queued, string(uid)+": "+task.o.Note)
		if task.o.ETA != nil {
			t.Errorf("task of %s carries an ETA %+v", uid, task.o.ETA)
		}
	}
	if len(queued) != 1 || !strings.HasPrefix(queued[0], "uid-big: Pending: no ETA, its pod") {
		t.Errorf("ETA writer tasks %q, want big's never-fits message only", queued)
	}
	pw := g.workload(t, "p")
	if pw.Annotations[StartP50Annotation] != "2026-11-24T11:00:00Z" || CheckState(pw, testCheck).Message != "" {
		t.Errorf("p's ETA changed: %v / %q", pw.Annotations, CheckState(pw, testCheck).Message)
	}
	if n := testutil.CollectAndCount(g.r.metrics.start); n != 0 {
		t.Errorf("%d ETA series, want none", n)
	}
	if got := testutil.ToFloat64(g.r.metrics.pending.WithLabelValues("cq")); got != 2 {
		t.Errorf("pending workloads %v, want 2 (p and big)", got)
	}
}

// One write at most is in flight per workload: a task put while its
// workload is being written waits, without holding up other workloads,
// until that write is done.
func TestETAWriterOneWritePerWorkload(t *testing.T) {
	task := func(name, note string) etaTask {
		return etaTask{wl: &kueue.Workload{ObjectMeta: metav1.ObjectMeta{Name: name, UID: types.UID("uid-" + name)}}, o: Outcome{Note: note}}
	}
	e := newETAWriter(heldQueue(t).r, 1000)
	e.put(task("x", "x1"))
	e.put(task("y", "y1"))
	if t1, ok := e.next(); !ok || t1.o.Note != "x1" {
		t.Fatalf("first task %q, %v; want x1", t1.o.Note, ok)
	}
	e.put(task("x", "x2")) // x1 is being written
	if t2, ok := e.next(); !ok || t2.o.Note != "y1" {
		t.Fatalf("second task %q, %v; want y1 (x2 waits for x1)", t2.o.Note, ok)
	}
	if t3, ok := e.next(); ok {
		t.Fatalf("task %q handed out while its workload is being written", t3.o.Note)
	}
	e.done("uid-x")
	if t4, ok := e.next(); !ok || t4.o.Note != "x2" {
		t.Fatalf("after x1's write, task %q, %v; want x2", t4.o.Note, ok)
	}
	e.done("uid-x")
	e.done("uid-y")
	if t5, ok := e.next(); ok {
		t.Errorf("task %q left over", t5.o.Note)
	}
}

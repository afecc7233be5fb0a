package deadlinecheck

import (
	"context"
	"math"
	"slices"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"pgregory.net/rapid"
	"sigs.k8s.io/controller-runtime/pkg/client"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
	"sigs.k8s.io/kueue/pkg/features"
	utilpriority "sigs.k8s.io/kueue/pkg/util/priority"
)

// TestDeadlineBoost: 2³¹−1 less the deadline's Unix seconds rounded up,
// within [0, 2³¹−1], worked by hand (t0 is Unix 1,795,521,600).
func TestDeadlineBoost(t *testing.T) {
	for _, c := range []struct {
		name string
		d    time.Time
		want int32
	}{
		{"no deadline (the zero time)", time.Time{}, 0},
		{"the Unix epoch", time.Unix(0, 0), math.MaxInt32},
		{"half a second after it rounds up", time.Unix(0, 5e8), math.MaxInt32 - 1},
		{"t0", t0, 351_962_047},
		{"a nanosecond after t0", t0.Add(time.Nanosecond), 351_962_046},
		{"t0 + 1 h", t0.Add(time.Hour), 351_958_447},
		{"t0 in another zone", t0.In(time.FixedZone("x", 5*3600)), 351_962_047},
		{"the last second", time.Unix(math.MaxInt32-1, 0), 1},
		{"2038-01-19T03:14:07Z", time.Unix(math.MaxInt32, 0), 0},
		{"after 2038", time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC), 0},
		{"before 1970", time.Date(1960, 1, 1, 0, 0, 0, 0, time.UTC), math.MaxInt32},
	} {
		if got := DeadlineBoost(c.d); got != c.want {
			t.Errorf("%s: DeadlineBoost(%v) = %d, want %d", c.name, c.d, got, c.want)
		}
	}
}

// propDeadlineBoost: the boost is in [0, 2³¹−1] and in EDF order (an
// earlier deadline never gets less, and gets more when the two round up
// to different seconds within the range), and Kueue's effective priority
// of a workload carrying it (PriorityBoost gate on) is spec.priority plus
// it, as Workload.Priority counts it.
func propDeadlineBoost(t *rapid.T) {
	at := func(label string) time.Time {
		return time.Unix(rapid.Int64Range(-1e10, 1e10).Draw(t, label+" s"), rapid.Int64Range(0, 999_999_999).Draw(t, label+" ns"))
	}
	a, b := at("a"), at("b")
	if b.Before(a) {
		a, b = b, a
	}
	ba, bb := DeadlineBoost(a), DeadlineBoost(b)
	if ba < 0 || bb < 0 {
		t.Fatalf("negative boost %d, %d", ba, bb)
	}
	if ba < bb {
		t.Fatalf("%v gets %d, the later %v %d", a, ba, b, bb)
	}
	up := func(x time.Time) int64 {
		s := x.Unix()
		if x.Nanosecond() > 0 {
			s++
		}
		return s
	}
	if ua, ub := up(a), up(b); ua < ub && ua < math.MaxInt32 && ub > 0 && ba == bb {
		t.Fatalf("%v and %v (seconds %d, %d) both get %d", a, b, ua, ub, ba)
	}
	base := rapid.Int32().Draw(t, "spec.priority")
	wl := &kueue.Workload{
		ObjectMeta: metav1.ObjectMeta{Annotations: map[string]string{PriorityBoostAnnotation: FormatBoost(ba)}},
		Spec:       kueue.WorkloadSpec{Priority: &base},
	}
	got, err := utilpriority.ParseEffectivePriority(wl)
	if err != nil {
		t.Fatalf("Kueue refuses the boost %q: %v", FormatBoost(ba), err)
	}
	w := Workload{Priority: int64(base), Deadline: a}
	(&queueReconciler{edfBoost: true}).withBoost(&w)
	if a.IsZero() {
		return
	}
	if w.Priority != got || w.Boost != ba {
		t.Fatalf("Workload.Priority %d (boost %d), Kueue's effective priority %d", w.Priority, w.Boost, got)
	}
}

func TestPropDeadlineBoost(t *testing.T) {
	features.SetFeatureGateDuringTest(t, features.PriorityBoost, true)
	rapid.Check(t, propDeadlineBoost)
}

func FuzzDeadlineBoost(f *testing.F) {
	features.SetFeatureGateDuringTest(f, features.PriorityBoost, true)
	f.Fuzz(rapid.MakeFuzz(propDeadlineBoost))
}

// TestGroupPriorities: ten distinct priorities 10…1 are cut into eight
// runs, each lifted to its highest: 10 9 | 8 | 7 | 6 | 5 4 | 3 | 2 | 1.
// At most eight stay as they are.
func TestGroupPriorities(t *testing.T) {
	ps := []int64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 4, 9}
	groupPriorities(ps, nil)
	if want := []int64{1, 2, 3, 5, 5, 6, 7, 8, 10, 10, 5, 10}; !slices.Equal(ps, want) {
		t.Errorf("grouped %v, want %v", ps, want)
	}
	few := []int64{3, -1, 3, 7, 0, 1, 2, 5, 6}
	groupPriorities(few, nil)
	if want := []int64{3, -1, 3, 7, 0, 1, 2, 5, 6}; !slices.Equal(few, want) {
		t.Errorf("eight distinct grouped to %v, want them as they were", few)
	}
}

// propGroupPriorities: at most maxArrivalBlocks distinct values remain,
// none lower than it was, in the same order (a ≥ b stays so).
func propGroupPriorities(t *rapid.T) {
	ps := rapid.SliceOf(rapid.Int64Range(-30, 30)).Draw(t, "priorities")
	got := slices.Clone(ps)
	groupPriorities(got, nil)
	d := slices.Compact(slices.Sorted(slices.Values(got)))
	if len(d) > maxArrivalBlocks {
		t.Fatalf("%d distinct: %v", len(d), got)
	}
	for i := range ps {
		if got[i] < ps[i] {
			t.Fatalf("%d lowered to %d", ps[i], got[i])
		}
		for j := range ps {
			if ps[i] >= ps[j] && got[i] < got[j] {
				t.Fatalf("%d ≥ %d, grouped %d < %d", ps[i], ps[j], got[i], got[j])
			}
		}
	}
}

func TestPropGroupPriorities(t *testing.T) { rapid.Check(t, propGroupPriorities) }

// TestArrivalPriority: a boosted record created 100 s before now with a
// deadline an hour after its creation is drawn with the boost of now + 1
// h: its priority less 100.
func TestArrivalPriority(t *testing.T) {
	created := t0.Add(-100 * time.Second)
	b := DeadlineBoost(created.Add(time.Hour))
	r := arrivalRecord{arrivalMark: arrivalMark{created: created}, priority: 5 + int64(b), boost: b, rel: time.Hour}
	if got, want := r.arrivalPriority(t0), 5+int64(b)-100; got != want {
		t.Errorf("boosted: %d, want %d", got, want)
	}
	r.boost = 0
	if got := r.arrivalPriority(t0); got != r.priority {
		t.Errorf("not boosted: %d, want its own %d", got, r.priority)
	}
}

// TestReconcileWritesBoost: with the option on, a waiting workload with a
// deadline gets its boost with its ETA, one without a deadline loses a
// boost it carries, and one holding quota is left as it is; the ETAs
// follow the boosted order: p2, created after p1 with an earlier
// deadline, starts first. Without the option nothing is written and p1
// starts first.
func TestReconcileWritesBoost(t *testing.T) {
	objs := func() []client.Object {
		a := wl("a", 4, kueue.CheckStateReady, true, map[string]string{JobTypeAnnotation: "fixed", DeadlineAnnotation: "5h", PriorityBoostAnnotation: "7"})
		a.Status.Conditions = append(a.Status.Conditions, cond(kueue.WorkloadAdmitted, metav1.ConditionTrue, t0))
		p1 := wl("p1", 4, kueue.CheckStatePending, false, fixedType("2026-11-24T15:00:00Z"))
		p1.CreationTimestamp = metav1.NewTime(t0.Add(-2 * time.Minute))
		p2 := wl("p2", 4, kueue.CheckStatePending, false, fixedType("2026-11-24T14:00:00Z"))
		q := wl("q", 1, kueue.CheckStatePending, false, map[string]string{JobTypeAnnotation: "fixed", PriorityBoostAnnotation: "5"})
		return append(cluster(), a, p1, p2, q)
	}
	for _, on := range []bool{true, false} {
		g := newRig(t, newFakeClient(t, objs()...))
		g.r.edfBoost = on
		g.reconcile(t)
		boost := func(name string) (string, bool) {
			v, ok := g.workload(t, name).Annotations[PriorityBoostAnnotation]
			return v, ok
		}
		start := func(name string) string { return g.workload(t, name).Annotations[StartP50Annotation] }
		if v, _ := boost("a"); v != "7" {
			t.Errorf("on %v: a, holding quota, carries boost %q, want 7 as it was", on, v)
		}
		if !on {
			if v, _ := boost("q"); v != "5" {
				t.Errorf("off: q's boost %q, want 5 as it was", v)
			}
			if _, ok := boost("p1"); ok {
				t.Error("off: p1 got a boost")
			}
			if s1, s2 := start("p1"), start("p2"); s1 != "2026-11-24T12:10:00Z" || s2 != "2026-11-24T12:20:00Z" {
				t.Errorf("off: starts p1 %s, p2 %s, want 12:10:00 and 12:20:00 (Kueue's FIFO)", s1, s2)
			}
			continue
		}
		// p1: 15:00:00 is Unix 1,795,532,400; p2: 14:00:00, 3,600 less.
		if v, _ := boost("p1"); v != "351951247" {
			t.Errorf("p1's boost %q, want 351951247", v)
		}
		if v, _ := boost("p2"); v != "351954847" {
			t.Errorf("p2's boost %q, want 351954847", v)
		}
		if v, ok := boost("q"); ok {
			t.Errorf("q, without a deadline, keeps boost %q", v)
		}
		if s1, s2 := start("p1"), start("p2"); s1 != "2026-11-24T12:20:00Z" || s2 != "2026-11-24T12:10:00Z" {
			t.Errorf("starts p1 %s, p2 %s, want 12:20:00 and 12:10:00 (EDF)", s1, s2)
		}
		// Someone removes p1's boost: the next reconcile, its ETA
		// unchanged, writes the boost alone.
		p1 := g.workload(t, "p1")
		delete(p1.Annotations, PriorityBoostAnnotation)
		if err := g.c.Update(context.Background(), p1); err != nil {
			t.Fatal(err)
		}
		g.reconcile(t)
		if v, _ := boost("p1"); v != "351951247" {
			t.Errorf("p1's boost after its removal %q, want 351951247 again", v)
		}
	}
}

// TestArrivalBlock: runs of priority 5, 3 and 1; a drifting record whose
// priority arriving now is 4 (its group's run: 5) takes, t seconds
// later, the last run of a priority at least 4 − ⌊t⌋.
func TestArrivalBlock(t *testing.T) {
	blocks := []int64{5, 3, 1}
	a := &etaArrivals{priorities: []int64{5, 3}, exact: []int64{4, 3}, drifts: []bool{true, false}}
	for _, c := range []struct {
		r    int
		t    float64
		want int
	}{
		{0, 0, 0},    // 4: the run of 5
		{0, 0.9, 0},  // still 4
		{0, 1.5, 1},  // 3
		{0, 2.99, 1}, // 2: the run of 3
		{0, 3, 2},    // 1
		{0, 1e12, 2}, // far below every run: the last
		{1, 50, 1},   // does not drift: its own run
	} {
		own := slices.Index(blocks, a.priorities[c.r])
		if got := a.block(c.r, c.t, blocks, own); got != c.want {
			t.Errorf("record %d at %v s: run %d, want %d", c.r, c.t, got, c.want)
		}
	}
}

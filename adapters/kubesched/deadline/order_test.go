package deadline

import (
	"math"
	"slices"
	"testing"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/edf"

	"github.com/schedkit/schedkit/adapters/internal/annotation"
	"github.com/schedkit/schedkit/adapters/kubesched/internal/podjob"
)

var t0 = time.Date(2026, 7, 1, 12, 0, 0, 0, time.UTC)

func TestKeyOf(t *testing.T) {
	owner := &batchv1.Job{ObjectMeta: metav1.ObjectMeta{Name: "j", Namespace: "ns", UID: "job-uid",
		CreationTimestamp: metav1.NewTime(t0), Annotations: map[string]string{annotation.Deadline: "30m"}}}
	p := &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "ns", UID: "pod-uid",
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "batch/v1", Kind: "Job", Name: "j", UID: "job-uid", Controller: ptr.To(true)}}},
		Spec: v1.PodSpec{Priority: ptr.To[int32](7)},
	}
	ts := t0.Add(time.Second)
	k := KeyOf(p, owner, ts)
	want := Key{Deadline: podjob.Seconds(t0.Add(30 * time.Minute)), Priority: 7, Timestamp: ts, Namespace: "ns", Name: "p", UID: "pod-uid"}
	if k != want {
		t.Errorf("KeyOf = %+v, want %+v", k, want)
	}
	if k := KeyOf(p, nil, ts); k.Deadline != edf.NoDeadline() {
		t.Errorf("owner not found: deadline %v, want none", k.Deadline)
	}
	p.Annotations = map[string]string{annotation.Deadline: "whenever"}
	if k := KeyOf(p, owner, ts); k.Deadline != edf.NoDeadline() {
		t.Errorf("malformed deadline: %v, want none", k.Deadline)
	}
}

func TestCompare(t *testing.T) {
	base := Key{Deadline: 100, Priority: 0, Timestamp: t0, Namespace: "a", Name: "a", UID: "a"}
	with := func(f func(*Key)) Key { k := base; f(&k); return k }
	// Each case: a goes before b.
	tests := []struct {
		name string
		a, b Key
	}{
		{"earlier deadline beats priority and age", with(func(k *Key) { k.Deadline = 50; k.Timestamp = t0.Add(time.Hour) }), with(func(k *Key) { k.Priority = 1000 })},
		{"any deadline before none", base, with(func(k *Key) { k.Deadline = edf.NoDeadline(); k.Priority = 1000 })},
		{"equal deadlines: higher priority", with(func(k *Key) { k.Priority = 1 }), base},
		{"then earlier queue time", base, with(func(k *Key) { k.Timestamp = t0.Add(time.Nanosecond) })},
		{"no deadline: higher priority", with(func(k *Key) { k.Deadline = edf.NoDeadline(); k.Priority = 1 }), with(func(k *Key) { k.Deadline = edf.NoDeadline() })},
		{"then namespace", base, with(func(k *Key) { k.Namespace = "b" })},
		{"then name", base, with(func(k *Key) { k.Name = "b" })},
		{"then UID", base, with(func(k *Key) { k.UID = "b" })},
	}
	for _, tt := range tests {
		if Compare(tt.a, tt.b) != -1 || Compare(tt.b, tt.a) != 1 {
			t.Errorf("%s: Compare(a, b) = %d, Compare(b, a) = %d; want -1, 1", tt.name, Compare(tt.a, tt.b), Compare(tt.b, tt.a))
		}
	}
	if Compare(base, base) != 0 {
		t.Errorf("Compare(k, k) = %d", Compare(base, base))
	}
}

func genKey() *rapid.Generator[Key] {
	return rapid.Custom(func(t *rapid.T) Key {
		d := rapid.OneOf(rapid.Float64Range(0, 10), rapid.Just(edf.NoDeadline())).Draw(t, "deadline")
		return Key{
			Deadline:  math.Round(d),
			Priority:  rapid.Int32Range(-2, 2).Draw(t, "priority"),
			Timestamp: t0.Add(time.Duration(rapid.IntRange(0, 3).Draw(t, "ts"))),
			Namespace: rapid.SampledFrom([]string{"a", "b"}).Draw(t, "ns"),
			Name:      rapid.SampledFrom([]string{"x", "y"}).Draw(t, "name"),
			UID:       types.UID(rapid.SampledFrom([]string{"1", "2"}).Draw(t, "uid")),
		}
	})
}

// propStrictWeakOrder: Compare is a total order on keys (the queue's heap
// needs a strict weak order, and ties only between identical keys).
func propStrictWeakOrder(t *rapid.T) {
	a, b, c := genKey().Draw(t, "a"), genKey().Draw(t, "b"), genKey().Draw(t, "c")
	if Compare(a, b) != -Compare(b, a) {
		t.Fatalf("not antisymmetric: %d %d", Compare(a, b), Compare(b, a))
	}
	if (Compare(a, b) == 0) != (a == b) {
		t.Fatalf("Compare(a, b) = 0 iff a == b fails for %+v %+v", a, b)
	}
	if Compare(a, b) < 0 && Compare(b, c) < 0 && Compare(a, c) >= 0 {
		t.Fatalf("not transitive: %+v < %+v < %+v", a, b, c)
	}
}

// constModel is a task completion time model for edf's queue.
type constModel struct{}

func (constModel) TCT(float64) float64 { return 10 }

// propAgreesWithEDF: among pods of equal priority, one per job, queued at
// their jobs' arrival, the pod the Deadline order puts first belongs to the
// job schedkit's edf.Queue.EDF picks.
func propAgreesWithEDF(t *rapid.T) {
	n := rapid.IntRange(1, 8).Draw(t, "jobs")
	var q edf.Queue
	keys := make([]Key, n)
	// Distinct arrivals: EDF breaks (deadline, arrival) ties by job ID,
	// which pods do not carry.
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	arrivals := rapid.Permutation(order).Draw(t, "arrivals")
	for i := range n {
		d := rapid.OneOf(rapid.Float64Range(0, 5), rapid.Just(edf.NoDeadline())).Draw(t, "deadline")
		if d != edf.NoDeadline() {
			d = math.Round(d)
		}
		arrival := float64(arrivals[i])
		if err := q.Add(edf.Job{ID: int64(i), Arrival: arrival, Deadline: d, Tasks: 1, Model: constModel{}}); err != nil {
			t.Fatal(err)
		}
		keys[i] = Key{Deadline: d, Timestamp: t0.Add(time.Duration(arrival) * time.Second), Namespace: "ns", Name: string(rune('a' + i))}
	}
	first := slices.IndexFunc(keys, func(k Key) bool {
		return !slices.ContainsFunc(keys, func(o Key) bool { return Compare(o, k) < 0 })
	})
	if got := q.EDF(); got.ID != int64(first) {
		t.Fatalf("Deadline order puts job %d first, edf.EDF picks %d (keys %+v)", first, got.ID, keys)
	}
}

func TestPropStrictWeakOrder(t *testing.T) { rapid.Check(t, propStrictWeakOrder) }
func TestPropAgreesWithEDF(t *testing.T)   { rapid.Check(t, propAgreesWithEDF) }

func TestNoArgs(t *testing.T) {
	for _, obj := range []runtime.Object{nil, &runtime.Unknown{}, &runtime.Unknown{Raw: []byte("{}")}, &runtime.Unknown{Raw: []byte("null")}} {
		if _, err := DecodeArgs(obj); err != nil {
			t.Errorf("%v: %v", obj, err)
		}
	}
	for _, obj := range []runtime.Object{&metav1.Status{}, &runtime.Unknown{Raw: []byte(`{"mode":"x"}`)}} {
		if _, err := DecodeArgs(obj); err == nil {
			t.Errorf("args %v accepted", obj)
		}
	}
}

func BenchmarkCompare(b *testing.B) {
	x := Key{Deadline: 100, Priority: 1, Timestamp: t0, Namespace: "ns", Name: "a", UID: "1"}
	y := x
	y.UID = "2"
	b.ReportAllocs()
	for b.Loop() {
		Compare(x, y)
	}
}

func BenchmarkKeyOf(b *testing.B) {
	p := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "ns", UID: "u",
		CreationTimestamp: metav1.NewTime(t0), Annotations: map[string]string{annotation.Deadline: "2026-07-01T15:00:00Z"}}}
	b.ReportAllocs()
	for b.Loop() {
		KeyOf(p, nil, t0)
	}
}

package replay

import (
	"context"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
)

func etaWorkload(name string, owner types.UID, start string) *kueue.Workload {
	wl := &kueue.Workload{ObjectMeta: metav1.ObjectMeta{Namespace: Namespace, Name: name,
		OwnerReferences: []metav1.OwnerReference{{APIVersion: "batch/v1", Kind: "Job", Name: "j", UID: owner}}}}
	if start != "" {
		wl.Annotations = map[string]string{annStartP50: start, annStartP90: start, annFinishP50: start, annFinishP90: start}
	}
	return wl
}

// TestETAWatchKeepsFirst: a Workload's ETA is kept under its owner's UID
// the first time one is complete and well formed; a later one does not
// replace it.
func TestETAWatchKeepsFirst(t *testing.T) {
	w := &etaWatch{first: map[types.UID]*ETA{}}
	w.note(etaWorkload("a", "job-a", ""))
	if e := w.of("job-a"); e != nil {
		t.Fatalf("an ETA from no annotations: %+v", e)
	}
	bad := etaWorkload("a", "job-a", "2026-11-28T02:00:00Z")
	bad.Annotations[annFinishP90] = "soon"
	w.note(bad)
	if e := w.of("job-a"); e != nil {
		t.Fatalf("an ETA from a malformed annotation: %+v", e)
	}
	w.note(etaWorkload("a", "job-a", "2026-11-28T02:00:00Z"))
	w.note(etaWorkload("a", "job-a", "2026-11-28T03:00:00Z"))
	e := w.of("job-a")
	if e == nil || !e.StartP50.Equal(time.Date(2026, 11, 28, 2, 0, 0, 0, time.UTC)) {
		t.Fatalf("first ETA %+v, want start 02:00:00", e)
	}
	if (*etaWatch)(nil).of("job-a") != nil || w.of("job-b") != nil {
		t.Errorf("an ETA for no watch or another owner")
	}
}

// TestWatchETAs: an ETA written after the watch started is kept, with the
// time the watch brought it.
func TestWatchETAs(t *testing.T) {
	s := runtime.NewScheme()
	if err := kueue.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	c := fake.NewClientBuilder().WithScheme(s).Build()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w := watchETAs(ctx, c, Namespace)
	wl := etaWorkload("a", "job-a", "")
	if err := c.Create(ctx, wl); err != nil {
		t.Fatal(err)
	}
	before := time.Now()
	wl.Annotations = etaWorkload("a", "job-a", "2026-11-28T02:00:00Z").Annotations
	if err := c.Update(ctx, wl); err != nil {
		t.Fatal(err)
	}
	for range 100 {
		if e := w.of("job-a"); e != nil {
			if e.Seen.Before(before) {
				t.Errorf("seen at %v, before it was written (%v)", e.Seen, before)
			}
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatal("the watch brought no ETA in 10 s")
}

package leastworklost

import (
	"testing"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/cache"
)

// TestForget: a victim's updates after its eviction keep it among the
// evicted (an update delivered late once let a preemptor choose a victim
// whose deletion the API server had already accepted); a bound preemptor's
// update forgets its victims; a deletion, also as a tombstone, forgets both.
func TestForget(t *testing.T) {
	pod := func(uid types.UID, node string) *v1.Pod {
		return &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: string(uid), UID: uid}, Spec: v1.PodSpec{NodeName: node}}
	}
	has := func(pl *LeastWorkLostPreemption, uid types.UID) (victims, evicted bool) {
		_, victims = pl.victims.Load(uid)
		_, evicted = pl.evicted.Load(uid)
		return victims, evicted
	}
	for _, tc := range []struct {
		name                 string
		event                func(pl *LeastWorkLostPreemption)
		wantVictims, wantEvd bool
	}{
		{"victim updated on its node", func(pl *LeastWorkLostPreemption) { pl.podUpdated(pod("u", "n-b")) }, false, true},
		{"pending pod updated", func(pl *LeastWorkLostPreemption) { pl.podUpdated(pod("u", "")) }, true, true},
		{"deleted", func(pl *LeastWorkLostPreemption) { pl.podDeleted(pod("u", "n-b")) }, false, false},
		{"tombstone", func(pl *LeastWorkLostPreemption) {
			pl.podDeleted(cache.DeletedFinalStateUnknown{Key: "default/u", Obj: pod("u", "n-b")})
		}, false, false},
		{"another pod deleted", func(pl *LeastWorkLostPreemption) { pl.podDeleted(pod("w", "n-b")) }, true, true},
		{"not a pod", func(pl *LeastWorkLostPreemption) { pl.podUpdated(&v1.Node{}); pl.podDeleted("x") }, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pl := &LeastWorkLostPreemption{}
			pl.victims.Store(types.UID("u"), []*v1.Pod{pod("v", "n-b")})
			pl.evicted.Store(types.UID("u"), struct{}{})
			tc.event(pl)
			if v, e := has(pl, "u"); v != tc.wantVictims || e != tc.wantEvd {
				t.Errorf("after the event: victims kept %v, evicted kept %v; want %v, %v", v, e, tc.wantVictims, tc.wantEvd)
			}
		})
	}
}

package deadlinecheck

import (
	"cmp"
	"slices"
	"sort"

	"k8s.io/apimachinery/pkg/types"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
)

// A listedWorkload is a Workload as a reconcile listed it: from a
// LocalQueue's list (0) or the ClusterQueue's (1).
type listedWorkload struct {
	wl   *kueue.Workload
	list int
}

// compareListed orders by namespace, name and UID, then list.
func compareListed(a, b listedWorkload) int {
	return cmp.Or(compareWorkloadKey(a.wl, b.wl), cmp.Compare(a.list, b.list))
}

func compareWorkloadKey(a, b *kueue.Workload) int {
	return cmp.Or(cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name), cmp.Compare(a.UID, b.UID))
}

// sortListed returns the workloads of all in namespace/name/UID order,
// each once: a workload listed twice (a LocalQueue's and the
// ClusterQueue's list) is taken from the ClusterQueue's. It sorts all.
func sortListed(all []listedWorkload) []*kueue.Workload {
	slices.SortFunc(all, compareListed)
	out := make([]*kueue.Workload, 0, len(all))
	for i, x := range all {
		if i+1 < len(all) && all[i+1].wl.UID == x.wl.UID {
			continue
		}
		out = append(out, x.wl)
	}
	return out
}

// A listOrder is sortListed kept from one reconcile of a ClusterQueue to
// the next. The cache lists in no order, and sorting 15,000 Workloads by
// their names costs about 20 ms each reconcile; but a workload's
// namespace, name and UID never change, so the last reconcile's order,
// by UID, stays sorted: the workloads listed again take their places in
// it (a look-up each), the few new ones are sorted among themselves and
// merged in. The places are renumbered when workloads came, or when
// more than half of them are of workloads gone. The result is
// sortListed's, object for object (TestPropListOrder). Used by one
// reconcile at a time.
type listOrder struct {
	place map[types.UID]int // UID → place in the last order
	slots []listedWorkload  // by place, this listing's
	fresh []listedWorkload
	known []*kueue.Workload
}

// order is sortListed(all).
func (o *listOrder) order(all []listedWorkload) []*kueue.Workload {
	if o.place == nil {
		o.place = map[types.UID]int{}
	}
	o.slots = slices.Grow(o.slots[:0], len(o.place))[:len(o.place)]
	clear(o.slots)
	o.fresh = o.fresh[:0]
	for _, x := range all {
		p, ok := o.place[x.wl.UID]
		switch {
		case !ok:
			o.fresh = append(o.fresh, x)
		case o.slots[p].wl == nil || x.list > o.slots[p].list:
			o.slots[p] = x
		}
	}
	o.known = o.known[:0]
	for _, x := range o.slots {
		if x.wl != nil {
			o.known = append(o.known, x.wl)
		}
	}
	if len(o.fresh) == 0 && 2*len(o.known) >= len(o.place) {
		return slices.Clone(o.known)
	}
	fresh := sortListed(o.fresh)
	out := make([]*kueue.Workload, 0, len(o.known)+len(fresh))
	known := o.known
	for _, wl := range fresh {
		at := sort.Search(len(known), func(i int) bool { return compareWorkloadKey(known[i], wl) > 0 })
		out = append(append(out, known[:at]...), wl)
		known = known[at:]
	}
	out = append(out, known...)
	clear(o.place)
	for i, wl := range out {
		o.place[wl.UID] = i
	}
	return out
}

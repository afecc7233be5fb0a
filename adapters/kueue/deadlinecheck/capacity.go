package deadlinecheck

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"gopkg.in/inf.v0"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	resourcehelpers "k8s.io/component-helpers/resource"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
)

// MaxSlots bounds the capacity of a ClusterQueue in pod units; a larger
// quota counts as MaxSlots.
const MaxSlots = 1 << 30

// Quota is a ClusterQueue's nominal quota per resource, summed over the
// flavors of its resource groups. Borrowing limits are left out: borrowed
// capacity is not guaranteed.
func Quota(cq *kueue.ClusterQueue) corev1.ResourceList {
	out := corev1.ResourceList{}
	for _, rg := range cq.Spec.ResourceGroups {
		for _, f := range rg.Flavors {
			for _, r := range f.Resources {
				q := out[r.Name]
				q.Add(r.NominalQuota)
				out[r.Name] = q
			}
		}
	}
	return out
}

// PodRequest returns a workload's pod count and its mean pod request: the
// total request of all its pod sets divided by the pod count, rounded up
// to the milli-unit. Totals come from what Kueue recorded: the admission's
// resource usage when the workload holds quota, else
// status.resourceRequests, else the pod templates' requests
// (k8s.io/component-helpers, as the kubelet and Kueue compute them) times
// the pod set counts. A workload without pods has count 0.
func PodRequest(wl *kueue.Workload) (corev1.ResourceList, int) {
	total := corev1.ResourceList{}
	pods := 0
	switch {
	case wl.Status.Admission != nil && len(wl.Status.Admission.PodSetAssignments) > 0:
		for _, a := range wl.Status.Admission.PodSetAssignments {
			addList(total, a.ResourceUsage)
		}
		for _, a := range wl.Status.Admission.PodSetAssignments {
			if a.Count != nil {
				pods += int(*a.Count)
			} else {
				pods += podSetCount(wl, a.Name)
			}
		}
	case len(wl.Status.ResourceRequests) > 0:
		for _, r := range wl.Status.ResourceRequests {
			addList(total, r.Resources)
			pods += podSetCount(wl, r.Name)
		}
	default:
		for _, ps := range wl.Spec.PodSets {
			pod := &corev1.Pod{Spec: ps.Template.Spec}
			req := resourcehelpers.PodRequests(pod, resourcehelpers.PodResourcesOptions{})
			for name, q := range req {
				q.Mul(int64(ps.Count))
				t := total[name]
				t.Add(q)
				total[name] = t
			}
			pods += int(ps.Count)
		}
	}
	if pods <= 0 {
		return corev1.ResourceList{}, 0
	}
	per := corev1.ResourceList{}
	n := inf.NewDec(int64(pods), 0)
	for name, q := range total {
		d := new(inf.Dec).QuoRound(q.AsDec(), n, 3, inf.RoundUp)
		per[name] = *resource.NewDecimalQuantity(*d, q.Format)
	}
	return per, pods
}

func podSetCount(wl *kueue.Workload, name kueue.PodSetReference) int {
	for _, ps := range wl.Spec.PodSets {
		if ps.Name == name {
			return int(ps.Count)
		}
	}
	return 0
}

func addList(dst, src corev1.ResourceList) {
	for name, q := range src {
		t := dst[name]
		t.Add(q)
		dst[name] = t
	}
}

// PodUnits returns the capacity of quota in units of pod: how many pods
// of that request fit, min over the requested resources of
// ⌊quota/request⌋ (0 when the quota lacks a requested resource), at most
// MaxSlots. Resources the pod does not request (request 0) do not limit
// it; a pod requesting nothing fits MaxSlots times.
func PodUnits(quota, pod corev1.ResourceList) int {
	slots := int64(MaxSlots)
	for name, r := range pod {
		rd := r.AsDec()
		if rd.Sign() <= 0 {
			continue
		}
		q, ok := quota[name]
		if !ok {
			return 0
		}
		n := new(inf.Dec).QuoRound(q.AsDec(), rd, 0, inf.RoundDown)
		if n.Sign() <= 0 {
			return 0
		}
		if n.Cmp(inf.NewDec(slots, 0)) < 0 {
			v, _ := n.Unscaled() // scale 0 and below MaxSlots: exact
			slots = v
		}
	}
	return int(min(slots, math.MaxInt32))
}

// formatResources writes a resource list in name order: "cpu 2, memory 4Gi".
func formatResources(l corev1.ResourceList) string {
	names := make([]string, 0, len(l))
	for name := range l {
		names = append(names, string(name))
	}
	slices.Sort(names)
	parts := make([]string, len(names))
	for i, n := range names {
		q := l[corev1.ResourceName(n)]
		parts[i] = fmt.Sprintf("%s %s", n, q.String())
	}
	if len(parts) == 0 {
		return "nothing"
	}
	return strings.Join(parts, ", ")
}

package deadlinecheck

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"pgregory.net/rapid"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
)

func rl(kv ...string) corev1.ResourceList {
	out := corev1.ResourceList{}
	for i := 0; i < len(kv); i += 2 {
		out[corev1.ResourceName(kv[i])] = resource.MustParse(kv[i+1])
	}
	return out
}

func TestPodUnits(t *testing.T) {
	tests := []struct {
		name       string
		quota, pod corev1.ResourceList
		want       int
	}{
		{"cpu bound", rl("cpu", "10", "memory", "100Gi"), rl("cpu", "2", "memory", "1Gi"), 5},
		{"memory bound", rl("cpu", "10", "memory", "3Gi"), rl("cpu", "1", "memory", "1Gi"), 3},
		{"floor", rl("cpu", "10"), rl("cpu", "3"), 3},
		{"milli", rl("cpu", "1"), rl("cpu", "250m"), 4},
		{"milli floor", rl("cpu", "1"), rl("cpu", "300m"), 3},
		{"too big", rl("cpu", "1"), rl("cpu", "2"), 0},
		{"resource not in quota", rl("cpu", "10"), rl("cpu", "1", "nvidia.com/gpu", "1"), 0},
		{"zero request ignored", rl("cpu", "4"), rl("cpu", "1", "memory", "0"), 4},
		{"no request", rl("cpu", "4"), rl(), MaxSlots},
		{"huge memory exact", rl("memory", "6Ei"), rl("memory", "1Ei"), 6},
		{"huge memory floor", rl("memory", "6Ei"), rl("memory", "1000000001k"), 6917529},
		{"capped", rl("cpu", "1e12"), rl("cpu", "1m"), MaxSlots},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := PodUnits(tt.quota, tt.pod); got != tt.want {
				t.Errorf("PodUnits(%v, %v) = %d, want %d", tt.quota, tt.pod, got, tt.want)
			}
		})
	}
}

// quantityGen draws a quantity in milli-units from 0 to 10⁹ (a million
// cores, or a petabyte in bytes).
func quantityGen(name string) *rapid.Generator[resource.Quantity] {
	return rapid.Custom(func(t *rapid.T) resource.Quantity {
		return *resource.NewMilliQuantity(rapid.Int64Range(0, 1e12).Draw(t, name), resource.DecimalSI)
	})
}

// PodUnits(q, p) = k means k pods fit and k+1 do not (unless capped).
func TestPodUnitsProperties(t *testing.T) { rapid.Check(t, propPodUnits) }
func FuzzPodUnits(f *testing.F)           { f.Fuzz(rapid.MakeFuzz(propPodUnits)) }

func propPodUnits(t *rapid.T) {
	{
		names := []corev1.ResourceName{"cpu", "memory", "gpu"}
		quota, pod := corev1.ResourceList{}, corev1.ResourceList{}
		for _, n := range names {
			if rapid.Bool().Draw(t, "inQuota "+string(n)) {
				quota[n] = quantityGen("quota "+string(n)).Draw(t, "q")
			}
			if rapid.Bool().Draw(t, "inPod "+string(n)) {
				pod[n] = quantityGen("pod "+string(n)).Draw(t, "p")
			}
		}
		k := PodUnits(quota, pod)
		if k < 0 || k > MaxSlots {
			t.Fatalf("PodUnits = %d out of [0, MaxSlots]", k)
		}
		fits := func(n int64) bool {
			if n == 0 {
				return true
			}
			for name, r := range pod {
				if r.IsZero() {
					continue
				}
				need := r.DeepCopy()
				need.Mul(n)
				q, ok := quota[name]
				if !ok || q.Cmp(need) < 0 {
					return false
				}
			}
			return true
		}
		if !fits(int64(k)) {
			t.Fatalf("%d pods of %v do not fit %v", k, pod, quota)
		}
		if k < MaxSlots && fits(int64(k)+1) {
			t.Fatalf("%d pods of %v fit %v, PodUnits said %d", k+1, pod, quota, k)
		}
	}
}

func TestQuota(t *testing.T) {
	cq := &kueue.ClusterQueue{Spec: kueue.ClusterQueueSpec{ResourceGroups: []kueue.ResourceGroup{
		{CoveredResources: []corev1.ResourceName{"cpu", "memory"}, Flavors: []kueue.FlavorQuotas{
			{Name: "a", Resources: []kueue.ResourceQuota{{Name: "cpu", NominalQuota: resource.MustParse("4")}, {Name: "memory", NominalQuota: resource.MustParse("8Gi")}}},
			{Name: "b", Resources: []kueue.ResourceQuota{{Name: "cpu", NominalQuota: resource.MustParse("2500m")}, {Name: "memory", NominalQuota: resource.MustParse("1Gi")}}},
		}},
		{CoveredResources: []corev1.ResourceName{"gpu"}, Flavors: []kueue.FlavorQuotas{
			{Name: "g", Resources: []kueue.ResourceQuota{{Name: "gpu", NominalQuota: resource.MustParse("2"), BorrowingLimit: ptr(resource.MustParse("6"))}}},
		}},
	}}}
	got := Quota(cq)
	want := rl("cpu", "6500m", "memory", "9Gi", "gpu", "2")
	for n, q := range want {
		g := got[n]
		if g.Cmp(q) != 0 {
			t.Errorf("Quota[%s] = %v, want %v", n, g.String(), q.String())
		}
	}
	if len(got) != len(want) {
		t.Errorf("Quota = %v, want %v", got, want)
	}
}

func podSet(name string, count int32, cpu, mem string) kueue.PodSet {
	return kueue.PodSet{Name: kueue.PodSetReference(name), Count: count, Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{
		Containers: []corev1.Container{{Name: "c", Resources: corev1.ResourceRequirements{Requests: rl("cpu", cpu, "memory", mem)}}},
	}}}
}

func TestPodRequest(t *testing.T) {
	// Templates: 2 pods of 1 cpu / 1Gi and 1 of 2 cpu / 4Gi: the mean pod
	// is 4/3 cpu (rounded up to 1334m) and 2Gi.
	wl := &kueue.Workload{Spec: kueue.WorkloadSpec{PodSets: []kueue.PodSet{podSet("w", 2, "1", "1Gi"), podSet("l", 1, "2", "4Gi")}}}
	per, pods := PodRequest(wl)
	if pods != 3 {
		t.Fatalf("pods = %d, want 3", pods)
	}
	if c, m := per["cpu"], per["memory"]; c.MilliValue() != 1334 || m.Value() != 2<<30 {
		t.Errorf("mean pod = cpu %v, memory %v; want 1334m, 2Gi", c.String(), m.String())
	}
	// Init containers: the pod request is the larger of the init
	// containers' and the sum of the app containers'.
	ps := podSet("i", 1, "1", "1Gi")
	ps.Template.Spec.InitContainers = []corev1.Container{{Name: "init", Resources: corev1.ResourceRequirements{Requests: rl("cpu", "3")}}}
	per, _ = PodRequest(&kueue.Workload{Spec: kueue.WorkloadSpec{PodSets: []kueue.PodSet{ps}}})
	if c := per["cpu"]; c.MilliValue() != 3000 {
		t.Errorf("init container: cpu %v, want 3", c.String())
	}
	// Kueue's figures win: status.resourceRequests, then the admission.
	wl.Status.ResourceRequests = []kueue.PodSetRequest{{Name: "w", Resources: rl("cpu", "4")}, {Name: "l", Resources: rl("cpu", "2")}}
	if per, pods := PodRequest(wl); pods != 3 || per.Cpu().MilliValue() != 2000 {
		t.Errorf("resourceRequests: %v over %d pods", per, pods)
	}
	wl.Status.Admission = &kueue.Admission{PodSetAssignments: []kueue.PodSetAssignment{{Name: "w", Count: ptr(int32(2)), ResourceUsage: rl("cpu", "10")}}}
	if per, pods := PodRequest(wl); pods != 2 || per.Cpu().MilliValue() != 5000 {
		t.Errorf("admission: %v over %d pods", per, pods)
	}
	if _, pods := PodRequest(&kueue.Workload{}); pods != 0 {
		t.Errorf("no pod sets: %d pods", pods)
	}
}

func TestFormatResources(t *testing.T) {
	if got := formatResources(rl("memory", "1Gi", "cpu", "500m")); got != "cpu 500m, memory 1Gi" {
		t.Errorf("got %q", got)
	}
	if got := formatResources(nil); got != "nothing" {
		t.Errorf("got %q", got)
	}
}

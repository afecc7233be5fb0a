package placement_test

import (
	"fmt"

	"github.com/schedkit/schedkit/placement"
)

// The Lee thesis §4.4.1 case: a core pool of m1.large sized by 4,000 GB of
// data, production work of 26.5 m1.large-hours due 3 h into a 4 h round, and
// accelerators of m1.large or c1.medium billed by the started hour.
func ExamplePlanPools() {
	var types []placement.InstanceType
	for _, it := range placement.EC2June2011() {
		if it.Name == "m1.large" || it.Name == "c1.medium" {
			types = append(types, it)
		}
	}
	// Computing rate: compute units relative to m1.large (CPU-bound jobs).
	rates := []float64{types[0].ComputeUnits / 4, types[1].ComputeUnits / 4}
	p := placement.PoolProblem{
		Types:         types,
		StorageGB:     4000,
		Jobs:          []placement.PoolJob{{Work: 26.5, Rates: rates}},
		DeadlineHours: 3,
		PeriodHours:   4,
	}
	for _, cfg := range []struct{ core, accelType, accel int }{{9, -1, 0}, {5, 0, 4}, {5, 1, 4}} {
		plan, _ := placement.EvaluatePools(p, 0, cfg.core, cfg.accelType, cfg.accel)
		fmt.Println(plan.String(types))
	}
	best, _ := placement.PlanPools(p)
	fmt.Println("cheapest:", best.String(types))
	// Output:
	// 9 m1.large: $12.24, done in 2.94 h
	// 5 m1.large + 4 m1.large: $10.88, done in 2.94 h
	// 5 m1.large + 4 c1.medium: $8.84, done in 2.65 h
	// cheapest: 5 m1.large + 4 c1.medium: $8.84, done in 2.65 h
}

// Rao–Reddy Algorithm 1: VM 0 has a free slot but job's only task reads a
// block stored on VM 2, on another physical machine. The task waits on VM 2;
// VM 0 offers its core. When VM 3 (VM 2's machine-mate) frees a slot with
// nothing local to run, machine 1 moves VM 3's core to VM 2.
func ExampleLocalityCluster_AssignMapTask() {
	c, _ := placement.NewLocalityCluster(2, []int{0, 0, 1, 1})
	tasks := []placement.MapTask{{Replicas: []int{2}}, {Replicas: []int{1}}}
	s, _ := c.AssignMapTask(tasks, 0)
	fmt.Println(s.Action, "task", s.Task, "on VM", s.Target, "reconfigurations:", s.N)
	tasks[s.Task].Assigned = true
	s, _ = c.AssignMapTask(tasks, 3)
	fmt.Println(s.Action, "task", s.Task, "on VM", s.Target)
	for _, r := range s.Reconfigurations[:s.N] {
		fmt.Printf("machine %d: core of VM %d → VM %d runs task %d\n", r.Machine, r.From, r.To, r.Task)
	}
	// Output:
	// queue-remote task 0 on VM 2 reconfigurations: 0
	// queue-remote task 1 on VM 1
	// machine 0: core of VM 0 → VM 1 runs task 1
	// machine 1: core of VM 3 → VM 2 runs task 0
}

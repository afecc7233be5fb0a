package placement

import (
	"errors"
	"math"
	"runtime"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// Two machines: VMs 0 and 1 on machine 0, VMs 2 and 3 on machine 1.
func TestAssignMapTaskHandWorked(t *testing.T) {
	c, err := NewLocalityCluster(2, []int{0, 0, 1, 1})
	if err != nil {
		t.Fatal(err)
	}
	tasks := []MapTask{{Replicas: []int{2}}, {Replicas: []int{1}}, {Replicas: []int{3, 0}}}

	// VM 0 is free; task 2 has a replica on VM 0: launch it locally (line 2).
	s, err := c.AssignMapTask(tasks, 0)
	if err != nil || s.Action != LaunchLocal || s.Task != 2 || s.Target != 0 || s.N != 0 {
		t.Fatalf("step 1 = %+v, %v; want launch-local task 2 on VM 0", s, err)
	}
	tasks[2].Assigned = true

	// VM 0 is free again; no local task. Task 0's data is on VM 2; no
	// machine has Release entries, so the fewest-Assign rule picks VM 2.
	s, _ = c.AssignMapTask(tasks, 0)
	if s.Action != QueueRemote || s.Task != 0 || s.Target != 2 || s.N != 0 {
		t.Fatalf("step 2 = %+v; want task 0 queued on VM 2, no reconfiguration", s)
	}
	tasks[0].Assigned = true
	if c.AssignQueueLen(1) != 1 || c.ReleaseQueueLen(0) != 1 {
		t.Fatalf("queues after step 2: AQ[1]=%d RQ[0]=%d, want 1 and 1", c.AssignQueueLen(1), c.ReleaseQueueLen(0))
	}

	// VM 3 is free; task 1's data is on VM 1, whose machine 0 has a Release
	// entry (VM 0): target VM 1. Machine 0 now reconfigures VM 0 → VM 1 for
	// task 1, and machine 1 (VM 3 released, VM 2 waiting) VM 3 → VM 2 for task 0.
	s, _ = c.AssignMapTask(tasks, 3)
	want := LocalityStep{Action: QueueRemote, Task: 1, Target: 1, N: 2,
		Reconfigurations: [2]Reconfiguration{{Machine: 0, From: 0, To: 1, Task: 1}, {Machine: 1, From: 3, To: 2, Task: 0}}}
	if s != want {
		t.Fatalf("step 3 = %+v\nwant %+v", s, want)
	}
	tasks[1].Assigned = true
	for m := range 2 {
		if c.AssignQueueLen(m) != 0 || c.ReleaseQueueLen(m) != 0 {
			t.Fatalf("machine %d queues not empty after reconfiguration", m)
		}
	}
	if s, _ := c.AssignMapTask(tasks, 1); s.Action != NoTask || s.Task != -1 {
		t.Fatalf("all assigned: step = %+v, want no-task", s)
	}
}

// Among replicas, the one whose machine has the most Release entries wins;
// ties go to the replica listed first.
func TestAssignMapTaskPrefersMostReleases(t *testing.T) {
	c, _ := NewLocalityCluster(3, []int{0, 1, 2, 2})
	// Build Release entries: two on machine 1, one on machine 0, by queueing
	// tasks whose data sits on VM 3 (machine 2) from free VMs 1, 1, 0 — each
	// pairs with nothing because machine 2 gets Assign entries only.
	far := []MapTask{{Replicas: []int{3}}}
	for _, free := range []int{1, 1, 0} {
		if s, _ := c.AssignMapTask(far, free); s.Action != QueueRemote || s.N != 0 {
			t.Fatalf("setup step from VM %d = %+v", free, s)
		}
	}
	s, _ := c.AssignMapTask([]MapTask{{Replicas: []int{0, 1}}}, 2)
	if s.Target != 1 {
		t.Fatalf("target = %d, want VM 1 (machine 1 has 2 Release entries)", s.Target)
	}
	// Release queue of machine 1 pops FIFO: VM 1's first entry gives the core.
	if s.N < 1 || s.Reconfigurations[0] != (Reconfiguration{Machine: 1, From: 1, To: 1, Task: 0}) {
		t.Fatalf("reconfigurations = %+v", s.Reconfigurations[:s.N])
	}
}

// With no Release entry on any replica's machine, the replica whose machine
// has the fewest Assign entries wins; ties go to the replica listed first.
func TestAssignMapTaskPrefersFewestAssigns(t *testing.T) {
	c, _ := NewLocalityCluster(3, []int{0, 1, 2, 2})
	// From free VM 3 (machine 2) queue two tasks on VM 0 and one on VM 1:
	// Assign queues 2 on machine 0, 1 on machine 1; Release entries only on
	// machine 2.
	for _, data := range []int{0, 0, 1} {
		if s, _ := c.AssignMapTask([]MapTask{{Replicas: []int{data}}}, 3); s.Action != QueueRemote || s.Target != data || s.N != 0 {
			t.Fatalf("setup step with data on VM %d = %+v", data, s)
		}
	}
	s, _ := c.AssignMapTask([]MapTask{{Replicas: []int{0, 1}}}, 3)
	if s.Target != 1 || c.AssignQueueLen(1) != 2 {
		t.Fatalf("target = %d, want VM 1 (machine 1 has 1 Assign entry, machine 0 has 2)", s.Target)
	}
	// Now 2 and 2: the replica listed first.
	if s, _ := c.AssignMapTask([]MapTask{{Replicas: []int{1, 0}}}, 3); s.Target != 1 {
		t.Fatalf("tie: target = %d, want VM 1 (listed first)", s.Target)
	}
	if s, _ := c.AssignMapTask([]MapTask{{Replicas: []int{0, 1}}}, 3); s.Target != 0 {
		t.Fatalf("target = %d, want VM 0 (2 Assign entries against 3)", s.Target)
	}
}

func TestLocalityBadInput(t *testing.T) {
	if _, err := NewLocalityCluster(0, []int{0}); !errors.Is(err, ErrBadInput) {
		t.Errorf("0 machines: %v", err)
	}
	if _, err := NewLocalityCluster(2, nil); !errors.Is(err, ErrBadInput) {
		t.Errorf("no VMs: %v", err)
	}
	if _, err := NewLocalityCluster(2, []int{0, 2}); !errors.Is(err, ErrBadInput) {
		t.Errorf("VM on machine 2 of 2: %v", err)
	}
	if _, err := NewLocalityCluster(2, []int{-1}); !errors.Is(err, ErrBadInput) {
		t.Errorf("negative machine: %v", err)
	}
	c, _ := NewLocalityCluster(2, []int{0, 1})
	before := c.Clone()
	for _, tc := range []struct {
		name  string
		tasks []MapTask
		node  int
	}{
		{"node negative", []MapTask{{Replicas: []int{0}}}, -1},
		{"node too big", []MapTask{{Replicas: []int{0}}}, 2},
		{"replica too big", []MapTask{{Replicas: []int{5}}}, 0},
		{"replica negative", []MapTask{{Replicas: []int{-3}}}, 1},
	} {
		if _, err := c.AssignMapTask(tc.tasks, tc.node); !errors.Is(err, ErrBadInput) {
			t.Errorf("%s: err = %v, want ErrBadInput", tc.name, err)
		}
	}
	for m := range 2 {
		if c.AssignQueueLen(m) != before.AssignQueueLen(m) || c.ReleaseQueueLen(m) != before.ReleaseQueueLen(m) {
			t.Fatal("a rejected call changed the state")
		}
	}
}

func TestPropLocality(t *testing.T)  { rapid.Check(t, propLocality) }
func FuzzAssignMapTask(f *testing.F) { f.Fuzz(rapid.MakeFuzz(propLocality)) }

// A model of the queues, checked against the state after every step:
// the algorithm's choice rules hold, queues are FIFO, and no machine is left
// with entries in both queues (every possible reconfiguration happened).
func propLocality(t *rapid.T) {
	machines := rapid.IntRange(1, 4).Draw(t, "machines")
	vmMachine := rapid.SliceOfN(rapid.IntRange(0, machines-1), 1, 8).Draw(t, "vmMachine")
	nvm := len(vmMachine)
	c, err := NewLocalityCluster(machines, vmMachine)
	if err != nil {
		t.Fatal(err)
	}
	type entry struct{ vm, task int }
	rq := make([][]int, machines)
	aq := make([][]entry, machines)
	tasks := rapid.SliceOfN(rapid.Custom(func(t *rapid.T) MapTask {
		return MapTask{Replicas: rapid.SliceOfNDistinct(rapid.IntRange(0, nvm-1), 0, 3, rapid.ID[int]).Draw(t, "replicas")}
	}), 0, 12).Draw(t, "tasks")
	steps := rapid.IntRange(0, 20).Draw(t, "steps")
	for range steps {
		node := rapid.IntRange(0, nvm-1).Draw(t, "node")
		s, err := c.AssignMapTask(tasks, node)
		if err != nil {
			t.Fatal(err)
		}
		local, first := -1, -1
		for i, tk := range tasks {
			if tk.Assigned {
				continue
			}
			if first < 0 {
				first = i
			}
			for _, r := range tk.Replicas {
				if r == node && local < 0 {
					local = i
				}
			}
		}
		switch {
		case first < 0:
			if s.Action != NoTask {
				t.Fatalf("no task left but step %+v", s)
			}
			continue
		case local >= 0:
			if s.Action != LaunchLocal || s.Task != local || s.Target != node {
				t.Fatalf("local task %d on VM %d exists, step %+v", local, node, s)
			}
			tasks[local].Assigned = true
			continue
		}
		if s.Action != QueueRemote || s.Task != first {
			t.Fatalf("want task %d queued remotely, step %+v", first, s)
		}
		reps := tasks[first].Replicas
		if len(reps) == 0 {
			if s.Target != node {
				t.Fatalf("task without replicas queued on %d, want %d", s.Target, node)
			}
		} else {
			found, maxRQ := false, 0
			for _, r := range reps {
				found = found || r == s.Target
				maxRQ = max(maxRQ, len(rq[vmMachine[r]]))
			}
			if !found {
				t.Fatalf("target %d not among replicas %v", s.Target, reps)
			}
			if got := len(rq[vmMachine[s.Target]]); got != maxRQ {
				t.Fatalf("target machine has %d Release entries, a replica's has %d", got, maxRQ)
			}
			if maxRQ == 0 {
				for _, r := range reps {
					if len(aq[vmMachine[r]]) < len(aq[vmMachine[s.Target]]) {
						t.Fatalf("replica %d has a shorter Assign queue than target %d", r, s.Target)
					}
				}
			}
		}
		tasks[first].Assigned = true
		tm, nm := vmMachine[s.Target], vmMachine[node]
		aq[tm] = append(aq[tm], entry{s.Target, first})
		rq[nm] = append(rq[nm], node)
		var want []Reconfiguration
		for _, m := range []int{tm, nm} {
			if len(rq[m]) > 0 && len(aq[m]) > 0 {
				want = append(want, Reconfiguration{Machine: m, From: rq[m][0], To: aq[m][0].vm, Task: aq[m][0].task})
				rq[m], aq[m] = rq[m][1:], aq[m][1:]
			}
		}
		if s.N != len(want) {
			t.Fatalf("%d reconfigurations, model says %d", s.N, len(want))
		}
		for i := range want {
			if s.Reconfigurations[i] != want[i] {
				t.Fatalf("reconfiguration %d = %+v, model %+v", i, s.Reconfigurations[i], want[i])
			}
		}
		for m := range machines {
			if c.ReleaseQueueLen(m) != len(rq[m]) || c.AssignQueueLen(m) != len(aq[m]) {
				t.Fatalf("machine %d queues %d/%d, model %d/%d", m, c.ReleaseQueueLen(m), c.AssignQueueLen(m), len(rq[m]), len(aq[m]))
			}
			if len(rq[m]) > 0 && len(aq[m]) > 0 {
				t.Fatalf("machine %d left with both queues non-empty", m)
			}
		}
	}
}

// FuzzAssignMapTaskRaw feeds arbitrary machine counts, machine indices,
// node and replica indices.
func FuzzAssignMapTaskRaw(f *testing.F) {
	f.Add(3, 2, 1, 2, -1)
	f.Add(1<<20, 1<<20-1, 3, 3, 0)
	f.Add(math.MaxInt, math.MinInt, math.MaxInt, math.MinInt, math.MaxInt)
	f.Add(MaxLocalityMachines, MaxLocalityMachines-1, -1, 1<<53+1, math.MaxInt32+1)
	f.Fuzz(func(t *testing.T, machines, m3, node, r1, r2 int) {
		c, err := NewLocalityCluster(machines, []int{0, 1 % max(machines, 1), 0, m3})
		if err != nil {
			if !errors.Is(err, ErrBadInput) {
				t.Fatal(err)
			}
			return
		}
		if c.Machines() != machines || c.VMs() != 4 {
			t.Fatalf("Machines %d, VMs %d", c.Machines(), c.VMs())
		}
		s, err := c.AssignMapTask([]MapTask{{Replicas: []int{r1, r2}}}, node)
		if err != nil {
			if !errors.Is(err, ErrBadInput) {
				t.Fatal(err)
			}
			return
		}
		if s.Action == NoTask || s.Target < 0 || s.Target >= 4 {
			t.Fatalf("step %+v", s)
		}
		for _, m := range []int{-1, 0, m3, machines - 1, machines} {
			if c.ReleaseQueueLen(m) < 0 || c.AssignQueueLen(m) < 0 {
				t.Fatal("negative queue length")
			}
		}
	})
}

// A huge machine count with VMs on a few low machines costs no memory per
// machine; the last machine index works; beyond the bound is an error; a
// clone is independent.
func TestLocalityManyMachines(t *testing.T) {
	if _, err := NewLocalityCluster(1<<20+1, []int{0}); !errors.Is(err, ErrBadInput) {
		t.Fatalf("2^20+1 machines: %v", err)
	}
	c, err := NewLocalityCluster(1<<20, []int{0, 1<<20 - 1, 1<<20 - 1})
	if err != nil || c.Machines() != 1<<20 || c.VMs() != 3 {
		t.Fatalf("Machines %d VMs %d, %v", c.Machines(), c.VMs(), err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, _ = NewLocalityCluster(1<<20, []int{0, 1})
	runtime.ReadMemStats(&after)
	if b := after.TotalAlloc - before.TotalAlloc; b > 1<<16 {
		t.Errorf("NewLocalityCluster with 2^20 machines and 2 VMs allocates %d bytes", b)
	}
	// VM 0 frees a slot; the task's data is on VM 2 (machine 2^20−1).
	tasks := []MapTask{{Replicas: []int{2}}}
	s, err := c.AssignMapTask(tasks, 0)
	if err != nil || s.Action != QueueRemote || s.Target != 2 || s.N != 0 {
		t.Fatalf("step %+v, %v", s, err)
	}
	d := c.Clone()
	if d.Machines() != c.Machines() || d.AssignQueueLen(1<<20-1) != 1 || d.ReleaseQueueLen(0) != 1 {
		t.Fatalf("clone: machines %d, queues %d/%d", d.Machines(), d.AssignQueueLen(1<<20-1), d.ReleaseQueueLen(0))
	}
	// VM 1 (same machine as VM 2) frees a slot with nothing local; the next
	// task also waits on VM 2, and VM 1's core goes to VM 2 for the older
	// request (task 0). d is unchanged.
	tasks = append(tasks, MapTask{Replicas: []int{2}})
	tasks[0].Assigned = true
	s, err = c.AssignMapTask(tasks, 1)
	if err != nil || s.N != 1 || s.Reconfigurations[0] != (Reconfiguration{Machine: 1<<20 - 1, From: 1, To: 2, Task: 0}) {
		t.Fatalf("step %+v, %v", s, err)
	}
	if d.AssignQueueLen(1<<20-1) != 1 || c.AssignQueueLen(1<<20-1) != 1 || c.ReleaseQueueLen(1<<20) != 0 || c.AssignQueueLen(-1) != 0 {
		t.Fatal("clone shares state, or an out-of-range queue length is not 0")
	}
}

func BenchmarkAssignMapTask(b *testing.B) {
	vmMachine := make([]int, 400)
	for v := range vmMachine {
		vmMachine[v] = v / 4
	}
	tasks := make([]MapTask, 1000)
	for i := range tasks {
		tasks[i].Replicas = []int{(i * 7) % 400, (i*13 + 1) % 400, (i*31 + 2) % 400}
	}
	c, _ := NewLocalityCluster(100, vmMachine)
	// The tasks are never marked assigned, so every call finds a local task
	// (line 2 of Algorithm 1) after scanning part of the task list.
	b.Run("local", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			if s, _ := c.AssignMapTask(tasks, i%400); s.Action != LaunchLocal {
				b.Fatalf("step %+v", s)
			}
			i += 7
		}
	})
	// Lines 3–13 and two reconfigurations: per iteration two calls, each
	// passing 999 assigned tasks to reach the one left, that queue a task
	// each way between machines 0 and 1 and leave every queue empty again.
	toMachine1 := make([]MapTask, 1000)
	for i := range toMachine1 {
		toMachine1[i] = MapTask{Replicas: []int{8 + i%392}, Assigned: true}
	}
	toMachine0 := slices.Clone(toMachine1)
	toMachine1[999] = MapTask{Replicas: []int{4}} // VM 4 is on machine 1
	toMachine0[999] = MapTask{Replicas: []int{1}} // VM 1 is on machine 0
	b.Run("remote", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_, _ = c.AssignMapTask(toMachine1, 0)
			if s, _ := c.AssignMapTask(toMachine0, 5); s.N != 2 {
				b.Fatalf("step %+v", s)
			}
		}
	})
}

// A slot decision allocates nothing once the queues have grown: two calls
// that queue a task each way between two machines, reconfigure both and
// leave every queue empty again.
func TestAssignMapTaskAllocs(t *testing.T) {
	c, err := NewLocalityCluster(2, []int{0, 0, 1, 1})
	if err != nil {
		t.Fatal(err)
	}
	toMachine1 := []MapTask{{Replicas: []int{2}}}
	toMachine0 := []MapTask{{Replicas: []int{1}}}
	round := func() {
		a, _ := c.AssignMapTask(toMachine1, 0)
		b, _ := c.AssignMapTask(toMachine0, 3)
		if a.Action != QueueRemote || a.N != 0 || b.N != 2 {
			t.Fatalf("steps %+v, %+v", a, b)
		}
	}
	round()
	if n := testing.AllocsPerRun(100, round); n != 0 {
		t.Errorf("AssignMapTask allocates %v times per two calls", n)
	}
	for m := range 2 {
		if c.ReleaseQueueLen(m) != 0 || c.AssignQueueLen(m) != 0 {
			t.Fatalf("machine %d queues not empty", m)
		}
	}
}

package placement

import (
	"fmt"

	"github.com/schedkit/schedkit/internal/enumname"
)

// LocalityCluster is the state of Rao–Reddy Algorithm 1 ("Map Task Assignment
// through Resource reconfiguration"): virtual machines (the Hadoop nodes) on
// physical machines, and per physical machine a Release queue (VMs that
// offered a free core) and an Assign queue (VMs waiting for a core to run a
// data-local map task).
//
// It is a plain value owned by the caller: methods change it in place and
// allocate only when a queue outgrows its storage; Clone gives an independent
// copy. Equal states and equal calls give equal results. Queues are FIFO.
type LocalityCluster struct {
	machines  int              // physical machines, as given
	vmMachine []int            // physical machine of each VM (node)
	release   [][]int          // per machine hosting a VM: VMs that released a core, FIFO
	assign    [][]pendingLocal // per machine hosting a VM: VMs waiting for a core, FIFO
}

type pendingLocal struct {
	vm, task int
}

// MapTask is one map task of a job as Algorithm 1 sees it: the nodes (VMs)
// that store a replica of its input block, and whether it has been assigned.
type MapTask struct {
	Replicas []int // VM indices holding the task's data
	Assigned bool  // the caller sets this once the task is launched or queued
}

// LocalityAction says what Algorithm 1 did for a free slot.
type LocalityAction int

const (
	// NoTask: the job has no unassigned map task; the slot stays free.
	NoTask LocalityAction = iota
	// LaunchLocal: line 2, a task whose data is on the free node runs there now.
	LaunchLocal
	// QueueRemote: lines 4–13, a non-local task waits on node Target for a core
	// that the free node's VM gives up; it runs when Target's machine
	// reconfigures (see Reconfiguration).
	QueueRemote
)

// String returns "no-task", "launch-local", "queue-remote" or
// "LocalityAction(n)".
func (a LocalityAction) String() string {
	return enumname.Of(a, "LocalityAction", localityActionNames[:])
}

var localityActionNames = [...]string{
	NoTask:      "no-task",
	LaunchLocal: "launch-local",
	QueueRemote: "queue-remote",
}

// Reconfiguration is one core moved inside a physical machine: From releases
// a core (an earlier Release-queue entry), To receives it (an earlier
// Assign-queue entry) and starts Task there.
type Reconfiguration struct {
	Machine  int // the physical machine whose queues paired
	From, To int // VM indices
	Task     int // index of the map task that now runs on To
}

// LocalityStep is the outcome of one AssignMapTask call.
type LocalityStep struct {
	Action LocalityAction // what the step did
	Task   int            // index into the tasks slice; -1 with NoTask
	Target int            // VM the task runs on (LaunchLocal) or waits on (QueueRemote); -1 with NoTask
	// Reconfigurations that this step triggered, at most two (the target's
	// machine and the free node's machine); only the first N are set.
	Reconfigurations [2]Reconfiguration
	N                int // number of Reconfigurations set, 0 to 2
}

// Limits of a LocalityCluster. MaxLocalityMachines bounds NewLocalityCluster's
// machine count: a million physical machines is beyond any one cluster, and
// the state keeps two queue headers per machine up to the highest one hosting
// a VM. MaxLocalityVMs bounds len(vmMachine), which the state copies.
// MaxLocalityQueue bounds each machine's Release and Assign queue: a queue
// that long means the caller keeps offering cores no task can use; taking an
// entry from the front shifts the queue, so the bound also bounds a step's
// cost.
const (
	MaxLocalityMachines = 1 << 20
	MaxLocalityVMs      = 1 << 20
	MaxLocalityQueue    = 1 << 16
)

// NewLocalityCluster returns the state for VMs placed on physical machines:
// vmMachine[v] is the machine (0..machines-1) hosting VM v. Both queues of
// every machine start empty. Errors match ErrBadInput: machines outside
// [1, MaxLocalityMachines], an empty vmMachine or one longer than
// MaxLocalityVMs, or a machine index out of range. The state
// holds queues only up to the highest machine that hosts a VM, so memory is
// O(len(vmMachine) + that index), not O(machines).
func NewLocalityCluster(machines int, vmMachine []int) (LocalityCluster, error) {
	if machines <= 0 || machines > MaxLocalityMachines {
		return LocalityCluster{}, &ValueError{Field: "machines", Value: machines, Reason: "must be in [1, MaxLocalityMachines = 2^20]"}
	}
	if len(vmMachine) == 0 {
		return LocalityCluster{}, &ValueError{Field: "len(vmMachine)", Value: 0, Reason: "must not be empty"}
	}
	if len(vmMachine) > MaxLocalityVMs {
		return LocalityCluster{}, &ValueError{Field: "len(vmMachine)", Value: len(vmMachine), Reason: "must be at most MaxLocalityVMs = 2^20"}
	}
	used := 0 // machines up to the highest one hosting a VM
	for v, m := range vmMachine {
		if m < 0 || m >= machines {
			return LocalityCluster{}, &ValueError{Field: fmt.Sprintf("vmMachine[%d]", v), Value: m, Reason: fmt.Sprintf("must be in [0, %d)", machines)}
		}
		used = max(used, m+1)
	}
	return LocalityCluster{
		machines:  machines,
		vmMachine: append([]int(nil), vmMachine...),
		release:   make([][]int, used),
		assign:    make([][]pendingLocal, used),
	}, nil
}

// Clone returns a copy that shares no storage with c.
func (c LocalityCluster) Clone() LocalityCluster {
	d := LocalityCluster{
		machines:  c.machines,
		vmMachine: append([]int(nil), c.vmMachine...),
		release:   make([][]int, len(c.release)),
		assign:    make([][]pendingLocal, len(c.assign)),
	}
	for m := range c.release {
		d.release[m] = append([]int(nil), c.release[m]...)
		d.assign[m] = append([]pendingLocal(nil), c.assign[m]...)
	}
	return d
}

// Machines returns the number of physical machines.
func (c *LocalityCluster) Machines() int { return c.machines }

// VMs returns the number of virtual machines (Hadoop nodes).
func (c *LocalityCluster) VMs() int { return len(c.vmMachine) }

// ReleaseQueueLen returns the Release-queue length of machine m (0 if out of
// range or hosting no VM).
func (c *LocalityCluster) ReleaseQueueLen(m int) int {
	if m < 0 || m >= len(c.release) {
		return 0
	}
	return len(c.release[m])
}

// AssignQueueLen returns the Assign-queue length of machine m (0 if out of
// range or hosting no VM).
func (c *LocalityCluster) AssignQueueLen(m int) int {
	if m < 0 || m >= len(c.assign) {
		return 0
	}
	return len(c.assign[m])
}

// AssignMapTask runs Rao–Reddy Algorithm 1 for job j's map tasks and the VM
// node that has a free slot:
//
//  1. If an unassigned task has a replica on node, launch it there (the
//     lowest such task index).
//  2. Otherwise take the lowest-index unassigned task. Among the nodes storing
//     its data, pick the one whose machine has the most Release-queue
//     entries (if any has one); otherwise the one whose machine has the
//     fewest Assign-queue entries. Ties go to the replica listed first.
//     Enqueue the task on that node's machine's Assign queue and the free
//     node on its own machine's Release queue.
//  3. Whenever a machine has entries in both queues, reconfigure: the oldest
//     Release entry gives its core to the oldest Assign entry, whose task
//     starts (reported in the step).
//
// The method does not change tasks: the caller marks tasks[step.Task]
// assigned. A task with no replicas can only run non-locally: it is queued
// on node itself (a reconfiguration on the same machine, at once). Errors
// (the state is then unchanged): node out of range, a replica index out of
// range, and a step that would leave more than MaxLocalityQueue entries in a
// queue (naming node for its machine's Release queue, tasks[i] for the
// Assign queue it would join).
func (c *LocalityCluster) AssignMapTask(tasks []MapTask, node int) (LocalityStep, error) {
	step := LocalityStep{Action: NoTask, Task: -1, Target: -1}
	if node < 0 || node >= len(c.vmMachine) {
		return step, &ValueError{Field: "node", Value: node, Reason: fmt.Sprintf("must be in [0, %d)", len(c.vmMachine))}
	}
	remote := -1
	for t := range tasks {
		if tasks[t].Assigned {
			continue
		}
		for k, r := range tasks[t].Replicas {
			if r < 0 || r >= len(c.vmMachine) {
				return step, &ValueError{Field: fmt.Sprintf("tasks[%d].Replicas[%d]", t, k), Value: r, Reason: fmt.Sprintf("must be in [0, %d)", len(c.vmMachine))}
			}
			if r == node {
				step.Action, step.Task, step.Target = LaunchLocal, t, node
				return step, nil
			}
		}
		if remote < 0 {
			remote = t
		}
	}
	if remote < 0 {
		return step, nil
	}
	target := node
	if reps := tasks[remote].Replicas; len(reps) > 0 {
		target = -1
		for _, r := range reps { // Srq: most Release entries, if any
			if n := len(c.release[c.vmMachine[r]]); n > 0 && (target < 0 || n > len(c.release[c.vmMachine[target]])) {
				target = r
			}
		}
		if target < 0 { // Saq: fewest Assign entries
			target = reps[0]
			for _, r := range reps[1:] {
				if len(c.assign[c.vmMachine[r]]) < len(c.assign[c.vmMachine[target]]) {
					target = r
				}
			}
		}
	}
	tm, nm := c.vmMachine[target], c.vmMachine[node]
	if nm != tm { // on one machine the two entries pair at once
		if len(c.release[nm]) >= MaxLocalityQueue {
			return step, &ValueError{Field: "node", Value: node, Reason: fmt.Sprintf("the Release queue of its machine %d holds MaxLocalityQueue = %d entries", nm, MaxLocalityQueue)}
		}
		if len(c.assign[tm]) >= MaxLocalityQueue {
			return step, &ValueError{Field: fmt.Sprintf("tasks[%d]", remote), Value: target, Reason: fmt.Sprintf("the Assign queue of machine %d (of VM %d) holds MaxLocalityQueue = %d entries", tm, target, MaxLocalityQueue)}
		}
	}
	c.assign[tm] = append(c.assign[tm], pendingLocal{vm: target, task: remote})
	c.release[nm] = append(c.release[nm], node)
	step.Action, step.Task, step.Target = QueueRemote, remote, target
	c.reconfigure(tm, &step)
	if nm != tm {
		c.reconfigure(nm, &step)
	}
	return step, nil
}

// reconfigure pairs the oldest Release and Assign entries of machine m while
// both queues are non-empty. After a single AssignMapTask at most one pair
// forms per machine, because the queues were never both non-empty before.
func (c *LocalityCluster) reconfigure(m int, step *LocalityStep) {
	for len(c.release[m]) > 0 && len(c.assign[m]) > 0 && step.N < len(step.Reconfigurations) {
		from, to := c.release[m][0], c.assign[m][0]
		c.release[m] = popFront(c.release[m])
		c.assign[m] = popFront(c.assign[m])
		step.Reconfigurations[step.N] = Reconfiguration{Machine: m, From: from, To: to.vm, Task: to.task}
		step.N++
	}
}

// popFront removes the first element, shifting in place so the backing array
// is reused and the queue never grows without bound.
func popFront[T any](q []T) []T {
	n := copy(q, q[1:])
	return q[:n]
}

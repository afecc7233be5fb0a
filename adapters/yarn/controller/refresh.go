package controller

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/schedkit/schedkit/adapters/yarn/deadline"
	"github.com/schedkit/schedkit/adapters/yarn/rm"
)

// KindRefreshQueues is the Result of RefreshReservationQueues: one
// NodeManager's resource written back unchanged.
const KindRefreshQueues deadline.Kind = "refresh-queues"

// RefreshReservationQueues makes the Capacity Scheduler compute the
// resources of reservation queues it left without any, and reports
// whether it had to (ok) and how that went.
//
// On Hadoop 3.5.0 the plan follower creates a reservation's queue and sets
// its capacity (CapacitySchedulerPlanFollower.addReservationQueue,
// AbstractAutoCreatedLeafQueue.setEntitlement), but neither computes the
// queue's effective resources: the Capacity Scheduler does that only when
// the cluster's resource changes (CapacityScheduler.addNode, removeNode,
// updateNodeAndQueueResource), whereas its other dynamic queues are
// computed on creation (ParentQueue.addDynamicChildQueue,
// ManagedParentQueue.addChildQueue). Until then the queue reports its
// capacity (62.5% of the plan, say) with a minimum effective resource of
// 0 MB and a maximum of 0 MB, so its ApplicationMaster limit is 0 and an
// app moved into it stays ACCEPTED for good. Writing one RUNNING node's
// own resource back to it (POST nodes/{id}/resource) is such a change of
// the cluster's resource: every queue is recomputed, and the app starts.
// The RM applies the write after the call returns (AdminService hands it
// to the node's state machine, which hands it to the scheduler, each
// through an event dispatcher), so the queue shows its resources a moment
// later; a pass that still finds it stale writes again.
//
// A queue of the plan is stale when its capacity is above 0 and the RM
// reports its minimum effective memory as 0 (the plan's default queue,
// <plan>-default, is not a reservation and is left out). With none stale
// nothing is written. The node written is the first RUNNING one by ID,
// with its memory and vcores as GET nodes reports them (used plus
// available); the write needs the controller's user to be a YARN
// administrator (yarn.admin.acl).
func (c *Controller) RefreshReservationQueues(ctx context.Context) (Result, bool) {
	r := Result{Action: deadline.Action{Kind: KindRefreshQueues, Queue: c.opt.Config.PlanQueue}}
	si, err := c.rm.Scheduler(ctx)
	if err != nil {
		r.Err = err
		return r, true
	}
	stale := StaleReservationQueues(si, c.opt.Config.PlanQueue)
	if len(stale) == 0 {
		return Result{}, false
	}
	r.Action.Reason = fmt.Sprintf("reservation queues %s have capacity but no effective resources (Hadoop 3.5.0 computes them only when the cluster's resource changes)",
		strings.Join(stale, ", "))
	nodes, err := c.rm.Nodes(ctx, rm.NodeRunning)
	if err != nil {
		r.Err = err
		return r, true
	}
	nodes = slices.DeleteFunc(nodes, func(n rm.Node) bool { return string(n.State) != rm.NodeRunning })
	if len(nodes) == 0 {
		r.Err = fmt.Errorf("controller: no RUNNING node to write back")
		return r, true
	}
	n := slices.MinFunc(nodes, func(a, b rm.Node) int { return cmp.Compare(a.ID, b.ID) })
	total := rm.Resource{Memory: n.UsedMemoryMB + n.AvailMemoryMB, VCores: n.UsedVirtualCores + n.AvailableVirtualCores}
	if _, err := c.rm.SetNodeResource(ctx, string(n.ID), total); err != nil {
		r.Err = err
		return r, true
	}
	r.Note = fmt.Sprintf("wrote node %s's own resource <%d MB, %d vcores> back to it", n.ID, total.Memory, total.VCores)
	return r, true
}

// StaleReservationQueues returns the full paths of the queues under the
// plan queue (plan as Config.PlanQueue names it, with or without "root.")
// whose capacity is above 0 and whose minimum effective memory the RM
// reports as 0, the default reservation queue left out.
func StaleReservationQueues(si rm.SchedulerInfo, plan string) []string {
	path := plan
	if !strings.HasPrefix(path, "root.") {
		path = "root." + path
	}
	pq, ok := si.Queue(path)
	if !ok {
		return nil
	}
	var out []string
	for _, q := range pq.Children() {
		if strings.HasSuffix(string(q.Name), "-default") {
			continue
		}
		if q.Capacity > 0 && q.MinEffective != nil && q.MinEffective.Memory == 0 {
			out = append(out, string(q.Path))
		}
	}
	slices.Sort(out)
	return out
}

package rm

import (
	"strings"
)

// Application states (YarnApplicationState), as the RM writes them.
const (
	StateNew       = "NEW"
	StateNewSaving = "NEW_SAVING"
	StateSubmitted = "SUBMITTED"
	StateAccepted  = "ACCEPTED"
	StateRunning   = "RUNNING"
	StateFinished  = "FINISHED"
	StateFailed    = "FAILED"
	StateKilled    = "KILLED"
)

// App is one application as GET /ws/v1/cluster/apps and apps/{id} report
// it (ResourceManagerRest.md, "Elements of the app object"). Only the
// fields an adapter uses are decoded; the rest are ignored.
type App struct {
	ID          string `json:"id"`
	User        String `json:"user"`
	Name        String `json:"name"`
	Queue       String `json:"queue"`
	State       String `json:"state"`
	FinalStatus String `json:"finalStatus"`
	// Progress is the application's progress in percent, [0, 100].
	Progress        Float  `json:"progress"`
	ApplicationType String `json:"applicationType"`
	// ApplicationTags is the comma-separated tag list. YARN stores tags in
	// lower case (ApplicationSubmissionContext lower-cases them).
	ApplicationTags String `json:"applicationTags"`
	// StartedTime and FinishedTime are milliseconds since the epoch;
	// FinishedTime is 0 while the app runs. ElapsedTime is milliseconds.
	StartedTime  Int64 `json:"startedTime"`
	FinishedTime Int64 `json:"finishedTime"`
	ElapsedTime  Int64 `json:"elapsedTime"`
	// AllocatedMB and AllocatedVCores sum the app's running containers;
	// RunningContainers counts them, the ApplicationMaster's included.
	AllocatedMB       Int64  `json:"allocatedMB"`
	AllocatedVCores   Int64  `json:"allocatedVCores"`
	RunningContainers Int64  `json:"runningContainers"`
	Diagnostics       String `json:"diagnostics"`
	// MemorySeconds and VcoreSeconds are the resources the app's
	// containers, its ApplicationMaster's included, have held: MB × s and
	// vcores × s (for containers of one vcore, container-seconds).
	MemorySeconds Int64 `json:"memorySeconds"`
	VcoreSeconds  Int64 `json:"vcoreSeconds"`
	// The RM has written the priority under two names across versions:
	// "applicationPriority" (the documented examples) and "priority".
	// Use Priority().
	ApplicationPriority *Int64        `json:"applicationPriority"`
	PriorityField       *Int64        `json:"priority"`
	Timeouts            *TimeoutsInfo `json:"timeouts"`
}

// Priority returns the application's YARN priority: a higher integer is a
// higher priority. It reads "applicationPriority" or, failing that,
// "priority"; 0 when the RM wrote neither.
func (a App) Priority() int64 {
	switch {
	case a.ApplicationPriority != nil:
		return int64(*a.ApplicationPriority)
	case a.PriorityField != nil:
		return int64(*a.PriorityField)
	}
	return 0
}

// Tags returns the application's tags, split on commas and trimmed of
// spaces, empty ones dropped.
func (a App) Tags() []string {
	var out []string
	for _, t := range strings.Split(string(a.ApplicationTags), ",") {
		if t = strings.TrimSpace(t); t != "" {
			out = append(out, t)
		}
	}
	return out
}

// TimeoutsInfo is the "timeouts" object of an app and the body of GET
// apps/{id}/timeouts.
type TimeoutsInfo struct {
	Timeout List[Timeout] `json:"timeout"`
}

// Timeout is one application timeout (dao/AppTimeoutInfo.java): its type
// (LIFETIME), the expiry time in ISO 8601 or "UNLIMITED", and the
// remaining seconds (-1 when unlimited).
type Timeout struct {
	Type                   String `json:"type"`
	ExpiryTime             String `json:"expiryTime"`
	RemainingTimeInSeconds Int64  `json:"remainingTimeInSeconds"`
}

// TimeoutLifetime is the only application timeout type YARN defines.
const TimeoutLifetime = "LIFETIME"

// ExpiryLayout is the ISO 8601 layout the RM parses and writes for
// timeouts (Times.parseISO8601ToLocalTimeInMillis,
// yyyy-MM-dd'T'HH:mm:ss.SSSZ).
const ExpiryLayout = "2006-01-02T15:04:05.000-0700"

// Node is one NodeManager as GET /ws/v1/cluster/nodes reports it.
type Node struct {
	ID                    String `json:"id"`
	Rack                  String `json:"rack"`
	State                 String `json:"state"`
	NodeHostName          String `json:"nodeHostName"`
	HealthStatus          String `json:"healthStatus"`
	NumContainers         Int64  `json:"numContainers"`
	UsedMemoryMB          Int64  `json:"usedMemoryMB"`
	AvailMemoryMB         Int64  `json:"availMemoryMB"`
	UsedVirtualCores      Int64  `json:"usedVirtualCores"`
	AvailableVirtualCores Int64  `json:"availableVirtualCores"`
}

// Node states that run containers.
const NodeRunning = "RUNNING"

// ClusterMetrics is GET /ws/v1/cluster/metrics.
type ClusterMetrics struct {
	AppsSubmitted         Int64 `json:"appsSubmitted"`
	AppsCompleted         Int64 `json:"appsCompleted"`
	AppsPending           Int64 `json:"appsPending"`
	AppsRunning           Int64 `json:"appsRunning"`
	AppsFailed            Int64 `json:"appsFailed"`
	AppsKilled            Int64 `json:"appsKilled"`
	ReservedMB            Int64 `json:"reservedMB"`
	AvailableMB           Int64 `json:"availableMB"`
	AllocatedMB           Int64 `json:"allocatedMB"`
	TotalMB               Int64 `json:"totalMB"`
	AvailableVirtualCores Int64 `json:"availableVirtualCores"`
	AllocatedVirtualCores Int64 `json:"allocatedVirtualCores"`
	TotalVirtualCores     Int64 `json:"totalVirtualCores"`
	ContainersAllocated   Int64 `json:"containersAllocated"`
	ContainersPending     Int64 `json:"containersPending"`
	TotalNodes            Int64 `json:"totalNodes"`
	ActiveNodes           Int64 `json:"activeNodes"`
}

// Scheduler types as the "type" field of schedulerInfo names them.
const (
	SchedulerCapacity = "capacityScheduler"
	SchedulerFair     = "fairScheduler"
	SchedulerFifo     = "fifoScheduler"
)

// SchedulerInfo is the part of GET /ws/v1/cluster/scheduler an adapter
// needs: the scheduler type and, under the Capacity Scheduler, the queue
// tree below root. Application priorities take effect only under the
// Capacity Scheduler (ResourceManagerRest.md, "Cluster Application
// Priority API"), and the queue of a reservation is named differently
// under the Fair Scheduler (AbstractSchedulerPlanFollower and
// FairSchedulerPlanFollower.getReservationQueueName).
type SchedulerInfo struct {
	Type      String         `json:"type"`
	QueueName String         `json:"queueName"`
	Queues    *QueueChildren `json:"queues"`
}

// QueueChildren holds a Capacity Scheduler queue's child queues.
type QueueChildren struct {
	Queue List[SchedulerQueue] `json:"queue"`
}

// SchedulerQueue is one Capacity Scheduler queue of GET
// /ws/v1/cluster/scheduler (CapacitySchedulerQueueInfo): its full path,
// its capacity in percent of its parent's, and the effective minimum
// resource the scheduler computed from it — what its ApplicationMaster
// limit and guarantee are made of (AbstractLeafQueue
// .calculateAndGetAMResourceLimitPerPartition). MinEffective is nil when
// the RM does not report it (before Hadoop 3.1).
type SchedulerQueue struct {
	Path         String         `json:"queuePath"`
	Name         String         `json:"queueName"`
	Capacity     Float          `json:"capacity"`
	MinEffective *Resource      `json:"minEffectiveCapacity"`
	Queues       *QueueChildren `json:"queues"`
}

// Queue returns the queue at full path p (root.a.b) of the Capacity
// Scheduler's tree, and whether there is one.
func (s SchedulerInfo) Queue(p string) (SchedulerQueue, bool) {
	var walk func(c *QueueChildren) (SchedulerQueue, bool)
	walk = func(c *QueueChildren) (SchedulerQueue, bool) {
		if c == nil {
			return SchedulerQueue{}, false
		}
		for _, q := range c.Queue {
			if string(q.Path) == p {
				return q, true
			}
			if r, ok := walk(q.Queues); ok {
				return r, true
			}
		}
		return SchedulerQueue{}, false
	}
	return walk(s.Queues)
}

// Children returns q's child queues.
func (q SchedulerQueue) Children() []SchedulerQueue {
	if q.Queues == nil {
		return nil
	}
	return q.Queues.Queue
}

// Resource is a container size: memory in MB and virtual cores.
type Resource struct {
	Memory Int64 `json:"memory"`
	VCores Int64 `json:"vCores"`
}

// Reservation request interpreters (ReservationRequestInterpreter).
const (
	InterpreterAny        = 0
	InterpreterAll        = 1
	InterpreterOrder      = 2
	InterpreterOrderNoGap = 3
)

// ReservationRequest is one stage of a reservation: NumContainers
// containers of Capability, at least MinConcurrency of them at once, each
// for Duration milliseconds.
type ReservationRequest struct {
	Capability     Resource `json:"capability"`
	NumContainers  Int64    `json:"num-containers"`
	MinConcurrency Int64    `json:"min-concurrency"`
	Duration       Int64    `json:"duration"`
}

// ReservationRequests groups the stages with their interpreter.
type ReservationRequests struct {
	Interpreter Int64                    `json:"reservation-request-interpreter"`
	Request     List[ReservationRequest] `json:"reservation-request"`
}

// ReservationDefinition is what a reservation asks for: its requests,
// placed between Arrival and Deadline (milliseconds since the epoch).
type ReservationDefinition struct {
	Arrival  Int64               `json:"arrival"`
	Deadline Int64               `json:"deadline"`
	Name     String              `json:"reservation-name"`
	Requests ReservationRequests `json:"reservation-requests"`
	Priority Int64               `json:"priority"`
}

// ReservationAllocation is one piece of the plan's allocation.
type ReservationAllocation struct {
	Resource  Resource `json:"resource"`
	StartTime Int64    `json:"startTime"`
	EndTime   Int64    `json:"endTime"`
}

// Reservation is one entry of GET /ws/v1/cluster/reservation/list.
type Reservation struct {
	ID             String                      `json:"reservation-id"`
	User           String                      `json:"user"`
	AcceptanceTime Int64                       `json:"acceptance-time"`
	Definition     ReservationDefinition       `json:"reservation-definition"`
	Allocations    List[ReservationAllocation] `json:"resource-allocations"`
}

// ReservationSubmission is the body of POST reservation/submit.
type ReservationSubmission struct {
	Queue      string                `json:"queue"`
	ID         string                `json:"reservation-id"`
	Definition ReservationDefinition `json:"reservation-definition"`
}

// ReservationUpdate is the body of POST reservation/update.
type ReservationUpdate struct {
	ID         string                `json:"reservation-id"`
	Definition ReservationDefinition `json:"reservation-definition"`
}

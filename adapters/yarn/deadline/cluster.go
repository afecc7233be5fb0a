package deadline

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/schedkit/schedkit/edf"

	"github.com/schedkit/schedkit/adapters/yarn/rm"
	"github.com/schedkit/schedkit/adapters/yarn/trace"
)

// Cluster is what the controller read from the RM in one pass: the input
// of Plan. Times are milliseconds since the epoch.
type Cluster struct {
	// Now is the time of the reading.
	Now int64
	// Apps are the ACCEPTED and RUNNING applications (others are ignored).
	Apps []rm.App
	// Nodes are the NodeManagers; those RUNNING give the slots.
	Nodes []rm.Node
	// Scheduler is the scheduler type (rm.SchedulerCapacity …).
	Scheduler string
	// Reservations are those of Config.PlanQueue; ReservationsOff is true
	// when the RM said its ReservationSystem is not enabled.
	Reservations    []rm.Reservation
	ReservationsOff bool
	// ReservationsUnread, when not empty, says why the reservations could
	// not be read; no reservation is then planned (one might exist).
	ReservationsUnread string
	// Lifetimes maps an app ID to its LIFETIME expiry (ms since the epoch,
	// 0 unlimited) where the RM reported one.
	Lifetimes map[string]int64
}

// Slots returns the number of containers of size mb × vcores the RUNNING
// nodes can hold in all: per node, how many fit both its memory and its
// cores (used plus available).
func Slots(nodes []rm.Node, mb, vcores int64) int {
	if mb < 1 || vcores < 1 {
		return 0
	}
	total := int64(0)
	for _, n := range nodes {
		if string(n.State) != rm.NodeRunning {
			continue
		}
		m := int64(n.UsedMemoryMB) + int64(n.AvailMemoryMB)
		c := int64(n.UsedVirtualCores) + int64(n.AvailableVirtualCores)
		if m <= 0 || c <= 0 {
			continue
		}
		total += min(m/mb, c/vcores)
		if total > math.MaxInt32 {
			return math.MaxInt32
		}
	}
	return int(total)
}

// appID is the two numbers of application_<clusterTimestamp>_<sequence>.
type appID struct{ ts, seq int64 }

// parseAppID parses an application ID; ok is false if it is malformed.
func parseAppID(id string) (appID, bool) {
	rest, ok := strings.CutPrefix(id, "application_")
	if !ok {
		return appID{}, false
	}
	a, b, ok := strings.Cut(rest, "_")
	if !ok {
		return appID{}, false
	}
	ts, err1 := strconv.ParseInt(a, 10, 64)
	seq, err2 := strconv.ParseInt(b, 10, 64)
	if err1 != nil || err2 != nil || ts < 0 || seq < 0 {
		return appID{}, false
	}
	return appID{ts, seq}, true
}

// compareAppID orders app IDs by cluster timestamp, then sequence number.
func compareAppID(a, b appID) int { return cmp.Or(cmp.Compare(a.ts, b.ts), cmp.Compare(a.seq, b.seq)) }

// job is one deadline app mapped to schedkit's inputs.
type job struct {
	app  *rm.App // in Cluster.Apps
	id   appID
	key  int64 // schedkit job ID: 1 + the app's rank in app-ID order
	spec Spec
	typ  trace.JobType
	// Times in seconds relative to Cluster.Now.
	arrival, deadline float64
	// tasks is the map task count; remaining of them are not finished,
	// running of those hold a container.
	tasks, remaining, running int
	reserved                  bool // the app runs in its reservation's queue
	// desc is the app as schedkit's queues take it (admission.Job and
	// edf.Job are one type): its ID, arrival, deadline, remaining map
	// tasks and its job type's model; admission sets its JCT on a copy.
	desc edf.Job
	// view is what the plan reports of the app; killed and atRisk are
	// admission's and the ranking's outcomes.
	view           AppPlan
	killed, atRisk bool
}

// mapApp maps one app into j: its tags (spec, as its ApplicationTags
// parse, or the error they gave), model and task counts. A problem is an
// error naming the app's field; the app is then rejected (and j holds part
// of it).
func mapApp(j *job, a *rm.App, id appID, spec Spec, err error, now int64, cfg Config) error {
	// With ACLs on, the RM lists an app its caller may not view (VIEW_APP)
	// with its state and tags but with zeros for its start time and usage
	// (RMWebServices.hasAccess, AppInfo): decisions on those zeros would
	// be wrong, so the app is left alone and the reason names the ACL.
	if a.StartedTime == 0 && (err != nil || spec.HasDeadline) {
		return errors.New("startedTime = 0: the RM hides the app's start time and usage from the controller's user, " +
			"who lacks VIEW_APP on it (the app's VIEW_APP ACL, its queue's acl_administer_queue or yarn.admin.acl grant it)")
	}
	if err != nil {
		return err
	}
	*j = job{app: a, id: id, spec: spec}
	if !spec.HasDeadline {
		return nil
	}
	if j.typ, err = jobTypeOf(spec, cfg); err != nil {
		return err
	}
	typ := j.typ
	p := float64(a.Progress)
	if !(p >= 0 && p <= 100) {
		return fmt.Errorf("progress = %v: must be in [0, 100]", p)
	}
	if a.StartedTime < 0 {
		return fmt.Errorf("startedTime = %d: must be ≥ 0", a.StartedTime)
	}
	// −1 is the RM's placeholder usage report of an app the scheduler
	// holds no attempt of yet (RMServerUtils
	// .DUMMY_APPLICATION_RESOURCE_USAGE_REPORT): Hadoop 3.5.0 lists a
	// just-accepted app so until the scheduler adds its attempt. It holds
	// no container.
	if a.RunningContainers < -1 {
		return fmt.Errorf("runningContainers = %d: must be ≥ -1 (the RM's no-usage-yet placeholder)", a.RunningContainers)
	}
	j.tasks = spec.Tasks
	if j.tasks == 0 {
		j.tasks = typ.Maps
	}
	if j.tasks < 1 {
		return fmt.Errorf("no %s tag and job type %s has no typical task count", TagTasks, typ.Name)
	}
	// The ApplicationMaster holds one of the app's containers; the others
	// run tasks. A task still running has not finished, so it counts among
	// the remaining tasks whatever the progress says.
	j.running = max(int(a.RunningContainers)-1, 0)
	j.remaining = int(math.Ceil(float64(j.tasks) * (1 - p/100)))
	j.running = min(j.running, j.tasks)
	j.remaining = max(j.remaining, j.running)
	j.arrival = msToS(int64(a.StartedTime) - now)
	j.deadline = msToS(spec.Deadline - now)
	return nil
}

// jobTypeOf returns the model of the app's job type: its TagJobType, else
// cfg.DefaultModel, looked up in cfg.Catalog.
func jobTypeOf(spec Spec, cfg Config) (trace.JobType, error) {
	name := spec.JobType
	if name == "" {
		name = cfg.DefaultModel
	}
	if name == "" {
		return trace.JobType{}, fmt.Errorf("no %s tag and no default model", TagJobType)
	}
	typ, ok := cfg.Catalog.Lookup(name)
	if !ok {
		return trace.JobType{}, fmt.Errorf("%s=%s is not a job type of the catalog", TagJobType, name)
	}
	return typ, nil
}

// pending returns the app's tasks not yet started.
func (j job) pending() int { return j.remaining - j.running }

// stamp formats a time in milliseconds since the epoch for a message.
func stamp(ms int64) string { return time.UnixMilli(ms).UTC().Format(time.RFC3339) }

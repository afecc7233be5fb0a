package deadline

import (
	"fmt"
	"math"
	"strings"

	"github.com/schedkit/schedkit/adapters/yarn/rm"
	"github.com/schedkit/schedkit/edf"
	"github.com/schedkit/schedkit/tct/jct"
)

// ReservationPrefix starts the name of every reservation the controller
// makes; the rest is the application ID. It is how the controller finds its
// reservations again after a restart, and the only ones it ever deletes.
const ReservationPrefix = "schedkit/"

// ReservationQueue returns the queue a reservation's apps run in: the
// reservation ID under the Capacity Scheduler
// (AbstractSchedulerPlanFollower.getReservationQueueName), the plan
// queue's full path and the ID under the Fair Scheduler
// (FairSchedulerPlanFollower.getReservationQueueName).
func ReservationQueue(scheduler, planQueue, id string) string {
	if scheduler != rm.SchedulerFair {
		return id
	}
	plan := planQueue
	if !strings.HasPrefix(plan, "root.") && plan != "root" {
		plan = "root." + plan
	}
	if strings.HasPrefix(id, plan) {
		return id
	}
	return plan + "." + id
}

// reservationQueues maps the queue name of each listed reservation to it.
func reservationQueues(c Cluster, cfg Config) map[string]rm.Reservation {
	out := map[string]rm.Reservation{}
	if cfg.PlanQueue == "" {
		return out
	}
	for _, r := range c.Reservations {
		out[ReservationQueue(c.Scheduler, cfg.PlanQueue, string(r.ID))] = r
	}
	return out
}

// inReservation reports whether an app's queue, as the RM reports it, is
// the queue of a listed reservation. Hadoop 3.5's Capacity Scheduler
// reports the queue's full path, root.<plan>.<reservation ID>, where
// ReservationQueue names it by the ID alone (the name a move takes); a
// queue matches by its full name or by its leaf, the part after the last
// dot (YARN queue names hold no dots).
func inReservation(resQueue map[string]rm.Reservation, queue string) bool {
	if _, ok := resQueue[queue]; ok {
		return true
	}
	_, ok := resQueue[queue[strings.LastIndexByte(queue, '.')+1:]]
	return ok
}

// sizing is a reservation's shape for one app.
type sizing struct {
	containers, minConcurrency int
	duration                   float64 // seconds
	prob                       float64 // P(T ≤ time left) with containers
	minSlots                   edf.MinSlots
}

// size computes a reservation for j with left seconds to its deadline on
// at most slots containers:
//   - containers: jct.WorkersFor, the fewest containers with which the
//     job's Monte-Carlo model (Lee thesis §5.2.2, the job type's fitted
//     arrival, map and reduce lognormals) meets the deadline with
//     probability ≥ Config.Confidence;
//   - duration: the Config.Confidence quantile of its completion time with
//     that many containers (jct.Predict), so each reserved container lasts
//     as long as the job needs with that confidence;
//   - min-concurrency: edf.MinimumSlots (Rao–Reddy Eq. 10) map plus
//     reduce slots, the least parallelism that still meets the deadline
//     under Rao–Reddy's model with the type's mean task times, capped at
//     the containers; the whole container count when Eq. 10 has no answer.
//
// ok is false, with the reason, when no count up to slots reaches the
// confidence.
func size(j *job, left float64, slots int, cfg Config) (s sizing, reason string, err error) {
	reduces := j.typ.Reduces
	m, err := j.typ.JobModel(j.remaining, reduces)
	if err != nil {
		return sizing{}, "", err
	}
	opt := jct.Options{Runs: cfg.Runs, Seed: cfg.Seed}
	alloc, err := jct.WorkersFor(m, left, cfg.Confidence, min(slots, jct.MaxWorkers), opt)
	if err != nil {
		return sizing{}, "", err
	}
	if !alloc.Feasible {
		return sizing{}, fmt.Sprintf("even %d containers meet the deadline in %.0f s with probability %.2f < %.2f",
			alloc.Workers, left, alloc.ProbMeet, cfg.Confidence), nil
	}
	m.Workers = alloc.Workers
	dist, err := jct.Predict(m, opt)
	if err != nil {
		return sizing{}, "", err
	}
	dur, err := dist.Quantile(cfg.Confidence)
	if err != nil {
		return sizing{}, "", err
	}
	s = sizing{containers: alloc.Workers, minConcurrency: alloc.Workers, duration: math.Min(dur, left), prob: alloc.ProbMeet}
	est := edf.SlotEstimate{MapTasks: j.remaining, ReduceTasks: reduces, CompletedMaps: j.typ.Map.Samples,
		MeanMapTime: j.typ.Map.MeanS, TimeLeft: left}
	if reduces > 0 && j.typ.Reduce != nil {
		est.CompletedReduces, est.MeanReduceTime = j.typ.Reduce.Samples, j.typ.Reduce.MeanS
	}
	ms, err := edf.MinimumSlots(est)
	if err != nil {
		return sizing{}, "", err
	}
	s.minSlots = ms
	if ms.Status == edf.SlotsFeasible {
		s.minConcurrency = max(min(ms.Map+ms.Reduce, s.containers), 1)
	}
	return s, "", nil
}

// reserve plans the reservations: one for each admitted ACCEPTED deadline
// app not yet in its reservation's queue, and the deletion of the
// controller's reservations whose apps are no longer ACCEPTED or RUNNING.
// An existing reservation of the app is reused: the app is moved into it,
// after an update when it holds fewer containers than the app now needs.
func reserve(c Cluster, cfg Config, jobs []*job, resQueue map[string]rm.Reservation, p *Plan) {
	switch {
	case c.ReservationsOff:
		p.Notes = append(p.Notes, "the RM's ReservationSystem is not enabled: no reservations")
		return
	case c.ReservationsUnread != "":
		p.Notes = append(p.Notes, "reservations not read ("+c.ReservationsUnread+"): none planned")
		return
	case c.Scheduler == rm.SchedulerFifo:
		p.Notes = append(p.Notes, "the FIFO Scheduler has no ReservationSystem: no reservations")
		return
	}
	mine := map[string]rm.Reservation{}
	for _, r := range c.Reservations {
		if app, ok := strings.CutPrefix(string(r.Definition.Name), ReservationPrefix); ok {
			mine[app] = r
		}
	}
	live := map[string]bool{}
	for _, a := range c.Apps {
		if s := string(a.State); s == rm.StateAccepted || s == rm.StateRunning {
			live[a.ID] = true
		}
	}
	for app, r := range mine {
		if !live[app] {
			p.Actions = append(p.Actions, Action{Kind: KindDeleteReservation, ReservationID: string(r.ID),
				Reason: fmt.Sprintf("its app %s is no longer ACCEPTED or RUNNING", app)})
		}
	}
	if p.Slots == 0 {
		return
	}
	for _, j := range jobs {
		v := &j.view
		if j.reserved {
			v.Reservation = "in reservation queue " + string(j.app.Queue)
			continue
		}
		if j.killed || string(j.app.State) != rm.StateAccepted || v.Verdict != "admitted" {
			continue
		}
		left := j.deadline
		if left <= 0 {
			continue
		}
		s, why, err := size(j, left, p.Slots, cfg)
		if err != nil {
			p.Rejected = append(p.Rejected, Rejection{App: j.app.ID, Reason: "reservation: " + err.Error()})
			continue
		}
		if why != "" {
			v.Reservation = "no reservation: " + why
			continue
		}
		def := &rm.ReservationDefinition{
			Arrival: rm.Int64(c.Now), Deadline: rm.Int64(j.spec.Deadline), Name: rm.String(ReservationPrefix + j.app.ID),
			Requests: rm.ReservationRequests{Interpreter: rm.InterpreterAll, Request: rm.List[rm.ReservationRequest]{{
				Capability:     rm.Resource{Memory: rm.Int64(cfg.ContainerMB), VCores: rm.Int64(cfg.ContainerVCores)},
				NumContainers:  rm.Int64(s.containers + 1),
				MinConcurrency: rm.Int64(s.minConcurrency + 1),
				Duration:       rm.Int64(sToMs(s.duration)),
			}}},
		}
		minNote := "Rao–Reddy Eq. 10 has no answer (" + s.minSlots.Status.String() + "), gang of all"
		if s.minSlots.Status == edf.SlotsFeasible {
			minNote = fmt.Sprintf("Rao–Reddy Eq. 10 minimum %d map + %d reduce slots", s.minSlots.Map, s.minSlots.Reduce)
		}
		reason := fmt.Sprintf("%d containers × %.0f s, at least %d at once, each with one more for the ApplicationMaster: P(done within %.0f s) = %.2f ≥ %.2f with %d (jct, %d runs); %s",
			s.containers, s.duration, s.minConcurrency, left, s.prob, cfg.Confidence, s.containers, cfg.Runs, minNote)
		v.Reservation = fmt.Sprintf("reserve %d+1×%.0f s (min %d+1)", s.containers, s.duration, s.minConcurrency)
		a := Action{Kind: KindReserve, App: j.app.ID, Reservation: def, Queue: cfg.PlanQueue, Reason: reason}
		if r, ok := mine[j.app.ID]; ok {
			a.ReservationID = string(r.ID)
			have := int64(0)
			for _, q := range r.Definition.Requests.Request {
				have += int64(q.NumContainers)
			}
			a.Update = have < int64(s.containers+1)
			if !a.Update {
				a.Reservation = nil
				a.Reason = fmt.Sprintf("its reservation holds %d containers, enough for the %d it needs now", have, s.containers)
				v.Reservation = "move into " + string(r.ID)
			}
		}
		p.Actions = append(p.Actions, a)
	}
}

package deadline

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/schedkit/schedkit/edf"

	"github.com/schedkit/schedkit/adapters/yarn/rm"
)

// Compute plans one pass of the controller over the cluster c:
//
//  1. Map each ACCEPTED or RUNNING app with a schedkit.io/deadline tag to
//     schedkit's inputs (see the package doc); an app whose tags, model or
//     numbers cannot be used is rejected with the reason and left alone.
//  2. Admission (admission.Queue.Decide, ModeStrict): RUNNING apps, and
//     ACCEPTED apps already in their reservation, are admitted; each other
//     ACCEPTED app, oldest first, is admitted if it meets its deadline and
//     no admitted app that meets its deadline would miss it, else it is
//     killed (or reported) with a diagnostic saying why.
//  3. Ranking (edf.Queue, MP or EDF) of the apps not killed, and a YARN
//     priority for each from its rank, written where it differs and the
//     scheduler honours priorities (the Capacity Scheduler).
//  4. With Config.PlanQueue, a reservation for each admitted ACCEPTED app
//     (jct.WorkersFor, jct.Predict, edf.MinimumSlots), and the deletion of
//     reservations it made for apps that have gone.
//  5. With Config.Lifetime, a LIFETIME timeout at each deadline plus the
//     grace.
//
// Same cluster and config, same plan. The error is for a bad Config only.
// Compute is a Planner's Compute on a new Planner.
func Compute(c Cluster, cfg Config) (Plan, error) {
	var pl Planner
	return pl.Compute(c, cfg)
}

// Compute plans one pass over the cluster c, as the package's Compute
// does, bit for bit, in the storage the Planner kept from its last pass.
func (pl *Planner) Compute(c Cluster, cfg Config) (Plan, error) {
	if err := cfg.Validate(); err != nil {
		return Plan{}, err
	}
	defer pl.release()
	p := Plan{Now: c.Now, Slots: Slots(c.Nodes, cfg.ContainerMB, cfg.ContainerVCores), Scheduler: c.Scheduler}

	// 1. Map the apps, in app-ID order.
	apps := pl.apps[:0]
	if pl.idOf == nil {
		pl.idOf = make(map[string]appID, len(c.Apps))
	}
	idOf := pl.idOf
	for i := range c.Apps {
		a := &c.Apps[i]
		st := string(a.State)
		if st != rm.StateAccepted && st != rm.StateRunning {
			continue
		}
		id, ok := parseAppID(a.ID)
		if !ok {
			p.Rejected = append(p.Rejected, Rejection{App: a.ID, Reason: "malformed application ID"})
			continue
		}
		if _, dup := idOf[a.ID]; dup {
			p.Rejected = append(p.Rejected, Rejection{App: a.ID, Reason: "listed twice by the RM"})
			continue
		}
		idOf[a.ID] = id
		apps = append(apps, parsed{a, id})
	}
	slices.SortFunc(apps, func(x, y parsed) int { return compareAppID(x.id, y.id) })
	pl.apps = apps
	// The jobs live in one slab; byKey[key] is the job of schedkit ID key.
	slab := slices.Grow(pl.slab[:0], len(apps))
	jobs := slices.Grow(pl.jobs[:0], len(apps))
	byKey := slices.Grow(pl.byKey[:0], len(apps)+1)[:len(apps)+1]
	for i, a := range apps {
		slab = append(slab, job{})
		j := &slab[len(slab)-1]
		spec, err := pl.parseTags(a.app)
		if err := mapApp(j, a.app, a.id, spec, err, c.Now, cfg); err != nil || !j.spec.HasDeadline {
			if err != nil {
				p.Rejected = append(p.Rejected, Rejection{App: a.app.ID, Reason: err.Error()})
			}
			slab = slab[:len(slab)-1]
			continue
		}
		j.key = int64(i + 1)
		j.desc = edf.Job{ID: j.key, Arrival: j.arrival, Deadline: j.deadline, Tasks: j.remaining, Model: pl.model(j.typ.TCT())}
		jobs = append(jobs, j)
		byKey[j.key] = j
	}
	pl.slab, pl.jobs, pl.byKey = slab, jobs, byKey
	slices.SortFunc(p.Rejected, func(x, y Rejection) int {
		return cmp.Or(compareAppID(idOf[x.App], idOf[y.App]), cmp.Compare(x.App, y.App))
	})

	resQueue := reservationQueues(c, cfg)
	for _, j := range jobs {
		j.reserved = inReservation(resQueue, string(j.app.Queue))
	}
	if p.Slots == 0 && len(jobs) > 0 {
		p.Notes = append(p.Notes, fmt.Sprintf("no RUNNING node has room for a %d MB, %d vcore container: no admission, kill or reservation this pass", cfg.ContainerMB, cfg.ContainerVCores))
	}

	// 2. Admission.
	for _, j := range jobs {
		j.view = AppPlan{ID: j.app.ID, State: string(j.app.State), Model: j.typ.Name, Deadline: j.spec.Deadline,
			Left: j.deadline, Tasks: j.tasks, Remaining: j.remaining, Running: j.running, Rank: -1,
			Priority: j.app.Priority(), Target: j.app.Priority()}
	}
	if err := pl.admit(jobs, byKey, p.Slots, cfg, &p); err != nil {
		return Plan{}, err
	}

	// 3. Ranking and priorities.
	ranked := pl.ranked[:0]
	for _, j := range jobs {
		if !j.killed {
			ranked = append(ranked, j)
		}
	}
	pl.ranked = ranked
	order, err := pl.rank(ranked, cfg.Order)
	if err != nil {
		return Plan{}, err
	}
	honoured := c.Scheduler == rm.SchedulerCapacity
	if !honoured && len(order) > 0 {
		p.Notes = append(p.Notes, fmt.Sprintf("the %s does not honour application priorities (only the Capacity Scheduler does): priorities are planned but not written", schedulerName(c.Scheduler)))
	}
	for i, j := range order {
		v := &j.view
		v.Rank, v.AtRisk = i, j.atRisk
		v.Target = max(cfg.MaxPriority-int64(i), cfg.MinPriority)
		if honoured && v.Target != v.Priority {
			why := "EDF order"
			switch {
			case cfg.Order == OrderMP && v.AtRisk:
				why = fmt.Sprintf("at risk: its %d containers could finish %.0f tasks by the deadline, %d remain (MIMP Eq. 3); closest deadline first",
					j.running, v.Completable, j.remaining)
			case cfg.Order == OrderMP:
				why = fmt.Sprintf("on track: its %d containers could finish %.0f tasks by the deadline, %d remain (MIMP Eq. 3)",
					j.running, v.Completable, j.remaining)
			}
			p.Actions = append(p.Actions, Action{Kind: KindPriority, App: j.app.ID, Priority: v.Target, From: v.Priority,
				Reason: fmt.Sprintf("rank %d of %d, deadline in %.0f s, %s", i+1, len(order), j.deadline, why)})
		}
	}

	// 4. Reservations.
	if cfg.PlanQueue != "" {
		reserve(c, cfg, jobs, resQueue, &p)
	}

	// 5. Lifetimes.
	if cfg.Lifetime {
		for _, j := range jobs {
			if j.killed {
				continue
			}
			expiry := j.spec.Deadline + cfg.LifetimeGrace.Milliseconds()
			if expiry <= c.Now {
				p.Notes = append(p.Notes, fmt.Sprintf("%s: deadline plus grace %s has passed; LIFETIME not set (the RM refuses an expiry in the past)", j.app.ID, stamp(expiry)))
				continue
			}
			if cur, ok := c.Lifetimes[j.app.ID]; ok && cur == expiry {
				continue
			}
			p.Actions = append(p.Actions, Action{Kind: KindLifetime, App: j.app.ID, Expiry: expiry,
				Reason: fmt.Sprintf("deadline %s plus %s grace: YARN kills the app if it overruns", stamp(j.spec.Deadline), cfg.LifetimeGrace)})
		}
	}

	if len(jobs) > 0 {
		p.Apps = make([]AppPlan, 0, len(jobs))
	}
	for _, j := range order {
		p.Apps = append(p.Apps, j.view)
	}
	for _, j := range jobs {
		if j.killed {
			p.Apps = append(p.Apps, j.view)
		}
	}
	sortActions(p.Actions, idOf)
	return p, nil
}

func schedulerName(t string) string {
	switch t {
	case rm.SchedulerFair:
		return "Fair Scheduler"
	case rm.SchedulerFifo:
		return "FIFO Scheduler"
	case "":
		return "unknown scheduler"
	}
	return t
}

package deadline

import (
	"fmt"
	"slices"
	"strings"

	"github.com/schedkit/schedkit/adapters/yarn/rm"
)

// Kind is what an action does.
type Kind string

// Action kinds.
const (
	// KindKill kills an ACCEPTED app that cannot meet its deadline without
	// making an admitted app late (PUT apps/{id}/state).
	KindKill Kind = "kill"
	// KindReport reports such an app instead (Config.ReportOnly); it
	// writes nothing.
	KindReport Kind = "report"
	// KindPriority sets an app's YARN priority (PUT apps/{id}/priority).
	KindPriority Kind = "priority"
	// KindReserve makes a reservation for an app and moves the app into it
	// (reservation/new-reservation, submit, PUT apps/{id}/queue), or, with
	// ReservationID set, moves the app into its existing reservation,
	// after updating it when Update is set.
	KindReserve Kind = "reserve"
	// KindDeleteReservation cancels a reservation the controller made for
	// an app that has left ACCEPTED and RUNNING (reservation/delete).
	KindDeleteReservation Kind = "delete-reservation"
	// KindLifetime sets an app's LIFETIME timeout (PUT apps/{id}/timeout).
	KindLifetime Kind = "lifetime"
)

// An Action is one change the controller would make, with its reason.
type Action struct {
	Kind Kind
	App  string // application ID ("" for KindDeleteReservation of no app)
	// Priority is the target of KindPriority; From the app's current one.
	Priority, From int64
	// Diagnostic is the kill's diagnostics, the one line the app's owner
	// reads (KindKill, KindReport).
	Diagnostic string
	// Reservation is the definition of KindReserve; Queue the plan queue;
	// ReservationID an existing reservation (of KindReserve and
	// KindDeleteReservation); Update asks for the existing one to be
	// replaced by Reservation first.
	Reservation   *rm.ReservationDefinition
	Queue         string
	ReservationID string
	Update        bool
	// Expiry is the LIFETIME expiry of KindLifetime, ms since the epoch.
	Expiry int64
	// Reason says why, with the numbers behind it.
	Reason string
}

// AppPlan is the controller's view of one deadline app: the numbers the
// decisions used. Times are seconds from Plan.Now.
type AppPlan struct {
	ID    string
	State string
	Model string
	// Deadline is ms since the epoch; Left the seconds to it.
	Deadline int64
	Left     float64
	// Tasks, Remaining and Running are map task counts.
	Tasks, Remaining, Running int
	// AtRisk is edf's Eq. 3 test on the containers the app holds;
	// Completable is Eq. 3's count of tasks they finish by the deadline.
	AtRisk      bool
	Completable float64
	// JCT is admission's Eq. 6 estimate alone on the cluster (seconds).
	JCT float64
	// Rank is the app's place in the priority order (0 first, -1 unranked:
	// killed).
	Rank int
	// Priority is the YARN priority the app has; Target the one planned.
	Priority, Target int64
	// Verdict is "admitted" (RUNNING, or ACCEPTED and admitted), "late"
	// or "hurts <app>" (ACCEPTED and hopeless).
	Verdict string
	// Reservation summarises the app's reservation, "" if none.
	Reservation string
}

// A Rejection is an app the controller leaves alone because its input is
// unusable, with the reason.
type Rejection struct {
	App    string
	Reason string
}

// Plan is the outcome of one pass: what the controller would change and
// why. It is a pure function of the Cluster and Config (Monte-Carlo
// included, through Config.Seed).
type Plan struct {
	Now   int64
	Slots int
	// Scheduler is the RM's scheduler type.
	Scheduler string
	// Apps are the deadline apps, in priority order, killed ones last.
	Apps []AppPlan
	// Actions are the changes, kills first, then reservations, then
	// priorities and timeouts, each group in app-ID order.
	Actions []Action
	// Rejected are the apps left alone, in app-ID order.
	Rejected []Rejection
	// Notes are cluster-level remarks (no slots, priorities without
	// effect, reservation system off).
	Notes []string
}

// Writes returns the actions that change the cluster (all but reports).
func (p Plan) Writes() []Action {
	var out []Action
	for _, a := range p.Actions {
		if a.Kind != KindReport {
			out = append(out, a)
		}
	}
	return out
}

// String renders the plan for people, one line per app and action.
func (p Plan) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "plan at %s: %d deadline apps, %d slots (%s)\n", stamp(p.Now), len(p.Apps), p.Slots, p.Scheduler)
	for _, n := range p.Notes {
		fmt.Fprintf(&b, "note: %s\n", n)
	}
	if len(p.Apps) > 0 {
		fmt.Fprintf(&b, "%-4s %-32s %-8s %-9s %8s %5s %5s %7s %8s %s\n", "rank", "app", "state", "model", "left_s", "rem", "run", "risk", "prio", "verdict")
	}
	for _, a := range p.Apps {
		rank, risk, prio := "-", "", fmt.Sprintf("%d", a.Priority)
		if a.Rank >= 0 {
			rank = fmt.Sprintf("%d", a.Rank+1)
			prio = fmt.Sprintf("%d→%d", a.Priority, a.Target)
		}
		if a.AtRisk {
			risk = "at-risk"
		}
		fmt.Fprintf(&b, "%-4s %-32s %-8s %-9s %8.0f %5d %5d %7s %8s %s", rank, a.ID, a.State, a.Model, a.Left, a.Remaining, a.Running, risk, prio, a.Verdict)
		if a.Reservation != "" {
			fmt.Fprintf(&b, "; %s", a.Reservation)
		}
		b.WriteByte('\n')
	}
	for _, r := range p.Rejected {
		fmt.Fprintf(&b, "rejected %s: %s\n", r.App, r.Reason)
	}
	if len(p.Actions) == 0 {
		b.WriteString("no changes\n")
	}
	for _, a := range p.Actions {
		fmt.Fprintf(&b, "%s\n", a)
	}
	return b.String()
}

// String renders an action on one line.
func (a Action) String() string {
	switch a.Kind {
	case KindKill:
		return fmt.Sprintf("kill %s: %s", a.App, a.Diagnostic)
	case KindReport:
		return fmt.Sprintf("report %s (not killed, -report-only): %s", a.App, a.Diagnostic)
	case KindPriority:
		return fmt.Sprintf("priority %s %d→%d: %s", a.App, a.From, a.Priority, a.Reason)
	case KindReserve:
		switch {
		case a.ReservationID != "" && a.Update:
			return fmt.Sprintf("update reservation %s and move %s into it: %s", a.ReservationID, a.App, a.Reason)
		case a.ReservationID != "":
			return fmt.Sprintf("move %s into reservation %s: %s", a.App, a.ReservationID, a.Reason)
		}
		return fmt.Sprintf("reserve for %s in %s and move it there: %s", a.App, a.Queue, a.Reason)
	case KindDeleteReservation:
		return fmt.Sprintf("delete reservation %s: %s", a.ReservationID, a.Reason)
	case KindLifetime:
		return fmt.Sprintf("lifetime %s → %s: %s", a.App, stamp(a.Expiry), a.Reason)
	}
	return fmt.Sprintf("%s %s: %s", a.Kind, a.App, a.Reason)
}

// kindOrder is the order actions are listed and applied in: kills free
// what they held before anything else is asked for.
var kindOrder = []Kind{KindKill, KindReport, KindDeleteReservation, KindReserve, KindPriority, KindLifetime}

func sortActions(as []Action, idOf map[string]appID) {
	slices.SortStableFunc(as, func(a, b Action) int {
		ka, kb := slices.Index(kindOrder, a.Kind), slices.Index(kindOrder, b.Kind)
		if ka != kb {
			return ka - kb
		}
		if c := compareAppID(idOf[a.App], idOf[b.App]); c != 0 {
			return c
		}
		return strings.Compare(a.ReservationID, b.ReservationID)
	})
}

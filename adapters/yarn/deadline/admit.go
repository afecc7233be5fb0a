package deadline

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/schedkit/schedkit/adapters/yarn/rm"
	"github.com/schedkit/schedkit/admission"
)

// admit runs admission control (MIMP §5.3, Eq. 6–7, in admission's
// strict mode, selected explicitly) over the deadline apps. The admitted
// set starts with the RUNNING apps and the ACCEPTED apps already in their
// reservation; every other ACCEPTED app is then decided in submission
// order (startedTime, then app ID), as an admission controller decides
// each job on arrival, and joins the set when admitted — so an app admitted
// in an earlier pass is never displaced by a later arrival with an earlier
// deadline. Each app's Eq. 6 JCT is its remaining map tasks alone on the
// slots, every slot a dedicated container (R_i = 1).
//
// A rejected app gets a KindKill action (KindReport with
// Config.ReportOnly) whose diagnostic says why, and is marked killed (not
// with ReportOnly). byKey maps a schedkit job ID to its job. With no slot
// nothing is decided.
func (pl *Planner) admit(jobs []*job, byKey []*job, slots int, cfg Config, p *Plan) error {
	if slots == 0 {
		return nil
	}
	if pl.capSlots != slots {
		cluster := make([]admission.Slot, slots)
		for i := range cluster {
			cluster[i].R = 1
		}
		caps, err := admission.NewCapacities(cluster)
		if err != nil {
			return fmt.Errorf("deadline: %d slots: %w", slots, err)
		}
		pl.caps, pl.capSlots = caps, slots
	}
	admitted, candidates := pl.admitted[:0], pl.candidates[:0]
	defer func() { pl.admitted, pl.candidates = admitted, candidates }()
	// Apps of one job type with as many remaining tasks have the same
	// Eq. 6 JCT: each (type, remaining) pair is evaluated once.
	if pl.memo == nil {
		pl.memo = make(map[jctOf]float64)
	}
	for _, j := range jobs {
		jct, ok := pl.memo[jctOf{j.typ.Name, j.remaining}]
		if !ok {
			var err error
			if jct, err = admission.JCTOn(j.typ.TCT(), j.remaining, pl.caps); err != nil {
				return fmt.Errorf("deadline: %s: JCT: %w", j.app.ID, err) // Config.Validate checked the model
			}
			pl.memo[jctOf{j.typ.Name, j.remaining}] = jct
		}
		j.view.JCT = jct
		if string(j.app.State) == rm.StateRunning || j.reserved {
			j.view.Verdict = "admitted"
			a := j.desc
			a.JCT = jct
			admitted = append(admitted, a)
			continue
		}
		candidates = append(candidates, j)
	}
	q := &pl.q
	if err := q.InsertAll(admitted); err != nil {
		return fmt.Errorf("deadline: admitted apps: %w", err)
	}
	// Oldest first; the candidates are in key order, so the key as the
	// last tie-break sorts them as a stable sort would.
	slices.SortFunc(candidates, func(a, b *job) int {
		return cmp.Or(cmp.Compare(a.app.StartedTime, b.app.StartedTime), compareAppID(a.id, b.id), cmp.Compare(a.key, b.key))
	})
	for _, j := range candidates {
		nj := j.desc
		nj.JCT = j.view.JCT
		d, err := q.Decide(nj, 0, admission.Options{Mode: admission.ModeStrict})
		if err != nil {
			return fmt.Errorf("deadline: %s: admission: %w", j.app.ID, err)
		}
		if d.Admit {
			j.view.Verdict = "admitted"
			if err := q.Insert(nj); err != nil {
				return fmt.Errorf("deadline: %s: %w", j.app.ID, err)
			}
			continue
		}
		ahead, err := q.Ahead(nj)
		if err != nil {
			return fmt.Errorf("deadline: %s: admission: %w", j.app.ID, err)
		}
		diag, verdict := diagnose(d, ahead, j, byKey, slots)
		j.view.Verdict = verdict
		kind := KindKill
		if cfg.ReportOnly {
			kind = KindReport
		} else {
			j.killed = true
		}
		p.Actions = append(p.Actions, Action{Kind: kind, App: j.app.ID, Diagnostic: diag, Reason: verdict})
	}
	return nil
}

// diagnose writes the one-line diagnostic of a rejection: what was
// decided, the number behind it, what it protects. ahead is the number of
// admitted apps before j in EDF order.
func diagnose(d admission.Decision, ahead int, j *job, byKey []*job, slots int) (diag, verdict string) {
	self := d.Checked[d.NewIndex]
	switch d.Reason {
	case admission.ReasonQueuedJobHurt:
		h := d.Checked[d.Blocking]
		hurt := byKey[h.ID]
		return fmt.Sprintf("schedkit: not admitted: starting it would make admitted %s miss its deadline %s by %.0f s "+
				"(apps run in EDF order, each alone on the %d containers: MIMP Eq. 6-7); its own deadline %s",
				hurt.app.ID, stamp(hurt.spec.Deadline), -h.Slack, slots, stamp(j.spec.Deadline)),
			"hurts " + hurt.app.ID
	default: // admission.ReasonNewJobLate
		after := ""
		if ahead > 0 {
			after = fmt.Sprintf(" after %.0f s of %d admitted apps ahead in EDF order", self.Prefix-self.JCT, ahead)
		}
		return fmt.Sprintf("schedkit: not admitted: predicted to finish %.0f s from now, %.0f s after its deadline %s "+
				"(%.0f s alone on the %d containers%s: MIMP Eq. 6-7)",
				self.Prefix, -self.Slack, stamp(j.spec.Deadline), self.JCT, slots, after),
			"late"
	}
}

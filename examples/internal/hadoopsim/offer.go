package hadoopsim

import "github.com/schedkit/schedkit/edf"

// offerStream is the PCG stream of the heartbeat order (the web-load streams
// are 1..len(VMs) ≤ MaxSlots).
const offerStream = 1 << 40

// dispatch offers every free slot to the policy, in the scenario's offer
// order: after every arrival, task end and web-load change.
func (r *run) dispatch(now float64) error {
	c := r.s.Cluster
	if r.s.Offer == OfferHeartbeat {
		// Fisher–Yates with the run's own stream: no allocation.
		for i := len(r.vmOrder) - 1; i > 0; i-- {
			k := r.offerRNG.IntN(i + 1)
			r.vmOrder[i], r.vmOrder[k] = r.vmOrder[k], r.vmOrder[i]
		}
	}
	for _, v := range r.vmOrder {
		for k := range c.SlotsPerVM {
			sl := v*c.SlotsPerVM + k
			if r.busy[sl] {
				continue
			}
			d, err := r.pick(sl, now)
			if err != nil {
				return err
			}
			if d.Reason == edf.ReasonIdle {
				if r.p.picker() != MP {
					return nil // FIFO, EDF: no pending task anywhere
				}
				continue // MP may leave this slot idle and use another
			}
			if err := r.start(int(d.ID), sl, now); err != nil {
				return err
			}
		}
	}
	return nil
}

// pick asks the policy's picker for a job for slot sl.
func (r *run) pick(sl int, now float64) (edf.Decision, error) {
	switch r.p.picker() {
	case FIFO:
		return r.q.FIFO(), nil
	case EDF:
		return r.q.EDF(), nil
	}
	return r.q.MP(r.cluster[sl].R, now, r.mpOptions())
}

// mpOptions are the options MP runs with under this scenario and policy.
func (r *run) mpOptions() edf.MPOptions { return r.p.mpOptions(r.s) }

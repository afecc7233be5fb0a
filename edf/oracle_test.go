package edf

// FIFO and EDF as they were before the queue kept its heaps: one pass over
// every job. With Queue.mpScan (MP's one pass) they are the oracle of
// TestPropIndexMatchesOracle, which checks that the indexed pickers
// decide bit for bit as these do.

// oraclePickBy returns the first job with a pending task under less.
func (q *Queue) oraclePickBy(less func(a, b *jobState) bool) Decision {
	best := -1
	for i := range q.jobs {
		s := &q.jobs[i]
		if s.Tasks <= 0 {
			continue
		}
		if best < 0 || less(s, &q.jobs[best]) {
			best = i
		}
	}
	if best < 0 {
		return Decision{Reason: ReasonIdle}
	}
	return Decision{ID: q.jobs[best].ID, Reason: ReasonOrder}
}

func (q *Queue) oracleFIFO() Decision { return q.oraclePickBy(arrivedFirst) }
func (q *Queue) oracleEDF() Decision  { return q.oraclePickBy(earlier) }

func arrivedFirst(a, b *jobState) bool { return fifoBefore(a.Arrival, a.ID, b.Arrival, b.ID) }

// mpScanChecked is the one-pass MP with MP's argument checks.
func (q *Queue) mpScanChecked(r, now float64, opt MPOptions) (Decision, error) {
	if err := checkMP(r, now, opt); err != nil {
		return Decision{}, err
	}
	return q.mpScan(r, now, opt), nil
}

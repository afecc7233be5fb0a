package jct

import (
	"cmp"
	"math"

	"github.com/schedkit/schedkit/internal/enumname"
)

// A Verdict says how one worker count's estimate of P(T ≤ deadline) lies
// against the confidence asked for, given the estimate's interval.
type Verdict int

const (
	// WithinNoise: the interval still contains the confidence after every
	// run the search allows (SearchOptions.RunLimit): P is too close to
	// the confidence for the runs to tell which side it is on.
	WithinNoise Verdict = iota
	// Meets: the interval's lower end is at or above the confidence.
	Meets
	// Misses: the interval's upper end is below the confidence.
	Misses
)

// String returns "within noise", "meets" or "misses".
func (v Verdict) String() string { return enumname.Of(v, "Verdict", verdictNames[:]) }

var verdictNames = [...]string{
	WithinNoise: "within noise",
	Meets:       "meets",
	Misses:      "misses",
}

// A WorkerProb is one evaluated worker count: the estimate of
// P(T ≤ deadline) from the Monte-Carlo runs with that many workers and
// its interval.
type WorkerProb struct {
	Workers  int
	ProbMeet float64 // fraction of the Runs that met the deadline
	Runs     int     // runs behind the estimate: runs 0..Runs−1 of the seed
	// Low and High bound P(T ≤ deadline): the exact (Clopper–Pearson)
	// interval the verdict was drawn from, of coverage 1 − (1 −
	// SearchOptions.Level)/SearchOptions.Looks() (wider than a Level
	// interval, because one worker count's interval is checked up to
	// Looks times as its runs grow).
	Low, High float64
	Verdict   Verdict // how [Low, High] lies against the confidence
}

// An Allocation is the answer of a worker search (WorkersFor,
// WorkersForEach, SearchWorkers) for one confidence.
type Allocation struct {
	// Workers is the answer. When Feasible, it is the smallest worker count
	// the search found whose interval clears the confidence (Verdict
	// Meets). Otherwise no evaluated count cleared it, and Workers is,
	// among the evaluated counts with the best verdict (WithinNoise before
	// Misses), the one with the highest estimate (ties: more workers) —
	// maxWorkers whenever the estimates do not fall as w grows.
	Workers int
	// ProbMeet is the estimate of P(T ≤ deadline) with Workers workers,
	// from Runs runs; [Low, High] is its interval.
	ProbMeet  float64
	Runs      int
	Low, High float64
	// Verdict is that of Workers: Meets when Feasible; otherwise
	// WithinNoise (the confidence is inside the interval even after the
	// added runs: the target is within the noise) or Misses (even the
	// interval's upper end is below the confidence).
	Verdict Verdict
	// Feasible reports Verdict == Meets.
	Feasible bool
	// NoiseFrom is the lower end of the band of worker counts whose
	// estimates could not be told from the confidence: NoiseFrom − 1 was
	// shown to miss it (or NoiseFrom = 1), and from NoiseFrom up to
	// Workers − 1 (Workers included when not Feasible) the search found
	// no count that meets it. NoiseFrom = Workers when the count just
	// below the answer clearly misses. 0 when Verdict is Misses.
	//
	// With a P(T ≤ D) that does not fall as w grows, the smallest w with
	// P(w) ≥ confidence lies in [NoiseFrom, Workers] unless one of the
	// intervals behind the two ends failed to cover, so answers from
	// different seeds overlap in this band.
	NoiseFrom int
	// Evaluated lists every worker count the search evaluated for this
	// confidence, in search order, each once.
	Evaluated []WorkerProb
}

// Defaults of SearchOptions.
const (
	DefaultLevel = 0.95 // SearchOptions.Level when 0
	// DefaultRunGrowth is the factor between the first batch of runs and
	// SearchOptions.RunLimit when RunLimit is 0.
	DefaultRunGrowth = 32
	// MaxLevel bounds SearchOptions.Level: intervals of coverage closer to
	// 1 than 10⁻¹² are not computed accurately.
	MaxLevel = 1 - 1e-12
)

// SearchOptions tunes the confidence-aware worker search. The zero value
// is ready to use.
type SearchOptions struct {
	// Options: Runs is the first batch of runs for every worker count the
	// search evaluates (0 means DefaultRuns); Seed and Goroutines are as
	// for Predict.
	Options
	// RunLimit caps the runs one worker count may get, in [0, MaxRuns];
	// 0 means DefaultRunGrowth × the first batch, capped at MaxRuns. A
	// limit at or below the first batch adds no runs.
	RunLimit int
	// Level is how sure the search is of each verdict, in [0.5,
	// MaxLevel]; 0 means DefaultLevel (95%): a verdict Meets or Misses is
	// wrong with probability at most (1 − Level)/2, over all the times
	// its interval was checked (each check uses coverage 1 − (1 −
	// Level)/Looks()). It is not the confidence, which is the P(T ≤ D)
	// asked for.
	Level float64
}

// resolved returns the options with every default filled in.
func (o SearchOptions) resolved() SearchOptions {
	o.Runs = o.runs()
	if o.RunLimit == 0 {
		o.RunLimit = int(min(int64(o.Runs)*DefaultRunGrowth, MaxRuns))
	}
	o.RunLimit = max(o.RunLimit, o.Runs)
	if o.Level == 0 {
		o.Level = DefaultLevel
	}
	return o
}

// Looks returns the most times the search checks one worker count's
// interval: once for the first batch of runs and once after each doubling
// up to RunLimit. Each check uses coverage 1 − (1 − Level)/Looks, so that
// over all its checks a verdict is wrong with probability at most
// (1 − Level)/2.
func (o SearchOptions) Looks() int {
	o = o.resolved()
	n := 1
	for r := max(o.Runs, 1); r < o.RunLimit; r *= 2 {
		n++
	}
	return n
}

// validate checks SearchOptions.
func (o SearchOptions) validate() error {
	if err := o.Options.validate(); err != nil {
		return err
	}
	if err := mcCount("SearchOptions.RunLimit", o.RunLimit, 0, MaxRuns); err != nil {
		return err
	}
	if !(o.Level == 0 || o.Level >= 0.5 && o.Level <= MaxLevel) {
		return &ValueError{Field: "SearchOptions.Level", Value: o.Level, Reason: "must be 0 (default) or in [0.5, 1 − 1e-12]"}
	}
	return nil
}

// WorkersFor returns the smallest number of workers w in [1, maxWorkers]
// whose estimated P(T ≤ deadline) is shown to reach confidence, for job
// model m (its Workers field is ignored), Lee thesis §5.4.1. It is
// SearchWorkers with the default SearchOptions around opt: opt.Runs runs
// first for each candidate, up to 32 times as many where the estimate's
// interval straddles the confidence, each verdict 95% sure. See
// SearchWorkers for the search, the result and the errors.
func WorkersFor(m JobModel, deadline, confidence float64, maxWorkers int, opt Options) (Allocation, error) {
	if err := mcConfidence("confidence", confidence); err != nil {
		return Allocation{}, err
	}
	as, err := SearchWorkers(m, deadline, []float64{confidence}, maxWorkers, SearchOptions{Options: opt})
	if err != nil {
		return Allocation{}, err
	}
	return as[0], nil
}

// WorkersForEach answers WorkersFor for several confidences at once:
// element i of the result is exactly WorkersFor(m, deadline,
// confidences[i], maxWorkers, opt), Evaluated included. It is
// SearchWorkers with the default SearchOptions around opt.
func WorkersForEach(m JobModel, deadline float64, confidences []float64, maxWorkers int, opt Options) ([]Allocation, error) {
	return SearchWorkers(m, deadline, confidences, maxWorkers, SearchOptions{Options: opt})
}

// SearchWorkers is the confidence-aware worker search of Lee thesis
// §5.4.1: for each confidence c it looks for the smallest w in [1,
// maxWorkers] with P(T ≤ deadline) ≥ c for job model m (its Workers field
// is ignored), and says how sure it is.
//
// Estimates. Worker count w's P is estimated from runs 0..n−1 of opt.Seed
// (Simulator): the same runs for every w (common random numbers), so
// estimates for different w differ only through w. The estimate comes with
// its exact (Clopper–Pearson) interval, of coverage 1 − (1 −
// opt.Level)/opt.Looks() so that a verdict drawn from any of its checks is
// wrong with probability at most (1 − opt.Level)/2. The verdict is Meets
// when the interval's lower end is ≥ c, Misses when its upper end is < c;
// otherwise the search doubles n (sequential sampling, reusing the
// runs already done) until the interval leaves c or n reaches
// opt.RunLimit — then the verdict is WithinNoise: P(w) is too close to c
// for the runs to tell.
//
// Search. Worker counts 1, 2, 4, … (and maxWorkers last) are evaluated in
// ascending order until one Meets; then a bisection between it and the
// count before finds w with Meets and w − 1 not meeting. Then a bisection
// below w finds the noise band's lower end NoiseFrom: NoiseFrom − 1
// Misses. A count that Meets found below the answer on the way restarts
// the search from it. Cost: about 2·log₂(answer) + log₂(band) worker
// counts, each n runs; n grows only near c.
//
// Monotonicity. P(w) need not rise with w under the §5.2.2 model (see the
// package doc: a worker arriving after the maps are done delays the map
// barrier, and a reduce task moved into the first wave takes the longer
// first-wave shuffle). The search never assumes it where it matters most:
// it climbs from w = 1, so a P that falls again at large w (late arrivals)
// does not hide a smaller answer, and the answer always has its own
// verdict Meets — it is never inferred from a neighbour. What it assumes
// is that P crosses c once between the counts it bisects; a dip below c
// between two counts that meet can make it return a count that is not the
// smallest that meets, with w − 1 still shown not to meet. Dips smaller
// than the interval's width change no verdict.
//
// Result, for each confidence in order: see Allocation. confidences must
// be non-empty, each in [0, 1]; confidence 0 gives w = 1, and confidence 1
// can never be shown to be met (the interval's lower end is below 1). The
// deadline (seconds) must be finite and ≥ 0, maxWorkers in [1,
// MaxWorkers]. Element i equals what SearchWorkers returns for
// confidences[i] alone; a worker count's runs are simulated once for all
// confidences. Bad input gives a *ValueError naming the field, e.g.
// "confidences[2]" or "SearchOptions.Level".
func SearchWorkers(m JobModel, deadline float64, confidences []float64, maxWorkers int, opt SearchOptions) ([]Allocation, error) {
	if len(confidences) == 0 {
		return nil, &ValueError{Field: "confidences", Value: 0, Reason: "need at least one confidence"}
	}
	for i, c := range confidences {
		if err := mcConfidence(mcIndexed("confidences", i), c); err != nil {
			return nil, err
		}
	}
	if !(deadline >= 0) || math.IsInf(deadline, 1) {
		return nil, &ValueError{Field: "deadline", Value: deadline, Reason: "must be finite and ≥ 0"}
	}
	if err := mcCount("maxWorkers", maxWorkers, 1, MaxWorkers); err != nil {
		return nil, err
	}
	m.Workers = maxWorkers
	if err := m.Validate(); err != nil {
		return nil, err
	}
	if err := opt.validate(); err != nil {
		return nil, err
	}
	if err := mcWork("SearchOptions.RunLimit", opt.resolved().RunLimit, &m, maxWorkers); err != nil {
		return nil, err
	}
	t := &mcTable{m: m, deadline: deadline, opt: opt.resolved(), tallies: map[int]*mcTally{}}
	t.lookLevel = 1 - (1-t.opt.Level)/float64(t.opt.Looks())
	out := make([]Allocation, len(confidences))
	for i, c := range confidences {
		s := mcSearch{t: t, c: c, maxW: maxWorkers, seen: map[int]WorkerProb{}}
		out[i] = s.run()
	}
	return out, nil
}

// mcConfidence checks that a confidence is in [0, 1].
func mcConfidence(field string, c float64) error {
	if !(c >= 0 && c <= 1) {
		return &ValueError{Field: field, Value: c, Reason: "must be in [0, 1]"}
	}
	return nil
}

// mcTable holds, for each worker count simulated, how many of its first
// runs met the deadline, shared by the searches for every confidence.
type mcTable struct {
	m         JobModel
	deadline  float64
	opt       SearchOptions // resolved
	lookLevel float64       // coverage of the interval at each look
	tallies   map[int]*mcTally
	buf       []float64
}

// An mcTally counts met deadlines over growing prefixes of the runs:
// met[l] of runs 0..runs[l]−1, with runs[0] the first batch and each next
// prefix twice as long, capped at the run limit.
type mcTally struct {
	runs, met []int
}

// level returns (met, runs) of prefix l of worker count w, simulating the
// runs it lacks. Prefix l exists when prefix l − 1 is below the run limit.
func (t *mcTable) level(w, l int) (met, runs int) {
	ta := t.tallies[w]
	if ta == nil {
		ta = &mcTally{}
		t.tallies[w] = ta
	}
	for len(ta.runs) <= l {
		from, met := 0, 0
		if k := len(ta.runs); k > 0 {
			from, met = ta.runs[k-1], ta.met[k-1]
		}
		to := t.opt.Runs
		if from > 0 {
			to = min(2*from, t.opt.RunLimit)
		}
		met += t.simulate(w, from, to)
		ta.runs, ta.met = append(ta.runs, to), append(ta.met, met)
	}
	return ta.met[l], ta.runs[l]
}

// simulate runs [from, to) of worker count w and returns how many met the
// deadline.
func (t *mcTable) simulate(w, from, to int) int {
	mw := t.m
	mw.Workers = w
	if cap(t.buf) < to-from {
		t.buf = make([]float64, to-from)
	}
	buf := t.buf[:to-from]
	seed := t.opt.Seed
	mcRunAll(buf, t.opt.Goroutines, func(s *Simulator, k int) float64 {
		return s.run(&mw, seed, from+k)
	})
	met := 0
	for _, x := range buf {
		if x <= t.deadline {
			met++
		}
	}
	return met
}

// judge evaluates worker count w against confidence c: the shortest prefix
// of runs whose interval leaves c, or, failing that, all runs up to the
// limit.
func (t *mcTable) judge(w int, c float64) WorkerProb {
	for l := 0; ; l++ {
		met, n := t.level(w, l)
		lo, hi := mcInterval(met, n, t.lookLevel)
		p := WorkerProb{Workers: w, ProbMeet: float64(met) / float64(n), Runs: n, Low: lo, High: hi}
		switch {
		case lo >= c:
			p.Verdict = Meets
		case hi < c:
			p.Verdict = Misses
		case n >= t.opt.RunLimit:
			p.Verdict = WithinNoise
		default:
			continue
		}
		return p
	}
}

// mcSearch is the search for one confidence.
type mcSearch struct {
	t     *mcTable
	c     float64
	maxW  int
	seen  map[int]WorkerProb
	order []WorkerProb
}

// probe returns w's verdict, evaluating it on first use.
func (s *mcSearch) probe(w int) Verdict {
	if p, ok := s.seen[w]; ok {
		return p.Verdict
	}
	p := s.t.judge(w, s.c)
	s.seen[w] = p
	s.order = append(s.order, p)
	return p.Verdict
}

// below returns the largest evaluated count under w whose verdict
// satisfies ok, or 0.
func (s *mcSearch) below(w int, ok func(Verdict) bool) int {
	b := 0
	for v, p := range s.seen {
		if v < w && v > b && ok(p.Verdict) {
			b = v
		}
	}
	return b
}

// run performs the search (see SearchWorkers).
func (s *mcSearch) run() Allocation {
	meets := 0
	for w := 1; ; w = min(2*w, s.maxW) {
		if s.probe(w) == Meets {
			meets = w
			break
		}
		if w == s.maxW {
			break
		}
	}
	if meets == 0 {
		best := s.best()
		if best.Verdict == Misses {
			return s.answer(best.Workers, 0)
		}
		from, smaller := s.band(best.Workers)
		if smaller == 0 {
			// The band search may have found a count closer to meeting.
			return s.answer(s.best().Workers, from)
		}
		meets = smaller
	}
	for {
		// Bisection: every evaluated count below meets fails to meet.
		lo, hi := s.below(meets, func(Verdict) bool { return true }), meets
		for hi-lo > 1 {
			mid := lo + (hi-lo)/2
			if s.probe(mid) == Meets {
				hi = mid
			} else {
				lo = mid
			}
		}
		from, smaller := s.band(hi)
		if smaller == 0 {
			return s.answer(hi, from)
		}
		meets = smaller
	}
}

// best returns the answer when no evaluated count meets the confidence:
// among the counts with the best verdict (WithinNoise before Misses), the
// one with the highest estimate, ties to more workers.
func (s *mcSearch) best() WorkerProb {
	rank := func(p WorkerProb) int {
		if p.Verdict == WithinNoise {
			return 1
		}
		return 0
	}
	best := s.order[0]
	for _, p := range s.order[1:] {
		if c := cmp.Or(cmp.Compare(rank(p), rank(best)), cmp.Compare(p.ProbMeet, best.ProbMeet), cmp.Compare(p.Workers, best.Workers)); c > 0 {
			best = p
		}
	}
	return best
}

// band bisects below top for the lower end of the noise band: the count
// whose predecessor Misses. It returns that count, or smaller > 0 when it
// came upon a count below top that Meets.
func (s *mcSearch) band(top int) (from, smaller int) {
	lo := s.below(top, func(v Verdict) bool { return v == Misses })
	hi := top
	for v := range s.seen { // the smallest evaluated count above lo
		if v > lo && v < hi {
			hi = v
		}
	}
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		switch s.probe(mid) {
		case Misses:
			lo = mid
		case Meets:
			return 0, mid
		default:
			hi = mid
		}
	}
	return hi, 0
}

// answer builds the Allocation for worker count w.
func (s *mcSearch) answer(w, noiseFrom int) Allocation {
	p := s.seen[w]
	return Allocation{
		Workers: w, ProbMeet: p.ProbMeet, Runs: p.Runs, Low: p.Low, High: p.High,
		Verdict: p.Verdict, Feasible: p.Verdict == Meets, NoiseFrom: noiseFrom,
		Evaluated: s.order,
	}
}

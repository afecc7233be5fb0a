// Package jct predicts the completion time of a MapReduce job by Monte-Carlo
// simulation (Lee thesis §5.2, §5.4): the thesis's job completion time
// distribution, and the worker counts and allocations it answers (§5.4).
// The deterministic task completion time model exp2 is package tct; the two
// share no identifier and neither imports the other.
//
// # Model
//
// Lognormal is a duration in seconds with ln X ~ N(Mu, Sigma²).
// LognormalFromMoments is Eq. 5.1 (σ² = ln(1 + Var/E²), μ = ln E − σ²/2),
// the thesis's moment match, used by AdjustForSize; LognormalFromSamples is
// maximum likelihood (mean and 1/n variance of ln x), used by
// Distribution.Lognormal to fit simulated or measured outcomes.
// DrawRemaining draws what is left of a task that has already run, from the
// conditional lognormal X | X > elapsed. Draw and DrawRemaining use the
// caller's *rand.Rand; a nil one gives ErrNilRand, which matches ErrBadInput.
//
// A JobModel holds the five phase lognormals of §5.2.2 (worker arrival,
// map, first- and second-wave shuffle, reduce) and the counts w, m, r.
// Simulator.Run is one run of the §5.2.2 pseudo-code (index error fixed): w arrivals; each
// map to the earliest-free worker (a binary min-heap); map_end = max(W);
// a first wave of min(w, r) reduce tasks (S1 + R), one per worker; the rest
// to the earliest-free worker (S2 + R); completion max(W). A Simulator keeps
// its buffers, so a run allocates nothing after the first. Predict does
// Options.Runs runs (default 1000) and returns a Distribution: mean,
// standard deviation, type-7 quantiles, P(T ≤ D) (ProbWithin, and
// ProbWithinInterval with its exact interval), the samples in run order,
// the fitted lognormal and a KS distance to any CDF. The §5.4 use cases
// are SearchWorkers, WorkersFor and WorkersForEach (the smallest w shown to
// reach P(T ≤ D) ≥ confidence), AllocateByReward (the candidate w
// maximising E[reward(T) − cost·w·T]), PredictRemaining and
// Simulator.RunFrom (remaining time from a JobState, optionally with k
// workers added now) and AdjustForSize (§5.2.3: each phase's mean and
// variance fitted linearly in input size).
//
// Randomness and parallelism: run k of seed s draws from four PCG streams
// seeded from (s, k) by SplitMix64 (arrivals, maps, shuffle deviates,
// reduces), and the i-th draw of a stream belongs to the i-th worker or
// task. A run depends only on (model, seed, k): Options.Goroutines shares
// the runs among the caller's goroutine and Goroutines − 1 more, started
// and joined inside the call, each with its own Simulator, taking chunks
// of 1/(32·Goroutines) of the runs from a shared counter as they finish
// the last; the result is bit-identical for any count. The same streams for every worker count are the common
// random numbers (CRN) of the worker search, AllocateByReward and the
// with/without comparison of added workers.
//
// More workers: the §5.2.2 model is not monotone in w, so no coupling can
// make P(T ≤ D) monotone in general; two features let more workers lower it
// even in distribution (TestMoreWorkersCanHurt). (a) map_end = max(W) waits
// for every worker, so an extra worker arriving after the maps are done
// delays the barrier. (b) A reduce task moved from the second wave into the
// first takes a first-wave shuffle, which the thesis measures as longer.
// What holds exactly, run by run under our CRN (propMoreWorkersCRN), is:
// for w' > w, T(w') ≤ T(w) whenever every extra worker arrives by
// map_end(w) and either w ≥ r or the first-wave shuffle is pointwise no
// longer than the second-wave one (same σ, μ₁ ≤ μ₂). With a fixed arrival
// time (σ = 0) the first condition always holds, so the estimated P(T ≤ D)
// never falls. (With the same durations per task index, greedy list
// scheduling starts every task no later on more workers — the sorted timer
// vectors stay dominated — and (a) and (b) are the only places where an
// extra worker changes the barrier or a duration.) In practice (a) makes P
// rise, peak and fall as w grows when the arrival spread is large against
// the map phase, and (b) flattens P just below w = r (on the 500 GB sort
// of examples/predict, r = 120, P rises by under 0.02 from 100 to 125
// workers; bench_test.go has the figures).
//
// Worker search (§5.4.1). With a flat P the answer of a search on point
// estimates is noise: at 250 runs per worker count the estimate's standard
// error (0.025) exceeds P's rise over 20 workers. SearchWorkers therefore
// gives each estimate its exact Clopper–Pearson interval and a verdict
// against the confidence — Meets (interval at or above), Misses (below) or
// WithinNoise (still straddling after SearchOptions.RunLimit runs) —
// doubling the runs of a worker count while its interval straddles the
// confidence (sequential sampling on runs 0..n−1, so no run is simulated
// twice). Each of a count's up to Looks() checks uses coverage 1 − (1 −
// Level)/Looks(), so a verdict is wrong with probability at most
// (1 − Level)/2 (default Level 95%) however many checks it took (with the
// plain 95% interval at every check, repeated looks make a wrong verdict
// far likelier than 5%). It climbs w = 1, 2, 4, … to the first count that Meets — so a P that falls at large w
// (a) hides no smaller answer, as probing maxWorkers first would — then
// bisects to the smallest w that Meets with w − 1 not meeting, and bisects
// below for NoiseFrom, the lower end of the band the runs could not tell
// from the confidence. The answer always has its own verdict, never one
// inferred from a neighbour; a dip of P below the confidence between two
// counts that meet can still hide a smaller answer (the search assumes one
// crossing between the counts it bisects), and dips smaller than the
// interval change no verdict. When P does not fall as w grows, the answers
// of different seeds lie in each other's bands unless an interval failed
// to cover (propSeedsAgree, at level 1 − 10⁻¹²; TestSeedsAgreeBySeed on a
// non-monotone model). WorkersFor and WorkersForEach are SearchWorkers
// with the default options.
//
// # Decisions where the thesis is silent
//
//   - Online state: reduce tasks start at the map barrier (§5.2.2), so a
//     JobState with a started reduce task must have every map done, and in
//     the reduce phase tasks not yet started are second-wave tasks. Workers
//     not yet present arrive at an Arrival draw conditioned on exceeding
//     the elapsed time. Workers added now arrive after a fresh Arrival draw
//     and take maps, but one still absent when the maps finish does not
//     hold the barrier, and a worker that gets no task never counts in the
//     completion time; adding workers then never lengthens a run except
//     through (b) (propAddedNeverHurts). From Start() with none added,
//     RunFrom equals Run bit for bit.
//   - AllocateByReward pays every worker from the job's start to its
//     completion; ties go to fewer workers.
//   - AdjustForSize fits least-squares lines over all measured sizes; a
//     mean ≤ 0 or a variance < 0 at the new size is an error, not clamped.
//   - Quantile interpolates between order statistics (Hyndman–Fan type 7);
//     StdDev divides by n − 1; ProbWithin counts outcomes ≤ the deadline.
//   - Limits: Workers ≤ 2²⁰, Maps ≤ 2²⁷, Reduces ≤ 2²⁴, Runs ≤ 2²⁴; every
//     lognormal has |Mu| ≤ MaxLogMu = 50 and Sigma ≤ MaxSigma = 10, and
//     every elapsed time is ≤ MaxDuration = 10¹² s, so no moment, draw or
//     run overflows. RunFrom and PredictRemaining simulate relative to the
//     job's elapsed time, so a long-running job's remaining time keeps full
//     precision. One call's work is bounded too: runs × (Workers + Maps +
//     2·Reduces) draws ≤ MaxDraws = 2³² (about three minutes of one core),
//     counted with a search's RunLimit and maxWorkers and summed over
//     AllocateByReward's candidates.
//
// Run and RunFrom allocate nothing after a Simulator's first run (pinned by
// an AllocsPerRun test); the benchmarks in bench_test.go measure them and
// Predict, with the machine, command and figures in their comments.
//
// # Errors
//
// Every function is pure: equal inputs give equal outputs, bit for bit, and
// nothing panics on caller data. NaN, infinite or out-of-range inputs give a
// *ValueError matching ErrBadInput that names the field, with its index
// ("samples[3]"), and the value.
//
// # Limits
//
// Sizes and values a caller controls are bounded and checked before any
// work; one beyond gives a *ValueError naming the field:
//
//	MaxWorkers = 2²⁰       JobModel.Workers
//	MaxMaps = 2²⁷          JobModel.Maps
//	MaxReduces = 2²⁴       JobModel.Reduces
//	MaxRuns = 2²⁴          Options.Runs of a Monte-Carlo prediction
//	MaxGoroutines = 1024   Options.Goroutines
//	MaxDraws = 2³²         runs × (Workers + Maps + 2·Reduces) of one call
//	                       (Options.Runs; SearchOptions.RunLimit at maxWorkers;
//	                       AllocateByReward's candidates summed)
//	MaxLogMu, MaxSigma     a Lognormal's |Mu| ≤ 50 and Sigma ≤ 10
//	MaxDuration = 1e12 s   every elapsed time of a JobState
package jct

package jct

import (
	"math"
	"math/rand/v2"
)

// A Simulator performs single Monte-Carlo runs of a JobModel (Lee thesis
// §5.2.2) and keeps the buffers between runs, so that after the first run
// of a given size a run allocates nothing. The zero value is ready to use.
// A Simulator must not be used by two goroutines at once; give each
// goroutine its own.
//
// Random streams. Run k with seed s draws from four independent PCG streams
// whose seeds are derived from (s, k) by SplitMix64 mixing: worker
// arrivals, map durations, shuffle deviates and reduce durations. Within a
// stream the i-th draw always belongs to the i-th worker or task, so runs
// with different worker counts share their draws (common random numbers):
// with w and w' > w workers, worker j ≤ w arrives at the same time, map i
// takes the same time and reduce task i the same Reduce time. Reduce task i
// also owns the i-th standard normal deviate Z_i of the shuffle stream;
// its shuffle lasts e^(μ₁+σ₁Z_i) if it falls in the first wave and
// e^(μ₂+σ₂Z_i) otherwise. Run k's result depends only on (model, seed, k),
// never on which goroutine computes it or in what order.
type Simulator struct {
	w    []float64 // worker timers W[0..w)
	d    [mcChunk]float64
	src  [mcStreams]rand.PCG
	rng  [mcStreams]*rand.Rand
	init bool
}

// mcChunk is how many map durations a Simulator draws at a time.
const mcChunk = 256

// The four random streams of one run.
const (
	mcStreamArrival = iota
	mcStreamMap
	mcStreamShuffle
	mcStreamReduce
	mcStreams
)

// Run returns the completion time in seconds of run number run (≥ 0) of
// job model m with the given seed, following the Lee thesis §5.2.2
// pseudo-code (with its index error fixed: the printed first-wave loop
// sets W[j] for an undefined j and schedules w first-wave tasks even when
// r < w):
//
//  1. draw the w worker arrival times W[1..w];
//  2. give each of the m map tasks in turn to the worker with the smallest
//     W[j] (a min-heap) and add a map draw to it;
//  3. map_end = max(W); set every W[i] = map_end;
//  4. first wave: reduce tasks 1..min(w, r) start at once, one per worker:
//     W[i] += S1_i + R_i;
//  5. second wave: each remaining reduce task i goes to the worker with the
//     smallest W[j]: W[j] += S2_i + R_i;
//  6. the completion time is max(W).
//
// Which of several tied workers takes a task does not matter: the multiset
// of timers, and so every result, is the same. An invalid model or a
// negative run gives a *ValueError. Run allocates only when its buffer
// must grow (the first run, or a larger Workers than before).
func (s *Simulator) Run(m JobModel, seed uint64, run int) (float64, error) {
	if err := m.Validate(); err != nil {
		return 0, err
	}
	if run < 0 {
		return 0, &ValueError{Field: "run", Value: run, Reason: "must be ≥ 0"}
	}
	return s.run(&m, seed, run), nil
}

// run is Run without validation.
func (s *Simulator) run(m *JobModel, seed uint64, run int) float64 {
	s.seed(seed, run)
	w := s.workers(m.Workers)
	arr := s.rng[mcStreamArrival]
	for j := range w {
		w[j] = m.Arrival.draw(arr)
	}
	return s.mapsThenReduces(m, w, m.Maps, len(w))
}

// workers returns the timer buffer resized to n, growing it if needed.
func (s *Simulator) workers(n int) []float64 {
	if cap(s.w) < n {
		s.w = make([]float64, n)
	}
	s.w = s.w[:n]
	return s.w
}

// seed points the four streams at run k of seed.
func (s *Simulator) seed(seed uint64, run int) {
	if !s.init {
		for i := range s.rng {
			s.rng[i] = rand.New(&s.src[i])
		}
		s.init = true
	}
	base := mcSplitMix(mcSplitMix(seed) ^ uint64(run))
	for i := range s.src {
		h := mcSplitMix(base + uint64(2*i+1)*0x9e3779b97f4a7c15)
		s.src[i].Seed(h, mcSplitMix(h))
	}
}

// mapsThenReduces runs steps 2–6 from worker timers w with maps map tasks
// still to start and returns the completion time. The first hold timers
// (the job's own workers) hold the barrier: map_end is the latest of their
// timers and of every map's finish. Any further worker (one added by
// RunFrom) whose timer is still later than map_end has not arrived: it
// skips the first wave and takes second-wave tasks once it arrives. The
// completion time is the latest of map_end and every reduce task's finish;
// with hold = len(w) that is max(W) of step 6.
func (s *Simulator) mapsThenReduces(m *JobModel, w []float64, maps, hold int) float64 {
	barrier := mcMax(w[:hold])
	mcHeapify(w)
	mp := s.rng[mcStreamMap]
	mu, sigma := m.Map.Mu, m.Map.Sigma
	for maps > 0 {
		// Draw a chunk of map durations first (independent exps pipeline
		// well), then hand them out in order: the same draws as one by one.
		d := s.d[:min(maps, mcChunk)]
		for i := range d {
			d[i] = mu + sigma*mp.NormFloat64()
		}
		for i := range d {
			d[i] = math.Exp(d[i])
		}
		for _, x := range d {
			w[0] += x
			if w[0] > barrier {
				barrier = w[0]
			}
			mcSiftDown(w, 0)
		}
		maps -= len(d)
	}
	ready := 0
	for i, t := range w {
		if t <= barrier {
			w[i] = barrier
			ready++
		}
	}
	first := min(ready, m.Reduces)
	end := barrier
	sh, rd := s.rng[mcStreamShuffle], s.rng[mcStreamReduce]
	for i, n := 0, 0; n < first; i++ {
		if w[i] == barrier {
			w[i] += math.Exp(m.Shuffle1.Mu+m.Shuffle1.Sigma*sh.NormFloat64()) + m.Reduce.draw(rd)
			end = max(end, w[i])
			n++
		}
	}
	if first < m.Reduces {
		end = max(end, s.secondWave(m, w, m.Reduces-first))
	}
	return end
}

// secondWave gives n second-wave reduce tasks, in order, to the worker with
// the smallest timer (step 5), and returns the latest finish among them (0
// when n = 0).
func (s *Simulator) secondWave(m *JobModel, w []float64, n int) float64 {
	mcHeapify(w)
	sh, rd := s.rng[mcStreamShuffle], s.rng[mcStreamReduce]
	end := 0.0
	for range n {
		w[0] += math.Exp(m.Shuffle2.Mu+m.Shuffle2.Sigma*sh.NormFloat64()) + m.Reduce.draw(rd)
		end = max(end, w[0])
		mcSiftDown(w, 0)
	}
	return end
}

// mcSplitMix is the SplitMix64 finaliser, used to derive stream seeds.
func mcSplitMix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// mcMax returns the largest element of a non-empty w.
func mcMax(w []float64) float64 {
	m := w[0]
	for _, v := range w[1:] {
		if v > m {
			m = v
		}
	}
	return m
}

// mcHeapify orders w as a binary min-heap. Among equal timers the heap
// keeps no particular index order; the result is still deterministic.
func mcHeapify(w []float64) {
	for i := len(w)/2 - 1; i >= 0; i-- {
		mcSiftDown(w, i)
	}
}

// mcSiftDown restores the heap below i after w[i] grew. Where both
// children exist the smaller is picked without a branch (the comparison
// selects the index arithmetically), since which child is smaller is a
// coin toss the processor cannot predict.
func mcSiftDown(w []float64, i int) {
	n := len(w)
	v := w[i]
	for {
		l := 2*i + 1
		if l+1 >= n {
			if l < n && w[l] < v { // a last, single child
				w[i] = w[l]
				i = l
			}
			break
		}
		r := 0
		if w[l+1] < w[l] {
			r = 1
		}
		c := l + r
		wc := w[c]
		if !(wc < v) {
			break
		}
		w[i] = wc
		i = c
	}
	w[i] = v
}

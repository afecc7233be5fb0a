package jct_test

import (
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/schedkit/schedkit/tct/jct"
)

// exampleJob is a small MapReduce job (Lee thesis §5.2.2): 400 maps, 30
// reduce tasks, each phase a lognormal from its mean and standard
// deviation in seconds.
func exampleJob() jct.JobModel {
	phase := func(mean, sd float64) jct.Lognormal {
		l, err := jct.LognormalFromMoments(mean, sd*sd) // Eq. 5.1
		if err != nil {
			panic(err)
		}
		return l
	}
	return jct.JobModel{
		Arrival:  phase(20, 10),
		Map:      phase(30, 12),
		Shuffle1: phase(60, 20),
		Shuffle2: phase(25, 8),
		Reduce:   phase(40, 15),
		Maps:     400, Reduces: 30,
	}
}

// ExamplePredict predicts the completion-time distribution of a small
// MapReduce job (Lee thesis §5.2.2) from per-phase means and standard
// deviations, then asks how many workers meet a deadline with 90%
// confidence (§5.4.1) and how long a half-done job still needs (§5.4.2).
func ExamplePredict() {
	job := exampleJob()
	job.Workers = 20
	opt := jct.Options{Runs: 2000, Seed: 1}
	d, err := jct.Predict(job, opt)
	if err != nil {
		panic(err)
	}
	p50, _ := d.Quantile(0.5)
	p90, _ := d.Quantile(0.9)
	meet, _ := d.ProbWithin(850)
	fmt.Printf("20 workers: mean %.0f s, p50 %.0f s, p90 %.0f s, P(T ≤ 850 s) = %.2f\n", d.Mean(), p50, p90, meet)

	a, err := jct.WorkersFor(job, 850, 0.9, 200, opt)
	if err != nil {
		panic(err)
	}
	fmt.Printf("workers for 850 s at 90%%: %d (P = %.2f)\n", a.Workers, a.ProbMeet)

	now := jct.JobState{Elapsed: 400, WorkersPresent: 20, MapsDone: 250, RunningMaps: make([]float64, 20)}
	for i := range now.RunningMaps {
		now.RunningMaps[i] = float64(i) // elapsed seconds of each running map
	}
	rem, _ := jct.PredictRemaining(job, now, 0, opt)
	more, _ := jct.PredictRemaining(job, now, 20, opt)
	fmt.Printf("at 400 s: %.0f s left, %.0f s with 20 more workers\n", rem.Mean(), more.Mean())
	// Output:
	// 20 workers: mean 833 s, p50 832 s, p90 864 s, P(T ≤ 850 s) = 0.76
	// workers for 850 s at 90%: 21 (P = 0.96)
	// at 400 s: 429 s left, 317 s with 20 more workers
}

// ExampleLognormal_Draw draws task durations from the caller's seeded
// generator; a nil generator is an error, not a panic.
func ExampleLognormal_Draw() {
	l, err := jct.LognormalFromMoments(30, 12*12) // Eq. 5.1: mean 30 s, sd 12 s
	if err != nil {
		panic(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	x, err := l.Draw(rng)
	fmt.Printf("map task: %.1f s, %v\n", x, err)
	left, err := l.DrawRemaining(45, rng) // a task already 45 s old
	fmt.Printf("left after 45 s: %.1f s, %v\n", left, err)
	_, err = l.Draw(nil)
	fmt.Println(err, errors.Is(err, jct.ErrNilRand), errors.Is(err, jct.ErrBadInput))
	// Output:
	// map task: 32.2 s, <nil>
	// left after 45 s: 6.1 s, <nil>
	// jct: rng = <nil>: nil *rand.Rand true true
}

// ExampleSearchWorkers asks how many workers a job needs to meet an 850 s
// deadline with 90% probability (Lee thesis §5.4.1), and how sure the
// answer is: the estimate's interval (wide enough that the verdict is 95%
// sure over all its checks), the runs it took, and the band of worker
// counts the runs could not tell from the target.
func ExampleSearchWorkers() {
	job := exampleJob() // the search sets Workers
	opt := jct.SearchOptions{Options: jct.Options{Runs: 500, Seed: 1}}
	as, err := jct.SearchWorkers(job, 850, []float64{0.5, 0.9, 0.999}, 200, opt)
	if err != nil {
		panic(err)
	}
	for i, c := range []float64{0.5, 0.9, 0.999} {
		a := as[i]
		fmt.Printf("%.1f%%: %d workers (%v), P = %.3f [%.3f, %.3f] from %d runs; band %d–%d\n",
			100*c, a.Workers, a.Verdict, a.ProbMeet, a.Low, a.High, a.Runs, a.NoiseFrom, a.Workers)
	}
	// Output:
	// 50.0%: 20 workers (meets), P = 0.742 [0.687, 0.792] from 500 runs; band 20–20
	// 90.0%: 21 workers (meets), P = 0.972 [0.946, 0.988] from 500 runs; band 21–21
	// 99.9%: 24 workers (meets), P = 1.000 [0.999, 1.000] from 8000 runs; band 23–24
}

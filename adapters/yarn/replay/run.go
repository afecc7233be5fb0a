package replay

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/schedkit/schedkit/adapters/yarn/controller"
	"github.com/schedkit/schedkit/adapters/yarn/deadline"
	"github.com/schedkit/schedkit/adapters/yarn/dshell"
	"github.com/schedkit/schedkit/adapters/yarn/rm"
)

// A Run replays apps on one ResourceManager, with or without a controller.
type Run struct {
	Client *rm.Client
	Env    dshell.Env
	Apps   []App
	// Model is the job type named in the apps' schedkit.io/job-type tag.
	Model string
	// Queue is where the apps are submitted ("" is default).
	Queue string
	// Controller, when not nil, makes a pass every Interval while the
	// apps run.
	Controller *controller.Controller
	Interval   time.Duration
	// Grace is how long after the last deadline the run waits for apps
	// still ACCEPTED or RUNNING; it then kills them (they count as
	// missed).
	Grace time.Duration
	// Log receives one line per submission and per change of the count
	// of apps left; nil discards.
	Log io.Writer
}

// An Outcome is what became of one app.
type Outcome struct {
	App App
	// ID is the YARN application ID.
	ID string
	// State and FinalStatus are the app's at the end.
	State, FinalStatus string
	// Submitted is when the RM took it and Finished when it ended, from
	// the start of the run (Finished 0 if it did not end).
	Submitted, Finished time.Duration
	// Deadline is its deadline from the start of the run: its submission
	// plus App.Deadline − App.At (a submission later than App.At, as on
	// a busy RM, moves its deadline with it).
	Deadline time.Duration
	// Met: it FINISHED, SUCCEEDED, by its deadline.
	Met bool
	// Killed: the controller killed it (its diagnostics carry the
	// controller's "schedkit: not admitted").
	Killed bool
	// ContainerSeconds is the app's vcore-seconds (all containers have one
	// vcore, the ApplicationMaster's included).
	ContainerSeconds int64
	Diagnostics      string
}

// replayTag marks a run's apps (it has no schedkit. prefix: the
// controller would reject an app with an unknown schedkit.* key).
func replayTag(start time.Time) string { return fmt.Sprintf("replay-%d", start.UnixMilli()) }

// Do submits every app at its time, runs the controller beside them if
// there is one, waits until all have ended or the last deadline plus
// Grace has passed (killing what is left), and returns one Outcome per
// app in submission order. A failed submission or read ends the run with
// an error.
func (r Run) Do(ctx context.Context) ([]Outcome, error) {
	if len(r.Apps) == 0 {
		return nil, errors.New("replay: Run.Apps is empty")
	}
	if r.Controller != nil && r.Interval <= 0 {
		return nil, fmt.Errorf("replay: Run.Interval = %v: must be > 0 with a controller", r.Interval)
	}
	logw := r.Log
	if logw == nil {
		logw = io.Discard
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	start := time.Now()
	tag := replayTag(start)
	var last time.Duration
	for _, a := range r.Apps {
		last = max(last, a.Deadline)
	}

	var wg sync.WaitGroup
	if r.Controller != nil {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.Controller.Run(ctx, r.Interval, nil) // returns when ctx ends
		}()
	}
	ids := make([]string, len(r.Apps))
	subs := make([]time.Duration, len(r.Apps))
	var subErr error
	submitted := make(chan struct{})
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(submitted)
		for i, a := range r.Apps {
			t := time.NewTimer(time.Until(start.Add(a.At)))
			select {
			case <-ctx.Done():
				t.Stop()
				return
			case <-t.C:
			}
			at := time.Now()
			tags := []string{deadline.DeadlineTag(at.Add(a.Deadline - a.At).UnixMilli()),
				deadline.Tag(deadline.TagJobType, r.Model), deadline.Tag(deadline.TagTasks, fmt.Sprint(a.Maps)), tag}
			id, err := dshell.Submit(ctx, r.Client, r.Env, dshell.App{Name: "replay " + a.Job, Queue: r.Queue, Tags: tags,
				Containers: a.Maps, Sleep: a.Sleep})
			if err != nil {
				subErr = fmt.Errorf("replay: submitting %s: %w", a.Job, err)
				cancel()
				return
			}
			ids[i], subs[i] = id, at.Sub(start)
			fmt.Fprintf(logw, "%6.1f s  submitted %s as %s: %d × %v, deadline in %.1f s\n",
				subs[i].Seconds(), a.Job, id, a.Maps, a.Sleep, (a.Deadline - a.At).Seconds())
		}
	}()

	err := r.wait(ctx, start, start.Add(last+r.Grace), tag, submitted, logw)
	cancel()
	wg.Wait()
	if subErr != nil {
		return nil, subErr
	}
	if err != nil {
		return nil, err
	}
	return r.outcomes(context.Background(), start, ids, subs)
}

// wait polls the run's apps every second until all are submitted and
// none is ACCEPTED or RUNNING, or until horizon, when it kills those left.
func (r Run) wait(ctx context.Context, start, horizon time.Time, tag string, submitted <-chan struct{}, logw io.Writer) error {
	active := []string{rm.StateNew, rm.StateNewSaving, rm.StateSubmitted, rm.StateAccepted, rm.StateRunning}
	prev := -1
	for {
		select {
		case <-ctx.Done():
			return nil // a failed submission; Do reports it
		case <-time.After(time.Second):
		}
		done := false
		select {
		case <-submitted:
			done = true
		default:
		}
		apps, err := r.Client.Apps(ctx, rm.AppsFilter{States: active, Tags: []string{tag}})
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("replay: reading the apps: %w", err)
		}
		if len(apps) != prev {
			fmt.Fprintf(logw, "%6.1f s  %d apps ACCEPTED or RUNNING\n", time.Since(start).Seconds(), len(apps))
			prev = len(apps)
		}
		if done && len(apps) == 0 {
			return nil
		}
		if time.Now().After(horizon) {
			for _, a := range apps {
				if _, _, err := r.Client.Kill(ctx, a.ID, "replay over: the last deadline has passed"); err != nil {
					return fmt.Errorf("replay: killing %s at the end: %w", a.ID, err)
				}
			}
			if done && len(apps) == 0 {
				return nil
			}
			horizon = time.Now().Add(time.Minute) // wait for the kills, then again
		}
	}
}

// outcomes reads every app once more, after it ended.
func (r Run) outcomes(ctx context.Context, start time.Time, ids []string, subs []time.Duration) ([]Outcome, error) {
	out := make([]Outcome, len(ids))
	for i, id := range ids {
		a, err := r.Client.App(ctx, id)
		if err != nil {
			return nil, fmt.Errorf("replay: reading %s: %w", id, err)
		}
		o := Outcome{App: r.Apps[i], ID: id, State: string(a.State), FinalStatus: string(a.FinalStatus),
			Submitted: subs[i], Deadline: subs[i] + r.Apps[i].Deadline - r.Apps[i].At,
			ContainerSeconds: int64(a.VcoreSeconds), Diagnostics: string(a.Diagnostics)}
		if a.FinishedTime > 0 {
			o.Finished = time.UnixMilli(int64(a.FinishedTime)).Sub(start)
		}
		o.Met = o.State == rm.StateFinished && o.FinalStatus == "SUCCEEDED" && o.Finished <= o.Deadline
		o.Killed = o.State == rm.StateKilled && strings.Contains(o.Diagnostics, "schedkit: not admitted")
		out[i] = o
	}
	return out, nil
}

// A Summary counts a run's outcomes.
type Summary struct {
	Apps int
	// Met apps finished by their deadline; Killed ones the controller
	// killed; Missed are the rest (kept apps that finished late, failed
	// or were still running at the end).
	Met, Missed, Killed int
	// ContainerSeconds sums the apps' container time.
	ContainerSeconds int64
}

// Summarize counts outcomes.
func Summarize(os []Outcome) Summary {
	s := Summary{Apps: len(os)}
	for _, o := range os {
		s.ContainerSeconds += o.ContainerSeconds
		switch {
		case o.Met:
			s.Met++
		case o.Killed:
			s.Killed++
		default:
			s.Missed++
		}
	}
	return s
}

// KeptMissedShare is the share of the kept (not killed) apps that missed
// their deadline; 0 with no kept app.
func (s Summary) KeptMissedShare() float64 {
	if kept := s.Apps - s.Killed; kept > 0 {
		return float64(s.Missed) / float64(kept)
	}
	return 0
}
